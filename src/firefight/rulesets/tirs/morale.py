"""Splitting a group into two half-groups (½ groupes) with a morale test, "Les tirs" (seed 001).

"Suite à un tir, si un groupe se retrouve avec un élément cloué et l'autre normal, il peut
essayer de séparer les deux ½ groupes, en réussissant un test moral. En cas d'échec au test,
les deux éléments restent ensemble." The test itself is not in the seed: its die and target
value are inputs (see docs/tirs.md, readings chosen).
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field

from firefight.chance import D10, TWO_D6, Chance
from firefight.core.inputs import RuleInput
from firefight.core.modifier import Modifier
from firefight.errors import RuleError
from firefight.rulesets.procedure import Procedure
from firefight.rulesets.tirs.effects import GROUP, TargetState
from firefight.translation import gettext as _

__all__ = ["PROCEDURES", "SPLIT", "TirsSplit", "split", "split_halves"]

SPLIT_RULE = "Les tirs: Effet d'un tir tendu contre un groupe de combat (½ groupes)"


class TirsSplit(RuleInput):
    """A group with one element pinned and the other normal tries to split (test moral)."""

    readings: ClassVar[frozenset[str]] = frozenset({"morale_test"})
    """The fields that read the rules where they are silent (folded apart on the web)."""

    morale: int = Field(
        ge=0,
        le=12,
        description=(
            "The group's morale value, the target of the test moral (not in the rules: from "
            "your element data). The test passes when the roll is at most this value."
        ),
    )
    morale_test: Literal["d10", "2d6"] = Field(
        "d10",
        description=(
            "The die of the test moral (not in the rules): d10 = one D10 <= morale, like the "
            "chapter's precision test; 2d6 = two D6 summed <= morale."
        ),
    )
    group_state: Literal["1st pinned"] = Field(
        "1st pinned",
        description=(
            "The group's state: only '1st pinned' (one element pinned, the other normal) "
            "may try to split."
        ),
    )


def split(inp: TirsSplit, chance: Chance) -> str:
    """Roll the morale test: ``split`` (two half-groups) or ``together``."""
    dice = D10 if inp.morale_test == "d10" else TWO_D6
    roll = chance.roll(dice, f"test moral ({dice.name})")
    passed = roll <= inp.morale
    chance.note(
        "test moral",
        f"{roll} {'<=' if passed else '>'} morale {inp.morale}: "
        f"{'passed, the group splits' if passed else 'failed, the elements stay together'}",
    )
    return "split" if passed else "together"


def split_halves(state: TargetState) -> tuple[str, str]:
    """The two half-groups after a passed test: the pinned element and the normal one."""
    if state.track is not GROUP or state.elements != ("pinned", "normal"):
        msg = _(
            "only a group with one element pinned and the other normal may split (got "
            "{name}; {split_rule})"
        ).format(name=state.name, split_rule=SPLIT_RULE)
        raise RuleError(msg)
    return ("pinned", "normal")


def modifiers(_: TirsSplit) -> list[Modifier]:
    """The seed gives the test no modifier."""
    return []


SPLIT: Procedure[TirsSplit] = Procedure(
    name="split",
    title="Splitting a group into two half-groups (test moral)",
    input_model=TirsSplit,
    rule=split,
    modifiers=modifiers,
    outcome_order=("split", "together"),
    meanings={
        "split": "test passed: two half-groups, one pinned element and one normal element",
        "together": "test failed: the two elements stay together",
    },
)

PROCEDURES = (SPLIT,)
