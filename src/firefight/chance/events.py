"""The random events a procedure may ask for: dice, pools of dice, and card draws."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from math import comb
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    import icepool


class Weights(NamedTuple):
    """An event's outcomes with integer weights over one denominator (exact, and fast)."""

    outcomes: tuple[tuple[Any, int], ...]
    denominator: int


@dataclass(frozen=True, init=False)
class Dice:
    """``count`` identical dice rolled together and summed (``2d6``), one event of the trace.

    The die may be any icepool ``Die`` with integer faces; firefight keeps each face so that a
    roll can be shown die by die and replayed from the faces a player rolled at the table, and
    sums them itself: icepool is imported only where a die is built with it (``Dice.d`` builds
    none, and :attr:`die` builds the icepool die of its faces when first asked for).
    """

    count: int
    faces: tuple[int, ...] = field(repr=False)
    weights: tuple[int, ...] = field(repr=False)
    name: str = ""

    def __init__(self, count: int, die: icepool.Die, name: str = "") -> None:
        faces = tuple(int(face) for face in die.outcomes())
        self._set(count, faces, tuple(int(die.quantity(face)) for face in faces), name)
        object.__setattr__(self, "die", die)  # the die given, as :attr:`die` reads it

    def _set(self, count: int, faces: tuple[int, ...], weights: tuple[int, ...], name: str) -> None:
        if count < 1:
            msg = f"a roll needs at least one die (got {count})"
            raise ValueError(msg)
        if not name:
            size = len(faces)
            plain = faces == tuple(range(1, size + 1)) and len(set(weights)) == 1
            die_name = f"d{size}" if plain else "die"
            name = f"{count if count > 1 else ''}{die_name}"
        for attribute, value in (
            ("count", count),
            ("faces", faces),
            ("weights", weights),
            ("name", name),
        ):
            object.__setattr__(self, attribute, value)

    def __hash__(self) -> int:
        return hash((self.count, self.faces, self.weights))

    @classmethod
    def d(cls, sides: int, count: int = 1) -> Dice:
        """``count`` dice numbered 1 to ``sides``."""
        if sides < 1:
            msg = "sides must be at least 1."
            raise ValueError(msg)
        dice = cls.__new__(cls)
        dice._set(count, tuple(range(1, sides + 1)), (1,) * sides, "")
        return dice

    @cached_property
    def die(self) -> icepool.Die:
        """One die, as an icepool ``Die``: its faces with their weights."""
        import icepool  # noqa: PLC0415 - icepool only where a die is asked for as icepool's

        return icepool.Die(dict(zip(self.faces, self.weights, strict=True)))

    @cached_property
    def _sums(self) -> tuple[tuple[int, int], ...]:
        """Each total of the dice with its integer weight (the faces' weights multiplied), in
        increasing order, over ``sum(weights) ** count``."""
        totals = {0: 1}
        for _ in range(self.count):
            rolled: dict[int, int] = {}
            for total, weight in totals.items():
                for face, face_weight in zip(self.faces, self.weights, strict=True):
                    rolled[total + face] = rolled.get(total + face, 0) + weight * face_weight
            totals = rolled
        return tuple(sorted(totals.items()))

    @cached_property
    def total_distribution(self) -> tuple[tuple[int, Fraction], ...]:
        """The exact distribution of the sum of the dice."""
        denominator = self.total_weights.denominator
        return tuple((total, Fraction(w, denominator)) for total, w in self._sums)

    @cached_property
    def total_weights(self) -> Weights:
        """The sum of the dice as integer weights over one denominator (for exact evaluation)."""
        return Weights(self._sums, sum(self.weights) ** self.count)

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
