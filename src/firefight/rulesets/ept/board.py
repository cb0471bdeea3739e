"""EPT on the board: the terrain vocabulary of board files and the line-of-sight policy.

The rule is written once, as :class:`~firefight.rulesets.ept.sight.EptSightRule` (a reduction
along the line over arrays of lines, :class:`firefight.board.visibility.SightRule`, numpy's,
imported when a board's sight is first judged): the board's engine evaluates it for a whole
board (the LOS tool) and, in recording mode, for one line (``line_of_sight``). The
reasons of a verdict (:meth:`EptLosPolicy.explain`) are named from that record: the facts the
rule found at each step and its judgement (which side of a hexside line counts), never from a
walk of their own.

From the TABLE DES TERRAINS (seed 000): the starred terrains are visual hindrances, +1 per hex
traversed; "LOS blocked if sum of hindrances > +3"; the dice modifier counts at most +3. What
blocks outright, how a line along a hexside is read and how levels are seen over are not in
the seed: each is a named, documented setting of :class:`EptLosPolicy`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from firefight.board.los import Hindrance, LosReasons

if TYPE_CHECKING:
    from firefight.board.board import Board
    from firefight.board.visibility import BoardCells, LineRecord
    from firefight.rulesets.ept.sight import EptSightRule
    from firefight.rulesets.ept.terrain import HindranceBlocking

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
        from firefight.rulesets.ept.sight import EptSightRule  # noqa: PLC0415 - numpy's

        return EptSightRule(self, cells)

    def explain(self, board: Board, record: LineRecord) -> LosReasons:
        """The reasons of :class:`EptSightRule`'s verdict on one line, named from its record:
        what blocks (:func:`~firefight.rulesets.los_reasons.first_blocker`, then the
        hindrance sum), or each visual hindrance counted (the hexes passed through, then those
        of the side of a hexside line the rule took)."""
        from firefight.rulesets.ept.sight import EptSightRule  # noqa: PLC0415 - numpy's
        from firefight.rulesets.los_reasons import first_blocker  # noqa: PLC0415 - numpy's

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


EPT_LOS = EptLosPolicy()
"""The default EPT line-of-sight policy."""
