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
of distances and cached: a byte a step, not the five 4-byte arrays a step of the first engine,
whose templates grew to 659 MB for a 200 x 200 board.

Marching. Lines are walked together a window of steps at a time; after each window the lines
that have ended, or whose verdict the rule says is settled (blocked whatever follows), leave
the batch. On a board with woods, villages and hills most long lines are blocked within a few
dozen hexes, so a visible set costs about the steps actually seen, not the cube of the side.
"""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal, Protocol

import numpy as np
import numpy.typing as npt

from firefight.board.board import Board
from firefight.board.hexes import _EPSILON, DIRECTIONS, Hex, Offset, from_offset
from firefight.board.sight import Across, Along, Step, Through
from firefight.errors import InputError

Ints = npt.NDArray[np.signedinteger[Any]]
"""An array of integers (per line, or per step and line)."""
Bools = npt.NDArray[np.bool_]
"""An array of flags (per line, or per step and line)."""
Floats = npt.NDArray[np.float64]
Int16s = npt.NDArray[np.int16]
Accumulators = dict[str, npt.NDArray[Any]]
"""Per accumulator name, a per-line array: what the facts of a line's steps fold into."""
Facts = dict[str, npt.NDArray[Any]]
"""Per fact, its value at each step of a window: arrays ``(steps, lines)``."""
Judgement = dict[str, npt.NDArray[Any]]
"""Per name, a per-line array: ``visible``, ``modifier`` and the rule's decisions."""

NUDGE = _EPSILON
"""The ε of :func:`firefight.board.hexes.lines_between`."""

MARGIN = 2
"""Cells of padding around the board's hexes: a line between two of them stays within one."""

WINDOW = 8
"""Steps of every line fed to a rule at once; then ended and settled lines leave the batch."""

CHUNK_PAIRS = 1 << 15
"""Lines walked together (window arrays stay within the caches)."""

BLOCK_PAIRS = 1 << 18
"""Pairs enumerated at once by :meth:`LosTool.rows` (source rows per block = this / hexes)."""

_STEPS = tuple(DIRECTIONS.values())
_DIRECTION_CODE = {step: code for code, step in enumerate(_STEPS)}
PAD = 255
"""The step code of padding after a line's last step."""
FAR = 1 << 20
"""Beyond every cell id of a board (a cell-id step for padding; an offset that turns a
hexside or corner id into "none" once clipped)."""
_ALONG_BIT = 64


# --- the hex line, in numpy -----------------------------------------------------------------


def cube_round_arrays(q: Floats, r: Floats, s: Floats) -> tuple[Ints, Ints]:
    """:func:`firefight.board.hexes.cube_round`, elementwise, tie-breaking included.

    ``round`` and ``np.rint`` both round halves to even; the comparisons are the same.
    """
    rq, rr, rs = np.rint(q), np.rint(r), np.rint(s)
    dq, dr, ds = np.abs(rq - q), np.abs(rr - r), np.abs(rs - s)
    fix_q = (dq > dr) & (dq > ds)
    fix_r = ~fix_q & (dr > ds)
    out_q = np.where(fix_q, -rr - rs, rq)
    out_r = np.where(fix_r, -rq - rs, rr)
    return out_q.astype(np.int32), out_r.astype(np.int32)


def hex_lines(
    a: tuple[Ints, Ints], b: tuple[Ints, Ints], n: int, nudge: float
) -> tuple[Ints, Ints]:
    """``Hex.line_to`` for many pairs at the same distance ``n``: arrays ``(pairs, n + 1)``.

    Float for float the operations of ``line_to``: each end nudged by ``(ε, 2ε, −3ε)``, then
    ``aq + (bq - aq) * i / n`` and :func:`cube_round_arrays`.
    """
    (a_q, a_r), (b_q, b_r) = a, b
    count = len(a_q)
    if n == 0:
        return a_q.reshape(count, 1).copy(), a_r.reshape(count, 1).copy()
    a_s, b_s = -a_q - a_r, -b_q - b_r
    aq, ar, as_ = a_q + nudge, a_r + 2 * nudge, a_s - 3 * nudge
    bq, br, bs = b_q + nudge, b_r + 2 * nudge, b_s - 3 * nudge
    i = np.arange(n + 1, dtype=np.float64)
    q = aq[:, None] + (bq - aq)[:, None] * i / n
    r = ar[:, None] + (br - ar)[:, None] * i / n
    s = as_[:, None] + (bs - as_)[:, None] * i / n
    return cube_round_arrays(q, r, s)


def trace_lines(a: Hex, targets: Sequence[Hex]) -> list[tuple[list[Hex], list[Hex]]]:
    """:func:`firefight.board.hexes.lines_between` from ``a`` to each target, with numpy."""
    q = np.array([t.q for t in targets], dtype=np.int32)
    r = np.array([t.r for t in targets], dtype=np.int32)
    n = _distance(q - a.q, r - a.r)
    found: list[tuple[list[Hex], list[Hex]]] = [([], []) for _ in targets]
    for distance in np.unique(n).tolist():
        which = np.flatnonzero(n == distance)
        a_q = np.full(len(which), a.q, dtype=np.int32)
        a_r = np.full(len(which), a.r, dtype=np.int32)
        plus = hex_lines((a_q, a_r), (q[which], r[which]), distance, NUDGE)
        minus = hex_lines((a_q, a_r), (q[which], r[which]), distance, -NUDGE)
        for k, index in enumerate(which.tolist()):
            found[index] = (_hexes(plus, k), _hexes(minus, k))
    return found


def _hexes(line: tuple[Ints, Ints], k: int) -> list[Hex]:
    return [Hex(q, r) for q, r in zip(line[0][k].tolist(), line[1][k].tolist(), strict=True)]


def _distance(dq: Ints, dr: Ints) -> Ints:
    found: Ints = np.maximum(np.maximum(np.abs(dq), np.abs(dr)), np.abs(dq + dr))
    return found


def _direction_codes(dq: Ints, dr: Ints) -> Ints:
    """0-5 for the steps of directions 1-6; -1 where the two hexes are not adjacent."""
    table = np.full((3, 3), -1, dtype=np.int32)
    for (q, r), code in _DIRECTION_CODE.items():
        table[q + 1, r + 1] = code
    inside = (np.abs(dq) <= 1) & (np.abs(dr) <= 1)
    return np.where(inside, table[np.clip(dq, -1, 1) + 1, np.clip(dr, -1, 1) + 1], -1)


# --- a line as one byte a step --------------------------------------------------------------


def step_codes(plus: tuple[Ints, Ints], minus: tuple[Ints, Ints]) -> npt.NDArray[np.uint8]:
    """The steps ``1 .. n`` of lines traced both ways (arrays ``(lines, n + 1)``), one byte
    each: the direction code of the ``plus`` trace's step, that of the ``minus`` trace's step
    times 8, and 64 where the step runs along a hexside (the traces differ there)."""
    pq, pr = plus
    mq, mr = minus
    d_plus = _direction_codes(np.diff(pq, axis=1), np.diff(pr, axis=1))
    d_minus = _direction_codes(np.diff(mq, axis=1), np.diff(mr, axis=1))
    along = (pq[:, 1:] != mq[:, 1:]) | (pr[:, 1:] != mr[:, 1:])
    if not ((d_plus >= 0).all() and (d_minus >= 0).all()):
        msg = "a traced line is not contiguous"
        raise AssertionError(msg)
    if along.shape[1] and (along[:, -1].any() or (along[:, :-1] & along[:, 1:]).any()):
        msg = "a line ends along a hexside, or runs along two in a row"
        raise AssertionError(msg)
    found: npt.NDArray[np.uint8] = (d_plus + 8 * d_minus + _ALONG_BIT * along).astype(np.uint8)
    return found


def _code_tables() -> dict[str, Ints]:
    """Per step code (0-255): what a step of that code is, as small integers.

    ``plus``: the plus trace's direction; ``along``: 1 where the step runs along a hexside;
    ``side``: there, the direction from the ``left`` hex (plus trace) to the ``right`` one
    (minus trace), both reached from the same hex; ``before``: there, the corner ``k`` of the
    hex passed before the run (between its hexsides ``k`` and ``k + 1``) that the line meets;
    ``after``: for a step that ends a run along, the corner of the hex it enters."""
    plus = np.zeros(256, dtype=np.int32)
    along = np.zeros(256, dtype=np.int32)
    side = np.zeros(256, dtype=np.int32)
    before = np.zeros(256, dtype=np.int32)
    after = np.zeros(256, dtype=np.int32)

    def corner(to_left: int, to_right: int) -> int:
        return to_left if (to_left + 1) % 6 == to_right else to_right

    for code in range(128):
        p, m, runs = code & 7, (code >> 3) & 7, code >> 6
        if p > 5 or m > 5:
            continue
        plus[code], along[code] = p, runs
        gap = (_STEPS[m][0] - _STEPS[p][0], _STEPS[m][1] - _STEPS[p][1])
        if gap in _DIRECTION_CODE:  # the two traces' steps end in adjacent hexes
            side[code] = _DIRECTION_CODE[gap]
            before[code] = corner(p, m)
            after[code] = corner((p + 3) % 6, (m + 3) % 6)
    return {"plus": plus, "along": along, "side": side, "before": before, "after": after}


CODES = _code_tables()


# --- the board's shape: hexes, cell grid and line templates ---------------------------------


@dataclass(eq=False)
class _Band:
    """The lines to the offsets of one band of distances: offsets, and once built, the step
    codes ``(lines, high)`` of steps ``1 .. n`` (``PAD`` after)."""

    high: int
    off_q: Ints
    off_r: Ints
    distance: Ints
    codes: npt.NDArray[np.uint8] | None = None

    def built(self) -> npt.NDArray[np.uint8]:
        """The step codes, traced on first use."""
        if self.codes is None:
            codes = np.full((len(self.off_q), max(self.high, 1)), PAD, dtype=np.uint8)
            for n in np.unique(self.distance).tolist():
                if n == 0:
                    continue
                which = np.flatnonzero(self.distance == n)
                for start in range(0, len(which), max(1, (1 << 18) // n)):
                    part = which[start : start + max(1, (1 << 18) // n)]
                    zero = np.zeros(len(part), dtype=np.int32)
                    ends = (self.off_q[part], self.off_r[part])
                    plus = hex_lines((zero, zero), ends, n, NUDGE)
                    minus = hex_lines((zero, zero), ends, n, -NUDGE)
                    codes[part, :n] = step_codes(plus, minus)
            self.codes = codes
        return self.codes


@dataclass(frozen=True, eq=False)
class BoardShape:
    """What a board's size, first number and offset convention fix: its hexes, in
    ``Board.hexes()`` order, a grid of cells around them with linear ids (``q * height + r``
    from the grid's corner), and the line templates to every offset between two of its hexes
    (built per band of distances on first use)."""

    hexes: tuple[Hex, ...]
    index: dict[Hex, int]
    q: Ints
    r: Ints
    q0: int
    r0: int
    height: int
    cells: int
    hex_cells: Ints
    bands: tuple[_Band, ...]
    offset_q0: int
    offset_r0: int
    band_of: Ints
    row_of: Ints
    cell_step: Ints = field(init=False)
    """Per step code, the cell-id difference of the plus trace's step; ``FAR`` for padding,
    which sends the rest of a line past every cell (read as the neutral cell)."""
    right_step: Ints = field(init=False)
    """Per step code, the cell-id difference from the ``left`` to the ``right`` hex."""
    along_side: Ints = field(init=False)
    """Per step code, the direction of the hexside run along; ``FAR`` if none."""
    across_side: Ints = field(init=False)
    """Per step code, the direction of the hexside crossed after a hex passed through
    (the plus trace's step); ``FAR`` where the step runs along or is padding."""
    before_corner: Ints = field(init=False)
    """Per step code, the corner met before a run along; ``FAR`` if not a run."""

    def __post_init__(self) -> None:
        deltas = np.array([dq * self.height + dr for dq, dr in _STEPS], dtype=np.int32)
        along = CODES["along"] == 1
        far = np.int32(FAR)
        cell_step = deltas[CODES["plus"]]
        cell_step[PAD] = far
        across_side = np.where(along, far, CODES["plus"]).astype(np.int32)
        across_side[PAD] = far
        tables = {
            "cell_step": cell_step,
            "right_step": deltas[CODES["side"]] * along,
            "along_side": np.where(along, CODES["side"], far).astype(np.int32),
            "across_side": across_side,
            "before_corner": np.where(along, CODES["before"], far).astype(np.int32),
        }
        for name, table in tables.items():
            object.__setattr__(self, name, table)

    def cell_ids(self, q: Ints, r: Ints) -> Ints:
        """The cell ids of axial coordinates; -1 outside the grid."""
        qq, rr = q - self.q0, r - self.r0
        inside = (qq >= 0) & (qq < self.cells // self.height) & (rr >= 0) & (rr < self.height)
        return np.where(inside, qq * self.height + rr, -1).astype(np.int32)

    def hex_at(self, cell: int) -> Hex:
        """The hex of a cell id."""
        return Hex(cell // self.height + self.q0, cell % self.height + self.r0)

    def locate(self, source: Ints, target: Ints) -> tuple[Ints, Ints]:
        """(band, row) of the line template from each source hex index to each target's."""
        oq = self.q[target] - self.q[source] - self.offset_q0
        orr = self.r[target] - self.r[source] - self.offset_r0
        return self.band_of[oq, orr], self.row_of[oq, orr]

    def template_bytes(self) -> int:
        """Memory held by the templates built so far."""
        return sum(band.codes.nbytes for band in self.bands if band.codes is not None)


def board_shape(board: Board) -> BoardShape:
    """The (cached) shape of ``board``: boards of the same size share it."""
    return _shape(board.columns, board.rows, board.offset, board.first)


def clear_shape_cache() -> None:
    """Forget the cached board shapes, their line templates and prepared boards."""
    _shape.cache_clear()
    with _CELLS_LOCK:
        _CELLS.clear()


def _band_edges(longest: int) -> list[tuple[int, int]]:
    edges, low = [], 0
    while low <= longest:
        high = low + max(6, low // 4)  # rows padded by at most about a fifth
        edges.append((low, high))
        low = high + 1
    return edges


@functools.lru_cache(maxsize=4)
def _shape(columns: int, rows: int, offset: Offset, first: int) -> BoardShape:
    hexes = tuple(
        from_offset(column, row, offset)
        for column in range(first, first + columns)
        for row in range(first, first + rows)
    )
    q = np.array([h.q for h in hexes], dtype=np.int32)
    r = np.array([h.r for h in hexes], dtype=np.int32)
    q0, r0 = int(q.min()) - MARGIN, int(r.min()) - MARGIN
    height = int(r.max()) - r0 + 1 + MARGIN
    cells = (int(q.max()) - q0 + 1 + MARGIN) * height
    hex_cells = (q - q0) * height + (r - r0)

    # Every offset between two hexes of the board, marked on a grid of offsets: between two
    # columns, q differs by a constant and r by a run of 2 * rows - 1 values.
    span_q, span_r = int(q.max() - q.min()), int(r.max() - r.min())
    seen = np.zeros((2 * span_q + 1, 2 * span_r + 1), dtype=np.bool_)
    column_q, top_r = q[::rows], r[::rows]
    pairs = np.unique(
        np.stack(
            [
                (column_q[None, :] - column_q[:, None]).ravel(),
                (top_r[None, :] - top_r[:, None]).ravel(),
            ]
        ),
        axis=1,
    )
    for dq, shift in pairs.T.tolist():
        low = shift - (rows - 1) + span_r
        seen[dq + span_q, low : low + 2 * rows - 1] = True
    off_q, off_r = np.nonzero(seen)
    off_q = (off_q - span_q).astype(np.int32)
    off_r = (off_r - span_r).astype(np.int32)
    distance = _distance(off_q, off_r)

    band_of = np.full(seen.shape, -1, dtype=np.int16)
    row_of = np.full(seen.shape, -1, dtype=np.int32)
    bands: list[_Band] = []
    for low, high in _band_edges(int(distance.max())):
        members = np.flatnonzero((distance >= low) & (distance <= high))
        if not len(members):
            continue
        band_of[off_q[members] + span_q, off_r[members] + span_r] = len(bands)
        row_of[off_q[members] + span_q, off_r[members] + span_r] = np.arange(len(members))
        bands.append(_Band(high, off_q[members], off_r[members], distance[members]))
    return BoardShape(
        hexes=hexes,
        index={h: i for i, h in enumerate(hexes)},
        q=q,
        r=r,
        q0=q0,
        r0=r0,
        height=height,
        cells=cells,
        hex_cells=hex_cells.astype(np.int32),
        bands=tuple(bands),
        offset_q0=-span_q,
        offset_r0=-span_r,
        band_of=band_of,
        row_of=row_of,
    )


# --- the board's contents on the grid -------------------------------------------------------


class BoardCells:
    """A board's terrain, levels and hexside features on the cells of its shape's grid, and
    the tables a :class:`SightRule` builds from them.

    Cells outside the board (a line can graze a ragged edge) read as ``Board.terrain_of`` and
    ``Board.elevation_of`` read them. Hexsides are looked up as ``Board.hexside_of`` does:
    hexside ``6 * cell + k`` is the one in direction code ``k`` (0-5: directions 1-6). Every
    table a rule indexes with :class:`StepWindow` ids ends with one neutral entry (cell
    ``cells``, hexside and corner ``6 * cells``), which padding and "none" point at.
    """

    def __init__(self, board: Board, shape: BoardShape) -> None:
        self.board = board
        self.shape = shape
        size = shape.cells
        vocabulary = {board.default_terrain: 0}
        for name in set(board.terrain.values()):
            vocabulary.setdefault(name, len(vocabulary))
        self.terrain_names = tuple(vocabulary)
        self.terrain = np.zeros(size, dtype=np.int32)
        self._put(
            self.terrain, board.terrain.keys(), map(vocabulary.__getitem__, board.terrain.values())
        )
        self.elevation = np.zeros(size, dtype=np.int32)
        self._put(self.elevation, board.elevation.keys(), board.elevation.values())
        features = {"": 0}
        for name in set(board.hexsides.values()):
            features.setdefault(name, len(features))
        self.feature_names = tuple(features)
        self.hexsides = np.zeros(6 * size, dtype=np.int32)
        if board.hexsides:
            a_cell = self._cells(a for a, _ in board.hexsides)
            b_cell = self._cells(b for _, b in board.hexsides)
            code = np.fromiter(
                map(features.__getitem__, board.hexsides.values()), np.int32, len(a_cell)
            )
            a_q, a_r = np.divmod(a_cell, shape.height)
            b_q, b_r = np.divmod(b_cell, shape.height)
            forth = _direction_codes(b_q - a_q, b_r - a_r)
            back = _direction_codes(a_q - b_q, a_r - b_r)
            # Only what Board.hexside_of finds: adjacent hexes, in hexside() order.
            found = (a_cell >= 0) & (b_cell >= 0) & (forth >= 0) & (a_cell <= b_cell)
            self.hexsides[a_cell[found] * 6 + forth[found]] = code[found]
            self.hexsides[b_cell[found] * 6 + back[found]] = code[found]
        self._rules: dict[object, SightRule] = {}

    def rule(self, policy: SightPolicy) -> SightRule:
        """``policy``'s rule on this board (built once per policy: its tables)."""
        found = self._rules.get(policy)
        if found is None:
            found = self._rules[policy] = policy.sight_rule(self)
        return found

    def _cells(self, hexes: Iterable[Hex]) -> Ints:
        listed = list(hexes)
        q = np.array([h.q for h in listed], dtype=np.int32)
        r = np.array([h.r for h in listed], dtype=np.int32)
        return self.shape.cell_ids(q, r)

    def _put(self, table: Ints, hexes: Iterable[Hex], values: Iterable[int]) -> None:
        cell = self._cells(hexes)
        if len(cell):
            inside = cell >= 0
            table[cell[inside]] = np.fromiter(values, dtype=np.int32, count=len(cell))[inside]

    def terrain_in(self, names: Iterable[str]) -> Bools:
        """Per cell: whether its terrain is one of ``names``."""
        wanted = set(names)
        member = np.array([name in wanted for name in self.terrain_names], dtype=np.bool_)
        return member[self.terrain]

    def features_in(self, names: Iterable[str]) -> Bools:
        """Per hexside id: whether its feature is one of ``names``."""
        wanted = set(names)
        member = np.array([name in wanted for name in self.feature_names], dtype=np.bool_)
        return member[self.hexsides]

    def feature_codes(self, codes: dict[str, int]) -> npt.NDArray[np.int8]:
        """Per hexside id, the code of its feature (0 for none and for features not listed)."""
        table = np.array([codes.get(name, 0) for name in self.feature_names], dtype=np.int8)
        return table[self.hexsides]

    def cell_table(self, values: npt.NDArray[Any], padding: int | bool) -> npt.NDArray[Any]:
        """A per-cell table to index with :class:`StepWindow` cell ids (the neutral cell
        reads ``padding``)."""
        return np.append(values, np.array([padding], dtype=values.dtype))

    def side_table(self, values: npt.NDArray[Any], padding: int | bool) -> npt.NDArray[Any]:
        """A per-hexside table to index with :class:`StepWindow` hexside ids."""
        return np.append(values, np.array([padding], dtype=values.dtype))

    def corner_table(self, sides: npt.NDArray[Any]) -> npt.NDArray[Any]:
        """From a per-hexside table (:meth:`side_table`), a per-corner one to index with
        :class:`StepWindow` corner ids: corner ``6 * cell + k`` of a cell lies between its
        hexsides ``6 * cell + k`` and ``6 * cell + (k + 1) % 6`` and reads their values
        and-ed (bitwise): what both hexsides that fan out from it have."""
        per_cell = sides[:-1].reshape(-1, 6)
        found = (per_cell & np.roll(per_cell, -1, axis=1)).ravel()
        return np.append(found, sides[-1:])

    def sight_table(self, blocking: Bools, flags: Ints) -> npt.NDArray[Any]:
        """Per cell ``height * 256 + flags`` (``flags`` from 0 to 255): the height is the
        cell's level, or above every level where ``blocking``; the neutral cell is below every
        level with no flags. The largest value over a line's cells holds its highest height
        (``>> 8``); each cell's flags are ``& 255``. Two bytes a cell when the levels allow."""
        small = int(self.elevation.min()) >= -100 and int(self.elevation.max()) <= 100
        top, bottom = (127, -128) if small else (1 << 40, -(1 << 40))
        height = np.where(blocking, top, self.elevation).astype(np.int64)
        code = (height << 8) | flags
        return self.cell_table(code.astype(np.int16 if small else np.int64), bottom << 8)


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


# --- lines as arrays, and the rule sets' rules ----------------------------------------------


@dataclass(frozen=True, eq=False)
class LineEnds:
    """Per line (arrays of shape ``(lines,)``): the ``source`` and ``target`` cells and their
    ``distance``; ``first_across``, the hexside crossed leaving the source's hex (between
    adjacent hexes, also the one entering the target's); ``last_across``, the hexside crossed
    entering the target's hex when that is another one; ``last_corner``, the corner where a
    last step run along meets the target's hex (the firer's own corner is never needed: its
    hexsides are exempt everywhere). "None" is the neutral id ``6 * cells``."""

    source: Ints
    target: Ints
    distance: Ints
    first_across: Ints
    last_across: Ints
    last_corner: Ints

    def take(self, keep: Ints) -> LineEnds:
        """The ends of the lines ``keep``."""
        return LineEnds(*(getattr(self, name)[keep] for name in _ENDS))


_ENDS = ("source", "target", "distance", "first_across", "last_across", "last_corner")


@dataclass(frozen=True, eq=False)
class StepWindow:
    """A window of steps strictly between the ends of many lines (arrays of shape ``(steps,
    lines)``; step ``first + k`` is row ``k``), padded where a line has no such step.

    ``left`` and ``right``: the cells on each side of the step (the same cell for a hex
    passed through, the two sides of a hexside run along); ``along``: the hexside run along;
    ``across``: the hexside crossed from the previous step's hex into this one when neither
    is an end; ``corner``: a corner where a hexside run along meets a hex passed through (the
    run's step holds the corner before it, the next step the corner after; see
    :func:`firefight.board.los.vertex_hexsides`), none where that hex is an end. Hexside ids
    are ``6 * cell + direction``, corner ids ``6 * cell + k`` (:meth:`BoardCells.corner_table`).
    Padding and "none" are the neutral ids of :class:`BoardCells`' tables.
    """

    first: int
    left: Ints
    right: Ints
    across: Ints
    along: Ints
    corner: Ints


Fold = Literal["max", "sum", "any"]
"""How a fact is reduced along the line into its accumulator: the largest value, the sum, or
whether any step is true (non-zero)."""


class SightRule(Protocol):
    """A rule set's line-of-sight rule as a reduction along the line, over arrays of lines.

    The rule says what each step of a line contributes (``steps``: named *facts*, arrays
    ``(steps, lines)``: the sight of the cells on each side, a hindrance, a blocking hexside
    crossed...) and how each fact folds into an accumulator (``folds``: fact name to
    accumulator name and :data:`Fold`); the engine folds them. ``judge`` turns the folded
    accumulators into the verdict (``visible`` and ``modifier``) and the intermediate
    decisions it rests on (which side of a hexside line counts, what a 9.4 hexside line
    adds...), each a per-line array under a name of the rule's choice.

    The engine calls ``start`` once for a batch of lines, ``steps`` with their steps window by
    window (in order, every step exactly once) and folds the facts, ``settled`` between
    windows, and ``judge``. Accumulators are a dict of per-line arrays that the engine may
    subset between windows (lines leave the batch when ended or settled). On one line,
    :func:`record_line` keeps the facts of every step and the whole judgement: the record a
    rule set names its reasons from (:meth:`firefight.board.los.LosPolicy.explain`).
    """

    @property
    def folds(self) -> Mapping[str, tuple[str, Fold]]:
        """Per fact that ``steps`` returns: the accumulator it folds into, and how."""
        ...

    def start(self, ends: LineEnds) -> Accumulators:
        """Fresh accumulators for the lines."""
        ...

    def steps(self, acc: Accumulators, window: StepWindow, ends: LineEnds) -> Facts:
        """What each step of a window contributes: facts, arrays ``(steps, lines)``."""
        ...

    def settled(self, acc: Accumulators) -> Bools:
        """The lines already blocked, whatever steps follow."""
        ...

    def judge(self, acc: Accumulators, ends: LineEnds) -> Judgement:
        """Per line: ``visible`` (whether the target is seen), ``modifier`` (the dice
        modifier, 0 when not visible), and the rule's intermediate decisions."""
        ...


class SightPolicy(Protocol):
    """What the engine needs of a line-of-sight policy."""

    def sight_rule(self, cells: BoardCells) -> SightRule:
        """The policy's rule, reading its tables from the board's cells."""
        ...


def line_max(values: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """Per line, the largest value over a window's steps (the type's minimum for none)."""
    found: npt.NDArray[Any] = values.max(axis=0, initial=np.iinfo(values.dtype).min)
    return found


def line_sum(values: npt.NDArray[Any]) -> npt.NDArray[np.int32]:
    """Per line, the sum over a window's steps."""
    found: npt.NDArray[np.int32] = values.sum(axis=0, dtype=np.int32)
    return found


def line_any(values: npt.NDArray[Any]) -> Bools:
    """Per line, whether any step of a window is true (non-zero)."""
    return np.asarray(values.any(axis=0), dtype=np.bool_)


def fold(folds: Mapping[str, tuple[str, Fold]], acc: Accumulators, facts: Facts) -> None:
    """Fold a window's facts into the accumulators (in place), as the rule's ``folds`` say."""
    for name, values in facts.items():
        into, how = folds[name]
        if how == "max":
            np.maximum(acc[into], line_max(values), out=acc[into])
        elif how == "sum":
            acc[into] += line_sum(values)
        else:
            acc[into] |= line_any(values)


# --- the march ------------------------------------------------------------------------------


def _ends(shape: BoardShape, codes: npt.NDArray[np.uint8], source: Ints, target: Ints) -> LineEnds:
    """The ends of lines from their step codes (``(lines, width)``) and cells."""
    count = len(source)
    none = np.int32(6 * shape.cells)
    distance = (codes != PAD).sum(axis=1).astype(np.int32)
    picks = np.arange(count)
    first = codes[:, 0]
    last = codes[picks, np.maximum(distance - 1, 0)]
    before_last = codes[picks, np.maximum(distance - 2, 0)]
    ok = distance >= 1
    first_across = np.where(
        ok & (CODES["along"][first] == 0), source * 6 + CODES["plus"][first], none
    )
    two = distance >= 2
    entering = target - shape.cell_step[last]
    last_along = CODES["along"][before_last] == 1
    last_across = np.where(two & ~last_along, entering * 6 + CODES["plus"][last], none)
    last_corner = np.where(two & last_along, target * 6 + CODES["after"][last], none)
    return LineEnds(
        source.astype(np.int32),
        target.astype(np.int32),
        distance,
        first_across.astype(np.int32),
        last_across.astype(np.int32),
        last_corner.astype(np.int32),
    )


def _window(
    shape: BoardShape,
    codes: npt.NDArray[np.uint8],
    first: int,
    carry: tuple[Ints, Bools],
) -> tuple[StepWindow, tuple[Ints, Bools]]:
    """Steps ``first ..`` of lines from their codes ``(steps, lines)``, ``PAD`` from each
    line's last step strictly between its ends: the window, and the carry (cell, and whether
    it ran along, of the last step) for the next one. Padding walks past every cell (``FAR``),
    and every id is clipped to the neutral one, so padding and "none" need no masks."""
    cells = np.int32(shape.cells)
    none = np.int32(6 * shape.cells)
    previous_cell, previous_along = carry
    if not codes.shape[0]:
        empty = np.empty((0, codes.shape[1]), dtype=np.int32)
        return StepWindow(first, empty, empty, empty, empty, empty), carry
    here = np.cumsum(shape.cell_step.take(codes), axis=0, dtype=np.int32)
    here += previous_cell
    along = CODES["along"].take(codes).astype(np.bool_)
    before_cell = np.concatenate([previous_cell[None, :], here[:-1]])
    before_along = np.concatenate([previous_along[None, :], along[:-1]])
    left = np.minimum(here, cells)
    right = shape.right_step.take(codes)
    right += here
    np.minimum(right, cells, out=right)
    at_six = here * 6
    along_id = shape.along_side.take(codes)
    along_id += at_six
    np.minimum(along_id, none, out=along_id)
    before_cell *= 6
    across = shape.across_side.take(codes)
    across += before_cell
    across[before_along] = none
    np.minimum(across, none, out=across)
    # A run along: the corner before it; a step that ends one: the corner it enters.
    corner = shape.before_corner.take(codes)
    corner += before_cell
    np.minimum(corner, none, out=corner)
    if before_along.any():
        after = CODES["after"].take(codes)
        after += at_six
        np.minimum(after, none, out=after)
        np.copyto(corner, after, where=before_along)
    if first == 1:  # leaving the firer's hex: its own hexsides and corners are not steps
        across[0] = none
        corner[0] = none
    window = StepWindow(first, left, right, across, along_id, corner)
    return window, (here[-1], along[-1])


def _subset(acc: Accumulators, keep: Ints | Bools) -> Accumulators:
    return {name: values[keep] for name, values in acc.items()}


def march(
    rule: SightRule, shape: BoardShape, codes: npt.NDArray[np.uint8], source: Ints, target: Ints
) -> tuple[Bools, Int16s]:
    """Judge lines from their step codes ``(lines, width)`` and source and target cells."""
    ends = _ends(shape, codes, source, target)
    acc = rule.start(ends)
    active = np.flatnonzero(ends.distance >= 2)  # lines with steps between their ends
    sub, sub_ends = _subset(acc, active), ends.take(active)
    carry = (sub_ends.source, np.zeros(len(active), dtype=np.bool_))
    first = 1
    while len(active):
        stop = min(first + WINDOW, int(sub_ends.distance.max()))
        columns = codes[active, first - 1 : stop - 1].T.copy()
        # Step n enters the target: not a step between the ends.
        last = sub_ends.distance - first
        ending = np.flatnonzero(last < stop - first)
        columns[last[ending], ending] = PAD
        window, carry = _window(shape, columns, first, carry)
        fold(rule.folds, sub, rule.steps(sub, window, sub_ends))
        first = stop
        keep = (sub_ends.distance > first) & ~rule.settled(sub)
        if keep.all():
            continue
        done = ~keep
        for name, values in sub.items():
            acc[name][active[done]] = values[done]
        active, sub_ends = active[keep], sub_ends.take(np.flatnonzero(keep))
        sub = _subset(sub, keep)
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


Corner = tuple[Hex, Hex, Hex]
"""A corner the line meets: the hex passed through (or an end) and the two hexes of the
hexside run along, ``left`` then ``right``; its two hexsides ``(full, left)`` and ``(full,
right)`` fan out on either side of the line."""


@dataclass(frozen=True, slots=True)
class StepRecord:
    """Step ``number`` of a line (strictly between its ends) as the rule was fed it: the hexes
    on its ``left`` and ``right`` (one hex passed through, or the two sides of a hexside run
    along), the hexside crossed into it (``before``, ``after``: none leaving the firer's hex or
    after a run along), and the corner met there (before a run along, or after one)."""

    number: int
    left: Hex
    right: Hex
    across: tuple[Hex, Hex] | None
    corner: Corner | None

    @property
    def along(self) -> bool:
        """Whether the step runs along a hexside (two hexes, one on each side)."""
        return self.left != self.right


@dataclass(frozen=True, eq=False)
class LineRecord:
    """A rule evaluated on one line in recording mode (:func:`record_line`): the steps it was
    fed, the facts it found at each (``facts[name][i]`` for ``steps[i]``), and its judgement
    (``judged[name]``: ``visible``, ``modifier`` and the decisions they rest on). The verdict
    is the rule's, folded from these very facts; the reasons a rule set names read them."""

    source: Hex
    target: Hex
    distance: int
    steps: tuple[StepRecord, ...]
    last_across: tuple[Hex, Hex] | None
    """The hexside crossed into the target's hex (none next to the firer or after a run)."""
    last_corner: Corner | None
    """The corner where a last step run along meets the target's hex."""
    facts: Mapping[str, tuple[int, ...]]
    judged: Mapping[str, int]
    rule: SightRule

    @property
    def visible(self) -> bool:
        """The rule's verdict: whether the target is seen."""
        return bool(self.judged["visible"])

    @property
    def modifier(self) -> int:
        """The rule's dice modifier (0 when not visible)."""
        return int(self.judged["modifier"])


def record_line(board: Board, a: Hex, b: Hex, policy: SightPolicy) -> LineRecord:
    """The policy's rule on the one line from ``a`` to ``b``, recorded: every step fed in one
    window, the facts kept before the engine folds them (:func:`fold`, as :func:`march` does),
    then judged. What :func:`firefight.board.los.line_of_sight` reports and names."""
    cells, codes, source, target = _one_line_on(board, a, b)
    shape, rule = cells.shape, cells.rule(policy)
    ends = _ends(shape, codes, source, target)
    acc = rule.start(ends)
    count = max(int(ends.distance[0]) - 1, 0)
    window, _ = _window(
        shape, codes[:, :count].T.copy(), 1, (ends.source, np.zeros(1, dtype=np.bool_))
    )
    facts = rule.steps(acc, window, ends)
    fold(rule.folds, acc, facts)
    judged = rule.judge(acc, ends)
    none = 6 * shape.cells

    def side(hexside_id: int) -> tuple[Hex, Hex] | None:
        if hexside_id >= none:
            return None
        before = shape.hex_at(hexside_id // 6)
        dq, dr = _STEPS[hexside_id % 6]
        return before, Hex(before.q + dq, before.r + dr)

    lefts = [shape.hex_at(cell) for cell in window.left[:, 0].tolist()]
    rights = [shape.hex_at(cell) for cell in window.right[:, 0].tolist()]

    def corner(corner_id: int, row: int) -> Corner | None:
        # the corner of a run along (row) or of the step after one (row - 1, or the last)
        if corner_id >= none:
            return None
        run = row if row < count and lefts[row] != rights[row] else row - 1
        return shape.hex_at(corner_id // 6), lefts[run], rights[run]

    corners = window.corner[:, 0].tolist()
    steps = tuple(
        StepRecord(i + 1, lefts[i], rights[i], side(across), corner(corners[i], i))
        for i, across in enumerate(window.across[:, 0].tolist())
    )
    return LineRecord(
        source=a,
        target=b,
        distance=int(ends.distance[0]),
        steps=steps,
        last_across=side(int(ends.last_across[0])),
        last_corner=corner(int(ends.last_corner[0]), count),
        facts={name: tuple(values[:, 0].tolist()) for name, values in facts.items()},
        judged={name: values[0].item() for name, values in judged.items()},
        rule=rule,
    )


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
            raise InputError("hex", f"a hex of board {self.board.name!r}", hex_)
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
        """The whole board: every pair of hexes."""
        visible, modifier = self.rows(np.arange(len(self.shape.hexes), dtype=np.int32))
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


# --- the engine's steps read back (checks) ------------------------------------------------


def _one_line(board: Board, a: Hex, b: Hex) -> tuple[BoardShape, LineEnds, StepWindow]:
    shape = board_shape(board)
    source = np.array([shape.index[a]], dtype=np.int32)
    target = np.array([shape.index[b]], dtype=np.int32)
    band, row = shape.locate(source, target)
    codes = shape.bands[int(band[0])].built()[row]
    src, tgt = shape.hex_cells[source], shape.hex_cells[target]
    ends = _ends(shape, codes, src, tgt)
    width = max(int(ends.distance[0]) - 1, 0)
    window, _ = _window(shape, codes[:, :width].T.copy(), 1, (src, np.zeros(1, dtype=np.bool_)))
    return shape, ends, window


def traced_steps(board: Board, a: Hex, b: Hex) -> list[Step]:
    """The steps of the line from ``a`` to ``b`` as the engine holds them (from the shape's
    templates), read back into :mod:`firefight.board.sight` steps (equal to ``trace(a, b)``:
    a check)."""
    shape, ends, lines = _one_line(board, a, b)
    n = int(ends.distance[0])

    def crossing(side: int) -> Step | None:
        if side >= 6 * shape.cells:
            return None
        before = shape.hex_at(side // 6)
        dq, dr = _STEPS[side % 6]
        return Across(before, Hex(before.q + dq, before.r + dr))

    steps: list[Step] = []
    for i in range(1, n + 1):
        if i < n:
            left, right = int(lines.left[i - 1, 0]), int(lines.right[i - 1, 0])
            if left != right:
                steps.append(Along(shape.hex_at(left), shape.hex_at(right)))
                continue
        side = (
            int(ends.first_across[0])
            if i == 1
            else int(ends.last_across[0])
            if i == n
            else int(lines.across[i - 1, 0])
        )
        step = crossing(side)
        if step is not None:
            steps.append(step)
        if i < n:
            steps.append(Through(shape.hex_at(left)))
    return steps


def traced_corners(board: Board, a: Hex, b: Hex) -> list[tuple[Hex, frozenset[Hex]]]:
    """The corners of the line from ``a`` to ``b`` that the engine holds, in line order, each
    as the full hex and the two hexes of the hexside run along (equal to those of
    :func:`firefight.board.los.vertex_hexsides` but the firer's own: a check)."""
    shape, ends, lines = _one_line(board, a, b)
    found = []
    for corner in [*lines.corner[:, 0].tolist(), int(ends.last_corner[0])]:
        if corner >= 6 * shape.cells:
            continue
        full, k = shape.hex_at(corner // 6), corner % 6
        fan = (_STEPS[k], _STEPS[(k + 1) % 6])
        found.append((full, frozenset(Hex(full.q + dq, full.r + dr) for dq, dr in fan)))
    return found
