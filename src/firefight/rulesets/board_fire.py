"""From a line of sight on a board to the inputs of its rule set's fire procedure ("the board
feeds the forms").

A firer hex and a target hex on a board give, through the board's LOS verdict, what the fire
procedure asks of the line; what the board cannot know (the firers, their strength, the
weapon's normal range) is left to the player. Each rule set declares its reading as its
``board_fire`` hook (:class:`~firefight.rulesets.fire_feed.BoardFire`: the procedure the line
opens, the feed, its options and the board page's help), written in its own package
(e.g. ``rulesets/ept/board_fire.py``, ``rulesets/vv/board_fire.py``); this module finds it
through the registry and names no game.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from firefight.board.board import Board
from firefight.board.hexes import Hex
from firefight.board.los import LosVerdict
from firefight.core.inputs import RuleInput, validate
from firefight.errors import InputError
from firefight.rulesets.fire_feed import BoardFire, FireInputs, NoOptions
from firefight.rulesets.registry import rulesets
from firefight.translation import gettext as _

__all__ = [
    "BoardFire",
    "FireInputs",
    "NoOptions",
    "board_fire",
    "fire_inputs",
    "fire_options",
    "fire_rulesets",
]


def _feeds() -> dict[str, BoardFire[Any]]:
    return {r.id: r.board_fire for r in rulesets() if r.board_fire is not None}


def fire_rulesets() -> tuple[str, ...]:
    """The rule sets whose boards feed a fire procedure."""
    return tuple(_feeds())


def board_fire(ruleset: str) -> BoardFire[Any] | None:
    """The board fire feed of a rule set (by id), ``None`` where it has none."""
    return _feeds().get(ruleset)


def fire_options(board: Board, given: Mapping[str, object]) -> RuleInput:
    """The options of the feed of ``board``'s rule set, read from ``given`` (e.g. a request's
    query; names no feed declares are not options and are passed over).

    An option any rule set's feed declares is checked against that declaration whichever
    board it comes with, so that a reading misspelt is refused in one line on every board,
    as the player cannot tell which game reads it. A board of a rule set without a feed:
    :class:`~firefight.errors.InputError` naming the board.
    """
    feeds = _feeds()
    for feed in feeds.values():
        validate(feed.options, {k: v for k, v in given.items() if k in feed.options.model_fields})
    own = feeds.get(board.ruleset)
    if own is None:
        raise InputError(
            "board", _("a board of {feeds}").format(feeds=", ".join(feeds)), board.ruleset
        )
    chosen: RuleInput = validate(
        own.options, {k: v for k, v in given.items() if k in own.options.model_fields}
    )
    return chosen


def fire_inputs(
    board: Board,
    firer: Hex,
    target: Hex,
    verdict: LosVerdict,
    options: RuleInput | None = None,
) -> FireInputs:
    """The fire procedure and inputs of the line ``firer`` -> ``target`` (judged: ``verdict``),
    read with ``options`` (:func:`fire_options`; ``None``: the feed's defaults).

    A blocked line opens no fire: :class:`~firefight.errors.InputError` names the target; so
    does a board of a rule set without a feed name the board.
    """
    if not verdict.visible:
        raise InputError(
            "to",
            _("a hex {label} can see (no line of sight: blocked by {blocked_by})").format(
                label=board.label(firer), blocked_by=verdict.blocked_by
            ),
            board.label(target),
        )
    feeds = _feeds()
    feed = feeds.get(board.ruleset)
    if feed is None:
        raise InputError(
            "board", _("a board of {feeds}").format(feeds=", ".join(feeds)), board.ruleset
        )
    chosen = validate(feed.options, {}) if options is None else options
    inputs, notes = feed.feed(board, firer, target, verdict, chosen)
    return FireInputs(board.ruleset, feed.procedure, dict(inputs), tuple(notes))
