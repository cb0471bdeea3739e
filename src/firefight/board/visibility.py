"""Line of sight with numpy: one engine for a single line, a visible set and a whole board.

A rule set's line-of-sight rule is written once, in its own package, as a :class:`SightRule`:
per-cell and per-hexside tables it reads from the board (:class:`BoardCells`), and a reduction
along the line (``start``; ``steps``: what each step of a window contributes, facts the engine
folds as the rule's ``folds`` say; ``judge``: the verdict and the decisions it rests on). This
engine evaluates it on thousands of lines at once (:class:`LosTool`, :func:`march`) and, in
recording mode, on one line (:func:`record_line`: every step's facts kept, and the judgement;
what :func:`firefight.board.los.line_of_sight` reports and its rule set names the reasons
from): the same code, on arrays of one pair or of many. The board knows only the interface;
it never imports a rule set.

Lines (the engine's part, the same for every rule set). The hex line is translation
invariant: ``lines_between(a, a + d)`` is ``a`` plus ``lines_between(origin, d)`` (rounding
only has to decide ties, and the ``(ε, 2ε, −3ε)`` nudge decides each by a margin of at least
ε = 10⁻⁶, far beyond the 10⁻¹³ error of the floats; the tests check the claim). So the line
to an offset is traced once (:func:`hex_lines`, ``Hex.line_to`` replicated operation for
operation) and kept as one byte a step (:func:`step_codes`): the direction of each of the two
nudged traces and whether the step runs along a hexside. Everything a rule reads (the cells on
the ``left`` and ``right`` of a step, the hexside crossed or run along, the corners where a
hexside run along meets a hex passed through) follows from these bytes and the source's cell
by table look-ups and a running sum. The templates of a board size are built lazily per band
of distances and cached, one byte a step: everything else a step holds is looked up from it.

Marching. Lines are walked together a window of steps at a time; after each window the lines
that have ended, or whose verdict the rule says is settled (blocked whatever follows), leave
the batch. On a board with woods, villages and hills most long lines are blocked within a few
dozen hexes, so a visible set costs about the steps actually seen, not the cube of the side.

Parts, each re-exported here: the hex line and its step codes (:mod:`~firefight.board.hexline`),
the board's shape (:mod:`~firefight.board.shape`), its contents on the grid and the policy
interface (:mod:`~firefight.board.cells`), the rule interface (:mod:`~firefight.board.sight_rule`),
the march's steps (:mod:`~firefight.board.window`), one line's record
(:mod:`~firefight.board.line_record`), the steps read back (:mod:`~firefight.board.traced`)
and the whole board's matrix (:mod:`~firefight.board.matrix`: lines grouped by offset, their
templates' ids read once, and half the offsets marched where the rule declares the line back
symmetric). This module keeps the march, the prepared boards' cache and the LOS tool.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import numpy.typing as npt

from firefight.board.board import Board
from firefight.board.cells import BoardCells, SightPolicy
from firefight.board.hexes import Hex
from firefight.board.hexline import (
    CODES,
    FAR,
    NUDGE,
    PAD,
    Bools,
    Floats,
    Int16s,
    Ints,
    cube_round_arrays,
    hex_lines,
    step_codes,
    trace_lines,
)
from firefight.board.line_record import Corner, LineRecord, StepRecord, recorded
from firefight.board.matrix import Sweep, Symmetry, whole_board
from firefight.board.shape import MARGIN, BoardShape, board_shape, cached_shape
from firefight.board.sight_rule import (
    Accumulators,
    Facts,
    Fold,
    Judgement,
    LineEnds,
    SightRule,
    StepWindow,
    fold,
    line_any,
    line_max,
    line_sum,
)
from firefight.board.traced import traced_corners, traced_steps
from firefight.board.window import line_ends, step_window, subset_of
from firefight.errors import InputError
from firefight.translation import gettext as _

__all__ = [
    "BLOCK_PAIRS",
    "CHUNK_PAIRS",
    "CODES",
    "FAR",
    "MARGIN",
    "NUDGE",
    "PAD",
    "WINDOW",
    "Accumulators",
    "BoardCells",
    "BoardShape",
    "Bools",
    "Corner",
    "Facts",
    "Floats",
    "Fold",
    "Int16s",
    "Ints",
    "Judgement",
    "LineEnds",
    "LineRecord",
    "LosTool",
    "SightPolicy",
    "SightRule",
    "StepRecord",
    "StepWindow",
    "Sweep",
    "Symmetry",
    "Visibility",
    "board_cells",
    "board_shape",
    "clear_shape_cache",
    "cube_round_arrays",
    "fold",
    "hex_lines",
    "line_any",
    "line_max",
    "line_sum",
    "march",
    "record_line",
    "sight_of_line",
    "step_codes",
    "trace_lines",
    "traced_corners",
    "traced_steps",
    "visibility_matrix",
    "visible_set",
    "visible_sets",
    "whole_board",
]


WINDOW = 8
"""Steps of every line fed to a rule at once; then ended and settled lines leave the batch."""

CHUNK_PAIRS = 1 << 15
"""Lines walked together (window arrays stay within the caches)."""

BLOCK_PAIRS = 1 << 18
"""Pairs enumerated at once by :meth:`LosTool.rows` (source rows per block = this / hexes)."""


def clear_shape_cache() -> None:
    """Forget the cached board shapes, their line templates and prepared boards."""
    cached_shape.cache_clear()
    with _CELLS_LOCK:
        _CELLS.clear()


_CELLS: OrderedDict[int, BoardCells] = OrderedDict()
_CELLS_KEPT = 8
_CELLS_LOCK = threading.Lock()  # the web calculator answers from a pool of threads


def board_cells(board: Board) -> BoardCells:
    """The board's cells (cached for the last few boards, by identity: boards are frozen)."""
    with _CELLS_LOCK:
        found = _CELLS.get(id(board))
        if found is not None and found.board is board:
            _CELLS.move_to_end(id(board))
            return found
    found = BoardCells(board, board_shape(board))
    with _CELLS_LOCK:
        _CELLS[id(board)] = found
        while len(_CELLS) > _CELLS_KEPT:
            _CELLS.popitem(last=False)
    return found


def march(
    rule: SightRule, shape: BoardShape, codes: npt.NDArray[np.uint8], source: Ints, target: Ints
) -> tuple[Bools, Int16s]:
    """Judge lines from their step codes ``(lines, width)`` and source and target cells."""
    ends = line_ends(shape, codes, source, target)
    acc = rule.start(ends)
    active = np.flatnonzero(ends.distance >= 2)  # lines with steps between their ends
    sub, sub_ends = subset_of(acc, active), ends.take(active)
    carry = (sub_ends.source, np.zeros(len(active), dtype=np.bool_))
    first = 1
    while len(active):
        stop = min(first + WINDOW, int(sub_ends.distance.max()))
        columns = codes[active, first - 1 : stop - 1].T.copy()
        # Step n enters the target: not a step between the ends.
        last = sub_ends.distance - first
        ending = np.flatnonzero(last < stop - first)
        columns[last[ending], ending] = PAD
        window, carry = step_window(shape, columns, first, carry)
        fold(rule.folds, sub, rule.steps(sub, window, sub_ends))
        first = stop
        keep = (sub_ends.distance > first) & ~rule.settled(sub)
        if keep.all():
            continue
        done = ~keep
        for name, values in sub.items():
            acc[name][active[done]] = values[done]
        active, sub_ends = active[keep], sub_ends.take(np.flatnonzero(keep))
        sub = subset_of(sub, keep)
        carry = (carry[0][keep], carry[1][keep])
    judged = rule.judge(acc, ends)
    return judged["visible"], judged["modifier"]


def _line_code_row(a: Hex, b: Hex) -> npt.NDArray[np.uint8]:
    """The step codes of the one line from ``a`` to ``b``, as a row ``(1, max(n, 1))``
    (:func:`hex_lines`: ``lines_between`` in numpy, from ``a`` itself)."""
    n = a.distance(b)
    if n == 0:
        return np.full((1, 1), PAD, dtype=np.uint8)
    start = (np.array([a.q], dtype=np.int32), np.array([a.r], dtype=np.int32))
    end = (np.array([b.q], dtype=np.int32), np.array([b.r], dtype=np.int32))
    return step_codes(hex_lines(start, end, n, NUDGE), hex_lines(start, end, n, -NUDGE))


def _covering(board: Board, *ends: Hex) -> Board:
    """``board`` grown (same contents) to hold ``ends``."""
    places = [board.column_row(end) for end in ends]
    first = min(board.first, *(c for c, _ in places), *(r for _, r in places))
    columns = max(board.first + board.columns - 1, *(c for c, _ in places)) - first + 1
    rows = max(board.first + board.rows - 1, *(r for _, r in places)) - first + 1
    return replace(board, columns=columns, rows=rows, first=first)


def _one_line_on(
    board: Board, a: Hex, b: Hex
) -> tuple[BoardCells, npt.NDArray[np.uint8], Ints, Ints]:
    """The prepared board (grown to hold an end off it), the step codes of the line, and its
    source and target cells."""
    if a not in board or b not in board:
        board = _covering(board, a, b)
    cells = board_cells(board)
    shape = cells.shape
    source = np.array([shape.hex_cells[shape.index[a]]], dtype=np.int32)
    target = np.array([shape.hex_cells[shape.index[b]]], dtype=np.int32)
    return cells, _line_code_row(a, b), source, target


def sight_of_line(board: Board, a: Hex, b: Hex, policy: SightPolicy) -> tuple[bool, int]:
    """Whether ``b`` is visible from ``a`` and the dice modifier: the policy's rule marched on
    the one line as on a whole board (windows of steps, settled lines leaving). An end off the
    board is judged on a board grown to hold it, with the same terrain (as ``Board.terrain_of``
    reads hexes off the map)."""
    cells, codes, source, target = _one_line_on(board, a, b)
    visible, modifier = march(cells.rule(policy), cells.shape, codes, source, target)
    return bool(visible[0]), int(modifier[0])


def sight_of_lines(
    board: Board, pairs: Sequence[tuple[Hex, Hex]], policy: SightPolicy
) -> list[tuple[bool, int]]:
    """:func:`sight_of_line` for many pairs in one march (a stack's path seen from every
    firer): each line's step codes traced in numpy, lines of one length together, padded to
    the longest. A pair with an end off the board is judged alone, as :func:`sight_of_line`
    judges it."""
    found: list[tuple[bool, int] | None] = [None] * len(pairs)
    on_board = [k for k, (a, b) in enumerate(pairs) if a in board and b in board]
    for k in sorted(set(range(len(pairs))) - set(on_board)):
        found[k] = sight_of_line(board, *pairs[k], policy)
    if on_board:
        cells = board_cells(board)
        shape = cells.shape
        width = max(1, *(pairs[k][0].distance(pairs[k][1]) for k in on_board))
        codes = np.full((len(on_board), width), PAD, dtype=np.uint8)
        by_length: dict[int, list[int]] = {}
        for row, k in enumerate(on_board):
            by_length.setdefault(pairs[k][0].distance(pairs[k][1]), []).append(row)
        for n, rows in by_length.items():
            if n == 0:
                continue
            ends = [pairs[on_board[row]] for row in rows]
            start = (
                np.array([a.q for a, _ in ends], dtype=np.int32),
                np.array([a.r for a, _ in ends], dtype=np.int32),
            )
            end = (
                np.array([b.q for _, b in ends], dtype=np.int32),
                np.array([b.r for _, b in ends], dtype=np.int32),
            )
            plus, minus = hex_lines(start, end, n, NUDGE), hex_lines(start, end, n, -NUDGE)
            codes[rows, :n] = step_codes(plus, minus)
        source = np.array(
            [shape.hex_cells[shape.index[pairs[k][0]]] for k in on_board], dtype=np.int32
        )
        target = np.array(
            [shape.hex_cells[shape.index[pairs[k][1]]] for k in on_board], dtype=np.int32
        )
        visible, modifier = march(cells.rule(policy), shape, codes, source, target)
        for row, k in enumerate(on_board):
            found[k] = (bool(visible[row]), int(modifier[row]))
    return [f for f in found if f is not None]


def record_line(board: Board, a: Hex, b: Hex, policy: SightPolicy) -> LineRecord:
    """The policy's rule on the one line from ``a`` to ``b``, recorded: every step fed in one
    window, the facts kept before the engine folds them (:func:`fold`, as :func:`march` does),
    then judged (:func:`~firefight.board.line_record.recorded`). What
    :func:`firefight.board.los.line_of_sight` reports and names."""
    cells, codes, source, target = _one_line_on(board, a, b)
    return recorded(cells.shape, cells.rule(policy), (a, b), codes, (source, target))


# --- the LOS tool ---------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Visibility:
    """Who sees whom on a board: ``visible[i, j]`` and ``modifier[i, j]`` for the line from
    ``sources[i]`` to ``hexes[j]`` (the modifier is 0 where not visible). For a whole board
    ``sources`` are ``hexes``."""

    hexes: tuple[Hex, ...]
    visible: Bools
    modifier: Int16s
    sources: tuple[Hex, ...] = ()
    _index: dict[Hex, int] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if not self.sources:
            object.__setattr__(self, "sources", self.hexes)
        object.__setattr__(self, "_index", {h: i for i, h in enumerate(self.sources)})

    def index(self, hex_: Hex) -> int:
        """The row of a source hex (for a whole board, also its column)."""
        found = self._index.get(hex_)
        if found is None:
            raise InputError("hex", "a hex of the board", hex_)
        return found

    def visible_from(self, hex_: Hex) -> dict[Hex, int]:
        """Every hex that ``hex_`` sees, with the dice modifier of the line."""
        row = self.index(hex_)
        return _row_dict(self.hexes, self.visible[row], self.modifier[row])


def _row_dict(hexes: tuple[Hex, ...], visible: Bools, modifier: npt.NDArray[Any]) -> dict[Hex, int]:
    seen = np.flatnonzero(visible)
    return dict(zip([hexes[j] for j in seen.tolist()], modifier[seen].tolist(), strict=True))


class LosTool:
    """A board prepared for vectorized line of sight under one policy.

    Preparing reads the board once (cached by identity) and the policy builds its tables;
    its shape's line templates are cached across boards of the same size. Then
    :meth:`visible_set`, :meth:`rows` and :meth:`matrix` are array work.
    """

    def __init__(self, board: Board, policy: SightPolicy) -> None:
        self.board = board
        self.policy = policy
        self.cells = board_cells(board)
        self.shape = self.cells.shape
        self.rule = self.cells.rule(policy)

    @property
    def hexes(self) -> tuple[Hex, ...]:
        """The board's hexes, in ``Board.hexes()`` order: the rows and columns of the arrays."""
        return self.shape.hexes

    def index(self, hex_: Hex) -> int:
        """The row of a hex of the board."""
        found = self.shape.index.get(hex_)
        if found is None:
            raise InputError("hex", _("a hex of board {name!r}").format(name=self.board.name), hex_)
        return found

    def row(self, hex_: Hex) -> tuple[Bools, Int16s]:
        """Visible and modifier from ``hex_`` to every hex of the board."""
        visible, modifier = self.rows(np.array([self.index(hex_)], dtype=np.int32))
        return visible[0], modifier[0]

    def visible_set(self, hex_: Hex) -> dict[Hex, int]:
        """Every hex that ``hex_`` sees, with the dice modifier of the line."""
        visible, modifier = self.row(hex_)
        return _row_dict(self.shape.hexes, visible, modifier)

    def from_hexes(self, sources: Iterable[Hex]) -> Visibility:
        """Visible and modifier from each of ``sources`` to every hex of the board (rows in
        the order given): the batch form, for threat maps and movement."""
        listed = tuple(sources)
        rows = np.array([self.index(h) for h in listed], dtype=np.int32)
        visible, modifier = self.rows(rows)
        return Visibility(self.shape.hexes, visible, modifier, listed)

    def matrix(self) -> Visibility:
        """The whole board: every pair of hexes (:func:`~firefight.board.matrix.whole_board`:
        the lines of each offset together, mirrored where the rule's symmetry allows)."""
        visible, modifier = whole_board(
            Sweep(self.rule, self.shape, WINDOW, CHUNK_PAIRS), BLOCK_PAIRS
        )
        return Visibility(self.shape.hexes, visible, modifier)

    def rows(self, sources: Ints) -> tuple[Bools, Int16s]:
        """Visible and modifier from each of ``sources`` (hex indices) to every hex."""
        size = len(self.shape.hexes)
        visible = np.zeros((len(sources), size), dtype=np.bool_)
        modifier = np.zeros((len(sources), size), dtype=np.int16)
        per_block = max(1, BLOCK_PAIRS // size)
        for start in range(0, len(sources), per_block):
            block = slice(start, start + per_block)
            seen, mods = self._block(np.asarray(sources[block], dtype=np.int32))
            visible[block] = seen
            modifier[block] = mods
        return visible, modifier

    def _block(self, sources: Ints) -> tuple[Bools, Int16s]:
        shape, size = self.shape, len(self.shape.hexes)
        source = np.repeat(sources, size)
        target = np.tile(np.arange(size, dtype=np.int32), len(sources))
        band, row = shape.locate(source, target)
        # Lines of similar length together (by band), many bands in one march.
        order = np.argsort(band, kind="stable")
        ordered = band[order]
        visible = np.zeros(len(source), dtype=np.bool_)
        modifier = np.zeros(len(source), dtype=np.int16)
        for start in range(0, len(order), CHUNK_PAIRS):
            pairs = order[start : start + CHUNK_PAIRS]
            present = ordered[start : start + CHUNK_PAIRS]
            numbers = np.unique(present).tolist()
            bounds = np.searchsorted(present, [*numbers, numbers[-1] + 1])
            codes = np.full((len(pairs), shape.bands[numbers[-1]].high), PAD, dtype=np.uint8)
            for k, number in enumerate(numbers):
                lines = shape.bands[number]
                part = slice(bounds[k], bounds[k + 1])
                codes[part, : lines.high] = lines.built()[row[pairs[part]]]
            visible[pairs], modifier[pairs] = march(
                self.rule,
                shape,
                codes,
                shape.hex_cells[source[pairs]],
                shape.hex_cells[target[pairs]],
            )
        return visible.reshape(len(sources), size), modifier.reshape(len(sources), size)


def visibility_matrix(board: Board, policy: SightPolicy) -> Visibility:
    """Every pair of hexes of ``board``: visible and dice modifier, as ``line_of_sight``."""
    return LosTool(board, policy).matrix()


def visible_set(board: Board, a: Hex, policy: SightPolicy) -> dict[Hex, int]:
    """Every hex of ``board`` that ``a`` sees, with the dice modifier (one row, vectorized)."""
    return LosTool(board, policy).visible_set(a)


def visible_sets(board: Board, sources: Iterable[Hex], policy: SightPolicy) -> Visibility:
    """What each of ``sources`` sees on ``board`` (the batch form: one row per source)."""
    return LosTool(board, policy).from_hexes(sources)
