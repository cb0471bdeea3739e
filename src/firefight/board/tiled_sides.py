"""Reading a Tiled map's hexsides layer (:mod:`firefight.board.tiled`): each object's feature
and where it lies, from its ``from``/``to`` labels, a listed ``hexsides`` property, or its own
shape drawn along hex edges (polyline or polygon vertices matched to hex corners).

:class:`SideReader` also holds what every part of the reading shares: the map, its size and
offset, its labels, and the one-line errors."""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Mapping

from firefight.board.board import BoardError, shown
from firefight.board.layout import Labels, MapOffset, format_place, orientation_of
from firefight.board.tiled_format import HEXSIDE_ENTRIES_PER_HEX, MAX_TILE_PIXELS, Geometry
from firefight.translation import gettext as _

_PAIR = re.compile(r"[\s,;]+")


class SideReader:
    """One pass over one Tiled map's hexsides, raising BoardError on the first thing wrong."""

    def __init__(self, tiled: Mapping[str, object], source: str) -> None:
        self.tiled = tiled
        self.source = source
        self.width = 0
        self.height = 0
        self.offset: MapOffset = "odd-q"
        self.labels: Labels = "numbers"
        self.drawn = 0
        """Hexside entries read so far (vertices, listed pairs, from/to objects)."""

    def fail(self, message: str) -> BoardError:
        return BoardError(_("{source}: {message}").format(source=self.source, message=message))

    def label(self, column: int, row: int) -> str:
        """The board label of a zero-based Tiled column and row (``0101`` or ``A1`` for the
        top-left tile)."""
        width = max(2, len(str(max(self.width, self.height))))
        orientation = orientation_of(self.offset)
        text = format_place(column + 1, row + 1, orientation, self.labels, width)
        return text if text is not None else f"({column + 1},{row + 1})"

    def properties(self, raw: object, owner: str) -> dict[str, object]:
        """Custom properties: a list of ``{name, type, value}`` (or an old-style mapping)."""
        if raw is None:
            return {}
        if isinstance(raw, Mapping):
            return {str(k): v for k, v in raw.items()}
        if not isinstance(raw, list):
            raise self.fail(f"{owner}: properties must be a list (got {shown(raw)})")
        found: dict[str, object] = {}
        for entry in raw:
            if not isinstance(entry, Mapping) or not isinstance(entry.get("name"), str):
                raise self.fail(
                    f"{owner}: a property must have a name and a value (got {shown(entry)})"
                )
            found[str(entry["name"])] = entry.get("value")
        return found

    def _hexsides(self, layer: Mapping[str, object]) -> dict[str, object]:
        objects = layer.get("objects", [])
        if not isinstance(objects, list):
            raise self.fail("layer 'hexsides': 'objects' must be a list")
        found: dict[str, object] = {}
        placed: dict[frozenset[str], tuple[object, str]] = {}
        for thing in objects:
            if not isinstance(thing, Mapping):
                raise self.fail(
                    f"layer 'hexsides': an object must be an object (got {shown(thing)})"
                )
            number = thing.get("id", "?")
            who = f"layer 'hexsides', object {number if isinstance(number, int) else shown(number)}"
            if thing.get("name"):
                who += f" ({shown(thing['name'])})"
            properties = self.properties(thing.get("properties"), who)
            feature = properties.get("feature", thing.get("class", thing.get("type")))
            if not feature:
                raise self.fail(f"{who}: no 'feature' property (got none)")
            if not isinstance(feature, str):
                raise self.fail(
                    f"{who}: 'feature' must be a string, a feature name (got {shown(feature)})"
                )
            for key in self._object_sides(thing, properties, who):
                pair = frozenset(key.split("/"))
                if pair in placed and placed[pair][0] != feature:
                    other, by = placed[pair]
                    raise self.fail(
                        f"{who}: hexside {key} is {shown(feature)} here but {shown(other)} in {by}"
                    )
                placed[pair] = (feature, who)
                found[key] = feature
        return found

    def _count(self, entries: int, who: str) -> None:
        """Count hexside entries against :data:`HEXSIDE_ENTRIES_PER_HEX` x the map's hexes,
        before they are read: each segment of a polyline costs a search for its corners."""
        self.drawn += entries
        limit = HEXSIDE_ENTRIES_PER_HEX * self.width * self.height
        if self.drawn > limit:
            raise self.fail(
                f"{who}: the layer draws more than {limit} hexsides, vertices or pairs in all "
                f"(a {self.width} x {self.height} map has fewer than "
                f"{3 * self.width * self.height} hexsides)"
            )

    def _object_sides(
        self, thing: Mapping[str, object], properties: Mapping[str, object], who: str
    ) -> list[str]:
        if "from" in properties or "to" in properties:
            self._count(1, who)
            start, end = properties.get("from"), properties.get("to")
            if not isinstance(start, str) or not isinstance(end, str):
                raise self.fail(
                    f"{who}: 'from' and 'to' must both be hex labels "
                    f"(got {shown(start)}, {shown(end)})"
                )
            return [f"{start.strip()}/{end.strip()}"]
        if "hexsides" in properties:
            listed = properties["hexsides"]
            if not isinstance(listed, str) or not listed.strip():
                raise self.fail(
                    f"{who}: 'hexsides' must list CCRR/CCRR pairs (got {shown(listed)})"
                )
            pairs = [pair for pair in _PAIR.split(listed.strip()) if pair]
            self._count(len(pairs), who)
            return pairs
        points = self._points(thing, who)
        return [self._edge(a, b, who) for a, b in itertools.pairwise(points)]

    def _points(self, thing: Mapping[str, object], who: str) -> list[tuple[float, float]]:
        """The absolute vertices of a polyline (or closed polygon) object, in pixels."""
        shape = thing.get("polyline", thing.get("polygon"))
        if not isinstance(shape, list) or len(shape) < 2:
            raise self.fail(
                f"{who}: give 'from' and 'to' hex labels, a 'hexsides' list, "
                "or draw it as a polyline along hex edges"
            )
        self._count(len(shape), who)
        x0, y0 = self._number(thing.get("x", 0), who), self._number(thing.get("y", 0), who)
        turn = math.radians(self._number(thing.get("rotation", 0), who))
        cos, sin = math.cos(turn), math.sin(turn)
        reach = self._reach()
        points = []
        for point in shape:
            if not isinstance(point, Mapping):
                raise self.fail(f"{who}: a point must have x and y (got {shown(point)})")
            px, py = self._number(point.get("x"), who), self._number(point.get("y"), who)
            x, y = x0 + px * cos - py * sin, y0 + px * sin + py * cos
            if not (abs(x) <= reach and abs(y) <= reach):  # NaN and infinities too
                raise self.fail(
                    f"{who}: the point ({x:g}, {y:g}) lies too far off the map "
                    f"(coordinates must be finite numbers within {reach} pixels of its origin)"
                )
            points.append((x, y))
        if "polygon" in thing and "polyline" not in thing:
            points.append(points[0])
        return points

    def _reach(self) -> int:
        """How far from the map's origin, in pixels, a vertex may lie: twice the map's own
        extent (its tiles' count along its longer side, plus one, times the larger tile side).
        A vertex past it is on no corner of the map; refused there, a huge finite one (1e300)
        never reaches the corner search, whose integer columns and float distances it would
        overflow."""
        geometry = self._geometry()
        tile = max(geometry.tile_width, geometry.tile_height)
        return 2 * (max(self.width, self.height) + 1) * tile

    def _number(self, value: object, who: str) -> float:
        """A coordinate: a finite number (JSON lets a file write ``NaN``, ``Infinity`` or
        ``1e400``, which reads as infinite; an integer may be too large for a float)."""
        if not isinstance(value, int | float) or isinstance(value, bool):
            raise self.fail(f"{who}: coordinates must be numbers (got {shown(value)})")
        try:
            number = float(value)
        except OverflowError:
            number = math.inf
        if not math.isfinite(number):
            raise self.fail(f"{who}: coordinates must be finite numbers (got {shown(value)})")
        return number

    def _geometry(self) -> Geometry:
        values = [self.tiled.get(k) for k in ("tilewidth", "tileheight", "hexsidelength")]
        width, height, side = values
        if not all(
            isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= MAX_TILE_PIXELS
            for v in values
        ):
            raise self.fail(
                f"tilewidth, tileheight, hexsidelength must be integers from 0 to "
                f"{MAX_TILE_PIXELS} (got {', '.join(shown(v) for v in values)})"
            )
        assert isinstance(width, int)
        assert isinstance(height, int)
        assert isinstance(side, int)
        if not 0 < side < width or height < 2:
            raise self.fail(
                f"hexsidelength must be above 0 and below tilewidth {width} (got {side})"
            )
        return Geometry(width, height, side, self.offset)

    def _edge(self, a: tuple[float, float], b: tuple[float, float], who: str) -> str:
        """The hexside a segment runs along: its ends must be the two corners of one edge."""
        geometry = self._geometry()
        slant = math.hypot(geometry.side_offset, geometry.half)
        tolerance = 0.3 * min(geometry.side, slant)
        ends = []
        for x, y in (a, b):
            corner = self._corner(geometry, x, y, tolerance)
            if corner is None:
                raise self.fail(
                    f"{who}: the point ({x:g}, {y:g}) is not on a hex corner "
                    "(draw each segment from corner to corner along one hex edge)"
                )
            ends.append(corner)
        wanted = frozenset(ends)
        tiles = [
            (c, r)
            for c, r in geometry.near((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
            if 0 <= c < self.width and 0 <= r < self.height and wanted in geometry.edges(c, r)
        ]
        segment = f"({a[0]:g}, {a[1]:g})-({b[0]:g}, {b[1]:g})"
        if len(tiles) == 2:
            return "/".join(self.label(c, r) for c, r in sorted(tiles))
        if len(tiles) == 1:
            raise self.fail(
                f"{who}: the segment {segment} lies on the edge of the map, "
                f"beside hex {self.label(*tiles[0])} only"
            )
        raise self.fail(f"{who}: the segment {segment} is not one hex edge")

    def _corner(
        self, geometry: Geometry, x: float, y: float, tolerance: float
    ) -> tuple[int, int] | None:
        best: tuple[float, tuple[int, int]] | None = None
        for column, row in geometry.near(x, y):
            for corner in geometry.corners(column, row):
                distance = math.hypot(corner[0] - x, corner[1] - y)
                if distance <= tolerance and (best is None or distance < best[0]):
                    best = (distance, corner)
        return best[1] if best else None
