"""Page 8, CC vs. AFV: the attacker draws an RNC and adds every printed modifier; total <= 0
attacker KIA, 1-5 no effect, 6 immobilized, >= 7 AFV KIA (docs/upfront.md, "Page 8")."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Literal

from pydantic import Field

from firefight.chance import Chance
from firefight.chance.distribution import Distribution
from firefight.core.modifier import Modifier, ModifierKind
from firefight.errors import InputError
from firefight.rulesets.procedure import Procedure
from firefight.rulesets.upfront.lists import split
from firefight.rulesets.upfront.page8 import PAGE8, RN_ONLY, OutOfCards, draw_card, rn_odds
from firefight.rulesets.upfront.pool import CardInput, men_by_id, pool_for
from firefight.rulesets.upfront.printed import (
    CC_AFV_ADJACENT_UNPINNED_MORE_THAN,
    CC_AFV_ATTACKER_KIA_AT_MOST,
    CC_AFV_IMMOBILIZED,
    CC_AFV_KIA_AT_LEAST,
    CC_AFV_MODIFIERS,
)
from firefight.rulesets.upfront.resolution import data_facts

__all__ = ["CC_AFV_RESULTS", "CLOSE_COMBAT_AFV", "UpFrontCloseCombatAfv", "cc_afv_band"]


AfvTerrain = Literal["open", "buildings", "woods", "wall", "gully", "brush"]


class UpFrontCloseCombatAfv(CardInput):
    """Page 8, CC vs. AFV: the attacker draws an RNC and adds every modifier; total <= 0
    attacker KIA, 1-5 no effect, 6 immobilized, >= 7 AFV KIA."""

    attacker: str = Field("ger-rifle-1", max_length=40, description="The attacking man (id).")
    afv: str = Field("", max_length=40, description="The AFV attacked (id; its open_topped flag).")
    previous_attacks: int = Field(
        0, ge=0, le=9, description="Each previous CC attack on it this turn: +1."
    )
    berserk_or_banzai: bool = Field(False, description="Attacker berserk or banzaiing: -3.")
    wounded: bool = Field(False, description="Attacker wounded: -2.")
    heroic: bool = Field(
        False, description="Attacker heroic: +1 (one +1 for heroic or Japanese, not both)."
    )
    tmm_or_dc: bool = Field(False, description="Attacker has a TMM or DC: +4 (then removed).")
    afv_terrain: AfvTerrain = Field(
        "open", description="The AFV's terrain: buildings +3, woods/wall/gully +2, brush -1."
    )
    afv_smoke: bool = Field(False, description="The AFV is in smoke: -1.")
    adjacent_groups: int = Field(
        0,
        ge=0,
        le=2,
        description=(
            "Friendly groups adjacent at the same range with more than "
            f"{CC_AFV_ADJACENT_UNPINNED_MORE_THAN} unpinned man: -2 each."
        ),
    )
    crew: Literal["crew_exposed", "buttoned_up"] = Field(
        "buttoned_up", description="The AFV's crew: crew_exposed (CE) -1, buttoned_up +1."
    )
    commander_kia: int = Field(0, ge=0, le=3, description="Commander KIA: +2 each.")
    immobilized_or_bogged: bool = Field(False, description="The AFV is immobilized or bogged: +2.")


def _afv_modifiers(inp: UpFrontCloseCombatAfv) -> list[Modifier]:  # noqa: PLR0912 - one per line
    data = inp.men_data()
    attacker = data.man(men_by_id(data, "attacker", split(inp.attacker))[0])
    if attacker.afv is not None:
        raise InputError("attacker", "an infantry man", attacker.id)
    afv = data.man(men_by_id(data, "afv", split(inp.afv))[0]) if inp.afv else None
    if afv is not None and afv.afv is None:
        raise InputError("afv", "the id of an AFV (a man with afv values)", afv.id)
    m = CC_AFV_MODIFIERS
    items: list[tuple[str, int]] = []
    if inp.previous_attacks:
        items.append(
            (
                f"{inp.previous_attacks} previous CC attack(s)",
                m["previous_attack"] * inp.previous_attacks,
            )
        )
    if inp.berserk_or_banzai:
        items.append(("attacker berserk or banzaiing", m["berserk_or_banzai"]))
    if inp.wounded:
        items.append(("attacker wounded", m["wounded"]))
    if inp.heroic or attacker.nationality == "japanese" or attacker.rank == "hero":
        items.append(("attacker heroic / Japanese", m["heroic_or_japanese"]))
    if inp.tmm_or_dc:
        items.append(("attacker has TMM / DC (removed)", m["tmm_or_dc"]))
    if inp.afv_terrain == "buildings":
        items.append(("AFV in buildings", m["buildings"]))
    elif inp.afv_terrain in ("woods", "wall", "gully"):
        items.append((f"AFV in {inp.afv_terrain}", m["woods_wall_gully"]))
    elif inp.afv_terrain == "brush":
        items.append(("AFV in brush", m["brush_or_smoke"]))
    if inp.afv_smoke:
        items.append(("AFV in smoke", m["brush_or_smoke"]))
    if inp.adjacent_groups:
        items.append(
            (
                f"{inp.adjacent_groups} adjacent group(s) at the same range",
                m["adjacent_same_range"] * inp.adjacent_groups,
            )
        )
    if inp.crew == "crew_exposed":
        items.append(("AFV CE", m["ce"]))
    else:
        items.append(("AFV buttoned up", m["buttoned_up"]))
    if inp.commander_kia:
        items.append(
            (f"commander KIA x{inp.commander_kia}", m["commander_kia"] * inp.commander_kia)
        )
    if inp.immobilized_or_bogged:
        items.append(("AFV immobilized or bogged", m["immobilized_or_bogged"]))
    if afv is not None and afv.afv is not None and afv.afv.open_topped:
        items.append(("AFV open topped", m["open_topped"]))
    return [
        Modifier(name, Fraction(value), ModifierKind.DICE, PAGE8 + ", CC vs. AFV")
        for name, value in items
    ]


def cc_afv_band(total: int) -> str:
    """Page 8's bands: <= 0 attacker KIA; 1-5 no effect; 6 immobilized; >= 7 AFV KIA."""
    if total <= CC_AFV_ATTACKER_KIA_AT_MOST:
        return "attacker KIA"
    if total >= CC_AFV_KIA_AT_LEAST:
        return "AFV KIA"
    if total == CC_AFV_IMMOBILIZED:
        return "AFV immobilized"
    return "no effect"


CC_AFV_RESULTS = ("AFV KIA", "AFV immobilized", "no effect", "attacker KIA", "no combat")


def _cc_afv_rule(inp: UpFrontCloseCombatAfv, chance: Chance) -> str:
    modifier = int(sum(m.value for m in _afv_modifiers(inp)))
    pool = pool_for(inp, RN_ONLY)
    try:
        card, _ = draw_card(pool, chance, pool.start, "CC vs. AFV RNC")
    except OutOfCards:
        return "no combat"
    chance.note("total", f"RN {card.rn.value} {modifier:+d} = {card.rn.value + modifier}")
    return cc_afv_band(card.rn.value + modifier)


def _cc_afv_odds(inp: UpFrontCloseCombatAfv) -> Distribution[str]:
    """Exact odds of :func:`_cc_afv_rule`: the RNC's classes walked, the modifiers summed
    once (tested equal to prefix replay of the rule)."""
    modifier = int(sum(m.value for m in _afv_modifiers(inp)))
    return rn_odds(inp, 1, lambda rns: cc_afv_band(rns[0] + modifier), "no combat")


def _cc_afv_facts(inp: UpFrontCloseCombatAfv) -> Sequence[tuple[str, str]]:
    facts = data_facts(inp)
    total = int(sum(m.value for m in _afv_modifiers(inp)))
    facts.append(("modifiers", f"{total:+d} (added to the RNC's RN)"))
    return facts


CLOSE_COMBAT_AFV: Procedure[UpFrontCloseCombatAfv] = Procedure(
    name="close_combat_afv",
    title="Close combat vs. AFV: RNC + modifiers, <=0 / 1-5 / 6 / >=7 (page 8)",
    input_model=UpFrontCloseCombatAfv,
    rule=_cc_afv_rule,
    modifiers=_afv_modifiers,
    facts=_cc_afv_facts,
    outcome_order=CC_AFV_RESULTS,
    exact_odds=_cc_afv_odds,
    meanings={
        "AFV KIA": "total >= 7",
        "AFV immobilized": "total 6",
        "no effect": "total 1 to 5",
        "attacker KIA": "total <= 0",
        "no combat": "the pile ran out (reshuffle = end_attack)",
    },
)
