"""The rule set's procedures as declared (name, title and module), read by its metadata
(:data:`firefight.rulesets.percentile.INFO`) and the rule set alike; each module holding them is
imported when one of its procedures is asked for. Imports nothing heavy."""

from __future__ import annotations

from firefight.rulesets.declared import ProcedureInfo

PROCEDURES = (
    ProcedureInfo(
        "fire",
        "Fire against infantry (Defense/Firepower Table)",
        "firefight.rulesets.percentile.fire:FIRE",
    ),
    ProcedureInfo(
        "example_fire",
        "EXAMPLE data: fire with the shipped EXAMPLE capabilities (not the rulebook's values)",
        "firefight.rulesets.percentile.example:EXAMPLE_FIRE",
    ),
)
"""Each procedure's name, title and where it is: the rule set imports one when it is asked
for."""
