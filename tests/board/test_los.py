"""Line of sight on small boards built for each rule: V&V chapters 9-10 and EPT's terrain note."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firefight.board.board import Board, hexside
from firefight.board.hexes import Hex
from firefight.board.los import Across, Along, Through, line_of_sight, trace
from firefight.rulesets.ept.board import EPT_LOS, EptLosPolicy
from firefight.rulesets.vv.board import VV_LOS

ORIGIN = Hex(2, 5)


def at(q: int, r: int) -> Hex:
    """A hex relative to the origin of the test boards (well inside a 12 x 12 board)."""
    return ORIGIN + Hex(q, r)


A = at(0, 0)
FAR = at(4, 0)  # a straight line through at(1,0), at(2,0), at(3,0)
SIDE_TARGET = at(2, -4)  # a hexside line: along (1,-1)|(0,-1), through (1,-2), along (2,-3)|(1,-3)
LEFT_1, RIGHT_1, MIDDLE = at(1, -1), at(0, -1), at(1, -2)
LEFT_2, RIGHT_2 = at(2, -3), at(1, -3)


def vv_board(terrain=None, elevation=None, hexsides=None) -> Board:
    return Board(
        "test", "vv", 12, 12, "odd-q", "open", terrain or {}, elevation or {}, hexsides or {}
    )


def ept_board(terrain=None, elevation=None, hexsides=None) -> Board:
    return Board(
        "test", "ept", 12, 12, "odd-q", "clear", terrain or {}, elevation or {}, hexsides or {}
    )


def test_the_trace_of_a_hexside_line():
    assert trace(A, SIDE_TARGET) == [
        Along(LEFT_1, RIGHT_1),
        Through(MIDDLE),
        Along(LEFT_2, RIGHT_2),
    ]
    assert trace(A, at(2, 0)) == [
        Across(A, at(1, 0)),
        Through(at(1, 0)),
        Across(at(1, 0), at(2, 0)),
    ]


# --- V&V 9.2 and 9.3 ------------------------------------------------------------------------


def test_vv_blocking_terrain_blocks_through_not_into_or_out_of():
    board = vv_board({at(2, 0): "woods"})
    verdict = line_of_sight(board, A, FAR, VV_LOS)
    assert verdict.status == "blocked"
    assert verdict.blocked_by == f"hex {board.label(at(2, 0))} (woods)"
    assert line_of_sight(board, A, at(2, 0), VV_LOS).status == "clear"
    assert line_of_sight(board, at(2, 0), FAR, VV_LOS).status == "clear"


def test_vv_hindrances_are_cumulative_into_or_through():
    board = vv_board({at(1, 0): "orchard", at(2, 0): "crops", FAR: "haystack"})
    verdict = line_of_sight(board, A, FAR, VV_LOS)
    assert verdict.status == "hindered"
    assert verdict.modifier == 3
    assert [h.what for h in verdict.hindrances] == ["orchard", "crops", "haystack"]


def test_vv_walls_and_hedges_hinder_except_for_the_adjacent_firer():
    side = hexside(at(2, 0), at(3, 0))
    board = vv_board(hexsides={side: "hedge"})
    assert line_of_sight(board, A, FAR, VV_LOS).modifier == 1
    adjacent = hexside(A, at(1, 0))
    board = vv_board(hexsides={adjacent: "wall"})
    assert line_of_sight(board, A, FAR, VV_LOS).status == "clear"  # firing over his own wall
    assert line_of_sight(board, FAR, A, VV_LOS).modifier == 1  # the target behind it


def test_vv_hedgerows_block_beyond_the_hex_they_bound():
    middle = hexside(at(1, 0), at(2, 0))
    assert (
        line_of_sight(vv_board(hexsides={middle: "hedgerow"}), A, FAR, VV_LOS).status == "blocked"
    )
    near_target = hexside(at(3, 0), FAR)
    assert (
        line_of_sight(vv_board(hexsides={near_target: "hedgerow"}), A, FAR, VV_LOS).status
        == "clear"
    )


# --- V&V 9.4 hexside LOS --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("terrain", "status", "modifier"),
    [
        ({}, "clear", 0),
        ({LEFT_1: "woods"}, "clear", 0),  # one side blocks, the other is open
        ({LEFT_1: "woods", LEFT_2: "building"}, "clear", 0),  # all on one side
        ({LEFT_1: "woods", RIGHT_1: "woods"}, "blocked", 0),  # both sides block
        ({LEFT_1: "woods", RIGHT_2: "building"}, "blocked", 0),  # even if not adjacent
        ({LEFT_1: "woods", RIGHT_1: "orchard"}, "hindered", 1),  # blocks + hinders
        ({LEFT_1: "orchard", RIGHT_1: "crops"}, "hindered", 1),  # hinders + hinders
        ({LEFT_1: "orchard", RIGHT_1: "crops", LEFT_2: "orchard"}, "hindered", 2),  # +1 more
        ({LEFT_1: "orchard", RIGHT_1: "crops", MIDDLE: "orchard"}, "hindered", 2),  # full hex
        ({LEFT_1: "orchard"}, "clear", 0),  # a hindrance on one side only
    ],
)
def test_vv_9_4_hexside_lines(terrain, status, modifier):
    verdict = line_of_sight(vv_board(terrain), A, SIDE_TARGET, VV_LOS)
    assert (verdict.status, verdict.modifier) == (status, modifier)


def test_vv_9_4_hexside_terrain_along_the_line():
    along = hexside(LEFT_1, RIGHT_1)
    assert line_of_sight(vv_board(hexsides={along: "hedge"}), A, SIDE_TARGET, VV_LOS).modifier == 1
    verdict = line_of_sight(vv_board(hexsides={along: "hedgerow"}), A, SIDE_TARGET, VV_LOS)
    assert verdict.status == "blocked"


# --- V&V 10.7 hills ------------------------------------------------------------------------


def test_vv_hills():
    hill = {at(2, 0): 1}
    assert line_of_sight(vv_board(elevation=hill), A, FAR, VV_LOS).status == "blocked"
    plateau = {A: 1, at(1, 0): 1, at(2, 0): 1, at(3, 0): 1, FAR: 1}
    assert line_of_sight(vv_board(elevation=plateau), A, FAR, VV_LOS).status == "clear"
    two_hills = {A: 1, FAR: 1}
    assert line_of_sight(vv_board(elevation=two_hills), A, FAR, VV_LOS).status == "clear"
    # From level 2 down to ground level past one level-1 slope hex next to the firer.
    slope = {A: 2, at(1, 0): 1}
    assert line_of_sight(vv_board(elevation=slope), A, FAR, VV_LOS).status == "clear"
    two_slopes = {A: 2, at(1, 0): 1, at(2, 0): 1}
    assert line_of_sight(vv_board(elevation=two_slopes), A, FAR, VV_LOS).status == "blocked"


# --- EPT --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("count", "status", "modifier"), [(0, "clear", 0), (1, "hindered", 1), (3, "hindered", 3)]
)
def test_ept_visual_hindrances_sum(count, status, modifier):
    line = [at(q, 0) for q in range(1, 6)]
    board = ept_board(dict.fromkeys(line[:count], "field"))
    verdict = line_of_sight(board, A, at(6, 0), EPT_LOS)
    assert (verdict.status, verdict.modifier) == (status, modifier)


def test_ept_a_sum_above_3_blocks():
    line = [at(q, 0) for q in range(1, 5)]
    board = ept_board(dict.fromkeys(line, "orchard"))
    verdict = line_of_sight(board, A, at(5, 0), EPT_LOS)
    assert verdict.status == "blocked"
    assert verdict.blocked_by == "visual hindrance +4 (TABLE DES TERRAINS: > +3 blocks)"
    later = EptLosPolicy(hindrance_blocking="from_3")
    board = ept_board(dict.fromkeys(line[:3], "orchard"))
    assert line_of_sight(board, A, at(5, 0), EPT_LOS).modifier == 3
    assert line_of_sight(board, A, at(5, 0), later).status == "blocked"


def test_ept_blocking_terrain_and_bocage():
    assert line_of_sight(ept_board({at(2, 0): "forest"}), A, FAR, EPT_LOS).status == "blocked"
    seed_only = EptLosPolicy(blocking_terrain=frozenset())
    assert line_of_sight(ept_board({at(2, 0): "forest"}), A, FAR, seed_only).status == "clear"
    bocage = {hexside(at(1, 0), at(2, 0)): "bocage"}
    assert line_of_sight(ept_board(hexsides=bocage), A, FAR, EPT_LOS).status == "blocked"
    own = {hexside(A, at(1, 0)): "bocage"}
    assert line_of_sight(ept_board(hexsides=own), A, FAR, EPT_LOS).status == "clear"


def test_ept_hexside_line_takes_the_more_open_side():
    board = ept_board({LEFT_1: "field", LEFT_2: "field", RIGHT_1: "orchard"})
    verdict = line_of_sight(board, A, SIDE_TARGET, EPT_LOS)
    assert verdict.modifier == 1
    blocked = ept_board({LEFT_1: "forest", RIGHT_2: "stone_building"})
    assert line_of_sight(blocked, A, SIDE_TARGET, EPT_LOS).status == "blocked"


# --- symmetry ---------------------------------------------------------------------------------

cells = st.builds(Hex, st.integers(0, 7), st.integers(0, 5))


@st.composite
def random_boards(draw, ruleset):
    hexes = [Hex(q, r) for q in range(8) for r in range(6)]
    if ruleset == "vv":
        names = ["open", "open", "open", "woods", "orchard", "crops", "building"]
        features = ["wall", "hedge", "hedgerow"]
        default = "open"
    else:
        names = ["clear", "clear", "clear", "forest", "field", "orchard", "stone_building"]
        features = ["hedge", "bocage", "wall"]
        default = "clear"
    terrain = {h: draw(st.sampled_from(names)) for h in hexes}
    elevation = {h: draw(st.sampled_from([0, 0, 0, 1, 2])) for h in hexes}
    sides = {}
    for h in hexes:
        if draw(st.integers(0, 9)) == 0:
            sides[hexside(h, h.neighbour(draw(st.integers(1, 6))))] = draw(
                st.sampled_from(features)
            )
    return Board("random", ruleset, 20, 20, "odd-q", default, terrain, elevation, sides)


@settings(max_examples=60)
@given(st.data())
def test_line_of_sight_is_symmetric(data):
    for ruleset, policy in (("vv", VV_LOS), ("ept", EPT_LOS)):
        board = data.draw(random_boards(ruleset))
        a, b = data.draw(cells), data.draw(cells)
        forward = line_of_sight(board, a, b, policy)
        backward = line_of_sight(board, b, a, policy)
        assert forward.visible == backward.visible
        if ruleset == "ept":
            assert forward.modifier == backward.modifier
