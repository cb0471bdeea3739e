"""EPT DELAIS DE TIR D'ARTILLERIE: does a called fire arrive this turn? The
value (base 7, German -1, pre-registered -1, -1 per additional turn) is a number to reach on
the dice.
"""

from __future__ import annotations

from fractions import Fraction
from typing import ClassVar, Literal

from pydantic import Field

from firefight.chance import D6, TWO_D6, Chance, Dice
from firefight.core.inputs import RuleInput
from firefight.core.modifier import Modifier, ModifierKind
from firefight.rulesets.ept.artillery_charts import (
    chart_value,
    delay_chart,
)
from firefight.rulesets.procedure import Procedure

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
        chart_value(chart, "Artillery: base value")
        + (chart_value(chart, "German") if inp.german else 0)
        + (chart_value(chart, "Pre-registered bombardment") if inp.pre_registered else 0)
        + chart_value(chart, "Per additional turn") * inp.additional_turns
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
            printed = chart_value(chart, row)
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
