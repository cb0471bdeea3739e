"""Fire against infantry on the Defense/Firepower Table (seed 004).

The firer's firepower gives the column, the target's defense the row; the cell prints two
thresholds "K S". Two percentile dice read 00-99: a roll at or below K is a Kill, at or below S
Suppressed (for one turn), above S no effect. The same table serves small-arms fire, HE,
flamethrowers and grenades against infantry.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Literal

import icepool
from pydantic import Field

from firefight.chance import Chance, Dice
from firefight.core.chart import Chart, load_chart
from firefight.core.inputs import RuleInput
from firefight.core.modifier import Modifier
from firefight.errors import RuleError
from firefight.rulesets.percentile.defense import (
    DefenseInput,
    base_modifiers,
    defense_facts,
    defense_modifiers,
    defense_sheet,
)
from firefight.rulesets.percentile.paths import DATA
from firefight.rulesets.procedure import Procedure

__all__ = [
    "FIRE",
    "MEANINGS",
    "OUTCOMES",
    "PERCENTILE",
    "PROCEDURES",
    "TENS",
    "UNITS",
    "FireSheet",
    "FirepowerInput",
    "PercentileFire",
    "TableReadings",
    "defense_firepower_table",
    "fire",
    "fire_sheet",
    "modifiers",
    "percentile_roll",
    "read_roll",
    "table_facts",
]

OUTCOMES = ("kill", "suppressed", "no_effect")
"""From the worst for the target to the best."""
MEANINGS = {
    "kill": "Kill: the unit is eliminated",
    "suppressed": "Suppressed for one turn",
    "no_effect": "no effect",
}

PERCENTILE = Dice(1, icepool.Die(range(100)), name="d% (00-99)")
"""Two percentile dice read as one number, 00 to 99: one event of 100 equal readings."""
TENS = Dice(1, icepool.Die(range(10)), name="tens d10 (0-9)")
UNITS = Dice(1, icepool.Die(range(10)), name="units d10 (0-9)")

ThresholdReading = Literal["or_less", "less_than"]
PercentileDice = Literal["reading", "tens_units"]


@cache
def defense_firepower_table() -> Chart:
    """The Defense/Firepower Table, loaded once from ``data/defense_firepower.toml``."""
    return load_chart(DATA / "defense_firepower.toml")


class FirepowerInput(RuleInput):
    """The firer's side: a firepower factor read off the user's capabilities or HE table."""

    firepower: int = Field(
        ge=1,
        le=99,
        description=(
            "The firer's offensive firepower factor (Infantry capabilities or HE Firepower "
            "table); above 10 reads column 10 (see beyond_chart). At most 99, an explicit cap."
        ),
    )


class TableReadings(RuleInput):
    """How the percentile roll is read against the cell's two thresholds."""

    threshold_reading: ThresholdReading = Field(
        "or_less",
        description=(
            "Roll against K and S (the seed's examples disagree): or_less = a roll equal to K "
            'kills (the grenade: "21% or less"); less_than = it must be below K ("less than '
            '20%").'
        ),
    )
    percentile_dice: PercentileDice = Field(
        "reading",
        description=(
            "How the two percentile dice are given and shown: reading = one value 00-99 "
            "(--roll 42); tens_units = the tens die, then the units die (--roll 4,2 = 42)."
        ),
    )


class PercentileFire(TableReadings, DefenseInput, FirepowerInput):
    """Fire against an infantry unit (Defense/Firepower Table, with its defense modifiers)."""


@dataclass(frozen=True, slots=True)
class FireSheet:
    """The cell read before the dice: row (defense), column (firepower), K and S."""

    row: int
    column: int
    cell: str
    kill: int
    suppress: int
    note_prefix: str
    """The start of the trace's note: ``defense 4, firepower 2: 20 57; roll ``."""


def chart_firepower(firepower: int, beyond_chart: str) -> int:
    """The column for a firepower factor: 1..10, above 10 by ``beyond_chart``."""
    if firepower <= 10:
        return firepower
    if beyond_chart == "refuse":
        msg = (
            f"firepower {firepower} is above 10, beyond the Defense/Firepower Table's columns "
            "1-10 (beyond_chart=refuse; clamp reads column 10)"
        )
        raise RuleError(msg)
    return 10


def table_sheet(target: DefenseInput, firepower: int) -> FireSheet:
    """Read the cell for the target's defense and a firepower factor."""
    if firepower < 1:
        msg = f"firepower {firepower} is below 1: this unit cannot fire at this target"
        raise RuleError(msg)
    row = defense_sheet(target).row
    column = chart_firepower(firepower, target.beyond_chart)
    cell = defense_firepower_table().cell_at(str(row), str(column)).value
    kill, suppress = (int(part) for part in cell.split())
    prefix = f"defense {row}, firepower {column}: {cell}; roll "
    return FireSheet(row, column, cell, kill, suppress, prefix)


@lru_cache(maxsize=4096)
def fire_sheet(attack: PercentileFire) -> FireSheet:
    """The cell for an attack, worked out once per input (exact odds re-run the rule for each
    of the 100 readings)."""
    return table_sheet(attack, attack.firepower)


_ROLL_TEXT = tuple(f"{roll:02d} -> " for roll in range(100))


def read_roll(roll: int, sheet: FireSheet, reading: ThresholdReading) -> str:
    """Kill at or below K, suppressed at or below S, else no effect (``less_than``: below)."""
    if reading == "less_than":
        if roll < sheet.kill:
            return "kill"
        return "suppressed" if roll < sheet.suppress else "no_effect"
    if roll <= sheet.kill:
        return "kill"
    return "suppressed" if roll <= sheet.suppress else "no_effect"


def percentile_roll(dice: PercentileDice, chance: Chance) -> int:
    """Two percentile dice read 00-99 (00 is zero, not a hundred)."""
    if dice == "tens_units":
        tens = chance.roll(TENS, "tens die (d10, 0-9)")
        units = chance.roll(UNITS, "units die (d10, 0-9)")
        return 10 * tens + units
    return chance.roll(PERCENTILE, "percentile roll (00-99)")


def resolve_on_table(sheet: FireSheet, readings: TableReadings, chance: Chance) -> str:
    """Roll the percentile dice and read the cell."""
    roll = percentile_roll(readings.percentile_dice, chance)
    outcome = read_roll(roll, sheet, readings.threshold_reading)
    chance.note("Defense/Firepower Table", sheet.note_prefix + _ROLL_TEXT[roll] + outcome)
    return outcome


def fire(attack: PercentileFire, chance: Chance) -> str:
    """Resolve one fire attack against infantry on the Defense/Firepower Table."""
    return resolve_on_table(fire_sheet(attack), attack, chance)


def modifiers(target: DefenseInput) -> list[Modifier]:
    """Full cover and moving (factors of the base), then every printed defense modifier."""
    return base_modifiers(target) + defense_modifiers(target)


def _span(low: int, high: int) -> str:
    return f"{low:02d}-{high:02d}" if low <= high else "none"


def table_facts(sheet: FireSheet, reading: ThresholdReading) -> tuple[str, str]:
    """The cell and the rolls of each result: ``20 57: kill 00-20, suppressed 21-57, ...``."""
    strict = 1 if reading == "less_than" else 0
    kill_top = sheet.kill - strict
    suppress_top = sheet.suppress - strict
    return (
        "Defense/Firepower Table",
        f"{sheet.cell}: kill {_span(0, kill_top)}, suppressed {_span(kill_top + 1, suppress_top)}, "
        f"no effect {_span(suppress_top + 1, 99)}",
    )


def facts(attack: PercentileFire) -> list[tuple[str, str]]:
    """Base, defense, row, firepower column and the cell's rolls."""
    sheet = fire_sheet(attack)
    column = (
        f"{sheet.column}"
        if sheet.column == attack.firepower
        else f"{sheet.column} (firepower {attack.firepower})"
    )
    return [
        *defense_facts(attack),
        ("Defense/Firepower Table column", column),
        table_facts(sheet, attack.threshold_reading),
    ]


FIRE: Procedure[PercentileFire] = Procedure(
    name="fire",
    title="Fire against infantry (Defense/Firepower Table)",
    input_model=PercentileFire,
    rule=fire,
    modifiers=modifiers,
    chart="defense_firepower",
    outcome_order=OUTCOMES,
    facts=facts,
    meanings=MEANINGS,
)

PROCEDURES = (FIRE,)
