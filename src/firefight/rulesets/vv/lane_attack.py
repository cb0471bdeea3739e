"""The V&V fire lane attack (13.9, 13.91): the procedure ``fire_lane_attack`` and the lanes'
threat on a unit entering their hexes.

13.9: infantry, Guns and unarmoured vehicles that *enter* a lane hex are attacked at once on the
1-4 row of the AP Combat Table, with no combat or cover modifiers; 13.91: one marker per MG in
a hex, each marker after the first subtracting 1 from the attack (two lanes crossing: the 1-4
row, -1). The lanes themselves are :mod:`.lanes`'.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from pydantic import Field

from firefight.board.hexes import Hex
from firefight.chance import TWO_D6, Chance
from firefight.core.chart import Cell
from firefight.core.inputs import RuleInput
from firefight.core.modifier import Modifier, ModifierKind
from firefight.rulesets.procedure import Procedure
from firefight.rulesets.vv.ap import OUTCOMES, ap_combat_table
from firefight.rulesets.vv.lanes import (
    LANE_ROW,
    NATURALS_HELP,
    FireLane,
    LaneNaturals,
    LaneReadings,
    markers,
)
from firefight.rulesets.vv.natural import attack_dice_roll, natural_facts


def crossfire_modifier(marker_count: int) -> int:
    """13.91: -1 per Fire Lane marker after the first in the hex."""
    return -(marker_count - 1)


MAX_MARKERS = 12
"""The most Fire Lane markers a lane attack takes (:class:`VvFireLaneAttack`): from 11 on the
crossfire (13.91) already puts every roll at the top of the 1-4 row, so more markers than 12
attack as 12 (:func:`lane_attack_input`; a test checks the odds stop changing)."""


def lane_attack_input(marker_count: int, naturals: LaneNaturals) -> VvFireLaneAttack:
    """The lane attack on a unit entering a hex with ``marker_count`` markers (13.9, 13.91):
    past :data:`MAX_MARKERS` the crossfire changes nothing, so the count is taken at most
    that (many MGs' lanes through one hex are a situation, not an error)."""
    return VvFireLaneAttack(markers=min(marker_count, MAX_MARKERS), naturals=naturals)


class VvFireLaneAttack(RuleInput):
    """The attack on a unit entering a Fire Lane hex (13.9, 13.91)."""

    markers: int = Field(
        1,
        ge=1,
        le=MAX_MARKERS,
        description=(
            "Fire Lane markers in the hex entered, one per MG whose lane passes there (13.91): "
            "each after the first is -1 to the attack dice roll."
        ),
    )
    naturals: LaneNaturals = Field("none", description=NATURALS_HELP)


def lane_modifiers(inp: VvFireLaneAttack) -> list[Modifier]:
    """13.9: no combat or cover modifiers; 13.91: the crossfire's -1 per extra marker."""
    value = crossfire_modifier(inp.markers)
    if not value:
        return []
    label = f"crossfire, {inp.markers} Fire Lane markers"
    return [Modifier(label, Fraction(value), ModifierKind.DICE, "13.91")]


LANE_ROLL = "fire lane attack dice roll (2d6)"
"""The trace label of a lane attack's roll (:func:`lane_attack`)."""


def lane_result(roll: int, markers: int) -> tuple[int, Cell]:
    """A lane attack's modified roll and its cell on the 1-4 row (13.9), the crossfire's -1 per
    marker after the first applied (13.91): the cell's value is the Casualty Points, "-"
    none."""
    modified = roll + crossfire_modifier(markers)
    return modified, ap_combat_table().lookup_label(LANE_ROW, modified)


def lane_attack(inp: VvFireLaneAttack, chance: Chance) -> str:
    """Roll the lane attack: 2d6 less the crossfire modifier on the 1-4 row (13.9, 13.91); the
    Casualty Points ("-" none)."""
    if inp.naturals == "valor_and_sniper":
        roll = attack_dice_roll(chance, LANE_ROLL, infantry=True, valor_rolled=False)
    else:
        roll = chance.roll(TWO_D6, LANE_ROLL)
    modified, cell = lane_result(roll, inp.markers)
    chance.note("13.9 fire lane, 1-4 row", f"modified roll {modified}: {cell}")
    return cell.value


def lane_facts(inp: VvFireLaneAttack) -> list[tuple[str, str]]:
    """The row, and for the valor_and_sniper reading the chances of a natural 2 and 12."""
    found = [("AP Combat Table row", LANE_ROW), ("Fire Lane markers", str(inp.markers))]
    if inp.naturals == "valor_and_sniper":
        found.extend(natural_facts())
    return found


FIRE_LANE_ATTACK: Procedure[VvFireLaneAttack] = Procedure(
    name="fire_lane_attack",
    title="Fire lane attack (13.9, 13.91)",
    input_model=VvFireLaneAttack,
    rule=lane_attack,
    modifiers=lane_modifiers,
    chart="ap_combat",
    outcome_order=OUTCOMES,
    facts=lane_facts,
    meanings={"-": "no effect"},
)

PROCEDURES = (FIRE_LANE_ATTACK,)


@dataclass(frozen=True)
class LaneThreat:
    """What the lanes do to a unit entering one hex (13.9, 13.91): the MGs whose lanes pass
    there, the markers, and the exact chance of at least one Casualty Point."""

    mgs: tuple[str, ...]
    markers: int
    hit: Fraction

    def to_json(self) -> dict[str, object]:
        """``{"mgs", "markers", "probability", "fraction"}`` (the chance of 1 CP or more)."""
        return {
            "mgs": list(self.mgs),
            "markers": self.markers,
            "probability": float(self.hit),
            "fraction": str(self.hit),
        }


def lane_threat(
    lanes: Iterable[FireLane], readings: LaneReadings | None = None, *, least: int = 1
) -> dict[Hex, LaneThreat]:
    """For a threat map: each lane hex, the lanes there and the chance that the lane attack
    on a unit entering it inflicts ``least`` Casualty Points or more (the same rule a roll
    resolves, evaluated exactly; one CP pins, 14.61; a unit that ignores the first CP, 14.63,
    needs two)."""
    naturals = (readings or LaneReadings()).naturals
    lanes = tuple(lanes)
    found: dict[Hex, LaneThreat] = {}
    for hex_, count in markers(lanes).items():
        odds = FIRE_LANE_ATTACK.odds(lane_attack_input(count, naturals))
        hit = sum(
            (Fraction(p) for cps, p in odds.items() if cps != "-" and int(cps) >= least),
            Fraction(0),
        )
        mgs = tuple(lane.mg for lane in lanes if hex_ in lane.hexes)
        found[hex_] = LaneThreat(mgs, count, hit)
    return found
