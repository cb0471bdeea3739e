"""EPT's board fire feed: a line of sight on an EPT board opens ``fire`` with its range,
hindrance and the target's protection filled in (:mod:`firefight.rulesets.board_fire`).

``range`` is ``adjacent`` at one hex (MODIFICATEURS DE TIR: Distance, x2), ``normal``
otherwise (whether the distance is beyond the weapon's normal range is on its counter, not on
the board); ``hindrance_hexes`` is the verdict's modifier, the LOS rule's sum of visual
hindrances (+1 each; a line the rule leaves visible sums at most +3, so the chart's cap, which
the fire procedure applies, never bites; the reasons are not re-summed); ``protection`` is the
target hex's protection on the TABLE DES TERRAINS for infantry (+1 light, +2 medium, +3
important; none where the chart prints none).

The chart prints a protection for hedge (+1), wall (+1) and bocage (+2), hexsides; the seed
does not say when a hexside protects the target. :data:`HexsideCover` names the reading (the
option ``hexside_cover``): ``crossed`` (default) gives the target the better of its hex's
protection and that of a hedge, wall or bocage the line crosses into the target hex (the side
between firer and target, as a hexside obstacle covers in the period's games); ``hex_only``
reads only the target hex.
"""

from __future__ import annotations

from typing import ClassVar, Literal, get_args

from firefight.board.board import Board
from firefight.board.hexes import Hex
from firefight.board.los import Across, LosVerdict, trace
from firefight.core.inputs import RuleInput
from firefight.i18n import N_
from firefight.rulesets.ept.terrain import Terrain, terrain_effect
from firefight.rulesets.fire_feed import BoardFire, Filled

HexsideCover = Literal["crossed", "hex_only"]
"""Does a hedge, wall or bocage the line crosses into the target hex protect it?"""

_PROTECTION = ("none", "light", "medium", "important")


class EptBoardFireOptions(RuleInput):
    """The reading of the board's line the player may choose."""

    readings: ClassVar[frozenset[str]] = frozenset({"hexside_cover"})

    hexside_cover: HexsideCover = "crossed"


def _protection(terrain: str) -> int:
    if terrain not in get_args(Terrain):
        return 0
    return terrain_effect(terrain, "infantry").protection or 0  # type: ignore[arg-type]


def _crossed_into(board: Board, firer: Hex, target: Hex) -> list[str]:
    """The hexside features the line from ``firer`` crosses into ``target``."""
    return [
        feature
        for step in trace(firer, target)
        if isinstance(step, Across)
        and step.after == target
        and (feature := board.hexside_of(step.before, step.after))
    ]


def feed(
    board: Board, firer: Hex, target: Hex, verdict: LosVerdict, options: EptBoardFireOptions
) -> Filled:
    """The inputs of ``fire`` the visible line ``firer`` -> ``target`` fills in."""
    terrain = board.terrain_of(target)
    notes = []
    best = _protection(terrain)
    if options.hexside_cover == "crossed":
        for feature in _crossed_into(board, firer, target):
            if _protection(feature) > best:
                best = _protection(feature)
                notes.append(f"protection from the {feature} crossed into the target hex")
    protection = _PROTECTION[min(best, 3)]
    hindrance = verdict.modifier  # the rule's number (EptSightRule), not the named reasons
    inputs = {
        "range": "adjacent" if verdict.range == 1 else "normal",
        "hindrance_hexes": str(hindrance),
        "protection": protection,
    }
    if verdict.range > 1:
        notes.append(f"range {verdict.range} hexes: choose long beyond the weapon's normal range")
    return inputs, tuple(notes)


BOARD_FIRE = BoardFire(
    procedure="fire",
    feed=feed,
    options=EptBoardFireOptions,
    help=N_(
        "EPT fire: range adjacent at one hex, otherwise normal (choose long beyond the "
        "weapon's normal range); the hindrance hexes; the target's protection, its hex's or "
        "a hedge, wall or bocage crossed into it."
    ),
)
"""EPT's ``board_fire`` hook."""
