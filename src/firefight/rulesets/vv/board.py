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

The rule is written once, as :class:`VvSightRule` (a reduction along the line over arrays of
lines, :class:`firefight.board.visibility.SightRule`): the board's engine evaluates it for one
line (``line_of_sight``) and for a whole board (the LOS tool) alike. :meth:`VvLosPolicy.explain`
walks the line to name what the rule counted (the reasons of a verdict), and a property test
keeps the two in step.
"""

from __future__ import annotations

import functools
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
    Step,
    Through,
    blocking_corner,
    hexside_path,
    higher_ground_blocks,
    touches,
    vertex_hexsides,
)
from firefight.board.visibility import (
    Accumulators,
    BoardCells,
    Bools,
    Int16s,
    Ints,
    LineEnds,
    StepWindow,
    line_any,
    line_max,
    line_sum,
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

    def sight_rule(self, cells: BoardCells) -> VvSightRule:
        """The rule on a board, for the engine of :mod:`firefight.board.visibility`."""
        return VvSightRule(cells)

    def explain(self, board: Board, a: Hex, b: Hex, steps: Sequence[Step]) -> LosVerdict:
        """The reasons: chapters 9 and 10 applied to the steps of the line, named."""
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


_HINDERS, _LEVEL_1 = 1, 2
_SIDE_HINDERS, _SIDE_BLOCKS = 1, 2


class VvSightRule:
    """:class:`VvLosPolicy`'s rule, over arrays of lines (the one definition): V&V 9.2-9.4,
    10.7, 10.10, 10.101, and chapter 9's Cover Modifier Examples for hedges and walls at a
    corner.

    * 9.2, 9.4: blocked by blocking terrain passed through, or on both sides of a hexside
      line; 10.7: by a hex higher than the lower end; 10.101: by a hedgerow crossed away from
      the ends, run along, or meeting another at a corner of the line.
    * 9.3: +1 a hindrance hex passed through, +1 a hindrance in the target's hex; 9.4: a
      hexside line hindered on both sides counts +1 for the pair and +1 for each further
      hindrance, one side blocking and the other hindering counts its hindrances, a hedge or
      wall run along counts +1 each plus the hindrances beside it; 10.10: +1 a wall or hedge
      crossed (not the firer's own hexside) and +1 where two meet at a corner of the line.
    * 10.7's slope hex (the only level-1 hex crossed, next to the level-2 end, the other end at
      ground level) is exempted by letting that line see over level 1.
    """

    def __init__(self, cells: BoardCells) -> None:
        self.level = cells.elevation
        self.target_hinders = cells.terrain_in(HINDRANCES)
        flags = self.target_hinders * _HINDERS + (cells.elevation == 1) * _LEVEL_1
        self.sight = cells.sight_table(cells.terrain_in(BLOCKING), flags.astype(np.int32))
        codes = dict.fromkeys(HINDERING_HEXSIDES, _SIDE_HINDERS) | {"hedgerow": _SIDE_BLOCKS}
        self.side = cells.side_table(cells.feature_codes(codes), 0)
        self.corner_blocks = cells.corner_table(self.side & _SIDE_BLOCKS)
        self.corner_hinders = cells.corner_table(self.side & _SIDE_HINDERS)

    def start(self, ends: LineEnds) -> Accumulators:
        """Nothing seen yet; where a 10.7 slope hex would have to be."""
        count = len(ends.source)
        level_a, level_b = self.level[ends.source], self.level[ends.target]
        slope = ((level_a == 0) & (level_b == 2)) | ((level_a == 2) & (level_b == 0))
        lowest = np.iinfo(self.sight.dtype).min
        zeros = functools.partial(np.zeros, count, dtype=np.int32)
        return {
            "level_a": level_a,
            "level_b": level_b,
            "slope": slope,
            # Settled by height only above the highest the lower end can be (1 on a slope).
            "lower_bound": np.where(slope, 1, np.minimum(level_a, level_b)),
            "slope_step": np.maximum(np.where(level_a == 2, 0, ends.distance - 2), 0) + 1,
            "left": np.full(count, lowest, dtype=self.sight.dtype),
            "right": np.full(count, lowest, dtype=self.sight.dtype),
            "level_1": zeros(),
            "level_1_at_slope": zeros(),
            "blocked": np.zeros(count, dtype=np.bool_),
            "through": zeros(),
            "beside_left": zeros(),
            "beside_right": zeros(),
            "features": zeros(),
            "crossed": zeros(),
        }

    def feed(self, acc: Accumulators, window: StepWindow, ends: LineEnds) -> None:
        """Fold a window of steps in."""
        del ends
        along = window.left != window.right
        left_sight, right_sight = self.sight.take(window.left), self.sight.take(window.right)
        left_cell = left_sight & 255
        right_cell = (right_sight & 255) * along  # the right side of hexside steps only
        ones_left, ones_right = left_cell & _LEVEL_1, right_cell & _LEVEL_1
        acc["level_1"] += line_sum(ones_left) + line_sum(ones_right)
        row = acc["slope_step"] - window.first
        here = np.flatnonzero((row >= 0) & (row < len(along)))
        if len(here):
            acc["level_1_at_slope"][here] = ones_left[row[here], here] + ones_right[row[here], here]
        np.maximum(acc["left"], line_max(left_sight), out=acc["left"])
        np.maximum(acc["right"], line_max(right_sight), out=acc["right"])
        across, run = self.side.take(window.across), self.side.take(window.along)
        acc["blocked"] |= (
            line_any(across & _SIDE_BLOCKS)
            | line_any(run & _SIDE_BLOCKS)
            | line_any(self.corner_blocks.take(window.corner))
        )
        hinders_left = left_cell & _HINDERS
        beside_left = line_sum(hinders_left * along)
        acc["through"] += line_sum(hinders_left) - beside_left
        acc["beside_left"] += beside_left
        acc["beside_right"] += line_sum(right_cell & _HINDERS)
        acc["features"] += line_sum(run & _SIDE_HINDERS)
        acc["crossed"] += line_sum(across & _SIDE_HINDERS)
        acc["crossed"] += line_sum(self.corner_hinders.take(window.corner))

    def _blocked(self, acc: Accumulators, lower: Ints) -> tuple[Bools, Bools, Bools]:
        left_blocked = acc["left"] >> 8 > lower
        right_blocked = acc["right"] >> 8 > lower
        return acc["blocked"] | (left_blocked & right_blocked), left_blocked, right_blocked

    def settled(self, acc: Accumulators) -> Bools:
        """Blocked already, whatever the slope turns out to be."""
        return self._blocked(acc, acc["lower_bound"])[0]

    def finish(self, acc: Accumulators, ends: LineEnds) -> tuple[Bools, Int16s]:
        """Visible and modifier per line."""
        slope = acc["slope"] & (acc["level_1"] == _LEVEL_1) & (acc["level_1_at_slope"] == _LEVEL_1)
        lower = np.where(slope, 1, np.minimum(acc["level_a"], acc["level_b"]))
        blocked, left_blocked, right_blocked = self._blocked(acc, lower)
        beside_left, beside_right = acc["beside_left"], acc["beside_right"]
        beside, features = beside_left + beside_right, acc["features"]
        one_blocks_other_hinders = (left_blocked & (beside_right > 0)) | (
            right_blocked & (beside_left > 0)
        )
        hexside_line = np.where(
            features > 0,
            features + beside,
            np.where(
                (beside_left > 0) & (beside_right > 0),
                beside - 1,  # the pair that hinders counts +1, each further one +1
                np.where(one_blocks_other_hinders, beside, 0),
            ),
        )
        # 10.10 at the target's end: the hexside crossed into it, the corner it meets there.
        crossed = acc["crossed"] + (self.side.take(ends.last_across) & _SIDE_HINDERS)
        crossed += self.corner_hinders.take(ends.last_corner)
        # 9.3: a hindrance in the target's hex.
        target = self.target_hinders.take(ends.target) & (ends.distance > 0)
        total = acc["through"] + hexside_line + crossed + target
        return ~blocked, np.where(blocked, 0, total).astype(np.int16)


VV_LOS = VvLosPolicy()
"""The default V&V line-of-sight policy."""
