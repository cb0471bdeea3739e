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
"Fire lanes: readings chosen").
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Literal

from pydantic import Field

from firefight.board.board import Board
from firefight.board.hexes import Hex
from firefight.board.los import line_of_sight
from firefight.chance import TWO_D6, Chance
from firefight.core.chart import Cell
from firefight.core.inputs import RuleInput
from firefight.core.modifier import Modifier, ModifierKind
from firefight.errors import InputError, RuleError
from firefight.i18n import gettext
from firefight.rulesets.procedure import Procedure
from firefight.rulesets.vv.ap import OUTCOMES, ap_combat_table
from firefight.rulesets.vv.board import VV_LOS
from firefight.rulesets.vv.natural import attack_dice_roll, natural_facts
from firefight.rulesets.vv.scenario import (
    INFANTRY_TYPES,
    BoardScenario,
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


def crossfire_modifier(marker_count: int) -> int:
    """13.91: -1 per Fire Lane marker after the first in the hex."""
    return -(marker_count - 1)


MAX_MARKERS = 12
"""The most Fire Lane markers a lane attack takes (:class:`VvFireLaneAttack`): from 11 on the
crossfire (13.91) already puts every roll at the top of the 1-4 row, so more markers than 12
attack as 12 (:func:`lane_attack_input`; a test checks the odds stop changing)."""


def lane_attack_input(marker_count: int, naturals: LaneNaturals) -> VvFireLaneAttack:
    """The lane attack on a unit entering a hex with ``marker_count`` markers (13.9, 13.91):
    past :data:`MAX_MARKERS` the crossfire changes nothing, so the count is taken at most
    that (many MGs' lanes through one hex are a situation, not an error)."""
    return VvFireLaneAttack(markers=min(marker_count, MAX_MARKERS), naturals=naturals)


class VvFireLaneAttack(RuleInput):
    """The attack on a unit entering a Fire Lane hex (13.9, 13.91)."""

    markers: int = Field(
        1,
        ge=1,
        le=MAX_MARKERS,
        description=(
            "Fire Lane markers in the hex entered, one per MG whose lane passes there (13.91): "
            "each after the first is -1 to the attack dice roll."
        ),
    )
    naturals: LaneNaturals = Field("none", description=NATURALS_HELP)


def lane_modifiers(inp: VvFireLaneAttack) -> list[Modifier]:
    """13.9: no combat or cover modifiers; 13.91: the crossfire's -1 per extra marker."""
    value = crossfire_modifier(inp.markers)
    if not value:
        return []
    label = f"crossfire, {inp.markers} Fire Lane markers"
    return [Modifier(label, Fraction(value), ModifierKind.DICE, "13.91")]


LANE_ROLL = "fire lane attack dice roll (2d6)"
"""The trace label of a lane attack's roll (:func:`lane_attack`)."""


def lane_result(roll: int, markers: int) -> tuple[int, Cell]:
    """A lane attack's modified roll and its cell on the 1-4 row (13.9), the crossfire's -1 per
    marker after the first applied (13.91): the cell's value is the Casualty Points, "-"
    none."""
    modified = roll + crossfire_modifier(markers)
    return modified, ap_combat_table().lookup_label(LANE_ROW, modified)


def lane_attack(inp: VvFireLaneAttack, chance: Chance) -> str:
    """Roll the lane attack: 2d6 less the crossfire modifier on the 1-4 row (13.9, 13.91); the
    Casualty Points ("-" none)."""
    if inp.naturals == "valor_and_sniper":
        roll = attack_dice_roll(chance, LANE_ROLL, infantry=True, valor_rolled=False)
    else:
        roll = chance.roll(TWO_D6, LANE_ROLL)
    modified, cell = lane_result(roll, inp.markers)
    chance.note("13.9 fire lane, 1-4 row", f"modified roll {modified}: {cell}")
    return cell.value


def lane_facts(inp: VvFireLaneAttack) -> list[tuple[str, str]]:
    """The row, and for the valor_and_sniper reading the chances of a natural 2 and 12."""
    found = [("AP Combat Table row", LANE_ROW), ("Fire Lane markers", str(inp.markers))]
    if inp.naturals == "valor_and_sniper":
        found.extend(natural_facts())
    return found


FIRE_LANE_ATTACK: Procedure[VvFireLaneAttack] = Procedure(
    name="fire_lane_attack",
    title="Fire lane attack (13.9, 13.91)",
    input_model=VvFireLaneAttack,
    rule=lane_attack,
    modifiers=lane_modifiers,
    chart="ap_combat",
    outcome_order=OUTCOMES,
    facts=lane_facts,
    meanings={"-": "no effect"},
)

PROCEDURES = (FIRE_LANE_ATTACK,)


@dataclass(frozen=True)
class LaneThreat:
    """What the lanes do to a unit entering one hex (13.9, 13.91): the MGs whose lanes pass
    there, the markers, and the exact chance of at least one Casualty Point."""

    mgs: tuple[str, ...]
    markers: int
    hit: Fraction

    def to_json(self) -> dict[str, object]:
        """``{"mgs", "markers", "probability", "fraction"}`` (the chance of 1 CP or more)."""
        return {
            "mgs": list(self.mgs),
            "markers": self.markers,
            "probability": float(self.hit),
            "fraction": str(self.hit),
        }


def lane_threat(
    lanes: Iterable[FireLane], readings: LaneReadings | None = None, *, least: int = 1
) -> dict[Hex, LaneThreat]:
    """For a threat map: each lane hex, the lanes there and the chance that the lane attack
    on a unit entering it inflicts ``least`` Casualty Points or more (the same rule a roll
    resolves, evaluated exactly; one CP pins, 14.61; a unit that ignores the first CP, 14.63,
    needs two)."""
    naturals = (readings or LaneReadings()).naturals
    lanes = tuple(lanes)
    found: dict[Hex, LaneThreat] = {}
    for hex_, count in markers(lanes).items():
        odds = FIRE_LANE_ATTACK.odds(lane_attack_input(count, naturals))
        hit = sum(
            (Fraction(p) for cps, p in odds.items() if cps != "-" and int(cps) >= least),
            Fraction(0),
        )
        mgs = tuple(lane.mg for lane in lanes if hex_ in lane.hexes)
        found[hex_] = LaneThreat(mgs, count, hit)
    return found


STANDING_LANES_EXAMPLE = "FROM-TO hex pairs separated by commas (0301-0305)"


def parse_lane_pairs(text: str, field: str = "standing_lanes") -> list[tuple[str, str]]:
    """``FROM-TO,...`` (``--standing-lanes``, the API's ``standing_lanes``): each lane laid
    earlier in the Movement Phase as its MG's hex and the hex it fired at (13.9); one line
    naming ``field`` when malformed."""
    found: list[tuple[str, str]] = []
    for token in (t.strip() for t in text.split(",")):
        if not token:
            continue
        start, sep, end = token.partition("-")
        if not sep or not start.strip() or not end.strip():
            raise InputError(field, STANDING_LANES_EXAMPLE, token)
        found.append((start.strip(), end.strip()))
    return found


def carries_mg(unit: ScenarioUnit) -> bool:
    """An infantry unit that may have laid a lane (13.9): an MG team, or a unit carrying an MG
    support weapon (12.2)."""
    if unit.type not in LANE_LAYERS:
        return False
    return unit.type == "mg_team" or any(w.kind == "mg" for w in unit.support_weapons)


def lane_layers(scenario: BoardScenario, hex_: Hex, side: str | None) -> list[ScenarioUnit]:
    """The units of a hex that may have laid a standing lane: those carrying an MG
    (:func:`carries_mg`) of a side other than ``side`` (the side moving; ``None``: any side),
    the unpinned first, then in file order (a pinned MG may have laid its lane before it was
    pinned, 13.9)."""
    found = [
        u for u in scenario.units_at(hex_) if carries_mg(u) and (side is None or u.side != side)
    ]
    return sorted(found, key=lambda u: u.pinned)


def _lane_mgs(
    scenario: BoardScenario, pairs: Sequence[tuple[str, str]], side: str | None
) -> list[ScenarioUnit]:
    """Each standing lane's MG unit (13.9 Fire Lane Examples: "Each machine gun may only create
    a single fire lane"): the lanes from one hex go to its MGs in :func:`lane_layers` order.
    A lane from a hex without an MG, or more lanes from a hex than its MGs, is refused in one
    line naming ``standing_lanes``."""
    board = scenario.board
    by_hex: dict[Hex, list[str]] = {}
    for start, end in pairs:
        by_hex.setdefault(board.hex(start), []).append(f"{start}-{end}")
    layers = {hex_: lane_layers(scenario, hex_, side) for hex_ in by_hex}
    for hex_, tokens in by_hex.items():
        mgs = layers[hex_]
        if not mgs:
            holding = sorted(
                {board.label(u.hex) for u in scenario.units if carries_mg(u)}
                if side is None
                else {board.label(u.hex) for u in scenario.enemies_of(side) if carries_mg(u)}
            )
            allowed = gettext(
                "FROM-TO lanes from a hex holding an MG of the side not moving (13.9: an MG's "
                "opportunity fire lays a lane): {hexes}"
            ).format(hexes=", ".join(holding) or gettext("none"))
            raise InputError("standing_lanes", allowed, tokens[0])
        if len(tokens) > len(mgs):
            allowed = gettext(
                "at most {n} lane(s) from {hex}, one per MG there (13.9: each MG creates a "
                "single fire lane): {mgs}"
            ).format(n=len(mgs), hex=board.label(hex_), mgs=", ".join(u.id for u in mgs))
            raise InputError("standing_lanes", allowed, ",".join(tokens))
    taken: dict[Hex, int] = {}
    found: list[ScenarioUnit] = []
    for start, _ in pairs:
        hex_ = board.hex(start)
        found.append(layers[hex_][taken.get(hex_, 0)])
        taken[hex_] = taken.get(hex_, 0) + 1
    return found


def lanes_laid_earlier(
    scenario: BoardScenario,
    pairs: Sequence[tuple[str, str]],
    readings: LaneReadings | None = None,
    *,
    side: str | None = None,
) -> tuple[FireLane, ...]:
    """The standing lanes of a Move Phase, laid earlier in it (13.9): each ``(FROM, TO)``
    (board labels) laid as :func:`lay_lane` lays it, named ``standing lane N``, by one MG of
    its ``FROM`` hex (``FireLane.unit``; :func:`_lane_mgs`: one lane per MG, a hex without an
    MG of a side other than ``side``, the side moving, lays none). Under the
    ``after_mg_pinned`` reading ``removed``, those whose MG is pinned in the scenario (a
    pinned unit may not fire, 14.7) are taken off; under ``stays`` (default) every one stands
    (13.9 removes markers only at the end of the Move Phase)."""
    readings = readings or LaneReadings()
    board = scenario.board
    mgs = _lane_mgs(scenario, pairs, side)
    laid = [
        replace(
            lay_lane(
                board,
                board.hex(start),
                board.hex(end),
                mg=f"standing lane {n}",
                firer_kind=unit.type,
                readings=readings,
            ),
            unit=unit.id,
        )
        for n, ((start, end), unit) in enumerate(zip(pairs, mgs, strict=True), start=1)
    ]
    gone = [lane.mg for lane, unit in zip(laid, mgs, strict=True) if unit.pinned]
    return standing_lanes(laid, gone, readings)


def lane_fire(scenario: BoardScenario, lanes: Iterable[FireLane]) -> BoardScenario:
    """The scenario with the unit of each lane's MG marked with a Fire marker (13.8: "Units
    that conduct an Opportunity Fire attack are marked with a Fire marker"): an MG that laid a
    lane earlier in the Movement Phase fires no more in it, neither on opportunity nor to lay
    a second lane (13.9). Lanes whose unit is unknown (``FireLane.unit`` ``None``) mark none."""
    fired = {lane.unit for lane in lanes if lane.unit is not None}
    if not fired or all(scenario.unit(u).fired for u in fired):
        return scenario
    units = tuple(replace(u, fired=True) if u.id in fired else u for u in scenario.units)
    return BoardScenario(
        scenario.name,
        scenario.board,
        scenario.sides,
        units,
        scenario.fortifications,
        scenario.snipers,
        scenario.source,
        scenario.board_name,
    )
