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
lines, :class:`firefight.board.visibility.SightRule`): the board's engine evaluates it for a
whole board (the LOS tool) and, in recording mode, for one line (``line_of_sight``). The
reasons of a verdict (:meth:`VvLosPolicy.explain`) are named from that record: the facts the
rule found at each step and its judgement (which 9.4 case a hexside line is), never from a
walk of their own.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

import numpy as np

from firefight.board.board import MAX_LABEL_NUMBER, Board
from firefight.board.hexes import Hex
from firefight.board.los import Hindrance, LosReasons
from firefight.board.visibility import (
    Accumulators,
    BoardCells,
    Bools,
    Corner,
    Facts,
    Fold,
    Ints,
    Judgement,
    LineEnds,
    LineRecord,
    StepRecord,
    StepWindow,
    Symmetry,
)
from firefight.rulesets.los_reasons import corner_where, first_blocker, hexside_where

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

MAX_LINE_HINDRANCE = 6 * 2 * MAX_LABEL_NUMBER
"""The most hindrance a V&V line of sight can add up on a valid board: 11,988. Hindrances are
cumulative (9.3, 13.4) with no cap in the rules, so an attack's ``hindrance`` input takes any
sum a board can produce. A line takes fewer than ``2 * MAX_LABEL_NUMBER`` steps (a board has
at most 999 columns and 999 rows), and :class:`VvSightRule` counts at most 6 at a step (a
hindrance hex passed through or one on each side of a hexside line, a hedge or wall run
along, one crossed, two meeting at a corner, the target hex's own)."""


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

    def sight_rule(self, cells: BoardCells) -> VvSightRule:
        """The rule on a board, for the engine of :mod:`firefight.board.visibility`."""
        return VvSightRule(cells)

    def explain(self, board: Board, record: LineRecord) -> LosReasons:
        """The reasons of :class:`VvSightRule`'s verdict on one line, named from its record:
        what blocks (:func:`~firefight.rulesets.los_reasons.first_blocker`), or each hindrance
        counted in the order the rules list them (9.3 and 10.10 along the line, 10.10 at
        corners, the 9.4 hexside line as the rule judged it, 9.3 in the target's hex)."""
        facts, judged = record.facts, record.judged
        if not record.visible:
            blocked_by = first_blocker(board, record, VvSightRule.blocks, "level {} hill")
            return LosReasons(blocked_by=blocked_by)
        found: list[Hindrance] = []
        for i, step in enumerate(record.steps):
            if step.across and facts["crossed"][i]:
                found.append(crossing(board, step.across))
            if facts["through"][i]:
                where = f"hex {board.label(step.left)}"
                found.append(Hindrance(where, board.terrain_of(step.left), 1))
        if judged["target_crossed"] and record.last_across:
            found.append(crossing(board, record.last_across))
        corners = [step.corner for i, step in enumerate(record.steps) if facts["corner_hinders"][i]]
        if judged["target_corner"]:
            corners.append(record.last_corner)
        found += [corner_hindrance(board, corner) for corner in corners if corner]
        runs = [(i, step) for i, step in enumerate(record.steps) if step.along]
        found += self._hexside_line(board, record, runs)
        if judged["target"]:
            where = f"hex {board.label(record.target)} (target)"
            found.append(Hindrance(where, board.terrain_of(record.target), 1))
        return LosReasons(tuple(found))

    def _hexside_line(
        self, board: Board, record: LineRecord, runs: list[tuple[int, StepRecord]]
    ) -> list[Hindrance]:
        """What the rule's 9.4 case (``hexside_case``) counts for a hexside line: the hedges
        and walls along it and the hindrances beside it, the pair that hinders it and each
        further hindrance, or the hindrances beside a side that blocks."""
        facts, case = record.facts, record.judged["hexside_case"]
        features = [
            Hindrance(
                hexside_where(board, (step.left, step.right)) + " along",
                str(board.hexside_of(step.left, step.right)),
                1,
            )
            for i, step in runs
            if facts["features"][i]
        ]
        beside = [
            [
                Hindrance(f"hex {board.label(h)} beside the line", board.terrain_of(h), 1)
                for i, step in runs
                if facts[f"beside_{name}"][i]
                for h in [step.left if name == "left" else step.right]
            ]
            for name in ("left", "right")
        ]
        every = beside[0] + beside[1]
        if case == HEXSIDE_FEATURES_ALONG:
            return features + every
        if case == HEXSIDE_PAIR:
            first, second = beside[0][0], beside[1][0]
            pair = Hindrance(f"{first.where} and {second.where}", "hexside line", 1)
            return [pair, *(h for h in every if h not in (first, second))]
        if case == HEXSIDE_ONE_BLOCKS:
            return every
        return []


def crossing(board: Board, side: tuple[Hex, Hex]) -> Hindrance:
    """A wall or hedge crossed (10.10), +1."""
    return Hindrance(hexside_where(board, side), str(board.hexside_of(*side)), 1)


def corner_hindrance(board: Board, corner: Corner) -> Hindrance:
    """Walls or hedges meeting at a corner of the line (chapter 9, unit A), +1."""
    full, left, right = corner
    one, other = board.hexside_of(full, left), board.hexside_of(full, right)
    what = str(one) if one == other else f"{one} and {other}"
    return Hindrance(corner_where(board, corner), what, 1)


_HINDERS, _LEVEL_1 = 1, 2
_SIDE_HINDERS, _SIDE_BLOCKS = 1, 2
HEXSIDE_NONE, HEXSIDE_FEATURES_ALONG, HEXSIDE_PAIR, HEXSIDE_ONE_BLOCKS = 0, 1, 2, 3
"""The 9.4 cases of a hexside line (:meth:`VvSightRule.judge`'s ``hexside_case``): nothing
counts (one side open); hedges or walls run along (+1 each, plus each hindrance beside); both
sides hinder (+1 the pair, +1 each further); one side blocks and the other hinders (+1 each)."""


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

    Facts of a step (:meth:`steps`): ``left`` and ``right``, the sight of the hex on each side;
    ``level_1``, its level-1 hexes (``_LEVEL_1`` each), and ``level_1_steps``, the same times
    the step's number (one level-1 hex on a line sums to its step); ``through``, a hindrance
    hex passed through; ``beside_left`` and ``beside_right``, one beside a hexside line;
    ``features``, a hedge or wall run along; ``crossed`` and ``corner_hinders``, one crossed
    or two meeting at a corner; ``across_blocks``, ``along_blocks`` and ``corner_blocks``,
    hedgerows. Judgement (:meth:`judge`): ``lower``
    (the level a hex must stand above to block: 1 past a slope hex), ``left_blocked``,
    ``right_blocked``, ``hexside_case`` and ``hexside_line`` (9.4), ``target_crossed`` and
    ``target_corner`` (10.10 into the target's hex), ``target`` (9.3), ``visible``,
    ``modifier``.
    """

    symmetry: Final[Symmetry] = "visibility"
    """The line back is blocked as the line forth is: the same hexes, hexsides and corners
    block (hedgerows at both ends exempt alike), the lower end is the same and the 10.7 slope
    hex is the one next to the level-2 end either way. Its modifier is not the same: the
    target's hex (9.3) and the hexside and corner entering it (10.10) count, the firer's do
    not."""

    folds: Final[Mapping[str, tuple[str, Fold]]] = {
        "level_1": ("level_1", "sum"),
        "level_1_steps": ("level_1_steps", "sum"),
        "left": ("left", "max"),
        "right": ("right", "max"),
        "across_blocks": ("blocked", "any"),
        "along_blocks": ("blocked", "any"),
        "corner_blocks": ("blocked", "any"),
        "through": ("through", "sum"),
        "beside_left": ("beside_left", "sum"),
        "beside_right": ("beside_right", "sum"),
        "features": ("features", "sum"),
        "crossed": ("crossed", "sum"),
        "corner_hinders": ("crossed", "sum"),
    }

    def __init__(self, cells: BoardCells) -> None:
        self.level = cells.elevation
        self.target_hinders = cells.terrain_in(HINDRANCES)
        flags = self.target_hinders * _HINDERS + (cells.elevation == 1) * _LEVEL_1
        self.sight = cells.sight_table(cells.terrain_in(BLOCKING), flags.astype(np.int32))
        codes = dict.fromkeys(HINDERING_HEXSIDES, _SIDE_HINDERS) | {"hedgerow": _SIDE_BLOCKS}
        self.side = cells.side_table(cells.feature_codes(codes), 0)
        self.corners = cells.corner_table(self.side)  # both bits: one look-up a step
        self.corner_blocks = self.corners & _SIDE_BLOCKS
        self.corner_hinders = self.corners & _SIDE_HINDERS

    @staticmethod
    def blocks(sight: Ints | int, lower: Ints | int) -> Bools:
        """Whether a sight (a hex's, or the highest of a side's) stands above ``lower``."""
        return np.asarray(np.right_shift(sight, 8) > lower)

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
            "level_1_steps": zeros(),
            "blocked": np.zeros(count, dtype=np.bool_),
            "through": zeros(),
            "beside_left": zeros(),
            "beside_right": zeros(),
            "features": zeros(),
            "crossed": zeros(),
        }

    def steps(self, acc: Accumulators, window: StepWindow, ends: LineEnds) -> Facts:
        """What each step of a window contributes."""
        del acc, ends
        along = window.left != window.right
        left_sight, right_sight = self.sight.take(window.left), self.sight.take(window.right)
        left_cell = left_sight & 255
        right_cell = (right_sight & 255) * along  # the right side of hexside steps only
        level_1 = (left_cell & _LEVEL_1) + (right_cell & _LEVEL_1)
        number = np.arange(window.first, window.first + len(along), dtype=np.int32)
        hinders_left = left_cell & _HINDERS
        beside_left = hinders_left * along
        across, run = self.side.take(window.across), self.side.take(window.along)
        corner = self.corners.take(window.corner)
        return {
            "level_1": level_1,
            "level_1_steps": level_1 * number[:, None],
            "left": left_sight,
            "right": right_sight,
            "across_blocks": across & _SIDE_BLOCKS,
            "along_blocks": run & _SIDE_BLOCKS,
            "corner_blocks": corner & _SIDE_BLOCKS,
            "through": hinders_left - beside_left,
            "beside_left": beside_left,
            "beside_right": right_cell & _HINDERS,
            "features": run & _SIDE_HINDERS,
            "crossed": across & _SIDE_HINDERS,
            "corner_hinders": corner & _SIDE_HINDERS,
        }

    def reverse(self, acc: Accumulators, ends: LineEnds, back: LineEnds) -> Accumulators:
        """The accumulators of the lines back (``back``: their ends) from those of the lines
        forth after all their steps: the line back meets the same steps in reverse order, the
        same hex on each side of each, so every fact folds alike but for its step's number
        (``n - k`` for the ``k``-th of ``n``)."""
        found = self.start(back)
        for into, _ in self.folds.values():
            found[into] = acc[into]
        found["level_1_steps"] = acc["level_1"] * ends.distance - acc["level_1_steps"]
        return found

    def _blocked(self, acc: Accumulators, lower: Ints) -> tuple[Bools, Bools, Bools]:
        left_blocked = self.blocks(acc["left"], lower)
        right_blocked = self.blocks(acc["right"], lower)
        return acc["blocked"] | (left_blocked & right_blocked), left_blocked, right_blocked

    def settled(self, acc: Accumulators) -> Bools:
        """Blocked already, whatever the slope turns out to be."""
        return self._blocked(acc, acc["lower_bound"])[0]

    def judge(self, acc: Accumulators, ends: LineEnds) -> Judgement:
        """Visible and modifier per line, and the decisions they rest on."""
        # one level-1 hex (its bit, _LEVEL_1, once), at the step next to the level-2 end
        one = acc["level_1"] == _LEVEL_1
        slope = acc["slope"] & one & (acc["level_1_steps"] == _LEVEL_1 * acc["slope_step"])
        lower = np.where(slope, 1, np.minimum(acc["level_a"], acc["level_b"]))
        blocked, left_blocked, right_blocked = self._blocked(acc, lower)
        beside_left, beside_right = acc["beside_left"], acc["beside_right"]
        beside, features = beside_left + beside_right, acc["features"]
        one_blocks_other_hinders = (left_blocked & (beside_right > 0)) | (
            right_blocked & (beside_left > 0)
        )
        case = np.where(
            features > 0,
            HEXSIDE_FEATURES_ALONG,
            np.where(
                (beside_left > 0) & (beside_right > 0),
                HEXSIDE_PAIR,
                np.where(one_blocks_other_hinders, HEXSIDE_ONE_BLOCKS, HEXSIDE_NONE),
            ),
        )
        hexside_line = np.where(
            case == HEXSIDE_FEATURES_ALONG,
            features + beside,
            np.where(
                case == HEXSIDE_PAIR,
                beside - 1,  # the pair that hinders counts +1, each further one +1
                np.where(case == HEXSIDE_ONE_BLOCKS, beside, 0),
            ),
        )
        # 10.10 at the target's end: the hexside crossed into it, the corner it meets there.
        target_crossed = self.side.take(ends.last_across) & _SIDE_HINDERS
        target_corner = self.corner_hinders.take(ends.last_corner)
        # 9.3: a hindrance in the target's hex.
        target = self.target_hinders.take(ends.target) & (ends.distance > 0)
        total = acc["through"] + hexside_line + acc["crossed"] + target_crossed + target_corner
        total += target
        return {
            "lower": lower,
            "left_blocked": left_blocked,
            "right_blocked": right_blocked,
            "hexside_case": case,
            "hexside_line": hexside_line,
            "target_crossed": target_crossed,
            "target_corner": target_corner,
            "target": target,
            "visible": ~blocked,
            "modifier": np.where(blocked, 0, total).astype(np.int16),
        }


VV_LOS = VvLosPolicy()
"""The default V&V line-of-sight policy."""
