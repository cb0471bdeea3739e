"""Hostile board files: each is refused in one line naming the file, the place in it and what was
expected, without a traceback, without reading outside the map's folder, and without unpacking more
than the board needs."""

from __future__ import annotations

import base64
import bisect
import json
import os
import tomllib
import tracemalloc
import zlib
from pathlib import Path

import pytest

from firefight.board.board import (
    MAX_BOARD_FILE_BYTES,
    MAX_BOARD_HEXES,
    MAX_DRAWN_HEXES,
    MAX_TOML_BYTES,
    MAX_TOML_VALUES,
    Board,
    BoardError,
    board_from_data,
    load_board,
    shown,
)
from firefight.board.hexes import parse_label
from firefight.board.render import render_board
from firefight.board.tiled import (
    GZIP_WBITS,
    HEXSIDE_ENTRIES_PER_HEX,
    board_to_tiled,
    load_tiled,
)
from firefight.board.visibility import visible_set
from firefight.core.files import values_bound
from firefight.errors import InputError
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
        ("1e308", "the point (1e+308, 27) lies too far off the map"),
    ],
)
def test_polyline_coordinates_must_be_finite(tmp_path, text, fragment):
    data = fixture()
    polyline_point(data, 123456789, 27)
    if text == "1e308":  # finite, but x + 1e308 with x = 1e308 is not
        layer(data, "hexsides")["objects"][2]["x"] = 1e308
    path = tmp_path / "fixture.json"
    path.write_text(json.dumps(data).replace("123456789", text), encoding="utf-8")
    refused(path, "layer 'hexsides', object 3 ('garden wall'): ", fragment, loader=load_tiled)


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


# --- board size --------------------------------------------------------------------------------


def sized(path, columns, rows):
    path.write_text(HEADER.replace("columns = 4\nrows = 3", f"columns = {columns}\nrows = {rows}"))
    return path


def test_a_board_above_the_size_limit_is_refused(tmp_path):
    path = tmp_path / "big.toml"
    limit = f"'columns' and 'rows' must be at least 1, and columns x rows at most {MAX_BOARD_HEXES}"
    refused(sized(path, 999, 999), limit, "(got 999 x 999)")
    refused(sized(path, MAX_BOARD_HEXES // 200 + 1, 200), limit)
    assert load(str(sized(path, MAX_BOARD_HEXES // 200, 200)))[0].rows == 200
    refused(sized(path, 0, 3), limit, "(got 0 x 3)")
    refused(sized(path, 1000, 1), "'columns' and 'rows' must be at most 999 (a hex label")


def test_the_size_limit_is_documented():
    docs = (Path(__file__).parents[2] / "docs" / "boards.md").read_text(encoding="utf-8")
    assert f"at most **{MAX_BOARD_HEXES} hexes**" in docs
    assert f"at most **{MAX_DRAWN_HEXES} hexes** to draw" in docs


def test_a_board_of_200_by_200_hexes_loads_and_answers_line_of_sight(tmp_path):
    board, policy = load(str(sized(tmp_path / "big.toml", 200, 200)))
    assert board.columns * board.rows == MAX_BOARD_HEXES
    seen = visible_set(board, board.hex("100100"), policy)
    assert len(seen) == MAX_BOARD_HEXES  # open ground: every hex


def test_a_board_above_the_drawing_limit_loads_but_is_not_drawn(tmp_path):
    board, _ = load(str(sized(tmp_path / "wide.toml", MAX_DRAWN_HEXES // 20 + 1, 20)))
    with pytest.raises(
        InputError, match=f"'out' must be given only for a board of at most {MAX_DRAWN_HEXES} hexes"
    ) as refused_drawing:
        render_board(board, tmp_path / "wide.png")
    assert "(got '31 x 20')" in str(refused_drawing.value)
    assert not (tmp_path / "wide.png").exists()
    drawn = load(str(sized(tmp_path / "small.toml", MAX_DRAWN_HEXES // 20, 20)))[0]
    assert render_board(drawn, tmp_path / "small.svg").exists()


def test_a_tiled_map_above_the_size_limit_is_refused_before_its_layers_are_read(tmp_path):
    data = fixture()
    data.update(width=999, height=999)
    layer(data, "terrain")["data"] = "not even read"
    refused(
        write(tmp_path, data),
        f"'width' and 'height' must be at least 1, and width x height at most {MAX_BOARD_HEXES}",
        "(got 999 x 999)",
        loader=load_tiled,
    )


# --- hex labels: ASCII digits only -------------------------------------------------------------


@pytest.mark.parametrize("label", ["٠٥٠٤", "０５０４", "۰۵۰۴", "05٠4", "0504\n", 504])
def test_a_hex_label_takes_ascii_digits_only(label):
    if label == "0504\n":
        assert parse_label(label) == parse_label("0504")  # surrounding spaces are trimmed
        return
    with pytest.raises(InputError, match="'hex' must be a label CCRR of ASCII digits"):
        parse_label(label)  # type: ignore[arg-type]


def test_a_board_file_with_arabic_indic_digits_is_refused(tmp_path):
    path = tmp_path / "digits.toml"
    path.write_text(HEADER + '[hexes]\n"٠١٠١" = "forest"\n', encoding="utf-8")
    refused(path, "hex '٠١٠١'", "ASCII digits")
    path.write_text(HEADER + '[hexsides]\n"0101/０２０１" = "wall"\n', encoding="utf-8")
    refused(path, "hex '０２０１'", "ASCII digits")


def test_an_error_quotes_at_most_80_characters_of_a_value():
    assert len(shown("x" * 10_000)) <= 80
    assert len(shown([[[["deep"] * 100] * 100]] * 100)) <= 80
    nested: list[object] = []
    for _ in range(100_000):
        nested = [nested]
    assert shown(nested) == "[[[...]]]"


@pytest.mark.parametrize("source", ["nul\x00.json", "loop.tsj", "missing.tsj"])
def test_an_external_tileset_that_cannot_be_found_is_one_line(tmp_path, source):
    path = external(tmp_path, source)
    os.symlink(path.parent / "loop.tsj", path.parent / "loop.tsj")
    refused(path, "external tileset", ": no such file beside the map", loader=load_tiled)


# --- integers too long to write as text --------------------------------------------------------

HUGE_HEX = "0x" + "F" * 4000
"""A TOML integer of 16000 bits: parsed, but Python refuses to write it in decimal (over 4300
digits), so quoting it in an error must not try."""

HUGE_CASES = [
    (HEADER.replace("columns = 4", f"columns = {HUGE_HEX}"), "(got an integer of 16000 bits x 3)"),
    (HEADER.replace("rows = 3", f"rows = {HUGE_HEX}"), "(got 4 x an integer of 16000 bits)"),
    (
        HEADER + f'[hexes]\n"0101" = {{ terrain = "forest", elevation = {HUGE_HEX} }}\n',
        "elevation must be an integer from 0 to 9 (got an integer of 16000 bits)",
    ),
    (HEADER + f'[hexes]\n"0101" = {HUGE_HEX}\n', "hex 0101: must be a terrain name"),
    (HEADER.replace('"Hostile"', HUGE_HEX), "'name' must be a string (got an integer of 16000"),
    (HEADER.replace("columns = 4", "columns = " + "9" * 5000), "a number in it has more than 4300"),
]


@pytest.mark.parametrize(("text", "fragment"), HUGE_CASES)
def test_an_integer_too_long_to_write_is_refused_in_one_line(tmp_path, text, fragment):
    path = tmp_path / "long.toml"
    path.write_text(text, encoding="utf-8")
    message = refused(path, fragment)
    assert len(message) < 300


def test_a_tiled_map_with_an_integer_too_long_to_read_is_one_line(tmp_path):
    text = json.dumps(fixture()).replace('"width": 4', '"width": ' + "9" * 5000, 1)
    path = tmp_path / "long.json"
    path.write_text(text, encoding="utf-8")
    refused(path, "not a readable JSON file: a number in it has more than 4300", loader=load_tiled)


def test_shown_names_an_integer_too_long_to_quote_by_its_size():
    assert shown(2**20) == "1048576"
    assert shown([16**4000 - 1]) == "[an integer of 16000 bits]"
    assert shown(-(16**4000)) == "-an integer of 16001 bits"


def test_a_board_of_a_hugely_negative_size_is_one_line():
    data = {"name": "n", "ruleset": "ept", "columns": -(16**4000), "rows": 3}
    with pytest.raises(BoardError, match=r"\(got -an integer of 16001 bits x 3\)$"):
        board_from_data(data, EPT_LOS, "api")


# --- file size ---------------------------------------------------------------------------------


def test_a_toml_board_file_above_the_file_size_limit_is_refused_before_it_is_parsed(tmp_path):
    path = tmp_path / "padded.toml"
    path.write_text(HEADER + "#" * MAX_TOML_BYTES, encoding="utf-8")
    refused(path, "a board file must be at most 2 MiB")
    path.write_text(HEADER + "#" * (MAX_TOML_BYTES - len(HEADER)), encoding="utf-8")
    assert load(str(path))[0].name == "Hostile"


def test_a_dense_toml_file_under_the_size_limit_is_refused_before_it_is_parsed(
    tmp_path, monkeypatch
):
    path = tmp_path / "dense.toml"
    lines = (f'k{i:07d} = [1, 2, "ab", {{ a = 1 }}]\n' for i in range(MAX_TOML_BYTES // 40))
    path.write_text(HEADER + "[extra]\n" + "".join(lines)[: MAX_TOML_BYTES - 200], encoding="utf-8")

    def parsed(text: str) -> None:
        raise AssertionError("parsed")  # tomllib: some 2 s a MiB of such lines

    monkeypatch.setattr(tomllib, "loads", parsed)
    refused(path, f"holds more than {MAX_TOML_VALUES:,} values and separators")


def test_a_board_of_the_largest_size_written_out_is_under_the_value_limit(tmp_path):
    side = int(MAX_BOARD_HEXES**0.5)
    header = f'name = "Big"\nruleset = "ept"\ncolumns = {side}\nrows = {side}\n'
    lines = (
        f'"{c:03d}{r:03d}" = {{ terrain = "forest", elevation = 1 }}'
        for c in range(1, side + 1)
        for r in range(1, side + 1)
    )
    text = header + "[hexes]\n" + "\n".join(lines)
    assert len(text.encode()) <= MAX_TOML_BYTES
    assert values_bound(text) < MAX_TOML_VALUES
    path = tmp_path / "big.toml"
    path.write_text(text, encoding="utf-8")
    assert load(str(path))[0].columns == side


def test_a_tiled_map_above_the_file_size_limit_is_refused_before_it_is_parsed(tmp_path):
    data = fixture()
    data["properties"].append(
        {"name": "notes", "type": "string", "value": "x" * MAX_BOARD_FILE_BYTES}
    )
    refused(write(tmp_path, data), "a Tiled JSON map must be at most 4 MiB", loader=load_tiled)


def test_an_external_tileset_above_the_file_size_limit_is_refused(tmp_path):
    path = external(tmp_path, "levels.tsj")
    (path.parent / "levels.tsj").write_text("[" + "1," * (MAX_BOARD_FILE_BYTES // 2) + "1]")
    refused(
        path,
        "external tileset 'levels.tsj': a JSON tileset must be at most 4 MiB",
        loader=load_tiled,
    )


def test_a_hexsides_layer_may_not_draw_more_than_six_entries_a_hex(tmp_path):
    data = fixture()
    wall = layer(data, "hexsides")["objects"][2]
    limit = HEXSIDE_ENTRIES_PER_HEX * data["width"] * data["height"]
    wall["polyline"] = (wall["polyline"][:2] * limit)[: limit + 1]
    refused(
        write(tmp_path, data),
        f"draws more than {limit} hexsides, vertices or pairs",
        loader=load_tiled,
    )


def test_a_map_with_many_tilesets_finds_its_tiles_by_bisection(tmp_path, monkeypatch):
    wide = Board("wide", "ept", 24, 25)
    board = Board("wide", "ept", 24, 25, terrain=dict.fromkeys(wide.hexes(), "forest"))
    data = board_to_tiled(board, EPT_LOS)
    last = max(t["firstgid"] + t["tilecount"] for t in data["tilesets"])
    data["tilesets"] += [{"firstgid": last + i} for i in range(150_000)]
    many = tmp_path / "many.json"
    many.write_text(json.dumps(data, separators=(",", ":")), encoding="utf-8")
    looked = 0
    bisect_right = bisect.bisect_right

    def counted(items, value, *, key):
        def counting(item):
            nonlocal looked
            looked += 1
            return key(item)

        return bisect_right(items, value, key=counting)

    monkeypatch.setattr(bisect, "bisect_right", counted)
    assert load_tiled(many, policies())[0] == board
    # each of the 600 cells used to walk all 150,000 tilesets; by bisection, some 18 each
    assert 0 < looked <= 600 * 20


def test_a_hex_off_a_board_quotes_at_most_80_characters_of_its_name():
    board = Board("N" * 100_000, "ept", 4, 3)  # built in Python: no file's name limit
    with pytest.raises(InputError) as error:
        board.hex("0909")
    assert len(str(error.value)) < 200


@pytest.mark.parametrize(
    "name",
    ["N" * 101, "", "\x1b[2J\x1b[31mred", "two\nlines", "carriage\rreturn", "nul\x00"],
)
def test_a_board_name_is_short_and_printable(tmp_path, name):
    path = tmp_path / "named.toml"
    path.write_text(HEADER.replace('"Hostile"', json.dumps(name)), encoding="utf-8")
    message = refused(path, "'name' must be 1 to 100 printable characters")
    assert "\x1b[" not in message


def test_a_tiled_maps_name_property_is_printable(tmp_path):
    data = fixture()
    data["properties"].append({"name": "name", "type": "string", "value": "\x1b[31mred"})
    refused(write(tmp_path, data), "'name' must be 1 to 100 printable", loader=load_tiled)
