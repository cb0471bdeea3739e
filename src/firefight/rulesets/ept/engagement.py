"""EPT units in an engagement: steps, stopped, neutralized (TABLE DE COMBAT, seed 000).

Each unit's fire is the registered ``fire`` procedure (MODIFICATEURS DE TIR, TABLE DE
COMBAT) with ``follow_up = morale_test``: its outcome is one of
:data:`~firefight.rulesets.ept.fire.MORALE_OUTCOMES`, mapped here to the target's state:

* ``stopped`` (a failed stoppage test, S results): the unit is stopped; a stopped firer fires
  at x1/2 (MODIFICATEURS DE TIR: "Firer stopped").
* ``neutralized`` (a failed neutralization test, N results): the unit is neutralized and does
  not fire (reading: the seed gives no fire for a neutralized unit; see docs/engagements.md).
* ``step_lost_neutralized`` ("1 = lose a step + Neutralized"): one step fewer, neutralized.
* ``eliminated`` ("E = Eliminated"), or the last step lost: out of the fight.

The seed gives no recovery from stopped or neutralized: the ``recovery`` option names the
reading (``none``: markers stay; ``own_turn``: removed when the unit's side next fires), and
``repeat_stoppage`` what a second stoppage does to a stopped unit.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any, ClassVar, Literal, NamedTuple

from pydantic import Field, model_validator

from firefight.core.inputs import RuleInput
from firefight.i18n import gettext as _
from firefight.rulesets.engagement import EngagementRules, Order
from firefight.rulesets.ept.fire import FIRE


class EptUnit(RuleInput):
    """An EPT unit as its counter gives it (seed 000 charts), and its state at the start."""

    name: str = Field(min_length=1, max_length=60, description="The unit's name.")
    strength: tuple[int, ...] = Field(
        min_length=1,
        max_length=4,
        description=(
            "Fire strength (Puissance) for each step, full strength first (e.g. [6, 3] for a "
            "two-step unit); a single number is a one-step unit."
        ),
    )
    morale: int = Field(ge=2, le=12, description="Morale (Moral): 2d6 (+ digit) <= it passes.")
    steps: int | None = Field(
        None, ge=1, le=4, description="Steps left at the start (default: every step)."
    )
    stopped: bool = Field(False, description="Stopped at the start (fires at x1/2).")
    neutralized: bool = Field(False, description="Neutralized at the start (does not fire).")

    @model_validator(mode="before")
    @classmethod
    def _one_strength(cls, data: object) -> object:
        if isinstance(data, dict) and isinstance(data.get("strength"), int):
            return {**data, "strength": (data["strength"],)}
        return data

    @model_validator(mode="after")
    def _steps_on_the_counter(self) -> EptUnit:
        if self.steps is not None and self.steps > len(self.strength):
            msg = _(
                "'steps' must be from 1 to {high} (one strength per step) (got {steps})"
            ).format(high=len(self.strength), steps=self.steps)
            raise ValueError(msg)
        if any(s < 1 for s in self.strength):
            msg = _("'strength' must be at least 1 for every step (got {strength})").format(
                strength=list(self.strength)
            )
            raise ValueError(msg)
        return self


class EptState(NamedTuple):
    """A unit's state: steps left (0: eliminated), stopped, neutralized (a tuple: states are
    hashed millions of times by the exact odds)."""

    steps: int
    stopped: bool = False
    neutralized: bool = False

    def __str__(self) -> str:
        if self.steps == 0:
            return "eliminated"
        words = [f"{self.steps} step{'s' if self.steps > 1 else ''}"]
        if self.stopped:
            words.append("stopped")
        if self.neutralized:
            words.append("neutralized")
        return ", ".join(words)


class EptEngagementOptions(RuleInput):
    """EPT's engagement readings (the scenario's ``[rules]`` table)."""

    recovery: Literal["none", "own_turn"] = Field(
        "none",
        description=(
            "When stopped and neutralized markers go (the chart sheet is silent): none = they stay "
            "for the engagement; own_turn = removed when the unit's side next fires."
        ),
    )
    repeat_stoppage: Literal["stays_stopped", "neutralizes"] = Field(
        "stays_stopped",
        description=(
            "A stoppage on a unit already stopped (the chart sheet is silent): stays_stopped = no "
            "further effect; neutralizes = it is neutralized."
        ),
    )


class EptEngagement(EngagementRules[EptUnit, EptState]):
    """EPT fire between two sides: ``fire`` with its stoppage and neutralization tests."""

    ruleset: ClassVar[str] = "ept"
    procedure = FIRE
    unit_model = EptUnit
    options_model = EptEngagementOptions
    order: ClassVar[Order] = "alternating"
    order_rule: ClassVar[str] = (
        "reading: EPT activates formations in turn, one side then the other; side a first "
        "(the chart sheet gives no simultaneous fire)"
    )
    unit_fields = frozenset(
        {"strength", "firer_stopped", "follow_up", "morale", "gun_fired_on_from_front"}
    )
    options: EptEngagementOptions

    def start(self, unit: EptUnit) -> EptState:
        """The counter's steps (or the scenario's) and its markers."""
        steps = unit.steps if unit.steps is not None else len(unit.strength)
        return EptState(steps, unit.stopped, unit.neutralized)

    @staticmethod
    def strength(unit: EptUnit, state: EptState) -> int:
        """The fire strength of the step the unit is on (steps lost count from the first)."""
        return unit.strength[len(unit.strength) - state.steps]

    def attack_fields(
        self, firer: EptUnit, firer_state: EptState, target: EptUnit, target_state: EptState
    ) -> dict[str, Any]:
        """The firer's strength and its stopped marker (x1/2); the target's morale for the
        stoppage and neutralization tests (follow_up = morale_test)."""
        del target_state
        return {
            "strength": self.strength(firer, firer_state),
            "firer_stopped": firer_state.stopped,
            "follow_up": "morale_test",
            "morale": target.morale,
        }

    def apply(self, target: EptUnit, state: EptState, outcome: str) -> EptState:
        """The TABLE DE COMBAT's result on the target ("1 = lose a step + Neutralized; E =
        Eliminated"; S and N through their tests)."""
        del target
        if state.steps == 0 or outcome == "no_effect":
            return state
        if outcome == "eliminated":
            return EptState(0)
        if outcome == "step_lost_neutralized":
            left = state.steps - 1
            return EptState(left, state.stopped, True) if left else EptState(0)
        if outcome == "neutralized":
            return state._replace(neutralized=True)
        if outcome == "stopped":
            if state.stopped and self.options.repeat_stoppage == "neutralizes":
                return state._replace(neutralized=True)
            return state._replace(stopped=True)
        msg = f"EPT fire outcome {outcome!r} has no effect on a unit in an engagement"
        raise ValueError(msg)

    def can_fire(self, unit: EptUnit, state: EptState) -> bool:
        """Steps left and not neutralized."""
        del unit
        return state.steps > 0 and not state.neutralized

    def out(self, unit: EptUnit, state: EptState) -> bool:
        """Eliminated: no steps left."""
        del unit
        return state.steps == 0

    def broken(self, units: Sequence[EptUnit], states: Sequence[EptState]) -> bool:
        """Every unit eliminated, or (``recovery = none``) eliminated or neutralized: the side
        can never fire again (reading; with ``own_turn`` its markers go, so only elimination
        ends it)."""
        if self.options.recovery == "own_turn":
            return all(s.steps == 0 for s in states)
        return not any(self.can_fire(u, s) for u, s in zip(units, states, strict=True))

    def before_fire(self, unit: EptUnit, state: EptState) -> EptState:
        """``recovery = own_turn``: the side's markers are removed as it fires again."""
        del unit
        if self.options.recovery == "own_turn" and state.steps:
            return EptState(state.steps)
        return state

    def starts_fire(self) -> bool:
        """Only ``recovery = own_turn`` removes markers at the start of a side's fire."""
        return self.options.recovery == "own_turn"

    def value(self, unit: EptUnit, state: EptState) -> Fraction:
        """Steps left plus the fire strength it brings (x1/2 stopped, none neutralized)."""
        if state.steps == 0:
            return Fraction(0)
        fire = Fraction(self.strength(unit, state))
        if state.neutralized:
            fire = Fraction(0)
        elif state.stopped:
            fire /= 2
        return state.steps + fire

    def describe(self, unit: EptUnit, state: EptState) -> str:
        """``2 steps, stopped`` or ``eliminated``."""
        del unit
        return str(state)


RULES = EptEngagement
