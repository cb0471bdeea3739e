"""EPT on the board: the terrain vocabulary of board files and the line-of-sight policy.

From the TABLE DES TERRAINS (seed 000): the starred terrains are visual hindrances, +1 per hex
traversed; "LOS blocked if sum of hindrances > +3"; the dice modifier counts at most +3. What
blocks outright, how a line along a hexside is read and how levels are seen over are not in
the seed: each is a named, documented setting of :class:`EptLosPolicy`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

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

    def judge(self, board: Board, a: Hex, b: Hex, steps: Sequence[Step]) -> LosVerdict:
        """Sum the visual hindrances along the line; a blocking hex or hexside stops it."""
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


EPT_LOS = EptLosPolicy()
"""The default EPT line-of-sight policy."""
