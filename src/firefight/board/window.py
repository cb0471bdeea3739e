"""The march's steps: the ends of lines from their step codes and a window of
their steps, as :func:`firefight.board.visibility.march` walks them ("Marching" in
:mod:`firefight.board.visibility`, its section "the march").
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from firefight.board.hexline import (
    CODES,
    PAD,
    Bools,
    Ints,
)
from firefight.board.shape import BoardShape
from firefight.board.sight_rule import (
    Accumulators,
    LineEnds,
    StepWindow,
)

# --- the march ------------------------------------------------------------------------------


def line_ends(
    shape: BoardShape, codes: npt.NDArray[np.uint8], source: Ints, target: Ints
) -> LineEnds:
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


def step_window(
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


def subset_of(acc: Accumulators, keep: Ints | Bools) -> Accumulators:
    """The accumulators of the lines ``keep`` (indices, or flags)."""
    if keep.dtype == np.bool_:
        keep = np.flatnonzero(keep)
    return {name: values.take(keep) for name, values in acc.items()}
