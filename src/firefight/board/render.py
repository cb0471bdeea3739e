"""Pictures of a board: SVG or PNG, drawn the way a printed wargame map looks.

Hexes flat-topped or pointy-topped as the board is printed (:mod:`firefight.board.layout`),
coloured by terrain (with a small symbol for buildings, woods, orchards, fields, roads...), the
hex's label (``CCRR`` or ``D2``) at the top of each hex, hills tinted brown by level (V&V
10.7: "a Level 1 hill hex is brown, and a Level 2 hill hex is dark brown") with a contour line
where the level changes, hexside features as thick coloured strokes on the shared edge, and
optionally unit counters, a line of sight coloured by its verdict and the set of visible hexes.

matplotlib is imported inside :func:`render_board`, so ``import firefight.board`` stays light.
The output is deterministic: fixed size and DPI, no date in the SVG, fixed SVG ids, text kept
as text (so an SVG can be searched for a hex label).

Parts, the public names re-exported here: colours, symbols and the hex on the page
(:mod:`~firefight.board.map_style`), the painter (:mod:`~firefight.board.painter`), what a
picture is asked to show (:mod:`~firefight.board.seen`) and writing the file
(:mod:`~firefight.board.picture_file`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from firefight.board.board import Board, BoardError, TerrainVocabulary, check_drawable
from firefight.board.hexes import Hex
from firefight.board.layout import OFFSETS, Orientation
from firefight.board.los import LosVerdict
from firefight.board.map_style import (
    CONTOUR_COLOUR,
    FALLBACK_COLOUR,
    GRID_COLOUR,
    HEX_INCHES,
    HEXSIDE_STYLES,
    LEVEL_TINTS,
    ROAD_COLOUR,
    TERRAIN_COLOURS,
    VERDICT_COLOURS,
    corners,
    darker,
    edge,
    terrain_colour,
)
from firefight.board.overlay import (
    Overlay,
)
from firefight.board.painter import Painter
from firefight.board.picture_file import DPI, check_writable, write_picture
from firefight.board.seen import Seen, Visible, mentioned_hexes
from firefight.errors import InputError
from firefight.i18n import gettext as _

__all__ = [
    "CONTOUR_COLOUR",
    "DPI",
    "FALLBACK_COLOUR",
    "GRID_COLOUR",
    "HEXSIDE_STYLES",
    "HEX_INCHES",
    "LEVEL_TINTS",
    "MAX_PIXELS",
    "ROAD_COLOUR",
    "TERRAIN_COLOURS",
    "VERDICT_COLOURS",
    "Visible",
    "corners",
    "edge",
    "render_board",
    "render_tileset",
    "terrain_colour",
]


MAX_PIXELS = 4000
"""A picture's longest side in pixels: a large board is drawn at a lower DPI than ``DPI``."""


_SQRT3 = math.sqrt(3)


def render_board(
    board: Board,
    path: Path | str,
    *,
    units: Mapping[Hex, str] | None = None,
    los: tuple[Hex, Hex, LosVerdict] | None = None,
    visible: Visible | None = None,
    origin: Hex | None = None,
    title: str | None = None,
    paths: Sequence[tuple[Sequence[Hex], str]] = (),
    notes: Mapping[Hex, str] | None = None,
    overlay: Overlay | None = None,
) -> Path:
    """Draw ``board`` to ``path`` (``.png`` or ``.svg``, chosen by the suffix) and return it.

    * ``units``: a short label per hex, drawn as a counter;
    * ``los``: ``(from, to, verdict)``, drawn as a line coloured by the verdict (clear green,
      hindered orange, blocked red) with each hindering hex or hexside outlined in orange and
      the blocking one in red;
    * ``visible``: the hexes that can be seen (the LOS tool's answer): a set of hexes, or a
      mapping of each to its verdict (as :func:`~firefight.board.los.visible_from` returns) or
      to its hindrance modifier, or the pair ``(origin, hexes)``. Every other hex is greyed
      out; a hindered hex shows its modifier. ``origin`` (or the pair's) marks the viewpoint;
    * ``paths``: chains of hexes, each drawn centre to centre in its colour (a unit's move);
    * ``notes``: a short text per hex, written under its centre (e.g. a chance).
    * ``overlay``: a rule set's drawing (:class:`~firefight.board.overlay.Overlay`): counters by
      side, a path, fire lanes as chains of markers, hexes shaded by a probability with a
      legend under the title, and a note per hex.

    The file is written whole or not at all.
    """
    target = Path(path)
    kind = target.suffix.lower().lstrip(".")
    if kind not in ("png", "svg"):
        raise InputError("out", "a file name ending in .png or .svg", str(path))
    check_drawable(board)
    check_writable(target)
    seen = Seen.of(visible, origin)
    mentioned = (
        *mentioned_hexes(units, los, seen),
        *(h for p, _ in paths for h in p),
        *(notes or ()),
    )
    _check_on_board(board, (*mentioned, *(overlay.hexes() if overlay else ())))
    _draw(
        board,
        target,
        kind,
        units=units,
        los=los,
        seen=seen,
        title=title,
        paths=paths,
        notes=notes,
        overlay=overlay,
    )
    return target


def _check_on_board(board: Board, hexes: Iterable[Hex]) -> None:
    """Refuse a hex to draw (a counter, a line's end, a path's step...) off ``board``."""
    for hex_ in hexes:
        if hex_ not in board:
            raise BoardError(
                _("{board}: hex {hex} to draw is off the board").format(
                    board=board.name, hex=board.label(hex_)
                )
            )


def _draw(
    board: Board,
    target: Path,
    kind: str,
    *,
    units: Mapping[Hex, str] | None,
    los: tuple[Hex, Hex, LosVerdict] | None,
    seen: Seen,
    title: str | None,
    paths: Sequence[tuple[Sequence[Hex], str]],
    notes: Mapping[Hex, str] | None,
    overlay: Overlay | None,
) -> None:
    """Draw the checked picture of :func:`render_board` with matplotlib and write it."""
    import matplotlib as mpl  # noqa: PLC0415 - keep `import firefight.board` light
    from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: PLC0415
    from matplotlib.figure import Figure  # noqa: PLC0415

    with mpl.rc_context(
        {"svg.hashsalt": "firefight", "svg.fonttype": "none", "font.family": "DejaVu Sans"}
    ):
        outlines = (corners(h, orientation=board.orientation) for h in board.hexes())
        xs, ys = zip(*(xy for outline in outlines for xy in outline), strict=True)
        left, right, top, bottom = min(xs) - 0.3, max(xs) + 0.3, min(ys) - 0.3, max(ys) + 0.3
        lines = _heading_lines(board, title, los)
        legend = overlay is not None and bool(overlay.shading)
        heading = sum(height * 1.6 for _, height, _ in lines) + (0.2 if lines else 0.0)
        heading += 1.0 if legend else 0.0
        size = ((right - left) * HEX_INCHES, (bottom - top + heading) * HEX_INCHES)
        dpi = min(DPI, int(MAX_PIXELS / max(size)))
        figure = Figure(figsize=size, dpi=dpi, facecolor="white")
        FigureCanvasAgg(figure)
        axes = figure.add_axes((0.0, 0.0, 1.0, 1.0))
        axes.set_xlim(left, right)
        axes.set_ylim(bottom, top - heading)
        axes.set_aspect("equal")
        axes.set_axis_off()
        painter = Painter(board, axes)
        painter.paint(units, los, seen)
        painter.overlay(paths, notes or {})
        if overlay is not None:
            painter.rule_overlay(overlay)
        y = top - heading + 0.2
        for text, height, colour in lines:
            y += height * 0.8
            painter.text(((left + right) / 2, y), text, height, colour, zorder=10)
            y += height * 0.8
        if overlay is not None and legend:
            painter.legend(((left + right) / 2, y + 0.45), overlay.legend)
        write_picture(figure, target, kind, dpi=dpi)


def render_tileset(
    vocabulary: TerrainVocabulary,
    path: Path | str,
    *,
    levels: Sequence[int] = (1, 2, 3),
    ruleset: str = "",
    orientation: Orientation = "flat-top",
) -> Path:
    """Draw the tileset image of :func:`firefight.board.tiled.board_to_tiled`: one tile per
    terrain of ``vocabulary`` (sorted by name), then one per level, in a single row of
    ``TILE_WIDTH`` x ``TILE_HEIGHT`` pixel tiles (turned for a pointy-top board's map) on a
    transparent background (PNG)."""
    import matplotlib as mpl  # noqa: PLC0415 - keep `import firefight.board` light
    from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: PLC0415
    from matplotlib.figure import Figure  # noqa: PLC0415
    from matplotlib.patches import Polygon  # noqa: PLC0415

    from firefight.board.tiled_format import tile_size  # noqa: PLC0415

    target = Path(path)
    if target.suffix.lower() != ".png":
        raise InputError("out", "a file name ending in .png", str(path))
    check_writable(target)
    terrains = sorted(vocabulary.hex_terrains)
    count = len(terrains) + len(levels)
    dpi = 100
    width, height = tile_size(orientation)
    across = max(width, height)  # the hex's corner-to-corner width, 2 in hex units
    offset = OFFSETS[orientation][0]
    with mpl.rc_context({"font.family": "DejaVu Sans"}):
        figure = Figure(figsize=(width * count / dpi, height / dpi), dpi=dpi)
        figure.patch.set_alpha(0.0)
        FigureCanvasAgg(figure)
        radius = across / 2 / dpi  # inches
        for index in range(count):
            axes = figure.add_axes((index / count, 0.0, 1 / count, 1.0))
            axes.set_xlim(-width / across, width / across)
            axes.set_ylim(height / across, -height / across)
            axes.set_axis_off()
            axes.patch.set_alpha(0.0)
            here = Hex(0, 0)
            if index < len(terrains):
                name = terrains[index]
                board = Board(
                    "tiles",
                    ruleset,
                    1,
                    1,
                    offset,
                    vocabulary.default_terrain,
                    {here: name},
                    orientation=orientation,
                )
                painter = Painter(board, axes, points=72 * radius)
                painter.tile(here)
                continue
            level = levels[index - len(terrains)]
            tint = LEVEL_TINTS.get(level, LEVEL_TINTS[max(LEVEL_TINTS)])
            outline = corners(here, orientation=orientation)
            axes.add_artist(Polygon(outline, closed=True, fc=tint, ec=CONTOUR_COLOUR, lw=1.5))
            painter = Painter(Board("tiles", ruleset, 1, 1), axes, points=72 * radius)
            painter.text((0.0, 0.0), f"L{level}", 0.7, darker(tint, 0.5), zorder=3)
        write_picture(figure, target, "png", dpi=dpi, transparent=True)
    return target


def _heading_lines(
    board: Board, title: str | None, los: tuple[Hex, Hex, LosVerdict] | None
) -> list[tuple[str, float, str]]:
    """The lines above the map: the title, and the verdict of the line of sight drawn."""
    lines = []
    if title:
        lines.append((title, 0.4, "#111111"))
    if los:
        a, b, verdict = los
        text = f"LOS {board.label(a)} to {board.label(b)}: {verdict}"
        lines.append((text, 0.26, VERDICT_COLOURS[verdict.status]))
    return lines
