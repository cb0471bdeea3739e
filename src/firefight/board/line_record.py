"""The record of one line: each step's facts and the judgement, as
:func:`firefight.board.visibility.record_line` keeps them and
:func:`firefight.board.los.line_of_sight` reports them (:mod:`firefight.board.visibility`, its
section "the march", recording mode).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from firefight.board.hexes import Hex
from firefight.board.sight_rule import (
    SightRule,
)

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
