"""V&V 20.7 Minefields: 1d6 at most 3 eliminates each unit entering."""

from __future__ import annotations

from pydantic import Field

from firefight.chance import Chance, Dice
from firefight.core.inputs import RuleInput
from firefight.rulesets.procedure import Procedure
from firefight.rulesets.vv.placement import (
    no_modifiers,
)

# --- Minefields (20.7) ---------------------------------------------------------------------------

MINE_ELIMINATES_AT_MOST = 3
"""20.7: a unit entering a minefield hex is eliminated on a die roll of 3 or less."""


def _mine_eliminates(die: int) -> bool:
    return die <= MINE_ELIMINATES_AT_MOST


class VvMinefield(RuleInput):
    """The minefield attack on the units entering its hex (20.7, 20.71)."""

    units: int = Field(
        1,
        ge=1,
        le=12,
        description=(
            "Units entering the minefield hex together: one die each, 3 or less eliminates "
            "(V&V 20.7; the same for every kind of unit, no modifiers)."
        ),
    )


def minefield(inp: VvMinefield, chance: Chance) -> str:
    """The number of units eliminated, ``0`` ... ``units``."""
    eliminated = chance.count(
        Dice.d(6, inp.units), _mine_eliminates, f"minefield ({inp.units}d6, one per unit)"
    )
    chance.note("20.7", f"{eliminated} of {inp.units} rolled 3 or less: eliminated")
    return str(eliminated)


MINEFIELD: Procedure[VvMinefield] = Procedure(
    name="minefield",
    title="Minefield attack (20.7)",
    input_model=VvMinefield,
    rule=minefield,
    modifiers=no_modifiers,
    outcome_order=tuple(str(n) for n in range(13)),
    meanings={str(n): f"{n} unit{'s' if n != 1 else ''} eliminated" for n in range(13)},
)
