"""AT opportunity fire at a moving stack's AFVs and vehicles (V&V 13.8, 18 on the move).

13.8: "When a unit moves (i.e. enters a new hex), any enemy unit that has LOS to that unit, and
not marked with a Fire marker, may conduct an Opportunity Fire attack versus the unit." AP
fire has no effect on AFVs (14.1), so against them opportunity fire is AT fire (18): this
module adds it to the move of :mod:`~firefight.rulesets.vv.move_steps` on its extension
point (``after_fire`` phases), with the AT attack of :mod:`~firefight.rulesets.vv.at` (to-hit,
armour facing, elimination, immobilization and abandonment, valor on a natural 2) and the
shot an overrun's opportunity fire takes
(:func:`~firefight.rulesets.vv.at_shots.at_opportunity_attack`).

Who may fire AT (:func:`at_options`): each unit with an AT FP Rating (the Armor Elimination
Table's row, 18.4): the scenario's ``atfp`` letters, and those named in ``ratings`` (unit id ->
A-F, ``--at``) for units the scenario does not rate (:mod:`.scenario_ratings`), not pinned
(14.7) and without a Fire marker (13.8), that is an infantry unit with an AT support weapon in range
(18.1, 18.2) or a Gun, AFV or vehicle with its target in its FFA (7.4; a Gun's range is
unlimited, 18.2), with LOS to the hex entered (the V&V LOS policy; 13.8: no attack where
entering the hex breaks it). Each fires alone at one target (18.1: "AT fire affects a single
target unit"): the moving AFV, unarmoured vehicle or Gun in the hex with the best chance of being
stopped (eliminated or immobilized; an unarmoured vehicle hit is eliminated, 18.4).

The attack (:func:`at_attack_on`): the Anti-Tank To-Hit Numbers by weapon and range (18.3),
the cover of the hex entered and the hindrances along the LOS added to the to-hit roll (13.4),
a leader's modifier for infantry (13.6); the armour met from the Armor Facing Diagram (18.5)
with the AFV facing the way it moves (the hexside it crossed into the hex, the overrun's
reading), along the front/rear hexside a die decides; the Armor Elimination Table (18.4).

On the way: an immobilized AFV stops where it is (18.6: "may not move"), its crew checks for
abandonment (1d6 <= 2: eliminated); an AFV immobilized in a friendly hex already stacked to
its limit is eliminated (13.8, the move's settle phase); an eliminated vehicle is removed.
A firer that fires is marked (``fired:ID``); a unit attacked again in the same hex after
being immobilized checks for abandonment if it survives (18.6).

The fire policy (:data:`~firefight.rulesets.vv.fire_policies.POLICIES`, the same as AP fire's):
an AT attack's ``score`` is its exact chance of stopping its target (eliminated, immobilized
or abandoned), the AT equivalent of AP fire's expected CPs; ``threshold`` fires at the first
hex where it reaches ``at_threshold`` (:data:`DEFAULT_AT_THRESHOLD`, one in three) and
always at the first adjacent hex; ``first_sight``, ``best_shot`` and ``player`` as for AP
fire. A unit the AT plan fires keeps its one opportunity attack for it (13.8's Fire marker):
it is left out of the AP fire groups (``holding``).

:func:`build_at_move` builds the whole move (AP fire, fire lanes and AT fire);
:class:`AtMove` adds the AT fire plan to the move's JSON.

Parts, their public names re-exported here: the AT shot and its odds (:mod:`.at_shots`), the
threat map for vehicles (:mod:`.at_threat`, :func:`vehicle_threat`). This module keeps the
move's AT fire.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from firefight.board.hexes import Hex
from firefight.chance import Chance
from firefight.chance.process import integer_kernel
from firefight.errors import InputError
from firefight.rulesets.vv.at import Rating, VvAtAttack, at_attack, at_modifiers
from firefight.rulesets.vv.at_shots import (
    DEFAULT_AT_THRESHOLD,
    STOPS,
    VEHICLES,
    armour_ratings,
    at_odds,
    at_ratings,
    attack_json,
    facing_towards,
    stop_chance,
    vehicle_shot,
)
from firefight.rulesets.vv.at_threat import VehicleHexThreat, VehicleThreat, vehicle_threat
from firefight.rulesets.vv.attack_memo import AttackMemo
from firefight.rulesets.vv.fire_policies import DEFAULT_THRESHOLD, fire_policy
from firefight.rulesets.vv.lanes import FireLane, LaneReadings
from firefight.rulesets.vv.lanes_move import LaneMove, build_lane_move, lane_fired_plan
from firefight.rulesets.vv.move_shots import Aimed, ShotCache, ShotPhase, by_hex
from firefight.rulesets.vv.move_steps import MoveState
from firefight.rulesets.vv.movement import MovePlan
from firefight.rulesets.vv.opportunity import Firer, FortificationCover, sights_along
from firefight.rulesets.vv.scenario import ScenarioUnit
from firefight.rulesets.vv.scenario_ratings import afv_armour
from firefight.translation import gettext as _


@dataclass(frozen=True)
class AtTarget:
    """One vehicle of the stack an AT attack may target: its index in the stack, the attack
    (armour facing read for it) and the exact chance that the attack stops it."""

    mover: int
    attack: VvAtAttack
    stop: Fraction


@dataclass(frozen=True)
class AtOpportunity:
    """One AT attack a firer may make at the hex entered ``index`` (from 1): its targets,
    best first (the one it fires at is the first still in the hex)."""

    firer: Firer
    index: int
    hex: Hex
    label: str
    firer_label: str
    adjacent: bool
    targets: tuple[AtTarget, ...]

    @property
    def score(self) -> Fraction:
        """What the fire policy weighs: the chance of stopping the best target."""
        return self.targets[0].stop

    def to_json(self, stack: Sequence[ScenarioUnit]) -> dict[str, object]:
        """The firer, the hex, the best target's attack and its chance of stopping it."""
        best = self.targets[0]
        attack = best.attack
        return {
            "firer": self.firer.id,
            "firer_hex": self.firer_label,
            "hex": self.label,
            "index": self.index,
            "target": stack[best.mover].id,
            **attack_json(attack),
            "stop_chance": {"probability": float(best.stop), "fraction": str(best.stop)},
            "adjacent": self.adjacent,
        }


def at_attack_on(
    plan: MovePlan,
    unit: ScenarioUnit,
    rating: Rating,
    target: ScenarioUnit,
    *,
    armour: tuple[Rating, Rating],
    index: int,
    hindrance: int | None = None,
) -> VvAtAttack | None:
    """The AT attack ``unit`` may make at ``target`` entering the ``index``-th hex of the
    path, the target facing the way it moved (:func:`vehicle_shot`; ``hindrance``: the line
    already read as clear, with this modifier)."""
    before, where = plan.hexes[index - 1], plan.hexes[index]
    facing = facing_towards(before, where)
    return vehicle_shot(
        plan.scenario,
        unit,
        rating,
        target.type,
        armour=armour,
        where=where,
        facing=facing,
        hindrance=hindrance,
    )


Armour = tuple[str, str] | Mapping[str, tuple[str, str]]
"""The moving AFVs' Armor Ratings, front then rear (18.5): one pair for every AFV of the
stack, or a pair per AFV id."""


def _plates(plan: MovePlan, armour: Armour | None) -> dict[int, tuple[Rating, Rating]]:
    """Each moving AFV's armour letters, by its index in the stack, checked: the scenario's
    ``armour``, or those given where the scenario has none (:func:`afv_armour`)."""
    afvs = {u.id: i for i, u in enumerate(plan.stack) if u.type == "afv"}
    given: dict[str, tuple[Rating, Rating]] = {}
    if isinstance(armour, tuple):
        given = dict.fromkeys(afvs, armour_ratings(armour))
    elif armour is not None:
        for unit_id in armour:
            if unit_id not in afvs:
                raise InputError(
                    "armour",
                    _("ids of the moving AFVs: {afvs}").format(afvs=", ".join(afvs)),
                    unit_id,
                )
        given = {unit_id: armour_ratings(letters) for unit_id, letters in armour.items()}
    plates = {i: afv_armour(plan.stack[i], given.get(unit_id)) for unit_id, i in afvs.items()}
    missing = [unit_id for unit_id, i in afvs.items() if plates[i] is None]
    if missing and armour is None:
        raise InputError("armour", "the moving AFVs' Armor Ratings FRONT,REAR (A-F, 18.5)", None)
    if missing:
        raise InputError(
            "armour", "FRONT/REAR letters for every moving AFV (18.5)", "none for " + missing[0]
        )
    return {i: plate for i, plate in plates.items() if plate is not None}


def at_options(
    plan: MovePlan,
    ratings: Mapping[str, str],
    armour: Armour | None = None,
    memo: AttackMemo | None = None,
) -> dict[str, list[AtOpportunity]]:
    """Every AT attack each rated firer may make along the path, hex by hex, by unit id.
    ``armour``: the moving AFVs' Armor Ratings, front then rear (18.5), one pair for all or
    by AFV id; needed when an AFV moves and a unit is rated, refused when no AFV moves.
    ``memo``: the lines of sight judged on other paths (:func:`~.opportunity.sights_along`)."""
    letters = at_ratings(plan.scenario, plan.side, ratings)
    vehicles = [i for i, u in enumerate(plan.stack) if u.type in VEHICLES]
    afv = any(plan.stack[i].type == "afv" for i in vehicles)
    if armour is not None and not afv:
        shown = armour if isinstance(armour, tuple) else ",".join(armour)
        raise InputError("armour", "given when an AFV moves (18.5) or with --overrun", shown)
    if not letters or not vehicles:
        return {}
    plates = _plates(plan, armour) if afv else {}
    board = plan.scenario.board
    found: dict[str, list[AtOpportunity]] = {}
    firing = [u for u in map(plan.scenario.unit, letters) if not (u.pinned or u.fired)]
    sights = sights_along(plan, (u.hex for u in firing), memo)  # every line in one march
    for unit in firing:
        rating = letters[unit.id]
        firer = Firer(unit.id, unit.hex, (unit,), "infantry" if unit.is_infantry else "vehicle")
        options = []
        for step in plan.steps:
            seen = sights.get((unit.hex, step.hex))
            if seen is not None and not seen[0]:
                continue  # 13.8: no LOS, no attack
            targets = []
            for i in vehicles:
                attack = at_attack_on(
                    plan,
                    unit,
                    rating,
                    plan.stack[i],
                    armour=plates.get(i, ("A", "A")),
                    index=step.index,
                    hindrance=None if seen is None else seen[1],
                )
                if attack is not None:
                    targets.append(AtTarget(i, attack, stop_chance(attack)))
            if targets:
                targets.sort(key=lambda t: -t.stop)
                options.append(
                    AtOpportunity(
                        firer,
                        step.index,
                        step.hex,
                        step.label,
                        board.label(unit.hex),
                        unit.hex.distance(step.hex) == 1,
                        tuple(targets),
                    )
                )
        if options:
            found[unit.id] = options
    return found


def vehicles_in_hex(plan: MovePlan, state: MoveState) -> list[int]:
    """The moving AFVs and vehicles in the hex just entered (stopped there by an earlier
    attack included; 13.8: only the moving units)."""
    return [
        i
        for i, m in enumerate(state.movers)
        if plan.stack[i].type in VEHICLES
        and not m.eliminated
        and (m.stopped_at < 0 or (m.stopped_at == state.at and (m.pinned or m.immobilized)))
    ]


def at_phase(plan: MovePlan, shot: AtOpportunity) -> ShotPhase:
    """13.8, 18: the firer's AT attack at the first of its targets still in the hex; an
    immobilized AFV stops there, an eliminated or abandoned one is removed (18.4, 18.6). Its
    exact kernel from the attack's odds (:func:`~.at_shots.at_odds`, the same roll without
    the valor suffix, which changes no state; :mod:`.move_shots`)."""

    def aim(state: MoveState) -> tuple[int, VvAtAttack] | None:
        if state.halted or state.at != shot.index:
            return None
        present = set(vehicles_in_hex(plan, state))
        target = next((t for t in shot.targets if t.mover in present), None)
        if target is None:
            return None
        attack = target.attack
        if state.movers[target.mover].immobilized:
            attack = VvAtAttack.model_validate({**attack.model_dump(), "target_immobilized": True})
        return target.mover, attack

    def hit(state: MoveState, target: int, result: str) -> MoveState:
        movers = list(state.movers)
        mover = movers[target]
        if result in ("eliminated", "immobilized_abandoned", "abandoned"):
            movers[target] = mover._replace(eliminated=True, stopped_at=state.at)
        elif result == "immobilized":
            movers[target] = mover._replace(immobilized=True, stopped_at=state.at)
        return state._replace(movers=tuple(movers), marks=state.marks | {f"fired:{shot.firer.id}"})

    def fire(state: MoveState, chance: Chance) -> MoveState:
        aimed = aim(state)
        if aimed is None:
            return state
        target, attack = aimed
        mods = (
            "; ".join(f"{m.label} {int(m.value):+d} ({m.rule})" for m in at_modifiers(attack))
            or "none"
        )
        armour = f", {attack.facing} armour" if attack.target == "afv" else ""
        chance.note(
            "13.8 AT opportunity fire",
            f"{shot.firer.id} ({shot.firer_label}) at {plan.stack[target].id} in "
            f"{shot.label}: {attack.weapon}, AT FP {attack.atfp}{armour}, range "
            f"{attack.range_hexes}, to-hit modifiers: {mods}",
        )
        return hit(state, target, at_attack(attack, chance).split(";")[0])

    def known(state: MoveState) -> Aimed | None:
        aimed = aim(state)
        if aimed is None:
            return None
        target, attack = aimed
        odds = integer_kernel(at_odds(attack).items())
        return Aimed(odds, lambda result: (1, ((hit(state, target, result), 1),)))

    return ShotPhase(fire, known)


def at_fire_plan(
    options: Mapping[str, list[AtOpportunity]],
    policy: str,
    *,
    at_threshold: Fraction = DEFAULT_AT_THRESHOLD,
    player: Mapping[str, str] | None = None,
) -> tuple[AtOpportunity, ...]:
    """The AT attacks the named policy makes, in path order then firer order."""
    chooser = fire_policy(policy, threshold=at_threshold, player=player)
    chosen = [c for found in options.values() if (c := chooser.choose(found)) is not None]
    order = {firer_id: n for n, firer_id in enumerate(options)}
    return tuple(sorted(chosen, key=lambda o: (o.index, order[o.firer.id])))


@dataclass(frozen=True, eq=False)
class AtMove:
    """The whole move: its process with fire lanes (``lanes``) and the AT fire, every AT
    option and the AT attacks the policy makes."""

    lanes: LaneMove
    at_options: Mapping[str, list[AtOpportunity]]
    at_attacks: tuple[AtOpportunity, ...]

    def with_at(self, data: dict[str, object]) -> dict[str, object]:
        """A move's JSON (odds or run) with its lanes, ``"at_fire_plan"`` (each AT attack
        made: firer, hex, target, weapon, AT FP, armour facing, range, to-hit modifiers and
        the chance of stopping the target) and, per hex, ``"at_attacks"`` and
        ``"may_fire_at"``."""
        data = self.lanes.with_lanes(data)
        stack = self.lanes.model.plan.stack
        data["at_fire_plan"] = [a.to_json(stack) for a in self.at_attacks]
        hexes = data.get("hexes")
        if isinstance(hexes, list):
            for entry in hexes:
                index = int(entry["index"])
                entry["at_attacks"] = [a.firer.id for a in self.at_attacks if a.index == index]
                entry["may_fire_at"] = sorted(
                    firer
                    for firer, found in self.at_options.items()
                    if any(o.index == index for o in found)
                )
        return data


def _split_player(
    player: Mapping[str, str], at_found: Mapping[str, list[AtOpportunity]]
) -> tuple[dict[str, str], dict[str, str]]:
    """The player's choices for AT firers (named by unit id) and for AP fire (the rest)."""
    at_choice = {k: v for k, v in player.items() if k in at_found}
    return at_choice, {k: v for k, v in player.items() if k not in at_found}


def build_at_move(
    plan: MovePlan,
    policy: str = "threshold",
    *,
    threshold: Fraction = DEFAULT_THRESHOLD,
    at_threshold: Fraction = DEFAULT_AT_THRESHOLD,
    player: Mapping[str, str] | None = None,
    ratings: Mapping[str, str] | None = None,
    armour: Armour | None = None,
    fortification_cover: FortificationCover = "path_end",
    lanes: str = "always",
    lane_readings: LaneReadings | None = None,
    standing: Sequence[FireLane] = (),
    cache: ShotCache | None = None,
) -> AtMove:
    """The move with AP fire, fire lanes and AT fire at its vehicles, each chosen by the named
    policy (AP: ``threshold`` expected CPs; AT: ``at_threshold`` chance of stopping).
    ``cache``: the attacks' odds and hits (:class:`~.move_shots.ShotCache`; a new one by
    default)."""
    plan = lane_fired_plan(plan, standing)  # 13.8: the standing lanes' MGs have fired
    found = at_options(plan, ratings or {}, armour)
    at_choice, ap_choice = _split_player(player or {}, found)
    chosen = at_fire_plan(found, policy, at_threshold=at_threshold, player=at_choice)
    holding = frozenset(a.firer.id for a in chosen)
    lane_move = build_lane_move(
        plan,
        policy,
        threshold=threshold,
        player=ap_choice,
        fortification_cover=fortification_cover,
        lanes=lanes,
        lane_readings=lane_readings,
        standing=standing,
        holding=holding,
        after_fire=(by_hex((a.index, at_phase(plan, a)) for a in chosen),),
        cache=None if cache is None else replace(cache, plan=plan),
    )
    return AtMove(lane_move, found, chosen)


__all__ = [
    "DEFAULT_AT_THRESHOLD",
    "STOPS",
    "VEHICLES",
    "Armour",
    "AtMove",
    "AtOpportunity",
    "AtTarget",
    "VehicleHexThreat",
    "VehicleThreat",
    "at_attack_on",
    "at_fire_plan",
    "at_odds",
    "at_options",
    "at_phase",
    "at_ratings",
    "build_at_move",
    "stop_chance",
    "vehicle_shot",
    "vehicle_threat",
    "vehicles_in_hex",
]
