"""Percentile-table units in an engagement: fit, suppressed or killed (seed 004).

Each unit's fire is the registered ``fire`` procedure (the Defense/Firepower Table): the firer's
firepower against the target's defense, its outcome ``kill`` ("the unit is eliminated"),
``suppressed`` ("Suppressed for one turn") or ``no_effect``:

* ``kill``: out of the fight.
* ``suppressed``: it sits out its side's next fire, then fights again ("for one turn":
  reading, the seed says no more; see docs/engagements.md). Suppressed again while it sits
  out, it sits out the next fire too.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any, ClassVar, Literal

from pydantic import Field

from firefight.core.inputs import RuleInput
from firefight.i18n import N_
from firefight.rulesets.engagement import EngagementRules, Order
from firefight.rulesets.percentile.fire import FIRE

PercentileState = Literal["fit", "suppressed", "sitting_out", "killed"]
"""``suppressed``: hit this turn, sits out its side's next fire; ``sitting_out``: sitting it
out now (cannot fire)."""

_WORDS = {
    "fit": N_("fit"),
    "suppressed": N_("suppressed"),
    "sitting_out": N_("suppressed (sitting out this fire)"),
    "killed": N_("killed"),
}


class PercentileUnit(RuleInput):
    """A unit of the percentile rule set: its firepower and defense, and its state."""

    name: str = Field(min_length=1, max_length=60, description="The unit's name.")
    firepower: int = Field(
        ge=1, le=20, description="Its offensive firepower factor (Infantry capabilities)."
    )
    base_defense: int = Field(2, ge=1, le=10, description='Its inherent defense (Base = "2").')
    elite: bool = Field(False, description="Elite Unit +1 to its defense.")
    suppressed: bool = Field(False, description="Suppressed at the start: sits out one fire.")


class PercentileEngagementOptions(RuleInput):
    """The percentile rule set's engagement readings: none needed so far."""


class PercentileEngagement(EngagementRules[PercentileUnit, str]):
    """Fire between two sides on the Defense/Firepower Table."""

    ruleset: ClassVar[str] = "percentile"
    procedure = FIRE
    unit_model = PercentileUnit
    options_model = PercentileEngagementOptions
    order: ClassVar[Order] = "alternating"
    order_rule: ClassVar[str] = (
        "reading: the seed gives no turn sequence; one side fires, then the other, side a first"
    )
    unit_fields = frozenset({"firepower", "base_defense", "elite"})

    def start(self, unit: PercentileUnit) -> str:
        """Fit, or suppressed."""
        return "suppressed" if unit.suppressed else "fit"

    def attack_fields(
        self,
        firer: PercentileUnit,
        firer_state: str,
        target: PercentileUnit,
        target_state: str,
    ) -> dict[str, Any]:
        """The firer's firepower (the column); the target's base defense and Elite +1."""
        del firer_state, target_state
        return {
            "firepower": firer.firepower,
            "base_defense": target.base_defense,
            "elite": target.elite,
        }

    def apply(self, target: PercentileUnit, state: str, outcome: str) -> str:
        """Kill eliminates; Suppressed for one turn."""
        del target
        if state == "killed" or outcome == "no_effect":
            return state
        if outcome == "kill":
            return "killed"
        return "suppressed"

    def can_fire(self, unit: PercentileUnit, state: str) -> bool:
        """Fit units fire; a suppressed one sits its turn out."""
        del unit
        return state == "fit"

    def out(self, unit: PercentileUnit, state: str) -> bool:
        """Killed."""
        del unit
        return state == "killed"

    def broken(self, units: Sequence[PercentileUnit], states: Sequence[str]) -> bool:
        """Every unit killed (suppression lasts one turn)."""
        del units
        return all(s == "killed" for s in states)

    def before_fire(self, unit: PercentileUnit, state: str) -> str:
        """A suppressed unit sits out this fire; one that sat out the last fights again."""
        del unit
        return {"suppressed": "sitting_out", "sitting_out": "fit"}.get(state, state)

    def value(self, unit: PercentileUnit, state: str) -> Fraction:
        """Its firepower plus its defense while alive (firepower counts half while
        suppressed)."""
        if state == "killed":
            return Fraction(0)
        fire = Fraction(unit.firepower) / (1 if state == "fit" else 2)
        return fire + unit.base_defense

    def describe(self, unit: PercentileUnit, state: str) -> str:
        """``fit``, ``suppressed`` or ``killed``."""
        del unit
        return _WORDS[state]


RULES = PercentileEngagement
