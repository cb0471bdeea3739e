"""An AFV's overrun in a scenario (V&V 19 on the board): route, fire and odds.

:func:`build_overrun` reads an overrun from a scenario: the AFV in ``stack_hex`` moves along
``path`` (its last hex the target hex) and on into the exit hex (19.3), paying each hex's cost
from the movement rules (6.2, 6.5: the first hexside turned in a hex free), +2 MPs. The
overrun attack (19.4) is at double the AFV's APFP with the target hex's cover (terrain and
fortification); its CPs go to the target hex's units as their owner allocates them (14.6,
``allocator``: :mod:`~firefight.rulesets.vv.allocator`).

AT fire at the AFV (AP fire has no effect on it, 14.1): the units the scenario rates (``atfp``
letters) and those named in ``at_ratings`` (unit id -> AT FP Rating A-F, 18.4) where it does
not, with the AFV's Armor Ratings (front, rear; 18.5), the scenario's or ``armour``; its
passengers' APFP is added to the attack (19.4, :mod:`.scenario_ratings`): opportunity fire
where the fire policy chooses, and the Final Opportunity Fire at the rear armour (19.2,
:mod:`~firefight.rulesets.vv.overrun_fire`; the shot, :mod:`~firefight.rulesets.vv.at_shots`).

:func:`overrun_odds` gives the exact distribution of the whole overrun (its outcome string:
the AFV's fate, where it stopped, every defender's state) and each defender's and the AFV's
marginal odds; :func:`resolve_overrun_move` one seeded or scripted run with its trace.

Parts, their public names re-exported here: the AT shot (:mod:`.at_shots`) and the overrun's
AT fire (:mod:`.overrun_fire`). This module keeps the route, the setup and the answers.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Literal

from firefight.board.hexes import Hex
from firefight.chance import Chance, Phases, Process, sample, scripted
from firefight.chance.distribution import Distribution
from firefight.chance.protocol import Resolution
from firefight.errors import InputError, RuleError
from firefight.i18n import gettext
from firefight.rulesets.vv.allocator import DEFAULT_ALLOCATOR, Allocator, HitHex, allocator_json
from firefight.rulesets.vv.ap import modifier_rows
from firefight.rulesets.vv.at_shots import (
    DEFAULT_AT_THRESHOLD,
    RATINGS,
    armour_ratings,
    at_opportunity_attack,
    facing_towards,
    leader_modifier_of,
    terrain_row,
)
from firefight.rulesets.vv.fire_policies import fire_policy
from firefight.rulesets.vv.move_steps import unit_for_casualties
from firefight.rulesets.vv.movement import entry_cost, vehicle_turn_cost
from firefight.rulesets.vv.overrun import (
    START,
    OverrunOutcome,
    OverrunPlan,
    OverrunTarget,
    VvFinalOpportunityFire,
    VvOverrunAttack,
    overrun_apfp,
    overrun_modifiers,
    overrun_phases,
    overrun_row,
    plan_overrun,
)
from firefight.rulesets.vv.overrun_fire import (
    AtPoint,
    AtShot,
    final_fire,
    opportunity_fire,
    overrun_ratings,
)
from firefight.rulesets.vv.scenario import (
    BoardScenario,
    ScenarioUnit,
    stacking_problem,
)
from firefight.rulesets.vv.scenario_ratings import afv_armour, carried_apfp
from firefight.rulesets.vv.units import HexUnits, Unit

__all__ = [
    "FORTIFICATION_KINDS",
    "POSITION_COST_HELP",
    "RATINGS",
    "AtPoint",
    "AtShot",
    "OverrunOdds",
    "OverrunSetup",
    "PositionCost",
    "armour_ratings",
    "at_opportunity_attack",
    "build_overrun",
    "facing_towards",
    "leader_modifier_of",
    "overrun_odds",
    "resolve_overrun_move",
]

PositionCost = Literal["not_charged", "charged"]
POSITION_COST_HELP = (
    "The 20.3 +1 MP for entering the target hex's fortification or entrenchment during an "
    "overrun: not_charged = the chapter 19 example's count (D2, woods with foxholes, costs 2: "
    "'two for D2 (moving into woods)', 7 in all); charged = 20.3's +1 applies (8 there)."
)
FORTIFICATION_KINDS = frozenset(
    {"concrete_bunker", "wood_earth_bunker", "sandbags", "foxhole", "trench", "cave"}
)
"""Positions whose cover applies to the overrun attack (19.4, 20); mines and wire give none."""


@dataclass(frozen=True)
class OverrunSetup:
    """Everything an overrun's odds read, built from the scenario."""

    scenario: BoardScenario
    afv: ScenarioUnit
    plan: OverrunPlan
    attack: VvOverrunAttack
    defenders: tuple[ScenarioUnit, ...]
    hex_units: HexUnits
    approach: tuple[tuple[AtShot, ...], ...]
    exit_fire: tuple[AtShot, ...]
    final: Mapping[int, VvFinalOpportunityFire]
    allocator: Allocator = DEFAULT_ALLOCATOR
    """How the defender, who owns the target hex's units, applies the attack's CPs (14.6)."""
    policy: str = "first_sight"
    """The fire policy that chose the AT opportunity fire (19.2, 13.8)."""

    def phases(self) -> Phases[OverrunOutcome]:
        """The overrun as phases (:func:`overrun.overrun_phases`), the defender's allocator
        asked with the hit on the target hex."""
        where = HitHex(
            self.scenario.board.label(self.plan.target),
            self.defenders[0].side if self.defenders else "",
            tuple(u.id for u in self.defenders),
        )
        return overrun_phases(
            self.attack,
            self.hex_units,
            [[s.attack for s in shots] for shots in self.approach],
            [s.attack for s in self.exit_fire],
            self.final,
            allocator=self.allocator,
            where=where,
        )

    def run(self, chance: Chance) -> OverrunOutcome:
        """The overrun, every die through ``chance``."""
        return self.phases()(START, chance)

    def to_json(self) -> dict[str, object]:
        """The route, the attack and every AT shot planned (docs/vv.md, "firefight move
        --overrun")."""
        board = self.scenario.board
        return {
            "afv": self.afv.id,
            **self.plan.to_json(board),
            "policy": self.policy,
            "attack": {
                "apfp": overrun_apfp(self.attack),
                "passenger_apfp": self.attack.passenger_apfp,
                "row": overrun_row(self.attack),
                "modifiers": modifier_rows(overrun_modifiers(self.attack)),
            },
            "defenders": [u.id for u in self.defenders],
            "at_fire": [
                s.to_json(self.scenario)
                for shots in (*self.approach, self.exit_fire)
                for s in shots
            ],
            "final_fire": [self.defenders[i].id for i in sorted(self.final)],
            "allocation": allocator_json(self.allocator),
        }


def _route_costs(
    scenario: BoardScenario,
    afv: ScenarioUnit,
    hexes: Sequence[Hex],
    position_cost: PositionCost = "not_charged",
) -> dict[tuple[Hex, Hex], int | None]:
    """Each step's MPs (6.2; 6.5 turning, the first hexside free), ``None`` where barred;
    ``hexes[-2]`` is the target hex, whose position's 20.3 +1 ``position_cost`` reads."""
    costs: dict[tuple[Hex, Hex], int | None] = {}
    facing = afv.facing or 1
    target = hexes[-2]
    for before, after in itertools.pairwise(hexes):
        if before.distance(after) != 1:
            costs[(before, after)] = 1  # plan_overrun names the broken path
            continue
        fort = scenario.fortification_at(after)
        kind = fort.kind if fort else None
        if after == target and position_cost == "not_charged":
            kind = None
        cost = entry_cost(afv, scenario.board, before, after, kind)
        if isinstance(cost, str):
            costs[(before, after)] = None
            continue
        direction = next(d for d in range(1, 7) if before.neighbour(d) == after)
        cost, facing = vehicle_turn_cost(facing, direction, cost)
        costs[(before, after)] = cost
    return costs


def _check_way(scenario: BoardScenario, afv: ScenarioUnit, plan: OverrunPlan) -> None:
    """6.8: no hex on the way but the target holds enemy units; 19.1: none holds a bunker;
    6.7, 6.9: the AFV may end its move in the exit hex."""
    board = scenario.board
    for hex_ in (*plan.path[1:-1], plan.exit):
        if any(u.side != afv.side for u in scenario.units_at(hex_)):
            msg = gettext(
                "no overrun through {hex}: it holds enemy units (6.8; only the target "
                "hex is overrun, 19.1)"
            ).format(hex=board.label(hex_))
            raise RuleError(msg)
        fort = scenario.fortification_at(hex_)
        if fort is not None and fort.kind in ("concrete_bunker", "wood_earth_bunker"):
            raise RuleError(
                gettext("no overrun through a hex containing a bunker (19.1): {hex}").format(
                    hex=board.label(hex_)
                )
            )
    staying = [u for u in scenario.units_at(plan.exit) if u.side == afv.side]
    problem = stacking_problem([*staying, afv])
    if problem is not None:
        msg = gettext(
            "the AFV ends its overrun in the exit hex {hex} (19.4), where it would "
            "make {problem} (6.7, 6.9)"
        ).format(hex=board.label(plan.exit), problem=problem)
        raise RuleError(msg)


def _with_passengers(scenario: BoardScenario, unit: ScenarioUnit) -> Unit:
    """A defender as it takes CPs, with the infantry it carries (14.65: collateral damage; a
    Gun being transported is not)."""
    found = unit_for_casualties(unit)
    riders = tuple(unit_for_casualties(p) for p in scenario.passengers_of(unit.id) if p.is_infantry)
    return replace(found, passengers=riders) if riders else found


def _overrunning_afv(scenario: BoardScenario, start: Hex, hexes: Sequence[Hex]) -> ScenarioUnit:
    """The AFV of ``start`` that may overrun along ``hexes`` (19.1, 19.3; 14.7, 5.33), or the
    one line saying why none may."""
    board = scenario.board
    afvs = [u for u in scenario.units_at(start) if u.type == "afv"]
    if not afvs:
        kinds = {u.type for u in scenario.units_at(start)}
        if "unarmoured_vehicle" in kinds:
            raise RuleError(
                gettext("only AFVs may make overrun attacks (19.1), not an unarmoured vehicle")
            )
        raise InputError(
            "stack", "a hex holding an AFV (19.1: only AFVs overrun)", board.label(start)
        )
    if len(hexes) < 2:
        raise InputError("path", "at least the target hex (19.3)", "")
    afv = afvs[0]
    if afv.pinned:
        raise RuleError(gettext("{id} is pinned and may not move (14.7)").format(id=afv.id))
    if afv.fired:
        raise RuleError(gettext("{id} has a Fire marker and may not move (5.33)").format(id=afv.id))
    if afv.moved:
        raise RuleError(
            gettext("{id} has a Move marker: it has moved this turn (5.33)").format(id=afv.id)
        )
    return afv


def build_overrun(
    scenario: BoardScenario,
    stack_hex: Hex | str,
    path: Sequence[Hex | str],
    *,
    armour: tuple[str, str] | None = None,
    at_ratings: Mapping[str, str] | None = None,
    position_cost: PositionCost = "not_charged",
    policy: str = "first_sight",
    at_threshold: Fraction = DEFAULT_AT_THRESHOLD,
    player: Mapping[str, str] | None = None,
    allocator: Allocator = DEFAULT_ALLOCATOR,
    passenger_apfp: int | None = None,
) -> OverrunSetup:
    """Check and set up the overrun of the AFV in ``stack_hex`` along ``path`` (19.1-19.4).

    ``policy``: who fires AT where (the move's fire policies: ``first_sight``, ``threshold``
    at ``at_threshold``, ``best_shot``, ``player`` with ``player`` firer -> hex, a hex of the
    approach or the exit hex; a rated unit not named holds its fire, so a unit of the target
    hex keeps its weapon for the Final Opportunity Fire at the rear armour, 19.2);
    ``allocator``: how the defender applies the attack's CPs (14.6); ``armour`` and
    ``passenger_apfp`` where the scenario gives none (:mod:`.scenario_ratings`)."""
    chooser = fire_policy(policy, threshold=at_threshold, player=player)
    board = scenario.board
    start = board.hex(stack_hex) if isinstance(stack_hex, str) else stack_hex
    hexes = [start, *(board.hex(h) if isinstance(h, str) else h for h in path)]
    afv = _overrunning_afv(scenario, start, hexes)
    plates = afv_armour(afv, armour_ratings(armour) if armour is not None else None)
    if plates is None:
        raise InputError("armour", "the AFV's Armor Ratings FRONT,REAR (A-F, 18.5)", None)
    front, rear = plates
    ratings = overrun_ratings(scenario, afv, at_ratings or {})
    target = hexes[-1]
    defenders = tuple(
        u for u in scenario.units_at(target) if u.side != afv.side and not u.is_passenger
    )
    fort = scenario.fortification_at(target)
    position = fort.kind if fort is not None and fort.kind in FORTIFICATION_KINDS else "none"
    beyond = Hex(2 * target.q - hexes[-2].q, 2 * target.r - hexes[-2].r)
    costs = _route_costs(scenario, afv, [*hexes, beyond], position_cost)
    plan = plan_overrun(
        board,
        hexes,
        OverrunTarget(
            tuple("armoured_vehicle" if u.type == "afv" else u.type for u in defenders),
            bunker=position in ("concrete_bunker", "wood_earth_bunker"),
        ),
        entry_cost=lambda a, b: costs.get((a, b)),
        movement_points=afv.movement_points or 0,
        towing_gun=any(u.type == "gun" for u in scenario.passengers_of(afv.id)),
    )
    attack = VvOverrunAttack(
        afv_apfp=max(afv.apfp, 1),
        passenger_apfp=carried_apfp(scenario, afv, passenger_apfp),
        target_terrain=terrain_row(board.terrain_of(target)),  # type: ignore[arg-type]
        fortification=position,  # type: ignore[arg-type]
    )
    hex_units = HexUnits(tuple(_with_passengers(scenario, u) for u in defenders))
    _check_way(scenario, afv, plan)
    approach, exit_fire = opportunity_fire(scenario, plan, ratings, (front, rear), chooser)
    fired = frozenset(shot.firer for shots in (*approach, exit_fire) for shot in shots)
    final = final_fire(scenario, plan, defenders, ratings, rear=rear, fired=fired)
    return OverrunSetup(
        scenario,
        afv,
        plan,
        attack,
        defenders,
        hex_units,
        tuple(tuple(s) for s in approach),
        tuple(exit_fire),
        final,
        allocator,
        policy,
    )


@dataclass(frozen=True)
class OverrunOdds:
    """The exact odds of an overrun: each outcome, the AFV's fate and each defender's state."""

    setup: OverrunSetup
    outcomes: Distribution[str]
    afv: Distribution[str]
    defenders: Mapping[str, Distribution[str]]

    def to_json(self) -> dict[str, object]:
        """``{"overrun": {...}, "exact": true, "afv": [...], "defenders": {...},
        "outcomes": [...]}`` (docs/vv.md)."""

        def listed(dist: Distribution[str]) -> list[dict[str, object]]:
            return [
                {"state": k, "probability": float(p), "fraction": str(p)} for k, p in dist.items()
            ]

        return {
            "overrun": self.setup.to_json(),
            "exact": True,
            "afv": listed(self.afv),
            "defenders": {k: listed(v) for k, v in self.defenders.items()},
            "outcomes": [
                {"outcome": k, "probability": float(p), "fraction": str(p)}
                for k, p in self.outcomes.items()
            ],
        }


def overrun_odds(setup: OverrunSetup) -> OverrunOdds:
    """The exact distribution of the whole overrun, from the same rule a run rolls."""
    process: Process[OverrunOutcome] = Process(setup.phases(), name="overrun")
    results = process.after(START, 1)
    afv: dict[str, Fraction] = {}
    per_unit: list[dict[str, Fraction]] = [{} for _ in setup.defenders]
    for outcome, p in results.items():
        fate = f"{outcome.afv} at {outcome.stopped}"
        afv[fate] = afv.get(fate, Fraction(0)) + p
        for i in range(len(setup.defenders)):
            state = outcome.defenders[i] if outcome.defenders else "not attacked"
            per_unit[i][state] = per_unit[i].get(state, Fraction(0)) + p
    outcomes = Distribution((str(o), p) for o, p in results.items())
    return OverrunOdds(
        setup,
        outcomes,
        Distribution(afv),
        {u.id: Distribution(per_unit[i]) for i, u in enumerate(setup.defenders)},
    )


def resolve_overrun_move(
    setup: OverrunSetup, *, seed: int | None = None, roll: Sequence[int | str] | None = None
) -> Resolution[OverrunOutcome]:
    """One overrun with seeded dice or the player's (``roll``), with its whole trace."""
    if roll is not None:
        return scripted(setup.run, roll)
    return sample(setup.run, seed or 0)
