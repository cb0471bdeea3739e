"""V&V 19.2, the Final Opportunity Fire: a surviving unit of the target hex able
to make an AT attack may attack the overrunning AFV's rear armour as it exits, even if marked
with a Fire marker, and a leader may modify it even so.
"""

from __future__ import annotations

from typing import Literal

from pydantic import AliasChoices, Field, model_validator

from firefight.chance import Chance
from firefight.chance.distribution import Distribution
from firefight.core.inputs import RuleInput
from firefight.i18n import gettext
from firefight.rulesets.procedure import Procedure
from firefight.rulesets.vv.at import OUTCOMES as AT_OUTCOMES
from firefight.rulesets.vv.at import (
    Rating,
    VvAtAttack,
    at_attack,
    at_facts,
    at_modifiers,
    at_odds,
)
from firefight.rulesets.vv.valor import ValorUnit

FinalWeapon = Literal["at_weapon", "gun"]


class VvFinalOpportunityFire(RuleInput):
    """A surviving unit of the overrun hex fires at the AFV's rear armour as it exits (19.2)."""

    weapon: FinalWeapon = Field(
        "at_weapon",
        description=(
            "at_weapon = an infantry unit's AT support weapon (to-hit 8); gun = a Gun in the "
            "hex (range 1: to-hit 10) (18.3)."
        ),
    )
    atfp: Rating = Field(description="The weapon's AT FP Rating A-F (18.4).")
    rear_armour: Rating = Field(
        validation_alias=AliasChoices("rear_armour", "rear_armor"),
        description=(
            "The AFV's rear Armor Rating (its only one if it prints one): Final Opportunity "
            "Fire hits the rear armour (19.2, 18.5)."
        ),
    )
    cover: int = Field(
        0,
        ge=0,
        le=7,
        description=(
            "Cover of the hex the AFV exits into, added to the to-hit roll (13.4: 'Cover "
            "modifiers apply to ALL to-hit rolls'; reading, docs: the AFV is in the exit hex "
            "when fired on, as opportunity fire follows entering a hex, 13.8)."
        ),
    )
    leader_modifier: int = Field(
        0,
        ge=-3,
        le=0,
        description=(
            "Leadership Modifier of an unpinned leader in the hex, even one marked with a Fire "
            "marker (19.2, 13.6); infantry weapons only."
        ),
    )
    firer_valorous: bool = Field(
        False, description="The firing infantry unit is valorous: -1 to the to-hit roll (16.3)."
    )
    check_valor: bool = Field(
        False, description="Follow a natural two with the firer's valor check (16.2)."
    )
    firer_unit: ValorUnit = Field("squad", description="The firing unit, for its valor check.")
    firer_casualty_rating: int | None = Field(
        None, ge=1, le=12, description="Its Casualty Rating (16.2)."
    )
    target_immobilized: bool = Field(
        False, description="The AFV is already immobilized (18.6: abandonment check)."
    )

    @model_validator(mode="after")
    def _consistent(self) -> VvFinalOpportunityFire:
        if self.weapon == "gun" and (self.leader_modifier or self.firer_valorous):
            raise ValueError(
                gettext(
                    "leaders and valor modify infantry attacks only (13.6, 16.3): weapon at_weapon"
                )
            )
        if self.check_valor and self.firer_unit != "leader" and self.firer_casualty_rating is None:
            raise ValueError(gettext("'firer_casualty_rating' must be given to check valor (16.2)"))
        return self


def final_fire_attack(inp: VvFinalOpportunityFire) -> VvAtAttack:
    """The AT attack it is: range 1, the rear armour (19.2, 18.3-18.6)."""
    return VvAtAttack(
        weapon=inp.weapon,
        range_hexes=1,
        atfp=inp.atfp,
        target="afv",
        front_armour=inp.rear_armour,
        rear_armour=inp.rear_armour,
        facing="rear",
        cover=inp.cover,
        leader_modifier=inp.leader_modifier,
        firer_valorous=inp.firer_valorous,
        check_valor=inp.check_valor,
        firer_unit=inp.firer_unit,
        firer_casualty_rating=inp.firer_casualty_rating,
        target_immobilized=inp.target_immobilized,
    )


def final_opportunity_fire(inp: VvFinalOpportunityFire, chance: Chance) -> str:
    """Resolve the Final Opportunity Fire attack: the AT attack at the rear armour (19.2)."""
    chance.note("19.2 Final Opportunity Fire", f"rear armor {inp.rear_armour}, range 1")
    return at_attack(final_fire_attack(inp), chance)


def final_opportunity_fire_odds(inp: VvFinalOpportunityFire) -> Distribution[str]:
    """The exact odds: the AT attack's, over its phases (the note before it draws nothing)."""
    return at_odds(final_fire_attack(inp))


FINAL_OPPORTUNITY_FIRE: Procedure[VvFinalOpportunityFire] = Procedure(
    name="final_opportunity_fire",
    title="Final Opportunity Fire at an overrunning AFV's rear armour (19.2)",
    input_model=VvFinalOpportunityFire,
    rule=final_opportunity_fire,
    modifiers=lambda inp: at_modifiers(final_fire_attack(inp)),
    chart="armor_elimination",
    outcome_order=AT_OUTCOMES,
    facts=lambda inp: at_facts(final_fire_attack(inp)),
    exact_odds=final_opportunity_fire_odds,
    meanings={
        "miss": "the to-hit roll failed (18.3)",
        "no_effect": "hit, elimination roll above the Elimination Number or '-' (18.4)",
        "abandoned": "already immobilized, survived, and the crew abandons it (18.6)",
        "immobilized": "elimination roll equal to the Elimination Number (18.4)",
        "immobilized_abandoned": "immobilized, then abandoned on 1d6 <= 2: removed (18.6)",
        "eliminated": "removed (18.4)",
    },
)


def may_fire_final(kind: str, *, pinned: bool, eliminated: bool, has_at_weapon: bool) -> bool:
    """19.2: a *surviving* unit of the target hex *capable of making an AT attack* (an infantry
    unit with an AT weapon, or a Gun), Fire marker or not; a pinned unit performs no action
    (14.7)."""
    if eliminated or pinned:
        return False
    return kind == "gun" or (kind in ("squad", "half_squad", "leader") and has_at_weapon)
