"""The odds of a rule's deterministic steps over its dice (:mod:`firefight.chance.direct`) are
the prefix replay's: the same outcomes, Fraction for Fraction, in the same order, and they are
paid for out of the work budget."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firefight.chance import D6, TWO_D6, WorkBudgetError, exact, work_budget, work_left
from firefight.chance.direct import by_total, by_totals, then


@settings(max_examples=40, deadline=None)
@given(modifier=st.integers(-4, 4), threshold=st.integers(0, 14))
def test_by_total_equals_the_replay(modifier, threshold):
    def step(total: int) -> str:
        return "low" if total + modifier <= threshold else str((total + modifier) % 3)

    replayed = exact(lambda chance: step(chance.roll(TWO_D6, "roll")))
    assert list(by_total(TWO_D6, step).items()) == list(replayed.items())


@settings(max_examples=40, deadline=None)
@given(first=st.integers(-2, 2), second=st.integers(-2, 2))
def test_by_totals_equals_the_replay_of_two_rolls(first, second):
    def step(one: int, two: int) -> str:
        return "first" if one + first > two + second else "second" if two > one else "tie"

    replayed = exact(lambda chance: step(chance.roll(D6, "one"), chance.roll(TWO_D6, "two")))
    assert list(by_totals(D6, TWO_D6, step).items()) == list(replayed.items())


def _effect(die: int, chance) -> str:
    return "miss" if die < 3 else f"hit {chance.roll(D6, 'effect') > die}"


def test_then_weighs_the_later_steps_by_the_first():
    direct = then(
        by_total(D6, lambda die: die), lambda die: exact(lambda chance: _effect(die, chance))
    )
    replayed = exact(lambda chance: _effect(chance.roll(D6, "die"), chance))
    assert list(direct.items()) == list(replayed.items())


def test_the_totals_read_are_paid_for():
    with work_budget(100):
        by_totals(D6, D6, lambda one, two: one > two)
        assert work_left() == 100 - 36
        by_total(TWO_D6, lambda total: total > 7)
        assert work_left() == 100 - 36 - 11
    with work_budget(35), pytest.raises(WorkBudgetError):
        by_totals(D6, D6, lambda one, two: one > two)
