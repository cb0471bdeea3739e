"""EPT vehicle charts (seed 000): TIR ANTIPERSONNEL PAR UN VEHICULE and TIR ANTIPERSONNEL
CONTRE BLINDES [should be Indirect Fire Against Armor?].

* ``vehicle_ap_fire``: a vehicle's AP value, modified by distance (> 6 hexes -2, > 10 -3,
  > 16 -4), is its fire strength on the TABLE DE COMBAT; the rest is fire combat, resolved by
  :func:`firefight.rulesets.ept.fire.fire` itself.
* ``indirect_vs_armor``: the number by type of vehicle and type of fire, tested on 2d6 with the
  open-topped and front-armour modifiers.
"""

from __future__ import annotations

import re
from fractions import Fraction
from functools import cache, lru_cache
from typing import ClassVar, Literal

from pydantic import AliasChoices, Field, model_validator

from firefight.chance import TWO_D6, Chance
from firefight.chance.direct import by_total
from firefight.chance.distribution import Distribution
from firefight.core.chart import Chart, chart_file
from firefight.core.inputs import RuleInput
from firefight.core.modifier import Modifier, ModifierKind
from firefight.errors import ChartError, RuleError
from firefight.i18n import gettext as _
from firefight.rulesets.ept import fire as fire_combat
from firefight.rulesets.ept.fire import (
    DATA,
    EptFire,
    Protection,
    TargetMovement,
)
from firefight.rulesets.ept.terrain import HindranceBlocking
from firefight.rulesets.procedure import Procedure


@cache
def vehicle_ap_chart() -> Chart:
    """TIR ANTIPERSONNEL PAR UN VEHICULE, loaded once from ``data/vehicle_ap.toml``."""
    return chart_file(DATA / "vehicle_ap.toml")


@cache
def indirect_vs_armor_chart() -> Chart:
    """TIR ANTIPERSONNEL CONTRE BLINDES, loaded once from ``data/indirect_vs_armor.toml``."""
    return chart_file(DATA / "indirect_vs_armor.toml")


# --- TIR ANTIPERSONNEL PAR UN VEHICULE -------------------------------------------------------

_BEYOND = re.compile(r"^>\s*than (?P<hexes>\d+) hex\.$")

_FIRE_FIELDS = (
    "moved_and_fired",
    "firer_stopped",
    "firer_in_smoke",
    "target_hidden",
    "target_movement",
    "gun_fired_on_from_front",
    "protection",
    "target_in_smoke",
    "hindrance_hexes",
    "factor_rounding",
    "hindrance_blocking",
    "follow_up",
    "morale",
    "test_digit",
    "passed_neutralization",
)
"""The fire-combat inputs a vehicle's AP fire passes on unchanged to :class:`EptFire`."""


def _fire_help(field: str) -> str:
    return EptFire.model_fields[field].description or ""


class EptVehicleApFire(RuleInput):
    """Antipersonnel fire by a vehicle (TIR ANTIPERSONNEL PAR UN VEHICULE, then fire combat)."""

    readings: ClassVar[frozenset[str]] = frozenset(
        {"factor_rounding", "hindrance_blocking", "test_digit", "passed_neutralization"}
    )
    """The fields that read the rules where they are silent (folded apart on the web)."""

    ap_value: int = Field(
        ge=1,
        le=99,
        description="The vehicle's AP (antipersonnel) value (at most 99, as a fire strength).",
    )
    distance: int = Field(
        ge=1,
        le=99,
        description=(
            "Distance to the target in hexes, counting the target hex, not the firer's: "
            "> 6 -2, > 10 -3, > 16 -4 to the AP value (at most 99, an explicit cap: '> 16' "
            "is open)."
        ),
    )
    adjacent_fire: Literal["doubled", "not_doubled"] = Field(
        "doubled",
        description=(
            "At 1 hex (adjacent): doubled = MODIFICATEURS DE TIR 'against adjacent hex: x2' "
            "applies to the AP value as to any fire; not_doubled = the vehicle chart's distance "
            "modifiers replace the fire chart's whole Distance line."
        ),
    )
    moved_and_fired: bool = Field(False, description=_fire_help("moved_and_fired"))
    firer_stopped: bool = Field(False, description=_fire_help("firer_stopped"))
    firer_in_smoke: bool = Field(False, description=_fire_help("firer_in_smoke"))
    target_hidden: bool = Field(False, description=_fire_help("target_hidden"))
    target_movement: TargetMovement = Field("none", description=_fire_help("target_movement"))
    gun_fired_on_from_front: bool = Field(False, description=_fire_help("gun_fired_on_from_front"))
    protection: Protection = Field("none", description=_fire_help("protection"))
    target_in_smoke: bool = Field(False, description=_fire_help("target_in_smoke"))
    hindrance_hexes: int = Field(0, ge=0, le=99, description=_fire_help("hindrance_hexes"))

    @model_validator(mode="after")
    def _hindrance_between_firer_and_target(self) -> EptVehicleApFire:
        fire_combat.check_hindrance_within(self.hindrance_hexes, self.distance)
        return self

    factor_rounding: Literal["down", "nearest", "up"] = Field(
        "down", description=_fire_help("factor_rounding")
    )
    hindrance_blocking: HindranceBlocking = Field(
        "above_3", description=_fire_help("hindrance_blocking")
    )
    follow_up: Literal["chart", "morale_test"] = Field("chart", description=_fire_help("follow_up"))
    morale: int | None = Field(None, ge=1, le=12, description=_fire_help("morale"))
    test_digit: Literal["adds_to_roll", "ignored"] = Field(
        "adds_to_roll", description=_fire_help("test_digit")
    )
    passed_neutralization: Literal["no_effect", "stopped"] = Field(
        "no_effect", description=_fire_help("passed_neutralization")
    )

    @model_validator(mode="after")
    def _morale_for_tests(self) -> EptVehicleApFire:
        if self.follow_up == "morale_test" and self.morale is None:
            msg = _("'morale' must be given when 'follow_up' is morale_test (got None)")
            raise ValueError(msg)
        return self


def distance_modifier(distance: int) -> tuple[int, str | None]:
    """The modifier to the AP value at a distance and the printed column it comes from: the
    farthest column the distance is beyond (the columns are bands, not cumulative)."""
    chart = vehicle_ap_chart()
    row = chart.rows.labels[0]
    found: tuple[int, str | None] = (0, None)
    for column in chart.columns.labels:
        match = _BEYOND.match(column)
        if match is None:
            msg = _("chart {id!r}: column {column!r} is not '>than N hex.'").format(
                id=chart.id, column=column
            )
            raise ChartError(msg)
        if distance > int(match["hexes"]):
            found = (int(chart.cell_at(row, column).value), column)
    return found


def modified_ap_value(inp: EptVehicleApFire) -> int:
    """The AP value plus its distance modifier: the vehicle's fire strength."""
    return inp.ap_value + distance_modifier(inp.distance)[0]


@lru_cache(maxsize=4096)
def as_fire(inp: EptVehicleApFire) -> EptFire:
    """The fire-combat attack the vehicle makes: strength = the modified AP value."""
    strength = modified_ap_value(inp)
    if strength < 1:
        modifier, column = distance_modifier(inp.distance)
        msg = _(
            "AP value {ap} {modifier} ({column}) = {strength} at {distance} hexes: below the "
            "Combat Table's lowest column, 1: the vehicle cannot fire that far"
        ).format(
            ap=inp.ap_value,
            modifier=f"{modifier:+}",
            column=column,
            strength=strength,
            distance=inp.distance,
        )
        raise RuleError(msg)
    adjacent = inp.distance == 1 and inp.adjacent_fire == "doubled"
    return EptFire(
        strength=strength,
        range="adjacent" if adjacent else "normal",
        **{field: getattr(inp, field) for field in _FIRE_FIELDS},
    )


def vehicle_ap_modifiers(inp: EptVehicleApFire) -> list[Modifier]:
    """Fire combat's modifiers for the attack (the AP value's own modifier is a fact: it is
    added to the strength, which no modifier kind expresses)."""
    return fire_combat.modifiers(as_fire(inp))


def vehicle_ap_facts(inp: EptVehicleApFire) -> list[tuple[str, str]]:
    """The AP value as modified by distance, then fire combat's factor, column and dice."""
    modifier, column = distance_modifier(inp.distance)
    strength = modified_ap_value(inp)
    ap_text = (
        f"{inp.ap_value} {modifier:+} ({column}) = {strength}"
        if column is not None
        else f"{inp.ap_value} (up to 6 hexes: unmodified)"
    )
    return [("AP value at distance", ap_text), *fire_combat.facts(as_fire(inp))]


def vehicle_ap_fire(inp: EptVehicleApFire, chance: Chance) -> str:
    """TIR ANTIPERSONNEL PAR UN VEHICULE: fire combat at the modified AP value."""
    return fire_combat.fire(as_fire(inp), chance)


VEHICLE_AP_FIRE: Procedure[EptVehicleApFire] = Procedure(
    name="vehicle_ap_fire",
    title="Antipersonnel fire by a vehicle (TIR ANTIPERSONNEL PAR UN VEHICULE, TABLE DE COMBAT)",
    input_model=EptVehicleApFire,
    rule=vehicle_ap_fire,
    modifiers=vehicle_ap_modifiers,
    chart="combat",
    outcome_order=fire_combat.CHART_CODES + fire_combat.MORALE_OUTCOMES,
    facts=vehicle_ap_facts,
)


# --- TIR ANTIPERSONNEL CONTRE BLINDES [Indirect Fire Against Armor?] --------------------------

VehicleType = Literal["armored", "non_armored"]
FireType = Literal[
    "heavy_artillery", "medium_artillery", "light_artillery", "mortar_90", "mortar_60"
]
VEHICLE_ROWS: dict[str, str] = {"armored": "Armored", "non_armored": "Non armored"}
FIRE_COLUMNS: dict[str, str] = {
    "heavy_artillery": "HvyArt.",
    "medium_artillery": "Med.Art.",
    "light_artillery": "LightArt.",
    "mortar_90": "Mo90",
    "mortar_60": "Mo60",
}
ArmorTest = Literal["at_most", "less_destroys_equal_immobilizes"]
ARMOR_OUTCOMES = ("no_effect", "immobilized", "destroyed")
OPEN_TOPPED = -2
"""'Open-topped: -2 (armored only)'."""
THICK_FRONT_ARMOR = 10
"""'Armor front > 10: +1'."""
INDIRECT_VS_ARMOR = "TIR ANTIPERSONNEL CONTRE BLINDES: modifiers"


class EptIndirectVsArmor(RuleInput):
    """Indirect fire on a vehicle (TIR ANTIPERSONNEL CONTRE BLINDES [should be Indirect Fire
    Against Armor?], the translator's doubt)."""

    vehicle_type: VehicleType = Field(
        description="TYPE OF VEHICLE: armored or non_armored (chart rows Armored, Non armored)."
    )
    fire_type: FireType = Field(
        description=(
            "TYPE OF FIRE: heavy_artillery (HvyArt.), medium_artillery (Med.Art.), "
            "light_artillery (LightArt.), mortar_90 (Mo90), mortar_60 (Mo60)."
        )
    )
    open_topped: bool = Field(
        False, description="The vehicle is open-topped: -2 to the dice (armored only)."
    )
    front_armour: int = Field(
        0,
        validation_alias=AliasChoices("front_armour", "front_armor"),
        ge=0,
        le=99,
        description=(
            "The vehicle's front armour value: above 10, +1 to the dice (at most 99, an "
            "explicit cap, as the antitank charts' armour)."
        ),
    )
    test: ArmorTest = Field(
        "at_most",
        description=(
            "The test (the chart sheet's 'Test:' is cut off): at_most = 2d6 + modifiers <= the "
            "number destroys (the sheet's 'roll with 2d6 less or equal'); "
            "less_destroys_equal_immobilizes = below the number destroys, equal immobilizes "
            "(the sheet's portable antitank weapons)."
        ),
    )


def armor_modifiers(inp: EptIndirectVsArmor) -> list[Modifier]:
    """Open-topped -2 (armored only) and armour front > 10 +1, as dice modifiers."""
    found = []
    if inp.open_topped and inp.vehicle_type == "armored":
        found.append(
            Modifier("open-topped", Fraction(OPEN_TOPPED), ModifierKind.DICE, INDIRECT_VS_ARMOR)
        )
    if inp.front_armour > THICK_FRONT_ARMOR:
        found.append(
            Modifier(
                f"armor front {inp.front_armour} > {THICK_FRONT_ARMOR}",
                Fraction(1),
                ModifierKind.DICE,
                INDIRECT_VS_ARMOR,
            )
        )
    return found


@lru_cache(maxsize=1024)
def armor_sheet(inp: EptIndirectVsArmor) -> tuple[int, int, str]:
    """The number read on the chart, the dice modifier and the cell as the trace shows it."""
    cell = indirect_vs_armor_chart().cell_at(
        VEHICLE_ROWS[inp.vehicle_type], FIRE_COLUMNS[inp.fire_type]
    )
    modifier = int(sum(m.value for m in armor_modifiers(inp)))
    return int(cell.value), modifier, f"{cell.row}, {cell.column} -> {cell.value}"


def armor_facts(inp: EptIndirectVsArmor) -> list[tuple[str, str]]:
    """The number, the dice modifier and what a roll must do."""
    number, modifier, cell = armor_sheet(inp)
    facts = [("number", cell), ("dice modifier", f"{modifier:+}")]
    if inp.open_topped and inp.vehicle_type != "armored":
        facts.append(("open-topped", "no effect (armored only)"))
    if inp.test == "at_most":
        facts.append(("destroyed on", f"2d6 {modifier:+} <= {number}"))
    else:
        facts.append(("destroyed / immobilized on", f"2d6 {modifier:+} < {number} / = {number}"))
    return facts


def armor_result(total: int, number: int, test: str) -> str:
    """TIR ANTIPERSONNEL CONTRE BLINDES: the modified roll against the number (``at_most``:
    at most it destroys; else below it destroys, equal immobilizes)."""
    if test == "at_most":
        return "destroyed" if total <= number else "no_effect"
    if total < number:
        return "destroyed"
    return "immobilized" if total == number else "no_effect"


def indirect_vs_armor_odds(inp: EptIndirectVsArmor) -> Distribution[str]:
    """The exact odds of :func:`indirect_vs_armor`: its one roll, each total read once."""
    number, modifier, _ = armor_sheet(inp)
    return by_total(TWO_D6, lambda roll: armor_result(roll + modifier, number, inp.test))


def indirect_vs_armor(inp: EptIndirectVsArmor, chance: Chance) -> str:
    """TIR ANTIPERSONNEL CONTRE BLINDES: 2d6 + modifiers against the number."""
    number, modifier, cell = armor_sheet(inp)
    roll = chance.roll(TWO_D6, "armor test (2d6)")
    total = roll + modifier
    outcome = armor_result(total, number, inp.test)
    chance.note(
        indirect_vs_armor_chart().title.split(" (")[0],
        f"{roll} {modifier:+} = {total} against {cell}: {outcome.replace('_', ' ')}",
    )
    return outcome


INDIRECT_VS_ARMOR_PROCEDURE: Procedure[EptIndirectVsArmor] = Procedure(
    name="indirect_vs_armor",
    title=(
        "Indirect fire against armor (TIR ANTIPERSONNEL CONTRE BLINDES; the translator: "
        "'should be Indirect Fire Against Armor?')"
    ),
    input_model=EptIndirectVsArmor,
    rule=indirect_vs_armor,
    modifiers=armor_modifiers,
    outcome_order=ARMOR_OUTCOMES,
    facts=armor_facts,
    meanings={
        "no_effect": "no effect",
        "immobilized": "the vehicle is immobilized",
        "destroyed": "the vehicle is destroyed",
    },
    exact_odds=indirect_vs_armor_odds,
)

PROCEDURES = (VEHICLE_AP_FIRE, INDIRECT_VS_ARMOR_PROCEDURE)
