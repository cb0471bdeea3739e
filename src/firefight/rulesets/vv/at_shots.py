"""V&V 18 AT fire on the board: one AT shot at a vehicle from a scenario's unit, and what a
fire policy weighs of it, shared by the AT fire of a move
(:mod:`~firefight.rulesets.vv.at_move`), its threat map
(:mod:`~firefight.rulesets.vv.at_threat`) and an overrun's
(:mod:`~firefight.rulesets.vv.overrun_fire`).

The shot (:func:`at_opportunity_attack`, :func:`vehicle_shot`): LOS on the board (the V&V
policy; hindrances +1 each, 13.4), the cover of the vehicle's hex (13.4), the armour met from
the Armor Facing Diagram (18.5) with the vehicle facing the way it moves (:func:`facing_towards`,
6.5, 7.2); an infantry unit's AT support weapon within its printed range (18.2) with its hex's
best unfired leader (13.6, :func:`leader_modifier_of`); a Gun's or AFV's gun at any range inside
its FFA (7.4). Its exact result (:func:`at_odds`) and its chance of stopping the target
(:func:`stop_chance`: eliminated, immobilized or abandoned, 18.4, 18.6). The letters it reads:
:func:`armour_ratings` (18.5), :func:`at_ratings` (18.4).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from functools import lru_cache
from typing import cast

from firefight.board.hexes import Hex
from firefight.board.los import line_of_sight
from firefight.chance import exact
from firefight.chance.distribution import Distribution
from firefight.errors import InputError
from firefight.rulesets.vv.ap import BOARD_TERRAINS, TERRAIN_ROWS, modifier_rows, terrain_cover
from firefight.rulesets.vv.at import Rating, VvAtAttack, armor_facing, at_attack, at_modifiers
from firefight.rulesets.vv.board import VV_LOS
from firefight.rulesets.vv.scenario import BoardScenario, ScenarioUnit, ffa_contains
from firefight.rulesets.vv.scenario_ratings import with_scenario_ratings

RATINGS = ("A", "B", "C", "D", "E", "F")
"""The Armor Elimination Table's letters (18.4, 18.5)."""
DEFAULT_AT_THRESHOLD = Fraction(1, 3)
"""The ``threshold`` policy's default for AT fire: fire once the attack's chance of stopping
its target (eliminated or immobilized, 18.4) reaches one in three."""
STOPS = frozenset({"eliminated", "immobilized", "immobilized_abandoned", "abandoned"})
"""AT results that stop a moving vehicle (18.4, 18.6)."""

VEHICLES = frozenset({"afv", "unarmoured_vehicle", "gun"})
"""What AT fire targets in a moving stack (18.1: "AFVs, vehicles or Guns"; a Gun moves one
hex, 6.32, and has no Gun Shield bonus while moving, 13.5)."""


@lru_cache(maxsize=4096)
def at_odds(attack: VvAtAttack) -> Distribution[str]:
    """The exact distribution of the AT attack's result (the rule :func:`at_attack` rolls),
    without the valor suffix."""
    return exact(lambda chance: at_attack(attack, chance).split(";")[0])


def stop_chance(attack: VvAtAttack) -> Fraction:
    """The chance the attack stops its target: eliminated, immobilized or abandoned."""
    return sum((p for result, p in at_odds(attack).items() if result in STOPS), Fraction(0))


def attack_json(attack: VvAtAttack) -> dict[str, object]:
    """An AT attack as the move, the threat map and the overrun show it: the weapon, the AT FP
    letter (18.4), the armour facing met (18.5; ``None`` against an unarmoured target), the
    range and the to-hit modifiers (18.3, 13.4, 13.6)."""
    return {
        "weapon": attack.weapon,
        "atfp": attack.atfp,
        "facing": attack.facing if attack.target == "afv" else None,
        "range": attack.range_hexes,
        "modifiers": modifier_rows(at_modifiers(attack)),
    }


def terrain_row(terrain: str) -> str:
    return terrain if terrain in TERRAIN_ROWS else BOARD_TERRAINS.get(terrain, "open")


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
    cover = terrain_cover(terrain_row(board.terrain_of(where)))
    common = {
        "atfp": rating,
        "range_hexes": distance,
        "target": "afv",
        "front_armour": armour[0],
        "rear_armour": armour[1],
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


def _valor(unit: ScenarioUnit) -> dict[str, object]:
    """16.2: a natural 2 on an infantry unit's to-hit roll calls for its valor check."""
    if unit.type == "leader":
        return {"check_valor": True, "firer_unit": "leader"}
    kind = "squad" if unit.type == "squad" and not unit.reduced else "half_squad"
    rating = (
        unit.half_squad_rating
        if unit.reduced and unit.half_squad_rating
        else unit.casualty_rating or None
    )
    if rating is None:
        return {}
    return {"check_valor": True, "firer_unit": kind, "firer_casualty_rating": rating}


def vehicle_shot(
    scenario: BoardScenario,
    unit: ScenarioUnit,
    rating: Rating,
    target_type: str,
    *,
    armour: tuple[Rating, Rating],
    where: Hex,
    facing: int,
    hindrance: int | None = None,
) -> VvAtAttack | None:
    """The AT attack ``unit`` may make at a vehicle of ``target_type`` in ``where`` facing
    hexside ``facing`` (none without LOS, range or FFA): the overrun's shot
    (:func:`at_opportunity_attack`), an infantry firer's valor check on a natural 2 (16.2); an
    unarmoured vehicle or Gun is eliminated when hit (18.4). ``hindrance``: the LOS already read
    (see :func:`at_opportunity_attack`)."""
    shot = at_opportunity_attack(
        scenario, unit, rating, armour, where=where, facing=facing, hindrance=hindrance
    )
    if shot is None:
        return None
    update: dict[str, object] = _valor(unit) if unit.is_infantry else {}
    if target_type != "afv":
        update |= {"target": target_type, "front_armour": None, "rear_armour": None}
        update["facing"] = "front"
    if not update:
        return shot
    return VvAtAttack.model_validate({**shot.model_dump(), **update})


def at_ratings(scenario: BoardScenario, side: str, given: Mapping[str, str]) -> dict[str, Rating]:
    """The AT firers: the scenario's rated enemies of ``side`` and those named with their AT
    FP Rating, checked: enemy units of ``side``, letters A-F, agreeing with the scenario."""
    ratings: dict[str, Rating] = {}
    for unit_id, letter in given.items():
        unit = scenario.unit(unit_id)
        if unit.side == side:
            raise InputError("at", "an enemy unit of the moving stack", unit_id)
        if letter.upper() not in RATINGS:
            raise InputError(f"at.{unit_id}", "an AT FP Rating A-F (18.4)", letter)
        ratings[unit_id] = cast("Rating", letter.upper())
    return with_scenario_ratings(scenario, side, ratings)
