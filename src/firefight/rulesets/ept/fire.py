"""EPT fire combat: MODIFICATEURS DE TIR and the TABLE DE COMBAT (seed 000).

Final attack factor = fire strength x the factor modifiers (x2 against an adjacent hex, x1/2
for each halving case, cumulative). 2d6 plus the dice modifiers (target movement, a gun fired
on from its front, terrain protection, smoke, visual hindrance at most +3) gives the row,
clamped to 0..15+; the column is the highest printed one not above the factor.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from typing import ClassVar, Literal, Protocol

from pydantic import Field, model_validator

from firefight.chance import TWO_D6, Chance
from firefight.chance.direct import by_total
from firefight.chance.distribution import Distribution
from firefight.core.chart import Cell, Chart, chart_file
from firefight.core.inputs import RuleInput
from firefight.core.modifier import Modifier, ModifierKind
from firefight.errors import RuleError
from firefight.i18n import gettext as _
from firefight.rulesets.ept.paths import DATA
from firefight.rulesets.ept.terrain import (
    TERRAIN_TABLE,
    HindranceBlocking,
    hindrance_blocks_los,
    hindrance_dice_modifier,
)
from firefight.rulesets.procedure import Procedure

FIRE_MODIFIERS = "MODIFICATEURS DE TIR"

__all__ = [
    "CHART_CODES",
    "DATA",
    "FIRE",
    "MORALE_OUTCOMES",
    "PROCEDURES",
    "CombatReading",
    "EptFire",
    "combat_cell",
    "combat_column",
    "combat_odds",
    "combat_roll",
    "combat_table",
    "dice_modifier",
    "dice_modifiers",
    "exact_factor",
    "factor_modifiers",
    "final_attack_factor",
    "fire",
    "fire_sheet",
    "modifiers",
]

CHART_CODES = ("-", "S", "S1", "S2", "N", "N1", "N2", "N3", "1", "E")
"""The Combat Table's results, from no effect to eliminated (the chart's own order)."""
MORALE_OUTCOMES = ("no_effect", "stopped", "neutralized", "step_lost_neutralized", "eliminated")
"""Outcomes once the stoppage / neutralization tests are taken (``follow_up = morale_test``)."""

Range = Literal["adjacent", "normal", "long"]
TargetMovement = Literal["none", "tactical", "normal", "force_march"]
Protection = Literal["none", "light", "medium", "important"]

_TARGET_MOVEMENT = {"none": 0, "tactical": -1, "normal": -2, "force_march": -3}
_PROTECTION = {"none": 0, "light": 1, "medium": 2, "important": 3}


@cache
def combat_table() -> Chart:
    """The TABLE DE COMBAT, loaded once from ``data/combat.toml``."""
    return chart_file(DATA / "combat.toml")


class EptFire(RuleInput):
    """A fire attack against infantry or soft targets (MODIFICATEURS DE TIR, TABLE DE COMBAT)."""

    readings: ClassVar[frozenset[str]] = frozenset(
        {"factor_rounding", "hindrance_blocking", "test_digit", "passed_neutralization"}
    )
    """The fields that read the rules where they are silent (folded apart on the web)."""

    strength: int = Field(
        ge=1,
        le=99,
        description=(
            "Fire strength (Puissance) of the firing unit, from its counter; at most 99, an "
            "explicit cap far above any counter (the Combat Table's columns stop at 40)."
        ),
    )
    range: Range = Field(
        "normal",
        description=(
            "Distance to the target: adjacent (x2), normal = within normal range, "
            "long = beyond normal range up to double it (x1/2). MODIFICATEURS DE TIR: Distance."
        ),
    )
    moved_and_fired: bool = Field(False, description="The firer moved and fired: x1/2.")
    firer_stopped: bool = Field(False, description="The firer is stopped: x1/2.")
    firer_in_smoke: bool = Field(False, description="The firer is in smoke: x1/2.")
    target_hidden: bool = Field(False, description="The target is hidden: x1/2.")
    target_movement: TargetMovement = Field(
        "none",
        description="Target movement: tactical -1, normal -2, force_march -3 to the dice.",
    )
    gun_fired_on_from_front: bool = Field(
        False,
        description="The target is an AT or infantry gun taking fire from its front: +1 (18.3).",
    )
    protection: Protection = Field(
        "none",
        description="Terrain protection of the target: light +1, medium +2, important +3.",
    )
    target_in_smoke: bool = Field(False, description="The target is in smoke: +1 to the dice.")
    hindrance_hexes: int = Field(
        0,
        ge=0,
        le=99,
        description=(
            "Visual hindrance hexes traversed by the line of fire: +1 each (max. +3); 0 at "
            "range adjacent (no hex between); at most 99, the cap on distances (a line crosses "
            "fewer hexes than its length)."
        ),
    )
    factor_rounding: Literal["down", "nearest", "up"] = Field(
        "down",
        description=(
            "Reading of a fractional final attack factor (the chart sheet is silent): down = the "
            "highest column not above it; nearest = halves round up; up = next whole number."
        ),
    )
    hindrance_blocking: HindranceBlocking = Field(
        "above_3",
        description=(
            "When visual hindrance blocks the line of sight: above_3 = a sum above +3 (the "
            "Terrain Table's note); from_3 = 3 points block (the later EPT rules)."
        ),
    )
    follow_up: Literal["chart", "morale_test"] = Field(
        "chart",
        description=(
            "chart = the odds of the Combat Table result; morale_test = carry S and N results "
            "through the stoppage / neutralization tests against the target's morale."
        ),
    )
    morale: int | None = Field(
        None,
        ge=1,
        le=12,
        description=(
            "Target's morale (Moral), for follow_up = morale_test: 2d6 (+ digit) <= morale passes."
        ),
    )
    test_digit: Literal["adds_to_roll", "ignored"] = Field(
        "adds_to_roll",
        description=(
            "Reading of the digit in S1/S2/N1..N3 (not on the chart sheet): adds_to_roll = added "
            "to "
            "the test's 2d6; ignored = every S or N test is the same."
        ),
    )
    passed_neutralization: Literal["no_effect", "stopped"] = Field(
        "no_effect",
        description="What a passed neutralization test leaves (not on the chart sheet).",
    )

    @model_validator(mode="after")
    def _morale_for_tests(self) -> EptFire:
        if self.follow_up == "morale_test" and self.morale is None:
            msg = _("'morale' must be given when 'follow_up' is morale_test (got None)")
            raise ValueError(msg)
        return self

    @model_validator(mode="after")
    def _no_hindrance_between_adjacent_hexes(self) -> EptFire:
        if self.range == "adjacent" and self.hindrance_hexes:
            msg = _(
                "'hindrance_hexes' must be 0 when 'range' is adjacent: no hex lies between "
                "adjacent hexes (got {hexes})"
            ).format(hexes=self.hindrance_hexes)
            raise ValueError(msg)
        return self


def check_hindrance_within(hindrance_hexes: int, distance: int) -> None:
    """Visual hindrance is counted "per hex traversed" (MODIFICATEURS DE TIR: terrain) and a
    line of fire ``distance`` hexes long traverses ``distance - 1`` hexes between its ends
    (docs/boards.md: not the firer's or the target's hex): more hindrance hexes than that is an
    error naming both fields (``ValueError``, worded as a model's rule)."""
    if hindrance_hexes > distance - 1:
        msg = _(
            "'hindrance_hexes' must be at most {most} when 'distance' is {distance}: the hexes "
            "between firer and target (got {hexes})"
        ).format(most=distance - 1, distance=distance, hexes=hindrance_hexes)
        raise ValueError(msg)


_HALF, _TWO = Fraction(1, 2), Fraction(2)


def factor_modifiers(attack: EptFire) -> list[Modifier]:
    """The multipliers of the fire strength, in the chart's order."""
    half = _HALF
    cases: list[tuple[bool, str, Fraction]] = [
        (attack.range == "adjacent", "against adjacent hex", _TWO),
        (attack.range == "long", "beyond normal range, up to double", half),
        (attack.moved_and_fired, "moving + fire", half),
        (attack.firer_stopped, "firer stopped", half),
        (attack.firer_in_smoke, "firer in smoke", half),
        (attack.target_hidden, "target hidden", half),
    ]
    return [
        Modifier(label, value, ModifierKind.FACTOR, f"{FIRE_MODIFIERS}: fire strength")
        for applies, label, value in cases
        if applies
    ]


def dice_modifiers(attack: EptFire) -> list[Modifier]:
    """The modifiers to the combat roll, in the chart's order."""
    target_rule = f"{FIRE_MODIFIERS}: target"
    terrain_rule = f"{FIRE_MODIFIERS}: terrain"
    found: list[Modifier] = []

    def add(value: int, label: str, rule: str) -> None:
        if value:
            found.append(Modifier(label, Fraction(value), ModifierKind.DICE, rule))

    add(
        _TARGET_MOVEMENT[attack.target_movement],
        f"target in {attack.target_movement.replace('_', ' ')}"
        f"{'' if attack.target_movement == 'force_march' else ' movement'}",
        target_rule,
    )
    add(
        +1 if attack.gun_fired_on_from_front else 0,
        "AT or inf. gun fired on from its front",
        f"{target_rule} (18.3)",
    )
    add(_PROTECTION[attack.protection], f"{attack.protection} protection", terrain_rule)
    add(+1 if attack.target_in_smoke else 0, "target in smoke", terrain_rule)
    hindrance = hindrance_dice_modifier(attack.hindrance_hexes)
    add(hindrance, f"visual hindrance ({attack.hindrance_hexes} hex, max. +3)", terrain_rule)
    return found


def modifiers(attack: EptFire) -> list[Modifier]:
    """Every modifier of the attack: factor multipliers first, then dice modifiers. A line of
    sight that visual hindrance blocks is refused here as the attack is (TABLE DES TERRAINS):
    no +3 is listed for a fire that cannot be made."""
    check_line_of_sight(attack)
    return factor_modifiers(attack) + dice_modifiers(attack)


@lru_cache(maxsize=4096)
def exact_factor(attack: EptFire) -> Fraction:
    """Fire strength times every factor modifier, before any rounding (kept per attack: the
    column, the facts and the cannot-attack check all read it)."""
    factor = Fraction(attack.strength)
    for modifier in factor_modifiers(attack):
        factor *= modifier.value
    return factor


def final_attack_factor(attack: EptFire) -> int:
    """The final attack factor, read by ``factor_rounding``."""
    factor = exact_factor(attack)
    if attack.factor_rounding == "up":
        return math.ceil(factor)
    if attack.factor_rounding == "nearest":
        return math.floor(factor + Fraction(1, 2))
    return math.floor(factor)


@lru_cache(maxsize=4096)
def dice_modifier(attack: EptFire) -> int:
    """The sum of the dice modifiers (kept per attack, as :func:`exact_factor` is)."""
    return int(sum(m.value for m in dice_modifiers(attack)))


def check_line_of_sight(attack: EptFire) -> None:
    """Visual hindrance above the limit blocks the line of sight (TABLE DES TERRAINS note)."""
    if hindrance_blocks_los(attack.hindrance_hexes, attack.hindrance_blocking):
        msg = _(
            "no line of sight: {hexes} visual hindrance hexes sum to +{hexes}, which blocks it "
            "({chart}; hindrance_blocking={reading})"
        ).format(
            hexes=attack.hindrance_hexes, chart=TERRAIN_TABLE, reading=attack.hindrance_blocking
        )
        raise RuleError(msg)


def combat_column(attack: EptFire) -> str:
    """The Combat Table column for the attack; a factor below 1 cannot attack."""
    factor = final_attack_factor(attack)
    table = combat_table()
    if factor < 1:
        msg = _(
            "final attack factor {exact} reads {factor}, below the {chart}'s lowest column, 1: "
            "this unit cannot attack"
        ).format(exact=exact_factor(attack), factor=factor, chart=table.title)
        raise RuleError(msg)
    return table.columns.labels[table.columns.index(factor)]


def facts(attack: EptFire) -> list[tuple[str, str]]:
    """The derived values a player checks: factor, column and dice modifier (none where the
    line of sight is blocked: the attack cannot be made)."""
    check_line_of_sight(attack)
    exact = exact_factor(attack)
    return [
        (
            "final attack factor",
            f"{attack.strength} -> {exact}"
            + (f" (read as {final_attack_factor(attack)})" if exact.denominator != 1 else ""),
        ),
        ("Combat Table column", combat_column(attack)),
        ("dice modifier", f"{dice_modifier(attack):+}"),
    ]


def _test(code: str, attack: EptFire, chance: Chance) -> str:
    """The stoppage (S) or neutralization (N) test: 2d6 (+ the digit) <= morale passes."""
    stoppage = code.startswith("S")
    name = "stoppage test" if stoppage else "neutralization test"
    digit = int(code[1:]) if len(code) > 1 and attack.test_digit == "adds_to_roll" else 0
    morale = attack.morale if attack.morale is not None else 0
    passed = chance.check(TWO_D6, lambda roll: roll + digit <= morale, f"{name} (2d6)")
    chance.note(
        name,
        f"2d6 + {digit} {'<=' if passed else '>'} morale {morale}: "
        f"{'passed' if passed else 'failed'}",
    )
    if stoppage:
        return "no_effect" if passed else "stopped"
    return attack.passed_neutralization if passed else "neutralized"


_FINAL = {"-": "no_effect", "1": "step_lost_neutralized", "E": "eliminated"}


@dataclass(frozen=True, slots=True)
class FireSheet:
    """What an attack brings to the Combat Table before the dice are rolled."""

    factor: int
    column: str
    dice_modifier: int


@lru_cache(maxsize=4096)
def fire_sheet(attack: EptFire) -> FireSheet:
    """Check the line of sight, then work out the column and the dice modifier (once per attack:
    exact odds re-run the rule for every branch of the dice)."""
    check_line_of_sight(attack)
    return FireSheet(final_attack_factor(attack), combat_column(attack), dice_modifier(attack))


class CombatReading(Protocol):
    """What the TABLE DE COMBAT reads before the dice: the factor and the dice modifier (a
    direct fire's :class:`FireSheet`, an indirect fire's sheet)."""

    @property
    def factor(self) -> int: ...

    @property
    def dice_modifier(self) -> int: ...


def combat_cell(sheet: CombatReading, roll: int) -> Cell:
    """The TABLE DE COMBAT's cell at the sheet's factor for a combat roll of ``roll``."""
    return combat_table().lookup(roll + sheet.dice_modifier, sheet.factor)


def combat_roll(sheet: CombatReading, chance: Chance) -> str:
    """2d6 + the dice modifier on the TABLE DE COMBAT at the sheet's factor (the one roll of
    fire combat and of indirect fire)."""
    roll = chance.roll(TWO_D6, "combat roll (2d6)")
    table = combat_table()
    cell = combat_cell(sheet, roll)
    chance.note(
        table.title,
        f"{roll} {sheet.dice_modifier:+} = {roll + sheet.dice_modifier}: "
        f"row {cell.row}, column {cell.column} -> {cell.value}",
    )
    return cell.value


def combat_odds(sheet: CombatReading) -> Distribution[str]:
    """The exact odds of :func:`combat_roll`: each total of the 2d6 read once on the TABLE
    DE COMBAT (:func:`combat_cell`)."""
    return by_total(TWO_D6, lambda roll: combat_cell(sheet, roll).value)


def fire(attack: EptFire, chance: Chance) -> str:
    """Resolve one fire attack on the TABLE DE COMBAT (and, by option, the tests that follow)."""
    code = combat_roll(fire_sheet(attack), chance)
    if attack.follow_up == "chart":
        return code
    if code in _FINAL:
        return _FINAL[code]
    return _test(code, attack, chance)


FIRE: Procedure[EptFire] = Procedure(
    name="fire",
    title="Fire combat (MODIFICATEURS DE TIR, TABLE DE COMBAT)",
    input_model=EptFire,
    rule=fire,
    modifiers=modifiers,
    chart="combat",
    outcome_order=CHART_CODES + MORALE_OUTCOMES,
    facts=facts,
)

PROCEDURES = (FIRE,)
