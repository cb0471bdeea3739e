"""Line of sight (rules 5): woods and villages block, a hedge crossed or run along blocks, each
scrub hex passed hinders (-1 to the fire roll, at most -2). A line along a hexside is as open
as its more open side. The ends' own hexes and hexsides never count.

The rule is written once over arrays of lines (:class:`~firefight.api.SightRule`): firefight's
board engine runs it for a whole board and, recorded, for one line, which :meth:`explain`
names the reasons from.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

import numpy as np

from firefight.api import (
    Accumulators,
    Board,
    BoardCells,
    Bools,
    Facts,
    Fold,
    Hindrance,
    Judgement,
    LineEnds,
    LineRecord,
    LosReasons,
    StepWindow,
)

BLOCKING = frozenset({"woods", "village"})
HINDERING = frozenset({"scrub"})
MOST_HINDRANCE = 2


class HedgerowSightRule:
    """Per step, each side's blocking and hindering hex and the hedges met; per line, the
    more open side's sum."""

    folds: Final[Mapping[str, tuple[str, Fold]]] = {
        "left_blocks": ("left_blocks", "any"),
        "right_blocks": ("right_blocks", "any"),
        "left_scrub": ("left_scrub", "sum"),
        "right_scrub": ("right_scrub", "sum"),
        "hedge_across": ("hedge", "any"),
        "hedge_along": ("hedge", "any"),
    }

    def __init__(self, cells: BoardCells) -> None:
        self.blocks = cells.cell_table(cells.terrain_in(BLOCKING), False)
        self.scrub = cells.cell_table(cells.terrain_in(HINDERING).astype(np.int32), 0)
        self.hedge = cells.side_table(cells.features_in({"hedge"}), False)

    def start(self, ends: LineEnds) -> Accumulators:
        """Nothing met yet."""
        count = len(ends.source)
        return {
            "left_blocks": np.zeros(count, dtype=np.bool_),
            "right_blocks": np.zeros(count, dtype=np.bool_),
            "left_scrub": np.zeros(count, dtype=np.int32),
            "right_scrub": np.zeros(count, dtype=np.int32),
            "hedge": np.zeros(count, dtype=np.bool_),
        }

    def steps(self, acc: Accumulators, window: StepWindow, ends: LineEnds) -> Facts:
        """Each side's hex blocking or hindering; a hedge crossed or run along."""
        del acc, ends
        return {
            "left_blocks": self.blocks.take(window.left),
            "right_blocks": self.blocks.take(window.right),
            "left_scrub": self.scrub.take(window.left),
            "right_scrub": self.scrub.take(window.right),
            "hedge_across": self.hedge.take(window.across),
            "hedge_along": self.hedge.take(window.along),
        }

    def settled(self, acc: Accumulators) -> Bools:
        """A hedge, or both sides blocked, blocks whatever follows."""
        return np.asarray(acc["hedge"] | (acc["left_blocks"] & acc["right_blocks"]))

    def judge(self, acc: Accumulators, ends: LineEnds) -> Judgement:
        """Blocked by a hedge or by both sides; else the more open side's scrub, at most 2."""
        del ends
        left_open, right_open = ~acc["left_blocks"], ~acc["right_blocks"]
        right_chosen = right_open & (~left_open | (acc["right_scrub"] < acc["left_scrub"]))
        total = np.where(right_chosen, acc["right_scrub"], acc["left_scrub"])
        visible = ~acc["hedge"] & (left_open | right_open)
        modifier = np.where(visible, np.minimum(total, MOST_HINDRANCE), 0)
        return {
            "right_chosen": right_chosen,
            "visible": visible,
            "modifier": modifier.astype(np.int16),
        }


@dataclass(frozen=True)
class HedgerowLosPolicy:
    """Hedgerow Skirmish's terrain vocabulary and line-of-sight rule."""

    ruleset: str = "hedgerow"
    default_terrain: str = "open"
    hex_terrains: frozenset[str] = frozenset({"open", "scrub", "woods", "village"})
    hexside_features: frozenset[str] = frozenset({"hedge"})

    def sight_rule(self, cells: BoardCells) -> HedgerowSightRule:
        """The rule on a board."""
        return HedgerowSightRule(cells)

    def explain(self, board: Board, record: LineRecord) -> LosReasons:
        """What blocks (5.1), or each scrub hex counted on the side the rule took (5.2)."""
        facts, judged = record.facts, record.judged
        if not record.visible:
            hedges = [s for s, hit in zip(record.steps, _either(facts), strict=True) if hit]
            if hedges:
                return LosReasons(blocked_by=f"a hedge at step {hedges[0].number} (5.1)")
            return LosReasons(blocked_by="woods or a village on both sides (5.1)")
        side = "right" if judged["right_chosen"] else "left"
        hindrances = tuple(
            Hindrance(f"hex {board.label(hexes)}", board.terrain_of(hexes), 1)
            for step, count in zip(record.steps, facts[f"{side}_scrub"], strict=True)
            if count
            for hexes in [step.right if side == "right" else step.left]
        )
        return LosReasons(hindrances)


def _either(facts: Mapping[str, tuple[int, ...]]) -> list[bool]:
    return [bool(a or b) for a, b in zip(facts["hedge_across"], facts["hedge_along"], strict=True)]


HEDGEROW_LOS = HedgerowLosPolicy()
"""The rule set's line-of-sight policy (``RuleSet.sight``)."""
