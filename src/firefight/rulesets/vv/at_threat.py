"""V&V 13.8 and 18 before a move: the AT threat map of a side's vehicles (``firefight threat
--at``): for each hex a vehicle may enter, the enemy units that could fire AT at it on
opportunity, with the same shot as in a move
(:func:`~firefight.rulesets.vv.at_shots.vehicle_shot`), and the exact chance that at least one
stops it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from firefight.board.hexes import Hex
from firefight.errors import InputError
from firefight.rulesets.vv.at import Rating, VvAtAttack
from firefight.rulesets.vv.at_shots import (
    VEHICLES,
    armour_ratings,
    at_ratings,
    attack_json,
    stop_chance,
    vehicle_shot,
)
from firefight.rulesets.vv.scenario import BoardScenario, prohibited
from firefight.rulesets.vv.threat import visible_from_hexes


@dataclass(frozen=True)
class VehicleHexThreat:
    """One hex of the vehicle threat map: each AT firer's attack on a vehicle entering it with
    its chance of stopping it, and the chance that at least one does (``stopped``)."""

    hex: Hex
    firers: tuple[tuple[str, VvAtAttack, Fraction], ...]
    stopped: Fraction


@dataclass(frozen=True)
class VehicleThreat:
    """The AT threat map of ``side``'s vehicles: the target (``vehicle``: afv or
    unarmoured_vehicle, its ``armour`` and ``heading``) and each hex under AT fire."""

    scenario: BoardScenario
    side: str
    vehicle: str
    armour: tuple[Rating, Rating] | None
    heading: int | None
    hexes: Mapping[Hex, VehicleHexThreat]

    def to_json(self) -> dict[str, object]:
        """``{"vehicle", "armour", "heading", "hexes": {hex: {"stopped", "firers": [...]}}}``
        (docs/vv.md, "Threat map for vehicles")."""
        label = self.scenario.board.label
        return {
            "vehicle": self.vehicle,
            "armour": list(self.armour) if self.armour else None,
            "heading": self.heading,
            "hexes": {
                label(h): {
                    "stopped": str(t.stopped),
                    "firers": [
                        {
                            "unit": unit_id,
                            "hex": label(self.scenario.unit(unit_id).hex),
                            **attack_json(attack),
                            "stop_chance": str(stop),
                        }
                        for unit_id, attack, stop in t.firers
                    ],
                }
                for h, t in self.hexes.items()
            },
        }


def vehicle_threat(
    scenario: BoardScenario,
    side: str,
    ratings: Mapping[str, str],
    *,
    vehicle: str = "afv",
    armour: tuple[str, str] | None = None,
    heading: int | None = None,
    skip: Hex | None = None,
) -> VehicleThreat:
    """For each hex a vehicle of ``side`` may enter, the rated enemy units that could fire AT
    at it on opportunity (13.8, 18: the same shot as in a move, :func:`vehicle_shot`) and the
    exact chance that at least one stops it, ``1 - prod(1 - p)`` (the attacks independent
    rolls; the threat map's reading). Each firer's lines of sight are read at once, the
    threat map's vectorized visible set
    (:func:`~firefight.rulesets.vv.threat.visible_from_hexes`). An AFV's armour met depends
    on the way it moves: ``heading``, the hexside it faces (1 north
    ... 6, 7.1). ``skip``: a hex left off (the stack's own)."""
    if vehicle not in VEHICLES:
        raise InputError("vehicle", "afv, unarmoured_vehicle or gun", vehicle)
    letters = at_ratings(scenario, side, ratings)
    plates: tuple[Rating, Rating] | None = None
    if vehicle == "afv":
        if armour is None:
            raise InputError("armour", "the AFV's Armor Ratings FRONT,REAR (A-F, 18.5)", None)
        if heading is None or heading not in range(1, 7):
            raise InputError("heading", "the hexside the AFV moves towards, 1-6 (7.1)", heading)
        plates = armour_ratings(armour)
    board = scenario.board
    closed = {u.hex for u in scenario.enemies_of(side)}  # 6.8
    firing = [
        scenario.unit(unit_id)
        for unit_id in letters
        if not (scenario.unit(unit_id).pinned or scenario.unit(unit_id).fired)
    ]
    seen = visible_from_hexes(board, sorted({u.hex for u in firing}))
    by_hex: dict[Hex, list[tuple[str, VvAtAttack, Fraction]]] = {}
    for unit in firing:
        for hex_, hindrance in seen[unit.hex].items():
            if hex_ in closed or hex_ == skip or prohibited(vehicle, board.terrain_of(hex_)):
                continue
            attack = vehicle_shot(
                scenario,
                unit,
                letters[unit.id],
                vehicle,
                armour=plates or ("A", "A"),
                where=hex_,
                facing=heading or 1,
                hindrance=hindrance,
            )
            if attack is not None:
                by_hex.setdefault(hex_, []).append((unit.id, attack, stop_chance(attack)))
    hexes: dict[Hex, VehicleHexThreat] = {}
    for hex_ in sorted(by_hex):
        found = by_hex[hex_]
        if found:
            spared = Fraction(1)
            for _, _, stop in found:
                spared *= 1 - stop
            hexes[hex_] = VehicleHexThreat(hex_, tuple(found), 1 - spared)
    return VehicleThreat(scenario, side, vehicle, plates, heading, hexes)
