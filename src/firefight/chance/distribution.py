"""An exact probability distribution over outcomes."""

from __future__ import annotations

from collections.abc import Callable, Hashable, ItemsView, Iterator, Mapping
from fractions import Fraction
from math import lcm
from typing import Any, Generic, TypeVar

T = TypeVar("T", bound=Hashable)
ZERO = Fraction(0)
U = TypeVar("U", bound=Hashable)


class Distribution(Mapping[T, Fraction], Generic[T]):
    """Outcomes with exact probabilities that sum to exactly 1.

    Equal outcomes are merged; outcomes of probability 0 are dropped. The order of the
    outcomes is kept as given (procedures order them as their chart does).
    """

    __slots__ = ("_probabilities",)

    def __init__(self, probabilities: Mapping[T, Fraction] | Iterator[tuple[T, Fraction]]) -> None:
        merged: dict[T, Fraction] = {}
        items = probabilities.items() if isinstance(probabilities, Mapping) else probabilities
        for outcome, given in items:
            probability = given if type(given) is Fraction else Fraction(given)
            if probability < 0:
                msg = f"probability of {outcome!r} is negative ({probability})"
                raise ValueError(msg)
            merged[outcome] = merged[outcome] + probability if outcome in merged else probability
        # The total over a common denominator: one integer sum, not a Fraction per addition.
        common = lcm(*(p.denominator for p in merged.values())) if merged else 1
        total = sum(p.numerator * (common // p.denominator) for p in merged.values())
        if total != common:
            msg = f"probabilities sum to {Fraction(total, common)}, not 1"
            raise ValueError(msg)
        self._probabilities = {k: p for k, p in merged.items() if p}

    def __getitem__(self, outcome: T) -> Fraction:
        return self._probabilities.get(outcome, ZERO)

    def __contains__(self, outcome: object) -> bool:
        return outcome in self._probabilities

    def __iter__(self) -> Iterator[T]:
        return iter(self._probabilities)

    def __len__(self) -> int:
        return len(self._probabilities)

    def items(self) -> ItemsView[T, Fraction]:
        """The outcomes and their probabilities, in order."""
        return self._probabilities.items()

    def __repr__(self) -> str:
        inner = ", ".join(
            f"{k!r}: Fraction({p.numerator}, {p.denominator})" for k, p in self.items()
        )
        return f"Distribution({{{inner}}})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Distribution):
            return self._probabilities == other._probabilities
        return NotImplemented

    def __hash__(self) -> int:
        return hash(frozenset(self._probabilities.items()))

    def probability(self, predicate: Callable[[T], bool]) -> Fraction:
        """The probability that the outcome satisfies ``predicate``."""
        return sum((p for k, p in self.items() if predicate(k)), Fraction(0))

    def map(self, function: Callable[[T], U]) -> Distribution[U]:
        """The distribution of ``function(outcome)``, equal images merged."""
        return Distribution((function(k), p) for k, p in self.items())

    def ordered(self, order: Callable[[T], Any]) -> Distribution[T]:
        """The same distribution with its outcomes sorted by ``order``."""
        reordered: Distribution[T] = Distribution.__new__(Distribution)
        reordered._probabilities = dict(sorted(self.items(), key=lambda kv: order(kv[0])))
        return reordered

    def to_json(self) -> dict[str, str]:
        """``{"OUTCOME": "p/q"}`` in lowest terms (a certain outcome reads ``"1"``)."""
        return {str(k): str(p) for k, p in self.items()}
