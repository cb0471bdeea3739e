"""Rally (rules 6.1): a pinned unit rallies on 1d6 at or under its morale; a leader with it
adds 1 to its morale; a 6 always fails."""

from __future__ import annotations

from fractions import Fraction

from pydantic import Field

from firefight.api import D6, Chance, Modifier, ModifierKind, Procedure, RuleInput


class Rally(RuleInput):
    """A pinned unit's rally attempt."""

    morale: int = Field(4, ge=1, le=6, description="The unit's morale (6.1).")
    leader: bool = Field(False, description="A leader stacked with it: morale +1 (6.2).")


def modifiers(inp: Rally) -> list[Modifier]:
    """The leader's +1 to the morale."""
    if not inp.leader:
        return []
    return [Modifier("leader", Fraction(1), ModifierKind.VALUE, "6.2")]


def rule(inp: Rally, chance: Chance) -> str:
    """1d6 at or under the morale rallies; a 6 always fails."""
    morale = inp.morale + (1 if inp.leader else 0)
    rallied = chance.check(D6, lambda roll: roll != 6 and roll <= morale, "rally roll (1d6)")
    return "rallied" if rallied else "pinned"


RALLY = Procedure(
    name="rally",
    title="Rally a pinned unit",
    input_model=Rally,
    rule=rule,
    modifiers=modifiers,
    outcome_order=("rallied", "pinned"),
    meanings={"rallied": "the unit may fire again", "pinned": "it stays pinned"},
)
"""Rally: exact odds, seeded and replayed resolutions from :func:`rule`."""
