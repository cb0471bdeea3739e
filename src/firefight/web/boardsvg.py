"""A board drawn as inline SVG for the board page: one polygon per hex carrying ``data-hex``
(its ``CCRR`` label) so the page's script can shade what a hex sees (issue 8, the board page).
Colours are :func:`firefight.board.render.terrain_colour`'s, as in the PNG/SVG pictures."""

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


@dataclass(frozen=True, slots=True)
class SideShape:
    """One hexside feature (hedge, wall, bocage …) as a line."""

    x1: float
    y1: float
    x2: float
    y2: float
    feature: str


@dataclass(frozen=True, slots=True)
class BoardDrawing:
    """Everything the template needs to draw a board."""

    view_box: str
    width: float
    height: float
    hexes: tuple[HexShape, ...]
    sides: tuple[SideShape, ...]


def board_svg(board: Board) -> BoardDrawing:
    """The hexes and hexsides of ``board`` in SVG coordinates."""
    hexes = []
    xs: list[float] = []
    ys: list[float] = []
    for h in board.hexes():
        points = corners(h, SIZE)
        xs.extend(x for x, _ in points)
        ys.extend(y for _, y in points)
        cx, cy = h.centre(SIZE)
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
            )
        )
    sides = []
    for (a, b), feature in board.hexsides.items():
        (x1, y1), (x2, y2) = edge(a, b, SIZE)
        sides.append(SideShape(round(x1, 1), round(y1, 1), round(x2, 1), round(y2, 1), feature))
    left, top = min(xs) - 2, min(ys) - 2
    width, height = max(xs) - left + 2, max(ys) - top + 2
    return BoardDrawing(
        view_box=f"{left:.1f} {top:.1f} {width:.1f} {height:.1f}",
        width=round(width, 1),
        height=round(height, 1),
        hexes=tuple(hexes),
        sides=tuple(sides),
    )
