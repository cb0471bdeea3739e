"""The optimal fire policy (docs/advisor-engagements.md): equal to brute force over every
deterministic policy on tiny engagements, never below a heuristic, and the heuristics'
values equal to the engagement's own exact answer."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firefight.errors import InputError
from firefight.sim.engagement import Engagement
from firefight.sim.engagement_phases import State, TurnState
from firefight.sim.optimal import OPTIMAL, OptimalLimitError, solve
from firefight.sim.optimal_game import Choice, Steered, turn_phases
from firefight.sim.scenario import POLICIES, Scenario, load_scenario, parse_scenario

TINY = """
ruleset = "{ruleset}"
turns = {turns}
order = "{order}"
policy = "{policy}"
{situation}
[a]
name = "A"
{a_units}
[b]
name = "B"
{b_units}
"""

EPT_UNIT = '[[{side}.units]]\nname = "{name}"\nstrength = [{strength}]\nmorale = {morale}\n'
PERCENTILE_UNIT = '[[{side}.units]]\nname = "{name}"\nfirepower = {firepower}\n'


def ept(
    a: list[tuple[int, int]],
    b: list[tuple[int, int]],
    turns: int = 1,
    order: str = "alternating",
    policy: str = "best_expected_effect",
) -> Scenario:
    def units(side: str, given: list[tuple[int, int]]) -> str:
        return "".join(
            EPT_UNIT.format(side=side, name=f"{side}{i}", strength=s, morale=m)
            for i, (s, m) in enumerate(given)
        )

    text = TINY.format(
        ruleset="ept",
        turns=turns,
        order=order,
        policy=policy,
        situation='[situation]\nrange = "normal"',
        a_units=units("a", a),
        b_units=units("b", b),
    )
    return parse_scenario(text, "tiny.toml")


def percentile(a: list[int], b: list[int], turns: int, order: str = "alternating") -> Scenario:
    def units(side: str, given: list[int]) -> str:
        return "".join(
            PERCENTILE_UNIT.format(side=side, name=f"{side}{i}", firepower=f)
            for i, f in enumerate(given)
        )

    text = TINY.format(
        ruleset="percentile",
        turns=turns,
        order=order,
        policy="focus",
        situation="",
        a_units=units("a", a),
        b_units=units("b", b),
    )
    return parse_scenario(text, "tiny.toml")


# --- the brute-force twin: every deterministic policy, evaluated forward ---------------------

Key = tuple[int, int, TurnState]  # turn, phase, turn state
Policy = dict[Key, Choice]


def _forward(
    engagement: Steered, side: int, policy: Callable[[Key, int], list[Choice]]
) -> Iterator[tuple[Key, list[Choice]]]:
    """Every fire node the engagement reaches when each node's choices are all followed,
    with the choices open there (the test's own walk, turn by turn)."""
    phases = turn_phases(engagement, side)
    boundary = {engagement.start()}
    seen: set[Key] = set()
    for turn in range(engagement.scenario.turns):
        current = {engagement.step.enter(s) for s in boundary if not engagement.ended(s)}
        for index, phase in enumerate(phases):
            following: set[TurnState] = set()
            for turn_state in current:
                choices: list[Choice] = [None]
                if phase.kind == "fire":
                    key = (turn, index, turn_state)
                    choices = policy(key, phase.side)
                    if key not in seen:
                        seen.add(key)
                        yield key, choices
                for choice in choices:
                    _, items = engagement.forced_weights(phase, turn_state, choice)
                    following.update(s for s, _ in items)
            current = following
        boundary = {engagement.step.leave(s) for s in current}


def value_of(
    engagement: Steered, side: int, choice_of: Callable[[Key], Choice], objective: str
) -> Fraction:
    """The advised side's objective when every fire takes ``choice_of`` its node: the
    distribution carried forward in Fractions."""
    phases = turn_phases(engagement, side)
    done: dict[State, Fraction] = {}
    active = {engagement.start(): Fraction(1)}
    for turn in range(engagement.scenario.turns):
        inner: dict[TurnState, Fraction] = {}
        for state, mass in active.items():
            if engagement.ended(state):
                done[state] = done.get(state, Fraction(0)) + mass
            else:
                entered = engagement.step.enter(state)
                inner[entered] = inner.get(entered, Fraction(0)) + mass
        for index, phase in enumerate(phases):
            following: dict[TurnState, Fraction] = {}
            for turn_state, mass in inner.items():
                choice = choice_of((turn, index, turn_state)) if phase.kind == "fire" else None
                d, items = engagement.forced_weights(phase, turn_state, choice)
                for after, w in items:
                    following[after] = following.get(after, Fraction(0)) + mass * Fraction(w, d)
            inner = following
        active = {}
        for turn_state, mass in inner.items():
            left = engagement.step.leave(turn_state)
            active[left] = active.get(left, Fraction(0)) + mass
    for state, mass in active.items():
        done[state] = done.get(state, Fraction(0)) + mass
    return sum(
        (m * _objective(engagement, s, side, objective) for s, m in done.items()), Fraction(0)
    )


def _objective(engagement: Steered, state: State, side: int, objective: str) -> Fraction:
    if objective == "win":
        return Fraction(engagement.result(state) == ("a_wins", "b_wins")[side])
    units = engagement.scenario.sides[1 - side].units
    start = engagement.start()[1 - side]
    return sum(
        (
            engagement.rules.value(u, s0) - engagement.rules.value(u, s1)
            for u, s0, s1 in zip(units, start, state[1 - side], strict=True)
        ),
        Fraction(0),
    )


def brute_force(
    scenario: Scenario, side: int, objective: str, opponent: str
) -> tuple[Fraction, int]:
    """max over every deterministic policy of the advised side of (min over every policy of
    an optimal opponent, or the opponent's named policy), and the policies tried."""
    engagement = Steered(scenario)
    named = engagement.under(opponent) if opponent != OPTIMAL else None

    def open_at(key: Key, firing: int) -> list[Choice]:
        turn_state = key[2]
        phase = turn_phases(engagement, side)[key[1]]
        if firing != side and named is not None:
            start, now = turn_state
            return [named.choose(firing, phase.unit, start or now, now)]
        return list(engagement.allocations(firing, phase.unit, turn_state)) or [None]

    nodes = list(_forward(engagement, side, open_at))
    own = [(k, c) for k, c in nodes if turn_phases(engagement, side)[k[1]].side == side]
    other = [(k, c) for k, c in nodes if (k, c) not in own]
    tried = 0
    best: Fraction | None = None
    for own_pick in itertools.product(*(c for _, c in own)):
        worst: Fraction | None = None
        for other_pick in itertools.product(*(c for _, c in other)):
            table = dict(zip((k for k, _ in own), own_pick, strict=True))
            table.update(zip((k for k, _ in other), other_pick, strict=True))
            found = value_of(engagement, side, table.__getitem__, objective)
            tried += 1
            worst = found if worst is None else min(worst, found)
        assert worst is not None
        best = worst if best is None else max(best, worst)
    assert best is not None
    return best, tried


TINY_CASES = [
    pytest.param(ept([(6, 7)], [(5, 7), (3, 6)], turns=2), "a", OPTIMAL, id="ept-1v2-a"),
    pytest.param(ept([(6, 7)], [(5, 7), (3, 6)], turns=2), "b", OPTIMAL, id="ept-1v2-b-minimax"),
    pytest.param(percentile([3, 5], [3, 4], turns=1), "a", OPTIMAL, id="percentile-2v2-minimax"),
    pytest.param(
        ept([(6, 7), (4, 6)], [(5, 7), (3, 6)], order="simultaneous"),
        "b",
        "best_expected_effect",
        id="ept-2v2-simultaneous-b",
    ),
    pytest.param(percentile([3], [3, 5], turns=2), "a", OPTIMAL, id="percentile-1v2"),
    pytest.param(percentile([3], [3, 5], turns=2), "b", OPTIMAL, id="percentile-1v2-b"),
]


@pytest.mark.parametrize(
    ("scenario", "side", "opponent", "objective"),
    [
        *(pytest.param(*case.values, "win", id=f"win-{case.id}") for case in TINY_CASES),
        *(
            pytest.param(*case.values, "losses", id=f"losses-{case.id}")
            for case in TINY_CASES
            if "ept-1v2" not in case.id  # the same walk as for win, and the slowest
        ),
    ],
)
def test_the_optimal_policy_equals_brute_force_over_every_deterministic_policy(
    scenario: Scenario, side: str, opponent: str, objective: str
) -> None:
    solution = solve(scenario, side, objective, opponent)
    expected, tried = brute_force(scenario, "ab".index(side), objective, opponent)
    assert tried > 1
    assert solution.value((OPTIMAL, opponent)) == expected


@pytest.mark.parametrize(("scenario", "side", "opponent"), TINY_CASES)
def test_the_optimal_policy_played_forward_gives_its_value(
    scenario: Scenario, side: str, opponent: str
) -> None:
    solution = solve(scenario, side, "win", opponent)
    engagement = solution.engagement
    choose = solution.policy(0)
    phases = len(solution.game.phases)

    def choice_of(key: Key) -> Choice:
        turn, index, turn_state = key
        return choose(turn * phases + index, turn_state)

    played = value_of(engagement, "ab".index(side), choice_of, "win")
    assert played == solution.value((OPTIMAL, opponent))


@pytest.mark.parametrize(
    "name", ["ept_hedgerow", "vv_village", "percentile_farm", "tirs_crossroads"]
)
def test_the_scenario_policy_on_both_sides_is_the_engagements_own_answer(name: str) -> None:
    scenario = replace(load_scenario(name), turns=1 if name.startswith("tirs") else 2)
    solution = solve(scenario, "a")
    odds = Engagement(scenario).odds_over_turns()
    assert solution.value((scenario.policy, scenario.policy)) == odds.outcome["a_wins"].value
    best = solution.value((OPTIMAL, OPTIMAL))
    for policy in POLICIES:
        assert best >= solution.value((policy, OPTIMAL))


def test_a_simultaneous_best_response_against_the_scenario_policy_is_its_answer_for_itself():
    scenario = ept([(6, 7), (4, 6)], [(5, 7), (3, 6)], turns=2, order="simultaneous")
    odds = Engagement(scenario).odds_over_turns()
    for side, result in (("a", "a_wins"), ("b", "b_wins")):
        solution = solve(scenario, side)
        policy = scenario.policy
        assert solution.value((policy, policy)) == odds.outcome[result].value
        assert solution.value((OPTIMAL, policy)) >= odds.outcome[result].value


UNIT = st.tuples(st.integers(2, 8), st.integers(5, 9))


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    a=st.lists(UNIT, min_size=1, max_size=2),
    b=st.lists(UNIT, min_size=1, max_size=2),
    turns=st.integers(1, 2),
    order=st.sampled_from(["alternating", "simultaneous"]),
    side=st.sampled_from(["a", "b"]),
    objective=st.sampled_from(["win", "losses"]),
    policy=st.sampled_from(POLICIES),
)
def test_the_optimal_policy_is_never_below_the_best_heuristic(  # noqa: PLR0917 - hypothesis
    a: list[tuple[int, int]],
    b: list[tuple[int, int]],
    turns: int,
    order: str,
    side: str,
    objective: str,
    policy: str,
) -> None:
    scenario = ept(a, b, turns=turns, order=order, policy=policy)
    solution = solve(scenario, side, objective)
    opponent = solution.pairings[0][1]
    best = solution.value((OPTIMAL, opponent))
    assert best >= max(solution.value((h, opponent)) for h in POLICIES)
    for layer in solution.game.layers:
        for node in layer.values():
            assert all(0 <= i < len(node.choices) for i in node.policies.values())


def test_every_heuristic_choice_does_what_one_of_the_allocations_does():
    scenario = replace(load_scenario("ept_hedgerow"), turns=2)
    solution = solve(scenario, "a")
    engagement = solution.engagement
    for layer in solution.game.layers:
        for turn_state, node in layer.items():
            if node.phase.kind != "fire" or node.phase.side != 0:
                continue
            allowed = engagement.allocations(0, node.phase.unit, turn_state) or (None,)
            kernels = {engagement.forced_weights(node.phase, turn_state, c) for c in allowed}
            for index in node.policies.values():
                assert node.kernels[index] in kernels


def test_an_optimal_opponent_with_simultaneous_fire_is_refused_in_one_line():
    scenario = ept([(6, 7)], [(5, 7)], order="simultaneous")
    with pytest.raises(InputError, match=r"against.*mixed strategies"):
        solve(scenario, "a", "win", OPTIMAL)


@pytest.mark.parametrize(("field", "value"), [("side", "c"), ("objective", "kills")])
def test_a_bad_option_is_one_line_naming_it(field: str, value: str) -> None:
    scenario = ept([(6, 7)], [(5, 7)])
    options = {"side": "a", "objective": "win", field: value}
    with pytest.raises(InputError, match=f"'{field}' must be one of"):
        solve(scenario, options["side"], options["objective"])


def test_a_game_past_the_state_limit_is_refused_in_one_line():
    with pytest.raises(OptimalLimitError, match="exact only"):
        solve(load_scenario("ept_hedgerow"), "a", max_states=50)
