"""Fire (rules 4.2): roll 2d6, add the modifiers, read the Fire Chart's cell in the firer's
firepower column."""

from __future__ import annotations

from fractions import Fraction
from typing import Literal

from pydantic import Field

from firefight.api import TWO_D6, Chance, Modifier, ModifierKind, Procedure, RuleInput, load_chart
from hedgerow.ruleset import DATA

CHART = load_chart(DATA / "fire.toml")

COVER = {"open": 0, "scrub": -1, "woods": -2, "village": -3}
"""The target's cover and its dice modifier (rules 4.3)."""


class Fire(RuleInput):
    """One unit's fire at another."""

    firepower: int = Field(ge=1, le=12, description="The firer's firepower (4.1).")
    cover: Literal["open", "scrub", "woods", "village"] = Field(
        "open", description="The target hex's terrain (4.3)."
    )
    veteran: bool = Field(False, description="A veteran firer adds 1 to the roll (4.4).")
    hindrance: int = Field(
        0, ge=0, le=2, description="The line of sight's hindrance, subtracted (5.2)."
    )


def modifiers(inp: Fire) -> list[Modifier]:
    """The roll's modifiers, each with its rule."""
    found = []
    if COVER[inp.cover]:
        found.append(
            Modifier(f"{inp.cover} cover", Fraction(COVER[inp.cover]), ModifierKind.DICE, "4.3")
        )
    if inp.veteran:
        found.append(Modifier("veteran firer", Fraction(1), ModifierKind.DICE, "4.4"))
    if inp.hindrance:
        found.append(Modifier("hindrance", Fraction(-inp.hindrance), ModifierKind.DICE, "5.2"))
    return found


def rule(inp: Fire, chance: Chance) -> str:
    """The modified roll on the Fire Chart, in the firepower column."""
    roll = chance.roll(TWO_D6, "fire roll (2d6)")
    total = roll + int(sum(m.value for m in modifiers(inp)))
    cell = CHART.lookup(total, inp.firepower)
    chance.note(f"Fire Chart: roll {total}, firepower {inp.firepower}", cell.value)
    return cell.value


FIRE = Procedure(
    name="fire",
    title="Fire (Fire Chart)",
    input_model=Fire,
    rule=rule,
    modifiers=modifiers,
    chart="fire",
    outcome_order=("-", "P", "K"),
)
"""Fire: exact odds, seeded and replayed resolutions from :func:`rule`."""
