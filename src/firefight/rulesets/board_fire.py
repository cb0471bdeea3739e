"""From a line of sight on a board to the inputs of its rule set's fire procedure (issue 16,
"the board feeds the forms").

A firer hex and a target hex on a board give, through the board's LOS verdict, what the fire
procedure asks of the line: the range, the hindrance and the target's cover. What the board
cannot know (the firers, their strength, the weapon's normal range) is left to the player.

* EPT (``fire``): ``range`` is ``adjacent`` at one hex (MODIFICATEURS DE TIR: Distance, x2),
  ``normal`` otherwise (whether the distance is beyond the weapon's normal range is on its
  counter, not on the board); ``hindrance_hexes`` is the verdict's modifier, the LOS rule's
  sum of visual hindrances (+1 each; a line the rule leaves visible sums at most +3, so the
  chart's cap, which the fire procedure applies, never bites; the reasons are not re-summed);
  ``protection`` is the target hex's protection on the TABLE DES TERRAINS for infantry (+1
  light, +2 medium, +3 important; none where the chart prints none).
* V&V (``ap_attack``): ``hindrance`` is the verdict's total, the target hex's own hindrance
  included (9.3, 10.8-10.10); ``target_terrain`` is the target hex's terrain where the
  procedure has it (13.4; a terrain it does not list keeps ``open`` and says so); ``adjacent``
  is a range of one hex (13.8, 12.52).

EPT's chart prints a protection for hedge (+1), wall (+1) and bocage (+2), hexsides; the seed
does not say when a hexside protects the target. :data:`HexsideCover` names the reading:
``crossed`` (default) gives the target the better of its hex's protection and that of a hedge,
wall or bocage the line crosses into the target hex (the side between firer and target, as a
hexside obstacle covers in the period's games); ``hex_only`` reads only the target hex. In
V&V a wall or hedge on the line is a hindrance (10.8), already in the verdict's total, so the
reading is EPT's only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

from firefight.board.board import Board
from firefight.board.hexes import Hex
from firefight.board.los import Across, LosVerdict, trace
from firefight.errors import InputError


@dataclass(frozen=True, slots=True)
class FireInputs:
    """The fire procedure a line of sight opens, and the inputs the line fills in."""

    ruleset: str
    procedure: str
    inputs: dict[str, str]
    """Field name -> value as the procedure page's address gives it."""
    notes: tuple[str, ...] = ()


HexsideCover = Literal["crossed", "hex_only"]
"""EPT: does a hedge, wall or bocage the line crosses into the target hex protect it?"""

_EPT_PROTECTION = ("none", "light", "medium", "important")


def _ept_protection(terrain: str) -> int:
    from firefight.rulesets.ept.terrain import Terrain, terrain_effect  # noqa: PLC0415

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


def _ept(
    board: Board, firer: Hex, target: Hex, verdict: LosVerdict, cover: HexsideCover
) -> FireInputs:
    terrain = board.terrain_of(target)
    notes = []
    best = _ept_protection(terrain)
    if cover == "crossed":
        for feature in _crossed_into(board, firer, target):
            if _ept_protection(feature) > best:
                best = _ept_protection(feature)
                notes.append(f"protection from the {feature} crossed into the target hex")
    protection = _EPT_PROTECTION[min(best, 3)]
    hindrance = verdict.modifier  # the rule's number (EptSightRule), not the named reasons
    inputs = {
        "range": "adjacent" if verdict.range == 1 else "normal",
        "hindrance_hexes": str(hindrance),
        "protection": protection,
    }
    if verdict.range > 1:
        notes.append(f"range {verdict.range} hexes: choose long beyond the weapon's normal range")
    return FireInputs("ept", "fire", inputs, tuple(notes))


def _vv(
    board: Board, firer: Hex, target: Hex, verdict: LosVerdict, cover: HexsideCover
) -> FireInputs:
    from firefight.rulesets.vv.ap import VvApAttack  # noqa: PLC0415

    allowed = get_args(VvApAttack.model_fields["target_terrain"].annotation)
    terrain = board.terrain_of(target)
    notes = []
    if terrain not in allowed:
        notes.append(f"the target's terrain {terrain} is not a target_terrain choice: open")
        terrain = "open"
    hindrance = min(verdict.modifier, 10)  # the field's bound; 10 hindrances is off any map
    inputs = {
        "target_terrain": terrain,
        "hindrance": str(hindrance),
        "adjacent": "true" if verdict.range == 1 else "false",
    }
    return FireInputs("vv", "ap_attack", inputs, tuple(notes))


_BY_RULESET = {"ept": _ept, "vv": _vv}


def fire_rulesets() -> tuple[str, ...]:
    """The rule sets whose boards feed a fire procedure."""
    return tuple(_BY_RULESET)


def fire_inputs(
    board: Board,
    firer: Hex,
    target: Hex,
    verdict: LosVerdict,
    hexside_cover: HexsideCover = "crossed",
) -> FireInputs:
    """The fire procedure and inputs of the line ``firer`` -> ``target`` (judged: ``verdict``).

    A blocked line opens no fire: :class:`~firefight.errors.InputError` names the target.
    """
    if not verdict.visible:
        raise InputError(
            "to",
            f"a hex {board.label(firer)} can see (no line of sight: blocked by "
            f"{verdict.blocked_by})",
            board.label(target),
        )
    feed = _BY_RULESET.get(board.ruleset)
    if feed is None:
        raise InputError("board", "a board of " + ", ".join(_BY_RULESET), board.ruleset)
    return feed(board, firer, target, verdict, hexside_cover)
