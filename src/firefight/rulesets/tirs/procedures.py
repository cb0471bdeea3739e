"""The rule set's procedures as declared (name, title and module), read by its metadata
(:data:`firefight.rulesets.tirs.INFO`) and the rule set alike; each module holding them is
imported when one of its procedures is asked for. Imports nothing heavy."""

from __future__ import annotations

from firefight.rulesets.declared import ProcedureInfo

PROCEDURES = (
    ProcedureInfo(
        "fire",
        "Direct fire: precision test and the target's state after (Effets du tir)",
        "firefight.rulesets.tirs.effects:FIRE",
    ),
    ProcedureInfo(
        "precision",
        "Test de précision (precision test): hits from a pool of D10",
        "firefight.rulesets.tirs.precision:PRECISION",
    ),
    ProcedureInfo(
        "split",
        "Splitting a group into two half-groups (test moral)",
        "firefight.rulesets.tirs.morale:SPLIT",
    ),
)
"""Each procedure's name, title and where it is: the rule set imports one when it is asked
for."""
