"""The engine's steps read back, as checks: the hexes and hexsides of a line as
the engine walks it, against :mod:`firefight.board.sight` and
:func:`firefight.board.los.vertex_hexsides` (:mod:`firefight.board.visibility`, its section
"the engine's steps read back (checks)").
"""

from __future__ import annotations

import numpy as np

from firefight.board.board import Board
from firefight.board.hexes import Hex
from firefight.board.hexline import (
    STEPS,
)
from firefight.board.shape import BoardShape, board_shape
from firefight.board.sight import Across, Along, Step, Through
from firefight.board.sight_rule import (
    LineEnds,
    StepWindow,
)
from firefight.board.window import line_ends, step_window

# --- the engine's steps read back (checks) ------------------------------------------------


def _one_line(board: Board, a: Hex, b: Hex) -> tuple[BoardShape, LineEnds, StepWindow]:
    shape = board_shape(board)
    source = np.array([shape.index[a]], dtype=np.int32)
    target = np.array([shape.index[b]], dtype=np.int32)
    band, row = shape.locate(source, target)
    codes = shape.bands[int(band[0])].built()[row]
    src, tgt = shape.hex_cells[source], shape.hex_cells[target]
    ends = line_ends(shape, codes, src, tgt)
    width = max(int(ends.distance[0]) - 1, 0)
    window, _ = step_window(shape, codes[:, :width].T.copy(), 1, (src, np.zeros(1, dtype=np.bool_)))
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
        dq, dr = STEPS[side % 6]
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
        fan = (STEPS[k], STEPS[(k + 1) % 6])
        found.append((full, frozenset(Hex(full.q + dq, full.r + dr) for dq, dr in fan)))
    return found
