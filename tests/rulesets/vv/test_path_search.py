"""The safest path (``move --to``): the search against every legal path evaluated by the
``move`` action itself, its refusals, its budget and its answer's shape."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from firefight.core.inputs import validate
from firefight.errors import InputError
from firefight.rulesets.vv import path_search
from firefight.rulesets.vv.action_inputs import MoveInput
from firefight.rulesets.vv.actions import move
from firefight.rulesets.vv.movement import plan_move
from firefight.rulesets.vv.path_bound import path_space
from firefight.rulesets.vv.path_search import search_paths, unit_cps
from firefight.rulesets.vv.scenario import BoardScenario, load_board_scenario, scenario_from_data

from .move_helpers import leader, squad

FIELD = """
name = "ten by eight"
ruleset = "vv"
columns = 10
rows = 8
offset = "odd-q"
default_terrain = "open"
[hexes]
"0303" = "woods"
"0304" = "woods"
"0404" = "building"
"0502" = "orchard"
"0505" = "woods"
"0603" = "building"
[hexsides]
"0403/0404" = "wall"
"""


def small(tmp_path: Path, *, leader_too: bool = True) -> BoardScenario:
    """A 10 x 8 field: an American squad (and leader) in 0204, German fire from the east."""
    (tmp_path / "field.toml").write_text(FIELD)
    mg = {"name": "MG42", "class": "L", "kind": "mg", "apfp": 4, "range": 8}
    units: list[dict[str, Any]] = [squad("us-a", "us", "0204")]
    if leader_too:
        units.append(leader("us-l", "us", "0204"))
    units += [
        squad("de-a", "de", "0803", support_weapons=[mg]),
        squad("de-b", "de", "0706"),
    ]
    data = {
        "board": "field.toml",
        "sides": {"us": {"name": "Americans"}, "de": {"name": "Germans"}},
        "units": units,
    }
    return scenario_from_data(data, "test.toml", base=tmp_path)


def every_path(s: BoardScenario, start: str, to: str, *, assault: bool) -> Iterator[list[str]]:
    """Every legal simple path from ``start`` to ``to`` (the brute-force twin: no bound, no
    reach test; a prefix the rules refuse is never extended, as no extension can be legal)."""
    board = s.board
    origin = board.hex(start)

    def walk(path: list[str]) -> Iterator[list[str]]:
        here = board.hex(path[-1]) if path else origin
        for after in here.neighbours():
            if after not in board or after == origin or board.label(after) in path:
                continue
            longer = [*path, board.label(after)]
            try:
                plan_move(s, start, longer, assault=assault, end=False)
            except InputError:
                continue
            if longer[-1] == to:
                yield longer
            else:
                yield from walk(longer)

    yield from walk([])


def brute_force(
    s: BoardScenario, start: str, to: str, objective: str
) -> tuple[Fraction, list[str], bool]:
    """The best path by evaluating each with ``move --path`` (ties: fewer hexes, labels)."""
    scored = []
    for assault in (False, True):
        for path in every_path(s, start, to, assault=assault):
            try:
                answer = move(s, MoveInput(stack=start, path=path, assault=assault))
            except InputError:
                continue  # a last hex that may not hold the stack (6.9)
            odds = answer.odds  # type: ignore[attr-defined]
            if objective == "unpinned":
                value = 1 - sum(odds.first_hit)
            else:  # cps, by linearity from each unit's end
                value = -sum(
                    p * unit_cps(s.unit(unit_id), condition, started_reduced=False)
                    for unit_id, dist in odds.units.items()
                    for (condition, _where), p in dist.items()
                )
            scored.append(((-value, len(path), tuple(path), assault), path))
    key, path = min(scored)
    return -key[0], path, key[3]


@pytest.mark.parametrize("to", ["0504", "0705", "0402"])
def test_the_best_path_is_the_best_of_every_legal_path_evaluated(tmp_path: Path, to: str) -> None:
    s = small(tmp_path)
    value, path, assault = brute_force(s, "0204", to, "unpinned")
    answer = move(s, MoveInput(stack="0204", to=to, top=1))
    best = answer.search.paths[0]  # type: ignore[attr-defined]
    assert answer.search.method == "branch_and_bound"  # type: ignore[attr-defined]
    assert [st.label for st in best.plan.steps] == path
    assert best.plan.assault == assault
    assert best.score.unpinned == value


def test_the_expected_cps_objective_matches_every_path_evaluated(tmp_path: Path) -> None:
    s = small(tmp_path, leader_too=False)
    value, path, _assault = brute_force(s, "0204", "0504", "cps")
    answer = move(s, MoveInput(stack="0204", to="0504", objective="cps", top=1))
    best = answer.search.paths[0]  # type: ignore[attr-defined]
    assert [st.label for st in best.plan.steps] == path
    assert -best.score.cps == value


def test_branch_and_bound_ranks_the_top_paths_as_evaluating_every_path(tmp_path: Path) -> None:
    s = small(tmp_path)
    inp = MoveInput(stack="0204", to="0504", top=5)
    from firefight.rulesets.vv.path_action import builder  # noqa: PLC0415

    build, _side = builder(s, inp, Fraction(1), Fraction(1, 3))
    start, to = s.board.hex("0204"), s.board.hex("0504")
    fast = path_search.search_paths(s, start, to, build, policy="threshold", top=5)
    slow = path_search.search_paths(s, start, to, build, policy="threshold", top=5, exhaustive=True)
    assert [f.key("unpinned") for f in fast.paths] == [f.key("unpinned") for f in slow.paths]
    assert len(fast.paths) == 5


def test_a_policy_that_looks_ahead_is_searched_exhaustively(tmp_path: Path) -> None:
    s = small(tmp_path, leader_too=False)
    answer = move(s, MoveInput(stack="0204", to="0404", policy="best_shot", top=1))
    assert answer.search.method == "exhaustive"  # type: ignore[attr-defined]


def test_the_crossroads_platoon_reaches_0406_unpinned_with_5_in_12() -> None:
    s = load_board_scenario("village")
    data = move(s, MoveInput(stack="0206", to="0406")).to_json()
    best = data["paths"][0]
    assert best["path"] == ["0305", "0406"]
    assert best["assault"] is True
    assert best["unpinned"]["fraction"] == "5/12"
    assert best["where_hit"][0]["fire"][0]["firer_hex"] == "0605"
    assert data["exact"] is True
    assert [p["rank"] for p in data["paths"]] == [1, 2, 3]


@pytest.mark.parametrize(
    ("extra", "field"),
    [
        ({"seed": 3}, "seed"),
        ({"path": ["0306"]}, "path"),
        ({"policy": "player"}, "policy"),
        ({"objective": "fast"}, "objective"),
        ({"to": "0206"}, "to"),
        ({"to": "9999"}, "to"),
    ],
)
def test_what_the_search_does_not_read_is_refused_in_one_line(
    extra: dict[str, Any], field: str
) -> None:
    s = load_board_scenario("village")
    with pytest.raises(InputError) as error:
        move(s, validate(MoveInput, {"stack": "0206", "to": "0406", **extra}))
    assert error.value.field == field
    assert "\n" not in str(error.value)


def test_a_search_past_its_budget_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(path_search, "MAX_EVALUATIONS", 3)
    s = load_board_scenario("village")
    with pytest.raises(InputError, match=r"'to' must be a destination .* budget of 3 paths"):
        move(s, MoveInput(stack="0206", to="0606"))


def test_a_move_without_path_or_destination_is_refused() -> None:
    s = load_board_scenario("village")
    with pytest.raises(InputError, match="'path' must be at least one hex"):
        move(s, MoveInput(stack="0206"))


def legal_prefixes(s: BoardScenario, start: str, to: str) -> tuple[int, int]:
    """Every prefix the search may make (legal, simple, able to reach ``to``) and the paths
    among them, listed one by one: the twin of the bound's count."""
    board = s.board
    build = path_search.PathSpace(
        s, board.hex(start), board.hex(to), None, _never, path_search.SearchWork(to)
    )
    prefixes = paths = 0
    stack = list(build.roots([False, True]))
    while stack:
        plan = stack.pop()
        prefixes += 1
        if plan.hexes[-1] == build.to:
            paths += 1
            continue
        stack.extend(build.children(plan))
    return prefixes, paths


def _never(plan: Any) -> Any:
    raise AssertionError(plan)


@pytest.mark.parametrize(
    ("name", "start", "to"),
    [
        ("village", "0206", "0406"),
        ("village", "0206", "0606"),
        ("vv_armour", "0112", "0404"),
        ("vv_armour", "0212", "0409"),
    ],
)
def test_the_bound_counts_at_least_every_prefix_the_search_may_make(
    name: str, start: str, to: str
) -> None:
    s = load_board_scenario(name)
    board = s.board
    space = path_space(s, board.hex(start), board.hex(to), None, [False, True])
    prefixes, paths = legal_prefixes(s, start, to)
    assert prefixes <= space.prefixes
    assert paths <= space.paths
    found = move(s, MoveInput(stack=start, to=to)).search  # type: ignore[attr-defined]
    assert found.evaluated <= space.prefixes
    assert found.prefixes <= space.checks


def test_the_bound_counts_every_prefix_on_a_small_field(tmp_path: Path) -> None:
    s = small(tmp_path)
    board = s.board
    for to in ("0504", "0705", "0402", "0206"):
        space = path_space(s, board.hex("0204"), board.hex(to), None, [False, True])
        prefixes, paths = legal_prefixes(s, "0204", to)
        assert prefixes <= space.prefixes
        assert paths <= space.paths


@pytest.mark.parametrize(("name", "start"), [("village", "0206"), ("vv_armour", "0112")])
def test_no_sample_destination_is_refused_by_the_bound(name: str, start: str) -> None:
    s = load_board_scenario(name)
    board = s.board
    origin = board.hex(start)
    for to in board.hexes():
        if to != origin:
            space = path_space(s, origin, to, None, [False, True])
            for looks_ahead in (False, True):
                path_search.SearchWork(board.label(to)).bound(space, looks_ahead=looks_ahead)


OPEN = """
name = "open"
ruleset = "vv"
columns = 20
rows = 16
offset = "odd-q"
default_terrain = "open"
"""


def test_a_search_far_past_its_budget_is_refused_before_any_path_is_evaluated(
    tmp_path: Path,
) -> None:
    (tmp_path / "open.toml").write_text(OPEN)
    truck = {
        "id": "us-truck",
        "side": "us",
        "type": "unarmoured_vehicle",
        "hex": "0108",
        "apfp": 2,
        "casualty_rating": 2,
        "movement_points": 12,
        "facing": 2,
    }
    germans = [squad(f"de-{k}", "de", h) for k, h in enumerate(["0905", "0911", "0704", "0712"])]
    data = {
        "board": "open.toml",
        "sides": {"us": {"name": "Americans"}, "de": {"name": "Germans"}},
        "units": [truck, *germans],
    }
    s = scenario_from_data(data, "open.toml", base=tmp_path)
    board = s.board
    built: list[object] = []

    def build(plan: Any) -> Any:
        built.append(plan)
        raise AssertionError(plan)

    for policy in ("threshold", "best_shot"):
        with pytest.raises(InputError, match=r"budget of 4,000 paths .*the bound before"):
            search_paths(s, board.hex("0108"), board.hex("0508"), build, policy=policy)
    assert built == []
