"""Page 8, Morale Check: each man draws an RNC; RN <= morale passes (reading ``morale_pass``),
otherwise the man is pinned; exact odds over the cards still unseen (docs/upfront.md,
"Page 8")."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import cache

from pydantic import Field

from firefight.chance import Chance
from firefight.chance.distribution import Distribution
from firefight.rulesets.upfront.classes import class_cards, class_options
from firefight.rulesets.upfront.group import GroupProcedure
from firefight.rulesets.upfront.lists import ManIds
from firefight.rulesets.upfront.page8 import (
    Counts,
    MoraleReading,
    OutOfCards,
    draw_card,
    merge_weight,
    morale_reads,
    named,
    no_modifiers,
    page8_men,
    passes_morale,
    plus,
    tally_text,
)
from firefight.rulesets.upfront.pool import pool_for
from firefight.rulesets.upfront.resolution import data_facts

__all__ = ["MORALE_CHECK", "MORALE_MEN_MAX", "MORALE_RESULTS", "UpFrontMoraleCheck"]

MORALE_MEN_MAX = 10
"""The most men one morale check procedure takes (10 take 0.16 s here)."""


class UpFrontMoraleCheck(MoraleReading):
    """Page 8, Morale Check: each man draws an RNC; RNC <= morale passes, otherwise the man
    is pinned ("MAN PINNED. Flip to pinned side")."""

    men_checked: ManIds = Field(
        ("ger-rifle-1",),
        description=f"The men who check, ids from the men file (1 to {MORALE_MEN_MAX}).",
    )


def _morale_rule(inp: UpFrontMoraleCheck, chance: Chance) -> str:
    men = page8_men(inp, "men_checked", inp.men_checked, MORALE_MEN_MAX)
    pool = pool_for(inp, morale_reads(inp, men))
    state = pool.start
    results = []
    try:
        for position, man in enumerate(men, 1):
            card, state = draw_card(pool, chance, state, f"morale check, man {position} ({man.id})")
            passed = passes_morale(card.rn.value, man.morale, inp.morale_pass)
            sign = "<=" if inp.morale_pass == "at_most" else "<"
            verdict = "passed" if passed else "pinned"
            chance.note(man.id, f"RN {card.rn.value} {sign} morale {man.morale}? {verdict}")
            results.append(verdict)
    except OutOfCards:
        results.extend("not checked" for _ in men[len(results) :])
    if len(men) == 1:
        return results[0]
    return tally_text(results, ("passed", "pinned"))


MORALE_RESULTS = ("passed", "pinned", "not checked")


def _morale_odds(inp: UpFrontMoraleCheck) -> Distribution[str]:
    """Exact odds of :func:`_morale_rule`: the same steps walked over pool states, equal
    states evaluated once (tested equal to prefix replay of the rule)."""
    men = page8_men(inp, "men_checked", inp.men_checked, MORALE_MEN_MAX)
    pool = pool_for(inp, morale_reads(inp, men))
    cards, refill = class_cards(pool), pool.refill.counts()
    empty = (0,) * len(MORALE_RESULTS)

    @cache
    def walk(counts: Counts, position: int) -> dict[Counts, Fraction]:
        rest = len(men) - position
        if rest == 0:
            return {empty: Fraction(1)}
        drawn = class_options(cards, counts, refill, inp.reshuffle)
        if drawn is None:
            return {plus(empty, 2, rest): Fraction(1)}
        table: dict[Counts, Fraction] = {}
        for card, chance, left in drawn:
            passed = passes_morale(card.rn.value, men[position].morale, inp.morale_pass)
            for tally, weight in walk(left, position + 1).items():
                merge_weight(table, plus(tally, 0 if passed else 1), chance * weight)
        return table

    odds: dict[str, Fraction] = {}
    for tally, weight in walk(pool.start.counts(), 0).items():
        name = named(tally, MORALE_RESULTS, MORALE_RESULTS[:2])
        odds[name] = odds.get(name, Fraction(0)) + weight
    return Distribution(odds)


def _morale_facts(inp: UpFrontMoraleCheck) -> Sequence[tuple[str, str]]:
    facts = data_facts(inp)
    sign = "<=" if inp.morale_pass == "at_most" else "<"
    facts.append(("passes", f"RN {sign} morale (page 8; colour not read)"))
    return facts


MORALE_CHECK: GroupProcedure[UpFrontMoraleCheck] = GroupProcedure(
    name="morale_check",
    title="Morale check: each man draws an RNC, RN <= morale passes (page 8)",
    input_model=UpFrontMoraleCheck,
    rule=_morale_rule,
    modifiers=no_modifiers,
    facts=_morale_facts,
    outcome_order=MORALE_RESULTS,
    exact_odds=_morale_odds,
    meanings={
        "passed": "RN <= morale: the man passes",
        "pinned": "RN > morale: MAN PINNED, flip to the pinned side",
        "not checked": "the pile ran out (reshuffle = end_attack)",
    },
)
