"""``firefight board``: list, show, los, visible and scatter, with --json and pictures."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from firefight.board.board import Board
from firefight.cli.board import layout_words
from tests.helpers import run_cli as run


def test_list_the_sample_boards(capsys):
    code, out, _ = run(capsys, "board", "list", "--json")
    assert code == 0
    names = {b["name"]: b["ruleset"] for b in json.loads(out)}
    assert names == {"normandy_bocage": "ept", "vv_village": "vv", "vv_village_pointy": "vv"}


@pytest.mark.parametrize("name", ["normandy_bocage", "vv_village"])
def test_show_json_and_picture(capsys, tmp_path, name):
    picture = tmp_path / f"{name}.png"
    code, out, err = run(capsys, "board", "show", name, "--out", str(picture), "--json")
    assert code == 0
    data = json.loads(out)
    assert data["columns"] == 16
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "drawn to" in err
    code, out, _ = run(capsys, "board", "show", name)
    assert "terrain:" in out


@pytest.mark.parametrize(
    ("name", "layout", "orientation", "labels"),
    [
        ("vv_village", "16 x 12 (flat-top, numbered, odd-q)", "flat-top", "numbers"),
        (
            "vv_village_pointy",
            "12 x 16 (pointy-top, rows lettered, even-r)",
            "pointy-top",
            "letter-number",
        ),
    ],
)
def test_show_says_how_the_board_is_printed(capsys, name, layout, orientation, labels):
    """``board show`` names the orientation and the labelling, not the offset alone; its
    ``--json`` has them as the board file's keys."""
    code, out, _ = run(capsys, "board", "show", name)
    assert code == 0
    assert out.splitlines()[0].endswith(f": vv board, {layout}")
    code, out, _ = run(capsys, "board", "show", name, "--json")
    data = json.loads(out)
    assert (data["orientation"], data["labels"]) == (orientation, labels)


def test_a_flat_top_lettered_board_says_its_columns_are_lettered():
    board = Board("b", "vv", 3, 3, default_terrain="open", labels="letter-number")
    assert layout_words(board) == "flat-top, columns lettered"


def test_los_json_names_the_reasons(capsys, tmp_path):
    code, out, _ = run(capsys, "board", "los", "normandy_bocage", "0203", "0907", "--json")
    assert code == 0
    data = json.loads(out)
    assert set(data) >= {"status", "range", "modifier", "hindrances", "blocked_by"}
    assert data["range"] == 8
    picture = tmp_path / "los.svg"
    code, out, _ = run(capsys, "board", "los", "vv_village", "0101", "0805", "--out", str(picture))
    assert code == 0
    assert "0101 -> 0805" in out
    assert picture.read_text(encoding="utf-8").lstrip().startswith("<?xml")


def test_visible_json_counts_the_seen_hexes(capsys, tmp_path):
    code, out, _ = run(capsys, "board", "visible", "vv_village", "0806", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["count"] == len(data["visible"])
    assert "0806" in data["visible"]
    code, out, _ = run(
        capsys, "board", "visible", "normandy_bocage", "0806", "--out", str(tmp_path / "v.png")
    )
    assert code == 0
    assert "sees" in out


def test_scatter_gives_exact_impact_odds(capsys):
    code, out, _ = run(
        capsys, "board", "scatter", "normandy_bocage", "0806", "--observer-distance", "5", "--json"
    )
    assert code == 0
    data = json.loads(out)
    assert sum(Fraction(p) for p in data["impact"].values()) == 1
    assert data["impact"]["0806"] == data["distance"]["0"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["board", "show", "nowhere"], "error: 'board' must be a board file"),
        (["board", "los", "vv_village", "0101", "9999"], "error: 'TO' must be a hex of board"),
        (["board", "los", "vv_village", "01x1", "0202"], "error: 'FROM' must be a label CCRR"),
        (
            ["board", "scatter", "vv_village", "0101"],
            "error: 'board' must be a board of a rule set",
        ),
        (["board", "show", "vv_village", "--out", "map.gif"], "error:"),
    ],
)
def test_board_errors_are_one_line(capsys, args, message):
    code, _, err = run(capsys, *args)
    assert code == 2
    assert err.startswith(message)
    assert err.count("\n") == 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["board", "show", "vv_village", "--out", "/proc/version.png"],
            "error: '--out' must be a file in an existing folder that can be written",
        ),
        (
            ["board", "los", "vv_village", "0504", "0807", "--out", "/no/such/folder/los.png"],
            "error: '--out' must be a file in an existing folder that can be written (no such",
        ),
        (
            ["board", "los", "vv_village", "٠٥٠٤", "0807"],
            "error: 'FROM' must be a label CCRR of ASCII digits such as 0504",
        ),
        (
            ["board", "visible", "vv_village", "０５０４"],
            "error: 'FROM' must be a label CCRR of ASCII digits such as 0504",
        ),
    ],
)
def test_unwritable_pictures_and_non_ascii_labels_are_one_line(capsys, args, message):
    code, out, err = run(capsys, *args)
    assert code == 2
    assert err.startswith(message), err
    assert err.count("\n") == 1
    assert out == ""


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            'name = "x"\nruleset = "vv"\ncolumns = 999\nrows = 999\n',
            "error: big.toml: 'columns' and 'rows' must be at least 1, and columns x rows at most",
        ),
        (
            'name = "x"\nruleset = "vv"\ncolumns = 4\nrows = 4\nz = ' + "[" * 5000 + "]" * 5000,
            "error: big.toml: line 5: arrays and inline tables nested too deeply",
        ),
        (
            'name = "x"\nruleset = "vv"\ncolumns = 4\nrows = 4\n[hexsides]\n"0101/0201" = ["wall"]',
            "error: big.toml: hexside 0101/0201: feature must be one of hedge, hedgerow, wall",
        ),
    ],
)
def test_hostile_board_files_are_one_line_with_exit_code_2(capsys, tmp_path, text, message):
    path = tmp_path / "big.toml"
    path.write_text(text, encoding="utf-8")
    code, _, err = run(capsys, "board", "visible", str(path), "0101", "--out", "x.png")
    assert code == 2
    assert err.startswith(message), err
    assert err.count("\n") == 1


def test_a_large_board_answers_visible_but_refuses_a_picture_on_one_line(capsys, tmp_path):
    board = tmp_path / "large.toml"
    board.write_text(
        'name = "Large"\nruleset = "vv"\ncolumns = 120\nrows = 100\n[hexes]\n060050 = "woods"\n'
    )
    code, out, _ = run(capsys, "board", "visible", str(board), "060051", "--json")
    assert code == 0
    assert len(json.loads(out)["visible"]) > 10_000
    picture = tmp_path / "large.png"
    code, out, err = run(capsys, "board", "show", str(board), "--out", str(picture))
    assert code == 2
    assert err.strip().splitlines() == [err.strip()]
    assert "'--out' must be given only for a board of at most 600 hexes" in err
    assert "(got '120 x 100')" in err
    assert not picture.exists()
