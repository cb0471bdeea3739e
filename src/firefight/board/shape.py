"""The board's shape: its hexes, the cell grid around them and the line templates
of its size, built lazily per band of distances and cached (:mod:`firefight.board.visibility`,
"Lines"; its section "the board's shape: hexes, cell grid and line templates").
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from firefight.board.board import Board
from firefight.board.hexes import Hex
from firefight.board.hexline import (
    CODES,
    FAR,
    NUDGE,
    PAD,
    STEPS,
    Ints,
    hex_lines,
    offset_distance,
    step_codes,
)
from firefight.board.layout import MapOffset, grid, orientation_of

MARGIN = 2
"""Cells of padding around the board's hexes: a line between two of them stays within one."""


# --- the board's shape: hexes, cell grid and line templates ---------------------------------


@dataclass(eq=False)
class Band:
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
    bands: tuple[Band, ...]
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
        deltas = np.array([dq * self.height + dr for dq, dr in STEPS], dtype=np.int32)
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
    return cached_shape(board.columns, board.rows, board.offset, board.first)


def _band_edges(longest: int) -> list[tuple[int, int]]:
    edges, low = [], 0
    while low <= longest:
        high = low + max(6, low // 4)  # rows padded by at most about a fifth
        edges.append((low, high))
        low = high + 1
    return edges


@functools.lru_cache(maxsize=4)
def cached_shape(columns: int, rows: int, offset: MapOffset, first: int) -> BoardShape:
    """The shape of a ``columns`` x ``rows`` board as printed with ``offset``: its hexes in the
    board's order (:func:`firefight.board.layout.grid`), which lists the internal columns in
    turn; ``rows`` below is the hexes of one internal column (a pointy-top board's columns)."""
    hexes = tuple(grid(columns, rows, first, offset))
    if orientation_of(offset) == "pointy-top":
        rows = columns
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
    distance = offset_distance(off_q, off_r)

    band_of = np.full(seen.shape, -1, dtype=np.int16)
    row_of = np.full(seen.shape, -1, dtype=np.int32)
    bands: list[Band] = []
    for low, high in _band_edges(int(distance.max())):
        members = np.flatnonzero((distance >= low) & (distance <= high))
        if not len(members):
            continue
        band_of[off_q[members] + span_q, off_r[members] + span_r] = len(bands)
        row_of[off_q[members] + span_q, off_r[members] + span_r] = np.arange(len(members))
        bands.append(Band(high, off_q[members], off_r[members], distance[members]))
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
