"""V&V 19.1 and 19.3, the overrun's plan: which AFV may overrun which hex (19.1: not
through a building, a bunker, an enemy AFV, or a hex it may not enter), the exit hex directly
opposite the one entered from, the Movement Points it costs (every hex's entry cost, the exit
hex's included, plus 2), and the points where opportunity fire may meet it (19.2).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from firefight.board.board import Board
from firefight.board.hexes import Hex
from firefight.errors import RuleError
from firefight.i18n import gettext

OVERRUN_MP = 2
"""19.3: "The AFV must expend two Movement Points for the overrun attack"."""


OVERRUN_TARGETS: frozenset[str] = frozenset(
    {"squad", "half_squad", "leader", "gun", "unarmoured_vehicle"}
)
"""19.1: overruns are made "against infantry units, unarmored vehicles and Guns"."""


BUNKERS = frozenset({"concrete_bunker", "wood_earth_bunker"})
"""19.1: no overrun through a hex containing a Bunker (20.5)."""


HEX_HINDRANCES = frozenset({"orchard", "crops"})
"""Terrain whose +1 ("+1 Cum.") counts as the overrun hex's own terrain (reading, docs)."""


EntryCost = Callable[[Hex, Hex], int | None]
"""The Movement Points an AFV pays to move from one hex into the next (6.2, 6.5), ``None``
where it may not enter (the Terrain Effects Summary's "Proh.")."""


def exit_hex(entered_from: Hex, target: Hex) -> Hex:
    """19.3: the hex directly opposite the one the AFV entered the target hex from."""
    return Hex(2 * target.q - entered_from.q, 2 * target.r - entered_from.r)


@dataclass(frozen=True)
class FirePoint:
    """Where opportunity fire may meet the overrunning AFV (19.2): ``moment`` is ``enters``
    (a hex before the target) or ``exits`` (leaving the target hex, into the exit hex)."""

    hex: Hex
    moment: Literal["enters", "exits"]


@dataclass(frozen=True)
class OverrunPlan:
    """An overrun's route (19.3): ``path`` from the start hex to the target hex, then ``exit``;
    ``movement_points`` spent in all, the 2 of the overrun included."""

    path: tuple[Hex, ...]
    target: Hex
    exit: Hex
    movement_points: int

    @property
    def fire_points(self) -> tuple[FirePoint, ...]:
        """19.2: every hex entered but the target, then the exit from the target hex."""
        before = tuple(FirePoint(h, "enters") for h in self.path[1:-1])
        return (*before, FirePoint(self.exit, "exits"))

    def to_json(self, board: Board) -> dict[str, object]:
        """The route with board labels."""
        return {
            "path": [board.label(h) for h in self.path],
            "target": board.label(self.target),
            "exit": board.label(self.exit),
            "movement_points": self.movement_points,
            "opportunity_fire": [
                {"hex": board.label(p.hex), "moment": p.moment} for p in self.fire_points
            ],
            "final_opportunity_fire": board.label(self.target),
        }


@dataclass(frozen=True)
class OverrunTarget:
    """What 19.1 asks of the target hex: the enemy units' kinds and the hex's bunker."""

    kinds: tuple[str, ...]
    bunker: bool = False


def check_overrun_target(board: Board, goal: Hex, target: OverrunTarget) -> None:
    """19.1: no overrun into a building hex, a hex with a bunker or with an enemy AFV; the hex
    must hold infantry, an unarmoured vehicle or a Gun."""
    if board.terrain_of(goal) == "building":
        raise RuleError(
            gettext("no overrun into a building hex (19.1): {hex}").format(hex=board.label(goal))
        )
    if target.bunker:
        raise RuleError(
            gettext("no overrun into a hex containing a bunker (19.1): {hex}").format(
                hex=board.label(goal)
            )
        )
    if "armoured_vehicle" in target.kinds:
        raise RuleError(
            gettext("no overrun into a hex containing an enemy AFV (19.1): {hex}").format(
                hex=board.label(goal)
            )
        )
    if not any(kind in OVERRUN_TARGETS for kind in target.kinds):
        msg = gettext(
            "an overrun attacks infantry, unarmoured vehicles and Guns (19.1): {hex} holds none"
        ).format(hex=board.label(goal))
        raise RuleError(msg)


def plan_overrun(
    board: Board,
    path: Sequence[Hex],
    target: OverrunTarget,
    *,
    entry_cost: EntryCost,
    movement_points: int,
    afv_kind: str = "armoured_vehicle",
    towing_gun: bool = False,
) -> OverrunPlan:
    """Check an overrun along ``path`` (start hex first, target hex last) and plan it (19.1,
    19.3); a one-line :class:`RuleError` names what the rules forbid."""
    if afv_kind != "armoured_vehicle":
        what = afv_kind.replace("_", " ")
        raise RuleError(
            gettext("only AFVs may make overrun attacks (19.1), not a {what}").format(what=what)
        )
    if towing_gun:
        raise RuleError(
            gettext("an AFV transporting (towing) a Gun may not make an overrun attack (19.1)")
        )
    if len(path) < 2:
        raise RuleError(
            gettext("an overrun path needs the start hex and at least the target hex (19.3)")
        )
    for a, b in itertools.pairwise(path):
        if a.distance(b) != 1:
            msg = gettext("the overrun path must go hex by hex: {hex} to {hex2}").format(
                hex=board.label(a), hex2=board.label(b)
            )
            raise RuleError(msg)
    goal = path[-1]
    check_overrun_target(board, goal, target)
    out = exit_hex(path[-2], goal)
    if out not in board:
        msg = gettext("the exit hex opposite the entry lies off the board (19.3): {hex}").format(
            hex=board.label(goal)
        )
        raise RuleError(msg)
    spent = 0
    for a, b in zip((*path, out)[:-1], (*path, out)[1:], strict=True):
        cost = entry_cost(a, b)
        if cost is None or board.terrain_of(b) == "building":
            msg = gettext(
                "no overrun through or into a hex the AFV may not enter (19.1): {hex}"
            ).format(hex=board.label(b))
            raise RuleError(msg)
        spent += cost
    spent += OVERRUN_MP
    if spent > movement_points:
        msg = gettext(
            "the overrun costs {spent} Movement Points (every hex entered, the exit"
            " hex's included, +2, 19.3); the AFV has {movement_points}"
        ).format(spent=spent, movement_points=movement_points)
        raise RuleError(msg)
    return OverrunPlan(tuple(path), goal, out, spent)
