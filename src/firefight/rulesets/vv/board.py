"""V&V on the board: the terrain vocabulary of board files and the line-of-sight policy.

Chapters 9 (line of sight) and 10 (terrain) of the V&V rules (``shared/research``):

* blocking terrain (buildings, woods, jungle) blocks a line through the hex, not into or out
  of it (9.2);
* hindrances (orchard, haystack, palm grove, crops) add +1 each, into or through the hex
  (9.3, 10.8, 10.9);
* walls and hedges crossed add +1, except for a firer adjacent to them (10.10), and so do two
  that meet at a corner of a hexside line, one on each side of it (the line passes between
  them into the hex they bound: chapter 9's Cover Modifier Examples, unit A); hedgerows block
  beyond the hex they bound (10.101), and where two meet at such a corner;
* hexside lines (9.4): blocked when blocking terrain lies on both sides or a hedgerow runs
  along; hindered (+1) when one side blocks or hinders and the other hinders, or a hedge or
  wall runs along, each further hindrance adding +1; clear when one side is open;
* hills (10.7): higher ground between blocks; a plateau at the level of both ends does not;
  a single level-1 slope hex next to a level-2 end does not.
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
    Step,
    Through,
    blocking_corner,
    hexside_path,
    higher_ground_blocks,
    touches,
    vertex_hexsides,
)

HEX_TERRAINS = frozenset(
    {
        "open",
        "road",
        "bridge",
        "building",
        "woods",
        "jungle",
        "stream",
        "gully",
        "wadi",
        "orchard",
        "haystack",
        "palm_grove",
        "field",
        "crops",
        "canal",
        "pond",
        "marsh",
        "ocean",
        "river",
        "beach",
    }
)
HEXSIDE_FEATURES = frozenset({"wall", "hedge", "hedgerow"})
BLOCKING = frozenset({"building", "woods", "jungle"})
HINDRANCES = frozenset({"orchard", "haystack", "palm_grove", "crops"})
HINDERING_HEXSIDES = frozenset({"wall", "hedge"})


@dataclass(frozen=True)
class VvLosPolicy:
    """V&V line of sight (chapters 9 and 10). The readings where the text leaves room:

    * a hedgerow crossed blocks unless it is a side of the firer's or the target's hex ("units
      may see into a hedgerow hex, but not beyond");
    * a hexside line that passes a corner where hedgerows fan out on both sides of it is
      blocked (they meet across the line), with the same exception; one hedgerow on one side
      only grazes the line;
    * hedges or walls that meet at such a corner, one on each side of the line, hinder +1 as
      one crossed does (10.10): the line passes between them into the hex they bound. Chapter
      9's Cover Modifier Examples (unit A) count +1 "for the hedge" on fire from units 1 and 2
      into A's hedged hex, lines that enter it through such a corner. The firer's own are
      exempt as a crossed one is ("firing over the wall": unit A fires out freely); a
      hedgerow among them counts for neither (it blocks beside another, away from the ends);
    * a hexside line once hindered counts +1 for the pair that hinders it and +1 for each
      further hindrance hex or hexside along it (9.4);
    * the slope exception of 10.7 applies to one level-1 hex adjacent to the level-2 end when
      the other end is at ground level.
    """

    ruleset: str = "vv"
    default_terrain: str = "open"
    hex_terrains: frozenset[str] = HEX_TERRAINS
    hexside_features: frozenset[str] = HEXSIDE_FEATURES

    def _slope(self, board: Board, a: Hex, b: Hex, steps: Sequence[Step]) -> Hex | None:
        """The one level-1 slope hex that 10.7 lets a level-2 unit see past, if any."""
        levels = {board.elevation_of(a): a, board.elevation_of(b): b}
        if set(levels) != {0, 2}:
            return None
        crossed = {
            h
            for step in steps
            for h in (
                (step.hex,)
                if isinstance(step, Through)
                else (step.left, step.right)
                if isinstance(step, Along)
                else ()
            )
            if board.elevation_of(h) == 1
        }
        high = levels[2]
        if len(crossed) == 1 and next(iter(crossed)).distance(high) == 1:
            return next(iter(crossed))
        return None

    def _blocks(self, board: Board, h: Hex, a: Hex, b: Hex, slope: Hex | None) -> str | None:
        level = board.elevation_of(h)
        if h != slope and higher_ground_blocks(level, board.elevation_of(a), board.elevation_of(b)):
            return f"hex {board.label(h)} (level {level} hill)"
        terrain = board.terrain_of(h)
        if terrain in BLOCKING:
            return f"hex {board.label(h)} ({terrain})"
        return None

    def judge(self, board: Board, a: Hex, b: Hex, steps: Sequence[Step]) -> LosVerdict:
        """Apply chapters 9 and 10 to the steps of the line."""
        distance = a.distance(b)
        slope = self._slope(board, a, b, steps)
        hindrances: list[Hindrance] = []
        for step in steps:
            if isinstance(step, Through):
                blocker = self._blocks(board, step.hex, a, b, slope)
                if blocker:
                    return LosVerdict("blocked", distance, blocked_by=blocker)
                terrain = board.terrain_of(step.hex)
                if terrain in HINDRANCES:
                    hindrances.append(Hindrance(f"hex {board.label(step.hex)}", terrain, 1))
            elif isinstance(step, Across):
                side = (step.before, step.after)
                feature = board.hexside_of(*side)
                where = f"hexside {board.label(step.before)}/{board.label(step.after)}"
                if feature == "hedgerow" and not touches(side, a, b):
                    return LosVerdict("blocked", distance, blocked_by=f"{where} (hedgerow)")
                if feature in HINDERING_HEXSIDES and not touches(side, a):
                    hindrances.append(Hindrance(where, feature, 1))
        corner = blocking_corner(board, a, b, steps, {"hedgerow"})
        if corner:
            return LosVerdict("blocked", distance, blocked_by=corner)
        hindrances.extend(self._corners(board, a, b, steps))
        run = hexside_path(steps)
        if run:
            outcome = self._along(board, a, b, run, slope)
            if isinstance(outcome, str):
                return LosVerdict("blocked", distance, blocked_by=outcome)
            hindrances.extend(outcome)
        target = board.terrain_of(b)
        if target in HINDRANCES and distance > 0:
            hindrances.append(Hindrance(f"hex {board.label(b)} (target)", target, 1))
        total = sum(h.modifier for h in hindrances)
        return LosVerdict(
            "hindered" if total else "clear", distance, tuple(hindrances), modifier=total
        )

    def _corners(self, board: Board, a: Hex, b: Hex, steps: Sequence[Step]) -> list[Hindrance]:
        """V&V 10.10 at the corners of a hexside line: +1 where a wall or hedge fans out on
        each side of it, unless they are the firer's own hexsides."""
        found = []
        for first, second in vertex_hexsides(a, b, steps):
            if touches(first, a) or touches(second, a):
                continue
            one, other = board.hexside_of(*first), board.hexside_of(*second)
            if one in HINDERING_HEXSIDES and other in HINDERING_HEXSIDES:
                where = " and ".join(
                    f"hexside {board.label(m)}/{board.label(h)}" for m, h in (first, second)
                )
                what = one if one == other else f"{one} and {other}"
                found.append(Hindrance(f"{where} meeting at a corner of the line", what, 1))
        return found

    def _along(
        self, board: Board, a: Hex, b: Hex, run: list[Along], slope: Hex | None
    ) -> str | list[Hindrance]:
        """V&V 9.4: a line along hexsides, judged from both of its sides."""
        features = []
        for step in run:
            feature = board.hexside_of(step.left, step.right)
            where = f"hexside {board.label(step.left)}/{board.label(step.right)}"
            if feature == "hedgerow":
                return f"{where} (hedgerow) along the line"
            if feature in HINDERING_HEXSIDES:
                features.append(Hindrance(where + " along", feature, 1))
        blocked: list[str] = []
        hindering: list[list[Hindrance]] = []
        for side in ([s.left for s in run], [s.right for s in run]):
            side_blockers = [x for x in (self._blocks(board, h, a, b, slope) for h in side) if x]
            blocked.append(side_blockers[0] if side_blockers else "")
            hindering.append(
                [
                    Hindrance(f"hex {board.label(h)} beside the line", board.terrain_of(h), 1)
                    for h in side
                    if board.terrain_of(h) in HINDRANCES
                ]
            )
        if blocked[0] and blocked[1]:
            return f"{blocked[0]} and {blocked[1]} on both sides of a hexside line"
        beside = hindering[0] + hindering[1]
        if features:
            return features + beside
        if hindering[0] and hindering[1]:
            # The pair that hinders the line counts +1; each further hindrance +1.
            first, second = hindering[0][0], hindering[1][0]
            pair = Hindrance(f"{first.where} and {second.where}", "hexside line", 1)
            return [pair, *(h for h in beside if h not in (first, second))]
        if (blocked[0] and hindering[1]) or (blocked[1] and hindering[0]):
            return beside
        return []


VV_LOS = VvLosPolicy()
"""The default V&V line-of-sight policy."""
