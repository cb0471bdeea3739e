"""The visibility engine as it stood before issue 15 (commit eaf0c2f), kept verbatim but for
this note, as the baseline of ``benchmarks/visibility.py``: dense line templates (five 4-byte
arrays a step, for every offset of a board size, built at once) and vectorized twins of the EPT and V&V rules
that import the rule sets. Not used by firefight itself."""

# ruff: noqa
# mypy: ignore-errors

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np
import numpy.typing as npt

from firefight.board.board import Board
from firefight.board.hexes import _EPSILON, DIRECTIONS, Hex, Offset, from_offset
from firefight.board.los import Across, Along, LosPolicy, Step, Through
from firefight.errors import InputError

if TYPE_CHECKING:
    from firefight.rulesets.ept.board import EptLosPolicy
    from firefight.rulesets.vv.board import VvLosPolicy

Ints = npt.NDArray[np.signedinteger[Any]]
Bools = npt.NDArray[np.bool_]
Floats = npt.NDArray[np.float64]

NUDGE = _EPSILON
"""The ε of :func:`firefight.board.hexes.lines_between`."""

MARGIN = 2
"""Cells of padding around the board's hexes: a line between two of them stays within one."""

CHUNK_STEPS = 1 << 18
"""Steps (pairs x band width) judged in one batch: keeps the arrays in cache and bounded."""

BLOCK_PAIRS = 1 << 17
"""Pairs enumerated at once by :meth:`LosTool.rows` (source rows per block = this / hexes)."""

_DIRECTION_CODE = {step: code for code, step in enumerate(DIRECTIONS.values())}


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


# --- the board's shape: hexes, cell grid and line templates ---------------------------------


@dataclass(frozen=True, eq=False)
class _Band:
    """The lines to the offsets of one band of distances, as rows of relative ids.

    Cell ids are relative to the source's cell, hexside ids to six times it; padding is the
    grid's size (cells) or six times it (hexsides), so that added to a source it lands in the
    neutral upper half of every table (see :meth:`BoardCells.cell_table`).
    """

    width: int
    distance: Ints
    left: Ints
    right: Ints
    across: Ints
    along: Ints
    corner: Ints
    first_across: Ints
    last_across: Ints
    last_corner: Ints


@dataclass(frozen=True, eq=False)
class BoardShape:
    """What a board's size, first number and offset convention fix: its hexes, in
    ``Board.hexes()`` order, a grid of cells around them with linear ids, and the line
    templates to every offset between two of its hexes."""

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


def board_shape(board: Board) -> BoardShape:
    """The (cached) shape of ``board``: boards of the same size share it."""
    return _shape(board.columns, board.rows, board.offset, board.first)


def clear_shape_cache() -> None:
    """Forget the cached board shapes and their line templates (for benchmarks, memory)."""
    _shape.cache_clear()


def _band_edges(longest: int) -> list[tuple[int, int]]:
    edges, low = [], 0
    while low <= longest:
        high = low + max(6, low * 2 // 5)  # few bands, rows padded by about a third
        edges.append((low, high))
        low = high + 1
    return edges


@functools.lru_cache(maxsize=8)
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

    # Every offset between two hexes of the board, marked on a grid of offsets.
    span_q, span_r = int(q.max() - q.min()), int(r.max() - r.min())
    seen = np.zeros((2 * span_q + 1, 2 * span_r + 1), dtype=np.bool_)
    step = max(1, (1 << 20) // len(hexes))
    for start in range(0, len(hexes), step):
        dq = q[None, :] - q[start : start + step, None] + span_q
        dr = r[None, :] - r[start : start + step, None] + span_r
        seen[dq.ravel(), dr.ravel()] = True
    off_q, off_r = np.nonzero(seen)
    off_q = (off_q - span_q).astype(np.int32)
    off_r = (off_r - span_r).astype(np.int32)
    distance = _distance(off_q, off_r)
    order = np.argsort(distance, kind="stable")
    off_q, off_r, distance = off_q[order], off_r[order], distance[order]

    band_of = np.full(seen.shape, -1, dtype=np.int16)  # small: a radix sort
    row_of = np.full(seen.shape, -1, dtype=np.int32)
    bands: list[_Band] = []
    for low, high in _band_edges(int(distance.max())):
        members = np.flatnonzero((distance >= low) & (distance <= high))
        if not len(members):
            continue
        band_of[off_q[members] + span_q, off_r[members] + span_r] = len(bands)
        row_of[off_q[members] + span_q, off_r[members] + span_r] = np.arange(len(members))
        bands.append(
            _build_band(
                off_q[members],
                off_r[members],
                distance[members],
                high=high,
                height=height,
                cells=cells,
            )
        )
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


def _side_ids(
    start: tuple[Ints, Ints], end: tuple[Ints, Ints], mask: Bools, none: int, height: int
) -> Ints:
    """Relative hexside ids (six per cell, one per direction) where ``mask``, else ``none``."""
    code = _direction_codes(end[0] - start[0], end[1] - start[1])
    if not (code[mask] >= 0).all():
        msg = "a traced line is not contiguous"
        raise AssertionError(msg)
    return np.where(mask, (start[0] * height + start[1]) * 6 + code, none).astype(np.int32)


def _corner_ids(
    full: tuple[Ints, Ints],
    left: tuple[Ints, Ints],
    right: tuple[Ints, Ints],
    mask: Bools,
    *,
    none: int,
    height: int,
) -> Ints:
    """Relative corner ids where ``mask``, else ``none``: the corner of the ``full`` hex that
    it shares with ``left`` and ``right``, as ``6 * cell + k`` for the corner between its
    hexsides in directions ``k`` and ``k + 1`` (codes, clockwise; see
    :meth:`BoardCells.corner_table`)."""
    to_left = _direction_codes(left[0] - full[0], left[1] - full[1])
    to_right = _direction_codes(right[0] - full[0], right[1] - full[1])
    clockwise = (to_left + 1) % 6 == to_right
    adjacent = (to_left >= 0) & (to_right >= 0) & (clockwise | ((to_right + 1) % 6 == to_left))
    if not adjacent[mask].all():
        msg = "a hexside run along is not flanked by a hex that shares its corner"
        raise AssertionError(msg)
    k = np.where(clockwise, to_left, to_right)
    return np.where(mask, (full[0] * height + full[1]) * 6 + k, none).astype(np.int32)


def _build_band(
    off_q: Ints, off_r: Ints, distance: Ints, *, high: int, height: int, cells: int
) -> _Band:
    """Trace the lines from the origin to each offset (both nudges) and keep their steps."""
    count, width, none = len(off_q), max(high - 1, 0), 6 * cells
    left = np.full((count, width), cells, dtype=np.int32)
    right = np.full((count, width), cells, dtype=np.int32)
    across = np.full((count, width), none, dtype=np.int32)
    along = np.full((count, width), none, dtype=np.int32)
    corner = np.full((count, width), none, dtype=np.int32)
    first = np.full(count, none, dtype=np.int32)
    last = np.full(count, none, dtype=np.int32)
    last_corner = np.full(count, none, dtype=np.int32)
    for n in np.unique(distance).tolist():
        if n == 0:
            continue
        which = np.flatnonzero(distance == n)
        zero = np.zeros(len(which), dtype=np.int32)
        pq, pr = hex_lines((zero, zero), (off_q[which], off_r[which]), n, NUDGE)
        mq, mr = hex_lines((zero, zero), (off_q[which], off_r[which]), n, -NUDGE)
        agree = (pq == mq) & (pr == mr)
        if not (agree[:, 0].all() and agree[:, n].all()):
            msg = "the two traces of a line disagree at an end"
            raise AssertionError(msg)

        def plus(columns: slice | int) -> tuple[Ints, Ints]:
            return pq[:, columns], pr[:, columns]  # noqa: B023 - used at once

        # Steps i = 1 .. n-1 strictly between the ends are columns 0 .. n-2.
        inner = slice(1, n)
        left[which, : n - 1] = pq[:, inner] * height + pr[:, inner]
        right[which, : n - 1] = mq[:, inner] * height + mr[:, inner]
        along[which, : n - 1] = _side_ids(
            plus(inner), (mq[:, inner], mr[:, inner]), ~agree[:, inner], none, height
        )
        if n >= 3:  # from P[i-1] into P[i], i = 2 .. n-1: touching neither end
            across[which, 1 : n - 1] = _side_ids(
                plus(slice(1, n - 1)),
                plus(slice(2, n)),
                agree[:, 1 : n - 1] & agree[:, 2:n],
                none,
                height,
            )
        # A hexside run along is one step between two hexes passed through (or the ends).
        if not (agree[:, :-1] | agree[:, 1:]).all():
            msg = "two hexside steps in a row"
            raise AssertionError(msg)
        # Corners away from the ends: steps i = 2 .. n-1, columns 1 .. n-2. The hexes of a run
        # are never the ends, so a corner has a side of an end's hex (touches() exempts it)
        # exactly when its full hex is that end: step 1's corner before, step n-1's after.
        if n >= 3:
            # Step i runs along: the corner it shares with the hex of step i - 1 (before it);
            # step i passes through a hex after a run along: the corner that hex shares with it.
            here, before = slice(2, n), slice(1, n - 1)
            runs_here = ~agree[:, here]

            def pick(columns: Ints, first: slice, second: slice) -> Ints:
                return np.where(runs_here, columns[:, first], columns[:, second])  # noqa: B023

            corner[which, 1 : n - 1] = _corner_ids(
                (pick(pq, before, here), pick(pr, before, here)),
                (pick(pq, here, before), pick(pr, here, before)),
                (pick(mq, here, before), pick(mr, here, before)),
                runs_here | ~agree[:, before],
                none=none,
                height=height,
            )
        first[which] = _side_ids(plus(0), plus(1), agree[:, 1], none, height)
        if n >= 2:
            last[which] = _side_ids(plus(n - 1), plus(n), agree[:, n - 1], none, height)
            # Step n-1 runs along: the corner it shares with the target's hex.
            last_corner[which] = _corner_ids(
                plus(n),
                plus(n - 1),
                (mq[:, n - 1], mr[:, n - 1]),
                ~agree[:, n - 1],
                none=none,
                height=height,
            )
    return _Band(width, distance, left, right, across, along, corner, first, last, last_corner)


# --- the board's contents on the grid -------------------------------------------------------


class BoardCells:
    """A board's terrain, levels and hexside features on the cells of its shape's grid.

    Cells outside the board (a line can graze a ragged edge) read as ``Board.terrain_of`` and
    ``Board.elevation_of`` read them. Hexsides are looked up as ``Board.hexside_of`` does.
    """

    def __init__(self, board: Board, shape: BoardShape) -> None:
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
        """A per-cell table to index with :class:`LineBatch` cell ids (padding reads
        ``padding``)."""
        return np.concatenate([values, np.full(len(values), padding, dtype=values.dtype)])

    def side_table(self, values: npt.NDArray[Any], padding: int | bool) -> npt.NDArray[Any]:
        """A per-hexside table to index with :class:`LineBatch` hexside ids."""
        return np.concatenate([values, np.full(len(values), padding, dtype=values.dtype)])

    def corner_table(self, sides: npt.NDArray[Any]) -> npt.NDArray[Any]:
        """From a per-hexside table (:meth:`side_table`), a per-corner one to index with
        :class:`LineBatch` corner ids: corner ``6 * cell + k`` of a cell lies between its
        hexsides ``6 * cell + k`` and ``6 * cell + (k + 1) % 6`` and reads their values
        and-ed (bitwise): what both hexsides that fan out from it have."""
        per_cell = sides.reshape(-1, 6)
        found: npt.NDArray[Any] = (per_cell & np.roll(per_cell, -1, axis=1)).ravel()
        return found

    def sight_table(self, blocking: Bools, flags: Ints) -> npt.NDArray[Any]:
        """Per cell ``height * 256 + flags`` (``flags`` from 0 to 255): the height is the
        cell's level, or above every level where ``blocking``; padding is below every level
        with no flags. The largest value over a line's cells holds its highest height
        (``>> 8``); each cell's flags are ``& 255``. Two bytes a cell when the levels allow."""
        small = int(self.elevation.min()) >= -100 and int(self.elevation.max()) <= 100
        top, bottom = (127, -128) if small else (1 << 40, -(1 << 40))
        height = np.where(blocking, top, self.elevation).astype(np.int64)
        code = (height << 8) | flags
        return self.cell_table(code.astype(np.int16 if small else np.int64), bottom << 8)


# --- lines as arrays, and the policies' twins -----------------------------------------------


@dataclass(frozen=True, eq=False)
class LineBatch:
    """The steps of many lines, one line per pair, as arrays for a policy's twin.

    Per pair (arrays of shape ``(pairs,)``): ``source`` and ``target`` cell ids, their
    ``distance``; ``first_across``, the hexside crossed leaving the source's hex (between
    adjacent hexes, also the one entering the target's), and ``last_across``, the hexside
    crossed entering the target's hex when that is another one.

    Per step strictly between the ends (arrays of shape ``(steps, pairs)``, padded): ``left``
    and ``right`` cells (the same cell for a hex passed through, the two sides of a hexside run
    along); ``along``, the hexside run along; ``across``, the hexside crossed from the previous
    step's hex into this one when neither is an end; ``corner``, a corner where a hexside run
    along meets a hex passed through (the run's step holds the corner before it, the next
    step the corner after; see :func:`firefight.board.los.vertex_hexsides`), none where that
    hex is an end. Per pair, ``last_corner``: the corner where a last step run along meets
    the target's hex (the firer's own corner is never needed: its hexsides are exempt
    everywhere). Hexside ids are ``6 * cell + direction``, corner ids ``6 * cell + k``
    (:meth:`BoardCells.corner_table`).
    Padding, and "no hexside", read the neutral upper half of the tables of
    :meth:`BoardCells.cell_table` and :meth:`BoardCells.side_table`.
    """

    source: Ints
    target: Ints
    distance: Ints
    left: Ints
    right: Ints
    across: Ints
    along: Ints
    corner: Ints
    first_across: Ints
    last_across: Ints
    last_corner: Ints


class VectorTwin(Protocol):
    """A policy's rules over a :class:`LineBatch`."""

    def judge(self, lines: LineBatch) -> tuple[Bools, npt.NDArray[np.int16]]:
        """Per pair: whether the target is visible, and the dice modifier (0 when not)."""
        ...


TwinFactory = Callable[[Any, BoardCells], VectorTwin]
_TWINS: dict[type, TwinFactory] = {}


def register_twin(policy_type: type, factory: TwinFactory) -> None:
    """Make ``factory(policy, cells)`` the vectorized twin of policies of exactly this type."""
    _TWINS[policy_type] = factory


@functools.cache
def _register_builtin_twins() -> None:
    # Imported here: the rule sets import firefight.board, not the other way round.
    from firefight.rulesets.ept.board import EptLosPolicy  # noqa: PLC0415
    from firefight.rulesets.vv.board import VvLosPolicy  # noqa: PLC0415

    _TWINS.setdefault(EptLosPolicy, _EptTwin)
    _TWINS.setdefault(VvLosPolicy, _VvTwin)


def twin_for(policy: LosPolicy, cells: BoardCells) -> VectorTwin:
    """The vectorized twin of ``policy`` on a board (by the policy's exact type: a subclass
    may have changed the rules)."""
    _register_builtin_twins()
    factory = _TWINS.get(type(policy))
    if factory is None:
        known = ", ".join(sorted(t.__name__ for t in _TWINS))
        msg = (
            f"no vectorized twin for {type(policy).__name__} (known: {known}); "
            f"register one with firefight.board.visibility.register_twin"
        )
        raise TypeError(msg)
    return factory(policy, cells)


def _max(values: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """Per pair, the largest value over the steps (the type's minimum when there are none)."""
    found: npt.NDArray[Any] = values.max(axis=0, initial=np.iinfo(values.dtype).min)
    return found


def _sum(values: npt.NDArray[Any]) -> Ints:
    """Per pair, the sum over the steps."""
    found: Ints = values.sum(axis=0, dtype=np.int16 if len(values) < 1 << 14 else np.int32)
    return found


def _any(values: npt.NDArray[Any]) -> Bools:
    """Per pair, whether any step is true (non-zero)."""
    return np.asarray(values.any(axis=0), dtype=np.bool_)


class _EptTwin:
    """:meth:`EptLosPolicy.judge` with arrays.

    A line is blocked when its hexes block on both sides (a hex passed through is on both
    sides), when it crosses a blocking hexside away from its ends or runs along one, when
    blocking hexsides fan out on both sides of it at a corner away from its ends, or when the
    hindrances of its more open side reach the policy's ``hindrance_blocking``. Heights fold
    the blocking terrain in: a hex blocks when its height is above the lower end's level.
    """

    def __init__(self, policy: EptLosPolicy, cells: BoardCells) -> None:
        from firefight.rulesets.ept.board import VISUAL_HINDRANCES  # noqa: PLC0415
        from firefight.rulesets.ept.terrain import (  # noqa: PLC0415
            hindrance_blocks_los,
            hindrance_dice_modifier,
        )

        self.level = cells.elevation
        self.sight = cells.sight_table(
            cells.terrain_in(policy.blocking_terrain),
            cells.terrain_in(VISUAL_HINDRANCES).astype(np.int32),
        )
        self.side_blocks = cells.side_table(cells.features_in(policy.blocking_hexsides), False)
        self.corner_blocks = cells.corner_table(self.side_blocks)
        # The scalar rules as tables: from `blocking` hindrance on, the line is blocked.
        self.blocking = next(
            t for t in range(1 << 14) if hindrance_blocks_los(t, policy.hindrance_blocking)
        )
        self.dice = np.array(
            [hindrance_dice_modifier(t) for t in range(self.blocking + 1)], dtype=np.int16
        )

    def judge(self, lines: LineBatch) -> tuple[Bools, npt.NDArray[np.int16]]:
        """Visible and modifier per pair."""
        lower = np.minimum(self.level.take(lines.source), self.level.take(lines.target))
        left, right = self.sight.take(lines.left), self.sight.take(lines.right)
        left_blocked = _max(left) >> 8 > lower
        right_blocked = _max(right) >> 8 > lower
        blocked = left_blocked & right_blocked
        blocked |= _any(self.side_blocks.take(lines.across))
        blocked |= _any(self.side_blocks.take(lines.along))
        blocked |= _any(self.corner_blocks.take(lines.corner))
        # The hexes passed through plus the more open side of a hexside line.
        never = np.int16(self.blocking)
        total = np.minimum(
            np.where(left_blocked, never, _sum(left & 1)),
            np.where(right_blocked, never, _sum(right & 1)),
        )
        blocked |= total >= self.blocking
        modifier = np.where(blocked, np.int16(0), self.dice.take(np.minimum(total, never)))
        return ~blocked, modifier.astype(np.int16)


_HINDERS, _LEVEL_1 = 1, 2
_SIDE_HINDERS, _SIDE_BLOCKS = 1, 2


class _VvTwin:
    """:meth:`VvLosPolicy.judge` with arrays (V&V 9.2-9.4, 10.7, 10.10; chapter 9's Cover
    Modifier Examples for hedges and walls at a corner).

    The 10.7 slope hex (the one level-1 hex crossed, next to the level-2 end, the other end at
    ground level) is exempted by letting that line see over level 1: no other level-1 hex is
    crossed.
    """

    def __init__(self, policy: VvLosPolicy, cells: BoardCells) -> None:
        from firefight.rulesets.vv.board import (  # noqa: PLC0415
            BLOCKING,
            HINDERING_HEXSIDES,
            HINDRANCES,
        )

        del policy  # V&V's policy has no settings
        self.level = cells.elevation
        self.target_hinders = cells.terrain_in(HINDRANCES)
        flags = self.target_hinders * _HINDERS + (cells.elevation == 1) * _LEVEL_1
        self.sight = cells.sight_table(cells.terrain_in(BLOCKING), flags.astype(np.int32))
        codes = dict.fromkeys(HINDERING_HEXSIDES, _SIDE_HINDERS) | {"hedgerow": _SIDE_BLOCKS}
        self.side = cells.side_table(cells.feature_codes(codes), 0)
        self.corner_blocks = cells.corner_table(self.side & _SIDE_BLOCKS)
        self.corner_hinders = cells.corner_table(self.side & _SIDE_HINDERS)

    def judge(self, lines: LineBatch) -> tuple[Bools, npt.NDArray[np.int16]]:
        """Visible and modifier per pair."""
        left, right, distance = lines.left, lines.right, lines.distance
        along = left != right
        level_a, level_b = self.level.take(lines.source), self.level.take(lines.target)
        left_sight, right_sight = self.sight.take(left), self.sight.take(right)
        left_cell = left_sight & 255
        right_cell = (right_sight & 255) * along  # the right side of hexside steps only

        # 10.7: the slope hex, exempt from blocking by height: the only level-1 hex crossed,
        # next to the level-2 end, the other end at ground level.
        slope = ((level_a == 0) & (level_b == 2)) | ((level_a == 2) & (level_b == 0))
        if slope.any():
            ones_left, ones_right = left_cell & _LEVEL_1, right_cell & _LEVEL_1
            slope &= _sum(ones_left) + _sum(ones_right) == _LEVEL_1
            if slope.any():  # then the lines have steps to look at
                next_to_high = np.maximum(np.where(level_a == 2, 0, distance - 2), 0)
                pick = next_to_high, np.arange(len(distance))
                slope &= ones_left[pick] + ones_right[pick] == _LEVEL_1
        lower = np.where(slope, 1, np.minimum(level_a, level_b))

        # 9.2, 9.4: blocking hexes passed through, or on both sides of a hexside line;
        # 10.101: hedgerows crossed away from the ends, run along, or meeting at a corner.
        left_blocked = _max(left_sight) >> 8 > lower
        right_blocked = _max(right_sight) >> 8 > lower
        across, run = self.side.take(lines.across), self.side.take(lines.along)
        blocked = (
            (left_blocked & right_blocked)
            | _any(across & _SIDE_BLOCKS)
            | _any(run & _SIDE_BLOCKS)
            | _any(self.corner_blocks.take(lines.corner))
        )

        # 9.3: hindrance hexes passed through; 9.4: a hexside line.
        hinders_left = left_cell & _HINDERS
        beside_left = _sum(hinders_left * along)
        through = _sum(hinders_left) - beside_left
        beside_right = _sum(right_cell & _HINDERS)
        beside = beside_left + beside_right
        features = _sum(run & _SIDE_HINDERS)
        one_blocks_other_hinders = (left_blocked & (beside_right > 0)) | (
            right_blocked & (beside_left > 0)
        )
        hexside_line = np.where(
            features > 0,
            features + beside,
            np.where(
                (beside_left > 0) & (beside_right > 0),
                beside - 1,  # the pair that hinders counts +1, each further one +1
                np.where(one_blocks_other_hinders, beside, 0),
            ),
        )
        # 10.10: walls and hedges crossed, but not the firer's own hexside.
        crossed = _sum(across & _SIDE_HINDERS) + (self.side.take(lines.last_across) & _SIDE_HINDERS)
        # 10.10: walls and hedges meeting at a corner, one on each side (the firer's exempt).
        crossed += _sum(self.corner_hinders.take(lines.corner))
        crossed += self.corner_hinders.take(lines.last_corner)
        # 9.3: a hindrance in the target's hex.
        target = self.target_hinders.take(lines.target) & (distance > 0)
        total = through + hexside_line + crossed + target
        return ~blocked, np.where(blocked, 0, total).astype(np.int16)


# --- the LOS tool ---------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Visibility:
    """Who sees whom on a board: ``visible[i, j]`` and ``modifier[i, j]`` for the line from
    ``hexes[i]`` to ``hexes[j]`` (the modifier is 0 where not visible)."""

    hexes: tuple[Hex, ...]
    visible: Bools
    modifier: npt.NDArray[np.int16]
    _index: dict[Hex, int] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_index", {h: i for i, h in enumerate(self.hexes)})

    def index(self, hex_: Hex) -> int:
        """The row (and column) of a hex."""
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

    Preparing reads the board once (its shape's line templates are cached across boards of
    the same size); then :meth:`visible_set`, :meth:`rows` and :meth:`matrix` are array work.
    """

    def __init__(self, board: Board, policy: LosPolicy) -> None:
        self.board = board
        self.policy = policy
        self.shape = board_shape(board)
        self.cells = BoardCells(board, self.shape)
        self.twin = twin_for(policy, self.cells)

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

    def row(self, hex_: Hex) -> tuple[Bools, npt.NDArray[np.int16]]:
        """Visible and modifier from ``hex_`` to every hex of the board."""
        visible, modifier = self.rows(np.array([self.index(hex_)], dtype=np.int32))
        return visible[0], modifier[0]

    def visible_set(self, hex_: Hex) -> dict[Hex, int]:
        """Every hex that ``hex_`` sees, with the dice modifier of the line."""
        visible, modifier = self.row(hex_)
        return _row_dict(self.shape.hexes, visible, modifier)

    def matrix(self) -> Visibility:
        """The whole board: every pair of hexes."""
        visible, modifier = self.rows(np.arange(len(self.shape.hexes), dtype=np.int32))
        return Visibility(self.shape.hexes, visible, modifier)

    def rows(self, sources: Ints) -> tuple[Bools, npt.NDArray[np.int16]]:
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

    def _block(self, sources: Ints) -> tuple[Bools, npt.NDArray[np.int16]]:
        shape, size = self.shape, len(self.shape.hexes)
        source = np.repeat(sources, size)
        target = np.tile(np.arange(size, dtype=np.int32), len(sources))
        band, row = shape.locate(source, target)
        order = np.argsort(band, kind="stable")
        bounds = np.searchsorted(band[order], np.arange(len(shape.bands) + 1))
        visible = np.zeros(len(source), dtype=np.bool_)
        modifier = np.zeros(len(source), dtype=np.int16)
        for number, lines in enumerate(shape.bands):
            chosen = order[bounds[number] : bounds[number + 1]]
            chunk = max(1, CHUNK_STEPS // max(lines.width, 1))
            for start in range(0, len(chosen), chunk):
                pairs = chosen[start : start + chunk]
                batch = _batch(
                    lines,
                    row[pairs],
                    shape.hex_cells[source[pairs]],
                    shape.hex_cells[target[pairs]],
                )
                visible[pairs], modifier[pairs] = self.twin.judge(batch)
        return visible.reshape(len(sources), size), modifier.reshape(len(sources), size)


def _batch(band: _Band, rows: Ints, source: Ints, target: Ints) -> LineBatch:
    """The lines of ``band``'s template ``rows`` placed at each ``source`` cell."""
    side = 6 * source

    def steps(template: Ints, base: Ints) -> Ints:
        # Rows of the template, placed at each source, transposed to (steps, pairs).
        found = np.empty((template.shape[1], len(rows)), dtype=np.int32)
        np.add(template.take(rows, axis=0).T, base, out=found)
        return found

    return LineBatch(
        source=source,
        target=target,
        distance=band.distance.take(rows),
        left=steps(band.left, source),
        right=steps(band.right, source),
        across=steps(band.across, side),
        along=steps(band.along, side),
        corner=steps(band.corner, side),
        first_across=band.first_across.take(rows) + side,
        last_across=band.last_across.take(rows) + side,
        last_corner=band.last_corner.take(rows) + side,
    )


def visibility_matrix(board: Board, policy: LosPolicy) -> Visibility:
    """Every pair of hexes of ``board``: visible and dice modifier, as ``line_of_sight``."""
    return LosTool(board, policy).matrix()


def visible_set(board: Board, a: Hex, policy: LosPolicy) -> dict[Hex, int]:
    """Every hex of ``board`` that ``a`` sees, with the dice modifier (one row, vectorized)."""
    return LosTool(board, policy).visible_set(a)


def traced_steps(board: Board, a: Hex, b: Hex) -> list[Step]:
    """The steps of the line from ``a`` to ``b`` as the vectorized engine holds them, read
    back into :mod:`firefight.board.los` steps (equal to ``trace(a, b)``: a check)."""
    shape = board_shape(board)
    source = np.array([shape.index[a]], dtype=np.int32)
    target = np.array([shape.index[b]], dtype=np.int32)
    band, row = shape.locate(source, target)
    lines = _batch(shape.bands[int(band[0])], row, shape.hex_cells[source], shape.hex_cells[target])
    n = int(lines.distance[0])

    def crossing(side: int) -> Step | None:
        if side >= 6 * shape.cells:
            return None
        before = shape.hex_at(side // 6)
        dq, dr = list(DIRECTIONS.values())[side % 6]
        return Across(before, Hex(before.q + dq, before.r + dr))

    steps: list[Step] = []
    for i in range(1, n + 1):
        if i < n:
            left, right = int(lines.left[i - 1, 0]), int(lines.right[i - 1, 0])
            if left != right:
                steps.append(Along(shape.hex_at(left), shape.hex_at(right)))
                continue
        side = (
            int(lines.first_across[0])
            if i == 1
            else int(lines.last_across[0])
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
    """The corners of the line from ``a`` to ``b`` that the vectorized engine holds, in line
    order, each as the full hex and the two hexes of the hexside run along (equal to those of
    :func:`firefight.board.los.vertex_hexsides` but the firer's own: a check)."""
    shape = board_shape(board)
    source = np.array([shape.index[a]], dtype=np.int32)
    target = np.array([shape.index[b]], dtype=np.int32)
    band, row = shape.locate(source, target)
    lines = _batch(shape.bands[int(band[0])], row, shape.hex_cells[source], shape.hex_cells[target])
    codes = list(DIRECTIONS.values())
    found = []
    for corner in [*lines.corner[:, 0].tolist(), int(lines.last_corner[0])]:
        if corner >= 6 * shape.cells:
            continue
        full, k = shape.hex_at(corner // 6), corner % 6
        fan = (codes[k], codes[(k + 1) % 6])
        found.append((full, frozenset(Hex(full.q + dq, full.r + dr) for dq, dr in fan)))
    return found
