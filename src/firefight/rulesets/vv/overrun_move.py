"""An AFV's overrun in a scenario (V&V 19 on the board, issue 15): route, fire and odds.

:func:`build_overrun` reads an overrun from a scenario: the AFV in ``stack_hex`` moves along
``path`` (its last hex the target hex) and on into the exit hex (19.3), paying each hex's cost
from the movement rules (6.2, 6.5: the first hexside turned in a hex free), +2 MPs. The
overrun attack (19.4) is at double the AFV's APFP with the target hex's cover (terrain and
fortification); its CPs go to the target hex's units by the casualty policy (14.6).

AT fire at the AFV (AP fire has no effect on it, 14.1): the units named in ``at_ratings``
(unit id -> AT FP Rating A-F, 18.4; the scenario's own ATFP values are not on the Armor
Elimination Table's letters, so the caller gives the letter) with the AFV's ``armour``
letters (front, rear; 18.5):

* opportunity fire (13.8, 19.2): each such unit not pinned and without a Fire marker, with
  LOS and range (an AT weapon's printed range, 18.2; a Gun's or AFV's gun unlimited, in its
  FFA, 7.4), fires once, at the first fire point where it may (the ``first_sight`` policy): a
  hex the AFV enters before the target hex, or its exit from the target hex (19.2); units in
  the target hex may fire on the approach too. The armour met is read from the Armor Facing
  Diagram (18.5) with the AFV facing the way it moves; the to-hit roll adds the cover of the
  AFV's hex and the hindrances along the LOS (13.4).
* Final Opportunity Fire (19.2): every surviving, unpinned unit of the target hex among them,
  at the rear armour, Fire marker or not, a leader's modifier included.

:func:`overrun_odds` gives the exact distribution of the whole overrun (its outcome string:
the AFV's fate, where it stopped, every defender's state) and each defender's and the AFV's
marginal odds; :func:`resolve_overrun_move` one seeded or scripted run with its trace.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal, cast

from firefight.board.hexes import Hex
from firefight.board.los import line_of_sight
from firefight.chance import Chance, Phases, Process, sample, scripted
from firefight.chance.distribution import Distribution
from firefight.chance.protocol import Resolution
from firefight.errors import InputError, RuleError
from firefight.i18n import gettext
from firefight.rulesets.vv.ap import BOARD_TERRAINS, TERRAIN_ROWS, terrain_cover
from firefight.rulesets.vv.at import Rating, VvAtAttack, armor_facing, at_modifiers
from firefight.rulesets.vv.board import VV_LOS
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
from firefight.rulesets.vv.scenario import (
    INFANTRY_TYPES,
    BoardScenario,
    ScenarioUnit,
    ffa_contains,
    stacking_problem,
)
from firefight.rulesets.vv.units import HexUnits

RATINGS = ("A", "B", "C", "D", "E", "F")
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
class AtShot:
    """One AT attack at the overrunning AFV: who fires, from where, at which fire point."""

    firer: str
    firer_hex: Hex
    at: str
    moment: str
    attack: VvAtAttack

    def to_json(self, scenario: BoardScenario) -> dict[str, object]:
        """The firer, its hex, the fire point, the armour met and the to-hit modifiers."""
        label = scenario.board.label
        return {
            "firer": self.firer,
            "firer_hex": label(self.firer_hex),
            "hex": self.at,
            "moment": self.moment,
            "weapon": self.attack.weapon,
            "atfp": self.attack.atfp,
            "facing": self.attack.facing,
            "range": self.attack.range_hexes,
            "modifiers": [
                {"label": m.label, "value": int(m.value), "rule": m.rule}
                for m in at_modifiers(self.attack)
            ],
        }


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

    def phases(self) -> Phases[OverrunOutcome]:
        """The overrun as phases (:func:`overrun.overrun_phases`)."""
        return overrun_phases(
            self.attack,
            self.hex_units,
            [[s.attack for s in shots] for shots in self.approach],
            [s.attack for s in self.exit_fire],
            self.final,
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
            "attack": {
                "apfp": overrun_apfp(self.attack),
                "row": overrun_row(self.attack),
                "modifiers": [
                    {"label": m.label, "value": int(m.value), "rule": m.rule}
                    for m in overrun_modifiers(self.attack)
                ],
            },
            "defenders": [u.id for u in self.defenders],
            "at_fire": [
                s.to_json(self.scenario)
                for shots in (*self.approach, self.exit_fire)
                for s in shots
            ],
            "final_fire": [self.defenders[i].id for i in sorted(self.final)],
        }


def _terrain_row(terrain: str) -> str:
    return terrain if terrain in TERRAIN_ROWS else BOARD_TERRAINS.get(terrain, "open")


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


def facing_towards(a: Hex, b: Hex) -> int:
    """The direction (1-6) from ``a`` to the adjacent ``b``: a vehicle moving from ``a`` into
    ``b`` faces it (6.5, 7.2)."""
    return next(d for d in range(1, 7) if a.neighbour(d) == b)


def leader_modifier_of(scenario: BoardScenario, unit: ScenarioUnit, *, final: bool) -> int:
    """13.6: the best unpinned leader's modifier in the firer's hex (19.2: even with a Fire
    marker for Final Opportunity Fire)."""
    return min(
        (
            u.leadership_modifier
            for u in scenario.units_at(unit.hex)
            if u.type == "leader"
            and not u.pinned
            and (final or not u.fired)
            and u.side == unit.side
        ),
        default=0,
    )


def at_opportunity_attack(
    scenario: BoardScenario,
    unit: ScenarioUnit,
    rating: Rating,
    armour: tuple[Rating, Rating],
    *,
    where: Hex,
    facing: int,
    hindrance: int | None = None,
) -> VvAtAttack | None:
    """The AT attack ``unit`` may make at the AFV in ``where`` facing ``facing`` (18), or none:
    LOS on the board (the V&V policy; hindrances +1 each, 13.4), the AFV hex's cover (13.4),
    the armour met from the Armor Facing Diagram (18.5); an infantry unit fires its
    ``anti_tank`` support weapon within its printed range (18.2) with its hex's best unfired
    leader (13.6); a Gun or AFV its gun at any range inside its FFA (7.4; turreted: any way).
    ``rating``: the AT FP letter (18.4); ``armour``: the AFV's front and rear letters (18.5).
    ``hindrance``: the LOS already read as clear with this hindrance modifier (the board's
    vectorized visible set under the same V&V policy, as a threat map reads every hex at
    once); ``None``: read here."""
    board = scenario.board
    distance = unit.hex.distance(where)
    if distance == 0:
        return None
    if hindrance is None:
        verdict = line_of_sight(board, unit.hex, where, VV_LOS)
        if not verdict.visible:
            return None
        hindrance = verdict.modifier
    cover = terrain_cover(_terrain_row(board.terrain_of(where)))
    common = {
        "atfp": rating,
        "range_hexes": distance,
        "target": "afv",
        "front_armor": armour[0],
        "rear_armor": armour[1],
        "facing": armor_facing(unit.hex, where, facing),
        "cover": cover,
        "hindrance": hindrance,
    }
    if unit.is_infantry:
        weapon = next((w for w in unit.support_weapons if w.kind == "anti_tank"), None)
        if weapon is None or distance > weapon.range:
            return None
        return VvAtAttack(
            weapon="at_weapon",
            weapon_range=weapon.range,
            leader_modifier=leader_modifier_of(scenario, unit, final=False),
            **common,  # type: ignore[arg-type]
        )
    if not ffa_contains(unit, where):
        return None
    return VvAtAttack(weapon="gun", **common)  # type: ignore[arg-type]


def armour_ratings(armour: tuple[str, str]) -> tuple[Rating, Rating]:
    """An AFV's Armor Ratings, front then rear, as the Armor Elimination Table's letters A-F
    (18.5), read in any case; one line naming ``armour`` otherwise."""
    letters = tuple(a.upper() for a in armour)
    if len(letters) != 2 or any(letter not in RATINGS for letter in letters):
        raise InputError("armour", "Armor Ratings A-F, front then rear (18.5)", ",".join(armour))
    return cast("tuple[Rating, Rating]", letters)


def _ratings(
    scenario: BoardScenario, afv: ScenarioUnit, given: Mapping[str, str]
) -> dict[str, Rating]:
    ratings: dict[str, Rating] = {}
    for unit_id, letter in given.items():
        unit = scenario.unit(unit_id)
        if unit.side == afv.side:
            raise InputError("at", "an enemy unit of the overrunning AFV", unit_id)
        if letter.upper() not in RATINGS:
            raise InputError(f"at.{unit_id}", "an AT FP Rating A-F (18.4)", letter)
        ratings[unit_id] = cast("Rating", letter.upper())
    return ratings


def _opportunity_fire(
    scenario: BoardScenario,
    plan: OverrunPlan,
    ratings: Mapping[str, Rating],
    armour: tuple[Rating, Rating],
) -> tuple[tuple[tuple[AtShot, ...], ...], tuple[AtShot, ...]]:
    """13.8, 19.2: each rated unit, unpinned and without a Fire marker, fires at the first
    fire point where it may (``first_sight``): an approach hex, or the exit."""
    points = plan.fire_points
    facings = [facing_towards(a, b) for a, b in itertools.pairwise(plan.path)]
    exit_facing = facing_towards(plan.target, plan.exit)
    approach: list[list[AtShot]] = [[] for _ in points[:-1]]
    exit_fire: list[AtShot] = []
    for unit_id, rating in ratings.items():
        unit = scenario.unit(unit_id)
        if unit.pinned or unit.fired:
            continue
        for n, point in enumerate(points):
            facing = exit_facing if point.moment == "exits" else facings[n]
            shot = at_opportunity_attack(
                scenario, unit, rating, armour, where=point.hex, facing=facing
            )
            if shot is None:
                continue
            label = scenario.board.label(point.hex)
            fired = AtShot(unit.id, unit.hex, label, point.moment, shot)
            (exit_fire if point.moment == "exits" else approach[n]).append(fired)
            break
    return tuple(tuple(s) for s in approach), tuple(exit_fire)


def _final_fire(
    scenario: BoardScenario,
    plan: OverrunPlan,
    defenders: Sequence[ScenarioUnit],
    ratings: Mapping[str, Rating],
    *,
    rear: Rating,
    fired: frozenset[str] = frozenset(),
) -> dict[int, VvFinalOpportunityFire]:
    """19.2: each rated unit of the target hex able to make an AT attack (an infantry unit
    with an AT weapon, or a Gun), Fire marker or not; 12.5: an Expendable (X) weapon that
    already fired on opportunity (``fired``) is gone."""
    final: dict[int, VvFinalOpportunityFire] = {}
    cover = terrain_cover(_terrain_row(scenario.board.terrain_of(plan.exit)))
    for index, unit in enumerate(defenders):
        rating = ratings.get(unit.id)
        weapons = [w for w in unit.support_weapons if w.kind == "anti_tank"]
        if unit.id in fired:
            spent = next((w for w in weapons if w.weapon_class == "X"), None)
            weapons = [w for w in weapons if w is not spent]
        able = unit.type == "gun" or (unit.is_infantry and bool(weapons))
        if rating is None or unit.pinned or not able:
            continue
        final[index] = VvFinalOpportunityFire(
            weapon="at_weapon" if unit.type in INFANTRY_TYPES else "gun",
            atfp=rating,
            rear_armor=rear,
            cover=cover,
            leader_modifier=leader_modifier_of(scenario, unit, final=True)
            if unit.is_infantry
            else 0,
        )
    return final


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


def build_overrun(
    scenario: BoardScenario,
    stack_hex: Hex | str,
    path: Sequence[Hex | str],
    *,
    armour: tuple[str, str],
    at_ratings: Mapping[str, str] | None = None,
    position_cost: PositionCost = "not_charged",
) -> OverrunSetup:
    """Check and set up the overrun of the AFV in ``stack_hex`` along ``path`` (19.1-19.4)."""
    board = scenario.board
    start = board.hex(stack_hex) if isinstance(stack_hex, str) else stack_hex
    hexes = [start, *(board.hex(h) if isinstance(h, str) else h for h in path)]
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
    front, rear = armour_ratings(armour)
    ratings = _ratings(scenario, afv, at_ratings or {})
    target = hexes[-1]
    defenders = tuple(u for u in scenario.units_at(target) if u.side != afv.side)
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
    )
    attack = VvOverrunAttack(
        afv_apfp=max(afv.apfp, 1),
        target_terrain=_terrain_row(board.terrain_of(target)),  # type: ignore[arg-type]
        fortification=position,  # type: ignore[arg-type]
    )
    hex_units = HexUnits(tuple(unit_for_casualties(u) for u in defenders))
    _check_way(scenario, afv, plan)
    approach, exit_fire = _opportunity_fire(scenario, plan, ratings, (front, rear))
    fired = frozenset(shot.firer for shots in (*approach, exit_fire) for shot in shots)
    final = _final_fire(scenario, plan, defenders, ratings, rear=rear, fired=fired)
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
