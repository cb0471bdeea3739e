"""Page 8: close combat against infantry (one matchup: CCV + RNC each side, the low total KIA,
ties both KIA), and page 8's procedures together: :mod:`.infiltration`, :mod:`.morale`,
:mod:`.closecombat_afv` (docs/upfront.md, "Page 8").

Every draw reads only a card's RN value ("RNC = Color of RNC N/A. Check only value", page 8).
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import Field

from firefight.chance import Chance
from firefight.chance.distribution import Distribution
from firefight.errors import InputError, RuleError
from firefight.i18n import gettext as _
from firefight.rulesets.procedure import Procedure
from firefight.rulesets.upfront.closecombat_afv import CLOSE_COMBAT_AFV
from firefight.rulesets.upfront.infiltration import INFILTRATION
from firefight.rulesets.upfront.lists import split
from firefight.rulesets.upfront.men import Man
from firefight.rulesets.upfront.morale import MORALE_CHECK
from firefight.rulesets.upfront.page8 import (
    RN_ONLY,
    OutOfCards,
    draw_card,
    no_modifiers,
    rn_odds,
)
from firefight.rulesets.upfront.pool import CardInput, men_by_id, pool_for
from firefight.rulesets.upfront.printed import (
    CC_WIN_MARGIN,
    CCV_EXTRA_ATTACKER,
    CCV_JAPANESE,
    CCV_PINNED,
    CCV_PRISONER,
    CCV_SECONDARY,
    CCV_UNATTACKED_CREWMAN,
    CCV_WEAPON,
)
from firefight.rulesets.upfront.resolution import data_facts

__all__ = ["CC_RESULTS", "CLOSE_COMBAT", "PROCEDURES", "UpFrontCloseCombat", "ccv"]


class UpFrontCloseCombat(CardInput):
    """Page 8, CC vs. Infantry: one matchup, an attacker (and any additional attackers) on one
    defending man; each side draws an RNC and adds it to its CCV; the low total is KIA, ties
    both KIA."""

    attacker: str = Field("ger-rifle-1", max_length=40, description="The attacking man (id).")
    defender: str = Field("us-rifle", max_length=40, description="The defending man (id).")
    attacker_ccv: int | None = Field(
        None,
        ge=-10,
        le=20,
        description=(
            "The attacker's printed CCV (armed with his original weapon); none: calculated "
            "as morale + weapon value (page 8)."
        ),
    )
    defender_ccv: int | None = Field(
        None, ge=-10, le=20, description="The defender's printed CCV; none: calculated."
    )
    attacker_pinned: bool = Field(False, description="The attacker is pinned: -4.")
    defender_pinned: bool = Field(False, description="The defender is pinned: -4.")
    attacker_secondary: bool = Field(
        False, description="The attacker fights with a secondary weapon (not his only): -1."
    )
    defender_secondary: bool = Field(
        False, description="The defender fights with a secondary weapon (not his only): -1."
    )
    additional_attackers: int = Field(
        0, ge=0, le=9, description="Additional attackers on this defending man: +3 each."
    )
    unattacked_crewman: bool = Field(
        False,
        description="The defender has an unpinned, unattacked crewman in this attack: +3.",
    )
    defender_concealment: int = Field(
        0, ge=0, le=9, description="CONCEALMENT played by the defender: lowers the attacker's CCV."
    )
    attacker_concealment: int = Field(
        0, ge=0, le=9, description="CONCEALMENT played by the attacker: lowers the defender's CCV."
    )
    prisoner: bool = Field(
        False, description="The attacker lowers his CCV by 2 to take the defender prisoner."
    )


def ccv(man: Man, pinned: bool, secondary: bool) -> tuple[int, list[str]]:
    """Page 8: CCV = morale + weapon value (Japanese MP 4, LMG 2), -1 secondary weapon, -4
    pinned; with the items."""
    table = dict(CCV_WEAPON)
    if man.nationality == "japanese":
        table.update(CCV_JAPANESE)
    if man.weapon not in table:
        msg = _(
            "{man}: page 8 prints no close combat value for a {weapon}; give the "
            "man's printed CCV (attacker_ccv / defender_ccv)"
        ).format(man=man.id, weapon=man.weapon)
        raise RuleError(msg)
    value = man.morale + table[man.weapon]
    items = [f"morale {man.morale}", f"{man.weapon} +{table[man.weapon]}"]
    if secondary:
        value += CCV_SECONDARY
        items.append(f"secondary weapon {CCV_SECONDARY}")
    if pinned:
        value += CCV_PINNED
        items.append(f"pinned {CCV_PINNED}")
    return value, items


def _ccvs(inp: UpFrontCloseCombat) -> tuple[int, int, list[str], list[str]]:
    data = inp.men_data()
    ids = men_by_id(data, "attacker", split(inp.attacker)) + men_by_id(
        data, "defender", split(inp.defender)
    )
    attacker, defender = data.man(ids[0]), data.man(ids[1])
    for name, man in (("attacker", attacker), ("defender", defender)):
        if man.afv is not None:
            raise InputError(name, "an infantry man (close_combat_afv for an AFV)", man.id)
    sides = []
    for man, given, pinned, secondary in (
        (attacker, inp.attacker_ccv, inp.attacker_pinned, inp.attacker_secondary),
        (defender, inp.defender_ccv, inp.defender_pinned, inp.defender_secondary),
    ):
        if given is None:
            listed = (*CCV_WEAPON, *(CCV_JAPANESE if man.nationality == "japanese" else ()))
            if man.weapon not in listed:
                side = "attacker" if man is attacker else "defender"
                allowed = _("the printed CCV of {id} (page 8 lists none for a {weapon})").format(
                    id=man.id, weapon=man.weapon
                )
                raise InputError(f"{side}_ccv", allowed, None)
            sides.append(ccv(man, pinned, secondary))
        else:
            value, items = given, [f"printed CCV {given}"]
            if pinned:
                value += CCV_PINNED
                items.append(f"pinned {CCV_PINNED}")
            sides.append((value, items))
    (a, a_items), (d, d_items) = sides
    if inp.additional_attackers:
        a += CCV_EXTRA_ATTACKER * inp.additional_attackers
        a_items.append(f"{inp.additional_attackers} additional attacker(s) +3 each")
    if inp.unattacked_crewman:
        d += CCV_UNATTACKED_CREWMAN
        d_items.append(f"unattacked crewman +{CCV_UNATTACKED_CREWMAN}")
    if inp.prisoner:
        a += CCV_PRISONER
        a_items.append(f"prisoner {CCV_PRISONER}")
    if inp.defender_concealment:
        a -= inp.defender_concealment
        a_items.append(f"defender's concealment -{inp.defender_concealment}")
    if inp.attacker_concealment:
        d -= inp.attacker_concealment
        d_items.append(f"attacker's concealment -{inp.attacker_concealment}")
    return a, d, a_items, d_items


CC_RESULTS = (
    "defender KIA, weapon captured",
    "defender KIA",
    "defender prisoner, weapon captured",
    "defender prisoner",
    "both KIA",
    "attacker KIA",
    "no combat",
)


def _cc_rule(inp: UpFrontCloseCombat, chance: Chance) -> str:
    a, d, _, _ = _ccvs(inp)
    pool = pool_for(inp, RN_ONLY)
    try:
        attacker, state = draw_card(pool, chance, pool.start, "attacker's RNC")
        defender, state = draw_card(pool, chance, state, "defender's RNC")
    except OutOfCards:
        return "no combat"
    chance.note("totals", f"attacker {a + attacker.rn.value}, defender {d + defender.rn.value}")
    return _cc_verdict(inp, a, d, (attacker.rn.value, defender.rn.value))


def _cc_verdict(inp: UpFrontCloseCombat, a: int, d: int, rns: tuple[int, ...]) -> str:
    """Page 8: each side's CCV plus its RNC's RN; the low total KIA, ties both KIA, the winner
    by 3 or more may capture the weapon; a prisoner taken instead of a kill."""
    attack, defence = a + rns[0], d + rns[1]
    if attack == defence:
        return "both KIA"
    if attack < defence:
        return "attacker KIA"
    loser = "defender prisoner" if inp.prisoner else "defender KIA"
    if attack - defence >= CC_WIN_MARGIN:
        return loser + ", weapon captured"
    return loser


def _cc_odds(inp: UpFrontCloseCombat) -> Distribution[str]:
    """Exact odds of :func:`_cc_rule`: the two RNCs walked over the pool's classes, the CCVs
    worked out once (tested equal to prefix replay of the rule)."""
    a, d, _, _ = _ccvs(inp)
    return rn_odds(inp, 2, lambda rns: _cc_verdict(inp, a, d, rns), "no combat")


def _cc_facts(inp: UpFrontCloseCombat) -> Sequence[tuple[str, str]]:
    a, d, a_items, d_items = _ccvs(inp)
    facts = data_facts(inp)
    facts.append(("attacker CCV", f"{a}: " + ", ".join(a_items)))
    facts.append(("defender CCV", f"{d}: " + ", ".join(d_items)))
    return facts


CLOSE_COMBAT: Procedure[UpFrontCloseCombat] = Procedure(
    name="close_combat",
    title="Close combat vs. infantry: CCV + RNC each, low total KIA, ties both KIA (page 8)",
    input_model=UpFrontCloseCombat,
    rule=_cc_rule,
    modifiers=no_modifiers,
    facts=_cc_facts,
    outcome_order=CC_RESULTS,
    exact_odds=_cc_odds,
    meanings={
        "defender KIA, weapon captured": "attacker's total higher by 3+: the winner may "
        "capture the weapon",
        "defender KIA": "attacker's total higher",
        "defender prisoner, weapon captured": "prisoner taken (CCV -2), by 3+",
        "defender prisoner": "prisoner taken (CCV -2) instead of KIA",
        "both KIA": "equal totals",
        "attacker KIA": "defender's total higher",
        "no combat": "the pile ran out (reshuffle = end_attack)",
    },
)

PROCEDURES = (INFILTRATION, CLOSE_COMBAT, CLOSE_COMBAT_AFV, MORALE_CHECK)
"""Page 8's procedures, in the order the rule set registers them."""
