"""V&V scenarios: units on a board (issue 15; V&V 6.9, 7, 12, 13, 17, 20).

A scenario file (TOML) names a board (a sample's name such as ``vv_village``, or a board file
beside the scenario), the sides, the units with their printed values and state, the
fortifications and entrenchments on the board (20) and the snipers in play (17):

.. code-block:: toml

    board = "vv_village"
    [sides.us]
    name = "Americans"
    [[units]]
    id = "us-1"
    side = "us"
    type = "squad"   # squad | half_squad | leader | mg_team | gun | afv | unarmoured_vehicle
    hex = "0506"
    apfp = 4                  # its printed values: what its type needs (REQUIRED below)
    range = 6
    casualty_rating = 4
    half_squad_rating = 2
    support_weapons = [{ name = "BAR", class = "L", kind = "mg", apfp = 2, range = 6 }]
    state = "full"            # full | reduced | pinned | reduced_pinned; fired, moved: markers

Public API: :class:`BoardScenario` (``board``, ``sides``, ``units``, ``fortifications``,
``snipers``; ``units_at(hex)``, ``unit(id)``, ``fortification_at(hex)``), :class:`ScenarioUnit`,
:class:`SupportWeapon`, :class:`Fortification`, :class:`Sniper`, :func:`load_board_scenario` (a
path or the name of a shipped sample: ``village``), :func:`scenario_from_data`,
:func:`stacking_problem` (6.9) and :func:`sample_board_scenarios`. Every error is one line naming
the file, the unit (or entry) and the field: :class:`BoardScenarioError`.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, cast, get_args

from firefight.board.board import MAX_TOML_VALUES, Board, board_file_error, read_toml, shown
from firefight.board.hexes import Hex
from firefight.core.files import FileError, loader, parse_toml
from firefight.errors import QUOTED_MAX, FirefightError, InputError, one_of, quoted
from firefight.i18n import gettext
from firefight.rulesets.boards import board_named_in, load_file, sample_boards
from firefight.rulesets.vv.ap import NO_ENTRENCHMENT_TERRAINS, OPEN_TERRAINS

SCENARIOS = Path(__file__).parent / "data" / "scenarios"
"""The sample scenarios shipped in the package."""

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

INFANTRY_TYPES = frozenset({"squad", "half_squad", "leader", "mg_team"})
"""Infantry for stacking (6.9: "4 infantry units (any type)"), movement (6.31) and valor
(16.1). An MG team is read as an infantry unit whose own APFP is its MG's."""
VEHICLE_TYPES = frozenset({"gun", "afv", "unarmoured_vehicle"})
"""6.9: "AFVs, vehicles or Guns" stack two to a hex, or one with two infantry units."""
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

REQUIRED: dict[str, tuple[str, ...]] = {
    "squad": ("apfp", "range", "casualty_rating", "half_squad_rating"),
    "half_squad": ("apfp", "range", "casualty_rating"),
    "leader": ("apfp", "range", "casualty_rating", "leadership_modifier"),
    "mg_team": ("apfp", "range", "casualty_rating"),
    "gun": ("apfp", "atfp", "casualty_rating", "facing"),
    "afv": ("apfp", "atfp", "armour", "movement_points", "facing"),
    "unarmoured_vehicle": ("apfp", "casualty_rating", "movement_points", "facing"),
}
"""The printed values each type of counter needs: APFP and range (13.3) to fire, a Casualty
Rating to take CPs (14.61; a squad's half squad rating to be reduced), a leader's Leadership
Modifier (13.6), a Gun's or AFV's ATFP (18), an AFV's armour (front/side/rear, 18), a
vehicle's printed Movement Points (6.32) and the facing of AFVs, vehicles and Guns (7.1). A
Gun's range is unlimited (13.3, 14.4); an AFV's or vehicle's MG reaches 8 hexes (14.4)."""

MG_RANGE = 8
"""14.4: "MG APFP has a maximum range of eight hexes" (AFVs and vehicles)."""


class BoardScenarioError(FirefightError):
    """A scenario file is malformed: one line naming the file, the unit or entry, the field,
    the allowed values and the value given."""


@dataclass(frozen=True)
class SupportWeapon:
    """A support weapon carried by an infantry unit (12.1-12.3): its class (L light, H heavy,
    X expendable), its kind (an ``mg`` may lay fire lanes, 13.9; a ``mortar`` never fires on
    opportunity, 12.61), its APFP and its range."""

    name: str
    weapon_class: WeaponClass
    kind: WeaponKind
    apfp: int
    range: int


@dataclass(frozen=True)
class ScenarioUnit:
    """One counter on the board, with its printed values (see :data:`REQUIRED`) and state.

    ``state``: full or reduced (a squad flipped to its half squad, 14.61), pinned (14.7);
    ``fired``: a Fire marker (13.8: it may not fire on opportunity); ``moved``: a Move marker.
    ``facing``: the hexside an AFV, vehicle or Gun faces (1 = north, clockwise to 6 = north-
    west, the board's directions; 7.1); ``turreted``: its gun fires in any direction (14.4).
    ``armour``: an AFV's front, side and rear armour (18). ``movement_points``: printed MPs
    (6.32); infantry take 6.31's. ``half_squad_apfp``: a squad's half squad APFP (the back
    of the counter).
    """

    id: str
    side: str
    type: UnitType
    hex: Hex
    apfp: int = 0
    atfp: int | None = None
    range: int | None = None
    casualty_rating: int = 0
    half_squad_rating: int | None = None
    half_squad_apfp: int | None = None
    leadership_modifier: int = 0
    armour: tuple[int, int, int] | None = None
    movement_points: int | None = None
    facing: int | None = None
    turreted: bool = False
    support_weapons: tuple[SupportWeapon, ...] = ()
    state: UnitStateName = "full"
    fired: bool = False
    moved: bool = False
    name: str = ""

    @property
    def label(self) -> str:
        """Its name, or its id."""
        return self.name or self.id

    @property
    def is_infantry(self) -> bool:
        """Squads, half squads, leaders and MG teams (6.9, 6.31, 16.1)."""
        return self.type in INFANTRY_TYPES

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


@dataclass(frozen=True)
class BoardScenario:
    """A board with units on it (issue 15). ``sides`` maps each side's key to its name."""

    name: str
    board: Board
    sides: Mapping[str, str]
    units: tuple[ScenarioUnit, ...]
    fortifications: tuple[Fortification, ...] = ()
    snipers: tuple[Sniper, ...] = ()
    source: str = ""
    board_name: str = ""
    _by_hex: dict[Hex, tuple[ScenarioUnit, ...]] = field(
        default_factory=dict, repr=False, compare=False, hash=False
    )

    def __post_init__(self) -> None:
        found: dict[Hex, list[ScenarioUnit]] = {}
        for unit in self.units:
            found.setdefault(unit.hex, []).append(unit)
        self._by_hex.update({h: tuple(us) for h, us in found.items()})

    def units_at(self, hex_: Hex) -> tuple[ScenarioUnit, ...]:
        """The units in a hex, in file order."""
        return self._by_hex.get(hex_, ())

    def unit(self, unit_id: str) -> ScenarioUnit:
        """A unit by id; an unknown id is a one-line error listing the ids."""
        for unit in self.units:
            if unit.id == unit_id:
                return unit
        raise InputError("unit", one_of(u.id for u in self.units), unit_id)

    def fortification_at(self, hex_: Hex) -> Fortification | None:
        """The fortification, entrenchment or obstacle in a hex, if any."""
        for fort in self.fortifications:
            if fort.hex == hex_:
                return fort
        return None

    def enemies_of(self, side: str) -> tuple[ScenarioUnit, ...]:
        """Every unit of the other sides."""
        return tuple(u for u in self.units if u.side != side)

    def to_json(self) -> dict[str, object]:
        """The scenario as data (hexes as board labels)."""
        label = self.board.label
        return {
            "name": self.name,
            "board": self.board_name or self.board.name,
            "sides": dict(self.sides),
            "units": [
                {
                    "id": u.id,
                    "side": u.side,
                    "type": u.type,
                    "hex": label(u.hex),
                    "state": u.state,
                    "fired": u.fired,
                    "apfp": u.apfp,
                    "range": u.fire_range,
                    "casualty_rating": u.casualty_rating,
                    "support_weapons": [w.name for w in u.support_weapons],
                }
                for u in self.units
            ],
            "fortifications": {label(f.hex): f.kind for f in self.fortifications},
            "snipers": [{"side": s.side, "hex": label(s.hex)} for s in self.snipers],
        }


def stacking_problem(units: Sequence[ScenarioUnit | str]) -> str | None:
    """6.9: at most four infantry units, two AFVs/vehicles/Guns, or one of them with two
    infantry units in a hex (support weapons do not count, 12.2). ``units`` are units or their
    types; the answer is ``None`` or what is over the limit, in words."""
    kinds = [u if isinstance(u, str) else u.type for u in units]
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


# --- loading -------------------------------------------------------------------------------------


def sample_board_scenarios() -> dict[str, Path]:
    """The shipped sample scenarios by name (the file's stem)."""
    return {path.stem: path for path in sorted(SCENARIOS.glob("*.toml"))}


def find_board_scenario(name_or_path: str | Path) -> Path:
    """A sample scenario by name, or a scenario file by path."""
    samples = sample_board_scenarios()
    if str(name_or_path) in samples:
        return samples[str(name_or_path)]
    path = Path(name_or_path)
    if path.suffix.lower() == ".toml" and path.is_file():
        return path
    allowed = "a scenario file (.toml) or one of " + ", ".join(samples)
    raise InputError("scenario", allowed, str(name_or_path))


def _example() -> str:
    return sample_board_scenarios()["village"].read_text(encoding="utf-8")


@loader("vv-scenario", ".toml", example=_example, command=("threat", "{path}", "--side", "us"))
def load_board_scenario(path: str | Path) -> BoardScenario:
    """Load and check a scenario file (or a shipped sample by name)."""
    found = find_board_scenario(path)
    try:
        data = read_toml(found, found.name)
    except FirefightError as error:
        raise BoardScenarioError(str(error)) from None
    return scenario_from_data(data, found.name, base=found.parent)


class _Reader:
    """Reads one table of the file, naming ``where`` (file, unit) in every error."""

    def __init__(self, data: Mapping[str, object], where: str) -> None:
        self.data = data
        self.where = where

    def fail(self, name: str, allowed: str, got: object) -> BoardScenarioError:
        return BoardScenarioError(f"{self.where}: '{name}' must be {allowed} (got {quoted(got)})")

    def missing(self, name: str, why: str) -> BoardScenarioError:
        return BoardScenarioError(f"{self.where}: '{name}' is missing ({why})")

    def integer(self, name: str, low: int, high: int, default: int | None = None) -> int | None:
        value = self.data.get(name, default)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise self.fail(name, f"a whole number from {low} to {high}", value)
        return value

    def text(self, name: str, default: str | None = None, max_length: int = 60) -> str | None:
        value = self.data.get(name, default)
        if value is None:
            return None
        if not isinstance(value, str) or not 0 < len(value) <= max_length:
            raise self.fail(name, f"a text of 1 to {max_length} characters", value)
        if not value.isprintable():
            raise self.fail(name, "printable text", value)
        return value

    def choice(self, name: str, allowed: Sequence[str], default: str | None = None) -> str:
        value = self.data.get(name, default)
        if value not in allowed:
            if value is None:
                raise self.missing(name, one_of(allowed))
            raise self.fail(name, one_of(allowed), value)
        return cast("str", value)

    def flag(self, name: str) -> bool:
        value = self.data.get(name, False)
        if not isinstance(value, bool):
            raise self.fail(name, "true or false", value)
        return value

    def hex(self, board: Board, name: str = "hex") -> Hex:
        value = self.data.get(name)
        if not isinstance(value, str):
            raise self.fail(name, "a hex label such as 0506", value)
        try:
            return board.hex(value)
        except InputError as error:
            raise self.fail(name, error.allowed, value) from None

    def unknown(self, allowed: Sequence[str]) -> None:
        for key in self.data:
            if key not in allowed:
                raise self.fail("field", one_of(allowed), key)


UNIT_FIELDS = (
    "id",
    "name",
    "side",
    "type",
    "hex",
    "apfp",
    "atfp",
    "range",
    "casualty_rating",
    "half_squad_rating",
    "half_squad_apfp",
    "leadership_modifier",
    "armour",
    "movement_points",
    "facing",
    "turreted",
    "support_weapons",
    "state",
    "fired",
    "moved",
)


def _board(data: Mapping[str, object], source: str, base: Path | None) -> tuple[Board, str]:
    name = data.get("board")
    if not isinstance(name, str):
        raise BoardScenarioError(
            gettext("{source}: 'board' must be a board's name or file (got {name})").format(
                source=source, name=shown(name)
            )
        )
    try:
        board, _policy = load_file(board_named_in(name, base, source))
    except FirefightError as error:
        raise BoardScenarioError(str(error)) from None
    if board.ruleset != "vv":
        raise BoardScenarioError(
            gettext("{source}: 'board' must be a V&V board (got {ruleset} board)").format(
                source=source, ruleset=board.ruleset
            )
        )
    return board, name


def _weapon(raw: object, reader: _Reader, index: int) -> SupportWeapon:
    if not isinstance(raw, dict):
        raise reader.fail(f"support_weapons[{index}]", "a table {name, class, kind, apfp}", raw)
    sub = _Reader(raw, f"{reader.where}, support_weapons[{index}]")
    sub.unknown(("name", "class", "kind", "apfp", "range"))
    kind = sub.choice("kind", get_args(WeaponKind))
    default_range = MG_RANGE if kind == "mg" else None
    weapon_range = sub.integer("range", 1, 99, default_range)
    if weapon_range is None:
        raise sub.missing("range", "a support weapon's range, 12.3")
    return SupportWeapon(
        name=sub.text("name") or kind,
        weapon_class=cast("WeaponClass", sub.choice("class", get_args(WeaponClass))),
        kind=cast("WeaponKind", kind),
        apfp=sub.integer("apfp", 0, 40, 0) or 0,
        range=weapon_range,
    )


def _unit(
    raw: object, index: int, source: str, board: Board, sides: Mapping[str, str]
) -> ScenarioUnit:
    if not isinstance(raw, dict):
        raise BoardScenarioError(
            gettext("{source}: units[{index}] must be a table (got {raw})").format(
                source=source, index=index, raw=quoted(raw)
            )
        )
    unit_id = raw.get("id")
    where = (
        f"{source}: unit {quoted(unit_id)}"
        if isinstance(unit_id, str)
        else f"{source}: units[{index}]"
    )
    reader = _Reader(raw, where)
    reader.unknown(UNIT_FIELDS)
    if (
        not isinstance(unit_id, str)
        or not unit_id
        or len(unit_id) > 40
        or not unit_id.isprintable()
    ):
        raise reader.fail("id", "a text of 1 to 40 characters", unit_id)
    side = reader.choice("side", tuple(sides))
    unit_type = reader.choice("type", UNIT_TYPES)
    for name in REQUIRED[unit_type]:
        if name not in raw:
            raise reader.missing(
                name, f"a {unit_type.replace('_', ' ')} needs it: {REQUIRED_WHY[name]}"
            )
    hex_ = reader.hex(board)
    terrain = board.terrain_of(hex_)
    if prohibited(unit_type, terrain):
        raise reader.fail(
            "hex",
            f"a hex a {unit_type.replace('_', ' ')} may stand in "
            f"(not {terrain}: 10.4, 10.11, 10.12)",
            board.label(hex_),
        )
    armour = raw.get("armour")
    armour_values: tuple[int, int, int] | None = None
    if armour is not None:
        if (
            not isinstance(armour, list)
            or len(armour) != 3
            or not all(
                isinstance(a, int) and not isinstance(a, bool) and 0 <= a <= 20 for a in armour
            )
        ):
            raise reader.fail(
                "armour", "three whole numbers [front, side, rear] from 0 to 20 (18)", armour
            )
        armour_values = (armour[0], armour[1], armour[2])
    weapons_raw = raw.get("support_weapons", [])
    if not isinstance(weapons_raw, list):
        raise reader.fail("support_weapons", "a list of tables", weapons_raw)
    weapons = tuple(_weapon(w, reader, i) for i, w in enumerate(weapons_raw))
    carried = [w for w in weapons if w.weapon_class != "X"]
    portable = (unit_type in ("squad", "half_squad") and len(carried) == 1) or (
        unit_type == "leader" and len(carried) == 1 and carried[0].weapon_class == "L"
    )
    if carried and not portable:
        allowed = (
            "one Light (L) weapon for a leader"
            if unit_type == "leader"
            else "one Light or Heavy weapon for a squad or half squad"
        )
        raise reader.fail("support_weapons", f"at most {allowed} (12.2)", [w.name for w in weapons])
    casualty_rating = reader.integer("casualty_rating", 1, 6) or 0
    half_rating = reader.integer("half_squad_rating", 1, 5)
    if unit_type == "squad" and half_rating is not None and half_rating >= casualty_rating:
        raise reader.fail(
            "half_squad_rating",
            f"below the squad's casualty_rating {casualty_rating} (14.61)",
            half_rating,
        )
    state = reader.choice("state", UNIT_STATES, "full")
    if state.startswith("reduced") and unit_type != "squad":
        raise reader.fail(
            "state",
            "full or pinned for a unit that is not a squad (only a squad is reduced, 14.61)",
            state,
        )
    return ScenarioUnit(
        id=unit_id,
        side=side,
        type=cast("UnitType", unit_type),
        hex=hex_,
        name=reader.text("name") or "",
        apfp=reader.integer("apfp", 0, 40, 0) or 0,
        atfp=reader.integer("atfp", 0, 40),
        range=reader.integer("range", 1, 99),
        casualty_rating=casualty_rating,
        half_squad_rating=half_rating,
        half_squad_apfp=reader.integer("half_squad_apfp", 0, 40),
        leadership_modifier=reader.integer("leadership_modifier", -3, 0, 0) or 0,
        armour=armour_values,
        movement_points=reader.integer("movement_points", 0, 30),
        facing=reader.integer("facing", 1, 6),
        turreted=reader.flag("turreted"),
        support_weapons=weapons,
        state=cast("UnitStateName", state),
        fired=reader.flag("fired"),
        moved=reader.flag("moved"),
    )


REQUIRED_WHY = {
    "apfp": "its APFP (14.2)",
    "atfp": "its ATFP (18)",
    "range": "its range (13.3)",
    "casualty_rating": "its Casualty Rating (14.61)",
    "half_squad_rating": "the Casualty Rating of the half squad it reduces to (14.61)",
    "leadership_modifier": "its Leadership Modifier (13.6)",
    "armour": "its armour [front, side, rear] (18)",
    "movement_points": "its printed Movement Points (6.32)",
    "facing": "the hexside it faces, 1 (north) to 6, clockwise (7.1)",
}


def _fortification(raw: object, index: int, source: str, board: Board) -> Fortification:
    if not isinstance(raw, dict):
        raise BoardScenarioError(
            gettext("{source}: fortifications[{index}] must be a table (got {raw})").format(
                source=source, index=index, raw=quoted(raw)
            )
        )
    reader = _Reader(raw, f"{source}: fortifications[{index}]")
    reader.unknown(("hex", "kind"))
    hex_ = reader.hex(board)
    kind = reader.choice("kind", get_args(FortificationKind))
    terrain = board.terrain_of(hex_)
    if kind in POSITIONS | OBSTACLES and terrain not in OPEN_TERRAINS:
        raise reader.fail(
            "hex",
            f"an open terrain hex for a {kind.replace('_', ' ')} (20.2: not {terrain})",
            board.label(hex_),
        )
    if kind in ENTRENCHMENTS and terrain in NO_ENTRENCHMENT_TERRAINS:
        raise reader.fail(
            "hex", f"a hex that takes a {kind} (20.2: not {terrain})", board.label(hex_)
        )
    return Fortification(hex_, cast("FortificationKind", kind))


def scenario_from_data(  # noqa: PLR0912 - one check per table of the file
    data: Mapping[str, object], source: str, base: Path | None = None
) -> BoardScenario:
    """Build and check a scenario from parsed TOML (``source`` names the file in errors)."""
    top = _Reader(data, source)
    top.unknown(("name", "board", "sides", "units", "fortifications", "snipers"))
    board, board_name = _board(data, source, base)
    sides_raw = data.get("sides")
    if not isinstance(sides_raw, dict) or len(sides_raw) < 2:
        raise top.fail("sides", "a table of at least two sides ([sides.KEY] name = ...)", sides_raw)
    sides: dict[str, str] = {}
    for key, value in sides_raw.items():
        table = _Reader(value if isinstance(value, dict) else {}, f"{source}: side {quoted(key)}")
        if not isinstance(value, dict):
            raise table.fail("name", "a table with a name", value)
        table.unknown(("name",))
        sides[key] = table.text("name", key) or key
    units_raw = data.get("units")
    if not isinstance(units_raw, list) or not units_raw:
        raise top.fail("units", "a list of units ([[units]] tables)", units_raw)
    units = tuple(_unit(raw, i, source, board, sides) for i, raw in enumerate(units_raw))
    seen: set[str] = set()
    for unit in units:
        if unit.id in seen:
            raise BoardScenarioError(
                gettext("{source}: unit {id}: 'id' must be unique (got it twice)").format(
                    source=source, id=quoted(unit.id)
                )
            )
        seen.add(unit.id)
    by_hex: dict[Hex, list[ScenarioUnit]] = {}
    for unit in units:
        by_hex.setdefault(unit.hex, []).append(unit)
    for hex_, here in by_hex.items():
        if len({u.side for u in here}) > 1:
            raise BoardScenarioError(
                gettext(
                    "{source}: unit {id}: 'hex' must not hold enemy units (6.8: got {hex})"
                ).format(source=source, id=quoted(here[-1].id), hex=board.label(hex_))
            )
        problem = stacking_problem(here)
        if problem:
            raise BoardScenarioError(
                gettext(
                    "{source}: unit {id}: 'hex' {hex} is over the stacking limit (6.9): {problem}"
                ).format(
                    source=source, id=quoted(here[-1].id), hex=board.label(hex_), problem=problem
                )
            )
    forts_raw = data.get("fortifications", [])
    if not isinstance(forts_raw, list):
        raise top.fail("fortifications", "a list of [[fortifications]] tables", forts_raw)
    forts = tuple(_fortification(raw, i, source, board) for i, raw in enumerate(forts_raw))
    if len({f.hex for f in forts}) != len(forts):
        raise top.fail("fortifications", "at most one per hex", [board.label(f.hex) for f in forts])
    snipers_raw = data.get("snipers", [])
    if not isinstance(snipers_raw, list):
        raise top.fail("snipers", "a list of [[snipers]] tables", snipers_raw)
    snipers: list[Sniper] = []
    for i, raw in enumerate(snipers_raw):
        reader = _Reader(raw if isinstance(raw, dict) else {}, f"{source}: snipers[{i}]")
        if not isinstance(raw, dict):
            raise reader.fail("snipers", "a table {side, hex}", raw)
        reader.unknown(("side", "hex", "fired"))
        side = reader.choice("side", tuple(sides))
        if any(s.side == side for s in snipers):
            raise reader.fail(
                "side", "a side without a sniper already (17.1: one per player)", side
            )
        snipers.append(Sniper(side, reader.hex(board), reader.flag("fired")))
    name = top.text("name", source, 100) or source
    return BoardScenario(name, board, sides, units, forts, tuple(snipers), source, board_name)


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


def pasted_board_scenario(text: str, source: str = "scenario") -> BoardScenario:
    """A scenario from its TOML text (pasted on the web); its board must be a sample board,
    never a path: the server reads no file it is told."""

    try:
        data = parse_toml(text, source, max_values=MAX_TOML_VALUES)
    except FileError as error:  # syntax, nesting, values or a number too long: one line
        if error.reason == "syntax":
            raise BoardScenarioError(f"{source}: not TOML ({error.problem})") from None
        raise BoardScenarioError(str(board_file_error(error, source, text, toml=True))) from None
    board = data.get("board")
    boards = list(sample_boards())  # a sample's name only: scenario_from_data checks its rules
    if board not in boards:
        short = isinstance(board, str) and len(board) <= QUOTED_MAX
        shown = json.dumps(board) if short else quoted(board)
        allowed = "a sample board on the web: one of " + ", ".join(boards)
        msg = f"{source}: 'board' must be {allowed} (got {shown})"
        raise BoardScenarioError(msg)
    return scenario_from_data(data, source)
