"""Hostile board files, continued (``test_hostile_files.py``): board and file size limits,
hex labels, integers too long to write, names."""

from __future__ import annotations

import bisect
import json
import os
import tomllib
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
    shown,
)
from firefight.board.hexes import parse_label
from firefight.board.render import render_board
from firefight.board.tiled import (
    HEXSIDE_ENTRIES_PER_HEX,
    board_to_tiled,
    load_tiled,
)
from firefight.board.visibility import visible_set
from firefight.core.files import values_bound
from firefight.errors import InputError
from firefight.rulesets.boards import load, policies
from firefight.rulesets.ept.board import EPT_LOS
from tests.board.test_hostile_files import (
    HEADER,
    external,
    refused,
)
from tests.board.test_tiled import fixture, layer, write

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
