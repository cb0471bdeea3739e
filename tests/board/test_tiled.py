"""The Tiled importer: a map drawn in Tiled gives the same board as its TOML twin.

The fixture is built here, field by field, from Tiled's JSON map format; the pixel corners of
the polyline hexsides are worked out by hand from Tiled's hexagonal renderer (tile 64 x 56,
hex side 32: columns 48 px apart, a staggered column 28 px lower).
"""

from __future__ import annotations

import base64
import copy
import gzip
import json
import struct
import tomllib
import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firefight.board.board import Board, BoardError, board_from_data, hexside
from firefight.board.hexes import from_offset, parse_label
from firefight.board.tiled import board_to_tiled, dumps_tiled, load_tiled, tiled_to_data
from firefight.rulesets.boards import load, policies
from firefight.rulesets.ept.board import EPT_LOS

FLIP_HORIZONTALLY = 0x80000000

TWIN_TOML = """
name = "Fixture"
ruleset = "ept"
columns = 4
rows = 3
offset = "odd-q"

[hexes]
0101 = "forest"
0301 = "orchard"
0202 = "road"
0302 = "road"
0403 = "forest"
0102 = { elevation = 1 }
0103 = { elevation = 1 }
0203 = { elevation = 2 }

[hexsides]
"0101/0201" = "bocage"
"0202/0302" = "hedge"
"0302/0303" = "hedge"
"0301/0401" = "wall"
"0301/0402" = "wall"
"""


def prop(name, value, kind="string"):
    return {"name": name, "type": kind, "value": value}


def terrain_tileset():
    return {
        "firstgid": 1,
        "name": "terrain",
        "tilewidth": 64,
        "tileheight": 56,
        "tilecount": 6,
        "columns": 6,
        "tiles": [
            {"id": 0, "properties": [prop("terrain", "forest")]},
            {"id": 1, "type": "orchard"},  # the class names the terrain
            {"id": 2, "class": "ignored", "properties": [prop("terrain", "road")]},
            {"id": 3, "properties": [prop("colour", "red")]},
        ],
    }


def levels_tileset():
    return {
        "name": "levels",
        "tilewidth": 64,
        "tileheight": 56,
        "tilecount": 3,
        "columns": 3,
        "tiles": [
            {"id": 0, "properties": [prop("elevation", 1, "int")]},
            {"id": 1, "properties": [prop("elevation", 2, "int")]},
            {"id": 2, "properties": [prop("elevation", "high")]},
        ],
    }


def fixture():
    """A 4 x 3 EPT map: forest, orchard, road; hills; bocage, hedges and a garden wall."""
    # one row of four tile ids per line
    terrain = [
        1, 0, 2, 0,
        0, 3 | FLIP_HORIZONTALLY, 3, 0,
        0, 0, 0, 1,
    ]  # fmt: skip
    elevation = [
        0, 0, 0, 0,
        20, 0, 0, 0,
        20, 21, 0, 0,
    ]  # fmt: skip
    hexsides = [
        {
            "id": 1,
            "name": "",
            "point": True,
            "x": 40,
            "y": 30,
            "properties": [prop("feature", "bocage"), prop("from", "0101"), prop("to", "0201")],
        },
        {
            "id": 2,
            "name": "lane hedge",
            "type": "hedge",
            "x": 0,
            "y": 0,
            "properties": [prop("hexsides", "0202/0302, 0302/0303")],
        },
        {
            # the garden wall, drawn corner to corner: (144,28) -> (160,56) -> (144,84),
            # one vertex a couple of pixels off
            "id": 3,
            "name": "garden wall",
            "x": 144,
            "y": 28,
            "polyline": [{"x": 0, "y": 0}, {"x": 17, "y": 27}, {"x": 0, "y": 56}],
            "properties": [prop("feature", "wall")],
        },
    ]
    return {
        "type": "map",
        "orientation": "hexagonal",
        "staggeraxis": "x",
        "staggerindex": "even",
        "hexsidelength": 32,
        "tilewidth": 64,
        "tileheight": 56,
        "width": 4,
        "height": 3,
        "infinite": False,
        "properties": [prop("name", "Fixture"), prop("ruleset", "ept")],
        "tilesets": [terrain_tileset(), {"firstgid": 20, **levels_tileset()}],
        "layers": [
            {"id": 9, "name": "background", "type": "imagelayer", "image": "scan.png"},
            {"id": 1, "name": "terrain", "type": "tilelayer", "width": 4, "height": 3,
             "data": terrain},
            {
                "id": 2,
                "name": "heights",
                "type": "group",
                "layers": [
                    {"id": 3, "name": "Elevation", "type": "tilelayer", "width": 4,
                     "height": 3, "data": elevation},
                ],
            },
            {"id": 4, "name": "hexsides", "type": "objectgroup", "objects": hexsides},
        ],
    }  # fmt: skip


def write(tmp_path, data, name="fixture.json"):
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def twin() -> Board:
    return board_from_data(tomllib.loads(TWIN_TOML), EPT_LOS, "fixture.toml")


def layer(data, name):
    for entry in data["layers"]:
        if entry["name"].lower() == name:
            return entry
        for inner in entry.get("layers", []):
            if inner["name"].lower() == name:
                return inner
    raise KeyError(name)


# --- the same board as the TOML twin ---------------------------------------------------------


def test_a_tiled_map_gives_the_same_board_as_its_toml_twin(tmp_path):
    board, policy = load_tiled(write(tmp_path, fixture()), policies())
    assert policy is policies()["ept"]
    assert board == twin()


def test_boards_load_finds_tiled_maps_by_path(tmp_path):
    board, _ = load(str(write(tmp_path, fixture(), "fixture.tmj")))
    assert board == twin()


def test_tiled_column_zero_is_board_column_01_and_stagger_even_is_odd_q(tmp_path):
    data = fixture()
    board, _ = load_tiled(write(tmp_path, data), policies())
    assert board.offset == "odd-q"
    # Tiled tile (x=0, y=0) is hex 0101; (x=3, y=2) is hex 0403
    assert board.terrain_of(from_offset(1, 1, "odd-q")) == "forest"
    assert board.terrain_of(from_offset(4, 3, "odd-q")) == "forest"
    # Tiled shifts its column 0 down, as the board shifts its odd column 01
    assert from_offset(1, 1, "odd-q").centre()[1] > from_offset(2, 1, "odd-q").centre()[1]


def test_stagger_odd_is_even_q_and_polylines_follow_it(tmp_path):
    data = fixture()
    data["staggerindex"] = "odd"
    # with column 1 shifted down, tiles (0,0) and (1,0) share the edge (64,28)-(48,56)
    wall = layer(data, "hexsides")["objects"][2]
    wall.update(x=64, y=28, polyline=[{"x": 0, "y": 0}, {"x": -16, "y": 28}])
    layer(data, "hexsides")["objects"] = [wall]
    board, _ = load_tiled(write(tmp_path, data), policies())
    assert board.offset == "even-q"
    a, b = parse_label("0101", "even-q"), parse_label("0201", "even-q")
    assert board.hexsides == {hexside(a, b): "wall"}
    assert board.terrain_of(parse_label("0202", "even-q")) == "road"


def test_a_polygon_closes_on_itself(tmp_path):
    data = fixture()
    # the six edges of tile (1,1) = hex 0202 (column 1 is not shifted: top-left (48, 56))
    ring = [(64, 56), (96, 56), (112, 84), (96, 112), (64, 112), (48, 84)]
    layer(data, "hexsides")["objects"] = [
        {
            "id": 1,
            "x": 64,
            "y": 56,
            "polygon": [{"x": x - 64, "y": y - 56} for x, y in ring],
            "properties": [prop("feature", "hedge")],
        }
    ]
    data["width"] = data["height"] = 3
    for name in ("terrain", "elevation"):
        layer(data, name).update(width=3, height=3, data=[0] * 9)
    board, _ = load_tiled(write(tmp_path, data), policies())
    middle = from_offset(2, 2, "odd-q")
    assert board.hexsides == {hexside(middle, n): "hedge" for n in middle.neighbours()}


@pytest.mark.parametrize("compression", ["", "zlib", "gzip"])
def test_base64_layer_data_reads_like_csv(tmp_path, compression):
    data = fixture()
    terrain = layer(data, "terrain")
    raw = struct.pack(f"<{len(terrain['data'])}I", *terrain["data"])
    packed = {"": raw, "zlib": zlib.compress(raw), "gzip": gzip.compress(raw, mtime=0)}
    terrain.update(
        data=base64.b64encode(packed[compression]).decode(),
        encoding="base64",
        compression=compression,
    )
    board, _ = load_tiled(write(tmp_path, data), policies())
    assert board == twin()


def test_an_external_json_tileset_is_read_from_beside_the_map(tmp_path):
    data = fixture()
    (tmp_path / "levels.tsj").write_text(json.dumps(levels_tileset()), encoding="utf-8")
    data["tilesets"][1] = {"firstgid": 20, "source": "levels.tsj"}
    board, _ = load_tiled(write(tmp_path, data), policies())
    assert board == twin()


def test_without_a_name_the_board_is_named_after_the_file(tmp_path):
    data = fixture()
    data["properties"] = [prop("ruleset", "ept")]
    board, _ = load_tiled(write(tmp_path, data, "hill_112.json"), policies())
    assert board.name == "hill_112"


# --- errors: one line, naming the file, the hex and the bad value ---------------------------


def set_cell(data, name, label, gid):
    entry = layer(data, name)
    column, row = int(label[:2]), int(label[2:])
    entry["data"][(row - 1) * data["width"] + column - 1] = gid


def case(change):
    data = fixture()
    change(data)
    return data


ERRORS = [
    (
        lambda d: d.update(staggeraxis="z"),
        ["fixture.json", "staggeraxis must be one of x (flat-topped", "y (pointy-topped", "'z'"],
    ),
    (
        lambda d: d["properties"].append({"name": "labels", "type": "string", "value": "roman"}),
        ["map property 'labels' must be one of numbers, letter-number", "'roman'"],
    ),
    (lambda d: d.update(orientation="orthogonal"), ["orientation must be hexagonal", "orthogonal"]),
    (lambda d: d.update(staggerindex="both"), ["staggerindex must be one of odd, even", "'both'"]),
    (lambda d: d.update(infinite=True), ["infinite maps are not supported"]),
    (
        lambda d: d.update(width=0),
        [
            "'width' and 'height' must be at least 1, and width x height at most",
            "(got 0 x 3)",
        ],
    ),
    (
        lambda d: d.update(properties=[prop("name", "x")]),
        ["map property 'ruleset' must be one of ept, vv", "None"],
    ),
    (
        lambda d: d.update(properties=[prop("ruleset", "asl")]),
        ["'ruleset' must be one of ept, vv", "'asl'"],
    ),
    (
        lambda d: d["layers"].pop(1),
        ["no tile layer named 'terrain'"],
    ),
    (
        lambda d: layer(d, "terrain").update(data=[0, 1]),
        ["layer 'terrain': 2 tiles for a 4 x 3 map"],
    ),
    (
        lambda d: set_cell(d, "terrain", "0302", 4),
        ["hex 0302", "tile 4 (tileset 'terrain', tile id 3) has no 'terrain' property"],
    ),
    (
        lambda d: set_cell(d, "terrain", "0102", 5),  # in the tileset, with no entry
        ["hex 0102", "tile 5", "no 'terrain' property"],
    ),
    (
        lambda d: set_cell(d, "terrain", "0403", 99),
        ["layer 'terrain', hex 0403: tile 99 is in no tileset"],
    ),
    (
        lambda d: set_cell(d, "terrain", "0201", 7),  # past the first tileset's 6 tiles
        ["hex 0201: tile 7 is in no tileset"],
    ),
    (
        lambda d: d["tilesets"][0]["tiles"][0]["properties"][0].update(value="forrest"),
        ["fixture.json", "hex 0101: terrain must be one of", "(got 'forrest')"],
    ),
    (
        lambda d: set_cell(d, "elevation", "0103", 22),
        ["hex 0103", "property 'elevation' must be an integer from 0 to 9", "(got 'high')"],
    ),
    (
        lambda d: set_cell(d, "elevation", "0203", 1),
        ["layer 'elevation', hex 0203", "has no 'elevation' property"],
    ),
    (
        lambda d: set_cell(d, "terrain", "0202", "x"),
        ["layer 'terrain', hex 0202: tile id must be an integer", "'x'"],
    ),
    (
        lambda d: layer(d, "hexsides")["objects"][0]["properties"][0].update(value="fence"),
        ["hexside 0101/0201: feature must be one of bocage, hedge, wall", "(got 'fence')"],
    ),
    (
        lambda d: layer(d, "hexsides")["objects"][0]["properties"][2].update(value="0301"),
        ["hexside 0101/0301: 0101 and 0301 are not adjacent"],
    ),
    (
        lambda d: layer(d, "hexsides")["objects"][0]["properties"][2].update(value="0909"),
        ["hex '0909'", "a hex of board 'Fixture'"],
    ),
    (
        lambda d: layer(d, "hexsides")["objects"][0]["properties"].pop(2),
        ["object 1: 'from' and 'to' must both be hex labels", "'0101', None"],
    ),
    (
        lambda d: layer(d, "hexsides")["objects"][1].update(type=""),
        ["object 2 ('lane hedge'): no 'feature' property"],
    ),
    (
        lambda d: layer(d, "hexsides")["objects"][2]["polyline"][1].update(x=30, y=20),
        ["object 3 ('garden wall'): the point (174, 48) is not on a hex corner"],
    ),
    (
        lambda d: layer(d, "hexsides")["objects"][2].update(
            x=64, y=0, polyline=[{"x": 0, "y": 0}, {"x": 32, "y": 0}]
        ),
        ["the segment (64, 0)-(96, 0) lies on the edge of the map, beside hex 0201 only"],
    ),
    (
        lambda d: layer(d, "hexsides")["objects"][2].update(
            polyline=[{"x": 0, "y": 0}, {"x": 0, "y": 56}]
        ),
        ["the segment (144, 28)-(144, 84) is not one hex edge"],
    ),
    (
        lambda d: layer(d, "hexsides")["objects"].append(
            {"id": 4, "properties": [prop("feature", "wall"), prop("hexsides", "0201/0101")]}
        ),
        ["object 4: hexside 0201/0101 is 'wall' here but 'bocage' in layer 'hexsides', object 1"],
    ),
    (
        lambda d: layer(d, "hexsides")["objects"].append({"id": 5, "type": "wall"}),
        ["object 5: give 'from' and 'to' hex labels, a 'hexsides' list, or draw it"],
    ),
    (
        lambda d: d["tilesets"].__setitem__(1, {"firstgid": 20, "source": "levels.tsx"}),
        ["external tileset 'levels.tsx' is not JSON"],
    ),
    (
        lambda d: layer(d, "terrain").update(data="AAAA", encoding="base64", compression="zstd"),
        ["layer 'terrain': compression must be none, zlib or gzip", "'zstd'"],
    ),
    (
        lambda d: layer(d, "hexsides").update(type="tilelayer"),
        ["layer 'hexsides' must be a objectgroup", "'tilelayer'"],
    ),
]


@pytest.mark.parametrize(("change", "expected"), ERRORS)
def test_every_error_is_one_line_naming_the_place_and_the_value(tmp_path, change, expected):
    path = write(tmp_path, case(change))
    with pytest.raises(BoardError) as error:
        load_tiled(path, policies())
    message = str(error.value)
    assert "\n" not in message
    assert message.startswith("fixture.json: ")
    for fragment in expected:
        assert fragment in message


def test_a_file_that_is_not_json_is_one_line(tmp_path):
    path = tmp_path / "fixture.json"
    path.write_text("<map/>", encoding="utf-8")
    with pytest.raises(BoardError, match=r"^fixture\.json: not a readable Tiled JSON map") as e:
        load_tiled(path, policies())
    assert "\n" not in str(e.value)


# --- writing a board out as a Tiled map ------------------------------------------------------


def test_a_written_map_reads_back_as_the_same_board(tmp_path):
    board = twin()
    text = dumps_tiled(board_to_tiled(board, EPT_LOS))
    assert json.loads(text)["staggerindex"] == "even"
    path = tmp_path / "written.json"
    path.write_text(text, encoding="utf-8")
    assert load_tiled(path, policies())[0] == board


def test_writing_a_board_with_a_terrain_outside_the_vocabulary_is_refused():
    board = Board("odd", "ept", 2, 2, terrain={from_offset(1, 1, "odd-q"): "woods"})
    with pytest.raises(BoardError, match=r"hex 0101: terrain must be one of .*\(got 'woods'\)"):
        board_to_tiled(board, EPT_LOS)


@st.composite
def boards(draw):
    columns, rows = draw(st.integers(1, 7)), draw(st.integers(1, 6))
    offset = draw(st.sampled_from(["odd-q", "even-q"]))
    hexes = [from_offset(c, r, offset) for c in range(1, columns + 1) for r in range(1, rows + 1)]
    on_board = set(hexes)
    terrains = sorted(EPT_LOS.hex_terrains - {"clear"})
    terrain = draw(st.dictionaries(st.sampled_from(hexes), st.sampled_from(terrains)))
    elevation = draw(st.dictionaries(st.sampled_from(hexes), st.integers(1, 4)))
    sides = sorted({hexside(h, n) for h in hexes for n in h.neighbours() if n in on_board})
    features = sorted(EPT_LOS.hexside_features)
    chosen = (
        draw(st.dictionaries(st.sampled_from(sides), st.sampled_from(features))) if sides else {}
    )
    return Board("random", "ept", columns, rows, offset, "clear", terrain, elevation, chosen)


@settings(max_examples=60, deadline=None)
@given(boards())
def test_any_board_survives_the_trip_through_tiled(board):
    data = json.loads(dumps_tiled(board_to_tiled(board, EPT_LOS)))
    assert board_from_data(tiled_to_data(data, "random.json"), EPT_LOS, "random.json") == board


def test_the_fixture_is_not_changed_by_loading(tmp_path):
    data = fixture()
    before = copy.deepcopy(data)
    tiled_to_data(data, "fixture.json")
    assert data == before
