"""EPT artillery (seed 000): DELAIS DE TIR D'ARTILLERIE, EMPARPILLEMENT, ARTILLERIE/BOMBES and
the effect of terrain on indirect fire.

* ``artillery_delay``: does a called fire arrive this turn? The value (base 7, German -1,
  pre-registered -1, -1 per additional turn) is a number to reach on the dice.
* ``scatter``: 1d6 (+ modifiers) gives the distance of impact from the hex aimed at, 1d6 the
  direction.
* ``indirect_fire``: a fire strength (a mortar's, or one read off ARTILLERIE/BOMBES) on the
  TABLE DE COMBAT under the indirect-fire terrain rule.
* ``artillery_mission``: the three chained on the hex aimed at: scatter, then the strength at
  that distance from the impact, then the Combat Table (or, for a smoke mission, the value of
  the Smoke marker).

The Combat Table and its column reading are fire combat's (:mod:`firefight.rulesets.ept.fire`).

Parts, their public names re-exported here: the charts
(:mod:`~firefight.rulesets.ept.artillery_charts`), the delay
(:mod:`~firefight.rulesets.ept.artillery_delay`), the scatter
(:mod:`~firefight.rulesets.ept.scatter`) and indirect fire
(:mod:`~firefight.rulesets.ept.indirect_fire`). This module keeps the mission
on a hex and the procedures.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from typing import ClassVar, Literal

from pydantic import Field, model_validator

from firefight.chance import Chance
from firefight.chance.direct import then
from firefight.chance.distribution import Distribution
from firefight.core.modifier import Modifier
from firefight.errors import ChartError
from firefight.i18n import gettext as _
from firefight.rulesets.ept import fire as fire_combat
from firefight.rulesets.ept.artillery_charts import (
    INDIRECT_TERRAIN,
    SCATTER_MODIFIERS,
    FactorRounding,
    delay_chart,
    impact_chart,
    scatter_chart,
)
from firefight.rulesets.ept.artillery_delay import (
    ARTILLERY_DELAY,
    DELAY_OUTCOMES,
    DelayTest,
    EptArtilleryDelay,
    artillery_delay,
    delay_facts,
    delay_modifiers,
    delay_value,
)
from firefight.rulesets.ept.fire import TargetMovement, combat_odds, combat_roll
from firefight.rulesets.ept.indirect_fire import (
    INDIRECT_FIRE,
    TARGET_MOVEMENT_HELP,
    TERRAIN_MODIFIERS_HELP,
    TERRAIN_MODIFIERS_MAX,
    CombatSheet,
    EptIndirectFire,
    combat_sheet,
    indirect_dice_modifiers,
    indirect_factor_modifiers,
    indirect_fire,
    indirect_fire_facts,
    indirect_fire_modifiers,
)
from firefight.rulesets.ept.scatter import (
    LOW_OBSERVER_DISTANCE,
    MAX_SCATTER,
    OBSERVER_DISTANCE_BANDS,
    SCATTER,
    SCATTER_MEANINGS,
    SCATTER_OUTCOMES,
    EptScatter,
    FireWithoutCorrection,
    OutOfLosDistance,
    ScatterAbove7,
    ScatterReading,
    observer_distance_modifier,
    read_scatter,
    roll_scatter,
    scatter,
    scatter_dice_modifier,
    scatter_distances,
    scatter_facts,
    scatter_modifiers,
)
from firefight.rulesets.procedure import Procedure

__all__ = [
    "ARTILLERY_DELAY",
    "ARTILLERY_MISSION",
    "DELAY_OUTCOMES",
    "IMPACT_ROWS",
    "INDIRECT_FIRE",
    "INDIRECT_TERRAIN",
    "LOW_OBSERVER_DISTANCE",
    "MAX_SCATTER",
    "MISSION_MEANINGS",
    "OBSERVER_DISTANCE_BANDS",
    "PROCEDURES",
    "SCATTER",
    "SCATTER_MEANINGS",
    "SCATTER_MODIFIERS",
    "SCATTER_OUTCOMES",
    "SMOKE_OUTCOMES",
    "TARGET_MOVEMENT_HELP",
    "TERRAIN_MODIFIERS_HELP",
    "TERRAIN_MODIFIERS_MAX",
    "ArtilleryType",
    "CombatSheet",
    "DelayTest",
    "EptArtilleryDelay",
    "EptArtilleryMission",
    "EptIndirectFire",
    "EptScatter",
    "FactorRounding",
    "FireWithoutCorrection",
    "Impact",
    "ImpactReading",
    "Mission",
    "OutOfLosDistance",
    "ScatterAbove7",
    "ScatterReading",
    "artillery_delay",
    "artillery_mission",
    "combat_roll",
    "combat_sheet",
    "delay_chart",
    "delay_facts",
    "delay_modifiers",
    "delay_value",
    "impact",
    "impact_chart",
    "indirect_dice_modifiers",
    "indirect_factor_modifiers",
    "indirect_fire",
    "indirect_fire_facts",
    "indirect_fire_modifiers",
    "mission_facts",
    "mission_modifiers",
    "observer_distance_modifier",
    "read_scatter",
    "roll_scatter",
    "scatter",
    "scatter_chart",
    "scatter_dice_modifier",
    "scatter_facts",
    "scatter_modifiers",
]


# --- Artillery mission on a hex ---------------------------------------------------------------

ArtilleryType = Literal["light", "medium", "heavy", "bomb"]
IMPACT_ROWS: dict[str, str] = {
    "light": "Light",
    "medium": "Medium",
    "heavy": "Heavy",
    "bomb": "Bomb",
}
Mission = Literal["fire", "smoke"]
SMOKE_OUTCOMES = ("no_smoke", "smoke_1", "smoke_2")
MISSION_MEANINGS = {
    "no_smoke": "no Smoke marker reaches the target hex",
    "smoke_1": "a Smoke marker of value 1 in the target hex",
    "smoke_2": "a Smoke marker of value 2 in the target hex",
}


@dataclass(frozen=True, slots=True)
class Impact:
    """A cell of ARTILLERIE/BOMBES: ``"12^2"`` is strength 12, Smoke marker 2; ``"-"`` none."""

    strength: int | None
    smoke: int | None

    @classmethod
    def parse(cls, cell: str) -> Impact:
        """Read a cell as printed."""
        if cell == "-":
            return cls(None, None)
        match = re.fullmatch(r"(?P<strength>\d+)(?:\^(?P<smoke>\d+))?", cell)
        if match is None:
            msg = _("chart 'artillery_impact': cell {cell!r} is not 'n', 'n^m' or '-'").format(
                cell=cell
            )
            raise ChartError(msg)
        smoke = match["smoke"]
        return cls(int(match["strength"]), int(smoke) if smoke is not None else None)


@dataclass(frozen=True, slots=True)
class ImpactReading:
    """The impact at a distance, and the chart cell (or its absence) as the trace shows it."""

    impact: Impact
    text: str


@cache
def impact(artillery: ArtilleryType, distance: int) -> ImpactReading:
    """The strength (and smoke value) at a distance of impact; beyond 3 hexes, no effect."""
    chart = impact_chart()
    if distance > len(chart.columns.labels) - 1:
        return ImpactReading(
            Impact(None, None), f"distance of impact {distance}: beyond the chart, no effect"
        )
    cell = chart.cell_at(IMPACT_ROWS[artillery], str(distance))
    return ImpactReading(
        Impact.parse(cell.value), f"{cell.row}, distance of impact {cell.column} -> {cell.value}"
    )


class EptArtilleryMission(EptScatter):
    """An artillery mission on a hex: scatter, strength at the distance from the impact, then
    the TABLE DE COMBAT with the indirect-fire terrain rule (or the Smoke marker)."""

    readings: ClassVar[frozenset[str]] = frozenset({"out_of_los_distance", "scatter_above_7"})
    """The fields that read the rules where they are silent (folded apart on the web)."""

    artillery: ArtilleryType = Field(
        description="Type of artillery or bomb (ARTILLERIE/BOMBES rows Light, Medium, Heavy, Bomb)."
    )
    mission: Mission = Field(
        "fire",
        description=(
            "fire = the impact attacks the target on the Combat Table; smoke = a smoke mission: "
            "the exponent is the value of the Smoke marker, and there is no attack (the chart "
            "sheet gives smoke missions only the marker)."
        ),
    )
    terrain_modifiers: int = Field(
        0, ge=0, le=TERRAIN_MODIFIERS_MAX, description=TERRAIN_MODIFIERS_HELP
    )
    target_movement: TargetMovement = Field("none", description=TARGET_MOVEMENT_HELP)

    @model_validator(mode="after")
    def _smoke_needs_a_smoke_value(self) -> EptArtilleryMission:
        if self.mission == "smoke" and self.artillery == "bomb":
            msg = _(
                "'artillery' must be one of light, medium, heavy for a smoke mission "
                "(ARTILLERIE/BOMBES prints no Smoke marker for bombs) (got 'bomb')"
            )
            raise ValueError(msg)
        return self


def mission_modifiers(inp: EptArtilleryMission) -> list[Modifier]:
    """The scatter modifiers, then (fire missions) the indirect-fire dice modifiers."""
    found = scatter_modifiers(inp)
    if inp.mission == "fire":
        found += indirect_dice_modifiers(inp.terrain_modifiers, inp.target_movement)
    return found


@lru_cache(maxsize=4096)
def _mission_dice_modifier(inp: EptArtilleryMission) -> int:
    return int(
        sum(m.value for m in indirect_dice_modifiers(inp.terrain_modifiers, inp.target_movement))
    )


def mission_facts(inp: EptArtilleryMission) -> list[tuple[str, str]]:
    """The scatter modifier, the strength by distance and the combat roll modifier."""
    chart = impact_chart()
    row = IMPACT_ROWS[inp.artillery]
    by_distance = ", ".join(
        f"{column}: {chart.cell_at(row, column).value}" for column in chart.columns.labels
    )
    facts = [
        *scatter_facts(inp),
        ("impact by distance", f"{row} {by_distance}"),
        ("target's distance from the impact", "the distance of impact (hex aimed at = target)"),
    ]
    if inp.mission == "fire":
        facts.append(("combat roll modifier", f"{_mission_dice_modifier(inp):+}"))
    else:
        facts.append(("smoke mission", "the exponent is the Smoke marker; no attack"))
    return facts


def _impact_effect(inp: EptArtilleryMission, found: Impact) -> str | CombatSheet:
    """What an impact does to the target: a smoke mission's marker or no effect (an outcome),
    else the Combat Table reading its strength is rolled on."""
    if inp.mission == "smoke":
        return "no_smoke" if found.smoke is None else f"smoke_{found.smoke}"
    if found.strength is None:
        return "-"
    return combat_sheet(found.strength, False, "down", _mission_dice_modifier(inp))


def artillery_mission(inp: EptArtilleryMission, chance: Chance) -> str:
    """Scatter, then the impact at the target's distance from it, then its effect."""
    distance = roll_scatter(inp, chance)
    reading = impact(inp.artillery, distance)
    chance.note(impact_chart().title, reading.text)
    effect = _impact_effect(inp, reading.impact)
    return effect if isinstance(effect, str) else combat_roll(effect, chance)


def _mission_outcomes(inp: EptArtilleryMission, distance: int) -> Distribution[str]:
    """What :func:`artillery_mission` gives once the scatter fell at ``distance``."""
    effect = _impact_effect(inp, impact(inp.artillery, distance).impact)
    return Distribution({effect: Fraction(1)}) if isinstance(effect, str) else combat_odds(effect)


def mission_odds(inp: EptArtilleryMission) -> Distribution[str]:
    """The exact odds of :func:`artillery_mission` from its own steps: the scatter's
    distances worked out once (:func:`scatter_distances`) and each distance's effect once
    (the replay rolls the combat dice again under every distance and direction die)."""
    return then(scatter_distances(inp), lambda distance: _mission_outcomes(inp, distance))


ARTILLERY_MISSION: Procedure[EptArtilleryMission] = Procedure(
    name="artillery_mission",
    title="Artillery mission on a hex (EMPARPILLEMENT, ARTILLERIE/BOMBES, TABLE DE COMBAT)",
    input_model=EptArtilleryMission,
    rule=artillery_mission,
    modifiers=mission_modifiers,
    chart="combat",
    outcome_order=fire_combat.CHART_CODES + SMOKE_OUTCOMES,
    facts=mission_facts,
    meanings=MISSION_MEANINGS,
    exact_odds=mission_odds,
)

PROCEDURES = (ARTILLERY_DELAY, SCATTER, INDIRECT_FIRE, ARTILLERY_MISSION)
