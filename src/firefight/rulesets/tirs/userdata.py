"""User-supplied data for "Les tirs" (seed 001): what the seed refers to but does not print.

The seed's element data sheets (fiches de caractéristiques) hold each weapon's range bands, the
terrain protection values, each element's action points (PA), movement and morale. Users give
them in a TOML file (format in docs/tirs.md; ``data/examples/EXAMPLE_tirs_data.toml`` is an
EXAMPLE with invented values). Every error is one line naming the file, the entry and the value.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Literal, get_args

from firefight.core.files import FileError, loader, parse_toml, read_text
from firefight.errors import ChartError, RuleError, one_of
from firefight.i18n import gettext as _
from firefight.rulesets.tirs.effects import TargetKind
from firefight.rulesets.tirs.paths import EXAMPLES
from firefight.rulesets.tirs.precision import Experience, Range, Weapon

__all__ = [
    "EXAMPLE_DATA",
    "INCH",
    "ElementData",
    "TirsData",
    "WeaponData",
    "load_data",
    "range_band",
]

Unit = Literal["cm", "in"]
INCH = Fraction(254, 100)
"""Centimetres in one inch."""
EXAMPLE_DATA = EXAMPLES / "EXAMPLE_tirs_data.toml"
"""The EXAMPLE data set (invented values, not the rulebook's)."""
MAX_DATA_BYTES = 2**20
"""The largest data file read, in bytes: a weapon, a terrain or an element takes about 150
bytes, so a MiB holds several thousand of them, far more than a game's data sheets (the
EXAMPLE holds a dozen in 2 KB)."""
MAX_DATA_VALUES = 100_000
"""The most values a data file may hold: an element has 7, a weapon 4; the EXAMPLE holds about
100."""


@dataclass(frozen=True, slots=True)
class WeaponData:
    """A weapon type's range bands (portée courte, moyenne, longue), in the file's unit."""

    name: str
    weapon_class: Weapon
    short: Fraction
    medium: Fraction
    long: Fraction


@dataclass(frozen=True, slots=True)
class ElementData:
    """An element's data sheet: its fire, its action points, movement and morale."""

    name: str
    target: TargetKind
    weapon: str
    cdt: int
    experience: Experience
    action_points: int
    movement: Fraction
    morale: int


@dataclass(frozen=True, slots=True)
class TirsData:
    """A whole data set: weapons, terrain protection and elements, distances in ``unit``."""

    title: str
    unit: Unit
    weapons: dict[str, WeaponData]
    terrain: dict[str, int]
    elements: dict[str, ElementData]
    example: bool = False

    def to_unit(self, distance: Fraction | int | float | str, unit: Unit) -> Fraction:
        """A distance measured in ``unit`` (cm or in), in this data set's unit."""
        value = Fraction(str(distance)) if isinstance(distance, float) else Fraction(distance)
        if unit == self.unit:
            return value
        return value * INCH if unit == "in" else value / INCH

    def weapon(self, name: str) -> WeaponData:
        """A weapon by name; an unknown name lists the known ones."""
        if name not in self.weapons:
            msg = _("'weapon' must be one of {values} (got {name!r})").format(
                values=", ".join(self.weapons), name=name
            )
            raise RuleError(msg)
        return self.weapons[name]

    def protection(self, terrain: str) -> int:
        """A terrain's protection; an unknown terrain lists the known ones."""
        if terrain not in self.terrain:
            msg = _("'terrain' must be one of {values} (got {terrain!r})").format(
                values=", ".join(self.terrain), terrain=terrain
            )
            raise RuleError(msg)
        return self.terrain[terrain]


def range_band(
    data: TirsData, weapon: str, distance: Fraction | int | float | str, unit: Unit = "cm"
) -> Range:
    """The range band of a base-to-base distance (milieu de socle à milieu de socle): up to
    ``short`` is short, up to ``medium`` medium, up to ``long`` long; beyond, no fire."""
    sheet = data.weapon(weapon)
    measured = data.to_unit(distance, unit)
    if measured < 0:
        msg = _("'distance' must be at least 0 (got {distance})").format(distance=distance)
        raise RuleError(msg)
    for band, limit in (("short", sheet.short), ("medium", sheet.medium), ("long", sheet.long)):
        if measured <= limit:
            return band  # type: ignore[return-value]
    msg = _(
        "{distance} {unit} is beyond the long range of {weapon} ({long} {units}): it cannot fire"
    ).format(distance=distance, unit=unit, weapon=weapon, long=sheet.long, units=data.unit)
    raise RuleError(msg)


class _Reader:
    def __init__(self, path: Path) -> None:
        self.path = path

    def fail(self, entry: str, must: str, got: object) -> ChartError:
        return ChartError(
            _("{name}: {entry} must be {must} (got {got!r})").format(
                name=self.path.name, entry=entry, must=must, got=got
            )
        )

    def table(self, data: dict[str, object], key: str) -> dict[str, object]:
        value = data.get(key, {})
        if not isinstance(value, dict):
            raise self.fail(f"[{key}]", "a table", value)
        return value

    def number(self, entry: str, value: object) -> Fraction:
        if (
            isinstance(value, bool)
            or not isinstance(value, (int, float))
            or not math.isfinite(value)
            or value <= 0
        ):
            raise self.fail(entry, "a positive number", value)
        return Fraction(str(value)) if isinstance(value, float) else Fraction(value)

    def integer(self, entry: str, value: object, low: int, high: int) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise self.fail(entry, f"an integer from {low} to {high}", value)
        return value

    def choice(self, entry: str, value: object, allowed: tuple[str, ...]) -> str:
        if value not in allowed:
            raise self.fail(entry, one_of(allowed), value)
        return str(value)

    def fields(self, entry: str, value: object, known: set[str]) -> dict[str, object]:
        if not isinstance(value, dict):
            raise self.fail(entry, "a table", value)
        for key in value:
            if key not in known:
                raise self.fail(f"{entry}.{key}", one_of(sorted(known)), key)
        for key in known:
            if key not in value:
                raise self.fail(f"{entry}.{key}", "given", None)
        return value


def _weapon(reader: _Reader, name: str, value: object) -> WeaponData:
    entry = f"weapons.{name}"
    fields = reader.fields(entry, value, {"class", "short", "medium", "long"})
    weapon_class = reader.choice(f"{entry}.class", fields["class"], get_args(Weapon))
    short, medium, long = (
        reader.number(f"{entry}.{band}", fields[band]) for band in ("short", "medium", "long")
    )
    if not short < medium < long:
        raise reader.fail(f"{entry}", "short < medium < long", f"{short}, {medium}, {long}")
    return WeaponData(name, weapon_class, short, medium, long)  # type: ignore[arg-type]


def _element(reader: _Reader, name: str, value: object, weapons: set[str]) -> ElementData:
    entry = f"elements.{name}"
    keys = {"target", "weapon", "cdt", "experience", "action_points", "movement", "morale"}
    fields = reader.fields(entry, value, keys)
    return ElementData(
        name,
        reader.choice(f"{entry}.target", fields["target"], get_args(TargetKind)),  # type: ignore[arg-type]
        reader.choice(f"{entry}.weapon", fields["weapon"], tuple(sorted(weapons))),
        reader.integer(f"{entry}.cdt", fields["cdt"], 1, 20),
        reader.choice(f"{entry}.experience", fields["experience"], get_args(Experience)),  # type: ignore[arg-type]
        reader.integer(f"{entry}.action_points", fields["action_points"], 1, 20),
        reader.number(f"{entry}.movement", fields["movement"]),
        reader.integer(f"{entry}.morale", fields["morale"], 0, 12),
    )


def _example_text() -> str:
    return EXAMPLE_DATA.read_text(encoding="utf-8")


@loader("tirs-data", ".toml", _example_text, ())
def load_data(path: Path) -> TirsData:
    """Load and validate a data set; the first problem is one line naming file and entry.

    The file is read through :mod:`firefight.core.files`: at most :data:`MAX_DATA_BYTES`, at
    most :data:`MAX_DATA_VALUES` values, nesting bounded; no command line reads it (Python
    only), hence the loader's empty command."""
    reader = _Reader(path)
    try:
        text = read_text(path, path.name, MAX_DATA_BYTES)
        data = parse_toml(text, path.name, max_values=MAX_DATA_VALUES)
    except FileError as error:
        raise ChartError(str(error)) from None
    for key in data:
        if key not in {"title", "example", "unit", "weapons", "terrain", "elements"}:
            raise reader.fail(key, "one of title, example, unit, weapons, terrain, elements", key)
    title = data.get("title")
    if not isinstance(title, str):
        raise reader.fail("title", "a string", title)
    unit = reader.choice("unit", data.get("unit"), ("cm", "in"))
    example = data.get("example", False)
    if not isinstance(example, bool):
        raise reader.fail("example", "true or false", example)
    weapons = {name: _weapon(reader, name, v) for name, v in reader.table(data, "weapons").items()}
    terrain = {
        name: reader.integer(
            f"terrain.{name}.protection",
            reader.fields(f"terrain.{name}", v, {"protection"})["protection"],
            0,
            6,
        )
        for name, v in reader.table(data, "terrain").items()
    }
    elements = {
        name: _element(reader, name, v, set(weapons))
        for name, v in reader.table(data, "elements").items()
    }
    return TirsData(title, unit, weapons, terrain, elements, example)  # type: ignore[arg-type]
