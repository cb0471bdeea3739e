"""V&V scenario units as values: the counters, their support weapons, fortifications and
snipers, and the rules read from a unit alone (V&V 6.9, 7.4, 10, 12, 14.3, 18, 19.4).

Part of :mod:`~firefight.rulesets.vv.scenario`, which re-exports every public name here.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, get_args

from firefight.board.hexes import Hex
from firefight.errors import FirefightError
from firefight.rulesets.vv.at_charts import Rating

UnitType = Literal["squad", "half_squad", "leader", "mg_team", "gun", "afv", "unarmoured_vehicle"]
UNIT_TYPES: tuple[str, ...] = get_args(UnitType)
UnitStateName = Literal["full", "reduced", "pinned", "reduced_pinned"]
UNIT_STATES: tuple[str, ...] = get_args(UnitStateName)
WeaponClass = Literal["L", "H", "X"]
WeaponKind = Literal["mg", "mortar", "flamethrower", "anti_tank", "grenades", "satchel", "other"]
FortificationKind = Literal[
    "concrete_bunker",
    "wood_earth_bunker",
    "sandbags",
    "foxhole",
    "trench",
    "cave",
    "minefield",
    "barbed_wire",
]
RATINGS: tuple[str, ...] = get_args(Rating)
"""AT FP Ratings and Armor Ratings: the rows and columns of the Armor Elimination Table (18.4),
the letters printed on the counters."""

INFANTRY_TYPES = frozenset({"squad", "half_squad", "leader", "mg_team"})
"""Infantry for stacking (6.9: "4 infantry units (any type)"), movement (6.31) and valor
(16.1). An MG team is read as an infantry unit whose own APFP is its MG's."""
VEHICLE_TYPES = frozenset({"gun", "afv", "unarmoured_vehicle"})
"""6.9: "AFVs, vehicles or Guns" stack two to a hex, or one with two infantry units."""
TRANSPORTS = frozenset({"afv", "unarmoured_vehicle"})
"""What may carry passengers (14.3 "transport vehicles"; 6.9 "the transport unit")."""
PASSENGER_LIMIT = 2
"""The most infantry units one vehicle carries: 6.9's "1 AFV/vehicle/Gun + 2 infantry units"
(the rulebook text at hand has no transport chapter giving a vehicle's capacity); a Gun is
carried (towed) alone."""
INFANTRY_STACK = 4
VEHICLE_STACK = 2
MIXED_INFANTRY = 2
POSITIONS = frozenset({"concrete_bunker", "wood_earth_bunker", "sandbags"})
ENTRENCHMENTS = frozenset({"foxhole", "trench", "cave"})
OBSTACLES = frozenset({"minefield", "barbed_wire"})
PROHIBITED = {
    "infantry": frozenset({"canal", "pond", "marsh", "ocean", "river"}),
    "vehicle": frozenset({"canal", "pond", "marsh", "ocean", "river", "building"}),
}
"""Terrain a unit may not enter or stand in (10.4 vehicles in buildings, 10.11 canal, pond,
marsh, 10.12 ocean and river; the Terrain Effects Summary's "Proh.")."""

MG_RANGE = 8
"""14.4: "MG APFP has a maximum range of eight hexes" (AFVs and vehicles)."""
PASSENGER_WEAPONS = frozenset({"mg", "grenades", "satchel"})
"""14.3: Light (L) MGs, grenades and satchel charges, the only support weapons passengers use
(19.4: added to an overrun)."""


class BoardScenarioError(FirefightError):
    """A scenario file is malformed: one line naming the file, the unit or entry, the field,
    the allowed values and the value given."""


@dataclass(frozen=True)
class SupportWeapon:
    """A support weapon carried by an infantry unit (12.1-12.3): its class (L light, H heavy,
    X expendable), its kind (an ``mg`` may lay fire lanes, 13.9; a ``mortar`` never fires on
    opportunity, 12.61), its APFP and its range; ``atfp``: an ``anti_tank`` weapon's AT FP
    Rating A-F (18.1: the infantry's AT fire is its weapon's)."""

    name: str
    weapon_class: WeaponClass
    kind: WeaponKind
    apfp: int
    range: int
    atfp: Rating | None = None


@dataclass(frozen=True)
class ScenarioUnit:
    """One counter on the board, with its printed values and state.

    ``state``: full or reduced (a squad flipped to its half squad, 14.61), pinned (14.7);
    ``fired``: a Fire marker (13.8: it may not fire on opportunity); ``moved``: a Move marker.
    ``facing``: the hexside an AFV, vehicle or Gun faces (1 = north, clockwise to 6 = north-
    west, the board's directions; 7.1); ``turreted``: its gun fires in any direction (14.4).
    ``atfp``: a Gun's, AFV's or vehicle's AT FP Rating A-F (18.4). ``armour``: an AFV's Armor
    Ratings A-F, front then rear (18.5; one printed rating serves both). ``movement_points``:
    printed MPs (6.32); infantry take 6.31's. ``half_squad_apfp``: a squad's half squad APFP
    (the back of the counter). ``carried_by``: the id of the vehicle transporting it (14.3;
    6.9: it sits on top of its transport and only the transport counts for stacking).
    """

    id: str
    side: str
    type: UnitType
    hex: Hex
    apfp: int = 0
    atfp: Rating | None = None
    range: int | None = None
    casualty_rating: int = 0
    half_squad_rating: int | None = None
    half_squad_apfp: int | None = None
    leadership_modifier: int = 0
    armour: tuple[Rating, Rating] | None = None
    movement_points: int | None = None
    facing: int | None = None
    turreted: bool = False
    support_weapons: tuple[SupportWeapon, ...] = ()
    state: UnitStateName = "full"
    fired: bool = False
    moved: bool = False
    name: str = ""
    carried_by: str | None = None

    @property
    def label(self) -> str:
        """Its name, or its id."""
        return self.name or self.id

    @property
    def is_infantry(self) -> bool:
        """Squads, half squads, leaders and MG teams (6.9, 6.31, 16.1)."""
        return self.type in INFANTRY_TYPES

    @property
    def is_passenger(self) -> bool:
        """Transported by a vehicle (14.3)."""
        return self.carried_by is not None

    @property
    def pinned(self) -> bool:
        """Pinned (14.7): it may neither move nor fire."""
        return self.state in ("pinned", "reduced_pinned")

    @property
    def reduced(self) -> bool:
        """A squad already flipped to its half squad (14.61)."""
        return self.state in ("reduced", "reduced_pinned")

    @property
    def current_apfp(self) -> int:
        """Its own APFP as it stands: a reduced squad's is its half squad's."""
        if self.reduced and self.half_squad_apfp is not None:
            return self.half_squad_apfp
        return self.apfp

    @property
    def fire_range(self) -> int | None:
        """Its own range (``None``: unlimited, a Gun's, 13.3)."""
        if self.type == "gun":
            return None
        if self.type in ("afv", "unarmoured_vehicle") and self.range is None:
            return MG_RANGE
        return self.range

    @property
    def at_rating(self) -> Rating | None:
        """Its AT FP Rating (18.1): a Gun's, AFV's or vehicle's own, an infantry unit's
        ``anti_tank`` weapon's; none for a passenger (18.1: "Infantry being transported ...
        may not conduct AT attacks")."""
        if self.is_passenger:
            return None
        if self.is_infantry:
            return next(
                (w.atfp for w in self.support_weapons if w.kind == "anti_tank" and w.atfp),
                None,
            )
        return self.atfp


@dataclass(frozen=True)
class Fortification:
    """A fortification, entrenchment or obstacle in a hex (20): its cover (20.5-20.11), +1 MP
    to enter except minefields and wire (20.3), a minefield's attack on entry (20.7), barbed
    wire stopping infantry and barring vehicles (20.8)."""

    hex: Hex
    kind: FortificationKind


@dataclass(frozen=True)
class Sniper:
    """A side's sniper on the board (17.1-17.4): it may fire once a turn on opportunity at a
    moving infantry target within 6 hexes and LOS; ``fired``: it already has (a Fire marker)."""

    side: str
    hex: Hex
    fired: bool = False


def stacking_problem(units: Sequence[ScenarioUnit | str]) -> str | None:
    """6.9: at most four infantry units, two AFVs/vehicles/Guns, or one of them with two
    infantry units in a hex (support weapons do not count, 12.2; nor passengers: "Only the
    transport vehicle counts against the stacking limit"). ``units`` are units or their
    types; the answer is ``None`` or what is over the limit, in words."""
    kinds = [
        u if isinstance(u, str) else u.type
        for u in units
        if isinstance(u, str) or not u.is_passenger
    ]
    infantry = sum(1 for k in kinds if k in INFANTRY_TYPES)
    vehicles = sum(1 for k in kinds if k in VEHICLE_TYPES)
    if vehicles > VEHICLE_STACK:
        return f"{vehicles} AFVs, vehicles or Guns (at most {VEHICLE_STACK})"
    if vehicles and infantry > MIXED_INFANTRY:
        return (
            f"{vehicles} AFV, vehicle or Gun with {infantry} infantry units "
            f"(at most {MIXED_INFANTRY} with one)"
        )
    if vehicles == VEHICLE_STACK and infantry:
        return f"{vehicles} AFVs, vehicles or Guns with infantry (two of them stack alone)"
    if infantry > INFANTRY_STACK:
        return f"{infantry} infantry units (at most {INFANTRY_STACK})"
    return None


def prohibited(unit_type: str, terrain: str) -> bool:
    """May a unit of this type not enter or stand in this terrain (10.4, 10.11, 10.12)?"""
    group = "infantry" if unit_type in INFANTRY_TYPES or unit_type == "gun" else "vehicle"
    return terrain in PROHIBITED[group]


def ffa_contains(unit: ScenarioUnit, target: Hex) -> bool:
    """7.4's Forward Firing Arc: the hexes whose centres lie within 60 degrees either side of
    the faced hexside's direction (the diagram's arc, its edge hexes included). Infantry and
    turreted units fire in any direction."""
    if unit.is_infantry or unit.turreted or unit.facing is None or target == unit.hex:
        return True
    x0, y0 = unit.hex.centre()
    x1, y1 = target.centre()
    fx, fy = unit.hex.neighbour(unit.facing).centre()
    a = math.atan2(y1 - y0, x1 - x0)
    b = math.atan2(fy - y0, fx - x0)
    diff = abs((a - b + math.pi) % (2 * math.pi) - math.pi)
    return diff <= math.radians(60) + 1e-9


def passenger_overrun_apfp(passenger: ScenarioUnit) -> int:
    """19.4: what one passenger adds to its AFV's overrun, not doubled: its own APFP as it
    stands (a reduced squad's half squad's) with the weapons 14.3 lets it use, as the player
    would choose them: its Light (L) MGs' APFP or one satchel charge's, whichever is more
    (12.53: no support weapon fired with a satchel, one satchel an attack), plus its grenades'
    APFP (12.52; their -1 to the roll is not part of the overrun attack's input). A pinned
    passenger adds nothing (14.7)."""
    if passenger.pinned:
        return 0
    usable = [w for w in passenger.support_weapons if w.kind in PASSENGER_WEAPONS]
    mgs = sum(w.apfp for w in usable if w.kind == "mg" and w.weapon_class == "L")
    satchel = max((w.apfp for w in usable if w.kind == "satchel"), default=0)
    grenades = sum(w.apfp for w in usable if w.kind == "grenades")
    return passenger.current_apfp + max(mgs, satchel) + grenades
