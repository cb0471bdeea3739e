"""The ``firefight`` command: every command, its --json shape, and one-line errors."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction

import pytest

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
        "source": "seed 000, TABLE DE COMBAT",
    } in json.loads(out)


def test_table_json_prints_the_whole_chart_as_printed(capsys):
    code, out, _ = run(capsys, "table", "ept", "combat", "--json")
    assert code == 0
    data = json.loads(out)
    assert set(data) == {"id", "title", "source", "rows", "columns", "cells"}
    assert data["rows"][-1] == "15+"
    assert data["columns"][-1] == "40"
    assert len(data["cells"]) == 16
    assert all(len(row) == 18 for row in data["cells"])
    assert data["cells"][0][0] == "N1"


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
    assert "[N1]" in out  # the cell the seeded roll read, marked on the chart


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["odds", "ept", "fire", "--strength", "6", "--target-movement", "fast"],
            "error: 'target_movement' must be one of none, tactical, normal, force_march "
            "(got 'fast')",
        ),
        (["odds", "nope", "fire"], "error: 'ruleset' must be one of "),
        (["odds", "ept", "shoot"], "error: 'procedure' must be one of fire, "),
        (["odds", "ept"], "error: 'procedure' must be one of fire, "),
        (
            ["odds", "ept", "fire"],
            "error: 'strength' must be given: an integer from 1 to 99 (got None)",
        ),
        (
            ["odds", "ept", "fire", "--strength", "six"],
            "error: 'strength' must be an integer from 1 to 99 (got 'six')",
        ),
        (
            ["odds", "ept", "fire", "--strength"],
            "error: 'strength' must be an integer from 1 to 99 (got None)",
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
            "error: 'seed/roll' must be exactly one of --seed N or --roll",
        ),
        (
            ["resolve", "ept", "fire", "--strength", "6", "--roll", "3,4", "--seed", "1"],
            "(got 'both')",
        ),
        (
            ["resolve", "ept", "fire", "--strength", "6", "--roll", "7,7"],
            "error: 'roll' must be exactly the 1 value",
        ),
        (
            ["resolve", "ept", "fire", "--strength", "6", "--roll", "13"],
            "error: 'roll' must be 2 dice of 1..6 or a total of 2..12",
        ),
        (
            ["resolve", "ept", "fire", "--strength", "6", "--seed", "-1"],
            "error: 'seed' must be an integer of at least 0",
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
    assert result.stderr == "error: 'strength' must be an integer from 1 to 99 (got 0)\n"


def test_bracketed_chart_text_is_printed_not_taken_for_markup(capsys):
    code, out, _ = run(capsys, "table", "ept", "indirect_vs_armor")
    assert code == 0
    assert "[should be" in " ".join(out.split())
