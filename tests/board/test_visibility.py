"""The vectorized LOS tool equals the per-pair line of sight, pair by pair, on random boards."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firefight.board.board import Board, hexside
from firefight.board.hexes import Hex, cube_round, lines_between
from firefight.board.los import LosReasons, line_of_sight, trace, vertex_hexsides, visible_from
from firefight.board.visibility import (
    LosTool,
    Visibility,
    board_shape,
    cube_round_arrays,
    record_line,
    sight_of_line,
    sight_of_lines,
    trace_lines,
    traced_corners,
    traced_steps,
    visibility_matrix,
    visible_set,
    visible_sets,
)
from firefight.errors import InputError
from firefight.rulesets.ept.board import EPT_LOS, EptLosPolicy
from firefight.rulesets.ept.sight import EptSightRule
from firefight.rulesets.vv.board import VV_LOS

EPT_SETTINGS = (
    EPT_LOS,
    EptLosPolicy(hindrance_blocking="from_3"),
    EptLosPolicy(blocking_terrain=frozenset()),
    EptLosPolicy(
        blocking_terrain=frozenset({"forest", "orchard"}),
        blocking_hexsides=frozenset({"bocage", "hedge", "wall"}),
    ),
)
POLICIES = (VV_LOS, *EPT_SETTINGS)

TERRAIN = {
    "vv": ["open", "open", "open", "woods", "building", "orchard", "crops", "haystack", "road"],
    "ept": ["clear", "clear", "clear", "forest", "stone_building", "field", "orchard", "brush"],
}
FEATURES = {"vv": ["wall", "hedge", "hedgerow"], "ept": ["hedge", "bocage", "wall"]}
BLOCKING_FEATURE = {"vv": "hedgerow", "ept": "bocage"}

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


# --- random boards --------------------------------------------------------------------------


@st.composite
def boards(draw, ruleset, max_side=6, min_side=1, corner_odds=3):
    """A small board: random terrain (also on the hexes just off its edges, which a line can
    graze), levels 0-2 (sometimes 3), and random hexside features, often two of one kind
    meeting at a corner of a hex (where a hexside line may pass between them), some stored the
    wrong way round or between hexes that are not adjacent (which Board.hexside_of never
    finds)."""
    columns = draw(st.integers(min_side, max_side))
    rows = draw(st.integers(min_side, max_side))
    offset = draw(st.sampled_from(["odd-q", "even-q"]))
    first = draw(st.integers(0, 2))
    default = TERRAIN[ruleset][0]
    shell = Board("shape", ruleset, columns, rows, offset, default, first=first)
    on_board = list(shell.hexes())
    around = sorted({n for h in on_board for n in h.neighbours()} - set(on_board))
    names = st.sampled_from(TERRAIN[ruleset])
    terrain = {h: draw(names) for h in on_board if draw(st.booleans())}
    terrain |= {h: draw(names) for h in around if draw(st.integers(0, 3)) == 0}
    levels = st.sampled_from([0, 0, 0, 1, 1, 2, 2, 3])
    elevation = {h: draw(levels) for h in on_board + around if draw(st.booleans())}
    features = st.sampled_from(FEATURES[ruleset])
    corner_features = st.sampled_from([*FEATURES[ruleset], *[BLOCKING_FEATURE[ruleset]] * 3])
    sides: dict[tuple[Hex, Hex], str] = {}
    for h in on_board:
        if draw(st.integers(0, 3)) == 0:
            sides[hexside(h, h.neighbour(draw(st.integers(1, 6))))] = draw(features)
        if draw(st.integers(0, corner_odds - 1)) == 0:  # two hexsides meeting at a corner of h
            direction, feature = draw(st.integers(1, 6)), draw(corner_features)
            for d in (direction, direction % 6 + 1):
                sides[hexside(h, h.neighbour(d))] = feature
    if on_board and draw(st.booleans()):
        h = draw(st.sampled_from(on_board))
        other = h.neighbour(draw(st.integers(1, 6)))
        sides[max(h, other), min(h, other)] = draw(features)  # not in hexside() order
        sides[h, h + Hex(2, 0)] = draw(features)  # not adjacent
    return Board(
        "random", ruleset, columns, rows, offset, default, terrain, elevation, sides, first
    )


def told(verdict):
    """The verdict its named reasons tell, apart from its status: blocked when something is
    named as blocking, else the hindrances named, summed."""
    if verdict.blocked_by is not None:
        return False, 0
    return True, sum(h.modifier for h in verdict.hindrances)


def every_line(board, policy):
    """``line_of_sight`` on every ordered pair of the board's hexes, each traced once."""
    listed = list(board.hexes())
    return {(a, b): line_of_sight(board, a, b, policy) for a in listed for b in listed}


def per_pair(board, policy, lines=None):
    """The reference: what the named reasons of ``line_of_sight`` tell (the rule on one line
    in recording mode, its reasons named from the record) for every pair, as arrays
    (``lines``: :func:`every_line`'s, when the caller has them)."""
    listed = list(board.hexes())
    lines = every_line(board, policy) if lines is None else lines
    verdicts = [[told(lines[a, b]) for b in listed] for a in listed]
    visible = np.array([[v for v, _ in row] for row in verdicts], dtype=bool)
    modifier = np.array([[m for _, m in row] for row in verdicts], dtype=np.int16)
    return visible.reshape(len(listed), len(listed)), modifier.reshape(len(listed), len(listed))


def assert_matrix_equals_per_pair(board, policy, lines=None):
    matrix = visibility_matrix(board, policy)
    assert matrix.hexes == tuple(board.hexes())
    lines = every_line(board, policy) if lines is None else lines
    visible, modifier = per_pair(board, policy, lines)
    mismatches = [
        (a, b, lines[a, b])
        for i, a in enumerate(matrix.hexes)
        for j, b in enumerate(matrix.hexes)
        if (matrix.visible[i, j], matrix.modifier[i, j]) != (visible[i, j], modifier[i, j])
    ]
    assert not mismatches, mismatches[:3]


@settings(max_examples=30, deadline=None)
@given(boards("vv"))
def test_vv_matrix_equals_line_of_sight(board):
    assert_matrix_equals_per_pair(board, VV_LOS)


@settings(max_examples=25, deadline=None)
@given(boards("ept"), st.sampled_from(EPT_SETTINGS))
def test_ept_matrix_equals_line_of_sight(board, policy):
    assert_matrix_equals_per_pair(board, policy)


@settings(max_examples=25, deadline=None)
@given(st.data())
def test_matrix_equals_line_of_sight_at_corners(data):
    """Larger boards, dense with hexsides meeting at corners, often without terrain: many
    hexside lines that only a corner blocks."""
    policy = data.draw(st.sampled_from(POLICIES))
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


def enclosed_board(ruleset, feature, columns=12, rows=9):
    """Fields boxed in by ``feature``: about every third hex enclosed on all six sides (the
    bocage country of the sample board, denser), plain terrain: corners everywhere."""
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


def random_board(ruleset, columns, rows, seed):
    rng = np.random.default_rng(seed)
    shell = Board("shape", ruleset, columns, rows)
    names, features = TERRAIN[ruleset], FEATURES[ruleset]
    terrain, elevation, sides = {}, {}, {}
    for h in shell.hexes():
        terrain[h] = names[rng.integers(len(names))]
        elevation[h] = int(rng.choice([0, 0, 0, 0, 1, 2]))
        if rng.random() < 0.15:
            sides[hexside(h, h.neighbour(int(rng.integers(1, 7))))] = features[
                rng.integers(len(features))
            ]
    return Board("random", ruleset, columns, rows, "odd-q", names[0], terrain, elevation, sides)


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
