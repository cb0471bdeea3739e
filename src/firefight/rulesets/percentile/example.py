"""EXAMPLE data only: fire with a unit type and a range, read off the shipped EXAMPLE file.

The seed's "Infantry" capabilities table is not in the seed; the engine ships
``data/examples/EXAMPLE_capabilities.toml`` with illustrative values (only "NM British
Paratroopers at 12 to 16 inches: firepower 2" comes from the seed). This procedure looks the
firepower up in that file, so that a range in inches choosing a band can be tried from the CLI;
with your own rulebook's values, load your file with
:func:`~firefight.rulesets.percentile.capabilities.load_capabilities` in Python, or give the
firepower to ``percentile fire --firepower N``.
"""

from __future__ import annotations

from functools import lru_cache
from typing import ClassVar, Literal, get_args

from pydantic import Field

from firefight.chance import Chance
from firefight.core.inputs import RuleInput
from firefight.rulesets.percentile.capabilities import example_capabilities
from firefight.rulesets.percentile.defense import DefenseInput, defense_facts
from firefight.rulesets.percentile.fire import (
    MEANINGS,
    OUTCOMES,
    FireSheet,
    TableReadings,
    modifiers,
    resolve_on_table,
    table_facts,
    table_odds,
    table_sheet,
)
from firefight.rulesets.procedure import Procedure

__all__ = ["EXAMPLE_FIRE", "EXAMPLE_UNIT_TYPES", "PROCEDURES", "ExampleFire", "example_fire"]

ExampleUnitType = Literal["british_paratroopers", "german_ss", "us_rifle_squad", "mg42_team"]
EXAMPLE_UNIT_TYPES: tuple[str, ...] = get_args(ExampleUnitType)
"""The unit types of the EXAMPLE file (a test checks they are the file's)."""


class ExampleFirer(RuleInput):
    """The firer, looked up in the EXAMPLE capabilities file."""

    unit_type: ExampleUnitType = Field(
        description="EXAMPLE data: the firing unit type, a key of EXAMPLE_capabilities.toml."
    )
    range_inches: int = Field(
        ge=0,
        le=60,
        description=(
            "Range in whole inches between base centres; a range on a band boundary belongs "
            "to the shorter band (12 inches reads 8-12, not 12-16)."
        ),
    )
    firer_moving: bool = Field(
        False, description="The firer moves: the MV firepower, else Non Moving (NM)."
    )


class ExampleFire(TableReadings, DefenseInput, ExampleFirer):
    """Fire with the EXAMPLE capabilities (illustrative values, not the rulebook's)."""

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


@lru_cache(maxsize=4096)
def _sheet(attack: ExampleFire) -> tuple[FireSheet, str, int]:
    reading = example_capabilities().infantry_firepower(
        attack.unit_type, attack.range_inches, moving=attack.firer_moving, unit="inches"
    )
    return table_sheet(attack, reading.firepower), reading.source, reading.firepower


def example_fire(attack: ExampleFire, chance: Chance) -> str:
    """Look the firepower up in the EXAMPLE file, then fire on the Defense/Firepower Table."""
    sheet, _, _ = _sheet(attack)
    return resolve_on_table(sheet, attack, chance)


def facts(attack: ExampleFire) -> list[tuple[str, str]]:
    """Where the EXAMPLE firepower was read, the defense and the cell."""
    sheet, source, firepower = _sheet(attack)
    return [
        ("EXAMPLE firepower", f"{firepower} ({source}; EXAMPLE data, not the rulebook's)"),
        *defense_facts(attack),
        ("Defense/Firepower Table column", str(sheet.column)),
        table_facts(sheet, attack),
    ]


EXAMPLE_FIRE: Procedure[ExampleFire] = Procedure(
    name="example_fire",
    title="EXAMPLE data: fire with the shipped EXAMPLE capabilities (not the rulebook's values)",
    input_model=ExampleFire,
    rule=example_fire,
    modifiers=modifiers,
    chart="defense_firepower",
    outcome_order=OUTCOMES,
    facts=facts,
    meanings=MEANINGS,
    exact_odds=lambda attack: table_odds(_sheet(attack)[0], attack),
)

PROCEDURES = (EXAMPLE_FIRE,)
