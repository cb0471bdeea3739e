"""Fire against infantry on the Defense/Firepower Table (seed 004).

The firer's firepower gives the column, the target's defense the row; the cell prints two
thresholds "K S". Two percentile dice read 01-100 (00 is a hundred; ``double_zero``): a roll at
or below K is a Kill, at or below S Suppressed (for one turn), above S no effect, so a cell
kills K% of the time, as the seed speaks of it ("21% or less"). The same table serves
small-arms fire, HE, flamethrowers and grenades against infantry.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from math import lcm
from typing import ClassVar, Literal

import icepool
from pydantic import Field

from firefight.chance import Chance, Dice, exact, spend
from firefight.chance.distribution import Distribution
from firefight.core.chart import Chart, load_chart
from firefight.core.inputs import RuleInput
from firefight.core.modifier import Modifier
from firefight.errors import RuleError
from firefight.i18n import gettext as _
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
    "PERCENTILE_ZERO",
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

PERCENTILE = Dice(1, icepool.Die(range(1, 101)), name="d% (01-100)")
"""Two percentile dice read as one number, 01 to 100 (00 is a hundred): one event of 100 equal
readings (``double_zero="hundred"``)."""
PERCENTILE_ZERO = Dice(1, icepool.Die(range(100)), name="d% (00-99)")
"""The same dice read 00 to 99 (00 is zero; ``double_zero="zero"``)."""
TENS = Dice(1, icepool.Die(range(10)), name="tens d10 (0-9)")
UNITS = Dice(1, icepool.Die(range(10)), name="units d10 (0-9)")

ThresholdReading = Literal["or_less", "less_than"]
PercentileDice = Literal["reading", "tens_units"]
DoubleZero = Literal["hundred", "zero"]


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
            "Roll against K and S (the chart sheet's examples disagree): or_less = a roll equal to "
            "K "
            'kills (the grenade: "21% or less"); less_than = it must be below K ("less than '
            '20%").'
        ),
    )
    double_zero: DoubleZero = Field(
        "hundred",
        description=(
            'How 00 on the two percentile dice reads (the chart sheet speaks in percentages, "21% '
            "or "
            'less"): hundred = the dice read 01-100, a cell "K S" kills with chance K/100; '
            "zero = they read 00-99, 00 is zero and the kill chance is (K+1)/100."
        ),
    )
    percentile_dice: PercentileDice = Field(
        "reading",
        description=(
            "How the two percentile dice are given and shown: reading = one value, 01-100 "
            "(00 is entered as 100) or 00-99 by double_zero (a roll of 42); tens_units = the "
            "tens die, then the units die (a roll of 4,2 = 42; 0,0 = 100 or 00 by double_zero)."
        ),
    )


class PercentileFire(TableReadings, DefenseInput, FirepowerInput):
    """Fire against an infantry unit (Defense/Firepower Table, with its defense modifiers)."""

    readings: ClassVar[frozenset[str]] = frozenset(
        {
            "defense_rounding",
            "rounding_stage",
            "heavy_mg_full_cover",
            "open_top_crew",
            "riders_moving",
            "beyond_chart",
            "threshold_reading",
            "percentile_dice",
        }
    )
    """The fields that read the rules where they are silent (folded apart on the web)."""


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
        msg = _(
            "firepower {firepower} is above 10, beyond the Defense/Firepower Table's columns "
            "1-10 (beyond_chart=refuse; clamp reads column 10)"
        ).format(firepower=firepower)
        raise RuleError(msg)
    return 10


def table_sheet(target: DefenseInput, firepower: int) -> FireSheet:
    """Read the cell for the target's defense and a firepower factor."""
    if firepower < 1:
        msg = _("firepower {firepower} is below 1: this unit cannot fire at this target").format(
            firepower=firepower
        )
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


_ROLL_TEXT = tuple(f"{roll:02d} -> " for roll in range(101))


def read_roll(roll: int, sheet: FireSheet, reading: ThresholdReading) -> str:
    """Kill at or below K, suppressed at or below S, else no effect (``less_than``: below)."""
    if reading == "less_than":
        if roll < sheet.kill:
            return "kill"
        return "suppressed" if roll < sheet.suppress else "no_effect"
    if roll <= sheet.kill:
        return "kill"
    return "suppressed" if roll <= sheet.suppress else "no_effect"


def percentile_roll(dice: PercentileDice, double_zero: DoubleZero, chance: Chance) -> int:
    """Two percentile dice read 01-100, 00 being a hundred (``double_zero="hundred"``), or
    00-99, 00 being zero (``"zero"``)."""
    if dice == "tens_units":
        tens = chance.roll(TENS, "tens die (d10, 0-9)")
        units = chance.roll(UNITS, "units die (d10, 0-9)")
        roll = 10 * tens + units
        return 100 if roll == 0 and double_zero == "hundred" else roll
    if double_zero == "zero":
        return chance.roll(PERCENTILE_ZERO, "percentile roll (00-99)")
    return chance.roll(PERCENTILE, "percentile roll (01-100, 00 is 100)")


def resolve_on_table(sheet: FireSheet, readings: TableReadings, chance: Chance) -> str:
    """Roll the percentile dice and read the cell."""
    roll = percentile_roll(readings.percentile_dice, readings.double_zero, chance)
    outcome = read_roll(roll, sheet, readings.threshold_reading)
    chance.note("Defense/Firepower Table", sheet.note_prefix + _ROLL_TEXT[roll] + outcome)
    return outcome


@cache
def roll_odds(
    dice: PercentileDice, double_zero: DoubleZero
) -> tuple[int, tuple[tuple[int, int], ...]]:
    """The exact distribution of :func:`percentile_roll` (its own steps evaluated once per
    way of rolling and reading 00), as integer weights over one denominator."""
    odds = exact(lambda chance: percentile_roll(dice, double_zero, chance))
    whole = lcm(*(p.denominator for p in odds.values()))
    return whole, tuple((roll, p.numerator * (whole // p.denominator)) for roll, p in odds.items())


def table_odds(sheet: FireSheet, readings: TableReadings) -> Distribution[str]:
    """The exact odds of :func:`resolve_on_table`: each percentile roll read on the cell
    (:func:`read_roll`) once, where the replay re-ran the whole rule per roll (tested equal to
    it)."""
    spend(1)
    whole, rolls = roll_odds(readings.percentile_dice, readings.double_zero)
    weights: dict[str, int] = {}
    for roll, weight in rolls:
        outcome = read_roll(roll, sheet, readings.threshold_reading)
        weights[outcome] = weights.get(outcome, 0) + weight
    return Distribution({outcome: Fraction(w, whole) for outcome, w in weights.items()})


def fire(attack: PercentileFire, chance: Chance) -> str:
    """Resolve one fire attack against infantry on the Defense/Firepower Table."""
    return resolve_on_table(fire_sheet(attack), attack, chance)


def modifiers(target: DefenseInput) -> list[Modifier]:
    """Full cover and moving (factors of the base), then every printed defense modifier."""
    return base_modifiers(target) + defense_modifiers(target)


def _span(low: int, high: int) -> str:
    if low > high:
        return "none"
    return f"{low:02d}" if low == high else f"{low:02d}-{high:02d}"


def table_facts(sheet: FireSheet, readings: TableReadings) -> tuple[str, str]:
    """The cell and the rolls of each result: ``20 57: kill 01-20, suppressed 21-57, ...``."""
    strict = 1 if readings.threshold_reading == "less_than" else 0
    low, high = (1, 100) if readings.double_zero == "hundred" else (0, 99)
    kill_top = sheet.kill - strict
    suppress_top = sheet.suppress - strict
    return (
        "Defense/Firepower Table",
        f"{sheet.cell}: kill {_span(low, kill_top)}, "
        f"suppressed {_span(max(kill_top + 1, low), suppress_top)}, "
        f"no effect {_span(max(suppress_top + 1, low), high)}",
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
        table_facts(sheet, attack),
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
    exact_odds=lambda attack: table_odds(fire_sheet(attack), attack),
)

PROCEDURES = (FIRE,)
