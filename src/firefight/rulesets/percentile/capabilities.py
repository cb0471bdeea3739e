"""Firepower data the user supplies: the "Infantry" capabilities and "HE Firepower" tables.

Seed 004 reads a firer's offensive firepower factor off an "Infantry" capabilities table (by unit
type, range in inches and whether the unit moves: "Non Moving (NM) British Paratroopers firing
at a range of 12 to 16 inches have an offensive firepower factor of 2") and an "HE Firepower"
table, neither of which it contains. They are a TOML file the user writes (format in
docs/percentile.md, example in ``data/examples/EXAMPLE_capabilities.toml``), validated on
loading: an error is one line naming the file, the entry and the bad value.

Ranges are measured between base centres, in inches or centimetres; a range on the boundary
of two printed bands (12 inches between "8-12" and "12-16") belongs to the shorter band unless
``on_boundary = "longer"``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Literal

from firefight.core.files import FileError, loader, parse_toml, read_text
from firefight.errors import ChartError, InputError, RuleError, one_of
from firefight.i18n import gettext as _
from firefight.rulesets.percentile.paths import EXAMPLES

__all__ = [
    "CM_PER_INCH",
    "EXAMPLE_CAPABILITIES",
    "Capabilities",
    "FirepowerReading",
    "HeWeapon",
    "InfantryCapability",
    "OnBoundary",
    "RangeBand",
    "RangeUnit",
    "base_centre_range",
    "example_capabilities",
    "load_capabilities",
]

EXAMPLE_CAPABILITIES = EXAMPLES / "EXAMPLE_capabilities.toml"
"""The shipped EXAMPLE file: illustrative values, not the rulebook's."""

RangeUnit = Literal["inches", "cm"]
OnBoundary = Literal["shorter", "longer"]
CM_PER_INCH = Fraction(254, 100)
MAX_CAPABILITIES_BYTES = 2**20
"""The largest capabilities file read, in bytes: a unit type with its bands takes about 200
bytes, so a MiB holds thousands, far more than a rulebook's tables (the EXAMPLE holds six
entries in 2 KB)."""
MAX_CAPABILITIES_VALUES = 100_000
"""The most values a capabilities file may hold: a unit type of ten range bands has about 35;
the EXAMPLE holds about 100."""

_BAND = re.compile(r"^(\d+(?:\.\d+)?)-(\d+(?:\.\d+)?)$")
_KEY = re.compile(r"^[a-z0-9_]+$")
_TOP = {"title", "range_unit", "infantry", "he"}
_INFANTRY = {"name", "range_bands", "non_moving", "moving"}
_HE = {"name", "firepower"}


@dataclass(frozen=True, slots=True)
class RangeBand:
    """A printed range band, ``"12-16"``: from ``low`` to ``high`` in the file's unit."""

    label: str
    low: Fraction
    high: Fraction


@dataclass(frozen=True, slots=True)
class InfantryCapability:
    """One unit type's firepower by range band, non moving (NM) and moving (MV)."""

    key: str
    name: str
    bands: tuple[RangeBand, ...]
    non_moving: tuple[int, ...]
    moving: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class HeWeapon:
    """One HE Firepower entry: a weapon (HE round, flamethrower, grenade) and its firepower."""

    key: str
    name: str
    firepower: int


@dataclass(frozen=True, slots=True)
class FirepowerReading:
    """A firepower factor and where it was read: ``British Paratroopers, NM, 12-16 inches``."""

    firepower: int
    source: str


def _number(text: str) -> Fraction:
    return Fraction(text)


def _as_range(value: float | Fraction | str) -> Fraction:
    """A range as an exact number: ``12.5`` is 25/2, not a binary approximation."""
    if isinstance(value, Fraction | int):
        return Fraction(value)
    return Fraction(str(value))


def base_centre_range(firer: tuple[float, float], target: tuple[float, float]) -> float:
    """The distance between two base centres (x, y) on the table, in the unit they are given."""
    return math.dist(firer, target)


@dataclass(frozen=True)
class Capabilities:
    """A loaded capabilities file: infantry firepower by range, HE firepower by weapon."""

    path: Path
    title: str
    range_unit: RangeUnit
    infantry: Mapping[str, InfantryCapability]
    he: Mapping[str, HeWeapon]

    def unit(self, unit_type: str) -> InfantryCapability:
        """A unit type by key; an unknown key lists the allowed ones."""
        if unit_type not in self.infantry:
            allowed = _("{choices} (in {file})").format(
                choices=one_of(self.infantry), file=self.path.name
            )
            raise InputError("unit_type", allowed, unit_type)
        return self.infantry[unit_type]

    def band(
        self,
        unit_type: str,
        range_: float | Fraction | str,
        unit: RangeUnit | None = None,
        on_boundary: OnBoundary = "shorter",
    ) -> int:
        """The index of the range band a range falls in (converted to the file's unit)."""
        capability = self.unit(unit_type)
        given = unit or self.range_unit
        distance = _as_range(range_)
        if distance < 0:
            raise InputError("range", "a distance of at least 0", range_)
        if given != self.range_unit:
            distance = distance * CM_PER_INCH if given == "inches" else distance / CM_PER_INCH
        bands = capability.bands
        for index, band in enumerate(bands):
            last = index == len(bands) - 1
            if on_boundary == "shorter" and distance <= band.high:
                return index
            if on_boundary == "longer" and (
                distance < band.high or (last and distance == band.high)
            ):
                return index
        msg = _(
            "{unit} cannot fire at {range} {given}: the longest range band in "
            "{file} is {band} {range_unit}"
        ).format(
            unit=capability.name,
            range=range_,
            given=given,
            file=self.path.name,
            band=bands[-1].label,
            range_unit=self.range_unit,
        )
        raise RuleError(msg)

    def infantry_firepower(
        self,
        unit_type: str,
        range_: float | Fraction | str,
        *,
        moving: bool = False,
        unit: RangeUnit | None = None,
        on_boundary: OnBoundary = "shorter",
    ) -> FirepowerReading:
        """The firepower of a unit type at a range, non moving (NM) or moving (MV).

        ``unit`` is the unit the range is given in (the file's own by default); a range on a
        band boundary belongs to the shorter band unless ``on_boundary = "longer"``.
        """
        capability = self.unit(unit_type)
        index = self.band(unit_type, range_, unit, on_boundary)
        firepower = (capability.moving if moving else capability.non_moving)[index]
        where = (
            f"{capability.name}, {'MV' if moving else 'NM'}, "
            f"{capability.bands[index].label} {self.range_unit}"
        )
        if firepower < 1:
            msg = _("{where}: firepower 0 in {file}, this unit cannot fire there").format(
                where=where, file=self.path.name
            )
            raise RuleError(msg)
        return FirepowerReading(firepower, where)

    def he_firepower(self, weapon: str) -> FirepowerReading:
        """The HE Firepower of a weapon by key."""
        if weapon not in self.he:
            allowed = _("{choices} (in {file})").format(
                choices=one_of(self.he), file=self.path.name
            )
            raise InputError("weapon", allowed, weapon)
        entry = self.he[weapon]
        return FirepowerReading(entry.firepower, f"{entry.name} (HE Firepower)")


def _fail(path: Path, entry: str, expected: str, got: object) -> ChartError:
    return ChartError(
        _("{name}: {entry} must be {expected} (got {got!r})").format(
            name=path.name, entry=entry, expected=expected, got=got
        )
    )


def _check_keys(path: Path, entry: str, data: Mapping[str, object], allowed: set[str]) -> None:
    extra = sorted(set(data) - allowed)
    if extra:
        raise _fail(path, f"{entry}", "made of " + ", ".join(sorted(allowed)), extra[0])


def _bands(path: Path, entry: str, data: object) -> tuple[RangeBand, ...]:
    if not isinstance(data, list) or not data or not all(isinstance(x, str) for x in data):
        raise _fail(path, entry, 'a list of bands such as "12-16"', data)
    bands = []
    previous = Fraction(0)
    for label in data:
        match = _BAND.match(label.strip())
        if match is None:
            raise _fail(path, entry, 'bands written "low-high", such as "12-16"', label)
        low, high = _number(match[1]), _number(match[2])
        if low != previous or high <= low:
            expected = f"a band from {previous} to more than {previous} (bands run on from 0)"
            raise _fail(path, entry, expected, label)
        bands.append(RangeBand(label.strip(), low, high))
        previous = high
    return tuple(bands)


def _factors(path: Path, entry: str, data: object, count: int) -> tuple[int, ...]:
    if (
        not isinstance(data, list)
        or len(data) != count
        or not all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in data)
    ):
        raise _fail(path, entry, f"a list of {count} integers of at least 0", data)
    return tuple(data)


def _name(path: Path, entry: str, data: Mapping[str, object]) -> str:
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise _fail(path, f"{entry}.name", "a non-empty string", name)
    return name


def _infantry(path: Path, key: str, data: object) -> InfantryCapability:
    entry = f"infantry.{key}"
    if not isinstance(data, dict):
        raise _fail(path, entry, "a table", data)
    _check_keys(path, entry, data, _INFANTRY)
    bands = _bands(path, f"{entry}.range_bands", data.get("range_bands"))
    return InfantryCapability(
        key,
        _name(path, entry, data),
        bands,
        _factors(path, f"{entry}.non_moving", data.get("non_moving"), len(bands)),
        _factors(path, f"{entry}.moving", data.get("moving"), len(bands)),
    )


def _he(path: Path, key: str, data: object) -> HeWeapon:
    entry = f"he.{key}"
    if not isinstance(data, dict):
        raise _fail(path, entry, "a table", data)
    _check_keys(path, entry, data, _HE)
    firepower = data.get("firepower")
    if not isinstance(firepower, int) or isinstance(firepower, bool) or firepower < 1:
        raise _fail(path, f"{entry}.firepower", "an integer of at least 1", firepower)
    return HeWeapon(key, _name(path, entry, data), firepower)


def _section(path: Path, data: Mapping[str, object], name: str) -> dict[str, object]:
    section = data.get(name, {})
    if not isinstance(section, dict):
        raise _fail(path, name, "a table of entries", section)
    for key in section:
        if not _KEY.match(key):
            raise _fail(path, f"{name} key", "lower-case letters, digits and _", key)
    return section


def _example_text() -> str:
    return EXAMPLE_CAPABILITIES.read_text(encoding="utf-8")


@loader("percentile-capabilities", ".toml", _example_text, ())
def load_capabilities(path: Path | str) -> Capabilities:
    """Load and validate a capabilities file (Infantry capabilities and HE Firepower).

    The file is read through :mod:`firefight.core.files`: at most
    :data:`MAX_CAPABILITIES_BYTES`, at most :data:`MAX_CAPABILITIES_VALUES` values, nesting
    bounded; no command line reads it (Python only), hence the loader's empty command."""
    path = Path(path)
    try:
        text = read_text(path, path.name, MAX_CAPABILITIES_BYTES)
        data = parse_toml(text, path.name, max_values=MAX_CAPABILITIES_VALUES)
    except FileError as error:
        raise ChartError(str(error)) from None
    _check_keys(path, "the file", data, _TOP)
    title = data.get("title")
    if not isinstance(title, str) or not title.strip():
        raise _fail(path, "title", "a non-empty string", title)
    range_unit = data.get("range_unit", "inches")
    if range_unit not in ("inches", "cm"):
        raise _fail(path, "range_unit", "one of inches, cm", range_unit)
    infantry = {k: _infantry(path, k, v) for k, v in _section(path, data, "infantry").items()}
    he = {k: _he(path, k, v) for k, v in _section(path, data, "he").items()}
    if not infantry and not he:
        raise _fail(path, "the file", "given an [infantry.*] or [he.*] entry", "none")
    return Capabilities(path, title, range_unit, infantry, he)


@cache
def example_capabilities() -> Capabilities:
    """The shipped EXAMPLE capabilities (illustrative values, not the rulebook's)."""
    return load_capabilities(EXAMPLE_CAPABILITIES)
