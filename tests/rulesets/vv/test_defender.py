"""The optimal defender (``move --policy optimal``): its backward induction against every
deterministic plan enumerated, its plans' odds against the move's own, never worse than a
named policy, and the mover's best path against it against every path solved."""

from __future__ import annotations

import json
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firefight.errors import InputError
from firefight.rulesets.vv import defender, defender_action, path_search
from firefight.rulesets.vv.action_inputs import MoveInput
from firefight.rulesets.vv.actions import move, page_choices
from firefight.rulesets.vv.at_move import build_at_move
from firefight.rulesets.vv.defender import Defence
from firefight.rulesets.vv.defender_action import Defended, Setting, setting_of
from firefight.rulesets.vv.defender_answer import move_shape
from firefight.rulesets.vv.defender_fire import fixed_plan
from firefight.rulesets.vv.move_results import model_odds
from firefight.rulesets.vv.move_state import MoveState
from firefight.rulesets.vv.movement import plan_move
from firefight.rulesets.vv.path_search import OBJECTIVES, score_of
from firefight.rulesets.vv.scenario import BoardScenario, load_board_scenario, scenario_from_data

from .move_helpers import leader, squad
from .test_path_search import FIELD, every_path

ONE, THIRD = Fraction(1), Fraction(1, 3)


def field(
    tmp_path: Path, firers: list[tuple[str, str, bool]], *, leader_too: bool
) -> BoardScenario:
    """The 10 x 8 field: an American squad (and leader) in 0204, German squads (an MG42 with
    some) where ``firers`` say."""
    (tmp_path / "field.toml").write_text(FIELD)
    mg = {"name": "MG42", "class": "L", "kind": "mg", "apfp": 4, "range": 8}
    units: list[dict[str, Any]] = [squad("us-a", "us", "0204")]
    if leader_too:
        units.append(leader("us-l", "us", "0204"))
    for unit_id, hex_, with_mg in firers:
        units.append(squad(unit_id, "de", hex_, **({"support_weapons": [mg]} if with_mg else {})))
    data = {
        "board": "field.toml",
        "sides": {"us": {"name": "Americans"}, "de": {"name": "Germans"}},
        "units": units,
    }
    return scenario_from_data(data, "test.toml", base=tmp_path)


TWO = [("de-a", "0603", True), ("de-b", "0506", False)]


def setting(s: BoardScenario, objective: str = "unpinned", **extra: Any) -> Setting:
    inp = MoveInput(stack="0204", path=["0304"], policy="optimal", objective=objective, **extra)
    return setting_of(s, inp, ONE, THIRD)


def defence(s: BoardScenario, path: list[str], objective: str = "unpinned") -> Defence:
    return setting(s, objective).defence(plan_move(s, "0204", path))


def every_plan_value(d: Defence) -> set[Fraction]:
    """The mover's objective under every deterministic defender plan, each decision a function
    of everything seen so far (the tree of the move's states: a plan picks one fire or holding
    at each node, independently at each): the brute-force twin of the backward induction."""

    def combine(
        kernel: tuple[int, Any], values: Callable[[MoveState], set[Fraction]]
    ) -> set[Fraction]:
        denominator, items = kernel
        found = {Fraction(0)}
        for state, weight in items:
            found = {v + Fraction(weight, denominator) * w for v in found for w in values(state)}
        return found

    def decide(state: MoveState) -> set[Fraction]:
        if state.halted:
            return {d.leaf(state)}
        found = combine(d.settle.integer_kernel(state), settled)
        for fire in d.may_fire(state):
            found |= combine(d.fired(state, fire), decide)
        return found

    def settled(state: MoveState) -> set[Fraction]:
        if d.terminal(state):
            return {d.leaf(state)}
        return combine(d.entered(state), decide)

    return settled(d.start)


PATHS = [["0304", "0404"], ["0304", "0405"], ["0304", "0405", "0504"], ["0303", "0403", "0503"]]


@pytest.mark.parametrize("objective", OBJECTIVES)
@pytest.mark.parametrize("path", PATHS)
def test_the_optimal_defence_is_the_best_of_every_plan(
    tmp_path: Path, objective: str, path: list[str]
) -> None:
    s = field(tmp_path, TWO, leader_too=False)
    d = defence(s, path, objective)
    values = every_plan_value(d)
    assert d.solve() == min(values)
    assert d.walk(d.best).score().value(objective) == d.solve()
    assert len(values) > 1


def engine_plan(s: BoardScenario, path: list[str], policy: str) -> tuple[Any, Any]:
    """A named policy's fire plan as the move builds it, and its odds."""
    sett = setting(s)
    whole = build_at_move(
        sett.allocated(plan_move(s, "0204", path)), policy, lane_readings=sett.readings
    )
    lanes = whole.lanes
    fires = [
        (
            a.firer.id,
            a.index,
            any(laid.index == a.index and laid.lane.firer == a.firer.hex for laid in lanes.lanes),
        )
        for a in lanes.model.attacks
    ]
    odds = model_odds(lanes.model, policy, lanes.options)
    return fires, (score_of(lanes.model), odds)


@pytest.mark.parametrize("policy", ["threshold", "first_sight", "best_shot"])
@pytest.mark.parametrize("path", PATHS)
def test_a_named_policys_plan_walked_gives_the_moves_own_odds(
    tmp_path: Path, policy: str, path: list[str]
) -> None:
    s = field(tmp_path, TWO, leader_too=True)
    fires, (score, odds) = engine_plan(s, path, policy)
    d = defence(s, path)
    walk = d.walk(fixed_plan(fires))
    assert walk.score() == score
    assert walk.first_hit == tuple(odds.first_hit)
    found = Defended(d, walk.score().unpinned, walk, ())
    ends = move_shape(found)["outcomes"]
    assert {(u, e["state"], e["hex"], e["fraction"]) for u, es in ends.items() for e in es} == {
        (u, c, h, str(p)) for u, dist in odds.units.items() for (c, h), p in dist.items()
    }
    for objective in OBJECTIVES:
        assert defence(s, path, objective).solve() <= score.value(objective)


HEXES = ["0603", "0506", "0702", "0605", "0406", "0502"]


@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.tuples(
        st.lists(st.sampled_from(HEXES), min_size=1, max_size=2, unique=True),
        st.lists(st.booleans(), min_size=2, max_size=2),
        st.sampled_from(PATHS),
        st.sampled_from(OBJECTIVES),
        st.booleans(),
    )
)
def test_the_optimal_defence_is_never_worse_than_a_named_policy(
    tmp_path: Path, case: tuple[list[str], list[bool], list[str], str, bool]
) -> None:
    where, mgs, path, objective, lead = case
    firers = [(f"de-{n}", h, mgs[n]) for n, h in enumerate(where)]
    s = field(tmp_path, firers, leader_too=lead)
    sett = setting(s, objective)
    plan = plan_move(s, "0204", path)
    value = sett.defence(plan).solve()
    for policy in defender_action.NAMED:
        assert value <= sett.named(plan, policy).value(objective)


@pytest.mark.parametrize(("to", "objective"), [("0405", "unpinned"), ("0504", "cps")])
def test_the_best_path_against_the_optimal_defender_is_the_best_of_every_path(
    tmp_path: Path, to: str, objective: str
) -> None:
    s = field(tmp_path, TWO, leader_too=True)
    sett = setting(s, objective)
    solved = []
    for assault in (False, True):
        for path in every_path(s, "0204", to, assault=assault):
            plan = plan_move(s, "0204", path, assault=assault)
            solved.append((-sett.defence(plan).solve(), len(path), tuple(path), assault))
    best = min(solved)
    answer = move(s, MoveInput(stack="0204", to=to, policy="optimal", objective=objective, top=2))
    data = answer.to_json()
    first = data["paths"][0]
    assert (first["path"], first["assault"]) == (list(best[2]), best[3])
    assert len(solved) > 3
    assert answer.game.paths[0].value == -best[0]  # type: ignore[attr-defined]


def test_the_crossroads_answer_and_its_json() -> None:
    s = load_board_scenario("village")
    answer = move(s, MoveInput(stack="0206", path=["0306", "0406"], policy="optimal"))
    data = answer.to_json()
    assert data["policy"] == "optimal"
    assert data["exact"] is True
    assert data["optimal"]["unpinned"]["fraction"] == "7/72"
    assert [n["policy"] for n in data["named"]] == ["threshold", "first_sight", "best_shot"]
    assert all(Fraction(n["behind_optimal"]) >= 0 for n in data["named"])
    fired = [d for d in data["decisions"] if d["fire"]]
    assert fired[0]["fire"]["firer_hex"] == "0605"
    assert answer.text()


def test_the_page_offers_the_optimal_defender() -> None:
    assert "optimal" in page_choices()["policy"]


@pytest.mark.parametrize(
    ("extra", "field_name"),
    [
        ({"seed": 3}, "seed"),
        ({"player": {"de-sq1": "0306"}}, "fire"),
        ({"overrun": True}, "overrun"),
    ],
)
def test_what_the_optimal_defender_does_not_read_is_refused(
    extra: dict[str, Any], field_name: str
) -> None:
    s = load_board_scenario("village")
    with pytest.raises(InputError) as error:
        move(s, MoveInput(**{"stack": "0206", "path": ["0306"], "policy": "optimal", **extra}))
    assert error.value.field == field_name
    assert "\n" not in str(error.value)


def test_past_its_budget_the_optimal_defender_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(defender, "MAX_STATES", 5)
    s = load_board_scenario("village")
    with pytest.raises(InputError, match=r"'policy' must be a move .* budget of 5 states"):
        move(s, MoveInput(stack="0206", path=["0306", "0406"], policy="optimal"))


def test_a_game_past_its_budget_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(path_search, "MAX_EVALUATIONS", 2)
    s = load_board_scenario("village")
    with pytest.raises(InputError, match=r"'to' must be a destination .* budget of 2 paths"):
        move(s, MoveInput(stack="0206", to="0406", policy="optimal"))
    monkeypatch.setattr(defender_action, "MAX_PATHS", 2)
    sett = setting_of(s, MoveInput(stack="0206", to="0406", policy="optimal"), ONE, THIRD)
    with pytest.raises(InputError, match=r"'to' must be a destination with at most 2 legal"):
        defender_action.play(sett, "0406", 1, exhaustive=True)


@pytest.mark.parametrize("objective", ["cps"])
def test_the_branch_and_bound_ranks_the_paths_as_solving_every_path(
    tmp_path: Path, objective: str
) -> None:
    s = field(tmp_path, TWO, leader_too=True)
    fast = defender_action.play(setting(s, objective), "0405", 3)
    slow = defender_action.play(setting(s, objective), "0405", 3, exhaustive=True)
    assert fast.method == "branch_and_bound"
    assert slow.method == "exhaustive"
    keys = [
        [(f.value, f.defence.plan.hexes, f.defence.plan.assault) for f in g.paths]
        for g in (fast, slow)
    ]
    assert keys[0] == keys[1]


def test_the_board_page_offers_it_and_the_api_answers_the_clis_json(capsys) -> None:
    from fastapi.testclient import TestClient  # noqa: PLC0415

    from firefight.cli import main  # noqa: PLC0415
    from firefight.rulesets.vv.scenario import sample_board_scenarios  # noqa: PLC0415
    from firefight.web.app import create_app  # noqa: PLC0415

    client = TestClient(create_app())
    page = client.get("/rulesets/vv/scenario").text
    assert 'value="optimal"' in page
    text = sample_board_scenarios()["village"].read_text(encoding="utf-8")
    body = {"scenario": text, "stack": "0206", "to": "0406", "policy": "optimal", "top": 2}
    answer = client.post("/api/vv/move", json=body)
    assert answer.status_code == 200, answer.json()
    argv = ["move", "village", "--stack", "0206", "--to", "0406", "--policy", "optimal"]
    assert main([*argv, "--top", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert answer.json() == data
    assert [p["path"] for p in data["paths"]] == [["0306", "0406"], ["0306", "0407", "0406"]]
    assert data["paths"][0]["optimal"]["unpinned"]["fraction"] == "35/144"


def test_on_the_sample_the_adaptive_plan_beats_every_named_policy() -> None:
    s = load_board_scenario("village")
    inp = MoveInput(
        stack="0206", path=["0305", "0406"], assault=True, policy="optimal", objective="cps"
    )
    data = move(s, inp).to_json()
    assert data["optimal"]["cps"]["fraction"] == "151187/46656"
    assert all(Fraction(n["behind_optimal"]) > 0 for n in data["named"])
    held = [d for d in data["decisions"] if d["hex"] == "0305" and d["fire"] is None]
    assert held  # the group in 0605 holds its fire for 0406 in some states, fires in others
    assert sum(d["first_hit"]["probability"] for d in data["hexes"]) == pytest.approx(
        1 - data["optimal"]["unpinned"]["probability"]
    )
