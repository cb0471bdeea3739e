"""The random events a procedure may ask for: dice, pools of dice, and card draws."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from math import comb
from typing import Any, NamedTuple

import icepool


class Weights(NamedTuple):
    """An event's outcomes with integer weights over one denominator (exact, and fast)."""

    outcomes: tuple[tuple[Any, int], ...]
    denominator: int


@dataclass(frozen=True)
class Dice:
    """``count`` identical dice rolled together and summed (``2d6``), one event of the trace.

    The die may be any icepool ``Die`` with integer faces; firefight keeps each face so that a
    roll can be shown die by die and replayed from the faces a player rolled at the table.
    """

    count: int
    die: icepool.Die
    name: str = ""
    faces: tuple[int, ...] = field(init=False, repr=False, compare=False)
    weights: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.count < 1:
            msg = f"a roll needs at least one die (got {self.count})"
            raise ValueError(msg)
        faces = tuple(int(face) for face in self.die.outcomes())
        weights = tuple(int(self.die.quantity(face)) for face in faces)
        object.__setattr__(self, "faces", faces)
        object.__setattr__(self, "weights", weights)
        if not self.name:
            size = len(faces)
            plain = faces == tuple(range(1, size + 1)) and len(set(weights)) == 1
            die_name = f"d{size}" if plain else "die"
            object.__setattr__(self, "name", f"{self.count if self.count > 1 else ''}{die_name}")

    def __hash__(self) -> int:
        return hash((self.count, self.faces, self.weights))

    @classmethod
    def d(cls, sides: int, count: int = 1) -> Dice:
        """``count`` dice numbered 1 to ``sides``."""
        return cls(count, icepool.d(sides))

    @cached_property
    def total_distribution(self) -> tuple[tuple[int, Fraction], ...]:
        """The exact distribution of the sum of the dice (icepool)."""
        summed = self.count @ self.die if self.count > 1 else self.die
        denominator = summed.denominator()
        return tuple(
            (int(outcome), Fraction(int(summed.quantity(outcome)), denominator))
            for outcome in summed.outcomes()
        )

    @cached_property
    def total_weights(self) -> Weights:
        """The sum of the dice as integer weights over one denominator (for exact evaluation)."""
        summed = self.count @ self.die if self.count > 1 else self.die
        weights = tuple((int(o), int(summed.quantity(o))) for o in summed.outcomes())
        return Weights(weights, int(summed.denominator()))

    def check_weights(self, test: Callable[[int], bool]) -> Weights:
        """Whether the total meets ``test``: 1 (pass) and 0 (fail) as integer weights over the
        total's denominator; an impossible side is left out."""
        weights = self.total_weights
        passing = sum(w for total, w in weights.outcomes if test(total))
        failing = weights.denominator - passing
        branches = tuple((k, w) for k, w in ((1, passing), (0, failing)) if w)
        return Weights(branches, weights.denominator)

    @cached_property
    def totals(self) -> frozenset[int]:
        """Every total the dice can show."""
        return frozenset(total for total, _ in self.total_distribution)

    def success_chance(self, test: Callable[[int], bool]) -> Fraction:
        """The chance that one die meets ``test``."""
        passing = sum(w for face, w in zip(self.faces, self.weights, strict=True) if test(face))
        return Fraction(passing, sum(self.weights))

    def count_distribution(self, test: Callable[[int], bool]) -> tuple[tuple[int, Fraction], ...]:
        """The number of dice that meet ``test``, in closed form (binomial), never by faces."""
        return binomial(self.count, self.success_chance(test))

    def count_weights(self, test: Callable[[int], bool]) -> Weights:
        """:meth:`count_distribution` as integer weights over one denominator."""
        passing = sum(w for face, w in zip(self.faces, self.weights, strict=True) if test(face))
        total = sum(self.weights)
        n = self.count
        weights = tuple(
            (k, comb(n, k) * passing**k * (total - passing) ** (n - k)) for k in range(n + 1)
        )
        return Weights(tuple((k, w) for k, w in weights if w), total**n)


def binomial(n: int, p: Fraction) -> tuple[tuple[int, Fraction], ...]:
    """Exact binomial distribution of successes among ``n`` trials of chance ``p``."""
    q = 1 - p
    return tuple((k, comb(n, k) * p**k * q ** (n - k)) for k in range(n + 1) if p**k * q ** (n - k))


@dataclass(frozen=True)
class Deck:
    """A deck *state*: how many of each card are left. Drawing returns a new state.

    Sampling without replacement is a deck; sampling with replacement is a die.
    """

    cards: tuple[tuple[str, int], ...]

    def __post_init__(self) -> None:
        merged: dict[str, int] = {}
        for card, n in self.cards:
            if n < 0:
                msg = f"card {card!r} has a negative count ({n})"
                raise ValueError(msg)
            merged[card] = merged.get(card, 0) + n
        object.__setattr__(self, "cards", tuple(sorted((c, n) for c, n in merged.items() if n)))

    @classmethod
    def of(cls, cards: Iterable[str] | dict[str, int]) -> Deck:
        """A deck from a list of cards (repeats allowed) or a mapping card -> count."""
        if isinstance(cards, dict):
            return cls(tuple(cards.items()))
        counts: dict[str, int] = {}
        for card in cards:
            counts[card] = counts.get(card, 0) + 1
        return cls(tuple(counts.items()))

    @classmethod
    def signatures(cls, cards: Iterable[Any], signature: Callable[[Any], str]) -> Deck:
        """A deck of card *signatures*: each card reduced to the fields a rule reads
        (``signature(card)``), so cards the rule cannot tell apart are counted together and a
        state over the deck has as few distinct values as the rule allows."""
        return cls.of(signature(card) for card in cards)

    def drawn(self, left: Deck) -> tuple[tuple[str, int], ...]:
        """The cards drawn from this deck to leave ``left``: ``((card, how many), ...)``."""
        remaining = dict(left.cards)
        hand = tuple((c, n - remaining.get(c, 0)) for c, n in self.cards)
        if any(k < 0 for _, k in hand) or set(remaining) - {c for c, _ in self.cards}:
            msg = f"{left} is not what is left of {self} after drawing"
            raise ValueError(msg)
        return tuple((c, k) for c, k in hand if k)

    @property
    def size(self) -> int:
        """How many cards are left."""
        return sum(n for _, n in self.cards)

    def count(self, card: str) -> int:
        """How many copies of ``card`` are left."""
        return dict(self.cards).get(card, 0)

    def without(self, card: str) -> Deck:
        """The deck after ``card`` is drawn."""
        if self.count(card) == 0:
            msg = f"card {card!r} is not in the deck"
            raise ValueError(msg)
        return Deck(tuple((c, n - 1 if c == card else n) for c, n in self.cards))

    def draw_weights(self) -> Weights:
        """:meth:`draw_distribution` as integer weights over one denominator."""
        if self.size == 0:
            msg = "cannot draw from an empty deck"
            raise ValueError(msg)
        return Weights(self.cards, self.size)

    def draw_distribution(self) -> tuple[tuple[str, Fraction], ...]:
        """The chance of each card being drawn next."""
        size = self.size
        if size == 0:
            msg = "cannot draw from an empty deck"
            raise ValueError(msg)
        return tuple((card, Fraction(n, size)) for card, n in self.cards)
