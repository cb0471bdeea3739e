"""The "Les tirs" miniatures rule set (seed 001): direct fire with pools of D10.

Procedures: ``precision`` (the precision test's hits), ``fire`` (the target's state after one
or several fires) and ``split`` (a group's half-group morale test). The Python API adds the hit
tracks as state (:mod:`.effects`), opportunity fire over action-point ledgers
(:mod:`.opportunity`), target priority (:mod:`.priority`) and user-supplied data
(:mod:`.userdata`).
"""

from __future__ import annotations

from firefight.rulesets.procedure import RuleSet
from firefight.rulesets.tirs import effects, morale, precision
from firefight.rulesets.tirs.effects import FIRE, TargetState, TirsFire
from firefight.rulesets.tirs.engagement import TirsEngagement
from firefight.rulesets.tirs.morale import SPLIT, TirsSplit
from firefight.rulesets.tirs.paths import DATA
from firefight.rulesets.tirs.precision import PRECISION, TirsPrecision

RULESET = RuleSet(
    id="tirs",
    title="Les tirs (French WWII miniatures, direct fire)",
    source="a French WWII miniatures rule set, chapter 'Les tirs' (title unknown)",
    procedures=(*effects.PROCEDURES, *precision.PROCEDURES, *morale.PROCEDURES),
    aliases=("les-tirs",),
    data=DATA,
    doc="docs/tirs.md",
    engagement=TirsEngagement,
    scenarios=DATA / "engagements",
)

__all__ = [
    "FIRE",
    "PRECISION",
    "RULESET",
    "SPLIT",
    "TargetState",
    "TirsFire",
    "TirsPrecision",
    "TirsSplit",
]
