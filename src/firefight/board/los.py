"""Line of sight as a value: clear, hindered (with each hindrance) or blocked (by what).

The centre-to-centre line is traced twice, nudged a hair to each side. Where both traces agree
the line passes *through* a hex, or *across* the hexside between two consecutive hexes; where
they differ the line runs *along* the hexside between the two hexes they found, and both are
its sides. :func:`trace` gives these steps as values (:mod:`firefight.board.sight`; the
geometry's reference: the engine of :mod:`firefight.board.visibility` holds the same steps as
bytes, and tests check the two agree). A rule set's :class:`LosPolicy` judges them: what
blocks, what hinders, how a hexside line combines its two sides, and how levels are seen over.

The verdict (visible, and the dice modifier) is the policy's rule, written once in its rule set
as a :class:`~firefight.board.visibility.SightRule` and evaluated here on the one line by the
same engine that answers a whole board, in recording mode
(:func:`~firefight.board.visibility.record_line`: the facts the rule found at each step and
its judgement); the policy's ``explain`` names the reasons from that record, without a walk of
its own. The board knows only these interfaces: it never imports a rule set.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, Protocol

from firefight.board.board import Board, TerrainVocabulary
from firefight.board.hexes import Hex, lines_between
from firefight.board.sight import Across, Along, Step, Through

if TYPE_CHECKING:
    from firefight.board.visibility import BoardCells, LineRecord, SightRule

__all__ = [
    "Across",
    "Along",
    "Hindrance",
    "LosPolicy",
    "LosReasons",
    "LosVerdict",
    "Side",
    "Status",
    "Step",
    "Through",
    "hex_range",
    "line_of_sight",
    "trace",
    "vertex_hexsides",
    "visible_from",
]

Status = Literal["clear", "hindered", "blocked"]


def trace(a: Hex, b: Hex) -> list[Step]:
    """The steps of the line from the centre of ``a`` to the centre of ``b``."""
    plus, minus = lines_between(a, b)
    steps: list[Step] = []
    last = len(plus) - 1
    for i in range(1, last + 1):
        here_plus, here_minus = plus[i], minus[i]
        if here_plus != here_minus:
            steps.append(Along(here_plus, here_minus))
            continue
        if plus[i - 1] == minus[i - 1]:
            steps.append(Across(plus[i - 1], here_plus))
        if i < last:
            steps.append(Through(here_plus))
    return steps


Side = tuple[Hex, Hex]


def vertex_hexsides(a: Hex, b: Hex, steps: Sequence[Step]) -> list[tuple[Side, Side]]:
    """The pairs of hexsides that fan out on either side of the line at its corners.

    A line along a hexside (an :class:`Along` step) reaches it through a corner and leaves it
    through another: the corner before is shared by ``left``, ``right`` and the previous full
    hex (the previous :class:`Through` hex, or ``a``), the corner after by ``left``, ``right``
    and the next full hex (the next :class:`Through` hex, or ``b``). At a corner shared by
    ``left``, ``right`` and a full hex ``m``, the line passes between the hexsides ``(m,
    left)`` and ``(m, right)``, which fan out on either side of it: this returns those pairs,
    in the order the line meets the corners. (The trace reads a line that meets a hexside
    exactly at its midpoint as running along it, so such a single :class:`Along` step has its
    two corners too.)
    """
    found: list[tuple[Side, Side]] = []
    full = a
    waiting: list[Along] = []
    for step in steps:
        if isinstance(step, Along):
            found.append(((full, step.left), (full, step.right)))
            waiting.append(step)
        elif isinstance(step, Through):
            full = step.hex
            found.extend(((full, w.left), (full, w.right)) for w in waiting)
            waiting.clear()
    found.extend(((b, w.left), (b, w.right)) for w in waiting)
    return found


@dataclass(frozen=True, slots=True)
class Hindrance:
    """One hindering hex or hexside on the line, with its modifier."""

    where: str
    what: str
    modifier: int

    def to_json(self) -> dict[str, object]:
        """``{"where", "what", "modifier"}``."""
        return {"where": self.where, "what": self.what, "modifier": self.modifier}


@dataclass(frozen=True, slots=True)
class LosVerdict:
    """The answer to a line-of-sight question, with its reasons."""

    status: Status
    range: int
    hindrances: tuple[Hindrance, ...] = ()
    blocked_by: str | None = None
    modifier: int = 0
    """The dice modifier the hindrances give (after the rule set's cap)."""
    notes: tuple[str, ...] = field(default=())

    @property
    def visible(self) -> bool:
        """Whether the target can be seen (and fired on)."""
        return self.status != "blocked"

    def to_json(self) -> dict[str, object]:
        """``{"status", "range", "modifier", "hindrances", "blocked_by", "notes"}``."""
        return {
            "status": self.status,
            "range": self.range,
            "modifier": self.modifier,
            "hindrances": [h.to_json() for h in self.hindrances],
            "blocked_by": self.blocked_by,
            "notes": list(self.notes),
        }

    def __str__(self) -> str:
        if self.status == "blocked":
            return f"blocked by {self.blocked_by} (range {self.range})"
        if self.status == "hindered":
            reasons = ", ".join(f"{h.where} {h.what} {h.modifier:+d}" for h in self.hindrances)
            return f"hindered {self.modifier:+d}: {reasons} (range {self.range})"
        return f"clear (range {self.range})"


@dataclass(frozen=True, slots=True)
class LosReasons:
    """What a policy names for a verdict: each hindrance counted, or what blocks."""

    hindrances: tuple[Hindrance, ...] = ()
    blocked_by: str | None = None
    notes: tuple[str, ...] = ()


class LosPolicy(TerrainVocabulary, Protocol):
    """A rule set's line-of-sight rules and terrain vocabulary for boards."""

    @property
    def ruleset(self) -> str:
        """The id of the rule set whose rules these are."""
        ...

    def sight_rule(self, cells: BoardCells) -> SightRule:
        """The rule (the one definition of the verdict), reading its tables from a board."""
        ...

    def explain(self, board: Board, record: LineRecord) -> LosReasons:
        """The reasons of the rule's verdict on one line, named from its record (the facts the
        rule found at each step, its judgement): each hindering hex or hexside, what blocks."""
        ...


def record_line(board: Board, a: Hex, b: Hex, policy: LosPolicy) -> LineRecord:
    """:func:`firefight.board.visibility.record_line`: the engine is numpy's, imported when a
    line is first judged (a rule set declaring its policy loads none of it)."""
    from firefight.board import visibility  # noqa: PLC0415 - numpy's engine, when first used

    return visibility.record_line(board, a, b, policy)


def line_of_sight(board: Board, a: Hex, b: Hex, policy: LosPolicy) -> LosVerdict:
    """Line of sight from ``a`` to ``b`` under ``policy``: the rule's verdict (visible and the
    dice modifier) on the one line, recorded, with the reasons the policy names from the
    record. A blocked line names what blocks it; a visible one names nothing that blocks."""
    record = record_line(board, a, b, policy)
    reasons = policy.explain(board, record)
    status: Status = "blocked" if not record.visible else "hindered" if record.modifier else "clear"
    if (reasons.blocked_by is None) == (status == "blocked"):
        msg = f"{policy.ruleset} named {reasons.blocked_by!r} for a {status} line {a} -> {b}"
        raise AssertionError(msg)
    return LosVerdict(
        status,
        hex_range(a, b),
        reasons.hindrances,
        blocked_by=reasons.blocked_by,
        modifier=record.modifier,
        notes=reasons.notes,
    )


def visible_from(board: Board, a: Hex, policy: LosPolicy) -> dict[Hex, LosVerdict]:
    """Every hex of the board that ``a`` can see, with its verdict (the LOS tool)."""
    found = {}
    for b in board.hexes():
        verdict = line_of_sight(board, a, b, policy)
        if verdict.visible:
            found[b] = verdict
    return found


def hex_range(a: Hex, b: Hex) -> int:
    """Range in hexes as EPT and V&V count it: the target hex counted, the firer's not."""
    return a.distance(b)
