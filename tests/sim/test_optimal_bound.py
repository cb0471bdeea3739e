"""The optimal policy's game bounded before it is explored (docs/advisor-engagements.md): the
bound is never below the game explored (with either order of fire) nor above every multiset
of every layer, a game past it is refused before any node is made, and the samples the
optimum answers stay under it."""

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
from firefight.sim.optimal_bound import (
    BOUND_SLACK,
    check_bound,
    every_multiset,
    game_bound,
    unit_states,
)
from firefight.sim.optimal_game import Game, Steered, explore
from firefight.sim.scenario import POLICIES, SIDES, Scenario, load_scenario, parse_scenario
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


def teams(n: int, turns: int, order: str = "alternating", recovery: str = "none") -> Scenario:
    """``n`` two-step machine-gun teams against ``n`` squads (the refusals' scenario)."""

    def units(side: str, name: str, fp: int) -> str:
        return "".join(
            f'[[{side}.units]]\nname = "{name}{i}"\nstrength = [{fp}, {fp - 2}]\nmorale = 7\n'
            for i in range(n)
        )

    return parse_scenario(
        f'ruleset = "ept"\ntitle = "teams"\nturns = {turns}\norder = "{order}"\n'
        f'[rules]\nrecovery = "{recovery}"\n[situation]\nrange = "normal"\n'
        f'[a]\nname = "Germans"\n{units("a", "MG", 6)}'
        f'[b]\nname = "Americans"\n{units("b", "Squad", 5)}',
        "teams.toml",
    )


def assert_bounds(scenario: Scenario, side: str, opponent: str | None) -> None:
    engagement = Steered(scenario)
    against = check_request(scenario, side, "win", opponent)
    found = game_bound(engagement, SIDES.index(side), against, Budget("test"))
    every = every_multiset(engagement, SIDES.index(side), against, Budget("test"))
    assert found.states <= every.states
    assert found.work <= every.work
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
    if order == "simultaneous" and len(a) + len(b) > 2:
        turns = 1  # within the state limit
    scenario = ept(a + a[:1], b, turns=turns, order=order, policy=policy)  # a kind of two
    opponent = policy if named or order == "simultaneous" else None
    assert_bounds(scenario, side, opponent)


@pytest.mark.parametrize(
    ("n", "turns", "order"), [(2, 3, "alternating"), (3, 2, "alternating"), (2, 2, "simultaneous")]
)
def test_the_bound_holds_where_markers_go_at_the_side_s_start_of_fire(
    n: int, turns: int, order: str
) -> None:
    assert_bounds(teams(n, turns, order, recovery="own_turn"), "a", "focus")
    assert_bounds(teams(n, turns, order, recovery="own_turn"), "b", None)


@pytest.mark.parametrize("name", ["percentile_farm", "vv_village"])
def test_the_bound_holds_for_the_samples_of_other_rule_sets(name: str) -> None:
    assert_bounds(load_scenario(name), "a", None)


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


def refused_before_any_node(monkeypatch, scenario: Scenario, what: str) -> None:
    spent: list[int] = []
    kernels: list[object] = []
    spend = limits.Budget.spend
    monkeypatch.setattr(limits.Budget, "spend", lambda self, n: (spent.append(n), spend(self, n)))
    monkeypatch.setattr(Steered, "forced_weights", lambda *args: kernels.append(args))
    with pytest.raises(
        OptimalBoundError, match=f"exact only, and its game, bounded before.*{what}"
    ):
        solve(scenario, "a")
    assert not kernels
    assert 0 < sum(spent) < 10_000


def test_a_game_far_past_the_limits_is_refused_before_any_node(monkeypatch) -> None:
    refused_before_any_node(monkeypatch, parse_scenario(SIX, "six.toml"), "successors to merge")


def test_a_game_just_past_the_limits_is_within_the_slack_and_left_to_the_counts() -> None:
    # Five against five over 10 turns: 9.7 million successors merged, the limit 8 million, the
    # bound 9.94 million: under BOUND_SLACK times the limit, so explored and stopped as it goes.
    found = check_bound(Steered(teams(5, 10)), 0, OPTIMAL)
    assert MAX_EXPANSIONS < found.work <= BOUND_SLACK * MAX_EXPANSIONS


def test_simultaneous_fire_far_past_the_limits_is_refused_before_any_node(monkeypatch) -> None:
    refused_before_any_node(monkeypatch, teams(5, 10, "simultaneous"), "states within one turn")


@pytest.mark.parametrize("order", ["alternating", "simultaneous"])
def test_the_bound_of_two_against_two_comes_near_the_game(order: str) -> None:
    scenario = teams(2, 2, order)
    opponent = check_request(scenario, "a", "win", None)
    found = game_bound(Steered(scenario), 0, opponent, Budget("test"))
    game = explore(Steered(scenario), 0, opponent)
    assert found.states < 2 * max(len(layer) for layer in game.layers)
    assert found.work < 1.5 * explored_work(game)


def test_the_simultaneous_bound_is_far_below_every_pair_of_states() -> None:
    scenario = teams(2, 2, "simultaneous")
    found = game_bound(Steered(scenario), 0, "focus", Budget("test"))
    every = every_multiset(Steered(scenario), 0, "focus", Budget("test"))
    assert 20 * found.states < every.states  # 659 for 18,496 (the game: 351)
    assert 100 * found.work < every.work


def test_a_side_too_many_multisets_to_count_falls_back_to_every_multiset() -> None:
    engagement = Steered(teams(5, 10, "simultaneous"))
    budget = Budget("test", max_states=100)  # a side has more than 200 multisets
    found = game_bound(engagement, 0, "focus", budget)
    assert found == every_multiset(engagement, 0, "focus", Budget("test"))
    with pytest.raises(OptimalBoundError, match="states within one turn"):
        check_bound(engagement, 0, "focus", max_states=100)


def test_a_bound_past_the_states_allowed_is_refused_in_one_line() -> None:
    with pytest.raises(OptimalBoundError, match=r"up to 5,600 states within one turn") as error:
        solve(load_scenario("ept_hedgerow"), "a", max_states=50)
    assert "\n" not in str(error.value)


def test_a_game_under_the_bound_is_still_stopped_by_the_counts() -> None:
    engagement = Steered(load_scenario("ept_hedgerow"))
    assert check_bound(engagement, 0, OPTIMAL, max_states=5_000).states == 5_600
    with pytest.raises(OptimalLimitError, match=r"more than 5,000 states within one turn"):
        explore(engagement, 0, OPTIMAL, max_states=5_000)


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
