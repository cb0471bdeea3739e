"""V&V 14.8 Rally (After-Action Phase 5.36): a pinned unit rallies on 2d6 at most 7
(leader, elite infantry, vehicle, Gun) or 6 (regular infantry); an unpinned leader in the hex
adds his Leadership Modifier, a negative number, to the roll.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from firefight.chance import TWO_D6, Chance
from firefight.core.inputs import RuleInput
from firefight.core.modifier import Modifier
from firefight.rulesets.procedure import Procedure
from firefight.rulesets.vv.support_charts import (
    at_most,
    rally_chart,
    roll_modifier,
)

# --- Rally (14.8) ------------------------------------------------------------------------------

RallyUnit = Literal["leader", "elite_infantry", "infantry", "vehicle", "gun"]


_RALLY_ROWS: dict[str, str] = {
    "leader": "Leader",
    "elite_infantry": "Infantry (elite)",
    "infantry": "Infantry",
    "vehicle": "Vehicle",
    "gun": "Gun",
}


class VvRally(RuleInput):
    """A rally attempt by one pinned unit in the After-Action Phase (14.8, 5.36)."""

    unit: RallyUnit = Field(
        description=(
            "The pinned unit: leader, elite_infantry, vehicle or gun rally on 7 or less, "
            "(regular) infantry on 6 or less (V&V 14.8). A vehicle's passengers rally with it."
        )
    )
    leadership_modifier: int = Field(
        0,
        ge=-3,
        le=0,
        description=(
            "Leadership Modifier of an unpinned leader in the same hex, as printed: a negative "
            "number, added to the dice roll, so it helps (V&V 14.8); 0 = no such leader."
        ),
    )


def rally_number(inp: VvRally) -> int:
    """The number the modified rally roll must not exceed (14.8)."""
    chart = rally_chart()
    return at_most(chart.cell_at(_RALLY_ROWS[inp.unit], "Dice roll").value, chart)


def rally_modifiers(inp: VvRally) -> list[Modifier]:
    """The unpinned leader's Leadership Modifier (14.8)."""
    if not inp.leadership_modifier:
        return []
    return [roll_modifier(inp.leadership_modifier, "unpinned leader in the hex (LM)", "V&V 14.8")]


def rally(inp: VvRally, chance: Chance) -> str:
    """``rallied`` or ``still_pinned`` (14.8)."""
    number = rally_number(inp)
    roll = chance.roll(TWO_D6, "rally (2d6)")
    modified = roll + inp.leadership_modifier
    rallied = modified <= number
    chance.note(
        rally_chart().title,
        f"{roll} {inp.leadership_modifier:+} = {modified} {'<=' if rallied else '>'} {number}",
    )
    return "rallied" if rallied else "still_pinned"


def rally_facts(inp: VvRally) -> list[tuple[str, str]]:
    """The rally number."""
    return [("rallies on 2d6 + LM <=", str(rally_number(inp)))]


RALLY: Procedure[VvRally] = Procedure(
    name="rally",
    title="After-Action Phase rally attempt (14.8)",
    input_model=VvRally,
    rule=rally,
    modifiers=rally_modifiers,
    chart="support_rally",
    outcome_order=("rallied", "still_pinned"),
    facts=rally_facts,
    meanings={
        "rallied": "flipped to its unpinned side (a vehicle's passengers rally with it)",
        "still_pinned": "stays pinned until its owner's next Command Phase (5.31)",
    },
)
