"""The target's defense: base, full cover, moving and the Infantry Fire Defense Modifiers.

Seed 004, the lines printed under the Defense/Firepower Table.

Defense = the base (the unit's inherent defense, "2"; troops riding on tanks use "2"), doubled
in full cover (FC), halved when moving (MV), plus every modifier printed under the
Defense/Firepower Table. Fire from a .50 calibre or larger machine gun halves every modifier
except those marked ``**`` (height); those marked ``*`` are not valid against indirect or
plummeting fire; ``***``: the crew of an open-top AFV is in full cover unless fired on from a
higher elevation. A fractional defense is rounded by ``defense_rounding``, once on the total
or on each halved part (``rounding_stage``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from typing import Literal

from pydantic import Field, model_validator

from firefight.core.chart import Chart, load_chart
from firefight.core.inputs import RuleInput
from firefight.core.modifier import Modifier, ModifierKind
from firefight.errors import RuleError
from firefight.i18n import gettext as _
from firefight.rulesets.percentile.paths import DATA

__all__ = [
    "BASE_RULE",
    "DEFENSE_MODIFIERS",
    "DefenseInput",
    "DefenseSheet",
    "chart_defense",
    "defense_modifiers",
    "defense_modifiers_chart",
    "defense_sheet",
    "printed_modifier",
    "round_defense",
]

DEFENSE_MODIFIERS = "Infantry Fire Defense Modifiers"
BASE_RULE = "Defense/Firepower Table: Base, Full Cover (FC), Moving (MV)"

Building = Literal["none", "wood", "stone"]
Height = Literal["level", "advantage", "disadvantage"]
FireType = Literal["direct", "heavy_mg", "indirect"]
Rounding = Literal["down", "nearest", "up"]


@cache
def defense_modifiers_chart() -> Chart:
    """The Infantry Fire Defense Modifiers as printed, loaded once from ``data/``."""
    return load_chart(DATA / "defense_modifiers.toml")


@cache
def printed_modifier(row: str) -> tuple[int, str]:
    """A printed modifier's value and footnote marks: ``"+2*"`` -> ``(2, "*")``."""
    printed = defense_modifiers_chart().cell_at(row, "value").value
    marks = printed[len(printed.rstrip("*")) :]
    return int(printed.rstrip("*")), marks


class DefenseInput(RuleInput):
    """The target's side of the Defense/Firepower Table: its base defense and its modifiers."""

    base_defense: int = Field(
        2,
        ge=1,
        le=10,
        description='The unit\'s inherent defense: Base = "2" (Defense/Firepower Table).',
    )
    full_cover: bool = Field(False, description="Full Cover (FC) = double base.")
    moving: bool = Field(False, description="The target is moving: Moving (MV) = 1/2 base.")
    riding_on_tank: bool = Field(
        False, description='Troops riding on tanks use a base defense of "2".'
    )
    woods: bool = Field(False, description="Woods +2* (* not valid for indirect fire).")
    building: Building = Field("none", description="Buildings: wood +2, stone +4.")
    rubble_walls: bool = Field(False, description="Rubble/Walls +1* (* not valid for indirect).")
    gun_shield: bool = Field(False, description="Gun Shield +2.")
    open_top_afv: bool = Field(
        False,
        description=(
            "Open Top AFV +3***: the crew of a vehicle so noted on its data sheet "
            "(*** full cover unless fired on from a higher elevation; see open_top_crew)."
        ),
    )
    afv_turret: bool = Field(False, description="AFV Turret +1.")
    through_smoke: bool = Field(False, description="Fire through smoke: Through Smoke +2.")
    elite: bool = Field(False, description="Elite Unit +1.")
    improved_positions: bool = Field(False, description="Improved Positions +5.")
    height: Height = Field(
        "level",
        description=(
            "The target's height against the firer: advantage (target higher) +1**, "
            "disadvantage (fired on from a higher elevation) -1** (** not halved by .50 cal MG)."
        ),
    )
    opportunity_fire: bool = Field(
        False, description="The target is fired on by opportunity fire: Opportunity Fire +2."
    )
    pillbox: bool = Field(False, description="Pillbox +8.")
    rough_ground: bool = Field(False, description="Rough Ground +1.")
    wreck: bool = Field(False, description="Wreck +1.")
    soft_vehicle: bool = Field(False, description="Soft Vehicle +1.")
    fire_type: FireType = Field(
        "direct",
        description=(
            "direct; heavy_mg = fire from a .50 caliber or larger machine gun (all modifiers "
            "halved, ** height not); indirect = indirect/plummeting fire (* modifiers not valid)."
        ),
    )
    defense_rounding: Rounding = Field(
        "down",
        description=(
            "Reading of a fractional defense after halving (the chart sheet is silent): down = "
            "drop "
            "the fraction; nearest = halves round up; up = next whole number."
        ),
    )
    rounding_stage: Literal["total", "each"] = Field(
        "total",
        description=(
            "When a halved value is rounded (the chart sheet is silent): total = once, on the "
            "summed "
            "defense; each = every halved base or modifier on its own."
        ),
    )
    heavy_mg_full_cover: Literal["kept", "halved"] = Field(
        "kept",
        description=(
            ".50 cal MG fire and full cover (ambiguous): kept = only the listed modifiers are "
            "halved; halved = the full-cover doubling counts as a modifier too (x2 -> x1 1/2)."
        ),
    )
    open_top_crew: Literal["full_cover", "modifier_only"] = Field(
        "full_cover",
        description=(
            "*** (ambiguous): full_cover = an open-top AFV's crew is also in full cover unless "
            "fired on from a higher elevation (height = disadvantage); modifier_only = +3 only."
        ),
    )
    riders_moving: Literal["not_halved", "halved"] = Field(
        "not_halved",
        description=(
            'Troops riding on a moving tank (ambiguous): not_halved = the base stays "2"; '
            "halved = Moving (MV) halves it as for any moving unit."
        ),
    )
    beyond_chart: Literal["clamp", "refuse"] = Field(
        "clamp",
        description=(
            "Defense above 10 or below 1, firepower above 10 (the chart sheet is silent): clamp = "
            "read "
            "the chart's last row or column; refuse = an error."
        ),
    )

    @model_validator(mode="after")
    def _riders_are_not_in_cover(self) -> DefenseInput:
        if self.riding_on_tank and (self.full_cover or self.open_top_afv):
            msg = _(
                "'riding_on_tank' cannot go with 'full_cover' or 'open_top_afv': troops riding "
                'on tanks use a base defense of "2" (got riding_on_tank=True)'
            )
            raise ValueError(msg)
        return self


def _crew_in_full_cover(target: DefenseInput) -> bool:
    """*** the crew of an open-top AFV is in full cover unless fired on from a higher elevation."""
    return (
        target.open_top_afv
        and target.open_top_crew == "full_cover"
        and target.height != "disadvantage"
    )


def base_modifiers(target: DefenseInput) -> list[Modifier]:
    """The multipliers of the base: full cover (x2) and moving (x1/2)."""
    found: list[Modifier] = []
    heavy_mg = target.fire_type == "heavy_mg"
    if target.full_cover or _crew_in_full_cover(target):
        label = "full cover (FC): double base"
        if not target.full_cover:
            label = "open-top AFV crew in full cover (***): double base"
        value = Fraction(2)
        if heavy_mg and target.heavy_mg_full_cover == "halved":
            label += ", halved by .50 cal MG fire"
            value = Fraction(3, 2)
        found.append(Modifier(label, value, ModifierKind.FACTOR, BASE_RULE))
    if target.moving:
        if target.riding_on_tank and target.riders_moving == "not_halved":
            return found
        found.append(
            Modifier("moving (MV): 1/2 base", Fraction(1, 2), ModifierKind.FACTOR, BASE_RULE)
        )
    return found


def _present(target: DefenseInput) -> list[str]:
    """The chart rows of every printed modifier that applies to the target."""
    building = {"wood": "Buildings: Wood", "stone": "Buildings: Stone"}
    height = {"advantage": "Height Advantage", "disadvantage": "Height Disadvantage"}
    cases: list[tuple[bool, str]] = [
        (target.woods, "Woods"),
        (target.building in building, building.get(target.building, "")),
        (target.rubble_walls, "Rubble/Walls"),
        (target.gun_shield, "Gun Shield"),
        (target.open_top_afv, "Open Top AFV"),
        (target.afv_turret, "AFV Turret"),
        (target.through_smoke, "Through Smoke"),
        (target.elite, "Elite Unit"),
        (target.improved_positions, "Improved Positions"),
        (target.height in height, height.get(target.height, "")),
        (target.opportunity_fire, "Opportunity Fire"),
        (target.pillbox, "Pillbox"),
        (target.rough_ground, "Rough Ground"),
        (target.wreck, "Wreck"),
        (target.soft_vehicle, "Soft Vehicle"),
    ]
    return [row for applies, row in cases if applies]


def defense_modifiers(target: DefenseInput) -> list[Modifier]:
    """The printed modifiers that apply, each with its footnotes applied, in the chart's order.

    A ``*`` modifier against indirect fire is listed at 0 so that the player sees why it is not
    counted; under .50 cal MG fire every modifier but ``**`` is halved (exactly: rounding comes
    once the defense is summed, see ``rounding_stage``).
    """
    found: list[Modifier] = []
    for row in _present(target):
        printed, marks = printed_modifier(row)
        value = Fraction(printed)
        shown = f"{row.lower()} ({printed:+d}{marks})"
        if marks == "*" and target.fire_type == "indirect":
            value = Fraction(0)
            shown += ", not valid for indirect fire"
        elif marks != "**" and target.fire_type == "heavy_mg":
            value /= 2
            shown += ", halved by .50 cal MG fire"
        found.append(Modifier(shown, value, ModifierKind.VALUE, f"{DEFENSE_MODIFIERS}: {row}"))
    return found


def round_defense(value: Fraction, rounding: Rounding) -> int:
    """A fractional defense read by ``defense_rounding``."""
    if rounding == "up":
        return math.ceil(value)
    if rounding == "nearest":
        return math.floor(value + Fraction(1, 2))
    return math.floor(value)


@dataclass(frozen=True, slots=True)
class DefenseSheet:
    """The target's defense worked out: base, exact total, rounded total and the row read."""

    base: int
    exact: Fraction
    defense: int
    row: int


def chart_defense(defense: int, beyond_chart: str) -> int:
    """The Defense/Firepower Table row for a defense: 1..10, beyond it by ``beyond_chart``."""
    if 1 <= defense <= 10:
        return defense
    if beyond_chart == "refuse":
        msg = (
            _(
                "defense {defense} is above 10, beyond the Defense/Firepower Table's rows 1-10 "
                "(beyond_chart=refuse; clamp reads the nearest row)"
            )
            if defense > 10
            else _(
                "defense {defense} is below 1, beyond the Defense/Firepower Table's rows 1-10 "
                "(beyond_chart=refuse; clamp reads the nearest row)"
            )
        ).format(defense=defense)
        raise RuleError(msg)
    return min(max(defense, 1), 10)


@lru_cache(maxsize=4096)
def defense_sheet(target: DefenseInput) -> DefenseSheet:
    """The target's defense, once per input (exact odds re-run the rule for every roll)."""
    base = 2 if target.riding_on_tank else target.base_defense
    base_part = Fraction(base)
    for modifier in base_modifiers(target):
        base_part *= modifier.value
    values = [m.value for m in defense_modifiers(target)]
    exact = base_part + sum(values, Fraction(0))
    if target.rounding_stage == "each":
        defense = round_defense(base_part, target.defense_rounding) + sum(
            round_defense(v, target.defense_rounding) for v in values
        )
    else:
        defense = round_defense(exact, target.defense_rounding)
    return DefenseSheet(base, exact, defense, chart_defense(defense, target.beyond_chart))


def defense_facts(target: DefenseInput) -> list[tuple[str, str]]:
    """The base and the defense, as a player checks them."""
    sheet = defense_sheet(target)
    base = f"{sheet.base}" + (" (troops riding on tanks)" if target.riding_on_tank else "")
    exact = f"{sheet.exact}" + (
        f" (read as {sheet.defense})"
        if sheet.exact.denominator != 1 or sheet.exact != sheet.defense
        else ""
    )
    row = f"{sheet.row}" if sheet.row == sheet.defense else f"{sheet.row} (defense {sheet.defense})"
    return [("base defense", base), ("defense", exact), ("Defense/Firepower Table row", row)]
