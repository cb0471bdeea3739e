"""Reading a V&V scenario file's tables: a unit, its support weapons, a fortification, a
sniper, each field checked in one line naming the file, the entry, the field, the allowed
values and the value given (:class:`~firefight.rulesets.vv.scenario_units.BoardScenarioError`).

Part of :mod:`~firefight.rulesets.vv.scenario` (which checks the file as a whole: sides,
unique ids, stacking, transports).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import cast, get_args

from firefight.board.board import Board
from firefight.board.hexes import Hex
from firefight.errors import InputError, one_of, quoted
from firefight.i18n import gettext
from firefight.rulesets.vv.ap import NO_ENTRENCHMENT_TERRAINS, OPEN_TERRAINS
from firefight.rulesets.vv.at_charts import Rating
from firefight.rulesets.vv.scenario_units import (
    ENTRENCHMENTS,
    MG_RANGE,
    OBSTACLES,
    POSITIONS,
    RATINGS,
    UNIT_STATES,
    UNIT_TYPES,
    BoardScenarioError,
    Fortification,
    FortificationKind,
    ScenarioUnit,
    Sniper,
    SupportWeapon,
    UnitStateName,
    UnitType,
    WeaponClass,
    WeaponKind,
    prohibited,
)

REQUIRED: dict[str, tuple[str, ...]] = {
    "squad": ("apfp", "range", "casualty_rating", "half_squad_rating"),
    "half_squad": ("apfp", "range", "casualty_rating"),
    "leader": ("apfp", "range", "casualty_rating", "leadership_modifier"),
    "mg_team": ("apfp", "range", "casualty_rating"),
    "gun": ("apfp", "casualty_rating", "facing"),
    "afv": ("apfp", "movement_points", "facing"),
    "unarmoured_vehicle": ("apfp", "casualty_rating", "movement_points", "facing"),
}
"""The printed values each type of counter needs: APFP and range (13.3) to fire, a Casualty
Rating to take CPs (14.61; a squad's half squad rating to be reduced), a leader's Leadership
Modifier (13.6), a vehicle's printed Movement Points (6.32) and the facing of AFVs, vehicles
and Guns (7.1). A Gun's range is unlimited (13.3, 14.4); an AFV's or vehicle's MG reaches 8
hexes (14.4). AT FP Ratings (18.4) and Armor Ratings (18.5) are optional: a unit the file
rates fires AT with its rating, one it does not takes the command line's ``--at`` and
``--armour`` (:mod:`.scenario_ratings`)."""

REQUIRED_WHY = {
    "apfp": "its APFP (14.2)",
    "atfp": "its AT FP Rating A-F (18.4)",
    "range": "its range (13.3)",
    "casualty_rating": "its Casualty Rating (14.61)",
    "half_squad_rating": "the Casualty Rating of the half squad it reduces to (14.61)",
    "leadership_modifier": "its Leadership Modifier (13.6)",
    "armour": "its Armor Ratings A-F, front then rear (18.5)",
    "movement_points": "its printed Movement Points (6.32)",
    "facing": "the hexside it faces, 1 (north) to 6, clockwise (7.1)",
}

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
    "carried_by",
)
ATFP_TYPES = frozenset({"gun", "afv", "unarmoured_vehicle"})
"""Counters with an AT FP Rating of their own (18.1); infantry fire AT with a weapon's."""


class Reader:
    """Reads one table of the file, naming ``where`` (file, unit) in every error."""

    def __init__(self, data: Mapping[str, object], where: str) -> None:
        self.data = data
        self.where = where

    def fail(self, name: str, allowed: str, got: object) -> BoardScenarioError:
        """The one-line error for field ``name``."""
        return BoardScenarioError(
            gettext("{where}: '{name}' must be {allowed} (got {got})").format(
                where=self.where, name=name, allowed=allowed, got=quoted(got)
            )
        )

    def missing(self, name: str, why: str) -> BoardScenarioError:
        """The one-line error for a field left out."""
        return BoardScenarioError(
            gettext("{where}: '{name}' is missing ({why})").format(
                where=self.where, name=name, why=why
            )
        )

    def integer(self, name: str, low: int, high: int, default: int | None = None) -> int | None:
        """A whole number from ``low`` to ``high``, or ``default``."""
        value = self.data.get(name, default)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise self.fail(name, f"a whole number from {low} to {high}", value)
        return value

    def text(self, name: str, default: str | None = None, max_length: int = 60) -> str | None:
        """A printable text of 1 to ``max_length`` characters, or ``default``."""
        value = self.data.get(name, default)
        if value is None:
            return None
        if not isinstance(value, str) or not 0 < len(value) <= max_length:
            raise self.fail(name, f"a text of 1 to {max_length} characters", value)
        if not value.isprintable():
            raise self.fail(name, "printable text", value)
        return value

    def choice(self, name: str, allowed: Sequence[str], default: str | None = None) -> str:
        """One of ``allowed`` (missing without a default)."""
        value = self.data.get(name, default)
        if value not in allowed:
            if value is None:
                raise self.missing(name, one_of(allowed))
            raise self.fail(name, one_of(allowed), value)
        return cast("str", value)

    def flag(self, name: str) -> bool:
        """true or false (false when left out)."""
        value = self.data.get(name, False)
        if not isinstance(value, bool):
            raise self.fail(name, "true or false", value)
        return value

    def hex(self, board: Board, name: str = "hex") -> Hex:
        """A hex label of ``board``."""
        value = self.data.get(name)
        if not isinstance(value, str):
            raise self.fail(name, "a hex label such as 0506", value)
        try:
            return board.hex(value)
        except InputError as error:
            raise self.fail(name, error.allowed, value) from None

    def rating(self, name: str, what: str) -> Rating | None:
        """A letter A-F (any case) of the Armor Elimination Table (18.4), or ``None``."""
        value = self.data.get(name)
        if value is None:
            return None
        if not isinstance(value, str) or value.upper() not in RATINGS:
            raise self.fail(name, f"{what}, a letter A-F (18.4)", value)
        return cast("Rating", value.upper())

    def armour(self) -> tuple[Rating, Rating] | None:
        """``armour = "E"`` (one Armor Rating, every facing) or ``["E", "C"]`` (front, rear;
        18.5), or ``None``."""
        value = self.data.get("armour")
        if value is None:
            return None
        letters = [value] if isinstance(value, str) else value
        if (
            not isinstance(letters, list)
            or len(letters) not in (1, 2)
            or not all(isinstance(a, str) and a.upper() in RATINGS for a in letters)
        ):
            allowed = 'an Armor Rating A-F ("E") or [front, rear] ratings (["E", "C"]; 18.5)'
            raise self.fail("armour", allowed, value)
        front, rear = (letters * 2)[:2]
        return cast("Rating", front.upper()), cast("Rating", rear.upper())

    def unknown(self, allowed: Sequence[str]) -> None:
        """Refuse a field not in ``allowed``."""
        for key in self.data:
            if key not in allowed:
                raise self.fail("field", one_of(allowed), key)


def weapon(raw: object, reader: Reader, index: int) -> SupportWeapon:
    """``support_weapons[index]``: ``{name, class, kind, apfp, range, atfp}`` (12.1-12.3;
    ``atfp`` an ``anti_tank`` weapon's only, 18.1)."""
    if not isinstance(raw, dict):
        raise reader.fail(f"support_weapons[{index}]", "a table {name, class, kind, apfp}", raw)
    sub = Reader(raw, f"{reader.where}, support_weapons[{index}]")
    sub.unknown(("name", "class", "kind", "apfp", "range", "atfp"))
    kind = sub.choice("kind", get_args(WeaponKind))
    default_range = MG_RANGE if kind == "mg" else None
    weapon_range = sub.integer("range", 1, 99, default_range)
    if weapon_range is None:
        raise sub.missing("range", "a support weapon's range, 12.3")
    atfp = sub.rating("atfp", "an anti_tank weapon's AT FP Rating")
    if atfp is not None and kind != "anti_tank":
        raise sub.fail("atfp", "left out for a weapon not of kind anti_tank (18.1)", raw["atfp"])
    return SupportWeapon(
        name=sub.text("name") or kind,
        weapon_class=cast("WeaponClass", sub.choice("class", get_args(WeaponClass))),
        kind=cast("WeaponKind", kind),
        apfp=sub.integer("apfp", 0, 40, 0) or 0,
        range=weapon_range,
        atfp=atfp,
    )


def _reader_of(raw: object, index: int, source: str) -> tuple[Reader, str]:
    """The unit table's reader (naming the unit by id) and its id, checked."""
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
    reader = Reader(raw, where)
    reader.unknown(UNIT_FIELDS)
    if (
        not isinstance(unit_id, str)
        or not unit_id
        or len(unit_id) > 40
        or not unit_id.isprintable()
    ):
        raise reader.fail("id", "a text of 1 to 40 characters", unit_id)
    return reader, unit_id


def _placed(reader: Reader, unit_type: str, board: Board) -> Hex:
    """The unit's printed values its type needs, and its hex (10.4, 10.11, 10.12)."""
    for name in REQUIRED[unit_type]:
        if name not in reader.data:
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
    return hex_


def _weapons(reader: Reader, unit_type: str) -> tuple[SupportWeapon, ...]:
    """The support weapons it carries (12.2: a squad or half squad one L or H, a leader one
    L; expendable X weapons besides)."""
    weapons_raw = reader.data.get("support_weapons", [])
    if not isinstance(weapons_raw, list):
        raise reader.fail("support_weapons", "a list of tables", weapons_raw)
    weapons = tuple(weapon(w, reader, i) for i, w in enumerate(weapons_raw))
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
    return weapons


def _anti_tank(
    reader: Reader, unit_type: str
) -> tuple[Rating | None, tuple[Rating, Rating] | None]:
    """The AT FP Rating (a Gun's, AFV's or vehicle's; 18.1) and an AFV's Armor Ratings (18.5)."""
    atfp = reader.rating("atfp", "an AT FP Rating")
    if atfp is not None and unit_type not in ATFP_TYPES:
        raise reader.fail(
            "atfp",
            "left out for infantry (18.1: its AT FP is its anti_tank weapon's atfp)",
            reader.data["atfp"],
        )
    armour = reader.armour()
    if armour is not None and unit_type != "afv":
        raise reader.fail(
            "armour", "left out for a unit that is not an AFV (18.5)", reader.data["armour"]
        )
    return atfp, armour


def _ratings(reader: Reader, unit_type: str) -> tuple[int, int | None, str]:
    """Its Casualty Rating, its half squad's (14.61) and its state."""
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
    return casualty_rating, half_rating, state


def unit(
    raw: object, index: int, source: str, board: Board, sides: Mapping[str, str]
) -> ScenarioUnit:
    """``units[index]``: one counter, each field checked (its transport is checked with the
    whole file, :func:`~firefight.rulesets.vv.scenario.scenario_from_data`)."""
    reader, unit_id = _reader_of(raw, index, source)
    side = reader.choice("side", tuple(sides))
    unit_type = reader.choice("type", UNIT_TYPES)
    hex_ = _placed(reader, unit_type, board)
    weapons = _weapons(reader, unit_type)
    atfp, armour = _anti_tank(reader, unit_type)
    casualty_rating, half_rating, state = _ratings(reader, unit_type)
    return ScenarioUnit(
        id=unit_id,
        side=side,
        type=cast("UnitType", unit_type),
        hex=hex_,
        name=reader.text("name") or "",
        apfp=reader.integer("apfp", 0, 40, 0) or 0,
        atfp=atfp,
        range=reader.integer("range", 1, 99),
        casualty_rating=casualty_rating,
        half_squad_rating=half_rating,
        half_squad_apfp=reader.integer("half_squad_apfp", 0, 40),
        leadership_modifier=reader.integer("leadership_modifier", -3, 0, 0) or 0,
        armour=armour,
        movement_points=reader.integer("movement_points", 0, 30),
        facing=reader.integer("facing", 1, 6),
        turreted=reader.flag("turreted"),
        support_weapons=weapons,
        state=cast("UnitStateName", state),
        fired=reader.flag("fired"),
        moved=reader.flag("moved"),
        carried_by=reader.text("carried_by", max_length=40),
    )


def fortification(raw: object, index: int, source: str, board: Board) -> Fortification:
    """``fortifications[index]``: its hex and kind, where 20.2 allows it."""
    if not isinstance(raw, dict):
        raise BoardScenarioError(
            gettext("{source}: fortifications[{index}] must be a table (got {raw})").format(
                source=source, index=index, raw=quoted(raw)
            )
        )
    reader = Reader(raw, f"{source}: fortifications[{index}]")
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


def snipers(
    snipers_raw: list[object], source: str, board: Board, sides: Mapping[str, str]
) -> tuple[Sniper, ...]:
    """The ``[[snipers]]`` tables: a side's sniper each (17.1: one per player)."""
    found: list[Sniper] = []
    for i, raw in enumerate(snipers_raw):
        reader = Reader(raw if isinstance(raw, dict) else {}, f"{source}: snipers[{i}]")
        if not isinstance(raw, dict):
            raise reader.fail("snipers", "a table {side, hex}", raw)
        reader.unknown(("side", "hex", "fired"))
        side = reader.choice("side", tuple(sides))
        if any(s.side == side for s in found):
            raise reader.fail(
                "side", "a side without a sniper already (17.1: one per player)", side
            )
        found.append(Sniper(side, reader.hex(board), reader.flag("fired")))
    return tuple(found)
