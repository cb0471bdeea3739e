"""Lines as arrays, and the rule sets' rules: the interface between the
board's engine and a rule set's line of sight (:mod:`firefight.board.visibility`, its section
"lines as arrays, and the rule sets' rules"): the ends of lines (:class:`LineEnds`), a window of
their steps (:class:`StepWindow`), the rule (:class:`SightRule`) and the folds the engine applies
to its facts.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, Protocol

import numpy as np
import numpy.typing as npt

from firefight.board.hexline import (
    Bools,
    Ints,
)

Accumulators = dict[str, npt.NDArray[Any]]
"""Per accumulator name, a per-line array: what the facts of a line's steps fold into."""


Facts = dict[str, npt.NDArray[Any]]
"""Per fact, its value at each step of a window: arrays ``(steps, lines)``."""


Judgement = dict[str, npt.NDArray[Any]]
"""Per name, a per-line array: ``visible``, ``modifier`` and the rule's decisions."""


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

    def take(self, keep: Ints | Bools) -> LineEnds:
        """The ends of the lines ``keep`` (indices, or flags)."""
        if keep.dtype == np.bool_:
            keep = np.flatnonzero(keep)
        return LineEnds(*(getattr(self, name).take(keep) for name in _ENDS))


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

    A rule may also declare a ``symmetry`` attribute
    (:data:`~firefight.board.matrix.Symmetry`): ``"verdict"`` where the line from ``b`` to
    ``a`` always has the verdict of the line from ``a`` to ``b``, ``"visibility"`` where it is
    always as visible but its modifier may differ. The whole board's matrix then marches the
    lines of one direction only (and, under ``"visibility"``, the visible lines back for their
    modifier). Without it (``"none"``) every line is marched. A ``"visibility"`` rule may
    also give ``reverse(acc, ends, back)`` (:data:`~firefight.board.matrix.Reverse`): the
    accumulators of the lines back (``back``, their ends) from those of the lines forth after
    all their steps, which the line back meets in reverse order; the matrix then judges each
    line back from the one march instead of marching it again.
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
