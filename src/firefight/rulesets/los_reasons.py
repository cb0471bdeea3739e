"""The words of line-of-sight reasons, shared by the rule sets that name them (EPT, V&V).

A rule set's sight rule is evaluated on one line in recording mode
(:func:`firefight.board.visibility.record_line`): the facts it found at each step and its
judgement. The reasons a player reads are named from that record, never from a walk of the
line of their own: these helpers read the facts that the EPT and V&V rules both record under
the same names (``across_blocks``, ``corner_blocks``, ``along_blocks``: a blocking hexside
crossed, fanning out at a corner, run along; ``left`` and ``right``: the sight of each side of
a step) and the judgement's ``lower`` (the level a hex must stand above to block),
``left_blocked`` and ``right_blocked`` (each side of a hexside line), and put them into words.
"""

from __future__ import annotations

from collections.abc import Callable

from firefight.board.board import Board
from firefight.board.hexes import Hex
from firefight.board.visibility import Bools, Corner, LineRecord


def hexside_where(board: Board, side: tuple[Hex, Hex], *, feature: bool = False) -> str:
    """``hexside 0305/0206``, with ``(bocage)`` after it when ``feature``."""
    where = f"hexside {board.label(side[0])}/{board.label(side[1])}"
    return f"{where} ({board.hexside_of(*side)})" if feature else where


def corner_where(board: Board, corner: Corner, *, feature: bool = False) -> str:
    """The two hexsides that fan out at a corner of the line, ``(full, left)`` then ``(full,
    right)``, each with its feature when ``feature``, "meeting at a corner of the line"."""
    full, left, right = corner
    sides = (hexside_where(board, (full, h), feature=feature) for h in (left, right))
    return " and ".join(sides) + " meeting at a corner of the line"


def first_blocker(
    board: Board, record: LineRecord, blocks: Callable[[int, int], Bools], height: str
) -> str | None:
    """What blocks a line, as the record says, named as a reader meets it: a blocking hexside
    crossed or a hex passed through (``blocks``, the rule's test of a sight against the
    judgement's ``lower``), the first
    along the line; else blocking hexsides meeting at a corner; else a blocking hexside run
    along; else blocking hexes on both sides of a hexside line (the first on each side). None
    when the record shows none of these (the rule set's own reasons, such as EPT's hindrance
    sum, come next). A blocking hex is named by its terrain, or by ``height`` (``level {}``)
    when it stands above the judgement's ``lower`` end."""
    lower = record.judged["lower"]

    def hex_blocker(h: Hex) -> str:
        level = board.elevation_of(h)
        why = height.format(level) if level > lower else board.terrain_of(h)
        return f"hex {board.label(h)} ({why})"

    facts, steps = record.facts, record.steps
    for i, step in enumerate(steps):
        if step.across and facts["across_blocks"][i]:
            return hexside_where(board, step.across, feature=True)
        if not step.along and blocks(facts["left"][i], lower):
            return hex_blocker(step.left)
    for i, step in enumerate(steps):
        if step.corner and facts["corner_blocks"][i]:
            return corner_where(board, step.corner, feature=True)
    runs = [(i, step) for i, step in enumerate(steps) if step.along]
    for i, step in runs:
        if facts["along_blocks"][i]:
            return hexside_where(board, (step.left, step.right), feature=True) + " along the line"
    if not (record.judged["left_blocked"] and record.judged["right_blocked"]):
        return None
    left = next(hex_blocker(step.left) for i, step in runs if blocks(facts["left"][i], lower))
    right = next(hex_blocker(step.right) for i, step in runs if blocks(facts["right"][i], lower))
    return f"{left} and {right} on both sides of a hexside line"
