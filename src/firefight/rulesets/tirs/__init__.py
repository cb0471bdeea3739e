"""The "Les tirs" miniatures rule set (seed 001): direct fire with pools of D10.

Procedures: ``precision`` (the precision test's hits), ``fire`` (the target's state after one
or several fires) and ``split`` (a group's half-group morale test). The Python API adds the hit
tracks as state (:mod:`.effects`), opportunity fire over action-point ledgers
(:mod:`.opportunity`), target priority (:mod:`.priority`) and user-supplied data
(:mod:`.userdata`). This package declares the rule set's metadata (:data:`INFO`) and imports
nothing else: the rule set itself is in :mod:`.ruleset`, and the names below are imported when
first asked for.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from firefight.rulesets.declared import ProcedureInfo
from firefight.rulesets.info import RuleSetInfo, lazy_attribute

if TYPE_CHECKING:
    from firefight.rulesets.procedure import RuleSet
    from firefight.rulesets.tirs.effects import FIRE, TargetState, TirsFire
    from firefight.rulesets.tirs.morale import SPLIT, TirsSplit
    from firefight.rulesets.tirs.precision import PRECISION, TirsPrecision

    RULESET: RuleSet  # imported from .ruleset when first asked for

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

INFO = RuleSetInfo.declare(
    PROCEDURES,
    id="tirs",
    title="Les tirs (French WWII miniatures, direct fire)",
    source="a French WWII miniatures rule set, chapter 'Les tirs' (title unknown)",
    target="firefight.rulesets.tirs.ruleset:RULESET",
    aliases=("les-tirs",),
    doc="docs/tirs.md",
)

_LAZY = {
    "RULESET": "ruleset",
    "FIRE": "effects",
    "TargetState": "effects",
    "TirsFire": "effects",
    "SPLIT": "morale",
    "TirsSplit": "morale",
    "PRECISION": "precision",
    "TirsPrecision": "precision",
}


def __getattr__(name: str) -> object:
    return lazy_attribute(__name__, _LAZY, name)


__all__ = [
    "FIRE",
    "INFO",
    "PRECISION",
    "PROCEDURES",
    "RULESET",
    "SPLIT",
    "TargetState",
    "TirsFire",
    "TirsPrecision",
    "TirsSplit",
]
