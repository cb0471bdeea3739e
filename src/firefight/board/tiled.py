"""Boards drawn in the Tiled map editor (https://www.mapeditor.org), read from its JSON format.

A Tiled map is turned into the same mapping a TOML board file gives, and that mapping is
validated by :func:`~firefight.board.board.board_from_data`, so a Tiled board obeys exactly the
rules of a hand-written one. The convention (``docs/boards.md`` shows it step by step):

* the map is **hexagonal** with **stagger axis X** (flat-topped hexes standing in columns, as
  firefight draws them); stagger axis Y (pointy-topped hexes in rows) is refused;
* Tiled's zero-based tile column ``x`` and row ``y`` are the board's column ``x + 1`` and row
  ``y + 1`` (Tiled's top-left tile is hex ``0101``). Tiled shifts down the columns whose index
  ``x`` is odd (stagger index ``odd``) or even (``even``); board columns are numbered from 1, so
  stagger index ``even`` (Tiled columns 0, 2, ... = board columns 01, 03, ...) is the board
  offset ``odd-q`` and stagger index ``odd`` is ``even-q``;
* map custom properties: ``ruleset`` (required: ``ept``, ``vv``...), ``name`` (default: the file
  name without its extension) and ``default_terrain`` (default: the rule set's);
* a tile layer named ``terrain``: each tile's terrain is the tile's string property ``terrain``
  (or, failing that, the tile's class, called type before Tiled 1.9); an empty cell is the
  default terrain;
* an optional tile layer named ``elevation``: each tile's int property ``elevation``; an empty
  cell is level 0;
* an optional object layer named ``hexsides``: each object gives a hexside feature (its string
  property ``feature``, or its class) and where it lies: string properties ``from`` and ``to``
  (two adjacent hex labels), or a property ``hexsides`` listing ``CCRR/CCRR`` pairs, or else the
  object's own shape: a polyline or polygon drawn along hex edges, one edge per segment, its
  vertices on hex corners;
* other layers (a background image, notes) are ignored. Layers may sit inside group layers.

Layer data may be CSV (a JSON array) or base64, uncompressed or zlib/gzip compressed. Tilesets
may be embedded or external JSON files (``.tsj``/``.json``); an external XML tileset (``.tsx``)
must be embedded or saved as JSON. :func:`board_to_tiled` writes a board back out as such a map.
"""

from __future__ import annotations

import base64
import bisect
import itertools
import json
import math
import re
import zlib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from firefight.board.board import (
    Board,
    BoardError,
    TerrainVocabulary,
    board_file_error,
    board_from_data,
    check_size,
    read_text,
    shown,
)
from firefight.board.hexes import Hex, Offset, from_offset, to_offset
from firefight.core import files
from firefight.i18n import gettext as _

if TYPE_CHECKING:
    from firefight.board.los import LosPolicy

STAGGER_TO_OFFSET: dict[str, Offset] = {"even": "odd-q", "odd": "even-q"}
"""Tiled's ``staggerindex`` (zero-based columns shifted down) -> the board's ``offset``."""

OFFSET_TO_STAGGER: dict[str, str] = {offset: index for index, offset in STAGGER_TO_OFFSET.items()}

GZIP_WBITS = 16 + zlib.MAX_WBITS
"""``zlib``'s window setting that reads a gzip stream (header and checksum)."""

GID_MASK = 0x0FFFFFFF
"""The tile id part of a gid; the four high bits are Tiled's flip and rotation flags."""

TERRAIN_LAYER, ELEVATION_LAYER, HEXSIDES_LAYER = "terrain", "elevation", "hexsides"

TILE_WIDTH, TILE_HEIGHT, HEX_SIDE = 64, 56, 32
"""Tile size of the maps :func:`board_to_tiled` writes: near-regular flat-topped hexes."""

_PAIR = re.compile(r"[\s,;]+")
_END = object()


def load_tiled(path: Path, policies: Mapping[str, LosPolicy]) -> tuple[Board, LosPolicy]:
    """Load a Tiled JSON map as a board, with the policy of the rule set it names."""
    source = path.name
    data = _read_json(path, source, "Tiled JSON map")
    if not isinstance(data, dict):
        raise BoardError(
            _("{source}: not a Tiled JSON map (the file is not a JSON object)").format(
                source=source
            )
        )
    board_data = tiled_to_data(data, source, folder=path.parent, stem=path.stem)
    ruleset = board_data.get("ruleset")
    if not isinstance(ruleset, str) or ruleset not in policies:
        allowed = ", ".join(policies)
        raise BoardError(
            _("{source}: map property 'ruleset' must be one of {allowed} (got {value})").format(
                source=source, allowed=allowed, value=shown(ruleset)
            )
        )
    policy = policies[ruleset]
    return board_from_data(board_data, policy, source), policy


def tiled_to_data(
    tiled: Mapping[str, object], source: str, *, folder: Path | None = None, stem: str = "board"
) -> dict[str, object]:
    """The TOML-shaped mapping of a parsed Tiled map (for :func:`board_from_data`).

    ``folder`` is where external tilesets are looked for; ``stem`` names the board when the map
    has no ``name`` property.
    """
    reader = _Reader(tiled, source, folder)
    return reader.board_data(stem)


# --- reading ---------------------------------------------------------------------------------


HEXSIDE_ENTRIES_PER_HEX = 6
"""The most hexside entries a Tiled map's ``hexsides`` layer may hold, per hex of the map:
polyline vertices, listed ``CCRR/CCRR`` pairs and from/to objects together. A map has fewer
than 3 hexsides per hex, so this draws each one twice over; a layer with more is refused
before its segments are matched to hex corners (some 0.1 ms each: a 10 MiB polyline of
600,000 vertices took over 20 s)."""

MAX_TILE_PIXELS = 10_000
"""The largest tile width, tile height and hex side length read (Tiled's own tiles are some
tens of pixels; the bound keeps pixel arithmetic in floats' range)."""


def _read_json(path: Path, source: str, what: str) -> object:
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
            f"{source}: not a readable {what}: line {error.lineno}, column {error.colno}: "
            f"{error.msg} (JSON expected)"
        ) from None
    except (RecursionError, ValueError):
        pass
    raise BoardError(f"{source}: not a readable {what} (JSON expected)")


@dataclass(frozen=True)
class _Tile:
    """What the convention reads from one tile of a tileset."""

    gid: int
    where: str
    properties: Mapping[str, object]
    kind: str


@dataclass(frozen=True)
class Geometry:
    """Tiled's pixel layout of a hexagonal map with stagger axis X (its ``HexagonalRenderer``).

    Tiled rounds the tile size down to even numbers and works in whole pixels; so does this.
    """

    tile_width: int
    tile_height: int
    side: int
    offset: Offset

    @property
    def side_offset(self) -> int:
        """Width of a slanted edge: the horizontal distance from a corner to the top edge."""
        return ((self.tile_width & ~1) - self.side) // 2

    @property
    def column_width(self) -> int:
        """Horizontal distance between the left edges of two neighbouring columns."""
        return self.side_offset + self.side

    @property
    def half(self) -> int:
        """Half the tile height: how far a staggered column is shifted down."""
        return (self.tile_height & ~1) // 2

    def shifted(self, column: int) -> bool:
        """Whether the zero-based Tiled column is shifted down half a hex."""
        return (column % 2 == 0) == (self.offset == "odd-q")

    def corners(self, column: int, row: int) -> list[tuple[int, int]]:
        """The six corners of the tile at zero-based ``(column, row)``, in pixels."""
        x = column * self.column_width
        y = row * 2 * self.half + (self.half if self.shifted(column) else 0)
        s, w, h = self.side_offset, self.side_offset * 2 + self.side, self.half
        return [
            (x, y + h),
            (x + s, y),
            (x + s + self.side, y),
            (x + w, y + h),
            (x + s + self.side, y + 2 * h),
            (x + s, y + 2 * h),
        ]

    def edges(self, column: int, row: int) -> set[frozenset[tuple[int, int]]]:
        """The six edges of a tile, each as the pair of its corners."""
        found = self.corners(column, row)
        return {frozenset((found[k], found[(k + 1) % 6])) for k in range(6)}

    def near(self, x: float, y: float) -> Iterator[tuple[int, int]]:
        """The zero-based tiles around a pixel (a 3 x 3 block wide enough for any corner)."""
        column = math.floor(x / self.column_width)
        row = math.floor(y / (2 * self.half))
        for dc in (-1, 0, 1):
            for dr in (-1, 0, 1):
                yield column + dc, row + dr


class _Reader:
    """One pass over one Tiled map, raising BoardError on the first thing that is wrong."""

    def __init__(self, tiled: Mapping[str, object], source: str, folder: Path | None) -> None:
        self.tiled = tiled
        self.source = source
        self.folder = folder
        self.width = 0
        self.height = 0
        self.offset: Offset = "odd-q"
        self.tiles: list[tuple[int, dict[int, _Tile], int | None, str]] = []
        self.drawn = 0
        """Hexside entries read so far (vertices, listed pairs, from/to objects)."""

    def fail(self, message: str) -> BoardError:
        return BoardError(f"{self.source}: {message}")

    def label(self, column: int, row: int) -> str:
        """The board label of a zero-based Tiled column and row."""
        width = max(2, len(str(max(self.width, self.height))))
        return f"{column + 1:0{width}d}{row + 1:0{width}d}"

    def board_data(self, stem: str) -> dict[str, object]:
        self._header()
        properties = self._properties(self.tiled.get("properties"), "map")
        self._tilesets()
        layers = self._layers()
        data: dict[str, object] = {
            "name": properties.get("name", stem),
            "ruleset": properties.get("ruleset"),
            "columns": self.width,
            "rows": self.height,
            "offset": self.offset,
        }
        if "default_terrain" in properties:
            data["default_terrain"] = properties["default_terrain"]
        hexes: dict[str, dict[str, object]] = {}
        terrain = layers.get(TERRAIN_LAYER)
        if terrain is None:
            raise self.fail("no tile layer named 'terrain' (the convention's terrain layer)")
        for where, tile in self._cells(terrain, TERRAIN_LAYER):
            hexes.setdefault(where, {})["terrain"] = self._terrain(tile, where)
        elevation = layers.get(ELEVATION_LAYER)
        if elevation is not None:
            for where, tile in self._cells(elevation, ELEVATION_LAYER):
                hexes.setdefault(where, {})["elevation"] = self._elevation(tile, where)
        data["hexes"] = hexes
        sides = layers.get(HEXSIDES_LAYER)
        data["hexsides"] = self._hexsides(sides) if sides is not None else {}
        return data

    def _header(self) -> None:
        tiled = self.tiled
        if tiled.get("type", "map") != "map":
            raise self.fail(f"not a Tiled map (its type is {shown(tiled.get('type'))})")
        if tiled.get("orientation") != "hexagonal":
            raise self.fail(
                f"orientation must be hexagonal (got {shown(tiled.get('orientation'))}): "
                "make the map with File > New > New Map, Orientation: Hexagonal"
            )
        if tiled.get("staggeraxis") != "x":
            raise self.fail(
                "only staggeraxis x is supported (flat-topped hexes in columns); "
                f"got {shown(tiled.get('staggeraxis'))}"
            )
        index = tiled.get("staggerindex")
        if not isinstance(index, str) or index not in STAGGER_TO_OFFSET:
            raise self.fail(f"staggerindex must be one of odd, even (got {shown(index)})")
        self.offset = STAGGER_TO_OFFSET[index]
        if tiled.get("infinite"):
            raise self.fail(
                "infinite maps are not supported: uncheck Map > Map Properties > Infinite"
            )
        sizes = []
        for key in ("width", "height"):
            value = tiled.get(key)
            if not isinstance(value, int) or isinstance(value, bool):
                raise self.fail(f"map '{key}' must be an integer (got {shown(value)})")
            sizes.append(value)
        self.width, self.height = sizes
        check_size(self.width, self.height, self.source, ("width", "height"))

    def _properties(self, raw: object, owner: str) -> dict[str, object]:
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

    # --- tilesets ----------------------------------------------------------------------------

    def _tilesets(self) -> None:
        raw = self.tiled.get("tilesets", [])
        if not isinstance(raw, list):
            raise self.fail("'tilesets' must be a list")
        for entry in raw:
            if not isinstance(entry, Mapping):
                raise self.fail(f"a tileset must be an object (got {shown(entry)})")
            first = entry.get("firstgid")
            if not isinstance(first, int) or isinstance(first, bool) or first < 1:
                raise self.fail(
                    f"a tileset's firstgid must be a positive integer (got {shown(first)})"
                )
            if "source" in entry:
                # an external tileset is named by its file, never by what the file says
                name, tileset = self._external(entry["source"])
            else:
                given = entry.get("name")
                name, tileset = (given if isinstance(given, str) else "?"), entry
            tiles: dict[int, _Tile] = {}
            for tile in self._tile_entries(tileset, name):
                local = tile.get("id") if isinstance(tile, Mapping) else None
                if not isinstance(tile, Mapping) or not isinstance(local, int):
                    raise self.fail(f"tileset {shown(name)}: a tile must have an integer id")
                if isinstance(local, bool) or local < 0:
                    raise self.fail(f"tileset {shown(name)}: a tile must have an integer id")
                where = f"tile {first + local} (tileset {shown(name)}, tile id {local})"
                kind = tile.get("class", tile.get("type", ""))
                tiles[local] = _Tile(
                    first + local,
                    where,
                    self._properties(tile.get("properties"), where),
                    kind if isinstance(kind, str) else "",
                )
            count = tileset.get("tilecount")
            self.tiles.append((first, tiles, count if isinstance(count, int) else None, name))
        self.tiles.sort(key=lambda t: t[0])

    def _tile_entries(self, tileset: Mapping[str, object], name: str) -> list[object]:
        """A tileset's tiles as Tiled 1.2 and later list them (``{"id", "properties", ...}``),
        also from the form before 1.2: ``tiles`` a mapping from local id to tile, and the
        properties apart, in ``tileproperties`` (``{"<local id>": {"terrain": "woods"}}``)."""
        raw_tiles = tileset.get("tiles", [])
        old = tileset.get("tileproperties")
        if isinstance(raw_tiles, list) and old is None:
            return raw_tiles
        if isinstance(raw_tiles, list) and not raw_tiles:
            raw_tiles = {}
        if not isinstance(raw_tiles, Mapping) or not isinstance(old, Mapping | None):
            raise self.fail(
                f"tileset {shown(name)}: 'tiles' must be a list (Tiled 1.2 or later), or "
                "'tiles' and 'tileproperties' mappings from tile ids (before 1.2)"
            )
        entries: dict[str, dict[str, object]] = {}
        for key, tile in raw_tiles.items():
            entries[str(key)] = dict(tile) if isinstance(tile, Mapping) else {}
        for key, properties in (old or {}).items():
            entries.setdefault(str(key), {})["properties"] = properties
        found: list[object] = []
        for key, entry in entries.items():
            if not key.isascii() or not key.isdigit() or len(key) > len(str(GID_MASK)):
                raise self.fail(
                    f"tileset {shown(name)}: a tile id must be an integer (got {shown(key)})"
                )
            found.append({**entry, "id": int(key)})
        return found

    def _external(self, source: object) -> tuple[str, Mapping[str, object]]:
        """An external JSON tileset, read from the map's own folder (or one below it) and from
        nowhere else: not by an absolute path, not up through ``..``, not out through a link.
        Its errors name the file and the place in it, never a value read from it."""
        if not isinstance(source, str) or not source.strip():
            raise self.fail(f"a tileset's 'source' must be a file name (got {shown(source)})")
        name = source
        if not name.lower().endswith((".json", ".tsj")):
            raise self.fail(
                f"external tileset {shown(name)} is not JSON: embed it in the map "
                "(Map > Embed Tilesets) or save it as a .tsj file"
            )
        if self.folder is None:
            raise self.fail(f"external tileset {shown(name)}: no folder to read it from")
        inside = (
            f"external tileset {shown(name)} must be a file in the map's own folder or one below it"
        )
        try:
            path = files.named_inside(self.folder, name, (".json", ".tsj"))
        except files.FileError as error:
            if error.reason == "link":
                raise self.fail(f"{inside}; it is a link that leads out of it") from None
            if error.reason == "missing":
                raise self.fail(
                    f"external tileset {shown(name)}: no such file beside the map"
                ) from None
            raise self.fail(
                f"{inside} (no absolute path, no '..'); copy it beside the map"
            ) from None
        data = _read_json(path, f"{self.source}: external tileset {shown(name)}", "JSON tileset")
        if not isinstance(data, Mapping):
            raise self.fail(f"external tileset {shown(name)} is not a JSON object")
        return name, data

    def _tile(self, gid: int, where: str, layer: str) -> _Tile:
        """The tile of a gid (flip flags dropped), or an error naming the hex."""
        tile_id = gid & GID_MASK
        # the tileset with the largest firstgid not above the id, found by bisection: a map
        # may list a hundred thousand tilesets
        index = bisect.bisect_right(self.tiles, tile_id, key=lambda t: t[0]) - 1
        if index >= 0:
            first, tiles, count, name = self.tiles[index]
            local = tile_id - first
            if count is None or local < count:
                return tiles.get(
                    local,
                    _Tile(
                        tile_id, f"tile {tile_id} (tileset {shown(name)}, tile id {local})", {}, ""
                    ),
                )
        raise self.fail(f"layer {layer!r}, hex {where}: tile {tile_id} is in no tileset")

    def _terrain(self, tile: _Tile, where: str) -> object:
        if "terrain" in tile.properties:
            value = tile.properties["terrain"]
            if not isinstance(value, str):
                raise self.fail(
                    f"layer 'terrain', hex {where}: {tile.where}: property 'terrain' must be a "
                    f"string, a terrain name (got {shown(value)})"
                )
            return value
        if tile.kind:
            return tile.kind
        raise self.fail(
            f"layer 'terrain', hex {where}: {tile.where} has no 'terrain' property (got none)"
        )

    def _elevation(self, tile: _Tile, where: str) -> object:
        if "elevation" not in tile.properties:
            raise self.fail(
                f"layer 'elevation', hex {where}: {tile.where} has no 'elevation' property "
                "(got none)"
            )
        value = tile.properties["elevation"]
        if not isinstance(value, int) or isinstance(value, bool):
            raise self.fail(
                f"layer 'elevation', hex {where}: {tile.where}: property 'elevation' must be an "
                f"integer from 0 to 9 (got {shown(value)})"
            )
        return value

    # --- layers ------------------------------------------------------------------------------

    def _layers(self) -> dict[str, Mapping[str, object]]:
        found: dict[str, Mapping[str, object]] = {}
        for layer in self._walk(self.tiled.get("layers", [])):
            given = layer.get("name", "")
            if not isinstance(given, str):
                raise self.fail(f"a layer's name must be a string (got {shown(given)})")
            name = given.strip().lower()
            if name not in (TERRAIN_LAYER, ELEVATION_LAYER, HEXSIDES_LAYER):
                continue
            if name in found:
                raise self.fail(f"two layers are named {shown(name)}")
            wanted = "objectgroup" if name == HEXSIDES_LAYER else "tilelayer"
            if layer.get("type") != wanted:
                raise self.fail(
                    f"layer {name!r} must be a {wanted} (got {shown(layer.get('type'))})"
                )
            found[name] = layer
        return found

    def _walk(self, layers: object) -> Iterator[Mapping[str, object]]:
        """Every layer that is not a group, in order, however deep the groups nest (walked
        with a stack of iterators, not by recursion, so depth costs no Python stack)."""
        if not isinstance(layers, list):
            raise self.fail("'layers' must be a list")
        stack: list[Iterator[object]] = [iter(layers)]
        while stack:
            layer = next(stack[-1], _END)
            if layer is _END:
                stack.pop()
                continue
            if not isinstance(layer, Mapping):
                raise self.fail(f"a layer must be an object (got {shown(layer)})")
            if layer.get("type") == "group":
                inner = layer.get("layers", [])
                if not isinstance(inner, list):
                    raise self.fail(
                        f"group layer {shown(layer.get('name'))}: 'layers' must be a list "
                        f"(got {shown(inner)})"
                    )
                stack.append(iter(inner))
            else:
                yield layer

    def _cells(self, layer: Mapping[str, object], name: str) -> Iterator[tuple[str, _Tile]]:
        """Each non-empty cell of a tile layer: its hex label and its tile."""
        for key, expected in (("width", self.width), ("height", self.height)):
            if layer.get(key, expected) != expected:
                raise self.fail(
                    f"layer {name!r}: {key} must be the map's {expected} "
                    f"(got {shown(layer.get(key))})"
                )
        gids = self._gids(layer, name)
        for index, gid in enumerate(gids):
            if gid & GID_MASK == 0:
                continue
            row, column = divmod(index, self.width)
            where = self.label(column, row)
            yield where, self._tile(gid, where, name)

    def _gids(self, layer: Mapping[str, object], name: str) -> list[int]:
        raw = layer.get("data")
        if isinstance(raw, list):
            gids = raw
        elif isinstance(raw, str):
            gids = self._decode(raw, layer, name)
        else:
            raise self.fail(f"layer {name!r}: 'data' must be a list of tile ids (got {shown(raw)})")
        for index, gid in enumerate(gids):
            if not isinstance(gid, int) or isinstance(gid, bool) or gid < 0:
                where = self.label(*reversed(divmod(index, self.width)))
                raise self.fail(
                    f"layer {name!r}, hex {where}: tile id must be an integer (got {shown(gid)})"
                )
        if len(gids) != self.width * self.height:
            raise self.fail(
                f"layer {name!r}: {len(gids)} tiles for a {self.width} x {self.height} map"
            )
        return [int(g) for g in gids]

    def _decode(self, text: str, layer: Mapping[str, object], name: str) -> list[int]:
        if layer.get("encoding") != "base64":
            raise self.fail(
                f"layer {name!r}: encoding must be csv or base64 "
                f"(got {shown(layer.get('encoding'))})"
            )
        try:
            raw = base64.b64decode(text, validate=True)
            compression = layer.get("compression", "")
            if compression == "zlib":
                raw = self._inflate(raw, zlib.MAX_WBITS, name)
            elif compression == "gzip":
                raw = self._inflate(raw, GZIP_WBITS, name)
            elif compression:
                raise self.fail(
                    f"layer {name!r}: compression must be none, zlib or gzip "
                    f"(got {shown(compression)})"
                )
        except (ValueError, zlib.error, OSError, EOFError) as error:
            raise self.fail(f"layer {name!r}: tile data cannot be decoded ({error})") from None
        if len(raw) % 4:
            raise self.fail(f"layer {name!r}: tile data is not a whole number of 4-byte ids")
        return [int.from_bytes(raw[i : i + 4], "little") for i in range(0, len(raw), 4)]

    def _inflate(self, packed: bytes, wbits: int, name: str) -> bytes:
        """Decompress a zlib or gzip layer, never to more than the map's ``width x height``
        tiles of 4 bytes: a "decompression bomb" (a small stream that unpacks to gigabytes) is
        refused after reading one byte past that size."""
        size = self.width * self.height * 4
        inflater = zlib.decompressobj(wbits)
        raw = inflater.decompress(packed, size + 1)
        if len(raw) > size:
            raise self.fail(
                f"layer {name!r}: tile data unpacks to more than the {size} bytes of a "
                f"{self.width} x {self.height} map (4 bytes a tile)"
            )
        if not inflater.eof:
            raise self.fail(f"layer {name!r}: tile data cannot be decoded (it is cut short)")
        return raw

    # --- hexsides ----------------------------------------------------------------------------

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
            properties = self._properties(thing.get("properties"), who)
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
        points = []
        for point in shape:
            if not isinstance(point, Mapping):
                raise self.fail(f"{who}: a point must have x and y (got {shown(point)})")
            px, py = self._number(point.get("x"), who), self._number(point.get("y"), who)
            x, y = x0 + px * cos - py * sin, y0 + px * sin + py * cos
            if not (math.isfinite(x) and math.isfinite(y)):
                raise self.fail(
                    f"{who}: the point ({px:g}, {py:g}) lies too far off the map "
                    "(coordinates must be finite numbers)"
                )
            points.append((x, y))
        if "polygon" in thing and "polyline" not in thing:
            points.append(points[0])
        return points

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


# --- writing ---------------------------------------------------------------------------------


def board_to_tiled(
    board: Board,
    vocabulary: TerrainVocabulary,
    *,
    levels: Sequence[int] = (1, 2, 3),
    image: str | None = None,
) -> dict[str, object]:
    """A Tiled JSON map of ``board`` following the convention (for :func:`load_tiled`).

    Its embedded tileset has one tile per terrain of ``vocabulary`` (sorted by name; the
    ``terrain`` property set) and one per level (the ``elevation`` property set), so the map can
    be painted further in Tiled. ``image`` names a tileset image with the tiles in that order
    (:func:`firefight.board.render.render_tileset` draws one); without it the tiles have no
    picture. Hexsides are written as two-point polylines along their hex edge, with the
    ``feature`` property, so they show where they lie and move with the map.
    """
    terrains = sorted(vocabulary.hex_terrains)
    all_levels = sorted({*levels, *board.elevation.values()} - {0})
    kinds = [("terrain", name) for name in terrains] + [("elevation", lv) for lv in all_levels]
    gid = {kind: index + 1 for index, kind in enumerate(kinds)}
    geometry = Geometry(TILE_WIDTH, TILE_HEIGHT, HEX_SIDE, board.offset)
    terrain_data, elevation_data = [], []
    for row in range(board.rows):
        for column in range(board.columns):
            h = from_offset(column + 1, row + 1, board.offset)
            name = board.terrain_of(h)
            if ("terrain", name) not in gid:
                allowed = ", ".join(terrains)
                raise BoardError(
                    _("{board}: hex {hex}: terrain must be one of {allowed} (got {value})").format(
                        board=board.name, hex=board.label(h), allowed=allowed, value=shown(name)
                    )
                )
            terrain_data.append(gid["terrain", name])
            level = board.elevation_of(h)
            elevation_data.append(gid["elevation", level] if level else 0)
    objects = []
    for number, ((a, b), feature) in enumerate(sorted(board.hexsides.items()), start=1):
        ends = _shared_corners(geometry, a, b, board.offset)
        (x0, y0), (x1, y1) = ends
        objects.append(
            {
                "id": number,
                "name": f"{board.label(a)}/{board.label(b)}",
                "type": "",
                "x": x0,
                "y": y0,
                "width": 0,
                "height": 0,
                "rotation": 0,
                "visible": True,
                "polyline": [{"x": 0, "y": 0}, {"x": x1 - x0, "y": y1 - y0}],
                "properties": [{"name": "feature", "type": "string", "value": feature}],
            }
        )
    tiles = [
        {
            "id": index,
            "type": str(value),
            "properties": [
                {"name": key, "type": "string" if key == "terrain" else "int", "value": value}
            ],
        }
        for index, (key, value) in enumerate(kinds)
    ]
    tileset: dict[str, object] = {
        "firstgid": 1,
        "name": f"{board.ruleset} terrain",
        "tilewidth": TILE_WIDTH,
        "tileheight": TILE_HEIGHT,
        "tilecount": len(kinds),
        "columns": len(kinds),
        "margin": 0,
        "spacing": 0,
        "tiles": tiles,
    }
    if image:
        tileset.update(image=image, imagewidth=TILE_WIDTH * len(kinds), imageheight=TILE_HEIGHT)
    properties = [
        {"name": "name", "type": "string", "value": board.name},
        {"name": "ruleset", "type": "string", "value": board.ruleset},
        {"name": "default_terrain", "type": "string", "value": board.default_terrain},
    ]

    def tile_layer(number: int, name: str, data: list[int]) -> dict[str, object]:
        return {
            "id": number,
            "name": name,
            "type": "tilelayer",
            "width": board.columns,
            "height": board.rows,
            "x": 0,
            "y": 0,
            "opacity": 1 if name == TERRAIN_LAYER else 0.5,
            "visible": True,
            "data": data,
        }

    return {
        "type": "map",
        "version": "1.10",
        "orientation": "hexagonal",
        "renderorder": "right-down",
        "staggeraxis": "x",
        "staggerindex": OFFSET_TO_STAGGER[board.offset],
        "hexsidelength": HEX_SIDE,
        "width": board.columns,
        "height": board.rows,
        "tilewidth": TILE_WIDTH,
        "tileheight": TILE_HEIGHT,
        "infinite": False,
        "nextlayerid": 4,
        "nextobjectid": len(objects) + 1,
        "properties": properties,
        "tilesets": [tileset],
        "layers": [
            tile_layer(1, TERRAIN_LAYER, terrain_data),
            tile_layer(2, ELEVATION_LAYER, elevation_data),
            {
                "id": 3,
                "name": HEXSIDES_LAYER,
                "type": "objectgroup",
                "draworder": "topdown",
                "x": 0,
                "y": 0,
                "opacity": 1,
                "visible": True,
                "objects": objects,
            },
        ],
    }


def dumps_tiled(tiled: Mapping[str, object]) -> str:
    """A Tiled map as JSON text a person can read: one line per small object and per row of
    a layer's tile ids."""
    text = json.dumps(tiled, indent=1, ensure_ascii=False)
    text = _INNERMOST.sub(lambda m: _SPACES.sub(" ", m.group(0)), text)
    return _NUMBERS.sub(lambda m: "[" + _SPACES.sub(" ", m.group(1)).strip() + "]", text) + "\n"


_INNERMOST = re.compile(r"\{[^{}\[\]]*\}")
_NUMBERS = re.compile(r"\[([\d,\s]+)\]")
_SPACES = re.compile(r"\s+")


def _shared_corners(geometry: Geometry, a: Hex, b: Hex, offset: Offset) -> list[tuple[int, int]]:
    """The two pixel corners of the edge between adjacent hexes ``a`` and ``b``."""
    (ca, ra), (cb, rb) = to_offset(a, offset), to_offset(b, offset)
    first = geometry.corners(ca - 1, ra - 1)
    second = set(geometry.corners(cb - 1, rb - 1))
    return [corner for corner in first if corner in second]
