"""Reading a Tiled JSON map into the mapping a TOML board file gives
(:mod:`firefight.board.tiled` states the convention): the map's header, its tilesets
(embedded or external JSON), its tile layers (CSV or base64, maybe compressed) and, through
:class:`~firefight.board.tiled_sides.SideReader`, its hexsides."""

from __future__ import annotations

import base64
import bisect
import zlib
from collections.abc import Iterator, Mapping
from pathlib import Path

from firefight.board.board import check_size, shown
from firefight.board.layout import LABELS, orientation_of
from firefight.board.tiled_format import (
    ELEVATION_LAYER,
    GID_MASK,
    GZIP_WBITS,
    HEXSIDES_LAYER,
    STAGGER_AXES,
    STAGGER_TO_OFFSET,
    TERRAIN_LAYER,
    Tile,
    read_json,
)
from firefight.board.tiled_sides import SideReader
from firefight.core import files

_END = object()


class MapReader(SideReader):
    """One pass over one Tiled map, raising BoardError on the first thing that is wrong."""

    def __init__(self, tiled: Mapping[str, object], source: str, folder: Path | None) -> None:
        super().__init__(tiled, source)
        self.folder = folder
        self.tiles: list[tuple[int, dict[int, Tile], int | None, str]] = []

    def board_data(self, stem: str) -> dict[str, object]:
        """The TOML-shaped mapping of the map (``stem`` names it when it has no ``name``)."""
        self._header()
        properties = self.properties(self.tiled.get("properties"), "map")
        labels = properties.get("labels", "numbers")
        if labels not in LABELS:
            raise self.fail(
                f"map property 'labels' must be one of {', '.join(LABELS)} (got {shown(labels)})"
            )
        self.labels = labels
        self._tilesets()
        layers = self._layers()
        data: dict[str, object] = {
            "name": properties.get("name", stem),
            "ruleset": properties.get("ruleset"),
            "columns": self.width,
            "rows": self.height,
            "orientation": orientation_of(self.offset),
            "offset": self.offset,
            "labels": self.labels,
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
        axis = tiled.get("staggeraxis")
        if not isinstance(axis, str) or axis not in STAGGER_AXES:
            raise self.fail(
                "staggeraxis must be one of x (flat-topped hexes in columns), y (pointy-topped "
                f"hexes in rows) (got {shown(axis)})"
            )
        index = tiled.get("staggerindex")
        if not isinstance(index, str) or index not in STAGGER_TO_OFFSET[axis]:
            raise self.fail(f"staggerindex must be one of odd, even (got {shown(index)})")
        self.offset = STAGGER_TO_OFFSET[axis][index]
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
            tiles: dict[int, Tile] = {}
            for tile in self._tile_entries(tileset, name):
                local = tile.get("id") if isinstance(tile, Mapping) else None
                if not isinstance(tile, Mapping) or not isinstance(local, int):
                    raise self.fail(f"tileset {shown(name)}: a tile must have an integer id")
                if isinstance(local, bool) or local < 0:
                    raise self.fail(f"tileset {shown(name)}: a tile must have an integer id")
                where = f"tile {first + local} (tileset {shown(name)}, tile id {local})"
                kind = tile.get("class", tile.get("type", ""))
                tiles[local] = Tile(
                    first + local,
                    where,
                    self.properties(tile.get("properties"), where),
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
        data = read_json(path, f"{self.source}: external tileset {shown(name)}", "JSON tileset")
        if not isinstance(data, Mapping):
            raise self.fail(f"external tileset {shown(name)} is not a JSON object")
        return name, data

    def _tile(self, gid: int, where: str, layer: str) -> Tile:
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
                    Tile(
                        tile_id, f"tile {tile_id} (tileset {shown(name)}, tile id {local})", {}, ""
                    ),
                )
        raise self.fail(f"layer {layer!r}, hex {where}: tile {tile_id} is in no tileset")

    def _terrain(self, tile: Tile, where: str) -> object:
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

    def _elevation(self, tile: Tile, where: str) -> object:
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

    def _cells(self, layer: Mapping[str, object], name: str) -> Iterator[tuple[str, Tile]]:
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
