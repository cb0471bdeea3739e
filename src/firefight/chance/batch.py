"""Batch sampling: many outcomes at once from an exact distribution, vectorized with numpy.

A :class:`Sampler` turns a :class:`~firefight.chance.distribution.Distribution` into integer
cumulative weights over its common denominator and draws by inverse CDF: one
``Generator.integers`` call for ``n`` uniform integers below the denominator, then one lookup
(a table indexed by the integer when the denominator is small, ``searchsorted`` otherwise). The
frequencies are those of the exact odds, not a float approximation of them, whenever the
denominator fits in 62 bits (every chart roll and most chains of rolls do); above that the
weights are rounded to 2**62 (largest remainder), an error of at most 2**-62 per outcome,
far below what any sample can show.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import lcm
from typing import Generic, TypeVar

import numpy as np
import numpy.typing as npt

from firefight.chance.distribution import Distribution
from firefight.chance.interval import wilson

T = TypeVar("T", bound=Hashable)

__all__ = [
    "EXACT_BITS",
    "TABLE_LIMIT",
    "Batch",
    "Sampler",
    "draw_batch",
    "integer_weights",
    "wilson",
]

EXACT_BITS = 62
"""Denominators up to 2**62 are sampled exactly (``Generator.integers`` on int64)."""

TABLE_LIMIT = 1 << 16
"""Up to this denominator the inverse CDF is a lookup table of one entry per unit of weight
(one gather per draw); above it, a binary search over the cumulative weights."""


def integer_weights(probabilities: Sequence[Fraction]) -> tuple[tuple[int, ...], int]:
    """The probabilities as integer weights over one denominator, rounded (largest remainder)
    to ``2**EXACT_BITS`` when their common denominator is larger."""
    common = lcm(*(p.denominator for p in probabilities))
    if common <= 1 << EXACT_BITS:
        return tuple(p.numerator * (common // p.denominator) for p in probabilities), common
    scale = 1 << EXACT_BITS
    floors = [p.numerator * scale // p.denominator for p in probabilities]
    remainders = [p * scale - f for p, f in zip(probabilities, floors, strict=True)]
    short = scale - sum(floors)
    for index in sorted(range(len(floors)), key=lambda i: remainders[i], reverse=True)[:short]:
        floors[index] += 1
    return tuple(floors), scale


@dataclass(frozen=True, eq=False)
class Sampler(Generic[T]):
    """Draws outcomes of an exact distribution in batches (inverse CDF on integer weights)."""

    outcomes: tuple[T, ...]
    weights: tuple[int, ...]
    denominator: int
    _cumulative: npt.NDArray[np.int64]
    _table: npt.NDArray[np.integer] | None

    @classmethod
    def of(cls, distribution: Distribution[T]) -> Sampler[T]:
        """A sampler of ``distribution`` (outcomes kept in the distribution's order)."""
        outcomes = tuple(distribution)
        weights, denominator = integer_weights([distribution[o] for o in outcomes])
        cumulative = np.cumsum(np.array(weights, dtype=np.int64))
        table: npt.NDArray[np.integer] | None = None
        if denominator <= TABLE_LIMIT:
            kind = np.int8 if len(outcomes) <= np.iinfo(np.int8).max else np.intp
            table = np.repeat(np.arange(len(outcomes), dtype=kind), weights).astype(kind)
        return cls(outcomes, weights, denominator, cumulative, table)

    def indices(self, n: int, rng: np.random.Generator) -> npt.NDArray[np.integer]:
        """``n`` draws, each the index of its outcome in :attr:`outcomes`."""
        # The narrowest integer type that holds the denominator: numpy draws 16- and 32-bit
        # integers from one 32-bit output each, about twice as fast as 64-bit ones.
        uniform = rng.integers(0, self.denominator, size=n, dtype=_uniform_type(self.denominator))
        if self._table is not None:
            return self._table[uniform]
        return np.searchsorted(self._cumulative, uniform, side="right")

    def counts(self, n: int, rng: np.random.Generator) -> npt.NDArray[np.int64]:
        """How many of ``n`` draws fell on each outcome (aligned with :attr:`outcomes`)."""
        if n == 0:
            return np.zeros(len(self.outcomes), dtype=np.int64)
        if len(self.outcomes) == 1:
            return np.array([n], dtype=np.int64)
        return np.bincount(self.indices(n, rng), minlength=len(self.outcomes)).astype(np.int64)


def _uniform_type(denominator: int) -> type[np.integer]:
    if denominator <= 1 << 16:
        return np.uint16
    if denominator <= 1 << 32:
        return np.uint32
    return np.int64


@dataclass(frozen=True)
class Batch(Generic[T]):
    """``n`` seeded outcomes of one exact distribution: the draws (as indices into
    :attr:`outcomes`) and their counts. Sampled, never exact: see :meth:`interval`."""

    outcomes: tuple[T, ...]
    draws: npt.NDArray[np.integer]
    seed: int

    @property
    def n(self) -> int:
        """How many outcomes were drawn."""
        return int(self.draws.shape[0])

    def counts(self) -> dict[T, int]:
        """How many draws fell on each outcome (every outcome of the distribution, in order)."""
        counted = np.bincount(self.draws, minlength=len(self.outcomes))
        return {o: int(c) for o, c in zip(self.outcomes, counted, strict=True)}

    def values(self) -> list[T]:
        """The outcomes drawn, in order."""
        return [self.outcomes[int(i)] for i in self.draws]

    def interval(self, outcome: T, z: float = 1.96) -> tuple[float, float]:
        """The Wilson score interval of ``outcome``'s probability (95 % by default)."""
        return wilson(self.counts()[outcome], self.n, z)


def draw_batch(distribution: Distribution[T], n: int, seed: int) -> Batch[T]:
    """``n`` outcomes of ``distribution`` drawn at once from ``Generator(PCG64(seed))``."""
    sampler = Sampler.of(distribution)
    rng = np.random.Generator(np.random.PCG64(seed))
    return Batch(sampler.outcomes, sampler.indices(n, rng), seed)
