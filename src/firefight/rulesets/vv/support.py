"""V&V rally, support missions, minefields, snipers and smoke (chapters 11, 14.8, 17, 20, 21).

* ``rally`` (14.8, After-Action Phase 5.36): a pinned unit rallies on 2d6 at most 7 (leader,
  elite infantry, vehicle, Gun) or 6 (regular infantry); an unpinned leader in the hex adds his
  Leadership Modifier, a negative number, to the roll.
* ``artillery_placement`` (21.4): 1d6 at most 4 hits the target hex, 5 scatters one hex, 6 two
  hexes, in the direction of a second die on the Artillery Scatter Diagram (1 up, clockwise,
  as :mod:`firefight.board.hexes` numbers directions). :func:`impact` and :func:`impact_odds`
  place the mission on a board.
* ``artillery_vs_afv`` (21.5, 18.4, 18.6): an artillery barrage or fighter-bomber against an
  AFV in the hex: to-hit 2d6 + cover at most 8, then the elimination roll against the rear
  armour on the Armor Elimination Table with the mission's ATFP class.
* :func:`air_burst_casualty_points` (21.6): artillery CPs on infantry in woods or jungle are
  doubled (for the AP attack, which rolls the AP Combat Table itself).
* ``minefield`` (20.7): 1d6 at most 3 eliminates each unit entering.
* ``sniper_attack`` (17.5) and ``sniper_elimination`` (17.6): a die above the cover gives
  that many CPs less the cover; a die above the sniper's cover eliminates the sniper.
* Smoke (11.5) has no roll: :func:`smoke_hindrance` gives its hindrance for the board.

Parts, a module per chapter, their names re-exported here: :mod:`~firefight.rulesets.vv.rally`,
:mod:`~firefight.rulesets.vv.placement`, :mod:`~firefight.rulesets.vv.missions`,
:mod:`~firefight.rulesets.vv.minefield`, :mod:`~firefight.rulesets.vv.snipers`, and their charts
(:mod:`~firefight.rulesets.vv.support_charts`). This module keeps smoke and the procedures' list.
"""

from __future__ import annotations

from typing import Literal

from firefight.rulesets.vv.at import (
    elimination_number,
)
from firefight.rulesets.vv.minefield import (
    MINE_ELIMINATES_AT_MOST,
    MINEFIELD,
    VvMinefield,
    minefield,
)
from firefight.rulesets.vv.missions import (
    AIR_BURST_TERRAINS,
    ARTILLERY_MISSIONS,
    ARTILLERY_VS_AFV,
    MORTAR,
    VvArtilleryVsAfv,
    afv_facts,
    afv_modifiers,
    air_burst_casualty_points,
    artillery_vs_afv,
    doubles_casualty_points,
    mission_atfp,
    mission_cell,
)
from firefight.rulesets.vv.natural import activates_sniper
from firefight.rulesets.vv.placement import (
    ARTILLERY_PLACEMENT,
    PlacementMission,
    VvArtilleryPlacement,
    artillery_placement,
    impact,
    impact_odds,
    no_modifiers,
    resolve_impact,
    roll_placement,
)
from firefight.rulesets.vv.rally import (
    RALLY,
    RallyUnit,
    VvRally,
    rally,
    rally_facts,
    rally_modifiers,
    rally_number,
)
from firefight.rulesets.vv.snipers import (
    SNIPER_ATTACK,
    SNIPER_ELIMINATION,
    VvSniperAttack,
    VvSniperElimination,
    sniper_attack,
    sniper_attack_modifiers,
    sniper_cover_field,
    sniper_elimination,
    target_cover_field,
)
from firefight.rulesets.vv.support_charts import (
    DATA,
    DIRECTION_NAMES,
    ArmorClass,
    Mission,
    missions_chart,
    placement_chart,
    rally_chart,
)

__all__ = [
    "AIR_BURST_TERRAINS",
    "ARTILLERY_MISSIONS",
    "ARTILLERY_PLACEMENT",
    "ARTILLERY_VS_AFV",
    "DATA",
    "DIRECTION_NAMES",
    "MINEFIELD",
    "MINE_ELIMINATES_AT_MOST",
    "MORTAR",
    "PROCEDURES",
    "RALLY",
    "SMOKE_HINDRANCE",
    "SNIPER_ATTACK",
    "SNIPER_ELIMINATION",
    "ArmorClass",
    "Mission",
    "PlacementMission",
    "RallyUnit",
    "SmokeMarker",
    "VvArtilleryPlacement",
    "VvArtilleryVsAfv",
    "VvMinefield",
    "VvRally",
    "VvSniperAttack",
    "VvSniperElimination",
    "activates_sniper",
    "afv_facts",
    "afv_modifiers",
    "air_burst_casualty_points",
    "artillery_placement",
    "artillery_vs_afv",
    "doubles_casualty_points",
    "elimination_number",
    "impact",
    "impact_odds",
    "minefield",
    "mission_atfp",
    "mission_cell",
    "missions_chart",
    "no_modifiers",
    "placement_chart",
    "rally",
    "rally_chart",
    "rally_facts",
    "rally_modifiers",
    "rally_number",
    "resolve_impact",
    "roll_placement",
    "smoke_after_action",
    "smoke_hindrance",
    "sniper_attack",
    "sniper_attack_modifiers",
    "sniper_cover_field",
    "sniper_elimination",
    "target_cover_field",
]


# --- Smoke (11) ----------------------------------------------------------------------------------

SmokeMarker = Literal["smoke_1", "smoke_2"]
SMOKE_HINDRANCE: dict[str, int] = {"smoke_1": 1, "smoke_2": 2}
"""11.5: a Smoke 1 marker is a +1 hindrance, Smoke 2 +2, into or through its hex, on top of the
hex's terrain cover; no effect on movement. Smoke has no roll of its own."""


def smoke_hindrance(marker: SmokeMarker) -> int:
    """The hindrance modifier of a Smoke marker (11.5)."""
    return SMOKE_HINDRANCE[marker]


def smoke_after_action(marker: SmokeMarker) -> SmokeMarker | None:
    """The marker left after the After-Action Phase (5.36): Smoke 2 becomes Smoke 1, Smoke 1
    goes."""
    return "smoke_1" if marker == "smoke_2" else None


PROCEDURES = (
    RALLY,
    ARTILLERY_PLACEMENT,
    ARTILLERY_VS_AFV,
    MINEFIELD,
    SNIPER_ATTACK,
    SNIPER_ELIMINATION,
)
