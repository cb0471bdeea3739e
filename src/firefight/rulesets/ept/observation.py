"""EPT observation: OBSERVATION (Day/other), seed 000.

A camouflaged unit with protection +1 / +2 / +3 loses its camouflage when observed from at
most 16 / 8 / 4 hexes by day, 8 / 4 / 2 at other times. "Observation doesn't apply to
infantry in normal movement. At more than the indicated distance, a unit doesn't lose its
camouflage."
"""

from __future__ import annotations

from functools import cache
from typing import ClassVar, Literal

from pydantic import Field

from firefight.chance import Chance
from firefight.core.chart import Chart, chart_file
from firefight.core.inputs import RuleInput
from firefight.core.modifier import Modifier
from firefight.rulesets.ept.paths import DATA
from firefight.rulesets.procedure import Procedure

PROTECTION_COLUMNS = {"light": "+1", "medium": "+2", "important": "+3"}
OUTCOMES = ("loses_camouflage", "keeps_camouflage")


@cache
def observation_table() -> Chart:
    """The OBSERVATION chart, loaded once from ``data/observation.toml``."""
    return chart_file(DATA / "observation.toml")


class EptObservation(RuleInput):
    """Does an observed, camouflaged unit lose its camouflage? (OBSERVATION, Day/other)."""

    readings: ClassVar[frozenset[str]] = frozenset(
        {"normal_movement_reading", "unprotected_reading"}
    )
    """The fields that read the rules where they are silent (folded apart on the web)."""

    protection: Literal["none", "light", "medium", "important"] = Field(
        description="Protection of the observed unit: light +1, medium +2, important +3.",
    )
    distance: int = Field(
        ge=1,
        le=99,
        description=(
            "Distance in hexes from the observer (at most 99, an explicit cap: beyond the "
            "chart's 16 hexes nothing changes)."
        ),
    )
    time: Literal["day", "other"] = Field(
        "day", description="Day, or other (the chart's second figure: night, poor visibility)."
    )
    infantry_in_normal_movement: bool = Field(
        False,
        description=(
            "The observed unit is infantry in normal movement ('observation doesn't apply')."
        ),
    )
    normal_movement_reading: Literal["observed_at_any_distance", "never_observed"] = Field(
        "observed_at_any_distance",
        description=(
            "Reading of 'Observation doesn't apply to infantry in normal movement' (ambiguous): "
            "observed_at_any_distance = the distance limit does not protect it; "
            "never_observed = it cannot lose its camouflage by observation."
        ),
    )
    unprotected_reading: Literal["observed_at_any_distance", "never_observed"] = Field(
        "observed_at_any_distance",
        description=(
            "The chart starts at protection +1; a unit with none is read as observed at any "
            "distance (it has nothing to hide in)."
        ),
    )


def observation_range(inp: EptObservation) -> int:
    """The distance within which a protected unit loses its camouflage."""
    cell = observation_table().cell_at("Distance", PROTECTION_COLUMNS[inp.protection]).value
    day, other = cell.split("/")
    return int(day if inp.time == "day" else other)


def observation(inp: EptObservation, chance: Chance) -> str:
    """``loses_camouflage`` or ``keeps_camouflage`` (no chance involved)."""
    if inp.infantry_in_normal_movement:
        reading = inp.normal_movement_reading
        chance.note("OBSERVATION", f"infantry in normal movement: {reading.replace('_', ' ')}")
        return OUTCOMES[0] if reading == "observed_at_any_distance" else OUTCOMES[1]
    if inp.protection == "none":
        reading = inp.unprotected_reading
        chance.note("OBSERVATION", f"no protection: {reading.replace('_', ' ')}")
        return OUTCOMES[0] if reading == "observed_at_any_distance" else OUTCOMES[1]
    limit = observation_range(inp)
    column = PROTECTION_COLUMNS[inp.protection]
    lost = inp.distance <= limit
    chance.note(
        observation_table().title,
        f"protection {column}, {inp.time}: {limit} hexes; at {inp.distance} "
        + ("loses its camouflage" if lost else "keeps its camouflage"),
    )
    return OUTCOMES[0] if lost else OUTCOMES[1]


def observation_facts(inp: EptObservation) -> list[tuple[str, str]]:
    """The distance limit read off the chart."""
    if inp.protection == "none" or inp.infantry_in_normal_movement:
        return [("observation distance", "the chart does not apply")]
    return [("observation distance", f"{observation_range(inp)} hexes ({inp.time})")]


def observation_modifiers(inp: EptObservation) -> list[Modifier]:
    """Observation has no modifiers: the chart is read directly."""
    return []


OBSERVATION: Procedure[EptObservation] = Procedure(
    name="observation",
    title="Observation: loss of camouflage (OBSERVATION, Day/other)",
    input_model=EptObservation,
    rule=observation,
    modifiers=observation_modifiers,
    chart="observation",
    outcome_order=OUTCOMES,
    facts=observation_facts,
    meanings={
        "loses_camouflage": "the unit loses its camouflage",
        "keeps_camouflage": "the unit keeps its camouflage",
    },
)

PROCEDURES = (OBSERVATION,)
