"""The optimal policy's game bounded before it is explored (docs/advisor-engagements.md): the
bound is never below the game explored, a game far past it is refused before any node is
made, and the samples the optimum answers stay under it."""

from __future__ import annotations

import gc

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firefight.chance import limits
from firefight.chance.limits import KERNEL_COST, MAX_EXPANSIONS, MAX_STATES, Budget
from firefight.sim.optimal import (
    OPTIMAL,
    OptimalBoundError,
    OptimalLimitError,
    check_request,
    solve,
)
from firefight.sim.optimal_bound import BOUND_SLACK, check_bound, game_bound, unit_states
from firefight.sim.optimal_game import Game, Steered, explore
from firefight.sim.scenario import POLICIES, SIDES, Scenario, load_scenario
from tests.sim.test_optimal import ept, percentile
from tests.web.test_advisor_refusals import SIX

ANSWERED = ("ept_hedgerow", "percentile_farm", "vv_village")
"""The samples whose optimum is within the limits (the crossroads' is past them)."""


def explored_work(game: Game) -> int:
    """The work the exploration counts: each node's kernels, their cost and successors."""
    return sum(
        KERNEL_COST + len(items)
        for layer in game.layers
        for node in layer.values()
        for _d, items in node.kernels
    )


def assert_bounds(scenario: Scenario, side: str, opponent: str | None) -> None:
    engagement = Steered(scenario)
    against = check_request(scenario, side, "win", opponent)
    found = game_bound(engagement, SIDES.index(side), against, Budget("test"))
    reached = unit_states(engagement, Budget("test"))
    game = explore(Steered(scenario), SIDES.index(side), against)
    assert max((len(layer) for layer in game.layers), default=1) <= found.states
    assert max(len(states) for states in game.boundaries) <= found.states
    assert explored_work(game) <= found.work
    for layer in game.layers:
        for start, now in layer:
            for state in (start, now) if start else (now,):
                for s in (0, 1):
                    for index, unit_state in enumerate(state[s]):
                        assert unit_state in reached[s][index]


UNIT = st.tuples(st.integers(2, 8), st.integers(5, 9))


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    a=st.lists(UNIT, min_size=1, max_size=2),
    b=st.lists(UNIT, min_size=1, max_size=2),
    turns=st.integers(1, 2),
    order=st.sampled_from(["alternating", "simultaneous"]),
    side=st.sampled_from(SIDES),
    policy=st.sampled_from(POLICIES),
    named=st.booleans(),
)
def test_the_bound_is_never_below_the_game_explored(  # noqa: PLR0917 - hypothesis
    a: list[tuple[int, int]],
    b: list[tuple[int, int]],
    turns: int,
    order: str,
    side: str,
    policy: str,
    named: bool,
) -> None:
    turns = 1 if order == "simultaneous" else turns  # within the state limit
    scenario = ept(a + a[:1], b, turns=turns, order=order, policy=policy)  # a kind of two
    opponent = policy if named or order == "simultaneous" else None
    assert_bounds(scenario, side, opponent)


@pytest.mark.parametrize("order", ["alternating", "simultaneous"])
def test_the_bound_holds_for_percentile_units_too(order: str) -> None:
    assert_bounds(percentile([6, 6], [8], turns=2, order=order), "a", None)


@pytest.mark.parametrize("name", ANSWERED)
@pytest.mark.parametrize("side", [0, 1])
def test_the_samples_stay_under_the_bound(name: str, side: int) -> None:
    scenario = load_scenario(name)
    for opponent in (OPTIMAL, *POLICIES):
        found = check_bound(Steered(scenario), side, opponent)
        assert found.states <= MAX_STATES
        assert found.work <= BOUND_SLACK * MAX_EXPANSIONS


def test_a_game_far_past_the_limits_is_refused_before_any_node(monkeypatch) -> None:
    from firefight.sim.scenario import parse_scenario  # noqa: PLC0415

    spent: list[int] = []
    kernels: list[object] = []
    spend = limits.Budget.spend
    monkeypatch.setattr(limits.Budget, "spend", lambda self, n: (spent.append(n), spend(self, n)))
    monkeypatch.setattr(Steered, "forced_weights", lambda *args: kernels.append(args))
    with pytest.raises(OptimalBoundError, match="exact only, and its game, bounded before"):
        solve(parse_scenario(SIX, "six.toml"), "a")
    assert not kernels
    assert 0 < sum(spent) < 10_000


def test_a_bound_past_the_states_allowed_is_refused_in_one_line() -> None:
    with pytest.raises(OptimalBoundError, match=r"up to 5,600 states within one turn") as error:
        solve(load_scenario("ept_hedgerow"), "a", max_states=50)
    assert "\n" not in str(error.value)


def test_a_game_under_the_bound_is_still_stopped_by_the_counts() -> None:
    engagement = Steered(load_scenario("ept_hedgerow"))
    assert check_bound(engagement, 0, OPTIMAL, max_states=2_000).states == 5_600
    with pytest.raises(OptimalLimitError, match=r"more than 2,000 states within one turn"):
        explore(engagement, 0, OPTIMAL, max_states=2_000)


def test_the_solve_leaves_the_collector_as_it_found_it() -> None:
    scenario = ept([(6, 7)], [(5, 7)])
    solve(scenario, "a")
    assert gc.isenabled()
    assert gc.get_freeze_count() == 0  # nothing left out of the collector's view
    gc.freeze()  # as the server freezes its start-up objects
    try:
        frozen = gc.get_freeze_count()
        solve(scenario, "a")
        assert gc.get_freeze_count() == frozen  # theirs not thawed
    finally:
        gc.unfreeze()
