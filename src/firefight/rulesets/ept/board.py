"""EPT on the board: the terrain vocabulary of board files and the line-of-sight policy.

The rule is written once, as :class:`EptSightRule` (a reduction along the line over arrays of
lines, :class:`firefight.board.visibility.SightRule`): the board's engine evaluates it for one
line (``line_of_sight``) and for a whole board (the LOS tool) alike. :meth:`EptLosPolicy.explain`
walks the line to name what the rule counted (the reasons of a verdict), and a property test
keeps the two in step.

From the TABLE DES TERRAINS (seed 000): the starred terrains are visual hindrances, +1 per hex
traversed; "LOS blocked if sum of hindrances > +3"; the dice modifier counts at most +3. What
blocks outright, how a line along a hexside is read and how levels are seen over are not in
the seed: each is a named, documented setting of :class:`EptLosPolicy`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from firefight.board.board import Board
from firefight.board.hexes import Hex
from firefight.board.los import (
    Across,
    Along,
    Hindrance,
    LosVerdict,
    Status,
    Step,
    Through,
    blocking_corner,
    hexside_path,
    higher_ground_blocks,
    touches,
)
from firefight.board.visibility import (
    Accumulators,
    BoardCells,
    Bools,
    Int16s,
    LineEnds,
    StepWindow,
    line_any,
    line_max,
    line_sum,
)
from firefight.rulesets.ept.terrain import (
    HindranceBlocking,
    hindrance_blocks_los,
    hindrance_dice_modifier,
)

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
      (the two hexsides meet across the line: :func:`blocking_corner`), with the same
      exception. Bocage on one side of the corner only grazes the line.
    * ``hindrance_blocking``: ``above_3`` (the seed's note) or ``from_3`` (the later rules).
    * a line along a hexside is as open as its more open side (the seed is silent; V&V 9.4
      reads it the same way when one side is open).
    * levels: an intermediate hex higher than the lower of the two ends blocks
      (:func:`higher_ground_blocks`).
    """

    ruleset: str = "ept"
    blocking_terrain: frozenset[str] = frozenset({"forest", "wood_building", "stone_building"})
    blocking_hexsides: frozenset[str] = frozenset({"bocage"})
    hindrance_blocking: HindranceBlocking = "above_3"
    default_terrain: str = "clear"
    hex_terrains: frozenset[str] = HEX_TERRAINS
    hexside_features: frozenset[str] = HEXSIDE_FEATURES

    def _hex(self, board: Board, h: Hex, a: Hex, b: Hex) -> tuple[str | None, Hindrance | None]:
        """What an intermediate hex does: (what blocks, or the hindrance it adds)."""
        terrain = board.terrain_of(h)
        level = board.elevation_of(h)
        if higher_ground_blocks(level, board.elevation_of(a), board.elevation_of(b)):
            return f"hex {board.label(h)} (level {level})", None
        if terrain in self.blocking_terrain:
            return f"hex {board.label(h)} ({terrain})", None
        if terrain in VISUAL_HINDRANCES:
            return None, Hindrance(f"hex {board.label(h)}", terrain, 1)
        return None, None

    def sight_rule(self, cells: BoardCells) -> EptSightRule:
        """The rule on a board, for the engine of :mod:`firefight.board.visibility`."""
        return EptSightRule(self, cells)

    def explain(self, board: Board, a: Hex, b: Hex, steps: Sequence[Step]) -> LosVerdict:
        """The reasons: the visual hindrances summed along the line, or what blocks it."""
        distance = a.distance(b)
        hindrances: list[Hindrance] = []
        for step in steps:
            if isinstance(step, Through):
                blocker, hindrance = self._hex(board, step.hex, a, b)
                if blocker:
                    return LosVerdict("blocked", distance, blocked_by=blocker)
                if hindrance:
                    hindrances.append(hindrance)
            elif isinstance(step, Across):
                side = (step.before, step.after)
                feature = board.hexside_of(*side)
                if feature in self.blocking_hexsides and not touches(side, a, b):
                    where = f"hexside {board.label(step.before)}/{board.label(step.after)}"
                    return LosVerdict("blocked", distance, blocked_by=f"{where} ({feature})")
        corner = blocking_corner(board, a, b, steps, self.blocking_hexsides)
        if corner:
            return LosVerdict("blocked", distance, blocked_by=corner)
        run = hexside_path(steps)
        if run:
            outcome = self._along(board, a, b, run)
            if isinstance(outcome, str):
                return LosVerdict("blocked", distance, blocked_by=outcome)
            hindrances.extend(outcome)
        total = sum(h.modifier for h in hindrances)
        if hindrance_blocks_los(total, self.hindrance_blocking):
            return LosVerdict(
                "blocked",
                distance,
                tuple(hindrances),
                blocked_by=f"visual hindrance {total:+d} (TABLE DES TERRAINS: > +3 blocks)",
            )
        status: Status = "hindered" if hindrances else "clear"
        return LosVerdict(
            status, distance, tuple(hindrances), modifier=hindrance_dice_modifier(total)
        )

    def _along(self, board: Board, a: Hex, b: Hex, run: list[Along]) -> str | list[Hindrance]:
        """A hexside line: blocked only if both sides block; else the less hindered side."""
        for step in run:
            feature = board.hexside_of(step.left, step.right)
            if feature in self.blocking_hexsides:
                where = f"hexside {board.label(step.left)}/{board.label(step.right)}"
                return f"{where} ({feature}) along the line"
        sides: list[tuple[str | None, list[Hindrance]]] = []
        for hexes in ([s.left for s in run], [s.right for s in run]):
            blocker: str | None = None
            found: list[Hindrance] = []
            for h in hexes:
                hex_blocker, hindrance = self._hex(board, h, a, b)
                blocker = blocker or hex_blocker
                if hindrance:
                    found.append(hindrance)
            sides.append((blocker, found))
        open_sides = [found for blocker, found in sides if blocker is None]
        if not open_sides:
            return f"{sides[0][0]} and {sides[1][0]} on both sides of a hexside line"
        return min(open_sides, key=lambda found: sum(h.modifier for h in found))


class EptSightRule:
    """:class:`EptLosPolicy`'s rule, over arrays of lines (the one definition).

    A line is blocked when its hexes block on both sides (a hex passed through is on both
    sides), when it crosses a blocking hexside away from its ends or runs along one, when
    blocking hexsides fan out on both sides of it at a corner away from its ends, or when the
    hindrances of its more open side reach the policy's ``hindrance_blocking`` (TABLE DES
    TERRAINS: "LOS blocked if sum of hindrances > +3"). Heights fold the blocking terrain in:
    a hex blocks when its height is above the lower end's level (:func:`higher_ground_blocks`).
    The dice modifier is the hindrance, +1 a hex, at most +3.
    """

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

    def feed(self, acc: Accumulators, window: StepWindow, ends: LineEnds) -> None:
        """The highest sight and the hindrances on each side; blocking hexsides."""
        del ends
        left, right = self.sight.take(window.left), self.sight.take(window.right)
        np.maximum(acc["left"], line_max(left), out=acc["left"])
        np.maximum(acc["right"], line_max(right), out=acc["right"])
        acc["left_hindrance"] += line_sum(left & 1)
        acc["right_hindrance"] += line_sum(right & 1)
        acc["blocked"] |= (
            line_any(self.side_blocks.take(window.across))
            | line_any(self.side_blocks.take(window.along))
            | line_any(self.corner_blocks.take(window.corner))
        )

    def _judged(self, acc: Accumulators) -> tuple[Bools, Int16s]:
        left_blocked = acc["left"] >> 8 > acc["lower"]
        right_blocked = acc["right"] >> 8 > acc["lower"]
        # The hexes passed through plus the more open side of a hexside line.
        never = np.int32(self.blocking)
        total = np.minimum(
            np.where(left_blocked, never, acc["left_hindrance"]),
            np.where(right_blocked, never, acc["right_hindrance"]),
        )
        blocked = acc["blocked"] | (left_blocked & right_blocked) | (total >= self.blocking)
        modifier = np.where(blocked, np.int16(0), self.dice.take(np.minimum(total, never)))
        return blocked, modifier.astype(np.int16)

    def settled(self, acc: Accumulators) -> Bools:
        """Blocked already: every part of the verdict only grows along the line."""
        return self._judged(acc)[0]

    def finish(self, acc: Accumulators, ends: LineEnds) -> tuple[Bools, Int16s]:
        """Visible and modifier per line."""
        del ends
        blocked, modifier = self._judged(acc)
        return ~blocked, modifier


EPT_LOS = EptLosPolicy()
"""The default EPT line-of-sight policy."""
