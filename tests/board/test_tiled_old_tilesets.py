"""Tilesets saved by Tiled before 1.2: ``tiles`` a mapping from local id to tile and the tile
properties apart, in ``tileproperties``; read as the later list form."""

from __future__ import annotations

import json

import pytest

from firefight.board.board import BoardError
from firefight.board.tiled import load_tiled
from firefight.rulesets.boards import policies
from tests.board.test_tiled import fixture, twin, write


def old_form(tileset: dict[str, object]) -> dict[str, object]:
    """The tileset as Tiled 1.1 wrote it: the properties in ``tileproperties`` by local id,
    the other tile fields (a class's ``type``) in a ``tiles`` mapping."""
    tiles: dict[str, dict[str, object]] = {}
    properties: dict[str, dict[str, object]] = {}
    for tile in tileset["tiles"]:  # type: ignore[attr-defined]
        key = str(tile["id"])
        rest = {k: v for k, v in tile.items() if k not in ("id", "properties")}
        if rest:
            tiles[key] = rest
        if "properties" in tile:
            properties[key] = {p["name"]: p["value"] for p in tile["properties"]}
    return {**tileset, "tiles": tiles, "tileproperties": properties}


def test_an_old_tileset_reads_as_the_same_board(tmp_path):
    data = fixture()
    data["tilesets"] = [old_form(t) for t in data["tilesets"]]
    board, _ = load_tiled(write(tmp_path, data), policies())
    assert board == twin()


def test_old_tile_properties_without_a_tiles_mapping_are_read(tmp_path):
    data = fixture()
    terrain = old_form(data["tilesets"][0])
    del terrain["tiles"]  # the orchard tile (a class only) becomes a terrain property
    terrain["tileproperties"]["1"] = {"terrain": "orchard"}
    data["tilesets"][0] = terrain
    board, _ = load_tiled(write(tmp_path, data), policies())
    assert board == twin()


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda t: t.update(tileproperties=["x"]), "'tiles' must be a list (Tiled 1.2 or later)"),
        (lambda t: t.update(tileproperties={"a": {}}), "a tile id must be an integer (got 'a')"),
        (lambda t: t["tileproperties"].update({"0": "x"}), "properties must be a list"),
    ],
)
def test_a_bad_old_tileset_is_one_line(tmp_path, change, expected):
    data = fixture()
    data["tilesets"][0] = old_form(data["tilesets"][0])
    change(data["tilesets"][0])
    with pytest.raises(BoardError) as caught:
        load_tiled(write(tmp_path, json.loads(json.dumps(data))), policies())
    assert expected in str(caught.value)
    assert "\n" not in str(caught.value)
