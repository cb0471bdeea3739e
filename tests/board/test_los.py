"""Line of sight on small boards built for each rule: V&V chapters 9-10 and EPT's terrain note."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firefight.board.board import Board, hexside
from firefight.board.hexes import Hex
from firefight.board.los import (
    Across,
    Along,
    Through,
    line_of_sight,
    trace,
    vertex_hexsides,
)
from firefight.board.visibility import visible_set
from firefight.rulesets.boards import load
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


# --- corners of a hexside line -------------------------------------------------------------
# The hexside line from A to SIDE_TARGET passes four corners: (A, LEFT_1, RIGHT_1), then
# (MIDDLE, LEFT_1, RIGHT_1) into the full hex MIDDLE, (MIDDLE, LEFT_2, RIGHT_2) out of it, and
# (SIDE_TARGET, LEFT_2, RIGHT_2). At each, two hexsides fan out on either side of the line.

ENTRY = {hexside(MIDDLE, LEFT_1), hexside(MIDDLE, RIGHT_1)}  # the corner into MIDDLE
EXIT = {hexside(MIDDLE, LEFT_2), hexside(MIDDLE, RIGHT_2)}  # the corner out of it
FIRER_CORNER = {hexside(A, LEFT_1), hexside(A, RIGHT_1)}
TARGET_CORNER = {hexside(SIDE_TARGET, LEFT_2), hexside(SIDE_TARGET, RIGHT_2)}


def test_the_corners_of_a_hexside_line():
    assert vertex_hexsides(A, SIDE_TARGET, trace(A, SIDE_TARGET)) == [
        ((A, LEFT_1), (A, RIGHT_1)),
        ((MIDDLE, LEFT_1), (MIDDLE, RIGHT_1)),
        ((MIDDLE, LEFT_2), (MIDDLE, RIGHT_2)),
        ((SIDE_TARGET, LEFT_2), (SIDE_TARGET, RIGHT_2)),
    ]
    assert vertex_hexsides(A, FAR, trace(A, FAR)) == []  # a line across hexsides only


def corner_cases(blocking):
    """(hexside features, status) for a hexside line, ``blocking`` the feature that blocks."""
    return [
        (dict.fromkeys(ENTRY, blocking), "blocked"),  # the two meet across the line
        (dict.fromkeys(EXIT, blocking), "blocked"),
        ({hexside(MIDDLE, LEFT_1): blocking}, "clear"),  # one side only: grazes its end
        ({hexside(MIDDLE, RIGHT_2): blocking}, "clear"),
        # one on each of two corners, on the same side or on opposite sides
        ({hexside(MIDDLE, LEFT_1): blocking, hexside(MIDDLE, LEFT_2): blocking}, "clear"),
        ({hexside(MIDDLE, LEFT_1): blocking, hexside(MIDDLE, RIGHT_2): blocking}, "clear"),
        (dict.fromkeys(FIRER_CORNER, blocking), "clear"),  # the firer's own hexsides
        (dict.fromkeys(TARGET_CORNER, blocking), "clear"),  # the target's own hexsides
    ]


@pytest.mark.parametrize(("sides", "status"), corner_cases("bocage"))
def test_ept_bocage_meeting_at_a_corner_of_a_hexside_line(sides, status):
    board = ept_board(hexsides=sides)
    assert line_of_sight(board, A, SIDE_TARGET, EPT_LOS).status == status
    assert line_of_sight(board, SIDE_TARGET, A, EPT_LOS).status == status


@pytest.mark.parametrize(("sides", "status"), corner_cases("hedgerow"))
def test_vv_hedgerows_meeting_at_a_corner_of_a_hexside_line(sides, status):
    board = vv_board(hexsides=sides)
    assert line_of_sight(board, A, SIDE_TARGET, VV_LOS).status == status
    assert line_of_sight(board, SIDE_TARGET, A, VV_LOS).status == status


def test_what_blocks_at_a_corner_is_named():
    board = ept_board(hexsides=dict.fromkeys(ENTRY, "bocage"))
    verdict = line_of_sight(board, A, SIDE_TARGET, EPT_LOS)
    middle, left, right = (board.label(h) for h in (MIDDLE, LEFT_1, RIGHT_1))
    assert verdict.blocked_by == (
        f"hexside {middle}/{left} (bocage) and hexside {middle}/{right} (bocage)"
        " meeting at a corner of the line"
    )


def test_only_blocking_hexsides_block_at_a_corner():
    hedges = ept_board(hexsides=dict.fromkeys(ENTRY, "hedge"))
    assert line_of_sight(hedges, A, SIDE_TARGET, EPT_LOS).status == "clear"
    every_hedge = EptLosPolicy(blocking_hexsides=frozenset({"bocage", "hedge"}))
    assert line_of_sight(hedges, A, SIDE_TARGET, every_hedge).status == "blocked"
    mixed = ept_board(
        hexsides={hexside(MIDDLE, LEFT_1): "bocage", hexside(MIDDLE, RIGHT_1): "hedge"}
    )
    assert line_of_sight(mixed, A, SIDE_TARGET, EPT_LOS).status == "clear"
    assert line_of_sight(mixed, A, SIDE_TARGET, every_hedge).status == "blocked"
    mixed_vv = vv_board(
        hexsides={hexside(MIDDLE, LEFT_1): "hedgerow", hexside(MIDDLE, RIGHT_1): "wall"}
    )
    verdict = line_of_sight(mixed_vv, A, SIDE_TARGET, VV_LOS)
    assert (verdict.status, verdict.modifier) == ("clear", 0)  # a hedgerow hinders nothing


def vv_corner_cases():
    """(hexside features, modifier from A, modifier from SIDE_TARGET) on the hexside line."""
    return [
        (dict.fromkeys(ENTRY, "hedge"), 1, 1),  # they meet across the line: +1 both ways
        (dict.fromkeys(EXIT, "wall"), 1, 1),
        ({hexside(MIDDLE, LEFT_1): "hedge", hexside(MIDDLE, RIGHT_1): "wall"}, 1, 1),
        ({hexside(MIDDLE, LEFT_1): "hedge"}, 0, 0),  # one side only: grazes its end
        ({hexside(MIDDLE, LEFT_1): "hedge", hexside(MIDDLE, RIGHT_2): "hedge"}, 0, 0),
        (dict.fromkeys(ENTRY | EXIT, "hedge"), 2, 2),  # two corners, +1 each
        # unit A (chapter 9): into a hedged hex through its corner +1, out of it freely
        (dict.fromkeys(TARGET_CORNER, "hedge"), 1, 0),
        (dict.fromkeys(FIRER_CORNER, "wall"), 0, 1),
    ]


@pytest.mark.parametrize(("sides", "from_a", "from_target"), vv_corner_cases())
def test_vv_hedges_and_walls_meeting_at_a_corner_hinder(sides, from_a, from_target):
    board = vv_board(hexsides=sides)
    there = line_of_sight(board, A, SIDE_TARGET, VV_LOS)
    back = line_of_sight(board, SIDE_TARGET, A, VV_LOS)
    assert (there.modifier, back.modifier) == (from_a, from_target)
    assert there.visible
    assert back.visible


def test_what_hinders_at_a_corner_is_named():
    board = vv_board(hexsides={hexside(MIDDLE, LEFT_1): "hedge", hexside(MIDDLE, RIGHT_1): "wall"})
    middle, left, right = (board.label(h) for h in (MIDDLE, LEFT_1, RIGHT_1))
    (hindrance,) = line_of_sight(board, A, SIDE_TARGET, VV_LOS).hindrances
    assert hindrance.where == (
        f"hexside {middle}/{left} and hexside {middle}/{right} meeting at a corner of the line"
    )
    assert (hindrance.what, hindrance.modifier) == ("hedge and wall", 1)


UNIT_A_BOARD = Path(__file__).parent / "boards" / "vv_unit_a.toml"


@pytest.mark.parametrize(
    ("unit", "cover"), [("0704", "woods"), ("0104", "building")], ids=["unit 1", "unit 2"]
)
def test_vv_cover_example_unit_a_fire_into_its_hedged_hex_is_hindered(unit, cover):
    """V&V chapter 9, Line of Sight and Cover Modifier Examples, unit A: "Fire coming into
    the hex, however, from units 1 or 2, will suffer a +1 hindrance modifier for the hedge";
    unit A, adjacent to its hedge, fires over it with no detriment."""
    board, policy = load(str(UNIT_A_BOARD))
    a, firer = board.hex("0504"), board.hex(unit)
    assert board.terrain_of(firer) == cover
    assert all(board.hexside_of(a, n) == "hedge" for n in a.neighbours())
    assert isinstance(trace(firer, a)[-1], Along)  # the line enters A's hex at a corner
    incoming = line_of_sight(board, firer, a, policy)
    assert (incoming.status, incoming.modifier) == ("hindered", 1)
    assert [h.what for h in incoming.hindrances] == ["hedge"]
    outgoing = line_of_sight(board, a, firer, policy)
    assert (outgoing.status, outgoing.modifier) == ("clear", 0)
    # the vectorized LOS tool agrees, both ways
    assert visible_set(board, firer, policy)[a] == 1
    assert visible_set(board, a, policy)[firer] == 0


def test_a_single_hexside_step_has_its_corners_too():
    # A -> at(4, -1) meets the hexside at(2, 0)/at(2, -1) at its midpoint: the trace reads it
    # as one step along it, between the full hexes at(1, 0) and at(3, -1).
    b = at(4, -1)
    assert trace(A, b)[1:4] == [Through(at(1, 0)), Along(at(2, 0), at(2, -1)), Through(at(3, -1))]
    before = {hexside(at(1, 0), at(2, 0)), hexside(at(1, 0), at(2, -1))}
    after = {hexside(at(3, -1), at(2, 0)), hexside(at(3, -1), at(2, -1))}
    for corner in (before, after):
        assert (
            line_of_sight(ept_board(hexsides=dict.fromkeys(corner, "bocage")), A, b, EPT_LOS).status
            == "blocked"
        )
        assert (
            line_of_sight(vv_board(hexsides=dict.fromkeys(corner, "hedgerow")), b, A, VV_LOS).status
            == "blocked"
        )
    one = {hexside(at(1, 0), at(2, 0)): "bocage", hexside(at(3, -1), at(2, -1)): "bocage"}
    assert line_of_sight(ept_board(hexsides=one), A, b, EPT_LOS).status == "clear"


def test_the_sample_bocage_closes_the_corner_of_an_enclosure():
    # 0105 -> 0505 runs along 0205/0206 into the enclosure 0305 through its west corner,
    # where the bocage 0205/0305 and 0206/0305 meet; it leaves by the east corner past one
    # bocage hexside (0305/0406) only.
    board, policy = load("normandy_bocage")
    a, b = board.hex("0105"), board.hex("0505")
    verdict = line_of_sight(board, a, b, policy)
    assert verdict.status == "blocked"
    assert verdict.blocked_by == (
        "hexside 0305/0206 (bocage) and hexside 0305/0205 (bocage) meeting at a corner of the line"
    )
    assert line_of_sight(board, b, a, policy).status == "blocked"
    # From inside the enclosure its own corner does not block (0305's hexsides).
    assert line_of_sight(board, board.hex("0305"), a, policy).visible


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
        if draw(st.integers(0, 5)) == 0:  # two hexsides meeting at a corner of h
            direction, feature = draw(st.integers(1, 6)), draw(st.sampled_from(features))
            for d in (direction, direction % 6 + 1):
                sides[hexside(h, h.neighbour(d))] = feature
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
