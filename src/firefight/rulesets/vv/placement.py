"""V&V 21.4 Support mission placement: 1d6 at most 4 hits the target hex, 5 scatters
one hex, 6 two hexes, in the direction of a second die on the Artillery Scatter Diagram (1 up,
clockwise, as :mod:`firefight.board.hexes` numbers directions). :func:`impact` and
:func:`impact_odds` place the mission on a board.
"""

from __future__ import annotations

from fractions import Fraction
from typing import ClassVar, Literal

from pydantic import Field

from firefight.board.board import Board
from firefight.board.hexes import Hex
from firefight.board.scatter import impact_distribution, impact_hex
from firefight.chance import D6, Chance, Resolution, sample
from firefight.chance.distribution import Distribution
from firefight.core.inputs import RuleInput
from firefight.core.modifier import Modifier
from firefight.errors import ChartError
from firefight.i18n import gettext
from firefight.rulesets.procedure import Procedure
from firefight.rulesets.vv.support_charts import (
    DIRECTION_NAMES,
    at_most,
    placement_chart,
)

# --- Support mission placement (21.4) -----------------------------------------------------------

PlacementMission = Literal["light_barrage", "heavy_barrage", "fighter_bomber", "smoke_barrage"]


class VvArtilleryPlacement(RuleInput):
    """Where a support mission placed in the Command Phase lands (21.4; smoke barrage 21.7)."""

    readings: ClassVar[frozenset[str]] = frozenset({"fighter_bomber_placement"})
    """The fields that read the rules where they are silent (folded apart on the web)."""

    mission: PlacementMission = Field(
        "light_barrage",
        description=(
            "The support mission: light_barrage, heavy_barrage, fighter_bomber, or "
            "smoke_barrage (V&V 21.7: placed by the same roll)."
        ),
    )
    fighter_bomber_placement: Literal["rolls", "always_hits"] = Field(
        "rolls",
        description=(
            "Reading for fighter-bombers (21.4 says 'each artillery support mission' rolls, "
            "under a heading for all support missions): rolls = like artillery (the Die Roll "
            "Summary's 'Support Mission Die Roll'); always_hits = no placement roll."
        ),
    )


def _placement_reading(die: int) -> tuple[int, str]:
    """The scatter distance and the printed effect for a placement die (21.4)."""
    chart = placement_chart()
    for label in chart.rows.labels:
        fits = die <= at_most(label, chart) if label.startswith("≤") else die == int(label)
        if fits:
            effect = chart.cell_at(label, "Effect").value
            return (0 if effect == "Hit" else int(effect.split()[0])), f"row {label}: {effect}"
    msg = gettext("chart {id}: no row holds the die roll {die}").format(id=repr(chart.id), die=die)
    raise ChartError(msg)


def roll_placement(inp: VvArtilleryPlacement, chance: Chance) -> tuple[int, int | None]:
    """Roll the placement die and, on a scatter, the direction: ``(distance, direction)``."""
    if inp.mission == "fighter_bomber" and inp.fighter_bomber_placement == "always_hits":
        chance.note("21.4", "fighter-bomber: no placement roll (always_hits), on target")
        return 0, None
    die = chance.roll(D6, "placement (1d6)")
    distance, text = _placement_reading(die)
    chance.note(placement_chart().title, f"{die}: {text}")
    if distance == 0:
        return 0, None
    direction = chance.roll(D6, "scatter direction (1d6)")
    chance.note("Artillery Scatter Diagram", f"{direction}: {DIRECTION_NAMES[direction]}")
    return distance, direction


def artillery_placement(inp: VvArtilleryPlacement, chance: Chance) -> str:
    """The scatter distance in hexes from the target hex: ``0`` (on target), ``1`` or ``2``."""
    return str(roll_placement(inp, chance)[0])


def no_modifiers(_inp: RuleInput) -> list[Modifier]:
    """The roll has no modifiers."""
    return []


ARTILLERY_PLACEMENT: Procedure[VvArtilleryPlacement] = Procedure(
    name="artillery_placement",
    title="Support mission placement and scatter (21.4)",
    input_model=VvArtilleryPlacement,
    rule=artillery_placement,
    modifiers=no_modifiers,
    chart="support_artillery",
    outcome_order=("0", "1", "2"),
    meanings={
        "0": "hits the target hex",
        "1": "scatters one hex (direction die on the Artillery Scatter Diagram)",
        "2": "scatters two hexes (direction die on the Artillery Scatter Diagram)",
    },
)


def impact(
    inp: VvArtilleryPlacement, aim: Hex, chance: Chance, board: Board | None = None
) -> Hex | None:
    """The hex the mission lands in; ``None`` when it scatters off ``board`` (21.4: no effect)."""
    distance, direction = roll_placement(inp, chance)
    landed = aim if direction is None else impact_hex(aim, direction, distance)
    if board is not None and landed not in board:
        chance.note("21.4", "scattered off the board: no effect, the mission is used")
        return None
    return landed


def impact_odds(
    inp: VvArtilleryPlacement, aim: Hex, board: Board | None = None
) -> Distribution[Hex | None]:
    """The exact distribution of impact hexes (``None`` = off ``board``)."""
    distances = {int(k): p for k, p in ARTILLERY_PLACEMENT.odds(inp).items()}
    hexes = impact_distribution(aim, distances)
    on_board: dict[Hex | None, Fraction] = {}
    for hex_, p in hexes.items():
        key = hex_ if board is None or hex_ in board else None
        on_board[key] = on_board.get(key, Fraction(0)) + p
    return Distribution(on_board)


def resolve_impact(
    inp: VvArtilleryPlacement, aim: Hex, seed: int, board: Board | None = None
) -> Resolution[Hex | None]:
    """One seeded placement on the board, with its trace."""
    return sample(lambda chance: impact(inp, aim, chance, board), seed)
