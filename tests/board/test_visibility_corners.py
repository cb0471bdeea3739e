"""The vectorized LOS tool equals the per-pair line of sight on random boards, and at the
corners of hexside lines (two hexsides meeting where a line passes between them)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firefight.board.board import Board, hexside
from firefight.board.los import trace, vertex_hexsides
from firefight.board.visibility import traced_corners, traced_steps, visibility_matrix
from firefight.rulesets.ept.board import EPT_LOS
from firefight.rulesets.vv.board import VV_LOS
from tests.board.random_boards import (
    EPT_SETTINGS,
    POLICIES,
    TERRAIN,
    assert_matrix_equals_per_pair,
    boards,
    every_line,
)


@settings(max_examples=30, deadline=None)
@given(boards("vv"))
def test_vv_matrix_equals_line_of_sight(board):
    assert_matrix_equals_per_pair(board, VV_LOS)


@settings(max_examples=25, deadline=None)
@given(boards("ept"), st.sampled_from(EPT_SETTINGS))
def test_ept_matrix_equals_line_of_sight(board, policy):
    assert_matrix_equals_per_pair(board, policy)


@pytest.mark.parametrize("policy", POLICIES, ids=["vv", "ept", "ept-from3", "ept-open", "ept-hard"])
@settings(max_examples=3, deadline=None)
@given(st.data())
def test_matrix_equals_line_of_sight_at_corners(policy, data):
    """Larger boards, dense with hexsides meeting at corners, often without terrain: many
    hexside lines that only a corner blocks. Three boards for each of the five policies (25
    boards drawn among them before, 2.5 times the time, and a policy could go undrawn); the
    12 x 9 enclosed boards below keep every corner case on every run."""
    board = data.draw(boards(policy.ruleset, max_side=8, min_side=4, corner_odds=2))
    if data.draw(st.booleans()):
        board = replace(board, terrain={}, elevation={})
    assert_matrix_equals_per_pair(board, policy)


@settings(max_examples=25, deadline=None)
@given(st.data())
def test_the_engine_holds_the_steps_of_trace(data):
    ruleset = data.draw(st.sampled_from(["vv", "ept"]))
    board = data.draw(boards(ruleset, max_side=12))
    listed = list(board.hexes())
    for _ in range(10):
        a, b = data.draw(st.sampled_from(listed)), data.draw(st.sampled_from(listed))
        assert traced_steps(board, a, b) == trace(a, b)
        assert traced_corners(board, a, b) == corners_but_the_firers(a, b)


def touches(side, *ends):
    """Whether a hexside is one of the sides of any of ``ends``."""
    return any(end in side for end in ends)


def corners_but_the_firers(a, b):
    """The corners of :func:`vertex_hexsides` that can block or hinder (the firer's own are
    exempt from both; the target's block nothing but hedges and walls there hinder)."""
    return [
        (first[0], frozenset((first[1], second[1])))
        for first, second in vertex_hexsides(a, b, trace(a, b))
        if not (touches(first, a) or touches(second, a))
    ]


def enclosed_board(ruleset, feature, columns=10, rows=8):
    """Fields boxed in by ``feature``: about every third hex enclosed on all six sides (the
    bocage country of the sample board, denser), plain terrain: corners everywhere. 10 x 8
    (12 x 9 before, 1.8 times the time): lines to 12 hexes long, 318 of them blocked only at
    a corner (hedgerow, bocage) and 698 hindered at one (hedge, wall)."""
    shell = Board("shape", ruleset, columns, rows)
    sides = {}
    for h in shell.hexes():
        if (h.q + 2 * h.r) % 3 == 0:
            for n in h.neighbours():
                sides[hexside(h, n)] = feature
    return Board("enclosed", ruleset, columns, rows, "odd-q", TERRAIN[ruleset][0], {}, {}, sides)


@pytest.mark.parametrize(
    ("policy", "feature"), [(VV_LOS, "hedgerow"), (EPT_LOS, "bocage")], ids=["vv", "ept"]
)
def test_corners_of_hexside_lines_in_the_matrix(policy, feature):
    board = enclosed_board(policy.ruleset, feature)
    lines = every_line(board, policy)
    assert_matrix_equals_per_pair(board, policy, lines)
    at_corner = [
        pair
        for pair, verdict in lines.items()
        if "meeting at a corner" in (verdict.blocked_by or "")
    ]
    assert len(at_corner) > 100  # the rule is exercised: lines blocked at a corner only
    for a, b in at_corner[::7]:
        assert traced_corners(board, a, b) == corners_but_the_firers(a, b)


@pytest.mark.parametrize("feature", ["hedge", "wall"])
def test_vv_hedges_and_walls_at_corners_in_the_matrix(feature):
    """Hedged fields: lines into an enclosure through its corner, and past the corners of
    others, hinder +1 at each (chapter 9, unit A); the matrix counts them as the scalar."""
    board = enclosed_board("vv", feature)
    lines = every_line(board, VV_LOS)
    assert_matrix_equals_per_pair(board, VV_LOS, lines)
    at_corner = [
        pair
        for pair, verdict in lines.items()
        if any("meeting at a corner" in h.where for h in verdict.hindrances)
    ]
    assert len(at_corner) > 100  # the rule is exercised
    matrix = visibility_matrix(board, VV_LOS)
    for a, b in at_corner[::7]:
        corners = sum("meeting at a corner" in h.where for h in lines[a, b].hindrances)
        assert matrix.modifier[matrix.index(a), matrix.index(b)] >= corners
