"""Exact odds worked out directly from a rule's steps, where the prefix replay
(:func:`~firefight.chance.evaluate.exact`) would re-run the whole rule once per branch.

A rule whose dice feed a deterministic step (a chart read at the total, the verdict of two
opposed totals) has the odds of that step over the dice's totals: each total's weight, the
step's result at it, equal results merged. The totals are taken in increasing order, the
first die's before the second's, as the replay explores them, so that the results come in the
replay's order. Every total (pair of totals) the step reads is paid for out of the
:func:`~firefight.chance.evaluate.work_budget` in force (:func:`~firefight.chance.spend`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from fractions import Fraction
from math import lcm
from typing import TypeVar

from firefight.chance.distribution import Distribution
from firefight.chance.evaluate import spend
from firefight.chance.events import Dice

T = TypeVar("T", bound=Hashable)
A = TypeVar("A", bound=Hashable)


def by_total(dice: Dice, step: Callable[[int], T]) -> Distribution[T]:
    """The odds of ``step(total)`` over the totals of ``dice``."""
    weights = dice.total_weights
    spend(len(weights.outcomes))
    found: dict[T, int] = {}
    for total, weight in weights.outcomes:
        result = step(total)
        found[result] = found.get(result, 0) + weight
    return _over(found, weights.denominator)


def by_totals(first: Dice, second: Dice, step: Callable[[int, int], T]) -> Distribution[T]:
    """The odds of ``step(first_total, second_total)`` over two independent rolls, the first
    rolled first."""
    outer, inner = first.total_weights, second.total_weights
    spend(len(outer.outcomes) * len(inner.outcomes))
    found: dict[T, int] = {}
    for one, one_weight in outer.outcomes:
        for two, two_weight in inner.outcomes:
            result = step(one, two)
            found[result] = found.get(result, 0) + one_weight * two_weight
    return _over(found, outer.denominator * inner.denominator)


def then(
    first: Mapping[A, Fraction], after: Callable[[A], Mapping[T, Fraction]]
) -> Distribution[T]:
    """The odds of a rule's later steps (``after``, the odds once the first steps gave a
    value) over the odds of its first steps: each value's odds weighted by its chance, as
    integer weights over each product's denominator until the end (as the replay keeps
    them), equal outcomes merged in the order they first come."""
    found: dict[T, dict[int, int]] = {}
    for value, chance in first.items():
        for outcome, p in after(value).items():
            below = chance.denominator * p.denominator
            parts = found.setdefault(outcome, {})
            parts[below] = parts.get(below, 0) + chance.numerator * p.numerator
    merged: dict[T, Fraction] = {}
    for outcome, parts in found.items():
        common = lcm(*parts)
        merged[outcome] = Fraction(sum(w * (common // d) for d, w in parts.items()), common)
    return Distribution(merged)


def _over(weights: dict[T, int], denominator: int) -> Distribution[T]:
    return Distribution({result: Fraction(w, denominator) for result, w in weights.items()})
