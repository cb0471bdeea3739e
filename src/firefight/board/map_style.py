"""How a board's picture looks, the way a printed wargame map does: the colours of
terrain, hills (V&V 10.7: "a Level 1 hill hex is brown, and a Level 2 hill hex is dark brown"),
hexside features, roads and verdicts, the symbols' layouts, and the flat-topped hex on the page
(:mod:`firefight.board.render`, its colours and geometry).
"""

from __future__ import annotations

import colorsys
import math

from firefight.board.hexes import Hex
from firefight.board.layout import Orientation, centre, first_corner_degrees

TERRAIN_COLOURS: dict[str, str] = {
    # open ground
    "clear": "#e6e7c3",
    "open": "#e6e7c3",
    "beach": "#f1e4b3",
    # farmland
    "field": "#e9d27c",
    "crops": "#e2c35a",
    "haystack": "#e6e7c3",
    "brush": "#bccb84",
    # trees
    "forest": "#4e8a43",
    "woods": "#4e8a43",
    "jungle": "#2f7344",
    "orchard": "#c9dd98",
    "palm_grove": "#c9dd98",
    # buildings (the hex is the yard; the roof is drawn on it)
    "wood_building": "#ddd5bd",
    "stone_building": "#ddd5bd",
    "building": "#ddd5bd",
    "cemetery": "#c7cdb4",
    # roads
    "road": "#e6e7c3",
    "bridge": "#8fc1e3",
    # water and low ground
    "water_body": "#6fa8d6",
    "pond": "#6fa8d6",
    "canal": "#6fa8d6",
    "river": "#5b9bd0",
    "ocean": "#4a86c0",
    "waterway": "#8fc1e3",
    "stream": "#a9d1ea",
    "marsh": "#a7c4b5",
    "gully": "#d3bd8f",
    "wadi": "#dcc79a",
}
"""Fill colour of each terrain name of the EPT and V&V vocabularies."""


FALLBACK_COLOUR = "#d8d8d8"
"""The fill of a terrain name missing from :data:`TERRAIN_COLOURS` (its name is printed)."""


HEXSIDE_STYLES: dict[str, tuple[str, float]] = {
    "hedge": ("#3f9b3a", 4.0),
    "wall": ("#5c5c5c", 4.0),
    "bocage": ("#1d4a1d", 7.0),
    "hedgerow": ("#1d4a1d", 7.0),
}
"""Colour and line width (points at the default hex size) of each hexside feature."""


LEVEL_TINTS: dict[int, str] = {1: "#c9a36b", 2: "#9a6b3c", 3: "#7a5030"}
"""Hill colours by level: brown, dark brown (V&V 10.7), darker above."""


VERDICT_COLOURS: dict[str, str] = {"clear": "#1a9e3a", "hindered": "#f08c00", "blocked": "#d7191c"}
"""Colour of a line of sight by its status."""


ROAD_COLOUR = "#b08850"


GRID_COLOUR = "#6b6b5a"


CONTOUR_COLOUR = "#6b4423"


HEX_INCHES = 0.42
"""Circumradius of a hex on the picture, in inches (a hex is 0.84 in from corner to corner)."""


ROOFS = {"stone_building": "#8c8c8c", "wood_building": "#9b5a32", "building": "#b0463a"}


TREES = {"forest": "#2f6a2a", "woods": "#2f6a2a", "jungle": "#1d5530"}


_GRID = tuple((x, y) for y in (-0.3, 0.05, 0.4) for x in (-0.4, 0.0, 0.4))


_SCATTER = ((-0.4, -0.2), (0.1, -0.35), (0.4, 0.1), (-0.15, 0.25), (0.2, 0.42))


DOTS: dict[str, tuple[str, float, tuple[tuple[float, float], ...]]] = {
    "orchard": ("#4f8f3a", 0.085, _GRID),
    "palm_grove": ("#3f7f5a", 0.085, _GRID),
    "brush": ("#6f7f3a", 0.07, _SCATTER),
}


CROWNS = ((-0.35, -0.2, 0.2), (0.25, -0.3, 0.18), (0.0, 0.2, 0.22), (0.42, 0.22, 0.14))


HATCHES: dict[str, tuple[str, str]] = {
    "field": ("|||", "#c4a23c"),
    "crops": ("||||", "#a88a2a"),
    "marsh": ("--", "#4f86a8"),
    "gully": ("..", "#8a6a3a"),
    "wadi": ("..", "#8a6a3a"),
}


ROADS = frozenset({"road", "bridge"})


def terrain_colour(terrain: str, level: int = 0, *, ground: str = "clear") -> str:
    """The fill of a hex: its terrain colour, browned by its hill level.

    Open ground on a hill takes the hill colour itself; any other terrain keeps its own colour
    mixed with the hill colour, so woods on a hill still read as woods.
    """
    base = TERRAIN_COLOURS.get(terrain, FALLBACK_COLOUR)
    if level <= 0:
        return base
    tint = LEVEL_TINTS.get(level, LEVEL_TINTS[max(LEVEL_TINTS)])
    if terrain in (ground, "clear", "open", "field", "road"):
        share = 0.85 if terrain in ("clear", "open") else 0.5
    else:
        share = 0.35
    return _mix(base, tint, share)


def _mix(colour: str, other: str, share: float) -> str:
    a, b = _rgb(colour), _rgb(other)
    mixed = tuple(x * (1 - share) + y * share for x, y in zip(a, b, strict=True))
    return "#" + "".join(f"{round(v * 255):02x}" for v in mixed)


def _rgb(colour: str) -> tuple[float, float, float]:
    text = colour.lstrip("#")
    r, g, b = (int(text[i : i + 2], 16) / 255 for i in (0, 2, 4))
    return r, g, b


def darker(colour: str, factor: float = 0.7) -> str:
    h, l_, s = colorsys.rgb_to_hls(*_rgb(colour))
    r, g, b = colorsys.hls_to_rgb(h, l_ * factor, s)
    return "#" + "".join(f"{round(v * 255):02x}" for v in (r, g, b))


def corners(
    h: Hex, size: float = 1.0, scale: float = 1.0, orientation: Orientation = "flat-top"
) -> list[tuple[float, float]]:
    """The six corners of a hex of circumradius ``size`` as printed (y downwards), clockwise
    from the right (flat-top) or from the lower right (pointy-top); ``scale`` below 1 gives a
    smaller hex on the same centre."""
    cx, cy = centre(h, orientation, size)
    radius = size * scale
    start = first_corner_degrees(orientation)
    return [
        (
            cx + radius * math.cos(math.radians(start + 60 * k)),
            cy + radius * math.sin(math.radians(start + 60 * k)),
        )
        for k in range(6)
    ]


def edge(
    a: Hex, b: Hex, size: float = 1.0, orientation: Orientation = "flat-top"
) -> tuple[tuple[float, float], tuple[float, float]]:
    """The two ends of the hexside shared by adjacent hexes ``a`` and ``b`` as printed."""
    (ax, ay), (bx, by) = centre(a, orientation, size), centre(b, orientation, size)
    mx, my = (ax + bx) / 2, (ay + by) / 2
    dx, dy = bx - ax, by - ay
    length = math.hypot(dx, dy)
    px, py = -dy / length * size / 2, dx / length * size / 2
    return (mx + px, my + py), (mx - px, my - py)
