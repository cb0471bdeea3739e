"""V&V 13.9 MG Fire Lanes and 13.91 Fire Lane Crossfire (rulebook chapter 13; seed 003).

13.9: when an infantry unit with an MG makes an Opportunity Fire attack (13.8) its player may
establish a fire lane (voluntary; never with AFV or vehicle MGs, never with other AP fire). A
Fire Lane marker goes in each hex along the original LOS from the firing hex to the target
hex, the target hex included and the firing hex not: as many markers as the original range.
The lane keeps one consistent pattern: straight along the LOS, or equally staggered on
alternating sides of it, the same pattern along its entire length (13.9 Fire Lane Examples):
where the LOS runs along a hexside the marker falls on the side the player chose, at every such
point. Infantry, Guns and unarmoured vehicles that *enter* a lane hex are attacked at once on
the 1-4 row of the AP Combat Table, with no combat or cover modifiers; units already in a lane
hex when it is laid are not. The markers are removed at the end of the current Move Phase.
Each MG lays one lane, and the MG that laid one has fired (13.8: a Fire marker).

13.91: one marker per MG in a hex; each marker after the first subtracts 1 from the lane
attack (two lanes crossing: the 1-4 row, -1).

Where the rules are silent the choice is a named field of :class:`LaneReadings` (docs/vv.md,
"Fire lanes: readings chosen"). The lane attack (the ``fire_lane_attack`` procedure, the lanes'
threat) is :mod:`.lane_attack`'s; the lanes standing when a side moves :mod:`.lanes_standing`'s;
lanes in a move :mod:`.lanes_move`'s.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from pydantic import Field

from firefight.board.board import Board
from firefight.board.hexes import Hex
from firefight.board.los import line_of_sight
from firefight.core.inputs import RuleInput
from firefight.errors import RuleError
from firefight.i18n import gettext
from firefight.rulesets.vv.board import VV_LOS
from firefight.rulesets.vv.scenario import (
    INFANTRY_TYPES,
    ScenarioUnit,
    SupportWeapon,
)

LANE_ROW = "1-4"
"""13.9: lane attacks use the 1-4 row of the AP Combat Table."""
LANE_TARGETS: frozenset[str] = frozenset(
    {"squad", "half_squad", "leader", "gun", "unarmoured_vehicle"}
)
"""13.9: "Infantry, Gun, or unarmored vehicle units that enter a fire lane hex are ... attacked"
(an AFV is not; AP fire has no effect on it either, 14.1)."""
LANE_LAYERS: frozenset[str] = frozenset({"squad", "half_squad", "leader", "mg_team"})
"""13.9: "only infantry Opportunity Fire attacks with an MG may create a fire lane. AFV and
vehicle MGs cannot create fire lanes"."""

LaneSide = Literal["left", "right"]
LaneLength = Literal["to_target", "to_mg_range"]
LaneAfterPin = Literal["stays", "removed"]
LaneNaturals = Literal["none", "valor_and_sniper"]

_EPSILON = 1e-6
"""The nudge that traces a line along a hexside on each side of it (as ``Hex.line_to``)."""

FIRST_SIDE_HELP = (
    "Where the LOS runs along hexsides, the side of the line its Fire Lane markers fall on, as "
    "the firer looks at the target: the same side at every hexside, so the lane repeats one "
    "pattern, a marker on the line then one beside it (13.9 Fire Lane Examples: 'the fire lane "
    "must maintain the same pattern along its entire length ... as determined by the player')."
)
LENGTH_HELP = (
    "to_target = the lane ends in the target hex, one marker per hex of the original range "
    "(13.9: 'The fire lane extends from the firing hex to the target hex'; 'The number of Fire "
    "Lane markers used is equal to the original range'); to_mg_range = it runs on along the "
    "same line up to the MG's printed range (not the rule's words; stops at the board's edge "
    "or where the firer's LOS is blocked)."
)
AFTER_PIN_HELP = (
    "A lane whose MG unit is pinned (or eliminated) later in the Move Phase: stays = the markers "
    "stay until the end of the Move Phase, the only removal 13.9 names; removed = the lane goes "
    "with the MG's ability to fire (a pinned unit may not fire, 14.7)."
)
NATURALS_HELP = (
    "Whether a lane attack's natural 2 or 12 calls for the MG unit's valor checks (16.2) and "
    "the opposing sniper (17.2): none = no (the hex attacks, 13.91 'that hex would attack'; no "
    "unit makes an attack dice roll and no combat modifier applies, 13.9); valor_and_sniper = "
    "the lane's roll counts as the MG unit's AP attack roll."
)


class LaneReadings(RuleInput):
    """The readings of 13.9 where the rules are silent (docs/vv.md, "Fire lanes")."""

    first_side: LaneSide = Field("left", description=FIRST_SIDE_HELP)
    length: LaneLength = Field("to_target", description=LENGTH_HELP)
    after_mg_pinned: LaneAfterPin = Field("stays", description=AFTER_PIN_HELP)
    naturals: LaneNaturals = Field("none", description=NATURALS_HELP)


@dataclass(frozen=True)
class FireLane:
    """One MG's Fire Lane markers (13.9): ``hexes`` from the hex next to the firer outwards.
    ``unit``: the id of the unit whose MG laid it, where known (a standing lane's,
    :func:`lanes_laid_earlier`): it has fired this Movement Phase (13.8, :func:`lane_fire`)."""

    mg: str
    firer: Hex
    target: Hex
    hexes: tuple[Hex, ...]
    unit: str | None = None

    def to_json(self, board: Board) -> dict[str, object]:
        """``{"mg", "from", "to", "hexes"}`` with board labels."""
        return {
            "mg": self.mg,
            "from": board.label(self.firer),
            "to": board.label(self.target),
            "hexes": [board.label(h) for h in self.hexes],
        }


def _left_of(firer: Hex, target: Hex, hex_: Hex) -> bool:
    """Whether ``hex_`` lies left of the line from ``firer`` to ``target``, seen from the firer
    (pixel centres; y grows downwards)."""
    ax, ay = firer.centre()
    bx, by = target.centre()
    hx, hy = hex_.centre()
    return (bx - ax) * (hy - ay) - (by - ay) * (hx - ax) < 0


def lane_hexes(
    firer: Hex, target: Hex, *, first_side: LaneSide = "left", markers: int | None = None
) -> tuple[Hex, ...]:
    """The Fire Lane marker hexes along the LOS from ``firer`` to ``target`` (13.9).

    One hex per step of the centre-to-centre line, the firer's hex excluded: straight where the
    line passes through hexes, and, where it runs along a hexside (the two sides traced apart),
    on its ``first_side`` side at every such step, so the lane repeats one step pattern along
    its whole length (13.9 Fire Lane Examples: "the same pattern along its entire length"; a
    line along hexsides meets one at every other step, so the markers fall alternately on the
    line and beside it). ``markers`` (default: the range) may run the lane on past the target
    along the same line (the ``to_mg_range`` reading).
    """
    n = firer.distance(target)
    if n == 0:
        msg = gettext(
            "a fire lane needs a target hex other than the firer's (13.9): {target}"
        ).format(target=target)
        raise RuleError(msg)
    count = n if markers is None else markers
    reach = max(1, math.ceil(count / n))
    far = Hex(firer.q + (target.q - firer.q) * reach, firer.r + (target.r - firer.r) * reach)
    plus, minus = firer.line_to(far, _EPSILON), firer.line_to(far, -_EPSILON)
    found: list[Hex] = []
    for i in range(1, count + 1):
        if plus[i] == minus[i]:
            found.append(plus[i])
            continue
        left = plus[i] if _left_of(firer, target, plus[i]) else minus[i]
        found.append(left if first_side == "left" else (minus[i] if left == plus[i] else plus[i]))
    return tuple(found)


def lay_lane(
    board: Board,
    firer: Hex,
    target: Hex,
    *,
    mg: str,
    firer_kind: str = "squad",
    mg_range: int | None = None,
    readings: LaneReadings | None = None,
) -> FireLane:
    """The lane an infantry unit's MG lays when it fires on opportunity at ``target`` (13.9).

    Refused (one line) for a firer that is not infantry (AFV and vehicle MGs lay none), a
    target out of the MG's range or out of LOS. ``to_mg_range`` runs the markers on past the
    target up to ``mg_range``, stopping at the board's edge or where the firer's LOS ends. A
    staggered lane whose chosen side would leave the board takes the other side all along (13.9:
    "a consistent pattern, if possible").
    """
    readings = readings or LaneReadings()
    if firer_kind not in LANE_LAYERS:
        msg = gettext(
            "only an infantry unit's MG lays a fire lane (13.9: AFV and vehicle MGs"
            " cannot): {mg} is a {firer_kind}"
        ).format(mg=mg, firer_kind=firer_kind.replace("_", " "))
        raise RuleError(msg)
    n = firer.distance(target)
    if mg_range is not None and n > mg_range:
        msg = gettext("{mg} cannot fire at {hex}: range {n} is beyond its range {mg_range}").format(
            mg=mg, hex=board.label(target), n=n, mg_range=mg_range
        )
        raise RuleError(msg)
    verdict = line_of_sight(board, firer, target, VV_LOS)
    if not verdict.visible:
        msg = gettext("no fire lane from {hex} to {hex2}: no line of sight ({verdict})").format(
            hex=board.label(firer), hex2=board.label(target), verdict=verdict
        )
        raise RuleError(msg)
    if readings.length == "to_target" or mg_range is None or mg_range <= n:
        laid = lane_hexes(firer, target, first_side=readings.first_side)
        if any(h not in board for h in laid):  # at the board's edge: the other side
            other: LaneSide = "right" if readings.first_side == "left" else "left"
            laid = lane_hexes(firer, target, first_side=other)
        return FireLane(mg, firer, target, tuple(h for h in laid if h in board))
    hexes = list(lane_hexes(firer, target, first_side=readings.first_side, markers=mg_range)[:n])
    for hex_ in lane_hexes(firer, target, first_side=readings.first_side, markers=mg_range)[n:]:
        if hex_ not in board or not line_of_sight(board, firer, hex_, VV_LOS).visible:
            break
        hexes.append(hex_)
    return FireLane(mg, firer, target, tuple(hexes))


@dataclass(frozen=True)
class LaidLane:
    """A lane laid during a move: by the opportunity fire at the ``index``-th hex entered (from
    1; 0 for a lane laid before the move, earlier in the Movement Phase); it attacks units
    entering its hexes after that (13.9)."""

    lane: FireLane
    index: int

    def to_json(self, board: Board) -> dict[str, object]:
        """The lane's ``mg``, ``from``, ``to``, ``hexes``, and ``laid_at`` (the hex index)."""
        return {**self.lane.to_json(board), "laid_at": self.index}


def fired_weapon(unit: ScenarioUnit, distance: int) -> SupportWeapon | None:
    """The support weapon a unit fires at ``distance`` (12.3: one carried weapon, not an
    expendable one, never a mortar on opportunity, 12.61), as its fire group's APFP counts it."""
    for weapon in unit.support_weapons:
        if weapon.weapon_class == "X" or weapon.kind == "mortar" or distance > weapon.range:
            continue
        return weapon
    return None


def group_lanes(
    board: Board,
    firer: Hex,
    target: Hex,
    units: Sequence[ScenarioUnit],
    readings: LaneReadings | None = None,
) -> tuple[FireLane, ...]:
    """The lanes an infantry fire group lays when it fires on opportunity at ``target``: one per
    MG it fires (13.9; 13.91: MGs of one hex along one path each put a marker in every hex).
    An MG team's own fire is its MG's (``unit.range`` its range)."""
    distance = firer.distance(target)
    found: list[FireLane] = []
    for unit in units:
        if unit.type not in INFANTRY_TYPES or unit.pinned:
            continue
        if unit.type == "mg_team":
            reach = unit.range if unit.range is not None else distance
            if distance <= reach:
                found.append(
                    lay_lane(
                        board,
                        firer,
                        target,
                        mg=unit.id,
                        firer_kind="mg_team",
                        mg_range=reach,
                        readings=readings,
                    )
                )
            continue
        weapon = fired_weapon(unit, distance)
        if weapon is None or weapon.kind != "mg":
            continue
        found.append(
            lay_lane(
                board,
                firer,
                target,
                mg=f"{unit.id} {weapon.name}",
                firer_kind=unit.type,
                mg_range=weapon.range,
                readings=readings,
            )
        )
    return tuple(found)


def markers_along(
    hexes: Sequence[Hex], laid: Iterable[LaidLane], standing: Iterable[FireLane] = ()
) -> dict[int, int]:
    """Fire Lane markers met at each index of a path (``hexes[0]`` the start): the lanes
    ``standing`` before the move, and each lane laid at an index before it (13.9: units in a
    lane hex when it is laid are not attacked; 13.91: one marker per MG)."""
    before = markers(standing)
    laid = tuple(laid)
    found: dict[int, int] = {}
    for index in range(1, len(hexes)):
        count = before[hexes[index]] + sum(
            1 for lane in laid if lane.index < index and hexes[index] in lane.lane.hexes
        )
        if count:
            found[index] = count
    return found


def check_one_lane_per_mg(lanes: Sequence[FireLane]) -> None:
    """13.9 Fire Lane Examples: "Each machine gun may only create a single fire lane"."""
    seen: set[str] = set()
    for lane in lanes:
        if lane.mg in seen:
            msg = gettext(
                "{mg} already laid a fire lane this Move Phase (13.9: one per MG)"
            ).format(mg=lane.mg)
            raise RuleError(msg)
        seen.add(lane.mg)


def standing_lanes(
    lanes: Iterable[FireLane], pinned_mgs: Iterable[str], readings: LaneReadings | None = None
) -> tuple[FireLane, ...]:
    """The lanes still on the board: all of them until the end of the Move Phase (13.9), less
    those of pinned or eliminated MGs under the ``removed`` reading."""
    readings = readings or LaneReadings()
    if readings.after_mg_pinned == "stays":
        return tuple(lanes)
    gone = set(pinned_mgs)
    return tuple(lane for lane in lanes if lane.mg not in gone)


def markers(lanes: Iterable[FireLane]) -> Counter[Hex]:
    """Fire Lane markers per hex: one per MG whose lane passes there (13.91)."""
    found: Counter[Hex] = Counter()
    for lane in lanes:
        found.update(set(lane.hexes))
    return found


def attacked_by_lanes(kind: str) -> bool:
    """13.9: infantry, Guns and unarmoured vehicles entering a lane hex are attacked."""
    return kind in LANE_TARGETS


def lane_attacks_on_entering(
    path: Sequence[Hex], lanes: Iterable[FireLane]
) -> list[tuple[Hex, int]]:
    """The lane attacks a unit meets moving along ``path`` (its start first): each hex it
    *enters* that holds markers, with their number (13.9, 13.91). The start hex, where it
    stood when the lanes were laid, makes none."""
    count = markers(lanes)
    return [(hex_, count[hex_]) for hex_ in path[1:] if count[hex_]]
