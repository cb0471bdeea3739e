"""The painter of a board's picture on matplotlib axes: terrain fills and symbols,
roads, contours, hexsides, labels, counters, a line of sight with its hindering and blocking
places, visible hexes, and a rule set's overlay (:mod:`firefight.board.render`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from firefight.board.board import Board, hexside
from firefight.board.hexes import Hex
from firefight.board.los import LosVerdict
from firefight.board.map_style import (
    CONTOUR_COLOUR,
    GRID_COLOUR,
    HATCHES,
    HEX_INCHES,
    HEXSIDE_STYLES,
    LEVEL_TINTS,
    ROAD_COLOUR,
    ROADS,
    TERRAIN_COLOURS,
    VERDICT_COLOURS,
    corners,
    darker,
    edge,
    terrain_colour,
)
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
from firefight.board.seen import Seen
from firefight.board.symbols import Symbols
from firefight.errors import InputError

if TYPE_CHECKING:
    from matplotlib.axes import Axes

_PLACE = re.compile(r"\bhex(side)? ([A-Za-z]*[0-9]+)(?:/([A-Za-z]*[0-9]+))?")


class Painter:
    """Draws one board on one matplotlib Axes, layer by layer."""

    def __init__(self, board: Board, axes: Axes, points: float = 72 * HEX_INCHES) -> None:
        self.board = board
        self.axes = axes
        self.points = points
        """Typographic points per unit of hex size (line widths and text scale with it)."""
        self.symbols = Symbols()

    def at(self, h: Hex) -> tuple[float, float]:
        """A hex's centre on the page, as the board is printed."""
        return self.board.centre(h)

    def _corners(self, h: Hex, scale: float = 1.0) -> list[tuple[float, float]]:
        return corners(h, scale=scale, orientation=self.board.orientation)

    def _edge(self, a: Hex, b: Hex) -> tuple[tuple[float, float], tuple[float, float]]:
        return edge(a, b, orientation=self.board.orientation)

    def paint(
        self,
        units: Mapping[Hex, str] | None,
        los: tuple[Hex, Hex, LosVerdict] | None,
        seen: Seen,
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
            points = [self.at(h) for h in chain]
            if len(points) > 1:
                self._stroke(points, colour, 0.1, zorder=9.5)
            for x, y in points:
                self.axes.plot([x], [y], "o", color=colour, ms=0.12 * self.points, zorder=9.6)
        for h, text in notes.items():
            cx, cy = self.at(h)
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
                [self._corners(h) for h in hexes],
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
            Polygon(self._corners(h), closed=True, fc=fill, ec=GRID_COLOUR, lw=0.5, zorder=1)
        )

    def _hex(self, h: Hex) -> None:
        """A hex's symbol, and its level or unknown terrain name (the fill is drawn apart)."""
        terrain = self.board.terrain_of(h)
        level = self.board.elevation_of(h)
        self._symbol(h, terrain)
        if terrain not in TERRAIN_COLOURS:
            cx, cy = self.at(h)
            self.text((cx, cy + 0.25), terrain, 0.16, "#333333", zorder=6)
        if level:
            cx, cy = self.at(h)
            colour = darker(LEVEL_TINTS.get(level, LEVEL_TINTS[max(LEVEL_TINTS)]))
            self.text((cx, cy + 0.66), f"L{level}", 0.2, colour, zorder=6)

    def tile(self, h: Hex) -> None:
        """One hex with its terrain and symbol, as a tile of a tileset (roads as a stub)."""
        self._fill(h)
        self._hex(h)
        self._flush()
        if self.board.terrain_of(h) in ROADS:
            cx, cy = self.at(h)
            self._stroke([(cx - 1.0, cy), (cx + 1.0, cy)], ROAD_COLOUR, 0.22, zorder=2.5)

    def _symbol(self, h: Hex, terrain: str) -> None:
        """The map symbol of a terrain, gathered to be drawn by kind (:mod:`symbols`)."""
        outline = self._corners(h, scale=0.96) if terrain in HATCHES else []
        self.symbols.add(terrain, self.at(h), outline)

    def _flush(self) -> None:
        """Draw the symbols gathered by :meth:`_symbol`."""
        self.symbols.flush(self.axes, self.points)

    def _roads(self) -> None:
        """Roads as a ribbon joining the centres of neighbouring road and bridge hexes.

        Where three road hexes touch each other (a junction, or a road turning), the link that
        does not touch the hex with the most road neighbours is left out, so a crossroads is
        drawn as a cross rather than a knot of triangles.
        """
        board = self.board
        roads = [h for h in board.hexes() if board.terrain_of(h) in ROADS]
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
                cx, cy = self.at(h)
                self._stroke([(cx - 0.4, cy), (cx + 0.4, cy)], ROAD_COLOUR, 0.22, zorder=2.5)

    def _road(self, a: Hex, b: Hex) -> None:
        (ax, ay), (bx, by) = self.at(a), self.at(b)
        middle = ((ax + bx) / 2, (ay + by) / 2)
        for end in (a, b):
            if self.board.terrain_of(end) == "bridge":  # the parapets, within the bridge hex
                self._stroke([self.at(end), middle], "#3a3a3a", 0.36, zorder=2.4)
        self._stroke([self.at(a), self.at(b)], ROAD_COLOUR, 0.22, zorder=2.5)

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
                    self._stroke(list(self._edge(h, n)), CONTOUR_COLOUR, 0.05, zorder=3)

    def _hexsides(self) -> None:
        for (a, b), feature in sorted(self.board.hexsides.items()):
            colour, width = HEXSIDE_STYLES.get(feature, ("#aa00aa", 3.0))
            self._stroke(list(self._edge(a, b)), colour, width / self.points, zorder=4)
            if feature == "wall":  # a wall: grey with a light coping line
                self._stroke(list(self._edge(a, b)), "#b8b8b8", 0.025, zorder=4.1)

    def _label(self, h: Hex) -> None:
        cx, cy = self.at(h)
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
                self._corners(h, scale=0.9),
                closed=True,
                fill=False,
                edgecolor=colour,
                linewidth=width,
                zorder=zorder,
            )
        )

    def _visible(self, hexes: frozenset[Hex], modifiers: Mapping[Hex, int]) -> None:
        from matplotlib.collections import PolyCollection  # noqa: PLC0415

        hidden = [self._corners(h) for h in self.board.hexes() if h not in hexes]
        if hidden:
            shade = PolyCollection(hidden, facecolors="#3c3c3c", edgecolors="none", alpha=0.55)
            self.axes.add_collection(shade, autolim=False).set_zorder(5)
        for h, modifier in sorted(modifiers.items()):
            cx, cy = self.at(h)
            self.text((cx, cy + 0.42), f"{modifier:+d}", 0.3, "#b35900", zorder=7)

    def _los(self, a: Hex, b: Hex, verdict: LosVerdict) -> None:
        colour = VERDICT_COLOURS[verdict.status]
        for hindrance in verdict.hindrances:
            self._mark(hindrance.where, VERDICT_COLOURS["hindered"])
        if verdict.blocked_by:
            self._mark(verdict.blocked_by, VERDICT_COLOURS["blocked"])
        line = [self.at(a), self.at(b)]
        self._stroke(line, "white", 0.16, zorder=8)
        self._stroke(line, colour, 0.09, zorder=8.1)
        for end in (a, b):
            self._ring(end, colour, 2.5, zorder=8.2)

    def _mark(self, reason: str, colour: str) -> None:
        """Outline every hex and hexside a verdict's reason names (``hex 0504``, ``hexside
        0504/0505``)."""
        for match in _PLACE.finditer(reason):
            try:
                first = self.board.locate(match.group(2))
                second = self.board.locate(match.group(3)) if match.group(3) else None
            except InputError:
                continue
            if match.group(1) and second is not None and first.distance(second) == 1:
                self._stroke(list(self._edge(first, second)), colour, 0.12, zorder=7.8)
            elif first in self.board:
                self._ring(first, colour, 2.2, zorder=7.6)

    def _counter(self, h: Hex, text: str) -> None:
        from matplotlib.patches import FancyBboxPatch  # noqa: PLC0415

        cx, cy = self.at(h)
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
                    [self._corners(h) for h, _ in shaded],
                    facecolors=[shade_colour(v) for _, v in shaded],
                    edgecolors="none",
                    alpha=SHADE_ALPHA,
                ),
                autolim=False,
            ).set_zorder(5.5)
        for h, note in sorted(overlay.notes.items()):
            cx, cy = self.at(h)
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
            self._stroke([self.at(h) for h in lane], LANE_COLOUR, 0.05, zorder=8.3, style="--")
        xs, ys = zip(*(self.at(h) for h in lane), strict=True)
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
        points = [self.at(h) for h in path]
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

        cx, cy = self.at(h)
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
