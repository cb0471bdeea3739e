"""V&V threat map: for the side about to move, each hex's enemy units that could fire
on a unit entering it (13.8), and the exact chance of being pinned or worse there.

A threat map answers the defender's question before a stack moves: where can it be shot at,
by whom, and how likely is it to be pinned? For each hex of the board it lists every enemy
fire group that could make an Opportunity Fire attack on a unit entering the hex (13.8: LOS on
the board, the V&V LOS policy; in range, 13.3; no Fire marker; not pinned, 14.7; mortars never
fire on opportunity, 12.61), each with its attack (the AP attack of :mod:`.ap`, with the
opportunity fire modifiers, the hindrances and the hex's cover read from the board) and the
chance that the attack pins the target or does worse, and the chance over all of them.

**The target** (:class:`ThreatTarget`) is the moving stack when one is named (the side's
infantry in that hex), else :data:`REFERENCE_TARGET`: a full infantry squad, moving normally,
in the hex's own terrain; either may use Assault Movement (6.4: +1 cover). Pinned or worse
means at least one Casualty Point reaches it (14.61: "pin a unit for 1 CP"; a stack's CPs must
go to its units, so one CP pins one of them; a target that ignores the first CP, 14.63, needs
two).

**Every firer fires**: the hex's chance is that at least one of its firers' attacks pins the
target, the attacks independent (a Fire marker goes on each firer, 13.8, so no firer fires
twice), ``1 - prod(1 - p_i)``. This is the most the defender can make of the hex, whatever its
opportunity fire policy (:mod:`.fire_policies` choose *where* each firer fires along a
path; the map shows where each *could*). It is exact: the attacks are independent dice rolls
and "pinned or worse" needs only one of them to put a CP on the target.

Who fires and with what attack is the move's own code (:mod:`.opportunity`): its firers
(:func:`~.opportunity.firers`: fire groups 14.2, Guns, AFVs and vehicles alone 14.4) and
its attack (:func:`~.opportunity.attack_at`: APFP by range with 12.3's support
weapons, the leader's modifier, the FFA, the modifiers read from the board by ``with_board``),
and the CPs' odds are :func:`~.opportunity.cp_odds`, the roll a move resolves. The map only
reads the lines of sight of every firing hex at once (a vectorized visible set) instead of one
line per hex. Readings of the map: a unit entering a hex passes through it, so a fortification
there gives no cover (the move's default ``path_end`` reading gives it only at the path's end);
the sniper (17.4) is left off: it fires once a turn at one target with its own attack (17.5),
which ``firefight move`` resolves; minefields (20.7) attack on entry whoever fires, and are
shown by the move, not the map.

**Fire lanes** (13.9, 13.91): the lanes standing when the side moves (laid earlier in the
Movement Phase, :func:`~.lanes_standing.lanes_laid_earlier`) attack a unit entering any of
their hexes, on the 1-4 row with the crossfire modifier; each lane hex gets its lane attack
(:func:`~.lane_attack.lane_threat`, the roll a move resolves), and its chance joins the firers':
``1 - (1 - p_fire) (1 - p_lane)``, the rolls independent. The lanes the enemy MGs *would* lay
are not on the map: a lane runs to the hex its MG fires at and attacks only units entering its
hexes afterwards (13.9), so it depends on the path, which ``firefight move`` answers. The
unit whose MG laid a standing lane has fired (13.8: a Fire marker), so it is no opportunity
firer on the map (as in the move, :func:`~.lanes_move.lane_fired_plan`).

Public API: :func:`threat_map` (a :class:`ThreatMap`), :func:`threat_json` (``firefight
threat --json``, docs/vv.md "Threat map"), :func:`threat_overlay` (the picture's overlay).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import lru_cache

import numpy as np

from firefight.board.board import Board
from firefight.board.hexes import Hex
from firefight.board.overlay import Counter, Overlay
from firefight.board.visibility import LosTool
from firefight.errors import InputError, one_of
from firefight.rulesets.vv.ap import VvApAttack, modifier_rows
from firefight.rulesets.vv.board import VV_LOS
from firefight.rulesets.vv.lane_attack import LaneThreat, crossfire_modifier, lane_threat
from firefight.rulesets.vv.lanes import LANE_ROW, FireLane, LaneReadings
from firefight.rulesets.vv.lanes_standing import lane_fire
from firefight.rulesets.vv.opportunity import Firer, attack_at, cp_odds, firers
from firefight.rulesets.vv.scenario import (
    BoardScenario,
    ScenarioUnit,
    ffa_contains,
    prohibited,
    stacks_text,
)
from firefight.translation import N_
from firefight.translation import gettext as _

ONE = Fraction(1)
ZERO = Fraction(0)


@dataclass(frozen=True)
class ThreatTarget:
    """What the map's odds are for: a description, whether it moves with Assault Movement (6.4:
    +1 cover, which is positive cover for 13.8's -1) and whether it ignores the first CP
    (14.63: a valorous unit)."""

    description: str
    assault_movement: bool = False
    ignores_first_cp: bool = False
    units: tuple[str, ...] = ()


REFERENCE_TARGET = ThreatTarget("a full squad moving normally (reference target)")
"""The target of a threat map when no stack is named: a full infantry squad, not valorous,
moving normally (no Assault Movement), in the entered hex's own terrain. Any unhurt infantry
unit gives the same chance of being pinned or worse (one CP pins, whatever its Casualty
Rating, 14.61); the alternative not taken, a stack's worst unit, needs a stack."""


@dataclass(frozen=True)
class FirerThreat:
    """One fire group's Opportunity Fire attack on a unit entering a hex."""

    group: Firer
    attack: VvApAttack
    pinned_or_worse: Fraction


@dataclass(frozen=True)
class HexThreat:
    """Everything that could fire on a unit entering one hex, the standing fire lanes' attack
    there (13.9, 13.91; ``None`` without markers), and the chance over all."""

    hex: Hex
    firers: tuple[FirerThreat, ...]
    pinned_or_worse: Fraction
    lanes: LaneThreat | None = None


@dataclass(frozen=True)
class ThreatMap:
    """The threat map of one side's move: every hex some enemy could fire on."""

    scenario: BoardScenario
    side: str
    target: ThreatTarget
    groups: tuple[Firer, ...]
    hexes: Mapping[Hex, HexThreat] = field(default_factory=dict)
    stack: Hex | None = None
    lanes: tuple[FireLane, ...] = ()


def fire_groups(scenario: BoardScenario, side: str) -> tuple[Firer, ...]:
    """The enemy fire groups, Guns, AFVs and vehicles that may fire on opportunity at ``side``'s
    units (:func:`~.opportunity.firers` without the snipers), by hex."""
    if side not in scenario.sides:
        raise InputError("side", one_of(scenario.sides), side)
    found = [f for f in firers(scenario, side) if f.kind != "sniper"]
    return tuple(sorted(found, key=lambda f: (f.hex, f.id)))


def visible_from_hexes(board: Board, origins: Sequence[Hex]) -> dict[Hex, Mapping[Hex, int]]:
    """9.x, 10.x: what each of ``origins`` sees on the board, with each line's hindrances (the
    V&V LOS policy, vectorized over the board, every origin in one batch)."""
    tool = LosTool(board, VV_LOS)
    rows = np.array([tool.index(h) for h in origins], dtype=np.int32)
    visible, modifier = tool.rows(rows)
    hexes = tool.hexes
    found: dict[Hex, Mapping[Hex, int]] = {}
    for origin, seen, mods in zip(origins, visible, modifier, strict=True):
        cells = np.flatnonzero(seen)
        found[origin] = dict(
            zip([hexes[j] for j in cells.tolist()], mods[cells].tolist(), strict=True)
        )
    return found


@lru_cache(maxsize=4096)
def _pinned_or_worse(attack: VvApAttack, ignores_first_cp: bool) -> Fraction:
    """14.61: one CP pins (two for a unit that ignores the first, 14.63); the odds are those of
    the roll a move resolves (:func:`~.opportunity.cp_odds`)."""
    least = 2 if ignores_first_cp else 1
    return sum((p for cps, p in cp_odds(attack).items() if cps >= least), ZERO)


def threat_map(
    scenario: BoardScenario,
    side: str,
    *,
    stack: Hex | None = None,
    target: ThreatTarget | None = None,
    sight: Callable[[Board, Hex], Mapping[Hex, int]] | None = None,
    assault_movement: bool = False,
    lanes: Sequence[FireLane] = (),
    lane_readings: LaneReadings | None = None,
) -> ThreatMap:
    """The threat map of ``side``'s move (see the module's docstring).

    ``stack``: the moving stack's hex (one of ``side``'s); its units are the target and its
    own hex is left off the map. ``target``: the target when no stack is named (default
    :data:`REFERENCE_TARGET`). ``assault_movement``: the stack or the reference target moves
    with Assault Movement (6.4: +1 cover). ``sight``: every hex a hex sees with the line's
    hindrance modifier (default: the board's vectorized visible set under the V&V LOS policy,
    one per firing hex; the tests and the benchmark pass a line-by-line twin). ``lanes``: the
    fire lanes standing when the side moves (13.9; :func:`~.lanes_standing.lanes_laid_earlier` lays
    them and applies the ``after_mg_pinned`` reading), their attacks read with
    ``lane_readings`` (its ``naturals``); the MG that laid each has fired (13.8, a Fire marker:
    :func:`~.lanes_standing.lane_fire`, as the move reads it), so its unit is no firer here.
    """
    scenario = lane_fire(scenario, lanes)
    groups = fire_groups(scenario, side)
    chosen = _stack_target(scenario, side, stack) if stack is not None else target
    chosen = chosen or REFERENCE_TARGET
    if assault_movement and not chosen.assault_movement:
        description = chosen.description.replace("moving normally", "using Assault Movement")
        if stack is not None:
            description += ", using Assault Movement"
        chosen = replace(chosen, description=description, assault_movement=True)
    board = scenario.board
    closed = {u.hex for u in scenario.enemies_of(side)}  # 6.8: no entering an enemy's hex
    closed.update(h for h in board.hexes() if prohibited("squad", board.terrain_of(h)))
    if stack is not None:
        closed.add(stack)
    found: dict[Hex, list[FirerThreat]] = {}
    origins = sorted({g.hex for g in groups})
    seen_from = (
        visible_from_hexes(board, origins)
        if sight is None
        else {h: sight(board, h) for h in origins}
    )
    shared = Shared()
    for group in groups:
        seen = seen_from[group.hex]
        for hex_, firer in _group_threats(scenario, group, seen, chosen, closed, shared):
            found.setdefault(hex_, []).append(firer)
    least = 2 if chosen.ignores_first_cp else 1
    laned = {
        h: t
        for h, t in lane_threat(lanes, lane_readings, least=least).items()
        if h in board and h not in closed
    }
    hexes = {}
    for hex_ in sorted(found.keys() | laned.keys()):
        firers = tuple(found.get(hex_, ()))
        spared = ONE
        for firer in firers:
            spared *= ONE - firer.pinned_or_worse
        lane = laned.get(hex_)
        if lane is not None:
            spared *= ONE - lane.hit
        hexes[hex_] = HexThreat(hex_, firers, ONE - spared, lane)
    return ThreatMap(scenario, side, chosen, groups, hexes, stack, tuple(lanes))


def _stack_target(scenario: BoardScenario, side: str, stack: Hex) -> ThreatTarget:
    """The moving stack as the target: ``side``'s infantry in ``stack``."""
    label = scenario.board.label(stack) if stack in scenario.board else str(stack)
    units = scenario.units_at(stack)
    if not units or any(u.side != side for u in units):
        allowed = _("a hex holding {side}'s units: {stacks_text}").format(
            side=side, stacks_text=stacks_text(scenario, side)
        )
        raise InputError("stack", allowed, label)
    if not all(u.is_infantry for u in units):
        allowed = N_("a stack of infantry (the threat map's odds are AP fire on infantry, 14.1)")
        raise InputError("stack", allowed, label)
    names = ", ".join(u.label for u in units)
    return ThreatTarget(f"stack {label} ({names})", units=tuple(u.id for u in units))


@dataclass
class Shared:
    """The attacks already built in one map, by :func:`_group_threats`' key, and each firer
    profile's number (a small key, quick to hash)."""

    attacks: dict[tuple[int, int, str, int, bool], tuple[VvApAttack, Fraction] | None] = field(
        default_factory=dict
    )
    profiles: dict[tuple[object, ...], int] = field(default_factory=dict)


_NOWHERE = Hex(0, 0)


def _profile(scenario: BoardScenario, group: Firer) -> tuple[object, ...]:
    """What of a firer its attack reads besides the hex entered: its kind, its units with their
    ids, names and hexes blanked, and the fortification it fires from (20.8's barbed wire)."""
    units = tuple(replace(u, id="", name="", hex=_NOWHERE) for u in group.units)
    return (group.kind, units, scenario.fortification_at(group.hex))


def _group_threats(  # noqa: PLR0917 - the map's shared state
    scenario: BoardScenario,
    group: Firer,
    seen: Mapping[Hex, int],
    target: ThreatTarget,
    closed: set[Hex],
    shared: Shared,
) -> Iterator[tuple[Hex, FirerThreat]]:
    """The hexes ``group`` could fire into on opportunity (13.8), each with its attack
    (:func:`~.opportunity.attack_at`). The attack depends on the hex entered only through its
    distance, its terrain, the line's hindrance and (for a Gun, AFV or vehicle) whether it lies
    in the Forward Firing Arc, and on the firer only through :func:`_profile`, so it is built
    once per such key and shared by firers alike (``shared``)."""
    board = scenario.board
    lead = group.units[0]
    profile = shared.profiles.setdefault(_profile(scenario, group), len(shared.profiles))
    mine: dict[tuple[int, int, str, int, bool], FirerThreat | None] = {}
    for hex_, hindrance in seen.items():
        distance = group.hex.distance(hex_)
        if distance == 0 or hex_ in closed:
            continue
        arc = group.kind != "vehicle" or ffa_contains(lead, hex_)
        key = (profile, distance, board.terrain_of(hex_), hindrance, arc)
        if key not in mine:
            if key not in shared.attacks:
                found = attack_at(
                    scenario, group, hex_, assault=target.assault_movement, hindrance=hindrance
                )
                attack = found.attack if found is not None else None
                shared.attacks[key] = (
                    None
                    if attack is None
                    else (attack, _pinned_or_worse(attack, target.ignores_first_cp))
                )
            built = shared.attacks[key]
            mine[key] = None if built is None else FirerThreat(group, *built)
        threat = mine[key]
        if threat is not None:
            yield hex_, threat


def _modifiers(attack: VvApAttack) -> list[dict[str, object]]:
    from firefight.rulesets.vv.ap import modifiers  # noqa: PLC0415 - the procedure's own list

    return modifier_rows(modifiers(attack))


def threat_json(found: ThreatMap) -> dict[str, object]:
    """``firefight threat --json`` (docs/vv.md, "Threat map")."""
    from firefight.rulesets.vv.ap import row_label  # noqa: PLC0415

    label = found.scenario.board.label
    hexes: dict[str, object] = {}
    for hex_, threat in found.hexes.items():
        firers = []
        for firer in threat.firers:
            mods = _modifiers(firer.attack)
            firers.append(
                {
                    "units": [u.id for u in firer.group.units],
                    "hex": label(firer.group.hex),
                    "range": firer.group.hex.distance(hex_),
                    "apfp": firer.attack.apfp,
                    "row": row_label(firer.attack),
                    "modifiers": mods,
                    "dice_modifier": sum(int(m["value"]) for m in mods),  # type: ignore[call-overload]
                    "pinned_or_worse": str(firer.pinned_or_worse),
                }
            )
        hexes[label(hex_)] = {
            "pinned_or_worse": str(threat.pinned_or_worse),
            "firers": firers,
            "lanes": [] if threat.lanes is None else [_lane_json(found, threat.lanes)],
        }
    return {
        "scenario": found.scenario.name,
        "board": found.scenario.board_name or found.scenario.board.name,
        "side": found.side,
        "stack": label(found.stack) if found.stack is not None else None,
        "target": {
            "description": found.target.description,
            "units": list(found.target.units),
            "assault_movement": found.target.assault_movement,
            "ignores_first_cp": found.target.ignores_first_cp,
        },
        "firers": [
            {"units": [u.id for u in g.units], "hex": label(g.hex), "kind": g.kind}
            for g in found.groups
        ],
        "lanes": [lane.to_json(found.scenario.board) for lane in found.lanes],
        "hexes": hexes,
    }


def _lane_json(found: ThreatMap, threat: LaneThreat) -> dict[str, object]:
    """A hex's lane attack (13.9, 13.91): the lanes' MGs and hexes, the markers, the 1-4 row,
    the crossfire modifier and the chance of pinned or worse."""
    label = found.scenario.board.label
    by_mg = {lane.mg: lane for lane in found.lanes}
    return {
        "mgs": list(threat.mgs),
        "from": [label(by_mg[mg].firer) for mg in threat.mgs],
        "markers": threat.markers,
        "row": LANE_ROW,
        "dice_modifier": crossfire_modifier(threat.markers),
        "pinned_or_worse": str(threat.hit),
    }


def scenario_counters(scenario: BoardScenario) -> tuple[Counter, ...]:
    """The scenario's units as counters: side index by the order of ``scenario.sides``."""
    order = {side: index for index, side in enumerate(scenario.sides)}
    counters = []
    for unit in scenario.units:
        state = "pinned" if unit.pinned else ("fired" if unit.fired else "")
        counters.append(Counter(unit.hex, _short(unit), order.get(unit.side, 0), state))
    return tuple(counters)


def _short(unit: ScenarioUnit) -> str:
    """A counter's text: its type's abbreviation and its APFP."""
    kinds = {
        "squad": "Sq",
        "half_squad": "HS",
        "leader": "Ldr",
        "mg_team": "MG",
        "gun": "Gun",
        "afv": "AFV",
        "unarmoured_vehicle": "Veh",
    }
    return f"{kinds[unit.type]} {unit.current_apfp}"


def threat_overlay(found: ThreatMap, *, path: Sequence[Hex] = ()) -> Overlay:
    """The threat map as a picture's overlay: the scenario's counters, each hex shaded by its
    chance of pinned or worse with the percentage printed, the standing fire lanes (each a
    chain of markers from its MG's hex, 13.9) and a path if given."""
    return Overlay(
        counters=scenario_counters(found.scenario),
        path=tuple(path),
        lanes=tuple((lane.firer, *lane.hexes) for lane in found.lanes),
        shading={h: t.pinned_or_worse for h, t in found.hexes.items()},
        notes={h: f"{float(t.pinned_or_worse):.0%}" for h, t in found.hexes.items()},
        legend=f"{found.side}: P(pinned or worse) on entering, {found.target.description}",
    )
