"""Page 8's shared parts: what its procedures read of a card (an RN at most a morale, an RPN's
colour), the morale check's pass (:func:`passes_morale`), the men named in a field, a draw
that stops the attack when the pile runs out, and the tallies of results.

Every draw of page 8 reads only a card's RN value ("RNC = Color of RNC N/A. Check only
value") or the colour of one RPN ("Infiltrate, if RPNC is Red"). The morale check and the
infiltration read their cards at the level of the decision, so that cards the rule cannot
tell apart are one class and the exact odds stay small (docs/upfront.md, "Page 8").
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import lcm
from typing import Literal

from pydantic import Field

from firefight.chance import Chance, spend
from firefight.chance.distribution import Distribution
from firefight.core.modifier import Modifier
from firefight.errors import InputError
from firefight.rulesets.upfront.cards import Card
from firefight.rulesets.upfront.classes import class_cards, class_options
from firefight.rulesets.upfront.lists import shown
from firefight.rulesets.upfront.men import Man
from firefight.rulesets.upfront.pool import CardInput, Pool, PoolState, Reads, men_by_id, pool_for
from firefight.translation import gettext as _

__all__ = [
    "PAGE8",
    "RN_ONLY",
    "Counts",
    "DecisionReads",
    "MoralePass",
    "MoraleReading",
    "OutOfCards",
    "draw_card",
    "merge_weight",
    "morale_reads",
    "morale_threshold",
    "named",
    "no_modifiers",
    "page8_men",
    "passes_morale",
    "plus",
    "rn_odds",
    "tally_text",
]

PAGE8 = "Up Front flow charts, page 8"
MoralePass = Literal["at_most", "below"]
RN_ONLY = Reads(rn=True)


@dataclass(frozen=True)
class DecisionReads(Reads):
    """Reads a card at the level of the decisions a rule makes: whether its RN is at most each
    of ``thresholds``, and the colour of the RPNs in ``rpn_colour``. The trace still shows the
    card's RN and RPN colours as printed."""

    thresholds: tuple[int, ...] = ()

    def __call__(self, card: Card) -> Hashable:
        return (
            tuple(card.rn.value <= t for t in self.thresholds),
            tuple(card.rpn[c].colour for c in self.rpn_colour),
        )


def passes_morale(rn: int, morale: int, reading: MoralePass) -> bool:
    """Page 8, "RNC < Morale?" (the sign lost; restored as <=): the man passes on an RN at
    most his morale (``at_most``, default) or below it (``below``)."""
    return rn <= morale if reading == "at_most" else rn < morale


def morale_threshold(morale: int, reading: MoralePass) -> int:
    return morale if reading == "at_most" else morale - 1


class MoraleReading(CardInput):
    morale_pass: MoralePass = Field(
        "at_most",
        description=(
            "Page 8 'RNC < Morale?' with its sign lost: at_most (passes on RN <= morale; the "
            "page's other '<' read as <=) or below (RN < morale)."
        ),
    )


def page8_men(inp: CardInput, field_name: str, given: Sequence[str], most: int) -> tuple[Man, ...]:
    data = inp.men_data()
    ids = men_by_id(data, field_name, given)
    if len(ids) > most:
        raise InputError(field_name, _("1 to {most} ids").format(most=most), shown(given))
    men = tuple(data.man(i) for i in ids)
    for man in men:
        if man.afv is not None:
            raise InputError(field_name, "infantry men (not an AFV)", man.id)
    return men


def draw_card(pool: Pool, chance: Chance, state: PoolState, label: str) -> tuple[Card, PoolState]:
    drawn = pool.draw(chance, state, label)
    if drawn is None:
        raise OutOfCards
    return drawn


def rn_odds(
    inp: CardInput, draws: int, verdict: Callable[[tuple[int, ...]], str], ended: str
) -> Distribution[str]:
    """The exact odds of a page 8 rule that draws ``draws`` RNCs one after the other with
    :func:`draw_card`, reading each card's RN value alone, and gives ``verdict`` of the RN
    values drawn (``ended`` when the pile runs out first, reshuffle = end_attack): each class of
    the pool drawn in turn, as :meth:`.pool.Pool.draw` draws, its reshuffle included (tested
    equal to the prefix replay of the rule). Each state it opens costs a step of the work
    budget."""
    pool = pool_for(inp, RN_ONLY)
    cards, refill = class_cards(pool), pool.refill.counts()
    weights: dict[str, dict[int, int]] = {}  # per outcome, integer weights per denominator

    def walk(counts: tuple[int, ...], values: tuple[int, ...], weight: int, whole: int) -> None:
        outcome = verdict(values) if len(values) == draws else None
        if outcome is None:
            spend(1)
            options = class_options(cards, counts, refill, inp.reshuffle)
            if options is not None:
                for card, chance, left in options:
                    below = whole * chance.denominator
                    walk(left, (*values, card.rn.value), weight * chance.numerator, below)
                return
            outcome = ended
        by_whole = weights.setdefault(outcome, {})
        by_whole[whole] = by_whole.get(whole, 0) + weight

    walk(pool.start.counts(), (), 1, 1)
    odds = {}
    for outcome, parts in weights.items():
        common = lcm(*parts)
        odds[outcome] = Fraction(sum(w * (common // d) for d, w in parts.items()), common)
    return Distribution(odds)


class OutOfCards(Exception):  # noqa: N818 - a control-flow signal, not an error
    """The pool ran out with reshuffle = end_attack."""


Counts = tuple[int, ...]


def plus(tally: Counts, index: int, n: int = 1) -> Counts:
    return (*tally[:index], tally[index] + n, *tally[index + 1 :])


def merge_weight(table: dict[Counts, Fraction], tally: Counts, weight: Fraction) -> None:
    table[tally] = table.get(tally, Fraction(0)) + weight


def named(tally: Counts, names: Sequence[str], shown: Sequence[str]) -> str:
    """The outcome text of a tally of results: one man's result, or the group's counts."""
    if sum(tally) == 1:
        return names[tally.index(1)]
    by = dict(zip(names, tally, strict=True))
    return ", ".join(f"{name} {by[name]}" for name in shown)


def tally_text(results: Sequence[str], order: Sequence[str]) -> str:
    return ", ".join(f"{name} {sum(1 for r in results if r == name)}" for name in order)


def no_modifiers(_: CardInput) -> Sequence[Modifier]:
    return ()


def morale_reads(inp: MoraleReading, men: Sequence[Man], rpn: tuple[int, ...] = ()) -> Reads:
    thresholds = tuple(sorted({morale_threshold(m.morale, inp.morale_pass) for m in men}))
    return DecisionReads(rn=True, rpn_colour=rpn, thresholds=thresholds)
