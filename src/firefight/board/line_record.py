"""The record of one line: each step's facts and the judgement, as :func:`recorded` keeps them
for :func:`firefight.board.visibility.record_line` and :func:`firefight.board.los.line_of_sight`
reports them (:mod:`firefight.board.visibility`, its section "the march", recording mode).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from firefight.board.hexes import Hex
from firefight.board.hexline import STEPS, Ints
from firefight.board.shape import BoardShape
from firefight.board.sight_rule import SightRule, fold
from firefight.board.window import line_ends, step_window

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


def recorded(
    shape: BoardShape,
    rule: SightRule,
    ends_of: tuple[Hex, Hex],
    codes: npt.NDArray[np.uint8],
    cells: tuple[Ints, Ints],
) -> LineRecord:
    """The rule on the one line from ``a`` to ``b`` (``ends_of``), its step ``codes`` a row and
    its source and target ``cells``, recorded: every step fed in one window, the facts kept
    before the engine folds them (:func:`~firefight.board.sight_rule.fold`, as the march does),
    then judged."""
    (a, b), (source, target) = ends_of, cells
    ends = line_ends(shape, codes, source, target)
    acc = rule.start(ends)
    count = max(int(ends.distance[0]) - 1, 0)
    window, _ = step_window(
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
        dq, dr = STEPS[hexside_id % 6]
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
