"""V&V's board fire feed: a line of sight on a V&V board opens ``ap_attack`` with its
hindrance, the target's terrain and adjacency filled in (:mod:`firefight.rulesets.board_fire`).

``hindrance`` is the verdict's total, the target hex's own hindrance included (9.3,
10.8-10.10); ``target_terrain`` is the target hex's terrain where the procedure has it (13.4;
a terrain it does not list keeps ``open`` and says so); ``adjacent`` is a range of one hex
(13.8, 12.52). A wall or hedge on the line is a hindrance (10.8), already in the verdict's
total: the feed has no reading to choose.
"""

from __future__ import annotations

from typing import get_args

from firefight.board.board import Board
from firefight.board.hexes import Hex
from firefight.board.los import LosVerdict
from firefight.i18n import N_
from firefight.rulesets.fire_feed import BoardFire, Filled, NoOptions
from firefight.rulesets.vv.ap import VvApAttack


def feed(board: Board, firer: Hex, target: Hex, verdict: LosVerdict, _: NoOptions) -> Filled:
    """The inputs of ``ap_attack`` the visible line ``firer`` -> ``target`` fills in."""
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
    return inputs, tuple(notes)


BOARD_FIRE = BoardFire(
    procedure="ap_attack",
    feed=feed,
    options=NoOptions,
    help=N_(
        "V&V AP attack: the target's terrain, the hindrances (the target hex's own included) "
        "and whether it is adjacent."
    ),
)
"""V&V's ``board_fire`` hook."""
