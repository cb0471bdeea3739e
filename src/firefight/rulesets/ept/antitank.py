"""EPT antitank fire (seed 000): TABLE DE TOUCHER ANTICHAR, TIRS ANTICHARS and TIR D'ARMES
PORTATIVES ANTICHARS, with the Panzerfaust availability check.

A gun's shot is two rolls: 2d6 + the to-hit modifiers at most the to-hit number (8 / 7 / 6 by
distance) hits; a hit rolls 2d6 + the effect modifiers on the Antitank Fire table, in the
column of the differential (the gun's AT value minus the armour of the facing hit), for
destroyed / immobilized / shut down. Portable weapons (Panzerschreck, Panzerfaust, Bazooka,
PIAT) roll once: under their number destroys, equal immobilizes.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from typing import ClassVar, Literal

from pydantic import Field, model_validator

from firefight.chance import D6, TWO_D6, Chance
from firefight.core.chart import Cell, Chart, load_chart
from firefight.core.inputs import RuleInput
from firefight.core.modifier import Modifier, ModifierKind
from firefight.errors import ChartError, RuleError
from firefight.i18n import gettext as _
from firefight.i18n import ngettext
from firefight.rulesets.ept import fire as fire_combat
from firefight.rulesets.ept.fire import DATA, EptFire, Protection
from firefight.rulesets.procedure import Procedure

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
_EFFECT = {"D": DESTROYED, "I": IMMOBILIZED, "S": SHUT_DOWN, "-": NO_EFFECT, MISS: MISS}

GunLength = Literal["small", "medium", "long"]
Quality = Literal["recruit", "line", "veteran", "shock"]
ShockQuality = Literal["no_modifier", "as_veteran"]
TargetSize = Literal["large", "normal", "small", "very_small"]
Facing = Literal["front", "side", "rear"]
Weapon = Literal["panzerschreck", "panzerfaust", "bazooka", "piat"]
PanzerfaustCheck = Literal["none", "separate_die", "attack_roll"]

_GUN_ROWS: dict[str, str] = {"small": "Small", "medium": "Medium", "long": "Long"}
_WEAPON_ROWS: dict[str, str] = {
    "panzerschreck": "Panzerschreck",
    "panzerfaust": "Panzerfaust",
    "bazooka": "Bazooka",
    "piat": "PIAT",
}
_TARGET_SIZE = {"large": -1, "normal": 0, "small": +1, "very_small": +2}
"""'Target size: Large: -1 Small: +1 Very small: +2' (the same on both charts)."""
_MOVEMENT = 2
"""'Moving target: +2 -- Moving firer: +2' and the portable weapons' movement markers."""

_BEYOND = re.compile(r">\s*(\d+)\s*hex\.")


# --- the charts -----------------------------------------------------------------------------


@cache
def to_hit_table() -> Chart:
    """The TABLE DE TOUCHER ANTICHAR, loaded once from ``data/at_to_hit.toml``."""
    return load_chart(DATA / "at_to_hit.toml")


@cache
def to_hit_gun_table() -> Chart:
    """The to-hit 'Modification to function of gun', from ``data/at_to_hit_gun.toml``."""
    return load_chart(DATA / "at_to_hit_gun.toml")


@cache
def at_fire_table() -> Chart:
    """The TIRS ANTICHARS table, loaded once from ``data/at_fire.toml``."""
    return load_chart(DATA / "at_fire.toml")


@cache
def at_fire_gun_table() -> Chart:
    """The Antitank Fire 'Modification to function of the gun', ``data/at_fire_gun.toml``."""
    return load_chart(DATA / "at_fire_gun.toml")


@cache
def portable_table() -> Chart:
    """The TIR D'ARMES PORTATIVES ANTICHARS numbers, from ``data/portable_at.toml``."""
    return load_chart(DATA / "portable_at.toml")


def beyond(label: str) -> int:
    """The distance a gun-function column starts beyond: ``"> 10 hex."`` -> 10."""
    match = _BEYOND.fullmatch(label.strip())
    if match is None:
        msg = f"gun-function column {label!r} is not of the form '> n hex.'"
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


def _dice(label: str, value: int, rule: str) -> Modifier:
    return Modifier(label, Fraction(value), ModifierKind.DICE, rule)


def _total(modifiers: Sequence[Modifier]) -> int:
    return int(sum(m.value for m in modifiers if m.kind is ModifierKind.DICE))


def _gun_modifier(chart: Chart, gun_length: GunLength, distance: int, rule: str) -> list[Modifier]:
    cell = gun_function(chart, gun_length, distance)
    value = modification(cell)
    if cell is None or not value:
        return []
    return [_dice(f"gun function: {cell.row} gun, {cell.column}", value, rule)]


def _gun_fact(chart: Chart, gun_length: GunLength, distance: int) -> str:
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


def _size_label(size: TargetSize) -> str:
    return f"{size.replace('_', ' ')} target"


# --- inputs ---------------------------------------------------------------------------------

_QUALITY_TEXT = "Quality of the firer: recruit +1, veteran -1; line and shock: see shock_quality."
_SHOCK_TEXT = (
    "Reading for shock troops (the charts list only recruit +1 and veteran -1): no_modifier "
    "= no line applies (chosen, the literal text); as_veteran = -1 like a veteran."
)
_SIZE_TEXT = "Target size: large -1, small +1, very_small +2 (normal: no modifier)."


class GunAtRange(RuleInput):
    """What both antitank charts read for the gun: distance and 'function of gun'."""

    distance: int = Field(
        ge=1,
        le=99,
        description=(
            "Distance to the target in hexes (counting the target hex, not the firer's). "
            "Picks the to-hit number and the gun-function columns; at most 99, an explicit "
            "cap (the charts' last bands, '21 hex. and more' and '> 15 hex.', are open)."
        ),
    )
    gun_length: GunLength = Field(
        description=(
            "The gun's line on 'Modification to function of gun' (Small / Medium / Long, read "
            "as the barrel: short, medium, long), from the gun's or vehicle's data."
        ),
    )


class EptAntitankToHit(GunAtRange):
    """A gun or tank gun firing at an armoured target (TABLE DE TOUCHER ANTICHAR)."""

    readings: ClassVar[frozenset[str]] = frozenset({"shock_quality", "hindrance_blocking"})
    """The fields that read the rules where they are silent (folded apart on the web)."""

    target_moving: bool = Field(False, description="Moving target: +2.")
    firer_moving: bool = Field(False, description="Moving firer: +2.")
    firer_quality: Quality = Field("line", description=_QUALITY_TEXT)
    shock_quality: ShockQuality = Field("no_modifier", description=_SHOCK_TEXT)
    target_size: TargetSize = Field("normal", description=_SIZE_TEXT)
    turret_penalty: int = Field(
        0,
        ge=0,
        le=12,
        description=(
            "Fire to the flank or rear 'according to the turret speed': the dice modifier "
            "from the firing vehicle's turret speed (its data, not on the chart sheet); 0 when "
            "firing to the front."
        ),
    )
    protection: Protection = Field(
        "none",
        description=(
            "Terrain protection of the target, 'see table' read as the fire modifiers: "
            "light +1, medium +2, important +3."
        ),
    )
    target_in_smoke: bool = Field(
        False, description="Target in smoke: +1 ('see table': the fire modifiers' terrain)."
    )
    hindrance_hexes: int = Field(
        0,
        ge=0,
        le=99,
        description=(
            "Visual hindrance hexes traversed by the line of fire: +1 each (max. +3), as on "
            "the fire modifiers; beyond the limit the line of sight is blocked. At most 99, "
            "the cap on distances."
        ),
    )

    @model_validator(mode="after")
    def _hindrance_between_firer_and_target(self) -> EptAntitankToHit:
        fire_combat.check_hindrance_within(self.hindrance_hexes, self.distance)
        return self

    hindrance_blocking: Literal["above_3", "from_3"] = Field(
        "above_3",
        description=(
            "When visual hindrance blocks the line of sight: above_3 = a sum above +3 (the "
            "Terrain Table's note); from_3 = 3 points block (the later EPT rules)."
        ),
    )


class EptAntitankFire(GunAtRange):
    """A hit on an armoured target, read on the TIRS ANTICHARS table."""

    at_value: int = Field(
        ge=0,
        le=99,
        description=(
            "The gun's antitank (penetration) value, from its counter or the vehicle's data. "
            "The chart sheet does not say what the differential is made of: read as "
            "differential = AT value - armour of the facing hit. At most 99, an explicit cap "
            "far above any counter (the chart's differentials stop at <=0 and >=7)."
        ),
    )
    front_armour: int = Field(
        ge=0, le=99, description="The target's front armour value (at most 99, as at_value)."
    )
    side_armour: int = Field(
        ge=0, le=99, description="The target's side armour value (at most 99, as at_value)."
    )
    facing: Facing = Field(
        "front",
        description=(
            "The target's facing that is hit: front or side armour; rear = side armour -1 "
            "('Fire to the rear: -1 to the value of side armor')."
        ),
    )


class EptAntitankShot(EptAntitankToHit, EptAntitankFire):
    """One gun shot at an armoured target: the to-hit roll, then (on a hit) the effect."""

    readings: ClassVar[frozenset[str]] = frozenset({"shock_quality", "hindrance_blocking"})
    """The fields that read the rules where they are silent (folded apart on the web)."""


class EptPanzerfaustAvailability(RuleInput):
    """The Panzerfaust availability check ('PF Availability')."""

    availability: int = Field(
        DEFAULT_AVAILABILITY,
        ge=0,
        le=6,
        description="The scenario's Panzerfaust availability: 2 for Normandy (17.1).",
    )


class EptPortableAntitank(RuleInput):
    """A Panzerschreck, Panzerfaust, Bazooka or PIAT fired at a vehicle."""

    readings: ClassVar[frozenset[str]] = frozenset({"shock_quality"})
    """The fields that read the rules where they are silent (folded apart on the web)."""

    weapon: Weapon = Field(
        description="Panzerschreck 7, Panzerfaust 6, Bazooka 6, PIAT 5 (2d6 less destroys)."
    )
    distance: int = Field(
        ge=1,
        le=2,
        description="Distance to the target in hexes: at most 2 (Panzerfaust 1); at 2 hexes +1.",
    )
    target_size: TargetSize = Field("normal", description=_SIZE_TEXT)
    firer_movement_marker: bool = Field(False, description="Firer with movement marker: +2.")
    target_movement_marker: bool = Field(False, description="Target with movement marker: +2.")
    firer_quality: Quality = Field("line", description=_QUALITY_TEXT)
    shock_quality: ShockQuality = Field("no_modifier", description=_SHOCK_TEXT)
    schurzen_on_side: bool = Field(
        False, description="The target has Schürzen and is fired on at its side: +1."
    )
    panzerfaust_check: PanzerfaustCheck = Field(
        "none",
        description=(
            "Panzerfaust only, how 'PF Availability' is checked with this shot: none (chosen: "
            "the check is its own procedure); separate_die = a coloured d6 rolled first; "
            "attack_roll = the coloured die of this shot's 2d6."
        ),
    )
    availability: int = Field(
        DEFAULT_AVAILABILITY,
        ge=0,
        le=6,
        description="For panzerfaust_check: the scenario's availability (2 for Normandy, 17.1).",
    )

    @model_validator(mode="after")
    def _check_is_for_the_panzerfaust(self) -> EptPortableAntitank:
        if self.panzerfaust_check != "none" and self.weapon != "panzerfaust":
            msg = _(
                "'panzerfaust_check' applies to the panzerfaust only (got {check} for {weapon})"
            ).format(check=repr(self.panzerfaust_check), weapon=repr(self.weapon))
            raise ValueError(msg)
        return self


# --- to hit ---------------------------------------------------------------------------------


def _terrain_attack(shot: EptAntitankToHit) -> EptFire:
    """The fire attack whose terrain lines the to-hit chart's 'see table' points to.

    The strength plays no part in those lines; only the terrain fields are carried over.
    """
    return EptFire(
        strength=1,
        protection=shot.protection,
        target_in_smoke=shot.target_in_smoke,
        hindrance_hexes=shot.hindrance_hexes,
        hindrance_blocking=shot.hindrance_blocking,
    )


def to_hit_modifiers(shot: EptAntitankToHit) -> list[Modifier]:
    """The to-hit dice modifiers, in the chart's order."""
    rule = f"{TO_HIT}: dice modifiers"
    found: list[Modifier] = []

    def add(value: int, label: str, rule: str = rule) -> None:
        if value:
            found.append(_dice(label, value, rule))

    add(_MOVEMENT if shot.target_moving else 0, "moving target")
    add(_MOVEMENT if shot.firer_moving else 0, "moving firer")
    label, value = quality_modifier(shot.firer_quality, shot.shock_quality)
    add(value, label)
    add(_TARGET_SIZE[shot.target_size], _size_label(shot.target_size))
    add(
        shot.turret_penalty,
        "fire to the flank or rear (turret speed)",
        f"{TO_HIT}: fire to the flank or rear, according to the turret speed",
    )
    terrain_rule = f"{TO_HIT}: protection of terrain and visual hindrances (see table"
    found.extend(
        Modifier(m.label, m.value, m.kind, f"{terrain_rule}: {m.rule})")
        for m in fire_combat.dice_modifiers(_terrain_attack(shot))
    )
    found.extend(
        _gun_modifier(
            to_hit_gun_table(),
            shot.gun_length,
            shot.distance,
            f"{TO_HIT}: modification to function of gun",
        )
    )
    return found


@dataclass(frozen=True, slots=True)
class ToHitSheet:
    """What a shot brings to the to-hit chart before the dice are rolled."""

    number: int
    column: str
    dice_modifier: int


@lru_cache(maxsize=4096)
def to_hit_sheet(shot: EptAntitankToHit) -> ToHitSheet:
    """Check the line of sight, then read the to-hit number and sum the modifiers (once per
    shot: exact odds re-run the rule for every branch of the dice)."""
    fire_combat.check_line_of_sight(_terrain_attack(shot))
    cell = to_hit_table().lookup_label(ARMOR_ROW, shot.distance)
    return ToHitSheet(int(cell.value), cell.column, _total(to_hit_modifiers(shot)))


def to_hit_facts(shot: EptAntitankToHit) -> list[tuple[str, str]]:
    """The to-hit number, its column and the dice modifier."""
    sheet = to_hit_sheet(shot)
    return [
        ("to-hit number", f"{sheet.number} (distance {shot.distance}: column {sheet.column})"),
        (
            "gun function (to hit)",
            _gun_fact(to_hit_gun_table(), shot.gun_length, shot.distance),
        ),
        ("dice modifier", f"{sheet.dice_modifier:+}"),
        ("hit on", f"2d6 {sheet.dice_modifier:+} <= {sheet.number}"),
    ]


def to_hit(shot: EptAntitankToHit, chance: Chance) -> str:
    """Roll to hit on the TABLE DE TOUCHER ANTICHAR: 2d6 + modifiers <= the number hits."""
    sheet = to_hit_sheet(shot)
    roll = chance.roll(TWO_D6, "to-hit roll (2d6)")
    total = roll + sheet.dice_modifier
    hit = total <= sheet.number
    chance.note(
        to_hit_table().title,
        f"{roll} {sheet.dice_modifier:+} = {total} {'<=' if hit else '>'} {sheet.number} "
        f"(distance {shot.distance}: column {sheet.column}) -> {HIT if hit else MISS}",
    )
    return HIT if hit else MISS


# --- effect ---------------------------------------------------------------------------------


def armour_hit(shot: EptAntitankFire) -> int:
    """The armour value of the facing hit; the rear is the side armour -1."""
    if shot.facing == "front":
        return shot.front_armour
    if shot.facing == "side":
        return shot.side_armour
    return shot.side_armour - 1


def differential(shot: EptAntitankFire) -> int:
    """The differential: AT value - armour of the facing hit (the reading chosen)."""
    return shot.at_value - armour_hit(shot)


def at_fire_modifiers(shot: EptAntitankFire) -> list[Modifier]:
    """The Antitank Fire modifiers, in the chart's order."""
    found: list[Modifier] = []
    if shot.facing == "rear":
        # The armour value falls by one, so the differential rises by one (beyond the printed
        # columns, the differential lines below turn it into dice).
        found.append(
            Modifier(
                "fire to the rear: -1 to the value of side armour (differential +1)",
                Fraction(-1),
                ModifierKind.VALUE,
                f"{AT_FIRE}: fire to the rear",
            )
        )
    value = differential(shot)
    if value < DIFFERENTIAL_LOWEST:
        columns = DIFFERENTIAL_LOWEST - value
        found.append(
            _dice(
                f"differential {value}: {columns} column{'s' if columns > 1 else ''} below 0",
                columns,
                f"{AT_FIRE}: differential less than 0",
            )
        )
    if value > DIFFERENTIAL_HIGHEST:
        columns = value - DIFFERENTIAL_HIGHEST
        found.append(
            _dice(
                f"differential {value}: {columns} column{'s' if columns > 1 else ''} above 7",
                -columns,
                f"{AT_FIRE}: differential greater than 7",
            )
        )
    found.extend(
        _gun_modifier(
            at_fire_gun_table(),
            shot.gun_length,
            shot.distance,
            f"{AT_FIRE}: modification to function of the gun",
        )
    )
    return found


@dataclass(frozen=True, slots=True)
class AntitankFireSheet:
    """What a hit brings to the Antitank Fire table before the dice are rolled."""

    armour: int
    differential: int
    column: str
    dice_modifier: int


@lru_cache(maxsize=4096)
def at_fire_sheet(shot: EptAntitankFire) -> AntitankFireSheet:
    """The armour hit, the differential, its column and the dice modifier (once per shot)."""
    value = differential(shot)
    table = at_fire_table()
    column = table.columns.labels[table.columns.index(value)]
    return AntitankFireSheet(armour_hit(shot), value, column, _total(at_fire_modifiers(shot)))


def at_fire_facts(shot: EptAntitankFire) -> list[tuple[str, str]]:
    """The armour hit, the differential, the column and the dice modifier."""
    sheet = at_fire_sheet(shot)
    armour = {
        "front": f"front {shot.front_armour}",
        "side": f"side {shot.side_armour}",
        "rear": f"side {shot.side_armour} - 1 (fire to the rear) = {sheet.armour}",
    }[shot.facing]
    return [
        ("armour hit", armour),
        (
            "differential",
            f"AT value {shot.at_value} - armour {sheet.armour} = {sheet.differential}",
        ),
        ("Antitank Fire column", sheet.column),
        (
            "gun function (effect)",
            _gun_fact(at_fire_gun_table(), shot.gun_length, shot.distance),
        ),
        ("dice modifier", f"{sheet.dice_modifier:+}"),
    ]


def at_fire(shot: EptAntitankFire, chance: Chance) -> str:
    """Roll a hit's effect on the TIRS ANTICHARS table; a natural 12 misses."""
    sheet = at_fire_sheet(shot)
    table = at_fire_table()
    roll = chance.roll(TWO_D6, "antitank fire roll (2d6)")
    if roll == NATURAL_MISS:
        chance.note(table.title, "natural 12: miss")
        return MISS
    cell = table.lookup(roll + sheet.dice_modifier, sheet.differential)
    chance.note(
        table.title,
        f"{roll} {sheet.dice_modifier:+} = {roll + sheet.dice_modifier}: "
        f"row {cell.row}, column {cell.column} -> {cell.value}",
    )
    return cell.value


# --- one shot: to hit, then effect ----------------------------------------------------------


def shot_modifiers(shot: EptAntitankShot) -> list[Modifier]:
    """The to-hit modifiers, then the effect modifiers, each labelled with its roll."""
    return [
        Modifier(f"to hit: {m.label}", m.value, m.kind, m.rule) for m in to_hit_modifiers(shot)
    ] + [Modifier(f"effect: {m.label}", m.value, m.kind, m.rule) for m in at_fire_modifiers(shot)]


def shot_facts(shot: EptAntitankShot) -> list[tuple[str, str]]:
    """The facts of both rolls."""
    return [(f"to hit: {k}", v) for k, v in to_hit_facts(shot)] + [
        (f"effect: {k}", v) for k, v in at_fire_facts(shot)
    ]


def at_shot(shot: EptAntitankShot, chance: Chance) -> str:
    """One shot: the to-hit roll, then on a hit the Antitank Fire roll."""
    if to_hit(shot, chance) == MISS:
        return MISS
    return _EFFECT[at_fire(shot, chance)]


# --- portable antitank weapons and the Panzerfaust's availability ---------------------------


def check_availability(coloured_die: int, availability: int, chance: Chance) -> str:
    """'PF Availability: unmodified colored die <= to the availability of the scenario'."""
    available = coloured_die <= availability
    chance.note(
        PF_AVAILABILITY,
        f"coloured die {coloured_die} {'<=' if available else '>'} availability {availability}"
        f" -> {AVAILABLE if available else NOT_AVAILABLE}",
    )
    return AVAILABLE if available else NOT_AVAILABLE


def panzerfaust_availability(check: EptPanzerfaustAvailability, chance: Chance) -> str:
    """Roll the coloured die, unmodified, against the scenario's availability."""
    die = chance.roll(D6, "coloured die (1d6, unmodified)")
    return check_availability(die, check.availability, chance)


def portable_modifiers(shot: EptPortableAntitank) -> list[Modifier]:
    """The portable weapons' dice modifiers (cumulative), in the chart's order."""
    rule = f"{PORTABLE}: modifiers to the dice"
    found: list[Modifier] = []

    def add(value: int, label: str) -> None:
        if value:
            found.append(_dice(label, value, rule))

    add(_TARGET_SIZE[shot.target_size], _size_label(shot.target_size))
    add(_MOVEMENT if shot.firer_movement_marker else 0, "firer with movement marker")
    add(_MOVEMENT if shot.target_movement_marker else 0, "target with movement marker")
    label, value = quality_modifier(shot.firer_quality, shot.shock_quality)
    add(value, label)
    add(+1 if shot.schurzen_on_side else 0, "Schurzen (on side)")
    add(+1 if shot.distance == 2 else 0, "at 2 hexes")
    return found


@dataclass(frozen=True, slots=True)
class PortableSheet:
    """The weapon's number and the dice modifier."""

    number: int
    maximum_distance: int
    dice_modifier: int


@lru_cache(maxsize=4096)
def portable_sheet(shot: EptPortableAntitank) -> PortableSheet:
    """Read the weapon's number and maximum distance; beyond it the weapon cannot fire."""
    table = portable_table()
    row = _WEAPON_ROWS[shot.weapon]
    number = int(table.cell_at(row, NUMBER_COLUMN).value)
    maximum = int(table.cell_at(row, MAX_DISTANCE_COLUMN).value)
    if shot.distance > maximum:
        msg = ngettext(
            "the {weapon} cannot fire at {distance} hexes: its maximum distance is {maximum} "
            "hexagon ({chart}: 'Maximum Distance: 2 hexagons (PF = 1)')",
            "the {weapon} cannot fire at {distance} hexes: its maximum distance is {maximum} "
            "hexagons ({chart}: 'Maximum Distance: 2 hexagons (PF = 1)')",
            maximum,
        ).format(weapon=row, distance=shot.distance, maximum=maximum, chart=PORTABLE)
        raise RuleError(msg)
    return PortableSheet(number, maximum, _total(portable_modifiers(shot)))


def portable_facts(shot: EptPortableAntitank) -> list[tuple[str, str]]:
    """The weapon's number, its maximum distance and the dice modifier."""
    sheet = portable_sheet(shot)
    return [
        ("number", f"{_WEAPON_ROWS[shot.weapon]}: {sheet.number}"),
        ("maximum distance", f"{sheet.maximum_distance} hex."),
        ("dice modifier", f"{sheet.dice_modifier:+}"),
        (
            "result",
            f"2d6 {sheet.dice_modifier:+} < {sheet.number} destroyed, = {sheet.number} immobilized",
        ),
    ]


def _attack_roll(shot: EptPortableAntitank, chance: Chance) -> int | None:
    """The 2d6 of the shot, or ``None`` when the Panzerfaust turns out not to be available."""
    if shot.panzerfaust_check == "separate_die":
        check = EptPanzerfaustAvailability(availability=shot.availability)
        if panzerfaust_availability(check, chance) == NOT_AVAILABLE:
            return None
    if shot.panzerfaust_check == "attack_roll":
        white = chance.roll(D6, "white die")
        coloured = chance.roll(D6, "coloured die")
        if check_availability(coloured, shot.availability, chance) == NOT_AVAILABLE:
            return None
        return white + coloured
    return chance.roll(TWO_D6, "portable antitank roll (2d6)")


def portable_at(shot: EptPortableAntitank, chance: Chance) -> str:
    """Roll less than the weapon's number to destroy, equal to immobilize."""
    sheet = portable_sheet(shot)
    roll = _attack_roll(shot, chance)
    if roll is None:
        return NOT_AVAILABLE
    total = roll + sheet.dice_modifier
    if total < sheet.number:
        outcome, sign = DESTROYED, "<"
    elif total == sheet.number:
        outcome, sign = IMMOBILIZED, "="
    else:
        outcome, sign = NO_EFFECT, ">"
    chance.note(
        portable_table().title,
        f"{roll} {sheet.dice_modifier:+} = {total} {sign} {sheet.number} -> {outcome}",
    )
    return outcome


# --- procedures -----------------------------------------------------------------------------

AT_TO_HIT: Procedure[EptAntitankToHit] = Procedure(
    name="at_to_hit",
    title="Antitank to hit (TABLE DE TOUCHER ANTICHAR)",
    input_model=EptAntitankToHit,
    rule=to_hit,
    modifiers=to_hit_modifiers,
    chart="at_to_hit",
    outcome_order=(HIT, MISS),
    facts=to_hit_facts,
    meanings={HIT: "hit: roll the effect on the Antitank Fire table", MISS: "missed"},
)

AT_FIRE_PROCEDURE: Procedure[EptAntitankFire] = Procedure(
    name="at_fire",
    title="Antitank fire, effect of a hit (TIRS ANTICHARS)",
    input_model=EptAntitankFire,
    rule=at_fire,
    modifiers=at_fire_modifiers,
    chart="at_fire",
    outcome_order=AT_FIRE_CODES,
    facts=at_fire_facts,
    meanings={MISS: "natural 12: miss"},
)

AT_SHOT: Procedure[EptAntitankShot] = Procedure(
    name="at_shot",
    title="Antitank shot: to hit, then effect (TABLE DE TOUCHER ANTICHAR, TIRS ANTICHARS)",
    input_model=EptAntitankShot,
    rule=at_shot,
    modifiers=shot_modifiers,
    chart="at_fire",
    outcome_order=SHOT_OUTCOMES,
    facts=shot_facts,
    meanings={
        DESTROYED: "destroyed (D)",
        IMMOBILIZED: "immobilized (I)",
        SHUT_DOWN: "shut down (S)",
        NO_EFFECT: "hit, no effect (-)",
        MISS: "missed: the to-hit roll failed, or a natural 12 on the Antitank Fire roll",
    },
)

PORTABLE_AT: Procedure[EptPortableAntitank] = Procedure(
    name="portable_at",
    title="Fire of portable antitank weapons (TIR D'ARMES PORTATIVES ANTICHARS)",
    input_model=EptPortableAntitank,
    rule=portable_at,
    modifiers=portable_modifiers,
    chart="portable_at",
    outcome_order=PORTABLE_OUTCOMES,
    facts=portable_facts,
    meanings={
        DESTROYED: "destroyed (roll less than the number)",
        IMMOBILIZED: "immobilized (roll equal to the number)",
        NO_EFFECT: "no effect",
        NOT_AVAILABLE: "no Panzerfaust available (PF Availability)",
    },
)

PANZERFAUST_AVAILABILITY: Procedure[EptPanzerfaustAvailability] = Procedure(
    name="panzerfaust_availability",
    title="Panzerfaust availability (PF Availability)",
    input_model=EptPanzerfaustAvailability,
    rule=panzerfaust_availability,
    modifiers=lambda _: [],
    outcome_order=(AVAILABLE, NOT_AVAILABLE),
    facts=lambda check: [("available on", f"coloured die <= {check.availability}")],
    meanings={
        AVAILABLE: "a Panzerfaust is available",
        NOT_AVAILABLE: "no Panzerfaust is available",
    },
)

PROCEDURES = (AT_TO_HIT, AT_FIRE_PROCEDURE, AT_SHOT, PORTABLE_AT, PANZERFAUST_AVAILABILITY)
