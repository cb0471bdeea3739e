"""V&V 16 Infantry Valor: the valor check a natural 2 on an AP or AT attack roll triggers.

16.2: whenever an infantry unit's AP or AT (to-hit) attack dice roll is a natural two, the
attacking unit (every unit of an AP fire group) checks for valor: a squad or half squad
becomes valorous on 2d6 at most its Casualty Rating, a leader on 2d6 at most 6.
16.3: a valorous unit ignores the first Casualty Point against it, adds +1 to its inherent
APFP in AP attacks, doubles its inherent APFP in close assaults (attacking or defending) and
subtracts 1 from its ATFP attack rolls.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from firefight.chance import TWO_D6, Chance
from firefight.core.inputs import RuleInput
from firefight.core.modifier import Modifier
from firefight.errors import InputError
from firefight.rulesets.procedure import Procedure
from firefight.translation import gettext as _

ValorUnit = Literal["squad", "half_squad", "leader"]
LEADER_VALOR_NUMBER = 6
"""16.2: a leader becomes valorous on a dice roll of 6 or less."""
NATURAL_TWO = 2
"""16.2: the natural, unmodified attack dice roll that triggers a valor check."""


def valor_number(unit: ValorUnit, casualty_rating: int | None) -> int:
    """The number a valor check must not exceed (16.2)."""
    if unit == "leader":
        return LEADER_VALOR_NUMBER
    if casualty_rating is None:
        raise InputError(
            "casualty_rating",
            _("given for a {replace}").format(replace=unit.replace("_", " ")),
            None,
        )
    return casualty_rating


def valor_check(
    unit: ValorUnit, casualty_rating: int | None, chance: Chance, label: str = ""
) -> bool:
    """Roll one valor check (16.2): 2d6 at most the valor number makes the unit valorous."""
    number = valor_number(unit, casualty_rating)
    name = label or unit.replace("_", " ")
    roll = chance.roll(TWO_D6, f"valor check, {name} (2d6)")
    valorous = roll <= number
    chance.note(
        "16.2 valor",
        f"{roll} {'<=' if valorous else '>'} {number}: "
        + ("valorous" if valorous else "not valorous"),
    )
    return valorous


def triggers_valor(natural_roll: int) -> bool:
    """Whether an AP or AT attack dice roll triggers a valor check (a natural two, 16.2)."""
    return natural_roll == NATURAL_TWO


class VvValor(RuleInput):
    """A valor check after a natural two on an AP or AT attack roll (16.2)."""

    unit: ValorUnit = Field(
        description="The attacking unit that checks: squad, half_squad or leader (16.2)."
    )
    casualty_rating: int | None = Field(
        None, ge=1, le=12, description="Its Casualty Rating (squads and half squads; 16.2)."
    )


def valor(inp: VvValor, chance: Chance) -> str:
    """``valorous`` or ``not_valorous``."""
    return "valorous" if valor_check(inp.unit, inp.casualty_rating, chance) else "not_valorous"


def valor_modifiers(inp: VvValor) -> list[Modifier]:
    """The check has no modifiers (16.2)."""
    return []


def valor_facts(inp: VvValor) -> list[tuple[str, str]]:
    """The number the 2d6 must not exceed."""
    return [("valorous on 2d6 <=", str(valor_number(inp.unit, inp.casualty_rating)))]


VALOR: Procedure[VvValor] = Procedure(
    name="valor",
    title="Valor check (16.2)",
    input_model=VvValor,
    rule=valor,
    modifiers=valor_modifiers,
    outcome_order=("valorous", "not_valorous"),
    facts=valor_facts,
    meanings={
        "valorous": "the unit becomes valorous (16.3: ignores its first CP, +1 APFP, ...)",
        "not_valorous": "no change",
    },
)

PROCEDURES = (VALOR,)
