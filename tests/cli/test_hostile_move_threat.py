"""Hostile scenario files and options for ``firefight move`` and ``firefight threat`` (issue
15): each is one line on standard error with exit code 2, no traceback, no control character
sent to the terminal, and no file read that the scenario merely names."""

from __future__ import annotations

import pytest

from firefight.rulesets.vv.scenario import sample_board_scenarios as sample_scenarios
from tests.helpers import run_cli as run

TEXT = sample_scenarios()["village"].read_text(encoding="utf-8")
HEAD = 'name = "x"\nboard = "vv_village"\n'


def _refused(code: int, out: str, err: str) -> str:
    assert (code, out) == (2, ""), err
    assert err.count("\n") == 1
    assert err.startswith("error: ")
    assert "internal error" not in err
    assert not any(c in err for c in "\x1b\x07\x9b")
    return err


def test_a_scenario_naming_a_file_that_is_not_a_board_does_not_read_it(capsys, tmp_path):
    """A scenario from someone else names the board; a file without a board file's suffix is
    never opened (before: read as TOML, and its values quoted in the error)."""
    secret = tmp_path / "notes.txt"
    secret.write_text('columns = "hunter2"\n', encoding="utf-8")
    scenario = tmp_path / "s.toml"
    scenario.write_text(TEXT.replace('board = "vv_village"', 'board = "notes.txt"'), "utf-8")
    err = _refused(*run(capsys, "threat", str(scenario), "--side", "us"))
    assert "hunter2" not in err
    assert "'board' must be a board file (.toml, or a Tiled .json/.tmj map)" in err


def test_a_scenario_naming_an_absolute_path_is_refused(capsys, tmp_path):
    scenario = tmp_path / "s.toml"
    scenario.write_text(TEXT.replace('board = "vv_village"', 'board = "/etc/passwd"'), "utf-8")
    err = _refused(*run(capsys, "threat", str(scenario), "--side", "us"))
    assert "(got '/etc/passwd')" in err


FILES = {
    "a number of 5000 digits": HEAD + "x = " + "9" * 5000,
    "arrays nested 5000 deep": HEAD + "x = " + "[" * 5000 + "]" * 5000,
    "an id with a terminal escape": TEXT.replace('id = "us-sq1"', 'id = "\\u001b[31mX"', 1),
    "a name with an OSC title": TEXT.replace(
        'name = "1st Rifle squad"', 'name = "\\u001b]0;pwned\\u0007"', 1
    ),
    "a right-to-left override": TEXT.replace('name = "Americans"', 'name = "a\\u202eb"', 1),
    "nan for a number": TEXT.replace("apfp = 4\nrange = 6", "apfp = nan\nrange = 6", 1),
    "a date for a number": TEXT.replace("apfp = 4\nrange = 6", "apfp = 1979-05-27\nrange = 6", 1),
    "wrong types everywhere": "name = 1\nboard = 2\nunits = 3\nsides = 4\n",
    "a unit off the board": TEXT.replace('hex = "0206"', 'hex = "9999"', 1),
}


@pytest.mark.parametrize("what", FILES)
def test_a_hostile_scenario_file_is_one_line(capsys, tmp_path, what):
    scenario = tmp_path / "s.toml"
    scenario.write_text(FILES[what], encoding="utf-8")
    _refused(*run(capsys, "threat", str(scenario), "--side", "us"))
    _refused(*run(capsys, "move", str(scenario), "--stack", "0206", "--path", "0306"))


def test_a_scenario_file_that_is_not_utf8_is_one_line(capsys, tmp_path):
    scenario = tmp_path / "s.toml"
    scenario.write_bytes(b'name = "\xff\xfe"\nboard = "vv_village"\n')
    assert "UTF-8" in _refused(*run(capsys, "threat", str(scenario), "--side", "us"))


MOVES = {
    "a path of 10,000 hexes": ["--path", ",".join(["0306", "0206"] * 5000)],
    "a path off the board": ["--path", "0306,9999"],
    "a path of commas": ["--path", ",,,"],
    "a path with an escape": ["--path", "0306,\x1b[2J"],
    "a hex label of 100,000 digits": ["--path", "0" * 100_000],
    "units with an escape": ["--path", "0306", "--units", "\x1b[31m"],
    "a threshold that is nan": ["--path", "0306", "--threshold", "nan"],
    "a threshold of 5000 digits": ["--path", "0306", "--threshold", "9" * 5000],
    "a roll of 5000 digits": ["--path", "0306", "--roll", "9" * 5000],
}


@pytest.mark.parametrize("what", MOVES)
def test_hostile_move_options_are_one_line(capsys, what):
    _refused(*run(capsys, "move", "village", "--stack", "0206", *MOVES[what]))


def test_a_side_or_stack_with_an_escape_is_one_line(capsys):
    _refused(*run(capsys, "threat", "village", "--side", "\x1b[31m"))
    _refused(*run(capsys, "threat", "village", "--side", "us", "--stack", "\x1b[31m"))


MARKUP = (
    TEXT.replace('name = "1st Rifle squad"', 'name = "[/]x[bold]"', 1)
    .replace('"us-sq1"', '"[/]"')
    .replace('"de-sq1"', '"[/de]"')
    .replace('name = "Crossroads at dusk"', 'name = "[/]Cross"', 1)
    .replace('name = "Americans"', 'name = "[/]Am"', 1)
)


@pytest.mark.parametrize(
    "args",
    [
        ["threat", "--side", "us"],
        ["threat", "--side", "de"],
        ["move", "--stack", "0206", "--path", "0306,0406"],
        ["move", "--stack", "0206", "--path", "0306,0406", "--seed", "3"],
    ],
)
def test_rich_markup_in_names_and_ids_is_shown_as_written(capsys, tmp_path, args):
    """Names and ids are the scenario's text: "[/]" was read as Rich markup, an internal
    error (exit 70)."""
    scenario = tmp_path / "s.toml"
    scenario.write_text(MARKUP, encoding="utf-8")
    code, out, err = run(capsys, args[0], str(scenario), *args[1:])
    assert (code, err) == (0, "")
    assert "[/]" in out


MATH = TEXT.replace('name = "Crossroads at dusk"', 'name = "$\\\\frac{$ at dusk"', 1).replace(
    'name = "1st Rifle squad"', 'name = "$\\\\sqrt{$"', 1
)


@pytest.mark.parametrize("kind", ["png", "svg"])
@pytest.mark.parametrize(
    "args", [["threat", "--side", "de"], ["move", "--stack", "0206", "--path", "0306"]]
)
def test_dollar_signs_in_names_are_drawn_as_text_not_mathtext(capsys, tmp_path, args, kind):
    """A name such as "$\\sqrt{$" was parsed by matplotlib as mathtext: an internal error."""
    scenario = tmp_path / "s.toml"
    scenario.write_text(MATH, encoding="utf-8")
    picture = tmp_path / f"p.{kind}"
    code, _, err = run(capsys, args[0], str(scenario), *args[1:], "--out", str(picture))
    assert code == 0, err
    assert err == f"drawn to {picture}\n"
    assert picture.stat().st_size > 0
