"""Page 8's infiltration odds as they were walked before (issue 14's open item): the rule's
own steps, card by card, memoized on (counts of every card class, man, Hero) and returning
each state's table of tallies in Fractions. Kept only as the baseline that
benchmarks/infiltration.py measures in the same run; the package does not import it.

Its card classes are the package's own (RN band by every infiltrator's morale, times the
colour of the RPN under the count's column), so the two walks give equal odds (the benchmark
checks it) and their times compare the walks alone.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

from firefight.chance.distribution import Distribution
from firefight.rulesets.upfront.cards import Card
from firefight.rulesets.upfront.classes import class_cards, class_options
from firefight.rulesets.upfront.infiltration import (
    INFILTRATION_RESULTS,
    UpFrontInfiltration,
    infiltration_setup,
    rpn_column,
)
from firefight.rulesets.upfront.page8 import (
    Counts,
    merge_weight,
    morale_reads,
    named,
    passes_morale,
    plus,
)
from firefight.rulesets.upfront.pool import pool_for


def infiltration_odds_before(inp: UpFrontInfiltration) -> Distribution[str]:
    """The exact odds of the infiltration rule, walked as before issue 14's item."""
    men, count, _ = infiltration_setup(inp)
    column = rpn_column(count)
    checked = men if inp.morale_check == "each" else ()
    pool = pool_for(inp, morale_reads(inp, checked, (column,)))
    cards, refill = class_cards(pool), pool.refill.counts()
    empty = (0,) * len(INFILTRATION_RESULTS)
    ended = INFILTRATION_RESULTS.index("not attempted")

    def options(counts: Counts) -> list[tuple[Card, Fraction, Counts]] | None:
        return class_options(cards, counts, refill, inp.reshuffle)

    @cache
    def walk(counts: Counts, position: int, hero: bool) -> dict[Counts, Fraction]:  # noqa: PLR0912
        rest = len(men) - position
        if rest == 0:
            return {empty: Fraction(1)}
        table: dict[Counts, Fraction] = {}

        def then(result: int, weight: Fraction, left: Counts, hero_left: bool) -> None:
            for tally, w in walk(left, position + 1, hero_left).items():
                merge_weight(table, plus(tally, result), weight * w)

        starts: list[tuple[Fraction, Counts]] = [(Fraction(1), counts)]
        if inp.morale_check == "each":
            drawn = options(counts)
            if drawn is None:
                return {plus(empty, ended, rest): Fraction(1)}
            starts = []
            for card, chance, left in drawn:
                if passes_morale(card.rn.value, men[position].morale, inp.morale_pass):
                    starts.append((chance, left))
                else:
                    then(1, chance, left, hero)
        for weight, state in starts:
            drawn = options(state)
            if drawn is None:
                merge_weight(table, plus(empty, ended, rest), weight)
                continue
            for card, chance, left in drawn:
                if card.rpn[column].red:
                    then(0, weight * chance, left, hero)
                elif not hero:
                    then(2, weight * chance, left, hero)
                else:
                    again = options(left)
                    if again is None:
                        merge_weight(table, plus(empty, ended, rest), weight * chance)
                        continue
                    for retry, retry_chance, retry_left in again:
                        result = 0 if retry.rpn[column].red else 2
                        then(result, weight * chance * retry_chance, retry_left, False)
        return table

    odds: dict[str, Fraction] = {}
    for tally, weight in walk(pool.start.counts(), 0, inp.hero).items():
        name = named(tally, INFILTRATION_RESULTS, INFILTRATION_RESULTS[:3])
        odds[name] = odds.get(name, Fraction(0)) + weight
    return Distribution(odds)
