"""Pictures of a board: SVG or PNG, drawn the way a printed wargame map looks.

Flat-topped hexes coloured by terrain (with a small symbol for buildings, woods, orchards,
fields, roads...), the ``CCRR`` label at the top of each hex, hills tinted brown by level (V&V
10.7: "a Level 1 hill hex is brown, and a Level 2 hill hex is dark brown") with a contour line
where the level changes, hexside features as thick coloured strokes on the shared edge, and
optionally unit counters, a line of sight coloured by its verdict and the set of visible hexes.

matplotlib is imported inside :func:`render_board`, so ``import firefight.board`` stays light.
The output is deterministic: fixed size and DPI, no date in the SVG, fixed SVG ids, text kept
as text (so an SVG can be searched for a hex label).
"""

from __future__ import annotations

import colorsys
import contextlib
import math
import os
import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from firefight.board.board import Board, BoardError, TerrainVocabulary, check_drawable, hexside
from firefight.board.hexes import Hex, parse_label
from firefight.board.los import LosVerdict
from firefight.board.overlay import (
    LANE_COLOUR,
    MAX_COUNTERS_DRAWN,
    PATH_COLOUR,
    SHADE_ALPHA,
    Counter,
    Overlay,
    legend_stops,
    shade_colour,
    side_colours,
)
from firefight.errors import InputError
from firefight.i18n import gettext as _

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

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
DPI = 150
MAX_PIXELS = 4000
"""A picture's longest side in pixels: a large board is drawn at a lower DPI than ``DPI``."""
HEX_INCHES = 0.42
"""Circumradius of a hex on the picture, in inches (a hex is 0.84 in from corner to corner)."""

Visible = (
    Collection[Hex]
    | Mapping[Hex, LosVerdict]
    | Mapping[Hex, int]
    | tuple[Hex, Collection[Hex] | Mapping[Hex, LosVerdict] | Mapping[Hex, int]]
)
"""What ``render_board(visible=...)`` accepts: see :func:`render_board`."""

_ROOFS = {"stone_building": "#8c8c8c", "wood_building": "#9b5a32", "building": "#b0463a"}
_TREES = {"forest": "#2f6a2a", "woods": "#2f6a2a", "jungle": "#1d5530"}
_GRID = tuple((x, y) for y in (-0.3, 0.05, 0.4) for x in (-0.4, 0.0, 0.4))
_SCATTER = ((-0.4, -0.2), (0.1, -0.35), (0.4, 0.1), (-0.15, 0.25), (0.2, 0.42))
_DOTS: dict[str, tuple[str, float, tuple[tuple[float, float], ...]]] = {
    "orchard": ("#4f8f3a", 0.085, _GRID),
    "palm_grove": ("#3f7f5a", 0.085, _GRID),
    "brush": ("#6f7f3a", 0.07, _SCATTER),
}
_CROWNS = ((-0.35, -0.2, 0.2), (0.25, -0.3, 0.18), (0.0, 0.2, 0.22), (0.42, 0.22, 0.14))
_HATCHES: dict[str, tuple[str, str]] = {
    "field": ("|||", "#c4a23c"),
    "crops": ("||||", "#a88a2a"),
    "marsh": ("--", "#4f86a8"),
    "gully": ("..", "#8a6a3a"),
    "wadi": ("..", "#8a6a3a"),
}
_ROADS = frozenset({"road", "bridge"})
_PLACE = re.compile(r"\bhex(side)? ([0-9]+)(?:/([0-9]+))?")
_SQRT3 = math.sqrt(3)


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


def _darker(colour: str, factor: float = 0.7) -> str:
    h, l_, s = colorsys.rgb_to_hls(*_rgb(colour))
    r, g, b = colorsys.hls_to_rgb(h, l_ * factor, s)
    return "#" + "".join(f"{round(v * 255):02x}" for v in (r, g, b))


def corners(h: Hex, size: float = 1.0, scale: float = 1.0) -> list[tuple[float, float]]:
    """The six corners of a flat-topped hex of circumradius ``size`` (y downwards), clockwise
    from the right; ``scale`` below 1 gives a smaller hex on the same centre."""
    cx, cy = h.centre(size)
    radius = size * scale
    return [
        (cx + radius * math.cos(math.radians(60 * k)), cy + radius * math.sin(math.radians(60 * k)))
        for k in range(6)
    ]


def edge(a: Hex, b: Hex, size: float = 1.0) -> tuple[tuple[float, float], tuple[float, float]]:
    """The two ends of the hexside shared by adjacent hexes ``a`` and ``b``."""
    (ax, ay), (bx, by) = a.centre(size), b.centre(size)
    mx, my = (ax + bx) / 2, (ay + by) / 2
    dx, dy = bx - ax, by - ay
    length = math.hypot(dx, dy)
    px, py = -dy / length * size / 2, dx / length * size / 2
    return (mx + px, my + py), (mx - px, my - py)


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
    _writable(target)
    seen = _Seen.of(visible, origin)
    mentioned = (*_mentioned(units, los, seen), *(h for p, _ in paths for h in p), *(notes or ()))
    for hex_ in (*mentioned, *(overlay.hexes() if overlay else ())):
        if hex_ not in board:
            raise BoardError(
                _("{board}: hex {hex} to draw is off the board").format(
                    board=board.name, hex=board.label(hex_)
                )
            )

    import matplotlib as mpl  # noqa: PLC0415 - keep `import firefight.board` light
    from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: PLC0415
    from matplotlib.figure import Figure  # noqa: PLC0415

    with mpl.rc_context(
        {"svg.hashsalt": "firefight", "svg.fonttype": "none", "font.family": "DejaVu Sans"}
    ):
        xs, ys = zip(*(xy for h in board.hexes() for xy in corners(h)), strict=True)
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
        painter = _Painter(board, axes)
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
        _write(figure, target, kind, dpi=dpi)
    return target


def render_tileset(
    vocabulary: TerrainVocabulary,
    path: Path | str,
    *,
    levels: Sequence[int] = (1, 2, 3),
    ruleset: str = "",
) -> Path:
    """Draw the tileset image of :func:`firefight.board.tiled.board_to_tiled`: one tile per
    terrain of ``vocabulary`` (sorted by name), then one per level, in a single row of
    ``TILE_WIDTH`` x ``TILE_HEIGHT`` pixel tiles on a transparent background (PNG)."""
    import matplotlib as mpl  # noqa: PLC0415 - keep `import firefight.board` light
    from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: PLC0415
    from matplotlib.figure import Figure  # noqa: PLC0415
    from matplotlib.patches import Polygon  # noqa: PLC0415

    from firefight.board.tiled import TILE_HEIGHT, TILE_WIDTH  # noqa: PLC0415

    target = Path(path)
    if target.suffix.lower() != ".png":
        raise InputError("out", "a file name ending in .png", str(path))
    _writable(target)
    terrains = sorted(vocabulary.hex_terrains)
    count = len(terrains) + len(levels)
    dpi = 100
    with mpl.rc_context({"font.family": "DejaVu Sans"}):
        figure = Figure(figsize=(TILE_WIDTH * count / dpi, TILE_HEIGHT / dpi), dpi=dpi)
        figure.patch.set_alpha(0.0)
        FigureCanvasAgg(figure)
        radius = TILE_WIDTH / 2 / dpi  # inches
        for index in range(count):
            axes = figure.add_axes((index / count, 0.0, 1 / count, 1.0))
            axes.set_xlim(-1.0, 1.0)
            axes.set_ylim(TILE_HEIGHT / TILE_WIDTH, -TILE_HEIGHT / TILE_WIDTH)
            axes.set_axis_off()
            axes.patch.set_alpha(0.0)
            here = Hex(0, 0)
            if index < len(terrains):
                name = terrains[index]
                board = Board(
                    "tiles", ruleset, 1, 1, "odd-q", vocabulary.default_terrain, {here: name}
                )
                painter = _Painter(board, axes, points=72 * radius)
                painter.tile(here)
                continue
            level = levels[index - len(terrains)]
            tint = LEVEL_TINTS.get(level, LEVEL_TINTS[max(LEVEL_TINTS)])
            axes.add_artist(Polygon(corners(here), closed=True, fc=tint, ec=CONTOUR_COLOUR, lw=1.5))
            painter = _Painter(Board("tiles", ruleset, 1, 1), axes, points=72 * radius)
            painter.text((0.0, 0.0), f"L{level}", 0.7, _darker(tint, 0.5), zorder=3)
        _write(figure, target, "png", dpi=dpi, transparent=True)
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


@dataclass(frozen=True)
class _Seen:
    """The visible set to draw, whichever shape it was given in."""

    hexes: frozenset[Hex] | None
    modifiers: Mapping[Hex, int]
    origin: Hex | None

    @classmethod
    def of(cls, visible: Visible | None, origin: Hex | None) -> _Seen:
        if (
            isinstance(visible, tuple)
            and len(visible) == 2
            and isinstance(visible[0], Hex)
            and not isinstance(visible[1], Hex)
        ):
            origin, visible = visible[0], visible[1]
        if visible is None:
            return cls(None, {}, origin)
        modifiers: dict[Hex, int] = {}
        if isinstance(visible, Mapping):
            for h, value in visible.items():
                modifier = value.modifier if isinstance(value, LosVerdict) else int(value)
                if modifier:
                    modifiers[h] = modifier
        hexes = frozenset(h for h in visible if isinstance(h, Hex))
        return cls(hexes, modifiers, origin)


def _mentioned(
    units: Mapping[Hex, str] | None, los: tuple[Hex, Hex, LosVerdict] | None, seen: _Seen
) -> Iterable[Hex]:
    yield from units or ()
    if los:
        yield los[0]
        yield los[1]
    yield from seen.hexes or ()
    if seen.origin is not None:
        yield seen.origin


def _write(
    figure: Figure, target: Path, kind: str, *, dpi: int = DPI, transparent: bool = False
) -> None:
    """Save next to the target, then move into place: no half-written file is left behind.

    A place that cannot be written (no such folder, no permission, ``/proc``) is the user's
    error, in one line."""
    temporary = target.with_name(f".{target.name}.{os.getpid()}.part")
    try:
        metadata: dict[str, str | None] = {"Date": None} if kind == "svg" else {}
        figure.savefig(temporary, format=kind, dpi=dpi, metadata=metadata, transparent=transparent)
        temporary.replace(target)
    except OSError as error:
        _remove(temporary)
        raise _unwritable(target, error.strerror) from None
    except BaseException:
        _remove(temporary)
        raise


def _writable(target: Path) -> None:
    """Refuse at once (before drawing) a picture that cannot be written where asked."""
    if not target.parent.is_dir():
        raise _unwritable(target, "no such folder")
    if target.is_dir():
        raise _unwritable(target, "it is a folder")
    if not os.access(target.parent, os.W_OK):
        raise _unwritable(target, "the folder cannot be written to")


def _unwritable(target: Path, reason: str | None) -> InputError:
    return InputError(
        "out",
        f"a file in an existing folder that can be written ({reason or 'error'})",
        str(target),
    )


def _remove(temporary: Path) -> None:
    with contextlib.suppress(OSError):  # nothing was written there
        temporary.unlink(missing_ok=True)


class _Painter:
    """Draws one board on one matplotlib Axes, layer by layer."""

    def __init__(self, board: Board, axes: Axes, points: float = 72 * HEX_INCHES) -> None:
        self.board = board
        self.axes = axes
        self.points = points
        """Typographic points per unit of hex size (line widths and text scale with it)."""
        self._shapes: dict[str, list[list[tuple[float, float]]]] = {}
        self._hatched: dict[tuple[str, str], list[list[tuple[float, float]]]] = {}
        self._discs: dict[tuple[str, str, float], list[tuple[float, float]]] = {}
        self._crosses: list[tuple[float, float]] = []

    def paint(
        self,
        units: Mapping[Hex, str] | None,
        los: tuple[Hex, Hex, LosVerdict] | None,
        seen: _Seen,
    ) -> None:
        """Every layer, bottom to top."""
        self._fills()
        for h in self.board.hexes():
            self._hex(h)
        self._flush()
        self._roads()
        self._contours()
        self._hexsides()
        for h in self.board.hexes():
            self._label(h)
        if seen.hexes is not None:
            self._visible(seen.hexes, seen.modifiers)
        if seen.origin is not None:
            self._ring(seen.origin, "#1f4e9c", 3.0)
        if los:
            self._los(*los)
        for h, text in (units or {}).items():
            self._counter(h, text)

    def overlay(self, paths: Sequence[tuple[Sequence[Hex], str]], notes: Mapping[Hex, str]) -> None:
        """Paths (centre to centre, a dot on each hex) and per-hex notes, over the counters."""
        for chain, colour in paths:
            points = [h.centre() for h in chain]
            if len(points) > 1:
                self._stroke(points, colour, 0.1, zorder=9.5)
            for x, y in points:
                self.axes.plot([x], [y], "o", color=colour, ms=0.12 * self.points, zorder=9.6)
        for h, text in notes.items():
            cx, cy = h.centre()
            self.text((cx, cy + 0.55), text, 0.18, "#8b0000", zorder=9.7)

    # --- terrain -------------------------------------------------------------------------

    def _fills(self) -> None:
        """Every hex's fill and grid line, as one collection (fast on a large board)."""
        from matplotlib.collections import PolyCollection  # noqa: PLC0415

        hexes = list(self.board.hexes())
        fills = [
            terrain_colour(
                self.board.terrain_of(h),
                self.board.elevation_of(h),
                ground=self.board.default_terrain,
            )
            for h in hexes
        ]
        self.axes.add_collection(
            PolyCollection(
                [corners(h) for h in hexes],
                closed=True,
                facecolors=fills,
                edgecolors=GRID_COLOUR,
                linewidths=0.5,
                zorder=1,
            ),
            autolim=False,
        )

    def _fill(self, h: Hex) -> None:
        """One hex's fill and grid line."""
        from matplotlib.patches import Polygon  # noqa: PLC0415

        terrain, level = self.board.terrain_of(h), self.board.elevation_of(h)
        fill = terrain_colour(terrain, level, ground=self.board.default_terrain)
        self.axes.add_artist(
            Polygon(corners(h), closed=True, fc=fill, ec=GRID_COLOUR, lw=0.5, zorder=1)
        )

    def _hex(self, h: Hex) -> None:
        """A hex's symbol, and its level or unknown terrain name (the fill is drawn apart)."""
        terrain = self.board.terrain_of(h)
        level = self.board.elevation_of(h)
        self._symbol(h, terrain)
        if terrain not in TERRAIN_COLOURS:
            cx, cy = h.centre()
            self.text((cx, cy + 0.25), terrain, 0.16, "#333333", zorder=6)
        if level:
            cx, cy = h.centre()
            colour = _darker(LEVEL_TINTS.get(level, LEVEL_TINTS[max(LEVEL_TINTS)]))
            self.text((cx, cy + 0.66), f"L{level}", 0.2, colour, zorder=6)

    def tile(self, h: Hex) -> None:
        """One hex with its terrain and symbol, as a tile of a tileset (roads as a stub)."""
        self._fill(h)
        self._hex(h)
        self._flush()
        if self.board.terrain_of(h) in _ROADS:
            cx, cy = h.centre()
            self._stroke([(cx - 1.0, cy), (cx + 1.0, cy)], ROAD_COLOUR, 0.22, zorder=2.5)

    def _symbol(self, h: Hex, terrain: str) -> None:
        """The map symbol of a terrain: roofs, trees, rows of fruit trees, furrows...

        Symbols are gathered by kind and drawn together by :meth:`_flush` (one artist per
        kind and colour, so a large board stays quick to draw)."""
        cx, cy = h.centre()
        if terrain in _ROOFS:
            for x, y, width, height in ((-0.42, -0.28, 0.5, 0.38), (0.02, 0.02, 0.36, 0.3)):
                left, top = cx + x, cy + y
                box = [(left, top), (left + width, top), (left + width, top + height)]
                self._shapes.setdefault(_ROOFS[terrain], []).append([*box, (left, top + height)])
        elif terrain in _TREES:
            for dx, dy, radius in _CROWNS:
                self._disc(_TREES[terrain], radius, (cx + dx, cy + dy))
        elif terrain in _DOTS:
            colour, radius, spots = _DOTS[terrain]
            for dx, dy in spots:
                self._disc(colour, radius, (cx + dx, cy + dy))
        elif terrain in _HATCHES:
            self._hatched.setdefault(_HATCHES[terrain], []).append(corners(h, scale=0.96))
        elif terrain == "cemetery":
            for dx, dy in ((-0.3, -0.15), (0.0, -0.15), (0.3, -0.15), (-0.15, 0.2), (0.15, 0.2)):
                self._crosses.append((cx + dx, cy + dy))
        elif terrain == "haystack":
            self._disc("#e0b040", 0.22, (cx, cy), edge="#8a6a20")

    def _disc(
        self, colour: str, radius: float, at: tuple[float, float], edge: str = "none"
    ) -> None:
        self._discs.setdefault((colour, edge, radius), []).append(at)

    def _flush(self) -> None:
        """Draw the symbols gathered by :meth:`_symbol`."""
        from matplotlib.collections import PolyCollection  # noqa: PLC0415

        for roof, boxes in sorted(self._shapes.items()):
            self.axes.add_collection(
                PolyCollection(boxes, facecolors=roof, edgecolors="#333333", linewidths=0.6),
                autolim=False,
            ).set_zorder(2)
        for (hatch, colour), shapes in sorted(self._hatched.items()):
            self.axes.add_collection(
                PolyCollection(
                    shapes, facecolors="none", edgecolors=colour, linewidths=0, hatch=hatch
                ),
                autolim=False,
            ).set_zorder(2)
        for (colour, edge, radius), spots in sorted(self._discs.items()):
            xs, ys = zip(*spots, strict=True)
            self.axes.plot(
                xs,
                ys,
                linestyle="none",
                marker="o",
                markersize=2 * radius * self.points,
                markerfacecolor=colour,
                markeredgecolor=edge,
                markeredgewidth=0.6 if edge != "none" else 0.0,
                zorder=2,
            )
        if self._crosses:
            xs, ys = zip(*self._crosses, strict=True)
            self.axes.plot(
                xs,
                ys,
                linestyle="none",
                marker="+",
                markersize=0.2 * self.points,
                markeredgecolor="#555555",
                markeredgewidth=1.2,
                zorder=2,
            )
        self._shapes, self._hatched, self._discs, self._crosses = {}, {}, {}, []

    def _roads(self) -> None:
        """Roads as a ribbon joining the centres of neighbouring road and bridge hexes.

        Where three road hexes touch each other (a junction, or a road turning), the link that
        does not touch the hex with the most road neighbours is left out, so a crossroads is
        drawn as a cross rather than a knot of triangles.
        """
        board = self.board
        roads = [h for h in board.hexes() if board.terrain_of(h) in _ROADS]
        on_road = set(roads)
        links = {hexside(h, n) for h in roads for n in h.neighbours() if n in on_road}
        degree = {h: sum(1 for n in h.neighbours() if n in on_road) for h in roads}
        for a in roads:
            for b, c in ((a.neighbour(d), a.neighbour(d % 6 + 1)) for d in range(1, 7)):
                triangle = (a, b, c)
                if not all(x in on_road for x in triangle):
                    continue
                hub = max(sorted(triangle), key=lambda x: degree[x])
                rest = [x for x in triangle if x != hub]
                pair = hexside(rest[0], rest[1])
                others = [hexside(hub, x) for x in rest]
                if pair in links and all(o in links for o in others):
                    links.discard(pair)
        for a, b in sorted(links):
            self._road(a, b)
        for h in roads:
            if not any(h in link for link in links):
                cx, cy = h.centre()
                self._stroke([(cx - 0.4, cy), (cx + 0.4, cy)], ROAD_COLOUR, 0.22, zorder=2.5)

    def _road(self, a: Hex, b: Hex) -> None:
        (ax, ay), (bx, by) = a.centre(), b.centre()
        middle = ((ax + bx) / 2, (ay + by) / 2)
        for end in (a, b):
            if self.board.terrain_of(end) == "bridge":  # the parapets, within the bridge hex
                self._stroke([end.centre(), middle], "#3a3a3a", 0.36, zorder=2.4)
        self._stroke([a.centre(), b.centre()], ROAD_COLOUR, 0.22, zorder=2.5)

    def _stroke(
        self,
        points: list[tuple[float, float]],
        colour: str,
        width: float,
        zorder: float,
        style: str = "-",
    ) -> None:
        xs, ys = zip(*points, strict=True)
        self.axes.plot(
            xs,
            ys,
            color=colour,
            linewidth=width * self.points,
            solid_capstyle="round",
            linestyle=style,
            zorder=zorder,
        )

    def _contours(self) -> None:
        """A brown line on every hexside where the level changes (the edge of a hill)."""
        for h in self.board.hexes():
            for n in h.neighbours()[:3]:
                if n in self.board and self.board.elevation_of(n) != self.board.elevation_of(h):
                    self._stroke(list(edge(h, n)), CONTOUR_COLOUR, 0.05, zorder=3)

    def _hexsides(self) -> None:
        for (a, b), feature in sorted(self.board.hexsides.items()):
            colour, width = HEXSIDE_STYLES.get(feature, ("#aa00aa", 3.0))
            self._stroke(list(edge(a, b)), colour, width / self.points, zorder=4)
            if feature == "wall":  # a wall: grey with a light coping line
                self._stroke(list(edge(a, b)), "#b8b8b8", 0.025, zorder=4.1)

    def _label(self, h: Hex) -> None:
        cx, cy = h.centre()
        self.text((cx, cy - 0.66), self.board.label(h), 0.2, "#222222", zorder=6)

    def text(
        self, at: tuple[float, float], text: str, height: float, colour: str, *, zorder: float
    ) -> None:
        """Text ``height`` hex units tall, centred on ``at``; never read as mathtext (``$...$``):
        the text may be a scenario's unit names or its title."""
        self.axes.text(
            at[0],
            at[1],
            text,
            fontsize=height * self.points,
            color=colour,
            ha="center",
            va="center",
            zorder=zorder,
            parse_math=False,
        )

    # --- overlays ------------------------------------------------------------------------

    def _ring(self, h: Hex, colour: str, width: float, zorder: float = 7.5) -> None:
        from matplotlib.patches import Polygon  # noqa: PLC0415

        self.axes.add_artist(
            Polygon(
                corners(h, scale=0.9),
                closed=True,
                fill=False,
                edgecolor=colour,
                linewidth=width,
                zorder=zorder,
            )
        )

    def _visible(self, hexes: frozenset[Hex], modifiers: Mapping[Hex, int]) -> None:
        from matplotlib.collections import PolyCollection  # noqa: PLC0415

        hidden = [corners(h) for h in self.board.hexes() if h not in hexes]
        if hidden:
            shade = PolyCollection(hidden, facecolors="#3c3c3c", edgecolors="none", alpha=0.55)
            self.axes.add_collection(shade, autolim=False).set_zorder(5)
        for h, modifier in sorted(modifiers.items()):
            cx, cy = h.centre()
            self.text((cx, cy + 0.42), f"{modifier:+d}", 0.3, "#b35900", zorder=7)

    def _los(self, a: Hex, b: Hex, verdict: LosVerdict) -> None:
        colour = VERDICT_COLOURS[verdict.status]
        for hindrance in verdict.hindrances:
            self._mark(hindrance.where, VERDICT_COLOURS["hindered"])
        if verdict.blocked_by:
            self._mark(verdict.blocked_by, VERDICT_COLOURS["blocked"])
        line = [a.centre(), b.centre()]
        self._stroke(line, "white", 0.16, zorder=8)
        self._stroke(line, colour, 0.09, zorder=8.1)
        for end in (a, b):
            self._ring(end, colour, 2.5, zorder=8.2)

    def _mark(self, reason: str, colour: str) -> None:
        """Outline every hex and hexside a verdict's reason names (``hex 0504``, ``hexside
        0504/0505``)."""
        for match in _PLACE.finditer(reason):
            try:
                first = parse_label(match.group(2), self.board.offset)
                second = parse_label(match.group(3), self.board.offset) if match.group(3) else None
            except InputError:
                continue
            if match.group(1) and second is not None and first.distance(second) == 1:
                self._stroke(list(edge(first, second)), colour, 0.12, zorder=7.8)
            elif first in self.board:
                self._ring(first, colour, 2.2, zorder=7.6)

    def _counter(self, h: Hex, text: str) -> None:
        from matplotlib.patches import FancyBboxPatch  # noqa: PLC0415

        cx, cy = h.centre()
        self.axes.add_artist(
            FancyBboxPatch(
                (cx - 0.36, cy - 0.32),
                0.72,
                0.64,
                boxstyle="round,pad=0.02,rounding_size=0.06",
                fc="#f3e3b3",
                ec="#222222",
                lw=1.0,
                zorder=9,
            )
        )
        height = 0.22 if len(text) <= 4 else 0.88 / len(text)
        self.text((cx, cy), text, height, "#111111", zorder=9.1)

    # --- a rule set's overlay (firefight.board.overlay) -----------------------------------

    def rule_overlay(self, overlay: Overlay) -> None:
        """Shading, notes, lanes, path and counters, bottom to top."""
        from matplotlib.collections import PolyCollection  # noqa: PLC0415

        shaded = sorted(overlay.shading.items())
        if shaded:
            self.axes.add_collection(
                PolyCollection(
                    [corners(h) for h, _ in shaded],
                    facecolors=[shade_colour(v) for _, v in shaded],
                    edgecolors="none",
                    alpha=SHADE_ALPHA,
                ),
                autolim=False,
            ).set_zorder(5.5)
        for h, note in sorted(overlay.notes.items()):
            cx, cy = h.centre()
            self.text((cx, cy + 0.45), note, 0.22, "#111111", zorder=7)
        for lane in overlay.lanes:
            self._lane(lane)
        if overlay.path:
            self._path(overlay.path)
        for h, stack in overlay.stacks().items():
            self._stack(h, stack)

    def _lane(self, lane: tuple[Hex, ...]) -> None:
        """A fire lane: a dashed line through its markers, one diamond per hex."""
        if len(lane) > 1:
            self._stroke([h.centre() for h in lane], LANE_COLOUR, 0.05, zorder=8.3, style="--")
        xs, ys = zip(*(h.centre() for h in lane), strict=True)
        self.axes.plot(
            xs,
            ys,
            linestyle="none",
            marker="D",
            markersize=0.28 * self.points,
            markerfacecolor=LANE_COLOUR,
            markeredgecolor="white",
            markeredgewidth=0.8,
            zorder=8.4,
        )

    def _path(self, path: tuple[Hex, ...]) -> None:
        """A move: a line from hex centre to hex centre, the first hex ringed, the last
        marked with an arrow head, each step numbered."""
        points = [h.centre() for h in path]
        if len(points) > 1:
            self._stroke(points, "white", 0.2, zorder=8.5)
            self._stroke(points, PATH_COLOUR, 0.11, zorder=8.6)
            (ax, ay), (bx, by) = points[-2], points[-1]
            self.axes.annotate(
                "",
                xy=(bx, by),
                xytext=(ax + (bx - ax) * 0.5, ay + (by - ay) * 0.5),
                arrowprops={"arrowstyle": "-|>", "color": PATH_COLOUR, "lw": 2.0},
                zorder=8.7,
            )
        self._ring(path[0], PATH_COLOUR, 3.0, zorder=8.6)
        for step, (x, y) in enumerate(points[1:], start=1):
            self.text((x + 0.45, y + 0.3), str(step), 0.2, PATH_COLOUR, zorder=8.8)

    def _stack(self, h: Hex, stack: list[Counter]) -> None:
        """A stack of counters, each offset up and right from the one under it; the top one
        carries its text, its state and, past :data:`MAX_COUNTERS_DRAWN`, ``+N``."""
        from matplotlib.patches import FancyBboxPatch  # noqa: PLC0415

        cx, cy = h.centre()
        shown = stack[-MAX_COUNTERS_DRAWN:]
        for depth, counter in enumerate(shown):
            fill, ink = side_colours(counter.side)
            x, y = cx - 0.42 + 0.08 * depth, cy - 0.3 - 0.08 * depth
            self.axes.add_artist(
                FancyBboxPatch(
                    (x, y),
                    0.7,
                    0.58,
                    boxstyle="round,pad=0.02,rounding_size=0.05",
                    fc=fill,
                    ec=ink,
                    lw=1.0,
                    zorder=9 + depth * 0.01,
                )
            )
        top = shown[-1]
        _, ink = side_colours(top.side)
        x, y = cx - 0.07 + 0.08 * (len(shown) - 1), cy - 0.01 - 0.08 * (len(shown) - 1)
        height = 0.22 if len(top.text) <= 5 else 1.1 / len(top.text)
        self.text((x, y - 0.07), top.text, height, ink, zorder=9.2)
        below = top.state + (f" +{len(stack) - 1}" if len(stack) > 1 else "")
        if below.strip():
            text = below.strip()
            self.text((x, y + 0.16), text, min(0.15, 1.0 / len(text)), ink, zorder=9.2)

    def legend(self, at: tuple[float, float], title: str) -> None:
        """The shading's legend: its title, then swatches from 0% to 100%."""
        from matplotlib.patches import Rectangle  # noqa: PLC0415

        x, y = at
        stops = legend_stops()
        width = 0.9
        start = x - width * len(stops) / 2
        self.text((x, y - 0.3), title, 0.22, "#111111", zorder=10)
        for k, (value, colour) in enumerate(stops):
            left = start + k * width
            self.axes.add_artist(
                Rectangle((left, y - 0.1), width, 0.3, fc=colour, ec="#555555", lw=0.5, zorder=10)
            )
            self.text((left + width / 2, y + 0.38), f"{value:.0%}", 0.16, "#111111", zorder=10)
