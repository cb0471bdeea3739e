"""Hedgerow Skirmish units in an engagement (rules 7): fit, pinned or killed.

Each unit's fire is the ``fire`` procedure. ``K`` kills the target; ``P`` pins it: it sits
out its side's next fire, then fights again. The sides fire in turn, side a first.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any, ClassVar

from pydantic import Field

from firefight.api import EngagementRules, Order, RuleInput
from hedgerow.fire import FIRE

_WORDS = {
    "fit": "fit",
    "pinned": "pinned",
    "sitting_out": "pinned (sitting out this fire)",
    "killed": "killed",
}


class HedgerowUnit(RuleInput):
    """A unit: its firepower, whether it is a veteran, and whether it starts pinned."""

    name: str = Field(min_length=1, max_length=60, description="The unit's name.")
    firepower: int = Field(ge=1, le=12, description="Its firepower (4.1).")
    veteran: bool = Field(False, description="A veteran adds 1 to its fire rolls (4.4).")
    pinned: bool = Field(False, description="Pinned at the start: sits out one fire.")


class HedgerowOptions(RuleInput):
    """The engagement's readings: none."""


class HedgerowEngagement(EngagementRules[HedgerowUnit, str]):
    """Fire between two sides on the Fire Chart, one side then the other (rules 7.1)."""

    ruleset: ClassVar[str] = "hedgerow"
    procedure = FIRE
    unit_model = HedgerowUnit
    options_model = HedgerowOptions
    order: ClassVar[Order] = "alternating"
    order_rule: ClassVar[str] = "7.1: side a fires, then side b"
    unit_fields = frozenset({"firepower", "veteran"})

    def start(self, unit: HedgerowUnit) -> str:
        """Fit, or pinned."""
        return "pinned" if unit.pinned else "fit"

    def attack_fields(
        self, firer: HedgerowUnit, firer_state: str, target: HedgerowUnit, target_state: str
    ) -> dict[str, Any]:
        """The firer's firepower and veteran status (the target's cover is its side's)."""
        del firer_state, target, target_state
        return {"firepower": firer.firepower, "veteran": firer.veteran}

    def apply(self, target: HedgerowUnit, state: str, outcome: str) -> str:
        """``K`` kills, ``P`` pins."""
        del target
        if state == "killed" or outcome == "-":
            return state
        return "killed" if outcome == "K" else "pinned"

    def can_fire(self, unit: HedgerowUnit, state: str) -> bool:
        """Fit units fire."""
        del unit
        return state == "fit"

    def out(self, unit: HedgerowUnit, state: str) -> bool:
        """Killed."""
        del unit
        return state == "killed"

    def broken(self, units: Sequence[HedgerowUnit], states: Sequence[str]) -> bool:
        """Every unit killed."""
        del units
        return all(s == "killed" for s in states)

    def before_fire(self, unit: HedgerowUnit, state: str) -> str:
        """A pinned unit sits out this fire; one that sat out the last fights again."""
        del unit
        return {"pinned": "sitting_out", "sitting_out": "fit"}.get(state, state)

    def value(self, unit: HedgerowUnit, state: str) -> Fraction:
        """Its firepower while alive, half of it while pinned."""
        if state == "killed":
            return Fraction(0)
        return Fraction(unit.firepower) / (1 if state == "fit" else 2)

    def describe(self, unit: HedgerowUnit, state: str) -> str:
        """``fit``, ``pinned`` or ``killed``."""
        del unit
        return _WORDS[state]
