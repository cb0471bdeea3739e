"""Writing a board out as a Tiled JSON map following the convention of
:mod:`firefight.board.tiled`, so it can be painted further in Tiled and read back."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence

from firefight.board.board import Board, BoardError, TerrainVocabulary, shown
from firefight.board.hexes import Hex
from firefight.board.layout import MapOffset, hex_at, place_of
from firefight.board.tiled_format import (
    AXIS_OF,
    ELEVATION_LAYER,
    HEX_SIDE,
    HEXSIDES_LAYER,
    OFFSET_TO_STAGGER,
    TERRAIN_LAYER,
    Geometry,
    tile_size,
)
from firefight.i18n import gettext as _

Kind = tuple[str, object]
"""A tile of the written tileset: ``("terrain", name)`` or ``("elevation", level)``."""


def board_to_tiled(
    board: Board,
    vocabulary: TerrainVocabulary,
    *,
    levels: Sequence[int] = (1, 2, 3),
    image: str | None = None,
) -> dict[str, object]:
    """A Tiled JSON map of ``board`` following the convention (for
    :func:`~firefight.board.tiled.load_tiled`): stagger axis X for a flat-top board, Y for a
    pointy-top one; a ``labels`` map property unless the labels are numbers.

    Its embedded tileset has one tile per terrain of ``vocabulary`` (sorted by name; the
    ``terrain`` property set) and one per level (the ``elevation`` property set), so the map can
    be painted further in Tiled. ``image`` names a tileset image with the tiles in that order
    (:func:`firefight.board.render.render_tileset` draws one); without it the tiles have no
    picture. Hexsides are written as two-point polylines along their hex edge, with the
    ``feature`` property, so they show where they lie and move with the map.
    """
    terrains = sorted(vocabulary.hex_terrains)
    all_levels = sorted({*levels, *board.elevation.values()} - {0})
    kinds: list[Kind] = [("terrain", name) for name in terrains]
    kinds += [("elevation", level) for level in all_levels]
    terrain_data, elevation_data = _tile_data(board, kinds, terrains)
    width, height = tile_size(board.orientation)
    objects = _hexside_objects(board, Geometry(width, height, HEX_SIDE, board.offset))
    return {
        "type": "map",
        "version": "1.10",
        "orientation": "hexagonal",
        "renderorder": "right-down",
        "staggeraxis": AXIS_OF[board.orientation],
        "staggerindex": OFFSET_TO_STAGGER[board.offset],
        "hexsidelength": HEX_SIDE,
        "width": board.columns,
        "height": board.rows,
        "tilewidth": width,
        "tileheight": height,
        "infinite": False,
        "nextlayerid": 4,
        "nextobjectid": len(objects) + 1,
        "properties": _map_properties(board),
        "tilesets": [_tileset(board, kinds, image)],
        "layers": [
            _tile_layer(board, 1, TERRAIN_LAYER, terrain_data),
            _tile_layer(board, 2, ELEVATION_LAYER, elevation_data),
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


def _tile_data(board: Board, kinds: list[Kind], terrains: list[str]) -> tuple[list[int], list[int]]:
    """The terrain and elevation layers' tile ids, row by row as Tiled lists them."""
    gid = {kind: index + 1 for index, kind in enumerate(kinds)}
    terrain_data, elevation_data = [], []
    for row in range(board.rows):
        for column in range(board.columns):
            h = hex_at(column + 1, row + 1, board.offset)
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
    return terrain_data, elevation_data


def _hexside_objects(board: Board, geometry: Geometry) -> list[dict[str, object]]:
    """One two-point polyline object per hexside feature, along its hex edge."""
    objects: list[dict[str, object]] = []
    for number, ((a, b), feature) in enumerate(sorted(board.hexsides.items()), start=1):
        (x0, y0), (x1, y1) = _shared_corners(geometry, a, b, board.offset)
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
    return objects


def _tileset(board: Board, kinds: list[Kind], image: str | None) -> dict[str, object]:
    """The embedded tileset: one tile per kind, its property set."""
    width, height = tile_size(board.orientation)
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
        "tilewidth": width,
        "tileheight": height,
        "tilecount": len(kinds),
        "columns": len(kinds),
        "margin": 0,
        "spacing": 0,
        "tiles": tiles,
    }
    if image:
        tileset.update(image=image, imagewidth=width * len(kinds), imageheight=height)
    return tileset


def _map_properties(board: Board) -> list[dict[str, object]]:
    properties: list[dict[str, object]] = [
        {"name": "name", "type": "string", "value": board.name},
        {"name": "ruleset", "type": "string", "value": board.ruleset},
        {"name": "default_terrain", "type": "string", "value": board.default_terrain},
    ]
    if board.labels != "numbers":
        properties.append({"name": "labels", "type": "string", "value": board.labels})
    return properties


def _tile_layer(board: Board, number: int, name: str, data: list[int]) -> dict[str, object]:
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


def dumps_tiled(tiled: Mapping[str, object]) -> str:
    """A Tiled map as JSON text a person can read: one line per small object and per row of
    a layer's tile ids."""
    text = json.dumps(tiled, indent=1, ensure_ascii=False)
    text = _INNERMOST.sub(lambda m: _SPACES.sub(" ", m.group(0)), text)
    return _NUMBERS.sub(lambda m: "[" + _SPACES.sub(" ", m.group(1)).strip() + "]", text) + "\n"


_INNERMOST = re.compile(r"\{[^{}\[\]]*\}")
_NUMBERS = re.compile(r"\[([\d,\s]+)\]")
_SPACES = re.compile(r"\s+")


def _shared_corners(geometry: Geometry, a: Hex, b: Hex, offset: MapOffset) -> list[tuple[int, int]]:
    """The two pixel corners of the edge between adjacent hexes ``a`` and ``b``."""
    (ca, ra), (cb, rb) = place_of(a, offset), place_of(b, offset)
    first = geometry.corners(ca - 1, ra - 1)
    second = set(geometry.corners(cb - 1, rb - 1))
    return [corner for corner in first if corner in second]
