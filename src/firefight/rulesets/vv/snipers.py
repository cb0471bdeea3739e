"""V&V 17 Snipers: ``sniper_attack`` (17.5), a die above the cover gives that many
CPs less the cover; ``sniper_elimination`` (17.6), a die above the sniper's cover eliminates
the sniper.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from firefight.chance import D6, Chance
from firefight.core.inputs import RuleInput
from firefight.core.modifier import Modifier
from firefight.errors import RuleError
from firefight.i18n import gettext
from firefight.rulesets.procedure import Procedure
from firefight.rulesets.vv.placement import (
    no_modifiers,
)
from firefight.rulesets.vv.support_charts import (
    roll_modifier,
)

# --- Snipers (17) --------------------------------------------------------------------------------


def target_cover_field() -> Any:  # noqa: ANN401 - pydantic types Field as Any: any default
    """The ``target_cover`` input of a sniper's attack (17.5), for every model that has one."""
    return Field(
        0,
        ge=0,
        le=8,
        description=(
            "Cover modifier of the target hex plus the hindrances between the sniper and it "
            "(V&V 17.5); the die must exceed it."
        ),
    )


def sniper_cover_field() -> Any:  # noqa: ANN401 - pydantic types Field as Any: any default
    """The ``sniper_cover`` input of the Sniper Elimination Check (17.6)."""
    return Field(
        1,
        ge=1,
        le=8,
        description=(
            "Cover modifier of the sniper's hex plus the hindrances between it and the "
            "targeted units (V&V 17.6); at least 1, since a sniper is placed only where it has "
            "cover (17.2)."
        ),
    )


class VvSniperAttack(RuleInput):
    """A sniper's attack: on activation (17.2) or as opportunity fire (17.4); resolved by 17.5."""

    target_cover: int = target_cover_field()


def sniper_attack(inp: VvSniperAttack, chance: Chance) -> str:
    """The Casualty Points, ``-`` (none) or ``1`` ... ``6``, applied as in 14.61 (17.5)."""
    die = chance.roll(D6, "sniper attack (1d6)")
    points = die - inp.target_cover
    chance.note(
        "17.5",
        f"{die} - cover {inp.target_cover} = {points} CP"
        if points > 0
        else f"{die} <= cover {inp.target_cover}: no effect",
    )
    return str(points) if points > 0 else "-"


def sniper_attack_modifiers(inp: VvSniperAttack) -> list[Modifier]:
    """The target's cover, which the die must exceed and which is taken off the CPs (17.5)."""
    if not inp.target_cover:
        return []
    return [roll_modifier(-inp.target_cover, "target cover and hindrances", "V&V 17.5")]


SNIPER_ATTACK: Procedure[VvSniperAttack] = Procedure(
    name="sniper_attack",
    title="Sniper attack (17.5)",
    input_model=VvSniperAttack,
    rule=sniper_attack,
    modifiers=sniper_attack_modifiers,
    outcome_order=("-", "1", "2", "3", "4", "5", "6"),
    meanings={
        "-": "no effect",
        **{
            str(n): f"{n} Casualty Point{'s' if n > 1 else ''}, applied as in 14.61"
            for n in range(1, 7)
        },
    },
)


class VvSniperElimination(RuleInput):
    """The Sniper Elimination Check the targeted units make after every sniper attack (17.6)."""

    sniper_cover: int = sniper_cover_field()
    unpinned_target: bool = Field(
        True,
        description=(
            "At least one targeted unit in the target hex is unpinned after the attack; "
            "without one no check can be made (V&V 17.6)."
        ),
    )


def sniper_elimination(inp: VvSniperElimination, chance: Chance) -> str:
    """``sniper_eliminated`` or ``sniper_survives`` (17.6)."""
    if not inp.unpinned_target:
        msg = gettext(
            "no Sniper Elimination Check: no unpinned unit is left in the target hex (V&V 17.6)"
        )
        raise RuleError(msg)
    cover = inp.sniper_cover
    eliminated = chance.check(D6, lambda die: die > cover, "sniper elimination check (1d6)")
    chance.note("17.6", f"1d6 {'>' if eliminated else '<='} cover {cover}")
    return "sniper_eliminated" if eliminated else "sniper_survives"


SNIPER_ELIMINATION: Procedure[VvSniperElimination] = Procedure(
    name="sniper_elimination",
    title="Sniper Elimination Check (17.6)",
    input_model=VvSniperElimination,
    rule=sniper_elimination,
    modifiers=no_modifiers,
    outcome_order=("sniper_eliminated", "sniper_survives"),
    facts=lambda inp: [("eliminated on 1d6 >", str(inp.sniper_cover))],
    meanings={
        "sniper_eliminated": "removed; it can no longer be activated (17.6)",
        "sniper_survives": "stays in its hex",
    },
)
