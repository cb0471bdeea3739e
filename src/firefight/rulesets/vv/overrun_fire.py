"""V&V 19.2 on the board: the AT fire at an overrunning AFV, chosen before the overrun.

Opportunity fire (13.8, 19.2): each unit named with its AT FP Rating (``ratings``, 18.4),
unpinned and without a Fire marker, with LOS and range (an AT weapon's printed range, 18.2; a
Gun's or AFV's gun unlimited, in its FFA, 7.4), may fire at a *fire point*: a hex the AFV
enters before the target hex (units in the target hex may fire on the approach too), or its
exit from the target hex. The fire policy (the move's,
:func:`~firefight.rulesets.vv.fire_policies.fire_policy`) chooses where each fires, or that it
holds its fire; the shot is :func:`~firefight.rulesets.vv.at_shots.at_opportunity_attack`.

Final Opportunity Fire (19.2): every surviving, unpinned unit of the target hex among them, at
the rear armour, Fire marker or not, a leader's modifier included; an Expendable (X) weapon
already fired is gone (12.5).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import cast

from firefight.board.hexes import Hex
from firefight.errors import InputError
from firefight.rulesets.vv.ap import terrain_cover
from firefight.rulesets.vv.at import Rating, VvAtAttack
from firefight.rulesets.vv.at_shots import (
    RATINGS,
    at_opportunity_attack,
    attack_json,
    facing_towards,
    leader_modifier_of,
    stop_chance,
    terrain_row,
)
from firefight.rulesets.vv.fire_policies import FirePolicy
from firefight.rulesets.vv.opportunity import Firer
from firefight.rulesets.vv.overrun import OverrunPlan, VvFinalOpportunityFire
from firefight.rulesets.vv.scenario import INFANTRY_TYPES, BoardScenario, ScenarioUnit
from firefight.rulesets.vv.scenario_ratings import with_scenario_ratings
from firefight.translation import gettext as _


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
            **attack_json(self.attack),
        }


def overrun_ratings(
    scenario: BoardScenario, afv: ScenarioUnit, given: Mapping[str, str]
) -> dict[str, Rating]:
    """The AT firers at ``afv``: the scenario's rated enemies and those named with their AT FP
    Rating where it gives none, checked (18.4)."""
    ratings: dict[str, Rating] = {}
    for unit_id, letter in given.items():
        unit = scenario.unit(unit_id)
        if unit.side == afv.side:
            raise InputError("at", "an enemy unit of the overrunning AFV", unit_id)
        if letter.upper() not in RATINGS:
            raise InputError(f"at.{unit_id}", "an AT FP Rating A-F (18.4)", letter)
        ratings[unit_id] = cast("Rating", letter.upper())
    return with_scenario_ratings(scenario, afv.side, ratings)


@dataclass(frozen=True)
class AtPoint:
    """One AT shot a unit may take at a fire point (``index`` from 1, 19.2), as a fire policy
    weighs it (:class:`~firefight.rulesets.vv.fire_policies.Shot`): ``score`` the chance it
    stops the AFV (18.4, 18.6)."""

    firer: Firer
    index: int
    label: str
    adjacent: bool
    shot: AtShot

    @property
    def score(self) -> Fraction:
        """The chance the shot stops the AFV."""
        return stop_chance(self.shot.attack)


def opportunity_fire(
    scenario: BoardScenario,
    plan: OverrunPlan,
    ratings: Mapping[str, Rating],
    armour: tuple[Rating, Rating],
    chooser: FirePolicy,
) -> tuple[tuple[tuple[AtShot, ...], ...], tuple[AtShot, ...]]:
    """13.8, 19.2: each rated unit, unpinned and without a Fire marker, fires at the fire
    point the policy chooses among those where it may (an approach hex, or the exit), or
    holds its fire (a unit of the target hex keeps its weapon for the Final Opportunity Fire
    at the rear armour)."""
    points = plan.fire_points
    facings = [facing_towards(a, b) for a, b in itertools.pairwise(plan.path)]
    exit_facing = facing_towards(plan.target, plan.exit)
    approach: list[list[AtShot]] = [[] for _ in points[:-1]]
    exit_fire: list[AtShot] = []
    choices: dict[str, list[AtPoint]] = {}
    for unit_id, rating in ratings.items():
        unit = scenario.unit(unit_id)
        if unit.pinned or unit.fired:
            continue
        firer = Firer(unit.id, unit.hex, (unit,), "infantry" if unit.is_infantry else "vehicle")
        for n, point in enumerate(points):
            facing = exit_facing if point.moment == "exits" else facings[n]
            shot = at_opportunity_attack(
                scenario, unit, rating, armour, where=point.hex, facing=facing
            )
            if shot is None:
                continue
            label = scenario.board.label(point.hex)
            fired = AtShot(unit.id, unit.hex, label, point.moment, shot)
            adjacent = unit.hex.distance(point.hex) == 1
            choices.setdefault(unit_id, []).append(AtPoint(firer, n + 1, label, adjacent, fired))
    check_named(chooser, choices)
    for found in choices.values():
        chosen = chooser.choose(found)
        if chosen is not None:
            n = chosen.index - 1
            (exit_fire if chosen.shot.moment == "exits" else approach[n]).append(chosen.shot)
    return tuple(tuple(s) for s in approach), tuple(exit_fire)


def check_named(chooser: FirePolicy, choices: Mapping[str, list[AtPoint]]) -> None:
    """``player``: every firer named is a rated unit with a shot on the overrun (one line)."""
    named = getattr(chooser, "hexes", None)
    for name in named or {}:
        if name not in choices:
            allowed = _("a unit with an AT shot on this overrun: {units}").format(
                units=", ".join(choices) or _("none")
            )
            raise InputError("fire", allowed, name)


def final_fire(
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
    cover = terrain_cover(terrain_row(scenario.board.terrain_of(plan.exit)))
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
            rear_armour=rear,
            cover=cover,
            leader_modifier=leader_modifier_of(scenario, unit, final=True)
            if unit.is_infantry
            else 0,
        )
    return final
