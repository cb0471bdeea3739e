"""V&V units in an engagement: full or reduced, pinned, eliminated (V&V 5, 14).

Each unit's fire is the registered ``ap_attack_hex`` procedure: the AP attack (14.5) on the
target unit's hex and its Casualty Points applied by the casualty policy (14.6). Its outcome
(``unit1 reduced_pinned``) is the target's new state:

* ``pinned`` (14.7): "unable to perform any actions" until it rallies; it rallies
  automatically in its owner's next Command Phase (5.31, 14.7), before its side fires.
* ``reduced`` (14.61): a squad flipped to its half squad: the half squad's APFP and Casualty
  Rating from then on.
* ``eliminated`` (14.61, 14.64): out of the fight.

Order of fire: a turn is Player A's segment, then Player B's (5.1); each side fires in its
own Fire Phase (5.32), so fire alternates by side, side ``a`` first (5.2: the scenario's
Player A). Each unit is taken as alone in its hex, firing on its own (a scenario reading:
fire groups, 14.2, are not formed); a side's leader enters as its ``leadership_modifier``.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any, ClassVar, Literal, NamedTuple

from pydantic import Field, model_validator

from firefight.core.inputs import RuleInput
from firefight.i18n import gettext
from firefight.rulesets.engagement import EngagementRules, Order
from firefight.rulesets.vv.casualties import AP_ATTACK_HEX


class VvUnit(RuleInput):
    """A V&V infantry counter (a squad or a half squad) and its state at the start."""

    name: str = Field(min_length=1, max_length=60, description="The unit's name.")
    kind: Literal["squad", "half_squad"] = Field(
        "squad", description="A squad (reduces to its half squad, 14.61) or a half squad."
    )
    apfp: int = Field(ge=1, le=30, description="Its APFP as printed (14.2).")
    casualty_rating: int = Field(ge=1, le=6, description="Its Casualty Rating (14.61).")
    half_squad_apfp: int | None = Field(
        None, ge=1, le=30, description="A squad's half squad APFP (the back of the counter)."
    )
    half_squad_rating: int | None = Field(
        None, ge=1, le=5, description="A squad's half squad Casualty Rating (14.61)."
    )
    reduced: bool = Field(False, description="A squad already reduced to its half squad.")
    pinned: bool = Field(False, description="Pinned at the start (14.7).")

    @model_validator(mode="after")
    def _squad_has_a_back(self) -> VvUnit:
        if self.kind == "squad" and (
            self.half_squad_apfp is None or self.half_squad_rating is None
        ):
            msg = gettext("a squad needs 'half_squad_apfp' and 'half_squad_rating' (14.61)")
            raise ValueError(msg)
        if self.kind == "squad" and (self.half_squad_rating or 0) >= self.casualty_rating:
            msg = gettext(
                "'half_squad_rating' must be below the squad's casualty_rating "
                "{casualty_rating} (got {half_squad_rating})"
            ).format(casualty_rating=self.casualty_rating, half_squad_rating=self.half_squad_rating)
            raise ValueError(msg)
        if self.kind == "half_squad" and self.reduced:
            msg = gettext(
                "'reduced' must be false for a half squad (only a squad is reduced, 14.61)"
            )
            raise ValueError(msg)
        return self


class VvState(NamedTuple):
    """A unit's state: reduced to its half squad, pinned, eliminated (a tuple: states are
    hashed millions of times by the exact odds)."""

    reduced: bool = False
    pinned: bool = False
    eliminated: bool = False

    def __str__(self) -> str:
        if self.eliminated:
            return "eliminated"
        words = ["reduced" if self.reduced else "full"]
        if self.pinned:
            words.append("pinned")
        return ", ".join(words)


class VvEngagementOptions(RuleInput):
    """V&V's engagement readings (the scenario's ``[rules]`` table): none needed so far."""


_UNIT_SUFFIXES = (
    "",
    "_casualty_rating",
    "_half_squad_rating",
    "_pinned",
    "_valorous",
    "_gun_shield",
    "_passenger",
)

_STATES = {
    "unhurt": (False, False),
    "pinned": (False, True),
    "reduced": (True, False),
    "reduced_pinned": (True, True),
}


class VvEngagement(EngagementRules[VvUnit, VvState]):
    """V&V AP fire between two sides: ``ap_attack_hex`` on each target unit's hex."""

    ruleset: ClassVar[str] = "vv"
    procedure = AP_ATTACK_HEX
    unit_model = VvUnit
    options_model = VvEngagementOptions
    order: ClassVar[Order] = "alternating"
    order_rule: ClassVar[str] = (
        "5.1: Player A's segment, then Player B's; each side fires in its Fire Phase (5.32); "
        "side a is Player A (5.2)"
    )
    unit_fields = frozenset(
        {
            "apfp",
            "valor",
            "firer1",
            "firer2",
            "firer3",
            *(f"unit{n}{suffix}" for n in (1, 2, 3) for suffix in _UNIT_SUFFIXES),
        }
    )

    def start(self, unit: VvUnit) -> VvState:
        """As the scenario sets it up."""
        return VvState(reduced=unit.reduced, pinned=unit.pinned)

    @staticmethod
    def apfp(unit: VvUnit, state: VvState) -> int:
        """The APFP of the side it is on (a reduced squad fires as its half squad)."""
        if state.reduced and unit.half_squad_apfp is not None:
            return unit.half_squad_apfp
        return unit.apfp

    def attack_fields(
        self, firer: VvUnit, firer_state: VvState, target: VvUnit, target_state: VvState
    ) -> dict[str, Any]:
        """The firer's APFP; the target alone in its hex (unit1), as it stands now."""
        full_squad = target.kind == "squad" and not target_state.reduced
        rating = target.casualty_rating
        if target_state.reduced and target.half_squad_rating is not None:
            rating = target.half_squad_rating
        fields: dict[str, Any] = {
            "apfp": self.apfp(firer, firer_state),
            "valor": "cp_only",
            "unit1": "squad" if full_squad else "half_squad",
            "unit1_casualty_rating": rating,
            "unit1_pinned": target_state.pinned,
        }
        if full_squad:
            fields["unit1_half_squad_rating"] = target.half_squad_rating
        return fields

    def apply(self, target: VvUnit, state: VvState, outcome: str) -> VvState:
        """14.61-14.62: the state ``ap_attack_hex`` gives unit1 (a half squad that is
        "reduced" was a squad's reduction: it stays reduced)."""
        del target
        word = outcome.removeprefix("unit1 ").split(" ")[0]
        if word == "eliminated":
            return VvState(eliminated=True)
        reduced, pinned = _STATES[word]
        return VvState(reduced=state.reduced or reduced, pinned=state.pinned or pinned)

    def can_fire(self, unit: VvUnit, state: VvState) -> bool:
        """14.7: a pinned unit "is unable to perform any actions"."""
        del unit
        return not state.eliminated and not state.pinned

    def out(self, unit: VvUnit, state: VvState) -> bool:
        """Eliminated."""
        del unit
        return state.eliminated

    def broken(self, units: Sequence[VvUnit], states: Sequence[VvState]) -> bool:
        """Every unit eliminated: pinned units rally by themselves in their owner's next
        Command Phase (5.31), so a pinned side is not broken."""
        del units
        return all(s.eliminated for s in states)

    def before_fire(self, unit: VvUnit, state: VvState) -> VvState:
        """5.31: "Player A automatically rallies all of his pinned units" in his Command
        Phase, before his Fire Phase."""
        del unit
        if state.pinned and not state.eliminated:
            return VvState(reduced=state.reduced)
        return state

    def value(self, unit: VvUnit, state: VvState) -> Fraction:
        """Its APFP plus its Casualty Rating as it stands (nothing when eliminated)."""
        if state.eliminated:
            return Fraction(0)
        rating = unit.casualty_rating
        if state.reduced and unit.half_squad_rating is not None:
            rating = unit.half_squad_rating
        return Fraction(self.apfp(unit, state) + rating)

    def describe(self, unit: VvUnit, state: VvState) -> str:
        """``full``, ``reduced, pinned`` or ``eliminated``."""
        del unit
        return str(state)


RULES = VvEngagement
