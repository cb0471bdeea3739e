"""The vectorized LOS tool equals the per-pair line of sight, pair by pair, on random boards."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firefight.board.board import Board
from firefight.board.hexes import Hex, cube_round, lines_between
from firefight.board.los import LosReasons, line_of_sight, visible_from
from firefight.board.visibility import (
    LosTool,
    Visibility,
    board_shape,
    cube_round_arrays,
    record_line,
    sight_of_line,
    sight_of_lines,
    trace_lines,
    visibility_matrix,
    visible_set,
    visible_sets,
)
from firefight.errors import InputError
from firefight.rulesets.ept.board import EPT_LOS, EptLosPolicy
from firefight.rulesets.ept.sight import EptSightRule
from firefight.rulesets.vv.board import VV_LOS
from tests.board.random_boards import (
    POLICIES,
    boards,
    random_board,
    told,
)

# --- the numpy hex line ---------------------------------------------------------------------

hexes = st.builds(Hex, st.integers(-40, 40), st.integers(-40, 40))


@given(hexes, st.lists(hexes, min_size=1, max_size=12))
def test_numpy_lines_equal_lines_between(a, targets):
    assert trace_lines(a, targets) == [lines_between(a, b) for b in targets]


def test_numpy_lines_along_hexsides_and_through_ties():
    a = Hex(3, -2)
    targets = [a + Hex(dq, dr) for dq in range(-9, 10) for dr in range(-9, 10)]
    assert trace_lines(a, targets) == [lines_between(a, b) for b in targets]


halves = st.integers(-40, 40).map(lambda k: k / 2)
coordinates = st.one_of(halves, st.floats(-50, 50, allow_nan=False))


@given(coordinates, coordinates, coordinates)
def test_cube_round_arrays_equals_cube_round(q, r, s):
    found = cube_round_arrays(np.array([q]), np.array([r]), np.array([s]))
    expected = cube_round(q, r, s)
    assert (int(found[0][0]), int(found[1][0])) == (expected.q, expected.r)


@settings(max_examples=20, deadline=None)
@given(st.data())
def test_visible_set_is_the_matrix_row_and_visible_from(data):
    policy = data.draw(st.sampled_from(POLICIES))
    board = data.draw(boards(policy.ruleset))
    a = data.draw(st.sampled_from(list(board.hexes())))
    found = visible_set(board, a, policy)
    assert found == visibility_matrix(board, policy).visible_from(a)
    assert found == {b: v.modifier for b, v in visible_from(board, a, policy).items()}
    assert list(found) == [b for b in board.hexes() if b in found]  # board order


@settings(max_examples=25, deadline=None)
@given(st.data())
def test_visibility_is_symmetric(data):
    policy = data.draw(st.sampled_from(POLICIES))
    matrix = visibility_matrix(data.draw(boards(policy.ruleset)), policy)
    assert (matrix.visible == matrix.visible.T).all()
    if policy.ruleset == "ept":  # V&V's modifiers are not: the firer's own wall, the target hex
        assert (matrix.modifier == matrix.modifier.T).all()


@pytest.mark.parametrize("policy", [VV_LOS, EPT_LOS], ids=["vv", "ept"])
def test_long_lines_on_a_larger_board(policy):
    board = random_board(policy.ruleset, 24, 16, seed=7)
    tool = LosTool(board, policy)
    listed = list(board.hexes())
    for a in (listed[0], listed[len(listed) // 2], listed[-1], board.hex("2401")):
        visible, modifier = tool.row(a)
        for j, b in enumerate(listed):
            verdict = line_of_sight(board, a, b, policy)
            assert (visible[j], modifier[j]) == (verdict.visible, verdict.modifier), (a, b)


def test_rows_in_blocks_equal_one_row_at_a_time(monkeypatch):
    board = random_board("vv", 9, 7, seed=3)
    whole = visibility_matrix(board, VV_LOS)
    monkeypatch.setattr("firefight.board.visibility.BLOCK_PAIRS", 100)
    monkeypatch.setattr("firefight.board.visibility.CHUNK_PAIRS", 7)
    monkeypatch.setattr("firefight.board.visibility.WINDOW", 1)
    small = visibility_matrix(board, VV_LOS)
    assert (small.visible == whole.visible).all()
    assert (small.modifier == whole.modifier).all()


# --- edges of the API -----------------------------------------------------------------------


def test_a_one_hex_board():
    board = Board("one", "vv", 1, 1)
    matrix = visibility_matrix(board, VV_LOS)
    assert matrix.visible.tolist() == [[True]]
    assert matrix.modifier.tolist() == [[0]]


def test_hexes_off_the_board_are_refused():
    board = Board("small", "vv", 3, 3)
    off = Hex(20, 20)
    with pytest.raises(InputError):
        visible_set(board, off, VV_LOS)
    with pytest.raises(InputError):
        visibility_matrix(board, VV_LOS).visible_from(off)


def test_boards_of_one_size_share_their_shape():
    assert board_shape(random_board("vv", 8, 5, 1)) is board_shape(Board("x", "ept", 8, 5))


def test_a_policy_brings_its_own_rule():
    """The engine knows only the SightRule interface: a rule set's policy brings its rule."""

    class SeeAllRule:
        """Everything is visible at +1 (a rule set of its own)."""

        folds: ClassVar = {"step": ("steps", "sum")}

        def start(self, ends):
            return {"steps": np.zeros(len(ends.source), dtype=np.int32)}

        def steps(self, acc, window, ends):
            return {"step": np.ones(window.left.shape, dtype=np.int32)}

        def settled(self, acc):
            return np.zeros(len(acc["steps"]), dtype=bool)

        def judge(self, acc, ends):
            count = len(ends.source)
            return {"visible": np.ones(count, dtype=bool), "modifier": np.ones(count, np.int16)}

    @dataclass(frozen=True)
    class SeeAll(EptLosPolicy):
        def sight_rule(self, cells):
            return SeeAllRule()

    matrix = visibility_matrix(Board("b", "ept", 3, 2), SeeAll())
    assert isinstance(matrix, Visibility)
    assert matrix.visible.all()
    assert (matrix.modifier == 1).all()


@pytest.mark.parametrize(
    ("columns", "rows", "offset", "first"),
    [
        (1, 1, "odd-q", 1),
        (5, 3, "odd-q", 1),
        (4, 7, "even-q", 0),
        (9, 2, "even-q", 3),
        (5, 3, "odd-r", 1),
        (4, 7, "even-r", 0),
        (2, 9, "odd-r", 3),
    ],
)
def test_the_shape_holds_every_offset_between_two_hexes(columns, rows, offset, first):
    orientation = "pointy-top" if offset.endswith("-r") else "flat-top"
    board = Board("x", "vv", columns, rows, offset, first=first, orientation=orientation)
    shape = board_shape(board)
    assert shape.hexes == tuple(board.hexes())
    pairs = [(a, b) for a in shape.hexes for b in shape.hexes]
    expected = {(b.q - a.q, b.r - a.r) for a, b in pairs}
    band_of = shape.band_of
    found = {
        (int(i) + shape.offset_q0, int(j) + shape.offset_r0)
        for i, j in zip(*np.nonzero(band_of >= 0), strict=True)
    }
    assert found == expected


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_the_scalar_verdict_is_the_vectorized_one(data):
    """``line_of_sight`` (the rule on one line, recorded in one window) equals the rule
    marched on the one line (``sight_of_line``: windows, settled lines leaving) and the
    whole-board engine (the shape's templates) pair by pair, and its named reasons tell the
    same verdict."""
    policy = data.draw(st.sampled_from(POLICIES))
    board = data.draw(boards(policy.ruleset, max_side=9))
    matrix = visibility_matrix(board, policy)
    listed = list(board.hexes())
    for _ in range(12):
        a, b = data.draw(st.sampled_from(listed)), data.draw(st.sampled_from(listed))
        verdict = line_of_sight(board, a, b, policy)
        i, j = matrix.index(a), listed.index(b)
        expected = (bool(matrix.visible[i, j]), int(matrix.modifier[i, j]))
        assert (verdict.visible, verdict.modifier) == expected
        assert sight_of_line(board, a, b, policy) == expected
        assert told(verdict) == expected


@settings(max_examples=30, deadline=None)
@given(st.data())
def test_many_lines_in_one_march_are_each_the_line_of_sight(data):
    """``sight_of_lines`` (lines of every length in one march, padded) gives each pair the
    verdict of ``line_of_sight`` on its own line; an end off the board, and a pair of one
    hex, as the one-line engine judges them."""
    policy = data.draw(st.sampled_from(POLICIES))
    board = data.draw(boards(policy.ruleset, max_side=9))
    listed = list(board.hexes())
    pairs = [
        (data.draw(st.sampled_from(listed)), data.draw(st.sampled_from(listed)))
        for _ in range(data.draw(st.integers(1, 20)))
    ]
    off = Hex(listed[-1].q + 1, listed[-1].r)
    pairs += [(listed[0], listed[0]), (listed[0], off)]
    expected = [sight_of_line(board, a, b, policy) for a, b in pairs]
    assert sight_of_lines(board, pairs, policy) == expected
    for (a, b), found in zip(pairs[:-2], expected, strict=False):
        verdict = line_of_sight(board, a, b, policy)
        assert (verdict.visible, verdict.modifier) == found


def test_visible_sets_is_the_batch_of_visible_set():
    board = random_board("ept", 14, 9, seed=5)
    sources = [board.hex("0101"), board.hex("0705"), board.hex("1409")]
    batch = visible_sets(board, sources, EPT_LOS)
    assert batch.sources == tuple(sources)
    assert batch.visible.shape == (3, 14 * 9)
    for source in sources:
        assert batch.visible_from(source) == visible_set(board, source, EPT_LOS)


def test_a_verdict_off_the_board_is_judged_on_the_board_grown_to_hold_it():
    board = Board("small", "vv", 3, 3, "odd-q", "open", {Hex(1, 1): "woods"})
    a, beyond = Hex(1, 0), Hex(1, 4)  # both off the map, the woods of 0101 between them
    assert a not in board
    assert beyond not in board
    assert not line_of_sight(board, a, beyond, VV_LOS).visible
    assert line_of_sight(board, a, Hex(4, -1), VV_LOS).visible


def test_prepared_boards_are_kept_by_identity_and_shared_by_threads(monkeypatch):
    """The web calculator answers from a pool of threads: the cache of prepared boards holds
    under concurrent use, even when it keeps one board only."""
    from concurrent.futures import ThreadPoolExecutor  # noqa: PLC0415

    from firefight.board import visibility  # noqa: PLC0415

    monkeypatch.setattr(visibility, "_CELLS_KEPT", 1)
    boards_ = [random_board("vv", 6, 5, seed) for seed in range(4)]
    expected = [visible_set(b, b.hex("0303"), VV_LOS) for b in boards_]
    assert visibility.board_cells(boards_[0]) is visibility.board_cells(boards_[0])
    assert visibility.board_cells(replace(boards_[0])) is not visibility.board_cells(boards_[0])
    with ThreadPoolExecutor(8) as pool:
        found = list(
            pool.map(
                lambda i: visible_set(boards_[i % 4], boards_[i % 4].hex("0303"), VV_LOS), range(64)
            )
        )
    assert found == [expected[i % 4] for i in range(64)]


def test_a_verdict_and_its_named_reasons_cannot_disagree():
    """``line_of_sight`` takes the status and modifier from the rule's record; a policy that
    names nothing for a blocked line, or a blocker for a visible one, is a bug that raises."""

    @dataclass(frozen=True)
    class Silent(EptLosPolicy):
        def explain(self, board, record):
            return LosReasons()

    @dataclass(frozen=True)
    class Gloomy(EptLosPolicy):
        def explain(self, board, record):
            return LosReasons(blocked_by="fog")

    shell = Board("b", "ept", 1, 6)  # one column: a straight line down it
    board = replace(shell, terrain={shell.hex("0103"): "forest"})
    a, b, c = board.hex("0101"), board.hex("0106"), board.hex("0102")
    assert not line_of_sight(board, a, b, EPT_LOS).visible
    with pytest.raises(AssertionError, match="named None for a blocked line"):
        line_of_sight(board, a, b, Silent())
    assert line_of_sight(board, a, c, Silent()).status == "clear"
    with pytest.raises(AssertionError, match="named 'fog' for a clear line"):
        line_of_sight(board, a, c, Gloomy())


def test_the_record_holds_the_rules_facts_step_by_step():
    """Recording mode: the facts of every step between the ends, before they are folded, and
    the judgement the verdict is read from."""
    shell = Board("b", "ept", 1, 6)  # one column: a straight line down it
    column = [shell.hex(f"010{row}") for row in range(1, 7)]
    board = replace(shell, terrain={column[2]: "field", column[3]: "forest"})
    record = record_line(board, column[0], column[5], EPT_LOS)
    assert [step.left for step in record.steps] == column[1:5]
    assert record.facts["left_hindrance"] == (0, 1, 0, 0)
    assert [bool(EptSightRule.blocks(s, 0)) for s in record.facts["left"]] == [0, 0, 1, 0]
    assert (record.visible, record.modifier, record.judged["left_blocked"]) == (False, 0, True)
    assert record.steps[0].across is None  # leaving the firer's hex
    assert record.steps[1].across == (column[1], column[2])
    assert record.last_across == (column[4], column[5])
