"""A card of each class of a pool, and the classes an exact walk may draw next (the reshuffle
applied as :meth:`.pool.Pool.draw` applies it): shared by the walks of pages 7 and 8."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from firefight.rulesets.upfront.cards import Card
from firefight.rulesets.upfront.pool import Pool

__all__ = ["class_cards", "class_options"]


def class_options(
    cards: Sequence[Card | None],
    counts: tuple[int, ...],
    refill: tuple[int, ...],
    reshuffle: str,
) -> list[tuple[Card, Fraction, tuple[int, ...]]] | None:
    """For an exact walk over pool states: each class that may be drawn next (a card of it,
    its chance, the counts left), the reshuffle applied as :meth:`.pool.Pool.draw` applies
    it; None when the attack ends (the pile ran out with reshuffle = end_attack)."""
    size = sum(counts)
    if size == 0:
        if reshuffle == "end_attack" or sum(refill) == 0:
            return None
        counts, size = refill, sum(refill)
    found = []
    for index, count in enumerate(counts):
        card = cards[index]
        if count and card is not None:
            left = (*counts[:index], count - 1, *counts[index + 1 :])
            found.append((card, Fraction(count, size), left))
    return found


def class_cards(pool: Pool) -> list[Card | None]:
    """A card of each class of ``pool`` (in the pool's class order; None for an empty class)."""
    return [
        pool.data.card((left or again)[0]) if (left or again) else None
        for left, again in zip(pool.start.classes, pool.refill.classes, strict=True)
    ]
