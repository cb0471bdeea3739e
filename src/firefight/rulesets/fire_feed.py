"""A game's board fire feed (the ``board_fire`` hook of :class:`~firefight.rulesets.RuleSet`):
from a line of sight on one of its boards to the inputs of the fire procedure the line opens.

A firer hex and a target hex on a board give, through the board's LOS verdict, what the fire
procedure asks of the line (its range, hindrance, the target's cover); what the board cannot
know (the firers, their strength) is left to the player. Each game writes its own reading in
``rulesets/<game>/board_fire.py``; :mod:`firefight.rulesets.board_fire` finds it through the
registry.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from firefight.board.board import Board
from firefight.board.hexes import Hex
from firefight.board.los import LosVerdict
from firefight.core.inputs import RuleInput


@dataclass(frozen=True, slots=True)
class FireInputs:
    """The fire procedure a line of sight opens, and the inputs the line fills in."""

    ruleset: str
    procedure: str
    inputs: dict[str, str]
    """Field name -> value as the procedure page's address gives it."""
    notes: tuple[str, ...] = ()


class NoOptions(RuleInput):
    """The options of a feed that reads the line one way only (none)."""


Filled = tuple[dict[str, str], tuple[str, ...]]
"""What a feed gives: the inputs (field name -> value as the procedure page's address gives
it) and its notes to the player."""

O = TypeVar("O", bound=RuleInput)  # noqa: E741 - O for "options"


@dataclass(frozen=True)
class BoardFire(Generic[O]):
    """How a game's boards feed its fire procedure.

    ``feed(board, firer, target, verdict, options)`` reads a visible line (never called for a
    blocked one); ``options`` is the game's own model of the readings the player may choose
    (web: the ``/boards/NAME/fire`` address's query, by the model's field names, so each a
    choice of words), validated before the line is judged. ``help`` is the board page's
    sentence on what the feed fills in, English marked with ``N_`` (the page shows it
    translated).
    """

    procedure: str
    """The name of the procedure the line opens (one of the rule set's)."""
    feed: Callable[[Board, Hex, Hex, LosVerdict, O], Filled]
    options: type[O]
    help: str
