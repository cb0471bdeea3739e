"""A work budget bounds exact evaluation (so the web server bounds the cost of one
request): inside :func:`work_budget`, exact evaluations together may replay at most so many
events; past it, a one-line :class:`WorkBudgetError`. Outside one there is no limit."""

from __future__ import annotations

import pytest

from firefight.chance import TWO_D6, Chance, WorkBudgetError, exact, work_budget


def two_rolls(chance: Chance) -> int:
    return chance.roll(TWO_D6, "first") + chance.roll(TWO_D6, "second")


def steps_of(procedure) -> int:
    """The steps exact evaluation of ``procedure`` takes: the least budget it fits."""
    low, high = 1, 1_000_000
    while low < high:
        middle = (low + high) // 2
        try:
            with work_budget(middle):
                exact(procedure)
            high = middle
        except WorkBudgetError:
            low = middle + 1
    return low


def test_exact_odds_within_the_budget_are_the_same():
    with work_budget(10_000):
        assert exact(two_rolls) == exact(two_rolls)


def test_each_run_costs_the_events_it_replays_plus_one():
    # runs: the first (0 replayed), 11 after the first roll (1 each), 121 after both (2 each)
    assert steps_of(two_rolls) == 1 + 11 * 2 + 121 * 3


def test_past_the_budget_exact_evaluation_stops_with_one_line_naming_it():
    with pytest.raises(WorkBudgetError) as refused, work_budget(100):
        exact(two_rolls)
    assert str(refused.value) == (
        "'input' must be inputs whose exact odds take at most 100 steps to work out "
        "(got 'more than 100')"
    )
    assert refused.value.field == "input"


def test_evaluations_inside_one_budget_share_it():
    needed = steps_of(two_rolls)
    with work_budget(needed):
        exact(two_rolls)
    with work_budget(2 * needed - 1):
        exact(two_rolls)
        with pytest.raises(WorkBudgetError):
            exact(two_rolls)


def test_without_a_budget_there_is_no_limit_and_a_budget_ends_with_its_block():
    with work_budget(10), pytest.raises(WorkBudgetError):
        exact(two_rolls)
    assert sum(exact(two_rolls).values()) == 1
