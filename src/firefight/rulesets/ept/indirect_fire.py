"""EPT indirect fire: a fire strength (a mortar's, or one read off
ARTILLERIE/BOMBES) on the TABLE DE COMBAT (:mod:`firefight.rulesets.ept.fire`) under the
indirect-fire terrain rule (ARTILLERIE/BOMBES: effect of terrain on indirect fire).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import ClassVar

from pydantic import Field

from firefight.chance import Chance
from firefight.chance.distribution import Distribution
from firefight.core.inputs import RuleInput
from firefight.core.modifier import Modifier, ModifierKind
from firefight.rulesets.ept import fire as fire_combat
from firefight.rulesets.ept.artillery_charts import (
    INDIRECT_TERRAIN,
    FactorRounding,
)
from firefight.rulesets.ept.fire import EptFire, TargetMovement, combat_odds, combat_roll
from firefight.rulesets.procedure import Procedure

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


def indirect_fire_odds(inp: EptIndirectFire) -> Distribution[str]:
    """The exact odds of :func:`indirect_fire`: its one combat roll read once per total."""
    return combat_odds(_sheet(inp))


INDIRECT_FIRE: Procedure[EptIndirectFire] = Procedure(
    name="indirect_fire",
    title="Indirect fire on a unit (effect of terrain on indirect fire, TABLE DE COMBAT)",
    input_model=EptIndirectFire,
    rule=indirect_fire,
    modifiers=indirect_fire_modifiers,
    chart="combat",
    outcome_order=fire_combat.CHART_CODES,
    facts=indirect_fire_facts,
    exact_odds=indirect_fire_odds,
)
