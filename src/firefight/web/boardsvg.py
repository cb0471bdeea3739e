"""A board drawn as inline SVG for the board page: one polygon per hex carrying ``data-hex``
(its printed label, ``CCRR`` or ``D2``) and its printed column and row, so the page's script
can shade what a hex sees and move along the rows and columns (README, "Web calculator").
Colours are :func:`firefight.board.render.terrain_colour`'s, as in the PNG/SVG pictures.

Each terrain also carries a symbol (an SVG pattern over its colour: trees, buildings,
crops, water …, so that it reads without colour too), the legend lists the board's terrains and
hexside features, and hedge, wall, bocage and hedgerow are drawn in different line styles."""

from __future__ import annotations

from dataclasses import dataclass

from firefight.board.board import Board
from firefight.board.render import corners, edge, terrain_colour

SIZE = 30.0
"""Circumradius of a hex in SVG units."""


@dataclass(frozen=True, slots=True)
class HexShape:
    """One hex of the drawing."""

    label: str
    points: str
    fill: str
    x: float
    y: float
    terrain: str
    level: int
    symbol: str = ""
    column: int = 0
    """The printed column and row (the page's arrow keys move along them)."""
    row: int = 0


@dataclass(frozen=True, slots=True)
class SideShape:
    """One hexside feature (hedge, wall, bocage …) as a line."""

    x1: float
    y1: float
    x2: float
    y2: float
    feature: str


SYMBOLS: dict[str, str] = {
    "forest": "trees",
    "woods": "trees",
    "jungle": "trees",
    "palm_grove": "trees",
    "orchard": "orchard",
    "brush": "brush",
    "marsh": "brush",
    "field": "crops",
    "crops": "crops",
    "haystack": "crops",
    "cemetery": "crosses",
    "water_body": "water",
    "waterway": "water",
    "stream": "water",
    "canal": "water",
    "pond": "water",
    "river": "water",
    "ocean": "water",
    "wood_building": "building",
    "stone_building": "building",
    "building": "building",
    "road": "road",
    "bridge": "road",
}
"""The pattern drawn over each terrain's colour (templates/board.html defines the patterns);
open ground has none."""


@dataclass(frozen=True, slots=True)
class LegendEntry:
    """One line of the legend: a terrain (its colour and symbol) or a hexside feature."""

    name: str
    fill: str
    symbol: str
    kind: str
    """``hex`` or ``side``."""


@dataclass(frozen=True, slots=True)
class BoardDrawing:
    """Everything the template needs to draw a board."""

    view_box: str
    width: float
    height: float
    hexes: tuple[HexShape, ...]
    sides: tuple[SideShape, ...]
    legend: tuple[LegendEntry, ...] = ()


def board_svg(board: Board) -> BoardDrawing:
    """The hexes and hexsides of ``board`` in SVG coordinates."""
    hexes = []
    xs: list[float] = []
    ys: list[float] = []
    for h in board.hexes():
        points = corners(h, SIZE, orientation=board.orientation)
        xs.extend(x for x, _ in points)
        ys.extend(y for _, y in points)
        cx, cy = board.centre(h, SIZE)
        column, row = board.column_row(h)
        terrain = board.terrain_of(h)
        level = board.elevation_of(h)
        hexes.append(
            HexShape(
                label=board.label(h),
                points=" ".join(f"{x:.1f},{y:.1f}" for x, y in points),
                fill=terrain_colour(terrain, level, ground=board.default_terrain),
                x=round(cx, 1),
                y=round(cy, 1),
                terrain=terrain,
                level=level,
                symbol=SYMBOLS.get(terrain, ""),
                column=column,
                row=row,
            )
        )
    sides = []
    for (a, b), feature in board.hexsides.items():
        (x1, y1), (x2, y2) = edge(a, b, SIZE, orientation=board.orientation)
        sides.append(SideShape(round(x1, 1), round(y1, 1), round(x2, 1), round(y2, 1), feature))
    terrains = sorted({h.terrain for h in hexes})
    legend = [
        LegendEntry(
            t, terrain_colour(t, 0, ground=board.default_terrain), SYMBOLS.get(t, ""), "hex"
        )
        for t in terrains
    ]
    legend += [
        LegendEntry(f"hill, level {level}", terrain_colour(board.default_terrain, level), "", "hex")
        for level in sorted({h.level for h in hexes if h.level > 0})
    ]
    legend += [LegendEntry(f, "", "", "side") for f in sorted({s.feature for s in sides})]
    left, top = min(xs) - 2, min(ys) - 2
    width, height = max(xs) - left + 2, max(ys) - top + 2
    return BoardDrawing(
        view_box=f"{left:.1f} {top:.1f} {width:.1f} {height:.1f}",
        width=round(width, 1),
        height=round(height, 1),
        hexes=tuple(hexes),
        sides=tuple(sides),
        legend=tuple(legend),
    )
