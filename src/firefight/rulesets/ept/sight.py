"""EPT's line-of-sight rule over arrays of lines (numpy), the one definition of the verdict
of :class:`~firefight.rulesets.ept.board.EptLosPolicy`: the board's engine evaluates it for a
whole board (the LOS tool) and, in recording mode, for one line. Imported when a board's sight
is first judged, so that loading the rule set imports no numpy."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final, Protocol

import numpy as np

from firefight.board.visibility import (
    Accumulators,
    BoardCells,
    Bools,
    Facts,
    Fold,
    Ints,
    Judgement,
    LineEnds,
    StepWindow,
    Symmetry,
)
from firefight.rulesets.ept.terrain import (
    HindranceBlocking,
    hindrance_blocks_los,
    hindrance_dice_modifier,
)

VISUAL_HINDRANCES = frozenset({"orchard", "brush", "field", "marsh", "cemetery"})
"""The starred rows of the TABLE DES TERRAINS."""


class SightSettings(Protocol):
    """The settings of :class:`~firefight.rulesets.ept.board.EptLosPolicy` the rule reads."""

    @property
    def blocking_terrain(self) -> frozenset[str]: ...
    @property
    def blocking_hexsides(self) -> frozenset[str]: ...
    @property
    def hindrance_blocking(self) -> HindranceBlocking: ...


class EptSightRule:
    """:class:`EptLosPolicy`'s rule, over arrays of lines (the one definition).

    A line is blocked when its hexes block on both sides (a hex passed through is on both
    sides), when it crosses a blocking hexside away from its ends or runs along one, when
    blocking hexsides fan out on both sides of it at a corner away from its ends, or when the
    hindrances of its more open side reach the policy's ``hindrance_blocking`` (TABLE DES
    TERRAINS: "LOS blocked if sum of hindrances > +3"). Heights fold the blocking terrain in:
    a hex blocks when its height is above the lower end's level (blocking terrain stands above
    every level). The dice modifier is the hindrance, +1 a hex, at most +3.

    Facts of a step (:meth:`steps`): ``left`` and ``right``, the sight of the hex on each side
    (height and hindrance, :meth:`BoardCells.sight_table`); ``left_hindrance`` and
    ``right_hindrance``, +1 for a visual hindrance there; ``across_blocks``, ``along_blocks``
    and ``corner_blocks``, a blocking hexside crossed, run along, or fanning out on both sides
    at a corner. Judgement (:meth:`judge`): ``lower``, ``left_blocked`` and
    ``right_blocked`` (a side's highest hex above the lower end), ``right_chosen`` (the right
    side is the more open: fewer hindrances, or the left blocked), ``total`` (the hindrances
    counted), ``visible`` and ``modifier``.
    """

    symmetry: Final[Symmetry] = "verdict"
    """The line back has the same verdict: it passes the same hexes, hexsides and corners
    (its sides swapped), the lower end is the same, both ends' hexsides and corners are exempt
    alike, and the more open side's sum is the same whichever side it is."""

    folds: Final[Mapping[str, tuple[str, Fold]]] = {
        "left": ("left", "max"),
        "right": ("right", "max"),
        "left_hindrance": ("left_hindrance", "sum"),
        "right_hindrance": ("right_hindrance", "sum"),
        "across_blocks": ("blocked", "any"),
        "along_blocks": ("blocked", "any"),
        "corner_blocks": ("blocked", "any"),
    }

    def __init__(self, policy: SightSettings, cells: BoardCells) -> None:
        self.level = cells.elevation
        self.sight = cells.sight_table(
            cells.terrain_in(policy.blocking_terrain),
            cells.terrain_in(VISUAL_HINDRANCES).astype(np.int32),
        )
        self.side_blocks = cells.side_table(cells.features_in(policy.blocking_hexsides), False)
        self.corner_blocks = cells.corner_table(self.side_blocks)
        # The chart as tables: from `blocking` hindrance on, the line is blocked.
        self.blocking = next(
            t for t in range(1 << 14) if hindrance_blocks_los(t, policy.hindrance_blocking)
        )
        self.dice = np.array(
            [hindrance_dice_modifier(t) for t in range(self.blocking + 1)], dtype=np.int16
        )

    @staticmethod
    def blocks(sight: Ints | int, lower: Ints | int) -> Bools:
        """Whether a sight (a hex's, or the highest of a side's) stands above the lower end."""
        return np.asarray(np.right_shift(sight, 8) > lower)

    def start(self, ends: LineEnds) -> Accumulators:
        """Nothing seen yet on either side."""
        count = len(ends.source)
        lowest = np.iinfo(self.sight.dtype).min
        return {
            "lower": np.minimum(self.level[ends.source], self.level[ends.target]),
            "left": np.full(count, lowest, dtype=self.sight.dtype),
            "right": np.full(count, lowest, dtype=self.sight.dtype),
            "left_hindrance": np.zeros(count, dtype=np.int32),
            "right_hindrance": np.zeros(count, dtype=np.int32),
            "blocked": np.zeros(count, dtype=np.bool_),
        }

    def steps(self, acc: Accumulators, window: StepWindow, ends: LineEnds) -> Facts:
        """The sight and the hindrance on each side of each step; blocking hexsides."""
        del acc, ends
        left, right = self.sight.take(window.left), self.sight.take(window.right)
        return {
            "left": left,
            "right": right,
            "left_hindrance": left & 1,
            "right_hindrance": right & 1,
            "across_blocks": self.side_blocks.take(window.across),
            "along_blocks": self.side_blocks.take(window.along),
            "corner_blocks": self.corner_blocks.take(window.corner),
        }

    def _sides(self, acc: Accumulators) -> tuple[Bools, Bools, Ints, Ints]:
        """Each side blocked, and its hindrances (``_NEVER`` where blocked)."""
        left_blocked = self.blocks(acc["left"], acc["lower"])
        right_blocked = self.blocks(acc["right"], acc["lower"])
        left = np.where(left_blocked, _NEVER, acc["left_hindrance"])
        right = np.where(right_blocked, _NEVER, acc["right_hindrance"])
        return left_blocked, right_blocked, left, right

    def settled(self, acc: Accumulators) -> Bools:
        """Blocked already: every part of the verdict only grows along the line."""
        _, _, left, right = self._sides(acc)
        return acc["blocked"] | (np.minimum(left, right) >= self.blocking)

    def judge(self, acc: Accumulators, ends: LineEnds) -> Judgement:
        """The hexes passed through plus the more open side of a hexside line (both sides are
        the same hexes elsewhere): blocked by a hexside, by both sides, or by the hindrance
        sum; else the dice modifier of the sum."""
        del ends
        left_blocked, right_blocked, left, right = self._sides(acc)
        right_chosen = right < left  # the left on a tie
        total = np.where(right_chosen, right, left)
        blocked = acc["blocked"] | (total >= self.blocking)  # both sides blocked: _NEVER
        modifier = np.where(blocked, np.int16(0), self.dice.take(np.minimum(total, self.blocking)))
        return {
            "lower": acc["lower"],
            "left_blocked": left_blocked,
            "right_blocked": right_blocked,
            "right_chosen": right_chosen,
            "total": total,
            "visible": ~blocked,
            "modifier": modifier.astype(np.int16),
        }


_NEVER = np.int32(1 << 30)
"""The hindrance of a blocked side: more than any sum, so the other side is the more open."""
