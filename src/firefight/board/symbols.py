"""Terrain symbols on a board's picture: roofs, trees, rows of fruit trees, furrows, crosses...

Symbols are gathered by kind and drawn together (one artist per kind and colour, so a large
board stays quick to draw) by :class:`firefight.board.painter.Painter`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from firefight.board.map_style import CROWNS, DOTS, HATCHES, ROOFS, TREES

if TYPE_CHECKING:
    from matplotlib.axes import Axes


class Symbols:
    """The symbols of the hexes drawn so far, by kind."""

    def __init__(self) -> None:
        self._shapes: dict[str, list[list[tuple[float, float]]]] = {}
        self._hatched: dict[tuple[str, str], list[list[tuple[float, float]]]] = {}
        self._discs: dict[tuple[str, str, float], list[tuple[float, float]]] = {}
        self._crosses: list[tuple[float, float]] = []

    def add(
        self, terrain: str, at: tuple[float, float], outline: list[tuple[float, float]]
    ) -> None:
        """The symbol of ``terrain`` on the hex centred ``at`` (``outline``: the hex's corners,
        for a hatched terrain)."""
        cx, cy = at
        if terrain in ROOFS:
            for x, y, width, height in ((-0.42, -0.28, 0.5, 0.38), (0.02, 0.02, 0.36, 0.3)):
                left, top = cx + x, cy + y
                box = [(left, top), (left + width, top), (left + width, top + height)]
                self._shapes.setdefault(ROOFS[terrain], []).append([*box, (left, top + height)])
        elif terrain in TREES:
            for dx, dy, radius in CROWNS:
                self._disc(TREES[terrain], radius, (cx + dx, cy + dy))
        elif terrain in DOTS:
            colour, radius, spots = DOTS[terrain]
            for dx, dy in spots:
                self._disc(colour, radius, (cx + dx, cy + dy))
        elif terrain in HATCHES:
            self._hatched.setdefault(HATCHES[terrain], []).append(outline)
        elif terrain == "cemetery":
            for dx, dy in ((-0.3, -0.15), (0.0, -0.15), (0.3, -0.15), (-0.15, 0.2), (0.15, 0.2)):
                self._crosses.append((cx + dx, cy + dy))
        elif terrain == "haystack":
            self._disc("#e0b040", 0.22, (cx, cy), edge="#8a6a20")

    def _disc(
        self, colour: str, radius: float, at: tuple[float, float], edge: str = "none"
    ) -> None:
        self._discs.setdefault((colour, edge, radius), []).append(at)

    def flush(self, axes: Axes, points: float) -> None:
        """Draw the symbols gathered so far on ``axes`` (``points`` per hex unit), and forget
        them."""
        from matplotlib.collections import PolyCollection  # noqa: PLC0415

        for roof, boxes in sorted(self._shapes.items()):
            axes.add_collection(
                PolyCollection(boxes, facecolors=roof, edgecolors="#333333", linewidths=0.6),
                autolim=False,
            ).set_zorder(2)
        for (hatch, colour), shapes in sorted(self._hatched.items()):
            axes.add_collection(
                PolyCollection(
                    shapes, facecolors="none", edgecolors=colour, linewidths=0, hatch=hatch
                ),
                autolim=False,
            ).set_zorder(2)
        for (colour, rim, radius), spots in sorted(self._discs.items()):
            xs, ys = zip(*spots, strict=True)
            axes.plot(
                xs,
                ys,
                linestyle="none",
                marker="o",
                markersize=2 * radius * points,
                markerfacecolor=colour,
                markeredgecolor=rim,
                markeredgewidth=0.6 if rim != "none" else 0.0,
                zorder=2,
            )
        if self._crosses:
            xs, ys = zip(*self._crosses, strict=True)
            axes.plot(
                xs,
                ys,
                linestyle="none",
                marker="+",
                markersize=0.2 * points,
                markeredgecolor="#555555",
                markeredgewidth=1.2,
                zorder=2,
            )
        self._shapes, self._hatched, self._discs, self._crosses = {}, {}, {}, []
