"""EPT antitank fire, the effect: a hit rolls 2d6 + the effect modifiers on the
Antitank Fire table (TIRS ANTICHARS), in the column of the differential (the gun's AT value
minus the armour of the facing hit), for destroyed / immobilized / shut down.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from firefight.chance import TWO_D6, Chance
from firefight.chance.direct import by_total
from firefight.chance.distribution import Distribution
from firefight.core.chart import Cell
from firefight.core.modifier import Modifier, ModifierKind
from firefight.rulesets.ept.antitank_charts import (
    AT_FIRE,
    DIFFERENTIAL_HIGHEST,
    DIFFERENTIAL_LOWEST,
    MISS,
    NATURAL_MISS,
    at_fire_gun_table,
    at_fire_table,
    gun_fact,
    gun_modifier,
    modifier_total,
    roll_modifier,
)
from firefight.rulesets.ept.antitank_inputs import (
    EptAntitankFire,
)

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
            roll_modifier(
                f"differential {value}: {columns} column{'s' if columns > 1 else ''} below 0",
                columns,
                f"{AT_FIRE}: differential less than 0",
            )
        )
    if value > DIFFERENTIAL_HIGHEST:
        columns = value - DIFFERENTIAL_HIGHEST
        found.append(
            roll_modifier(
                f"differential {value}: {columns} column{'s' if columns > 1 else ''} above 7",
                -columns,
                f"{AT_FIRE}: differential greater than 7",
            )
        )
    found.extend(
        gun_modifier(
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
    return AntitankFireSheet(
        armour_hit(shot), value, column, modifier_total(at_fire_modifiers(shot))
    )


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
            gun_fact(at_fire_gun_table(), shot.gun_length, shot.distance),
        ),
        ("dice modifier", f"{sheet.dice_modifier:+}"),
    ]


def at_fire_result(sheet: AntitankFireSheet, roll: int) -> tuple[str, Cell | None]:
    """The TIRS ANTICHARS result of an effect roll of ``roll`` and the cell read (``None``:
    a natural 12, a miss, reads none)."""
    if roll == NATURAL_MISS:
        return MISS, None
    cell = at_fire_table().lookup(roll + sheet.dice_modifier, sheet.differential)
    return cell.value, cell


def at_fire(shot: EptAntitankFire, chance: Chance) -> str:
    """Roll a hit's effect on the TIRS ANTICHARS table; a natural 12 misses."""
    sheet = at_fire_sheet(shot)
    table = at_fire_table()
    roll = chance.roll(TWO_D6, "antitank fire roll (2d6)")
    result, cell = at_fire_result(sheet, roll)
    if cell is None:
        chance.note(table.title, "natural 12: miss")
        return result
    chance.note(
        table.title,
        f"{roll} {sheet.dice_modifier:+} = {roll + sheet.dice_modifier}: "
        f"row {cell.row}, column {cell.column} -> {cell.value}",
    )
    return result


def at_fire_odds(shot: EptAntitankFire) -> Distribution[str]:
    """The exact odds of :func:`at_fire`: its one roll, each total read once."""
    sheet = at_fire_sheet(shot)
    return by_total(TWO_D6, lambda roll: at_fire_result(sheet, roll)[0])
