"""The whole-board matrix (lines grouped by offset, mirrored where the rule declares the line
back symmetric) equals ``line_of_sight`` on every ordered pair of small boards: every policy,
both orientations and both offset conventions of each."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firefight.board import matrix
from firefight.board.board import Board, hexside
from firefight.board.los import line_of_sight
from firefight.board.visibility import LosTool, Sweep, whole_board
from firefight.rulesets.ept.board import EPT_LOS, EptLosPolicy
from firefight.rulesets.vv.board import VV_LOS
from tests.board.random_boards import assert_matrix_equals_per_pair, boards

POLICIES = {
    "vv": VV_LOS,
    "ept": EPT_LOS,
    "ept-from-3": EptLosPolicy(hindrance_blocking="from_3"),
    "ept-no-blocking-terrain": EptLosPolicy(blocking_terrain=frozenset()),
    "ept-hedges-block": EptLosPolicy(
        blocking_terrain=frozenset({"forest", "orchard"}),
        blocking_hexsides=frozenset({"bocage", "hedge", "wall"}),
    ),
}
TERRAIN = {
    "vv": ["open", "open", "open", "woods", "building", "orchard", "crops", "haystack"],
    "ept": ["clear", "clear", "clear", "forest", "stone_building", "field", "orchard", "brush"],
}
FEATURES = {"vv": ["wall", "hedge", "hedgerow"], "ept": ["hedge", "bocage", "wall"]}
OFFSETS = ["odd-q", "even-q", "odd-r", "even-r"]


def small_board(ruleset: str, offset: str, seed: int, columns: int = 6, rows: int = 5) -> Board:
    """Random terrain (on the board and just off it, which a line can graze), levels 0-2, and
    hexside features, often two meeting at a corner of a hex (where a hexside line passes
    between them)."""
    rng = np.random.default_rng(seed)
    orientation = "flat-top" if offset.endswith("q") else "pointy-top"
    shell = Board(
        "shape",
        ruleset,
        columns,
        rows,
        offset,
        TERRAIN[ruleset][0],
        first=seed % 2,
        orientation=orientation,
    )
    on_board = list(shell.hexes())
    around = sorted({n for h in on_board for n in h.neighbours()} - set(on_board))
    names, features = TERRAIN[ruleset], FEATURES[ruleset]
    terrain = {h: names[rng.integers(len(names))] for h in on_board + around if rng.random() < 0.6}
    elevation = {h: int(rng.choice([0, 0, 0, 1, 1, 2])) for h in on_board + around}
    sides = {}
    for h in on_board:
        if rng.random() < 0.4:  # two hexsides meeting at a corner of h
            direction, feature = int(rng.integers(1, 7)), features[rng.integers(len(features))]
            for d in (direction, direction % 6 + 1):
                sides[hexside(h, h.neighbour(d))] = feature
    return replace(shell, name="small", terrain=terrain, elevation=elevation, hexsides=sides)


def per_pair(board: Board, policy) -> tuple[np.ndarray, np.ndarray]:
    """The reference: ``line_of_sight`` (one line, recorded) on every ordered pair."""
    listed = list(board.hexes())
    verdicts = [[line_of_sight(board, a, b, policy) for b in listed] for a in listed]
    visible = np.array([[v.visible for v in row] for row in verdicts], dtype=bool)
    modifier = np.array([[v.modifier for v in row] for row in verdicts], dtype=np.int16)
    return visible, modifier


@pytest.mark.parametrize("offset", OFFSETS)
@pytest.mark.parametrize("name", list(POLICIES))
def test_matrix_equals_line_of_sight_on_every_pair(name, offset):
    policy = POLICIES[name]
    seed = OFFSETS.index(offset)
    board = small_board(policy.ruleset, offset, seed, columns=5, rows=4)
    found = LosTool(board, policy).matrix()
    visible, modifier = per_pair(board, policy)
    assert (found.visible == visible).all(), (name, offset, seed)
    assert (found.modifier == modifier).all(), (name, offset, seed)
    assert found.visible.any()
    assert not found.visible.all()


@pytest.mark.parametrize("name", ["vv", "ept"])
def test_small_windows_chunks_and_blocks_and_no_symmetry(name, monkeypatch):
    """One step a window, a few lines a march, one template a group: the same matrix; and
    the same again with the rule's symmetry ignored (every line marched both ways)."""
    policy = POLICIES[name]
    board = small_board(policy.ruleset, "odd-q", 3, columns=7, rows=4)
    tool = LosTool(board, policy)
    visible, modifier = per_pair(board, policy)
    found = whole_board(Sweep(tool.rule, tool.shape, 1, 5), 1)
    assert (found[0] == visible).all()
    assert (found[1] == modifier).all()
    monkeypatch.setattr(matrix, "symmetry_of", lambda rule: "none")
    found = whole_board(Sweep(tool.rule, tool.shape, 3, 64), 40)
    assert (found[0] == visible).all()
    assert (found[1] == modifier).all()


def test_the_rules_declare_their_symmetry():
    """EPT's line back has the same verdict; V&V's the same visibility only (the target's
    hex and the hexside entering it count, the firer's do not)."""
    board = small_board("vv", "odd-q", 1)
    assert matrix.symmetry_of(LosTool(board, VV_LOS).rule) == "visibility"
    assert matrix.symmetry_of(LosTool(small_board("ept", "odd-q", 1), EPT_LOS).rule) == "verdict"
    modifier = LosTool(board, VV_LOS).matrix().modifier
    assert (modifier != modifier.T).any()  # V&V's modifiers are not mirrored


def _without_reverse(monkeypatch, tool: LosTool) -> tuple[np.ndarray, np.ndarray]:
    """The matrix with the rule's ``reverse`` ignored: the visible lines back marched again."""
    with monkeypatch.context() as patched:
        patched.setattr(matrix, "reverser_of", lambda rule: None)
        return whole_board(Sweep(tool.rule, tool.shape, 8, 1 << 12), 1 << 14)


def test_vv_declares_its_lines_reversible():
    assert matrix.reverser_of(LosTool(small_board("vv", "odd-q", 1), VV_LOS).rule) is not None
    ept = LosTool(small_board("ept", "odd-q", 1), EPT_LOS).rule
    assert matrix.reverser_of(ept) is None  # its verdict is mirrored whole


@pytest.mark.parametrize("offset", ["odd-q", "even-r"])
def test_medium_board_matrix_equals_line_of_sight_on_every_pair(offset, monkeypatch):
    """A 12 x 8 board (lines up to 12 hexes, several windows of steps): every pair judged
    both ways from one march equals ``line_of_sight`` and the lines back marched again."""
    board = small_board("vv", offset, 5, columns=12, rows=8)
    tool = LosTool(board, VV_LOS)
    found = tool.matrix()
    visible, modifier = per_pair(board, VV_LOS)
    assert (found.visible == visible).all()
    assert (found.modifier == modifier).all()
    again = _without_reverse(monkeypatch, tool)
    assert (again[0] == visible).all()
    assert (again[1] == modifier).all()


@settings(max_examples=8, deadline=None)
@given(boards("vv", max_side=8, min_side=2), st.integers(1, 9), st.integers(1, 300))
def test_lines_back_reversed_equal_the_lines_back_marched(board, window, chunk):
    """Any board, any window and batch: the modifiers of the lines back from the lines forth
    reversed are those of the lines back marched again, and the matrix is ``line_of_sight``'s
    on every pair."""
    tool = LosTool(board, VV_LOS)
    found = whole_board(Sweep(tool.rule, tool.shape, window, chunk), 4 * chunk)
    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(matrix, "reverser_of", lambda rule: None)
        again = whole_board(Sweep(tool.rule, tool.shape, window, chunk), 4 * chunk)
    assert (found[0] == again[0]).all()
    assert (found[1] == again[1]).all()
    assert_matrix_equals_per_pair(board, VV_LOS)


@given(st.lists(st.integers(0, 4), max_size=40), st.integers(0, 3))
def test_window_ids_by_runs_are_the_gather(which, steps):
    """A window's ids gathered a run of equal templates at a time equal the plain gather,
    whatever the order of the lines."""
    table = np.arange(2 * steps * 5, dtype=np.int32).reshape(2, steps, 5) * 7 - 3
    picks = np.array(which, dtype=np.int64)
    assert (matrix._repeated(table, picks) == table.take(picks, axis=2)).all()
