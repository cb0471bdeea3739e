"""EPT portable antitank weapons (Panzerschreck, Panzerfaust, Bazooka, PIAT;
TIR D'ARMES PORTATIVES ANTICHARS) roll once: under their number destroys, equal immobilizes;
and the Panzerfaust's availability check.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from firefight.chance import D6, TWO_D6, Chance
from firefight.core.modifier import Modifier
from firefight.errors import RuleError
from firefight.i18n import ngettext
from firefight.rulesets.ept.antitank_charts import (
    AVAILABLE,
    DESTROYED,
    IMMOBILIZED,
    MAX_DISTANCE_COLUMN,
    MOVEMENT,
    NO_EFFECT,
    NOT_AVAILABLE,
    NUMBER_COLUMN,
    PF_AVAILABILITY,
    PORTABLE,
    TARGET_SIZE,
    WEAPON_ROWS,
    modifier_total,
    portable_table,
    quality_modifier,
    roll_modifier,
    size_label,
)
from firefight.rulesets.ept.antitank_inputs import (
    EptPanzerfaustAvailability,
    EptPortableAntitank,
)

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
            found.append(roll_modifier(label, value, rule))

    add(TARGET_SIZE[shot.target_size], size_label(shot.target_size))
    add(MOVEMENT if shot.firer_movement_marker else 0, "firer with movement marker")
    add(MOVEMENT if shot.target_movement_marker else 0, "target with movement marker")
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
    row = WEAPON_ROWS[shot.weapon]
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
    return PortableSheet(number, maximum, modifier_total(portable_modifiers(shot)))


def portable_facts(shot: EptPortableAntitank) -> list[tuple[str, str]]:
    """The weapon's number, its maximum distance and the dice modifier."""
    sheet = portable_sheet(shot)
    return [
        ("number", f"{WEAPON_ROWS[shot.weapon]}: {sheet.number}"),
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
