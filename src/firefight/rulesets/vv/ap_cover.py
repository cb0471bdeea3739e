"""The AP attack's charts and cover (V&V 14.5, 13.4, 20): the AP Combat Table, the
Terrain Effects Chart and the fortifications, the kinds of attack (fire, mortar, support
missions, 12.63 and 21.5) and the cover a target hex's terrain and fortification give.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Literal

from firefight.core.chart import Chart, load_chart
from firefight.rulesets.vv.support import MORTAR

DATA = Path(__file__).parent / "data"


AttackKind = Literal["fire", "mortar", "fighter_bomber", "light_barrage", "heavy_barrage"]


TargetTerrain = Literal[
    "open",
    "road",
    "field",
    "building",
    "woods",
    "jungle",
    "stream",
    "gully",
    "wadi",
    "orchard",
    "crops",
]


Fortification = Literal[
    "none", "concrete_bunker", "wood_earth_bunker", "sandbags", "foxhole", "trench", "cave"
]


FirerKind = Literal["none", "squad", "half_squad", "leader"]


INFANTRY_ATTACKS = frozenset({"fire", MORTAR})
"""Attacks made by on-board units: the row is their APFP, leaders modify them (13.6, 12.61),
and a natural 2 or 12 calls for valor checks or a sniper (16.2, 17.2)."""


SUPPORT_MISSIONS = frozenset({"fighter_bomber", "light_barrage", "heavy_barrage"})
"""Off-board artillery and air support missions (21)."""


TARGET_HEX_ONLY = SUPPORT_MISSIONS | {MORTAR}
"""Attacks that only the target hex's terrain modifies: no hindrance along a line or at the
target's hexsides (21.5 support missions; 12.63 mortars)."""


ENTRENCHMENTS = frozenset({"foxhole", "trench", "cave"})
"""20.9-20.11: the entrenchments."""


FORTIFICATIONS_OPEN_ONLY = frozenset({"concrete_bunker", "wood_earth_bunker", "sandbags"})
"""20.5, 20.6: fortifications that hold units; 20.2 places fortifications in open terrain only."""


OPEN_TERRAINS = frozenset({"open", "road", "field", "beach"})
"""20.2: "Fortifications may only be placed in open terrain hexes, including open hill, road,
beach and field hexes" (a hill is its level: give the hex's other terrain). Not an orchard,
crops, haystack or palm grove hex, whose +1 is a hindrance rather than cover, nor a bridge."""


NO_ENTRENCHMENT_TERRAINS = frozenset(
    {"building", "stream", "gully", "wadi", "canal", "pond", "marsh"}
)
"""20.2: "Entrenchments may be placed in any hex except buildings, stream, gully or wadi,
canal, pond or marsh hexes"."""


TERRAIN_ROWS: dict[str, str] = {
    "open": "Open Ground, Beach, River Bank and Desert",
    "road": "Roads and Bridges",
    "field": "Farmland (Open)",
    "building": "Buildings",
    "woods": "Woods and Jungle",
    "jungle": "Woods and Jungle",
    "stream": "Stream, Gully and Wadi",
    "gully": "Stream, Gully and Wadi",
    "wadi": "Stream, Gully and Wadi",
    "orchard": "Orchard, Hay Stack and Palm Grove",
    "crops": "Farmland (Crops)",
}


BOARD_TERRAINS: dict[str, str] = {
    "haystack": "orchard",
    "palm_grove": "orchard",
    "bridge": "road",
    "beach": "open",
    "canal": "open",
    "pond": "open",
    "marsh": "open",
    "ocean": "open",
    "river": "open",
}
"""A V&V board's terrains that share a row of the Terrain Effects Summary with a
``target_terrain``: "Orchard, Hay Stack and Palm Grove" (+1, a hindrance), "Roads and Bridges",
"Open Ground, Beach, River Bank and Desert" and "Canal, Pond, Marsh, Ocean or River" (no cover)."""


FORTIFICATION_ROWS: dict[str, str] = {
    "concrete_bunker": "Concrete bunker",
    "wood_earth_bunker": "Wood/earth bunker",
    "sandbags": "Sandbags",
    "foxhole": "Foxhole",
    "trench": "Trench",
    "cave": "Cave",
}


COLOUR_ROWS: dict[str, str] = {
    "fighter_bomber": "19-28",
    "light_barrage": "29-40",
    "heavy_barrage": "41+",
}
"""The AP Combat Table row of each air or artillery attack, read from the chart's colours."""


@cache
def ap_combat_table() -> Chart:
    """The AP Combat Table v2.0, loaded once from ``data/ap_combat.toml``."""
    return load_chart(DATA / "ap_combat.toml")


@cache
def terrain_effects() -> Chart:
    """The Terrain Effects Summary, from ``data/terrain_effects.toml``."""
    return load_chart(DATA / "terrain_effects.toml")


@cache
def fortifications() -> Chart:
    """Chapter 20's fortifications and entrenchments, from ``data/fortifications.toml``."""
    return load_chart(DATA / "fortifications.toml")


def _printed_modifier(text: str) -> int:
    """A cover cell as a number: "+3" is 3; "None", "-" and the hindrance "+1 Cum." are 0."""
    return int(text) if text.lstrip("+-").isdigit() else 0


def terrain_cover(terrain: str) -> int:
    """13.4: the target hex's cover modifier from the Terrain Effects Summary."""
    return _printed_modifier(
        terrain_effects().cell_at(TERRAIN_ROWS[terrain], "Cover Modifier").value
    )


def fortification_cover(position: str) -> int:
    """13.4, 20.5-20.11: the fortification's or entrenchment's cover modifier."""
    if position == "none":
        return 0
    return _printed_modifier(
        fortifications().cell_at(FORTIFICATION_ROWS[position], "Cover Modifier").value
    )
