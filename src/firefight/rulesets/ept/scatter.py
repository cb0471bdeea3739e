"""EPT EMPARPILLEMENT: 1d6 (+ modifiers: fire without correction, the observer's
distance) gives the distance of impact from the hex aimed at, 1d6 the direction.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import ClassVar, Literal

from pydantic import Field

from firefight.chance import D6, Chance
from firefight.chance.direct import by_total
from firefight.chance.distribution import Distribution
from firefight.core.inputs import RuleInput
from firefight.core.modifier import Modifier, ModifierKind
from firefight.errors import ChartError
from firefight.rulesets.ept.artillery_charts import (
    SCATTER_MODIFIERS,
    scatter_chart,
)
from firefight.rulesets.procedure import Procedure
from firefight.translation import gettext as _

# --- EMPARPILLEMENT ---------------------------------------------------------------------------

FireWithoutCorrection = Literal["first", "second", "third"]


_WITHOUT_CORRECTION = {"first": 0, "second": -1, "third": -2}


ScatterAbove7 = Literal["three_hexes", "extend"]


OutOfLosDistance = Literal["replaced", "cumulative"]


_DISTANCE_WORDS = {"in the hex": 0, "one hex": 1, "two hexes": 2, "three hexes": 3}
"""The chart's words for the distance of impact."""


MAX_SCATTER = 8
"""The farthest distance the ``extend`` reading can give (1d6 6, +2, +3, +6 for weather)."""


SCATTER_OUTCOMES = tuple(str(d) for d in range(MAX_SCATTER + 1))


SCATTER_MEANINGS = {
    **{str(d): words for words, d in _DISTANCE_WORDS.items()},
    **{str(d): f"{d} hexes (beyond the chart)" for d in range(4, MAX_SCATTER + 1)},
}


LOW_OBSERVER_DISTANCE = 10
"""'Distance of the OA: < than 10 hexes: -1'."""


OBSERVER_DISTANCE_BANDS = ((30, 2), (20, 1))
"""'> than 30 hexes: +2', '> than 20 hexes: +1': the farthest band that applies, not both."""


class EptScatter(RuleInput):
    """Where an artillery fire lands (EMPARPILLEMENT): distance of impact from the hex aimed at."""

    readings: ClassVar[frozenset[str]] = frozenset({"out_of_los_distance", "scatter_above_7"})
    """The fields that read the rules where they are silent (folded apart on the web)."""

    fire_without_correction: FireWithoutCorrection = Field(
        "first",
        description=(
            "Fires in a row on the same hex without correction: first (or a corrected fire) "
            "0, second -1, third -2 (later fires are not printed)."
        ),
    )
    observer_distance: int | None = Field(
        None,
        ge=1,
        le=99,
        description=(
            "Distance in hexes from the artillery observer (OA) to the hex aimed at: < 10 -1, "
            "> 20 +1, > 30 +2 (at most 99, an explicit cap: '> 30' is open). Omit it when "
            "there is no observer (+3)."
        ),
    )
    observer_out_of_los: bool = Field(
        False, description="The observer has no line of sight to the hex aimed at: +3."
    )
    out_of_los_distance: OutOfLosDistance = Field(
        "replaced",
        description=(
            "Reading for an observer out of LOS (the chart sheet groups it with 'no observer'): "
            "replaced = only the +3 applies; cumulative = +3 and the distance modifier."
        ),
    )
    weather: int = Field(
        0,
        ge=0,
        le=6,
        description=(
            "Weather: the dice modifier 'according to the visibility level' (the levels are "
            "not on the chart sheet; 0 in good visibility, the scenario's value otherwise)."
        ),
    )
    scatter_above_7: ScatterAbove7 = Field(
        "three_hexes",
        description=(
            "Reading of a modified die above 7 (the chart stops at 7): three_hexes = read as "
            "7, three hexes; extend = one more hex per two points (8 three, 9-10 four, ...), "
            "beyond the 0-3 hexes of ARTILLERIE/BOMBES."
        ),
    )


def observer_distance_modifier(distance: int) -> int:
    """'Distance of the OA': < 10 hexes -1, > 20 hexes +1, > 30 hexes +2, else 0."""
    if distance < LOW_OBSERVER_DISTANCE:
        return -1
    for beyond, value in OBSERVER_DISTANCE_BANDS:
        if distance > beyond:
            return value
    return 0


def scatter_modifiers(inp: EptScatter) -> list[Modifier]:
    """The modifiers to the distance die, in the chart's order."""
    found: list[Modifier] = []

    def add(value: int, label: str) -> None:
        found.append(Modifier(label, Fraction(value), ModifierKind.DICE, SCATTER_MODIFIERS))

    if inp.fire_without_correction != "first":
        add(
            _WITHOUT_CORRECTION[inp.fire_without_correction],
            f"{inp.fire_without_correction} fire without correction",
        )
    blind = inp.observer_distance is None or inp.observer_out_of_los
    distance_counts = inp.observer_distance is not None and (
        not inp.observer_out_of_los or inp.out_of_los_distance == "cumulative"
    )
    if distance_counts and inp.observer_distance is not None:
        value = observer_distance_modifier(inp.observer_distance)
        if value:
            add(value, f"observer at {inp.observer_distance} hexes")
    if blind:
        add(3, "no observer" if inp.observer_distance is None else "observer out of LOS")
    if inp.weather:
        add(inp.weather, "weather (visibility level)")
    return found


@lru_cache(maxsize=4096)
def scatter_dice_modifier(inp: EptScatter) -> int:
    """The sum of the modifiers to the distance die (once per input: exact odds re-run it)."""
    return int(sum(m.value for m in scatter_modifiers(inp)))


def _row_values(label: str) -> tuple[int, ...]:
    """A printed row of the scatter chart as its die values: ``"0,1,2"`` -> (0, 1, 2)."""
    if not re.fullmatch(r"\d+(,\d+)*", label):
        msg = _("chart 'scatter': row {label!r} is not a list of die values").format(label=label)
        raise ChartError(msg)
    return tuple(int(v) for v in label.split(","))


@dataclass(frozen=True, slots=True)
class ScatterReading:
    """The distance of impact read for a modified die, and how it was read."""

    distance: int
    text: str


@lru_cache(maxsize=256)
def read_scatter(modified: int, above_7: ScatterAbove7) -> ScatterReading:
    """The distance of impact for a modified die: below 0 reads the first row, above 7 by
    ``above_7``."""
    chart = scatter_chart()
    rows = [(label, _row_values(label)) for label in chart.rows.labels]
    lowest, highest = rows[0][1][0], rows[-1][1][-1]
    if modified > highest and above_7 == "extend":
        distance = (modified - 1) // 2
        return ScatterReading(distance, f"beyond the chart, extended: {distance} hexes")
    value = min(max(modified, lowest), highest)
    for label, values in rows:
        if value in values:
            cell = chart.cell_at(label, chart.columns.labels[0])
            shown = f"row {label}" + ("" if value == modified else f" (read as {value})")
            return ScatterReading(_DISTANCE_WORDS[cell.value], f"{shown} -> {cell.value}")
    msg = _("chart 'scatter': no row holds the die value {value}").format(value=value)
    raise ChartError(msg)


def roll_scatter(inp: EptScatter, chance: Chance) -> int:
    """Roll the distance of impact and, off the hex aimed at, its direction."""
    die = chance.roll(D6, "distance of impact (1d6)")
    modifier = scatter_dice_modifier(inp)
    reading = read_scatter(die + modifier, inp.scatter_above_7)
    chance.note(scatter_chart().title, f"{die} {modifier:+} = {die + modifier}: {reading.text}")
    if reading.distance > 0:
        chance.roll(D6, "direction (1d6)")
    return reading.distance


def scatter_distances(inp: EptScatter) -> Distribution[int]:
    """The exact odds of :func:`roll_scatter`'s distance from its own step: the distance die's
    faces, each read once (the direction die leaves the distance as it is, so its faces
    together weigh the distance's chance; the replay re-runs the rule under each)."""
    modifier = scatter_dice_modifier(inp)
    return by_total(D6, lambda die: read_scatter(die + modifier, inp.scatter_above_7).distance)


def scatter_odds(inp: EptScatter) -> Distribution[str]:
    """The exact odds of :func:`scatter`: :func:`scatter_distances`, each as its outcome."""
    return scatter_distances(inp).map(str)


def scatter_facts(inp: EptScatter) -> list[tuple[str, str]]:
    """The modifier to the distance die."""
    return [("distance die modifier", f"{scatter_dice_modifier(inp):+}")]


def scatter(inp: EptScatter, chance: Chance) -> str:
    """EMPARPILLEMENT: the distance of impact, in hexes from the hex aimed at (0 = in it)."""
    return str(roll_scatter(inp, chance))


SCATTER: Procedure[EptScatter] = Procedure(
    name="scatter",
    title="Scatter (EMPARPILLEMENT)",
    input_model=EptScatter,
    rule=scatter,
    modifiers=scatter_modifiers,
    outcome_order=SCATTER_OUTCOMES,
    facts=scatter_facts,
    meanings=SCATTER_MEANINGS,
    exact_odds=scatter_odds,
)
