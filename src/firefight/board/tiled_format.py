"""Tiled's map format as the board convention reads and writes it (:mod:`firefight.board.tiled`):
its constants, the pixel layout of a hexagonal map (either stagger axis) and reading its JSON."""

from __future__ import annotations

import json
import math
import zlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from firefight.board.board import BoardError, board_file_error, read_text
from firefight.board.layout import MapOffset, Orientation, orientation_of
from firefight.core import files
from firefight.i18n import gettext as _

STAGGER_AXES: dict[str, Orientation] = {"x": "flat-top", "y": "pointy-top"}
"""Tiled's ``staggeraxis`` -> the board's ``orientation``: stagger axis X staggers columns
(flat-topped hexes), Y staggers rows (pointy-topped hexes)."""

AXIS_OF: dict[Orientation, str] = {orientation: axis for axis, orientation in STAGGER_AXES.items()}

STAGGER_TO_OFFSET: dict[str, dict[str, MapOffset]] = {
    "x": {"even": "odd-q", "odd": "even-q"},
    "y": {"even": "odd-r", "odd": "even-r"},
}
"""Tiled's ``staggerindex`` (zero-based columns, or rows, shifted) -> the board's ``offset``:
board lines are numbered from 1, so Tiled's even lines 0, 2, ... are the board's odd ones."""

OFFSET_TO_STAGGER: dict[MapOffset, str] = {
    offset: index for by_index in STAGGER_TO_OFFSET.values() for index, offset in by_index.items()
}

GZIP_WBITS = 16 + zlib.MAX_WBITS
"""``zlib``'s window setting that reads a gzip stream (header and checksum)."""

GID_MASK = 0x0FFFFFFF
"""The tile id part of a gid; the four high bits are Tiled's flip and rotation flags."""

TERRAIN_LAYER, ELEVATION_LAYER, HEXSIDES_LAYER = "terrain", "elevation", "hexsides"

TILE_WIDTH, TILE_HEIGHT, HEX_SIDE = 64, 56, 32
"""Tile size of the flat-top maps :func:`~firefight.board.tiled_writer.board_to_tiled` writes:
near-regular flat-topped hexes; a pointy-top map's tiles are the same turned (56 x 64)."""


def tile_size(orientation: Orientation) -> tuple[int, int]:
    """The tile width and height written for a board of this orientation."""
    return (TILE_WIDTH, TILE_HEIGHT) if orientation == "flat-top" else (TILE_HEIGHT, TILE_WIDTH)


HEXSIDE_ENTRIES_PER_HEX = 6
"""The most hexside entries a Tiled map's ``hexsides`` layer may hold, per hex of the map:
polyline vertices, listed ``CCRR/CCRR`` pairs and from/to objects together. A map has fewer
than 3 hexsides per hex, so this draws each one twice over; a layer with more is refused
before its segments are matched to hex corners (each segment is matched on its own, so the
work grows with the vertices a file lists)."""

MAX_TILE_PIXELS = 10_000
"""The largest tile width, tile height and hex side length read (Tiled's own tiles are some
tens of pixels; the bound keeps pixel arithmetic in floats' range)."""


def read_json(path: Path, source: str, what: str) -> object:
    """Parse a JSON file (:func:`firefight.core.files.parse_json`: its values counted, its
    nesting bounded): one-line errors naming the file and the place, never its content."""
    text = read_text(path, source, f"a {what}")
    try:
        return files.parse_json(text, source)
    except files.FileError as error:
        if not error.problem.startswith(_("not JSON ({why})").split("{why}")[0]):
            raise board_file_error(error, source, text, toml=False) from None
    # A syntax error: parsed again up to it only, to name its line and column.
    try:
        json.loads(text)
    except json.JSONDecodeError as error:
        raise BoardError(
            _(
                "{source}: not a readable {what}: line {lineno}, column {colno}: {msg} (JSON "
                "expected)"
            ).format(
                source=source, what=what, lineno=error.lineno, colno=error.colno, msg=error.msg
            )
        ) from None
    except (RecursionError, ValueError):
        pass
    raise BoardError(
        _("{source}: not a readable {what} (JSON expected)").format(source=source, what=what)
    )


@dataclass(frozen=True)
class Tile:
    """What the convention reads from one tile of a tileset."""

    gid: int
    where: str
    properties: Mapping[str, object]
    kind: str


@dataclass(frozen=True)
class Geometry:
    """Tiled's pixel layout of a hexagonal map (its ``HexagonalRenderer``): with stagger axis X
    (``offset`` odd-q or even-q) the columns alternate up and down, with stagger axis Y
    (odd-r or even-r) the rows alternate left and right.

    Tiled rounds the tile size down to even numbers and works in whole pixels; so does this.
    """

    tile_width: int
    tile_height: int
    side: int
    offset: MapOffset

    @property
    def columns_staggered(self) -> bool:
        """Stagger axis X: columns shifted down (flat-topped hexes)."""
        return orientation_of(self.offset) == "flat-top"

    @property
    def side_offset(self) -> int:
        """Width (stagger X) or height (stagger Y) of a slanted edge."""
        if self.columns_staggered:
            return ((self.tile_width & ~1) - self.side) // 2
        return ((self.tile_height & ~1) - self.side) // 2

    @property
    def column_width(self) -> int:
        """Horizontal distance between the left edges of two neighbouring columns."""
        if self.columns_staggered:
            return self.side_offset + self.side
        return self.tile_width & ~1

    @property
    def row_height(self) -> int:
        """Vertical distance between the top edges of two neighbouring rows."""
        if self.columns_staggered:
            return 2 * self.half
        return self.side_offset + self.side

    @property
    def half(self) -> int:
        """How far a staggered line is shifted: half the tile height (stagger X) or width."""
        if self.columns_staggered:
            return (self.tile_height & ~1) // 2
        return (self.tile_width & ~1) // 2

    def shifted(self, line: int) -> bool:
        """Whether the zero-based Tiled column (stagger X) or row (Y) is shifted half a hex."""
        return (line % 2 == 0) == (self.offset in ("odd-q", "odd-r"))

    def corners(self, column: int, row: int) -> list[tuple[int, int]]:
        """The six corners of the tile at zero-based ``(column, row)``, in pixels."""
        s, h = self.side_offset, self.half
        if self.columns_staggered:
            x = column * self.column_width
            y = row * 2 * h + (h if self.shifted(column) else 0)
            w = s * 2 + self.side
            return [
                (x, y + h),
                (x + s, y),
                (x + s + self.side, y),
                (x + w, y + h),
                (x + s + self.side, y + 2 * h),
                (x + s, y + 2 * h),
            ]
        x = column * 2 * h + (h if self.shifted(row) else 0)
        y = row * self.row_height
        return [
            (x, y + s),
            (x + h, y),
            (x + 2 * h, y + s),
            (x + 2 * h, y + s + self.side),
            (x + h, y + 2 * s + self.side),
            (x, y + s + self.side),
        ]

    def edges(self, column: int, row: int) -> set[frozenset[tuple[int, int]]]:
        """The six edges of a tile, each as the pair of its corners."""
        found = self.corners(column, row)
        return {frozenset((found[k], found[(k + 1) % 6])) for k in range(6)}

    def near(self, x: float, y: float) -> Iterator[tuple[int, int]]:
        """The zero-based tiles around a pixel (a 3 x 3 block wide enough for any corner)."""
        column = math.floor(x / self.column_width)
        row = math.floor(y / self.row_height)
        for dc in (-1, 0, 1):
            for dr in (-1, 0, 1):
                yield column + dc, row + dr
