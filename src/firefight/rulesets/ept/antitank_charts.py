"""EPT antitank fire, the charts (seed 000): TABLE DE TOUCHER ANTICHAR, TIRS
ANTICHARS and TIR D'ARMES PORTATIVES ANTICHARS as the data files give them, their outcomes, and
the readings of their cells (the gun's function by length and distance, the firer's quality,
the target's size).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from fractions import Fraction
from functools import cache
from typing import Literal

from firefight.core.chart import Cell, Chart, chart_file
from firefight.core.modifier import Modifier, ModifierKind
from firefight.errors import ChartError
from firefight.rulesets.ept.fire import DATA
from firefight.translation import gettext as _

TO_HIT = "TABLE DE TOUCHER ANTICHAR"


AT_FIRE = "TIRS ANTICHARS"


PORTABLE = "TIR D'ARMES PORTATIVES ANTICHARS"


PF_AVAILABILITY = "PF Availability"


ARMOR_ROW = "Armor"
"""The to-hit chart's one row: 'Armor 8 7 6'."""


NO_MODIFICATION = "--"
"""How the gun-function charts print 'no modification'."""


NATURAL_MISS = 12
"""TIRS ANTICHARS: 'Natural 12 = miss'."""


DIFFERENTIAL_LOWEST = 0


DIFFERENTIAL_HIGHEST = 7
"""The Antitank Fire table's end columns, '<=0' and '>=7'."""


NUMBER_COLUMN = "number"


MAX_DISTANCE_COLUMN = "maximum distance (hexagons)"


DEFAULT_AVAILABILITY = 2
"""'the availability of the scenario [2 for Normandy (17.1)]'."""


HIT, MISS = "hit", "miss"


DESTROYED, IMMOBILIZED, SHUT_DOWN, NO_EFFECT = "destroyed", "immobilized", "shut_down", "no_effect"


AVAILABLE, NOT_AVAILABLE = "available", "not_available"


AT_FIRE_CODES = ("D", "I", "S", "-", MISS)
"""The Antitank Fire results, worst for the target first; ``miss`` is a natural 12."""


SHOT_OUTCOMES = (DESTROYED, IMMOBILIZED, SHUT_DOWN, NO_EFFECT, MISS)


PORTABLE_OUTCOMES = (DESTROYED, IMMOBILIZED, NO_EFFECT, NOT_AVAILABLE)


EFFECT = {"D": DESTROYED, "I": IMMOBILIZED, "S": SHUT_DOWN, "-": NO_EFFECT, MISS: MISS}


GunLength = Literal["small", "medium", "long"]


Quality = Literal["recruit", "line", "veteran", "shock"]


ShockQuality = Literal["no_modifier", "as_veteran"]


TargetSize = Literal["large", "normal", "small", "very_small"]


Facing = Literal["front", "side", "rear"]


Weapon = Literal["panzerschreck", "panzerfaust", "bazooka", "piat"]


PanzerfaustCheck = Literal["none", "separate_die", "attack_roll"]


_GUN_ROWS: dict[str, str] = {"small": "Small", "medium": "Medium", "long": "Long"}


WEAPON_ROWS: dict[str, str] = {
    "panzerschreck": "Panzerschreck",
    "panzerfaust": "Panzerfaust",
    "bazooka": "Bazooka",
    "piat": "PIAT",
}


TARGET_SIZE = {"large": -1, "normal": 0, "small": +1, "very_small": +2}
"""'Target size: Large: -1 Small: +1 Very small: +2' (the same on both charts)."""


MOVEMENT = 2
"""'Moving target: +2 -- Moving firer: +2' and the portable weapons' movement markers."""


_BEYOND = re.compile(r">\s*(\d+)\s*hex\.")


# --- the charts -----------------------------------------------------------------------------


@cache
def to_hit_table() -> Chart:
    """The TABLE DE TOUCHER ANTICHAR, loaded once from ``data/at_to_hit.toml``."""
    return chart_file(DATA / "at_to_hit.toml")


@cache
def to_hit_gun_table() -> Chart:
    """The to-hit 'Modification to function of gun', from ``data/at_to_hit_gun.toml``."""
    return chart_file(DATA / "at_to_hit_gun.toml")


@cache
def at_fire_table() -> Chart:
    """The TIRS ANTICHARS table, loaded once from ``data/at_fire.toml``."""
    return chart_file(DATA / "at_fire.toml")


@cache
def at_fire_gun_table() -> Chart:
    """The Antitank Fire 'Modification to function of the gun', ``data/at_fire_gun.toml``."""
    return chart_file(DATA / "at_fire_gun.toml")


@cache
def portable_table() -> Chart:
    """The TIR D'ARMES PORTATIVES ANTICHARS numbers, from ``data/portable_at.toml``."""
    return chart_file(DATA / "portable_at.toml")


def beyond(label: str) -> int:
    """The distance a gun-function column starts beyond: ``"> 10 hex."`` -> 10."""
    match = _BEYOND.fullmatch(label.strip())
    if match is None:
        msg = _("gun-function column {label!r} is not of the form '> n hex.'").format(label=label)
        raise ChartError(msg)
    return int(match.group(1))


def gun_function(chart: Chart, gun_length: GunLength, distance: int) -> Cell | None:
    """The gun-function cell for a gun at a distance: the last column whose distance it is
    beyond; ``None`` nearer than every column."""
    columns = [i for i, label in enumerate(chart.columns.labels) if distance > beyond(label)]
    if not columns:
        return None
    return chart.cell(chart.rows.label_index(_GUN_ROWS[gun_length]), columns[-1])


def modification(cell: Cell | None) -> int:
    """A gun-function cell as a dice modifier: ``"+2"`` -> 2, ``"--"`` (or no cell) -> 0."""
    if cell is None or cell.value == NO_MODIFICATION:
        return 0
    return int(cell.value)


def roll_modifier(label: str, value: int, rule: str) -> Modifier:
    return Modifier(label, Fraction(value), ModifierKind.DICE, rule)


def modifier_total(modifiers: Sequence[Modifier]) -> int:
    return int(sum(m.value for m in modifiers if m.kind is ModifierKind.DICE))


def gun_modifier(chart: Chart, gun_length: GunLength, distance: int, rule: str) -> list[Modifier]:
    cell = gun_function(chart, gun_length, distance)
    value = modification(cell)
    if cell is None or not value:
        return []
    return [roll_modifier(f"gun function: {cell.row} gun, {cell.column}", value, rule)]


def gun_fact(chart: Chart, gun_length: GunLength, distance: int) -> str:
    cell = gun_function(chart, gun_length, distance)
    if cell is None:
        return f"{_GUN_ROWS[gun_length]}, {distance} hex.: no column applies"
    return f"{cell.row}, {cell.column}: {cell.value}"


def quality_modifier(quality: Quality, shock_quality: ShockQuality) -> tuple[str, int]:
    """'Recruit: +1 Veteran: -1' (both charts); shock troops by ``shock_quality``."""
    if quality == "recruit":
        return "recruit", +1
    if quality == "veteran":
        return "veteran", -1
    if quality == "shock" and shock_quality == "as_veteran":
        return "shock (read as veteran)", -1
    return quality, 0


def size_label(size: TargetSize) -> str:
    return f"{size.replace('_', ' ')} target"
