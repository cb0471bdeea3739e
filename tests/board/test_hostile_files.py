"""Hostile board files: each is refused in one line naming the file, the place in it and what was
expected, without a traceback, without reading outside the map's folder, and without unpacking more
than the board needs."""

from __future__ import annotations

import base64
import json
import os
import tracemalloc
import zlib

import pytest

from firefight.board.board import (
    BoardError,
    load_board,
)
from firefight.board.tiled import (
    GZIP_WBITS,
    load_tiled,
)
from firefight.rulesets.boards import load, policies
from firefight.rulesets.ept.board import EPT_LOS
from tests.board.test_tiled import fixture, layer, levels_tileset, twin, write

HEADER = 'name = "Hostile"\nruleset = "ept"\ncolumns = 4\nrows = 3\n'


def refused(path, *fragments, loader=load):
    """Load ``path``; it must be refused in one line that starts with the file's name and
    holds every fragment."""
    with pytest.raises(BoardError) as error:
        loader(str(path)) if loader is load else loader(path, policies())
    message = str(error.value)
    assert "\n" not in message
    assert message.startswith(f"{path.name}: ")
    for fragment in fragments:
        assert fragment in message, message
    return message


# --- decompression bombs ---------------------------------------------------------------------

BOMB_BYTES = 64 * 2**20
"""What the hostile layer unpacks to: 64 MiB of zeros, packed into some 64 KiB."""


def bomb(wbits):
    packer = zlib.compressobj(9, zlib.DEFLATED, wbits)
    chunk = bytes(2**20)
    packed = b"".join(packer.compress(chunk) for _ in range(BOMB_BYTES // len(chunk)))
    return packed + packer.flush()


@pytest.mark.parametrize(("compression", "wbits"), [("zlib", zlib.MAX_WBITS), ("gzip", GZIP_WBITS)])
def test_a_compressed_layer_is_never_unpacked_past_the_maps_size(tmp_path, compression, wbits):
    packed = bomb(wbits)
    assert len(packed) < BOMB_BYTES // 500
    data = fixture()
    layer(data, "terrain").update(
        data=base64.b64encode(packed).decode(), encoding="base64", compression=compression
    )
    path = write(tmp_path, data)
    refused(path, "tile data unpacks", loader=load_tiled)  # once untraced: imports, caches
    tracemalloc.start()
    try:
        refused(
            path,
            "layer 'terrain': tile data unpacks to more than the 48 bytes of a 4 x 3 map",
            loader=load_tiled,
        )
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 4 * 2**20  # the file and its decoded base64, never the 64 MiB


@pytest.mark.parametrize(("compression", "wbits"), [("zlib", zlib.MAX_WBITS), ("gzip", GZIP_WBITS)])
def test_a_compressed_layer_cut_short_is_refused(tmp_path, compression, wbits):
    data = fixture()
    terrain = layer(data, "terrain")
    raw = b"".join(gid.to_bytes(4, "little") for gid in terrain["data"])
    packer = zlib.compressobj(9, zlib.DEFLATED, wbits)
    packed = packer.compress(raw) + packer.flush()
    terrain.update(
        data=base64.b64encode(packed[:-6]).decode(), encoding="base64", compression=compression
    )
    refused(
        write(tmp_path, data), "layer 'terrain': tile data cannot be decoded", loader=load_tiled
    )


# --- nesting too deep for the parsers ---------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "kind"),
    [
        ("[" * 5000 + "]" * 5000, "arrays and inline tables nested too deeply"),
        ("{a = " * 5000 + "1" + "}" * 5000, "arrays and inline tables nested too deeply"),
    ],
)
def test_deeply_nested_toml_is_one_line_naming_the_line(tmp_path, value, kind):
    path = tmp_path / "deep.toml"
    path.write_text(HEADER + "# a comment with [ and {\nnote = '[[['\nz = " + value + "\n")
    refused(path, "deep.toml: line 7: ", kind, "[hexes] and { terrain, elevation }")
    with pytest.raises(BoardError, match=r"^deep\.toml: line 7: "):
        load_board(path, EPT_LOS)


def test_deeply_nested_tiled_groups_are_one_line_naming_the_line(tmp_path):
    data = fixture()
    data["layers"].append({"name": "notes", "type": "group", "layers": []})
    group = '{"name": "g", "type": "group", "layers": ['
    text = json.dumps(data).replace(
        '"layers": []}', '"layers": [\n\n' + group * 3000 + "]}" * 3000 + "]}"
    )
    assert text.count(group) == 3000
    path = tmp_path / "groups.json"
    path.write_text(text, encoding="utf-8")
    refused(path, "groups.json: line 3: arrays and objects nested too deeply", loader=load_tiled)


def nested_groups(groups):
    """The fixture with its terrain layer ``groups`` group layers down."""
    data = fixture()
    inner = [data["layers"].pop(1)]
    for depth in range(groups):
        inner = [{"id": 100 + depth, "name": f"g{depth}", "type": "group", "layers": inner}]
    data["layers"].extend(inner)
    return data


def test_nested_groups_load_up_to_the_depth_bound_and_no_further(tmp_path):
    """Each group is two levels (its object, its layers): 20 groups down are 45 levels,
    within MAX_DEPTH (64); 40 are 85, refused in one line naming the line."""
    assert load_tiled(write(tmp_path, nested_groups(20)), policies())[0] == twin()
    refused(
        write(tmp_path, nested_groups(40)),
        "fixture.json: line 1: arrays and objects nested too deeply",
        loader=load_tiled,
    )


# --- values of the wrong type ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "fragments"),
    [
        (
            '[hexsides]\n"0101/0201" = ["wall"]\n',
            ["hexside 0101/0201: feature must be one of bocage, hedge, wall", "(got ['wall'])"],
        ),
        (
            '[hexsides]\n"0101/0201" = { feature = "wall" }\n',
            ["hexside 0101/0201: feature must be one of", "(got {'feature': 'wall'})"],
        ),
        (
            "[hexes]\n0101 = { terrain = { name = 'forest' } }\n",
            ["hex 0101: terrain must be one of", "(got {'name': 'forest'})"],
        ),
        ("[hexes]\n0101 = { terrain = ['forest'] }\n", ["hex 0101: terrain must be one of"]),
        ("[hexes]\n0101 = ['forest']\n", ["hex 0101: must be a terrain name or { terrain"]),
        ("default_terrain = ['clear']\n", ["'default_terrain' must be one of", "['clear']"]),
        ("[hexes]\n0101 = { elevation = [1] }\n", ["hex 0101: elevation must be an integer"]),
    ],
)
def test_a_feature_or_terrain_given_as_a_table_or_list_is_one_line(tmp_path, body, fragments):
    path = tmp_path / "typed.toml"
    path.write_text(HEADER + body)
    refused(path, *fragments)


def tile_property(data, name, value):
    data["tilesets"][0]["tiles"][0]["properties"] = [{"name": name, "value": value}]


@pytest.mark.parametrize(
    ("change", "fragments"),
    [
        (
            lambda d: tile_property(d, "terrain", ["forest"]),
            ["layer 'terrain', hex 0101: tile 1", "property 'terrain' must be a string"],
        ),
        (
            lambda d: tile_property(d, "terrain", {"name": "forest"}),
            ["hex 0101", "property 'terrain' must be a string", "(got {'name': 'forest'})"],
        ),
        (
            lambda d: d["tilesets"][1]["tiles"][0]["properties"][0].update(value=[1]),
            ["layer 'elevation', hex 0102", "property 'elevation' must be an integer", "[1]"],
        ),
        (
            lambda d: layer(d, "hexsides")["objects"][0]["properties"][0].update(value=["x"]),
            ["layer 'hexsides', object 1: 'feature' must be a string", "(got ['x'])"],
        ),
        (
            lambda d: d["properties"].append({"name": "default_terrain", "value": {"a": 1}}),
            ["'default_terrain' must be one of", "(got {'a': 1})"],
        ),
        (
            lambda d: d["layers"][1].update(name=["terrain"]),
            ["a layer's name must be a string", "(got ['terrain'])"],
        ),
        (
            lambda d: d["layers"][2].update(layers={"a": 1}),
            ["group layer 'heights': 'layers' must be a list", "(got {'a': 1})"],
        ),
    ],
)
def test_tiled_property_values_are_type_checked(tmp_path, change, fragments):
    data = fixture()
    change(data)
    refused(write(tmp_path, data), *fragments, loader=load_tiled)


def polyline_point(data, x, y):
    wall = layer(data, "hexsides")["objects"][2]
    wall["polyline"][1] = {"x": x, "y": y}


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("Infinity", "coordinates must be finite numbers (got inf)"),
        ("-Infinity", "coordinates must be finite numbers (got -inf)"),
        ("NaN", "coordinates must be finite numbers (got nan)"),
        ("1e400", "coordinates must be finite numbers (got inf)"),
        ("1" + "0" * 400, "coordinates must be finite numbers (got 1000"),
        ("1e308", "the point (1e+308, "),
        # finite, but on no corner: its column and its distance to a corner overflowed
        ("1e300", "the point (1e+300, "),
        ("1" + "0" * 300, "the point (1e+300, "),
        ("-1e20", "the point (-1e+20, "),
    ],
)
def test_polyline_coordinates_must_be_finite(tmp_path, text, fragment):
    data = fixture()
    polyline_point(data, 123456789, 27)
    if text == "1e308":  # the object itself placed far off: its first vertex is refused
        layer(data, "hexsides")["objects"][2]["x"] = 1e308
    path = tmp_path / "fixture.json"
    path.write_text(json.dumps(data).replace("123456789", text), encoding="utf-8")
    far = ("lies too far off the map",) if fragment.startswith("the point") else ()
    where = "layer 'hexsides', object 3 ('garden wall'): "
    refused(path, where, fragment, *far, loader=load_tiled)


def test_tile_sizes_are_bounded(tmp_path):
    data = fixture()
    data["tilewidth"] = 10**400
    refused(
        write(tmp_path, data),
        "tilewidth, tileheight, hexsidelength must be integers from 0 to 10000",
        loader=load_tiled,
    )


# --- external tilesets stay in the map's folder ------------------------------------------------


def external(tmp_path, source):
    data = fixture()
    data["tilesets"][1] = {"firstgid": 20, "source": source}
    folder = tmp_path / "maps"
    folder.mkdir(exist_ok=True)
    return write(folder, data)


def secret(path):
    """A JSON tileset that, if read, would put its secret into an error message."""
    body = {**levels_tileset(), "name": "SECRET-NAME", "tiles": "SECRET-TILES"}
    path.write_text(json.dumps(body), encoding="utf-8")


@pytest.mark.parametrize(
    ("source", "fragment"),
    [
        ("../secret.json", "(no absolute path, no '..')"),
        ("sub/../../secret.json", "(no absolute path, no '..')"),
        ("ABSOLUTE", "(no absolute path, no '..')"),
    ],
)
def test_an_external_tileset_outside_the_maps_folder_is_refused(tmp_path, source, fragment):
    secret(tmp_path / "secret.json")
    source = str(tmp_path / "secret.json") if source == "ABSOLUTE" else source
    message = refused(
        external(tmp_path, source),
        "must be a file in the map's own folder or one below it",
        fragment,
        loader=load_tiled,
    )
    assert "SECRET" not in message


def test_an_external_tileset_may_not_link_out_of_the_maps_folder(tmp_path):
    secret(tmp_path / "secret.json")
    path = external(tmp_path, "levels.tsj")
    os.symlink(tmp_path / "secret.json", path.parent / "levels.tsj")
    message = refused(path, "it is a link that leads out of it", loader=load_tiled)
    assert "SECRET" not in message


def test_an_external_tileset_in_a_subfolder_loads(tmp_path):
    path = external(tmp_path, "tiles/levels.tsj")
    (path.parent / "tiles").mkdir()
    (path.parent / "tiles" / "levels.tsj").write_text(json.dumps(levels_tileset()))
    assert load_tiled(path, policies())[0] == twin()


def test_an_external_tilesets_errors_name_the_file_not_its_content(tmp_path):
    path = external(tmp_path, "levels.tsj")
    secret(path.parent / "levels.tsj")
    message = refused(path, "tileset 'levels.tsj': 'tiles' must be a list", loader=load_tiled)
    assert "SECRET" not in message
    (path.parent / "levels.tsj").write_bytes(b'{"name": "SECRET\xff"}')
    message = refused(path, "external tileset 'levels.tsj'", "must be UTF-8", loader=load_tiled)
    assert "SECRET" not in message
    (path.parent / "levels.tsj").write_text('{"name": SECRET}')
    message = refused(path, "not a readable JSON tileset: line 1, column 10", loader=load_tiled)
    assert "SECRET" not in message
