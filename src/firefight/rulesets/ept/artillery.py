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
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from typing import ClassVar, Literal

from pydantic import Field, model_validator

from firefight.chance import D6, TWO_D6, Chance, Dice
from firefight.core.chart import Chart, load_chart
from firefight.core.inputs import RuleInput
from firefight.core.modifier import Modifier, ModifierKind
from firefight.errors import ChartError
from firefight.i18n import gettext as _
from firefight.rulesets.ept import fire as fire_combat
from firefight.rulesets.ept.fire import DATA, EptFire, TargetMovement, combat_table
from firefight.rulesets.procedure import Procedure

INDIRECT_TERRAIN = "ARTILLERIE/BOMBES: effect of terrain on indirect fire"
SCATTER_MODIFIERS = "EMPARPILLEMENT: modifiers to dice for distance"

FactorRounding = Literal["down", "nearest", "up"]


@cache
def delay_chart() -> Chart:
    """DELAIS DE TIR D'ARTILLERIE, loaded once from ``data/artillery_delay.toml``."""
    return load_chart(DATA / "artillery_delay.toml")


@cache
def impact_chart() -> Chart:
    """ARTILLERIE/BOMBES, loaded once from ``data/artillery_impact.toml``."""
    return load_chart(DATA / "artillery_impact.toml")


@cache
def scatter_chart() -> Chart:
    """EMPARPILLEMENT, loaded once from ``data/scatter.toml``."""
    return load_chart(DATA / "scatter.toml")


def _value(chart: Chart, row_label: str) -> int:
    """The one number a single-column chart prints on a row (``"-1"`` -> -1)."""
    cell = chart.cell_at(row_label, chart.columns.labels[0]).value
    try:
        return int(cell)
    except ValueError:
        msg = f"chart {chart.id!r}: row {row_label!r} prints {cell!r}, not a number"
        raise ChartError(msg) from None


# --- DELAIS DE TIR D'ARTILLERIE ---------------------------------------------------------------

DelayTest = Literal["2d6_at_least", "1d6_at_least"]
_DELAY_DICE: dict[str, Dice] = {"2d6_at_least": TWO_D6, "1d6_at_least": D6}
DELAY_OUTCOMES = ("arrives", "delayed")


class EptArtilleryDelay(RuleInput):
    """Does a called artillery fire arrive this turn? (DELAIS DE TIR D'ARTILLERIE, VV 32)."""

    readings: ClassVar[frozenset[str]] = frozenset({"delay_test"})
    """The fields that read the rules where they are silent (folded apart on the web)."""

    german: bool = Field(False, description="The artillery is German: -1 to the value.")
    pre_registered: bool = Field(False, description="Pre-registered bombardment: -1 to the value.")
    additional_turns: int = Field(
        0,
        ge=0,
        le=6,
        description=(
            "Turns the fire has already waited since it was called (0 on the turn it is "
            "called): -1 to the value per additional turn. At most 6: by then the value is "
            "at most 1 and the fire has arrived on any test, so no later turn is waited."
        ),
    )
    delay_test: DelayTest = Field(
        "2d6_at_least",
        description=(
            "What is rolled against the value (the chart sheet does not say; off-map artillery is "
            "tested at the initiative draw, docs/sources.md): 2d6_at_least = the fire arrives on "
            "2d6 >= the value (the sheet's tests are 2d6); 1d6_at_least = on 1d6 >= the value (an "
            "unmodified value of 7 never arrives on the turn it is called). Either way a lower "
            "value, as every printed modifier gives, makes the fire arrive sooner."
        ),
    )


def delay_value(inp: EptArtilleryDelay) -> int:
    """The value to reach: base value 7 plus the printed modifiers that apply."""
    chart = delay_chart()
    return (
        _value(chart, "Artillery: base value")
        + (_value(chart, "German") if inp.german else 0)
        + (_value(chart, "Pre-registered bombardment") if inp.pre_registered else 0)
        + _value(chart, "Per additional turn") * inp.additional_turns
    )


def delay_modifiers(inp: EptArtilleryDelay) -> list[Modifier]:
    """Each printed modifier to the value, itemized as its effect on the dice.

    The roll must reach the value, so a modifier of -1 to the value is +1 to the dice; the
    label keeps the value as printed.
    """
    chart = delay_chart()
    rule = chart.title
    cases = [
        (inp.german, "German", "German", 1),
        (inp.pre_registered, "Pre-registered bombardment", "pre-registered bombardment", 1),
        (
            inp.additional_turns > 0,
            "Per additional turn",
            f"{inp.additional_turns} additional turn{'s' if inp.additional_turns > 1 else ''}",
            inp.additional_turns,
        ),
    ]
    found = []
    for applies, row, label, times in cases:
        if applies:
            printed = _value(chart, row)
            value = printed * times
            found.append(
                Modifier(
                    f"{label} (value {value:+d}, i.e. {-value:+d} to the dice)",
                    Fraction(-value),
                    ModifierKind.DICE,
                    rule,
                )
            )
    return found


def delay_facts(inp: EptArtilleryDelay) -> list[tuple[str, str]]:
    """The value and the roll that makes the fire arrive."""
    value = delay_value(inp)
    dice = _DELAY_DICE[inp.delay_test]
    return [
        ("delay value", str(value)),
        ("the fire arrives on", f"{dice.name} >= {value}"),
    ]


def artillery_delay(inp: EptArtilleryDelay, chance: Chance) -> str:
    """DELAIS DE TIR D'ARTILLERIE: roll against the value; reaching it, the fire arrives."""
    value = delay_value(inp)
    dice = _DELAY_DICE[inp.delay_test]
    roll = chance.roll(dice, f"delay test ({dice.name})")
    arrives = roll >= value
    chance.note(
        delay_chart().title,
        f"{roll} {'>=' if arrives else '<'} value {value}: "
        f"{'the fire arrives' if arrives else 'the fire is delayed'}",
    )
    return "arrives" if arrives else "delayed"


ARTILLERY_DELAY: Procedure[EptArtilleryDelay] = Procedure(
    name="artillery_delay",
    title="Delay of artillery fire (DELAIS DE TIR D’ARTILLERIE)",
    input_model=EptArtilleryDelay,
    rule=artillery_delay,
    modifiers=delay_modifiers,
    outcome_order=DELAY_OUTCOMES,
    facts=delay_facts,
    meanings={
        "arrives": "the fire arrives this turn",
        "delayed": "the fire does not arrive this turn (next turn: -1 to the value)",
    },
)


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
        msg = f"chart 'scatter': row {label!r} is not a list of die values"
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
    msg = f"chart 'scatter': no row holds the die value {value}"
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
)


# --- Effect of terrain on indirect fire ------------------------------------------------------


TERRAIN_MODIFIERS_HELP = (
    "Sum of the modifiers of terrain in the target hex (TABLE DES TERRAINS protection: e.g. "
    "forest +2, stone building +3): the dice get this sum -1, minimum 0. At most 15: from "
    "there every roll reads the Combat Table's last row (15+)."
)
TERRAIN_MODIFIERS_MAX = 15
"""2d6 (2 at least) + 15 - 1 - 1 (a moving target) = 15: the last row, 15+, on every roll."""
TARGET_MOVEMENT_HELP = (
    "Target movement: normal or force_march -1 to the dice; tactical 0 (the modifiers normal "
    "to movement do not apply to indirect fire)."
)


class EptIndirectFire(RuleInput):
    """Indirect fire on a unit with a given strength (effect of terrain on indirect fire)."""

    readings: ClassVar[frozenset[str]] = frozenset({"factor_rounding"})
    """The fields that read the rules where they are silent (folded apart on the web)."""

    strength: int = Field(
        ge=1,
        le=99,
        description=(
            "Fire strength: a mortar's (or a mortar fire group's) strength, or an impact "
            "strength read off ARTILLERIE/BOMBES (16 at most); at most 99, an explicit cap."
        ),
    )
    mortar: bool = Field(
        False, description="The fire is a mortar's: a hidden target halves the strength."
    )
    target_hidden: bool = Field(
        False, description="The target unit is hidden: strength x 1/2 (mortars only)."
    )
    terrain_modifiers: int = Field(
        0, ge=0, le=TERRAIN_MODIFIERS_MAX, description=TERRAIN_MODIFIERS_HELP
    )
    target_movement: TargetMovement = Field("none", description=TARGET_MOVEMENT_HELP)
    factor_rounding: FactorRounding = Field(
        "down",
        description=(
            "Reading of a halved strength, as for fire combat (the chart sheet is silent): down = "
            "the highest column not above it; nearest = halves round up; up = next number."
        ),
    )


def indirect_factor_modifiers(mortar: bool, target_hidden: bool) -> list[Modifier]:
    """'unit hidden: strength x 1/2 (mortars only)'."""
    if mortar and target_hidden:
        return [
            Modifier("unit hidden (mortar)", Fraction(1, 2), ModifierKind.FACTOR, INDIRECT_TERRAIN)
        ]
    return []


def indirect_dice_modifiers(terrain_modifiers: int, movement: str) -> list[Modifier]:
    """The terrain sum -1 (minimum 0), and -1 for a unit in normal movement or force march."""
    found = []
    if terrain_modifiers:
        found.append(
            Modifier(
                f"terrain in the target hex +{terrain_modifiers}, -1 (minimum 0)",
                Fraction(max(terrain_modifiers - 1, 0)),
                ModifierKind.DICE,
                INDIRECT_TERRAIN,
            )
        )
    if movement in {"normal", "force_march"}:
        found.append(
            Modifier(
                f"unit in {movement.replace('_', ' ')}"
                + (" movement" if movement == "normal" else ""),
                Fraction(-1),
                ModifierKind.DICE,
                INDIRECT_TERRAIN,
            )
        )
    return found


def indirect_fire_modifiers(inp: EptIndirectFire) -> list[Modifier]:
    """Every modifier of an indirect fire: the halving first, then the dice modifiers."""
    return indirect_factor_modifiers(inp.mortar, inp.target_hidden) + indirect_dice_modifiers(
        inp.terrain_modifiers, inp.target_movement
    )


@dataclass(frozen=True, slots=True)
class CombatSheet:
    """An indirect fire's Combat Table reading before the dice: the fire module's column."""

    factor: int
    column: str
    dice_modifier: int
    exact_factor: Fraction


@lru_cache(maxsize=4096)
def combat_sheet(
    strength: int, halved: bool, rounding: FactorRounding, dice_modifier: int
) -> CombatSheet:
    """The factor and column of fire combat (:mod:`~firefight.rulesets.ept.fire`) for a
    strength, halved or not: the highest printed column not above the factor."""
    attack = EptFire(strength=strength, target_hidden=halved, factor_rounding=rounding)
    return CombatSheet(
        fire_combat.final_attack_factor(attack),
        fire_combat.combat_column(attack),
        dice_modifier,
        fire_combat.exact_factor(attack),
    )


def _sheet(inp: EptIndirectFire) -> CombatSheet:
    dice = int(
        sum(m.value for m in indirect_dice_modifiers(inp.terrain_modifiers, inp.target_movement))
    )
    return combat_sheet(inp.strength, inp.mortar and inp.target_hidden, inp.factor_rounding, dice)


def combat_roll(sheet: CombatSheet, chance: Chance) -> str:
    """2d6 + the dice modifier on the TABLE DE COMBAT at the sheet's factor."""
    roll = chance.roll(TWO_D6, "combat roll (2d6)")
    table = combat_table()
    cell = table.lookup(roll + sheet.dice_modifier, sheet.factor)
    chance.note(
        table.title,
        f"{roll} {sheet.dice_modifier:+} = {roll + sheet.dice_modifier}: "
        f"row {cell.row}, column {cell.column} -> {cell.value}",
    )
    return cell.value


def _hidden_fact(mortar: bool, target_hidden: bool) -> list[tuple[str, str]]:
    if target_hidden and not mortar:
        return [("unit hidden", "no effect (mortars only)")]
    return []


def indirect_fire_facts(inp: EptIndirectFire) -> list[tuple[str, str]]:
    """Factor, column and dice modifier, as for fire combat."""
    sheet = _sheet(inp)
    exact = sheet.exact_factor
    return [
        *_hidden_fact(inp.mortar, inp.target_hidden),
        (
            "final attack factor",
            f"{inp.strength} -> {exact}"
            + (f" (read as {sheet.factor})" if exact.denominator != 1 else ""),
        ),
        ("Combat Table column", sheet.column),
        ("dice modifier", f"{sheet.dice_modifier:+}"),
    ]


def indirect_fire(inp: EptIndirectFire, chance: Chance) -> str:
    """Indirect fire on the TABLE DE COMBAT with the indirect-fire terrain rule."""
    return combat_roll(_sheet(inp), chance)


INDIRECT_FIRE: Procedure[EptIndirectFire] = Procedure(
    name="indirect_fire",
    title="Indirect fire on a unit (effect of terrain on indirect fire, TABLE DE COMBAT)",
    input_model=EptIndirectFire,
    rule=indirect_fire,
    modifiers=indirect_fire_modifiers,
    chart="combat",
    outcome_order=fire_combat.CHART_CODES,
    facts=indirect_fire_facts,
)


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
            msg = f"chart 'artillery_impact': cell {cell!r} is not 'n', 'n^m' or '-'"
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


def artillery_mission(inp: EptArtilleryMission, chance: Chance) -> str:
    """Scatter, then the impact at the target's distance from it, then its effect."""
    distance = roll_scatter(inp, chance)
    reading = impact(inp.artillery, distance)
    chance.note(impact_chart().title, reading.text)
    found = reading.impact
    if inp.mission == "smoke":
        return "no_smoke" if found.smoke is None else f"smoke_{found.smoke}"
    if found.strength is None:
        return "-"
    sheet = combat_sheet(found.strength, False, "down", _mission_dice_modifier(inp))
    return combat_roll(sheet, chance)


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
)

PROCEDURES = (ARTILLERY_DELAY, SCATTER, INDIRECT_FIRE, ARTILLERY_MISSION)
