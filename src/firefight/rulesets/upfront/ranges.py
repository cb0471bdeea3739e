"""Relative Range from the range chits, and hand sizes by nationality (FACTS.md, Up Front:
rulebook and rules summary; not printed on the flow charts)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import Field

from firefight.chance import Chance
from firefight.core.inputs import RuleInput
from firefight.core.modifier import Modifier
from firefight.rulesets.procedure import Procedure
from firefight.rulesets.upfront.cards import NATIONALITIES

__all__ = [
    "DISCARDS",
    "HAND_SIZE",
    "PROCEDURES",
    "RANGE_FOLD",
    "RR_HIGHEST",
    "UpFrontHand",
    "UpFrontRange",
    "relative_range",
]

RR_HIGHEST = 5
"""Relative Range runs from 0 (long) to 5 (point blank)."""
RANGE_FOLD = 10
"""A chit sum of 6 or more gives RR = 10 - sum (FACTS.md)."""
HAND_SIZE: dict[str, int] = {
    "german": 5,
    "american": 6,
    "british": 5,
    "russian": 4,
    "japanese": 4,
    "french": 6,
    "italian": 4,
}
"""Hand size by nationality (FACTS.md: German 5/1; American 6/2; British 5/2; Russian 4/4;
Japanese 4/2; French 6/1; Italian 4/2)."""
DISCARDS: dict[str, int] = {
    "german": 1,
    "american": 2,
    "british": 2,
    "russian": 4,
    "japanese": 2,
    "french": 1,
    "italian": 2,
}
"""Cards a nationality may discard in a turn (FACTS.md, the figure after the slash)."""

Alignment = Literal["opposite", "adjacent", "other"]


def relative_range(own_chit: int, enemy_chit: int, alignment: Alignment) -> int:
    """RR = the sum of both groups' range chits; a sum of 6 or more gives 10 - sum; minus 1
    (never below 0) when the groups are neither opposite nor adjacent."""
    total = own_chit + enemy_chit
    rr = total if total <= RR_HIGHEST else RANGE_FOLD - total
    if alignment == "other":
        rr -= 1
    return max(0, rr)


class UpFrontRange(RuleInput):
    """Two groups' range chits and how the groups lie to each other (FACTS.md, Relative
    Range)."""

    own_chit: int = Field(ge=0, le=5, description="The firing group's range chit (0 to 5).")
    enemy_chit: int = Field(ge=0, le=5, description="The target group's range chit (0 to 5).")
    alignment: Alignment = Field(
        "opposite",
        description=(
            "opposite or adjacent groups read the sum as is; other (neither opposite nor "
            "adjacent) lowers RR by 1, never below 0."
        ),
    )


def _range_rule(inp: UpFrontRange, chance: Chance) -> str:
    total = inp.own_chit + inp.enemy_chit
    chance.note("range chits", f"{inp.own_chit} + {inp.enemy_chit} = {total}")
    rr = relative_range(inp.own_chit, inp.enemy_chit, inp.alignment)
    return f"RR {rr}"


def _range_facts(inp: UpFrontRange) -> Sequence[tuple[str, str]]:
    total = inp.own_chit + inp.enemy_chit
    facts = [("chit sum", str(total))]
    if total > RR_HIGHEST:
        facts.append(("6 or more", f"RR = 10 - {total} = {RANGE_FOLD - total}"))
    if inp.alignment == "other":
        facts.append(("neither opposite nor adjacent", "RR - 1 (minimum 0)"))
    return facts


def _no_modifiers(_: RuleInput) -> Sequence[Modifier]:
    return ()


RANGE: Procedure[UpFrontRange] = Procedure(
    name="range",
    title="Relative Range from the range chits",
    input_model=UpFrontRange,
    rule=_range_rule,
    modifiers=_no_modifiers,
    facts=_range_facts,
    outcome_order=tuple(f"RR {n}" for n in range(RR_HIGHEST + 1)),
    meanings={f"RR {n}": f"Relative Range {n}" for n in range(RR_HIGHEST + 1)},
)


class UpFrontHand(RuleInput):
    """A nationality's hand size and discards (FACTS.md)."""

    nationality: Literal[
        "german", "american", "british", "russian", "japanese", "french", "italian"
    ] = Field(description="The player's nationality.")


assert tuple(HAND_SIZE) == NATIONALITIES


def _hand_rule(inp: UpFrontHand, chance: Chance) -> str:
    return f"hand {HAND_SIZE[inp.nationality]}, discard {DISCARDS[inp.nationality]}"


def _hand_facts(inp: UpFrontHand) -> Sequence[tuple[str, str]]:
    return (
        ("hand size", str(HAND_SIZE[inp.nationality])),
        ("discards per turn", str(DISCARDS[inp.nationality])),
    )


HAND: Procedure[UpFrontHand] = Procedure(
    name="hand",
    title="Hand size and discards by nationality",
    input_model=UpFrontHand,
    rule=_hand_rule,
    modifiers=_no_modifiers,
    facts=_hand_facts,
)

PROCEDURES = (RANGE, HAND)
