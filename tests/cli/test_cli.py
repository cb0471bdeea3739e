"""The ``firefight`` command: every command, its --json shape, and one-line errors."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from fractions import Fraction

import pytest

import firefight
from firefight.cli import main
from firefight.digits import SEED_MAX, SEEDS
from tests.helpers import run_cli as run

ODDS = ["odds", "ept", "fire", "--strength", "6", "--range", "adjacent", "--protection", "medium"]


def test_rulesets_json(capsys):
    code, out, _ = run(capsys, "rulesets", "--json")
    assert code == 0
    data = json.loads(out)
    ept = next(r for r in data if r["id"] == "ept")
    assert {"id", "title", "source", "procedures"} <= set(ept)
    assert "fire" in ept["procedures"]


def test_rulesets_table(capsys):
    code, out, _ = run(capsys, "rulesets")
    assert code == 0
    assert "En Pointe Toujours" in out


def test_tables_json(capsys):
    code, out, _ = run(capsys, "tables", "ept", "--json")
    assert code == 0
    assert {
        "id": "combat",
        "title": "TABLE DE COMBAT (Combat Table)",
        "source": "En Pointe Toujours II charts and tables (Vae Victis 31 & 32), TABLE DE COMBAT",
    } in json.loads(out)


def test_table_json_prints_the_whole_chart_as_printed(capsys):
    code, out, _ = run(capsys, "table", "ept", "combat", "--json")
    assert code == 0
    data = json.loads(out)
    assert set(data) == {"id", "title", "source", "rows", "columns", "cells", "notes"}
    assert data["rows"][-1] == "15+"
    assert data["columns"][-1] == "40"
    assert len(data["cells"]) == 16
    assert all(len(row) == 18 for row in data["cells"])
    assert data["cells"][0][0] == "N1"


@pytest.mark.parametrize(
    ("ruleset", "chart"),
    [(r.id, c.id) for r in firefight.list_rulesets() for c in r.charts()],
)
def test_table_json_carries_the_notes_the_text_prints(capsys, ruleset, chart):
    code, out, _ = run(capsys, "table", ruleset, chart, "--json")
    assert code == 0
    notes = json.loads(out)["notes"]
    assert notes == list(firefight.ruleset(ruleset).chart(chart).notes)
    code, text, _ = run(capsys, "table", ruleset, chart)
    assert code == 0
    shown = " ".join(text.split())  # the text wraps long notes
    assert all(f"- {' '.join(note.split())}" in shown for note in notes)


def test_table_json_notes_of_the_percentile_chart(capsys):
    _, out, _ = run(capsys, "table", "percentile", "defense_firepower", "--json")
    notes = json.loads(out)["notes"]
    assert notes[0].startswith("Each cell is K S: a roll of 01-100 (00 is 100)")
    assert len(notes) == 2


def test_table_as_text(capsys):
    code, out, _ = run(capsys, "table", "ept", "combat")
    assert code == 0
    assert "15+" in out
    assert "lose a step + neutralized" in out


def test_odds_json_is_exact_and_sums_to_1(capsys):
    code, out, _ = run(capsys, *ODDS, "--json")
    assert code == 0
    data = json.loads(out)
    assert set(data) == {"ruleset", "procedure", "input", "modifiers", "distribution"}
    assert data["ruleset"] == "ept"
    assert data["input"]["strength"] == 6
    assert data["modifiers"][0] == {
        "label": "against adjacent hex",
        "value": "2",
        "kind": "factor",
        "rule": "MODIFICATEURS DE TIR: fire strength",
    }
    assert sum(Fraction(p) for p in data["distribution"].values()) == 1
    assert data["distribution"]["1"] == "1/12"
    assert list(data["distribution"]) == ["-", "S1", "N", "N1", "N2", "N3", "1"]


def test_odds_as_text_shows_modifiers_and_bars(capsys):
    code, out, _ = run(capsys, *ODDS)
    assert code == 0
    for text in ("against adjacent hex", "x2", "6 -> 12", "5/18", "27.78", "█"):
        assert text in out


def test_boolean_options_forms(capsys):
    for flag in (["--firer-stopped"], ["--firer-stopped", "true"], ["--firer-stopped=yes"]):
        code, out, _ = run(capsys, "modifiers", "ept", "fire", "--strength", "6", *flag, "--json")
        assert code == 0
        assert json.loads(out)["input"]["firer_stopped"] is True
    code, out, _ = run(
        capsys, "modifiers", "ept", "fire", "--strength=6", "--no-firer-stopped", "--json"
    )
    assert json.loads(out)["input"]["firer_stopped"] is False


def test_modifiers_json(capsys):
    code, out, _ = run(
        capsys, "modifiers", "ept", "fire", "--strength", "5", "--range", "long", "--json"
    )
    assert code == 0
    data = json.loads(out)
    assert data["modifiers"][0]["value"] == "1/2"
    assert data["facts"]["Combat Table column"] == "2"


def test_resolve_with_a_seed_is_replayable(capsys):
    code, out, _ = run(
        capsys, "resolve", "ept", "fire", "--strength", "6", "--seed", "42", "--json"
    )
    assert code == 0
    first = json.loads(out)
    assert set(first) == {"ruleset", "procedure", "input", "modifiers", "outcome", "trace", "seed"}
    assert first["seed"] == 42
    assert first["trace"][0]["label"] == "combat roll (2d6)"
    dice = ",".join(str(d) for d in first["trace"][0]["dice"])
    code, out, _ = run(
        capsys, "resolve", "ept", "fire", "--strength", "6", "--roll", dice, "--json"
    )
    second = json.loads(out)
    assert second["outcome"] == first["outcome"]
    assert second["trace"] == first["trace"]
    assert second["seed"] is None


def test_resolve_with_the_players_dice(capsys):
    code, out, _ = run(capsys, "resolve", "ept", "fire", "--strength", "6", "--roll", "3,4")
    assert code == 0
    assert "3 + 4 = 7" in out
    assert "row 7, column 6 -> S1" in out
    assert "Result: S1" in out


def test_procedure_help_lists_every_input(capsys):
    code, out, _ = run(capsys, "odds", "ept", "fire", "--help")
    assert code == 0
    for option in ("--strength", "--target-movement", "--hindrance-hexes", "--factor-rounding"):
        assert option in out


def test_top_level_help(capsys):
    code, out, _ = run(capsys, "--help")
    assert code == 0
    assert "odds" in out
    assert "resolve" in out


def test_demo_prints_the_worked_example(capsys):
    code, out, _ = run(capsys, "demo")
    assert code == 0
    for text in ("Modifiers", "Odds", "Resolution (seed 42)", "TABLE DE COMBAT", "--roll"):
        assert text in out
    assert "[S]" in out  # the cell the seeded roll read, marked on the chart


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["odds", "ept", "fire", "--strength", "6", "--target-movement", "fast"],
            "error: '--target-movement' must be one of none, tactical, normal, force_march "
            "(got 'fast')",
        ),
        (["odds", "nope", "fire"], "error: 'ruleset' must be one of "),
        (["odds", "ept", "shoot"], "error: 'procedure' must be one of fire, "),
        (["odds", "ept"], "error: 'procedure' must be one of fire, "),
        (
            ["odds", "ept", "fire"],
            "error: '--strength' must be given: an integer from 1 to 99 (got None)",
        ),
        (
            ["odds", "ept", "fire", "--strength", "six"],
            "error: '--strength' must be an integer from 1 to 99 (got 'six')",
        ),
        (
            ["odds", "ept", "fire", "--strength"],
            "error: '--strength' must be an integer from 1 to 99 (got None)",
        ),
        (["odds", "ept", "fire", "--strenght", "6"], "error: 'option' must be one of --strength,"),
        (
            ["odds", "ept", "fire", "--strength", "6", "7"],
            "error: 'option' must be one of --strength,",
        ),
        (["odds", "ept", "fire", "--strength", "1", "--range", "long"], "cannot attack"),
        (["odds", "ept", "fire", "--strength", "6", "--hindrance-hexes", "4"], "no line of sight"),
        (["table", "ept", "nope"], "error: 'table' must be one of "),
        (
            ["resolve", "ept", "fire", "--strength", "6"],
            "error: '--seed/--roll' must be exactly one of --seed N or --roll",
        ),
        (
            ["resolve", "ept", "fire", "--strength", "6", "--roll", "3,4", "--seed", "1"],
            "(got 'both')",
        ),
        (
            ["resolve", "ept", "fire", "--strength", "6", "--roll", "7,7"],
            "error: '--roll' must be exactly the 1 value",
        ),
        (
            ["resolve", "ept", "fire", "--strength", "6", "--roll", "13"],
            "error: '--roll' must be 2 dice of 1..6 or a total of 2..12",
        ),
        (
            ["resolve", "ept", "fire", "--strength", "6", "--seed", "-1"],
            "error: '--seed' must be an integer from 0 to 9223372036854775807",
        ),
        (["nope"], "error: No such command 'nope'."),
    ],
)
def test_user_errors_are_one_line_and_exit_2(capsys, args, message):
    code, out, err = run(capsys, *args)
    assert code == 2
    assert out == ""
    assert err.startswith(message) or message in err
    assert err.count("\n") == 1
    assert "Traceback" not in err


def test_the_installed_command_exits_2_without_a_traceback():
    result = subprocess.run(
        [sys.executable, "-m", "firefight", "odds", "ept", "fire", "--strength", "0"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 2
    assert result.stderr == "error: '--strength' must be an integer from 1 to 99 (got 0)\n"


def test_bracketed_chart_text_is_printed_not_taken_for_markup(capsys):
    code, out, _ = run(capsys, "table", "ept", "indirect_vs_armor")
    assert code == 0
    assert "[should be" in " ".join(out.split())


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--seed", "1", "--seed", "2"], "error: '--seed' must be given once (got '--seed')"),
        (["--roll", "3,4", "--roll", "5,6"], "error: '--roll' must be given once (got '--roll')"),
        (["--seed=1", "--seed=1"], "error: '--seed' must be given once (got '--seed')"),
    ],
)
def test_a_repeated_seed_or_roll_is_refused_like_any_repeated_option(capsys, args, message):
    """Click kept the last --seed silently; the procedure's own options were already
    refused when repeated."""
    code, out, err = run(capsys, "resolve", "ept", "fire", "--strength", "6", *args)
    assert (code, out, err) == (2, "", message + "\n")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--roll", "\u0663,\u0664"], "error: '--roll' must be "),  # Arabic-Indic 3, 4
        (["--roll", "\uff13,\uff14"], "error: '--roll' must be "),  # full-width 3, 4
        (["--seed", "\u0663"], f"error: '--seed' must be {SEEDS} (got '\u0663')"),
        (["--seed", "1_0"], f"error: '--seed' must be {SEEDS} (got '1_0')"),
        (["--seed", "4.0"], f"error: '--seed' must be {SEEDS} (got '4.0')"),
    ],
)
def test_dice_and_seeds_are_ascii_digits_only(capsys, args, message):
    """``--roll ٣,٤`` was read as 3,4 (``int`` reads any script's digits)."""
    code, out, err = run(capsys, "resolve", "ept", "fire", "--strength", "6", *args)
    assert code == 2
    assert out == ""
    assert err.startswith(message)
    assert err.count("\n") == 1


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        ("\u0663", "'\u0663'"),
        ("\uff16", "'\uff16'"),
        ("6.0", "'6.0'"),
        ("1_0", "'1_0'"),
        (" 6", "' 6'"),
        ("1" * 5000, "'" + "1" * 77 + "…'"),  # int() itself refuses 4,300 digits
    ],
)
def test_option_values_are_read_as_ascii_integers(capsys, value, shown):
    """The CLI reads its text into the input's strict types: ASCII digits only."""
    code, _, err = run(capsys, "odds", "ept", "fire", "--strength", value)
    assert code == 2
    assert err == f"error: '--strength' must be an integer from 1 to 99 (got {shown})\n"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["serve", "--port", "1_0"], "'--port' must be an integer from 0 to 65535 (got '1_0')"),
        (["serve", "--port", "٣"], "'--port' must be an integer from 0 to 65535 (got '٣')"),
        (["serve", "--port", " 80"], "'--port' must be an integer from 0 to 65535 (got ' 80')"),
        (["serve", "--workers", "0"], "'--workers' must be an integer from 1 to 64 (got 0)"),
        (
            ["serve", "--timeout", "3.5"],
            "'--timeout' must be an integer from 1 to 300 (got '3.5')",
        ),
        (["sweep", "ept_fire", "--workers", "１"], "'--workers' must be an integer from 1 to 256"),
        (
            ["sweep", "ept_fire", "--batch", "1_0"],
            "'--batch' must be an integer from 1 to 1000000",
        ),
    ],
)
def test_command_options_take_ascii_integers_within_their_bounds(capsys, args, message):
    """Serve's and sweep's integer options are read as every number is (Click's INT
    took ``1_0``, `` 80`` and other scripts' digits)."""
    code, out, err = run(capsys, *args)
    assert code == 2
    assert out == ""
    assert err.startswith(f"error: {message}")
    assert err.count("\n") == 1


@pytest.mark.parametrize(
    "args",
    [
        ["odds", "ept", "fire", "--strength", "6", "--target-movement", "x" * 5000],
        ["odds", "ept", "fire", "--strength", "6", "--" + "y" * 5000, "1"],
        ["odds", "z" * 5000, "fire"],
        ["z" * 5000],
        ["serve", "--workers", "9" * 5000],
        ["resolve", "ept", "fire", "--strength", "6", "--roll", "7" * 5000],
    ],
)
def test_an_error_line_quotes_at_most_80_characters_of_the_value(capsys, args):
    """A 5,000-character value gives a short error line, cut with an ellipsis."""
    code, out, err = run(capsys, *args)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1
    assert re.search(r"([xyz79])\1{80}", err) is None  # at most 80 of the 5,000 characters
    assert "…" in err


def _broken_odds(self, inp):
    raise ZeroDivisionError("a bug in the odds")


def test_a_bug_is_one_line_saying_so_and_how_to_see_the_traceback(capsys, monkeypatch):
    from firefight.rulesets.procedure import Procedure  # noqa: PLC0415

    monkeypatch.delenv("FIREFIGHT_DEBUG", raising=False)
    monkeypatch.setattr(Procedure, "odds", _broken_odds)
    code, out, err = run(capsys, "odds", "ept", "fire", "--strength", "6")
    assert code == 70
    assert out == ""
    assert err.count("\n") == 1
    assert err.startswith("error: internal error, a bug in firefight (ZeroDivisionError: ")
    assert "FIREFIGHT_DEBUG=1" in err
    assert "--debug" in err
    assert "Traceback" not in err


@pytest.mark.parametrize(("env", "flags"), [("1", []), ("0", ["--debug"]), ("", ["--debug"])])
def test_debug_shows_the_traceback_of_a_bug(capsys, monkeypatch, env, flags):
    from firefight.rulesets.procedure import Procedure  # noqa: PLC0415

    monkeypatch.setenv("FIREFIGHT_DEBUG", env)
    monkeypatch.setattr(Procedure, "odds", _broken_odds)
    with pytest.raises(ZeroDivisionError, match="a bug in the odds"):
        main([*flags, "odds", "ept", "fire", "--strength", "6"])


def test_the_installed_command_prints_a_bugs_traceback_only_when_asked():
    code = (
        "import sys; from firefight.rulesets.procedure import Procedure; "
        "Procedure.odds = lambda self, inp: 1 / 0; "
        "from firefight.cli import run; sys.argv = ['firefight', *sys.argv[1:]]; run()"
    )
    args = [sys.executable, "-c", code, "odds", "ept", "fire", "--strength", "6"]
    quiet = subprocess.run(args, capture_output=True, text=True, check=False)
    assert quiet.returncode == 70
    assert quiet.stderr.count("\n") == 1
    assert "Traceback" not in quiet.stderr
    loud = subprocess.run(
        [*args[:3], "--debug", *args[3:]], capture_output=True, text=True, check=False
    )
    assert loud.returncode == 1
    assert "Traceback" in loud.stderr
    assert "ZeroDivisionError" in loud.stderr


@pytest.mark.parametrize(
    ("args", "field", "option"),
    [
        (["engage", "ept_hedgerow", "--seed", "1", "--seed", "2"], "seed", "--seed"),
        (["engage", "ept_hedgerow", "--json", "--json"], "json", "--json"),
        (["serve", "--port", "8001", "--port=8002"], "port", "--port"),
        (["sweep", "ept_fire", "--workers", "1", "--workers", "2"], "workers", "--workers"),
        (["board", "show", "vv_village", "--out", "a.png", "--out", "b.png"], "out", "--out"),
    ],
)
def test_every_command_refuses_an_option_given_twice(capsys, args, field, option):
    """Click keeps the last of a repeated option silently; firefight refuses it, in
    every command, as it refuses a repeated procedure option or --seed."""
    code, out, err = run(capsys, *args)
    assert code == 2
    assert out == ""
    assert err == f"error: '{option}' must be given once (got '{option}')\n"


@pytest.mark.parametrize(
    "args",
    [
        ["resolve", "ept", "fire", "--strength", "6", "--seed"],
        ["engage", "ept_hedgerow", "--seed"],
        ["engage", "ept_hedgerow", "--samples", "100", "--sample-seed"],
        ["move", "village", "--stack", "0206", "--path", "0306", "--seed"],
    ],
    ids=["resolve", "engage", "engage-sample", "move"],
)
def test_a_seed_past_the_64_bit_bound_is_one_line_and_exit_2(capsys, args):
    """``--seed`` had no maximum (any 30 digits in resolve, any size in engage and move)."""
    code, out, err = run(capsys, *args, str(SEED_MAX + 1))
    assert (code, out) == (2, "")
    option = args[-1]
    assert err.startswith(f"error: '{option}' must be ")
    assert str(SEED_MAX) in err
    assert err.count("\n") == 1
