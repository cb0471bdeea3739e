"""V&V movement on the board (V&V 6, 7.2, 10, 12.2, 20.3, 20.8): plan_move."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from firefight.errors import InputError
from firefight.rulesets.vv.movement import allowance, entry_cost, plan_move
from firefight.rulesets.vv.scenario import load_board_scenario as load_scenario

from .move_helpers import leader, scenario, squad

ROW = ["0203", "0303", "0403", "0503", "0603", "0703"]


def test_terrain_hexsides_hills_and_fortifications_price_each_hex(tmp_path: Path) -> None:
    s = scenario(
        tmp_path,
        [squad("a", "us", "0103"), leader("l", "us", "0103"), squad("e", "de", "1208")],
        hexes={"0203": "woods", "0303": "stream", "0403": {"elevation": 1}, "0503": "road"},
        hexsides={"0403/0503": "wall"},
        fortifications=[{"hex": "0603", "kind": "foxhole"}, {"hex": "0703", "kind": "minefield"}],
    )
    board, unit = s.board, s.unit("a")
    path = ["0103", *ROW]
    costs = []
    for before, after in itertools.pairwise(path):
        fort = s.fortification_at(board.hex(after))
        costs.append(
            entry_cost(unit, board, board.hex(before), board.hex(after), fort and fort.kind)
        )
    # woods 2, stream 2, open hill uphill 1+1 (10.7), down onto a road 1 + wall 1 (10.10),
    # foxhole 1+1 (20.3), minefield 1 (20.3: no extra MP)
    assert costs == [2, 2, 2, 2, 2, 1]
    assert plan_move(s, "0103", ["0203", "0303"]).steps[-1].spent == {"a": 4, "l": 4}


def test_a_squad_moving_with_a_leader_has_six_movement_points(tmp_path: Path) -> None:
    units = [squad("a", "us", "0103"), leader("l", "us", "0103"), squad("e", "de", "1208")]
    s = scenario(tmp_path, units)
    assert plan_move(s, "0103", ROW).allowance == {"a": 6, "l": 6}
    assert plan_move(s, "0103", ROW).normal == {"a": 4, "l": 6}
    with pytest.raises(InputError, match=r"'path' must be within a's 4 MPs"):
        plan_move(s, "0103", ROW, units=["a"])


def test_assault_movement_halves_the_allowance_first(tmp_path: Path) -> None:
    s = scenario(tmp_path, [squad("a", "us", "0103"), squad("e", "de", "1208")])
    assert len(plan_move(s, "0103", ROW[:2], assault=True).steps) == 2
    with pytest.raises(InputError, match="within a's 2 MPs"):
        plan_move(s, "0103", ROW[:3], assault=True)
    heavy = squad(
        "h",
        "us",
        "0101",
        support_weapons=[{"name": "MMG", "class": "H", "kind": "mg", "apfp": 3, "range": 8}],
    )
    unit = scenario(tmp_path, [heavy, squad("e", "de", "1208")]).unit("h")
    assert allowance(unit, with_leader=False) == 3  # 12.2
    assert allowance(unit, with_leader=False, assault=True) == 1  # 6.4 before 12.2


def test_a_unit_may_always_move_one_hex(tmp_path: Path) -> None:
    s = scenario(
        tmp_path, [squad("a", "us", "0103"), squad("e", "de", "1208")], hexes={"0203": "woods"}
    )
    assert plan_move(s, "0103", ["0203"], assault=True).steps[0].spent == {"a": 2}  # 6.6


def test_infantry_entering_barbed_wire_must_stop(tmp_path: Path) -> None:
    s = scenario(
        tmp_path,
        [squad("a", "us", "0103"), squad("e", "de", "1208")],
        fortifications=[{"hex": "0303", "kind": "barbed_wire"}],
    )
    assert plan_move(s, "0103", ROW[:2]).steps[-1].wire
    with pytest.raises(
        InputError, match=r"ends at 0303: infantry entering barbed wire stop \(20.8\)"
    ):
        plan_move(s, "0103", ROW[:3])


def test_no_enemy_hex_and_no_end_over_the_stacking_limit(tmp_path: Path) -> None:
    friends = [squad(f"f{n}", "us", "0303") for n in range(4)]
    s = scenario(tmp_path, [squad("a", "us", "0103"), *friends, squad("e", "de", "0403")])
    with pytest.raises(
        InputError, match=r"'path' must be a last hex that holds the stack \(6.7, 6.9"
    ):
        plan_move(s, "0103", ROW[:2])
    assert plan_move(s, "0103", [*ROW[:2], "0304"]).steps[1].friendly  # passing through: 6.7
    with pytest.raises(InputError, match=r"hexes without enemy units \(6.8"):
        plan_move(s, "0103", ROW[:3])


def test_ground_level_to_level_two_takes_the_whole_allowance(tmp_path: Path) -> None:
    s = scenario(
        tmp_path,
        [squad("a", "us", "0103"), squad("e", "de", "1208")],
        hexes={"0203": {"elevation": 2}, "0303": {"elevation": 2}},
    )
    assert plan_move(s, "0103", ["0203"]).steps[0].spent["a"] == 4  # its whole allowance
    with pytest.raises(InputError, match=r"one hex when moving between ground level and level 2"):
        plan_move(s, "0103", ["0203", "0303"])


def test_a_vehicle_turns_one_hexside_free_and_pays_for_more(tmp_path: Path) -> None:
    jeep = {
        "id": "j",
        "side": "us",
        "type": "unarmoured_vehicle",
        "hex": "0303",
        "apfp": 2,
        "casualty_rating": 2,
        "movement_points": 8,
        "facing": 1,
    }
    s = scenario(tmp_path, [jeep, squad("e", "de", "1208")])
    board = s.board
    start = board.hex("0303")
    north, south_east = start.neighbour(1), start.neighbour(3)
    assert plan_move(s, "0303", [board.label(north)]).steps[0].cost["j"] == 1
    # two hexsides to face direction 3: the first free, the second 1 MP (6.5)
    assert plan_move(s, "0303", [board.label(south_east)]).steps[0].cost["j"] == 2
    # straight behind: reversing at double cost (7.2) equals turning three hexsides (1 + 2)
    assert plan_move(s, "0303", [board.label(start.neighbour(4))]).steps[0].cost["j"] == 2


def test_a_pinned_or_moved_unit_may_not_move(tmp_path: Path) -> None:
    s = scenario(
        tmp_path,
        [
            squad("a", "us", "0103", state="pinned"),
            squad("b", "us", "0103", moved=True),
            squad("e", "de", "1208"),
        ],
    )
    with pytest.raises(InputError, match=r"'stack' must be a hex with an unpinned unit"):
        plan_move(s, "0103", ["0203"])
    with pytest.raises(InputError, match=r"'units' must be unpinned units \(14.7"):
        plan_move(s, "0103", ["0203"], units=["a"])


def test_a_unit_with_a_fire_marker_may_not_move(tmp_path: Path) -> None:
    """5.33: "Player A may move any of his units that are not marked with a Fire marker"."""
    s = scenario(
        tmp_path,
        [
            squad("a", "us", "0103", fired=True),
            squad("b", "us", "0103"),
            squad("e", "de", "1208"),
        ],
    )
    assert [u.id for u in plan_move(s, "0103", ["0203"]).stack] == ["b"]
    with pytest.raises(InputError, match=r"'units' must be units without a Fire marker \(5.33"):
        plan_move(s, "0103", ["0203"], units=["a"])
    with pytest.raises(InputError, match=r"'units' must be units without a Move marker"):
        plan_move(
            scenario(tmp_path, [squad("m", "us", "0103", moved=True), squad("e", "de", "1208")]),
            "0103",
            ["0203"],
            units=["m"],
        )


def test_the_sample_scenario_s_platoon_crosses_the_road() -> None:
    plan = plan_move(load_scenario("village"), "0206", ["0306", "0406", "0506", "0606"])
    assert [s.spent["us-sq1"] for s in plan.steps] == [1, 2, 3, 4]
