"""EPT on the board: the terrain vocabulary of board files and the line-of-sight policy.

The rule is written once, as :class:`EptSightRule` (a reduction along the line over arrays of
lines, :class:`firefight.board.visibility.SightRule`): the board's engine evaluates it for a
whole board (the LOS tool) and, in recording mode, for one line (``line_of_sight``). The
reasons of a verdict (:meth:`EptLosPolicy.explain`) are named from that record: the facts the
rule found at each step and its judgement (which side of a hexside line counts), never from a
walk of their own.

From the TABLE DES TERRAINS (seed 000): the starred terrains are visual hindrances, +1 per hex
traversed; "LOS blocked if sum of hindrances > +3"; the dice modifier counts at most +3. What
blocks outright, how a line along a hexside is read and how levels are seen over are not in
the seed: each is a named, documented setting of :class:`EptLosPolicy`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

import numpy as np

from firefight.board.board import Board
from firefight.board.los import Hindrance, LosReasons
from firefight.board.visibility import (
    Accumulators,
    BoardCells,
    Bools,
    Facts,
    Fold,
    Ints,
    Judgement,
    LineEnds,
    LineRecord,
    StepWindow,
)
from firefight.rulesets.ept.terrain import (
    HindranceBlocking,
    hindrance_blocks_los,
    hindrance_dice_modifier,
)
from firefight.rulesets.los_reasons import first_blocker

HEX_TERRAINS = frozenset(
    {
        "clear",
        "forest",
        "orchard",
        "brush",
        "field",
        "marsh",
        "cemetery",
        "water_body",
        "waterway",
        "bridge",
        "road",
        "wood_building",
        "stone_building",
    }
)
HEXSIDE_FEATURES = frozenset({"hedge", "bocage", "wall"})
VISUAL_HINDRANCES = frozenset({"orchard", "brush", "field", "marsh", "cemetery"})
"""The starred rows of the TABLE DES TERRAINS."""


@dataclass(frozen=True)
class EptLosPolicy:
    """EPT line of sight. Settings where the chart sheet is silent:

    * ``blocking_terrain`` (default forest and buildings): the seed's chart marks hindrances
      only; that woods and buildings block is read from every hex wargame of the period and
      from V&V 10.4-10.5. An empty set keeps to the seed's letter.
    * ``blocking_hexsides`` (default bocage): bocage blocks a line that crosses it, except a
      side of the firer's or the target's hex (a unit sees out of and into its own bocage);
      and a line along hexsides that passes a corner where bocage fans out on both sides of it
      (the two hexsides meet across the line), with the same exception. Bocage on one side of
      the corner only grazes the line.
    * ``hindrance_blocking``: ``above_3`` (the seed's note) or ``from_3`` (the later rules).
    * a line along a hexside is as open as its more open side (the seed is silent; V&V 9.4
      reads it the same way when one side is open).
    * levels: an intermediate hex higher than the lower of the two ends blocks.
    """

    ruleset: str = "ept"
    blocking_terrain: frozenset[str] = frozenset({"forest", "wood_building", "stone_building"})
    blocking_hexsides: frozenset[str] = frozenset({"bocage"})
    hindrance_blocking: HindranceBlocking = "above_3"
    default_terrain: str = "clear"
    hex_terrains: frozenset[str] = HEX_TERRAINS
    hexside_features: frozenset[str] = HEXSIDE_FEATURES

    def sight_rule(self, cells: BoardCells) -> EptSightRule:
        """The rule on a board, for the engine of :mod:`firefight.board.visibility`."""
        return EptSightRule(self, cells)

    def explain(self, board: Board, record: LineRecord) -> LosReasons:
        """The reasons of :class:`EptSightRule`'s verdict on one line, named from its record:
        what blocks (:func:`~firefight.rulesets.los_reasons.first_blocker`, then the
        hindrance sum), or each visual hindrance counted (the hexes passed through, then those
        of the side of a hexside line the rule took)."""
        facts, judged = record.facts, record.judged
        if not record.visible:
            blocked_by = first_blocker(board, record, EptSightRule.blocks, "level {}")
            if blocked_by:
                return LosReasons(blocked_by=blocked_by)
        chosen = "right" if judged["right_chosen"] else "left"
        hindrances = tuple(
            Hindrance(f"hex {board.label(step.left)}", board.terrain_of(step.left), count)
            for step, count in zip(record.steps, facts["left_hindrance"], strict=True)
            if count and not step.along
        ) + tuple(
            Hindrance(f"hex {board.label(h)}", board.terrain_of(h), count)
            for step, count in zip(record.steps, facts[f"{chosen}_hindrance"], strict=True)
            if count and step.along
            for h in [step.right if judged["right_chosen"] else step.left]
        )
        if record.visible:
            return LosReasons(hindrances)
        total = judged["total"]
        return LosReasons(
            hindrances, blocked_by=f"visual hindrance {total:+d} (TABLE DES TERRAINS: > +3 blocks)"
        )


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

    folds: Final[Mapping[str, tuple[str, Fold]]] = {
        "left": ("left", "max"),
        "right": ("right", "max"),
        "left_hindrance": ("left_hindrance", "sum"),
        "right_hindrance": ("right_hindrance", "sum"),
        "across_blocks": ("blocked", "any"),
        "along_blocks": ("blocked", "any"),
        "corner_blocks": ("blocked", "any"),
    }

    def __init__(self, policy: EptLosPolicy, cells: BoardCells) -> None:
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

EPT_LOS = EptLosPolicy()
"""The default EPT line-of-sight policy."""
