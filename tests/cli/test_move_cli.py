"""``firefight move``: the exact odds along a V&V path, the JSON shape, a seeded run
and its replay with --roll, the picture, and one-line errors with exit code 2."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from tests.helpers import run_cli as run
from tests.helpers import shown

MOVE = ["move", "village", "--stack", "0206", "--path", "0306,0406,0506,0606"]


def test_move_prints_the_odds_along_the_path_and_each_unit_s_end(capsys):
    code, out, _ = run(capsys, *MOVE)
    assert code == 0
    assert "Along the path" in out
    assert "first pin %" in out
    assert shown("de-sq1+de-ldr (APFP 10", out)
    assert "us-ldr" in out


def test_move_json_has_the_documented_shape_and_exact_fractions(capsys):
    code, out, _ = run(capsys, *MOVE, "--json")
    assert code == 0
    data = json.loads(out)
    assert set(data) == {
        "scenario",
        "stack",
        "units",
        "path",
        "assault",
        "policy",
        "exact",
        "states",
        "fire_plan",
        "hexes",
        "outcomes",
        "unit_first_hit",
        "lanes",
        "lane_attacks",
        "at_fire_plan",
        "allocation",
    }
    assert data["exact"] is True
    assert data["path"] == ["0306", "0406", "0506", "0606"]
    for outcomes in data["outcomes"].values():
        assert sum(Fraction(o["fraction"]) for o in outcomes) == 1
    attack = data["fire_plan"][0]
    assert {"firer", "firer_hex", "hex", "apfp", "row", "modifiers", "expected_cps"} <= set(attack)
    assert {m["rule"] for m in attack["modifiers"]} >= {"13.8", "13.6, 14.2"}


def test_a_seeded_move_replays_with_the_dice_it_printed(capsys):
    code, out, _ = run(capsys, *MOVE, "--seed", "3", "--json")
    assert code == 0
    seeded = json.loads(out)
    code, out, _ = run(capsys, *MOVE, "--roll", ",".join(seeded["replay"]), "--json")
    assert code == 0
    replayed = json.loads(out)
    assert replayed["outcome"] == seeded["outcome"]
    labels = [e["label"] for s in seeded["steps"] for e in s["trace"]]
    assert "13.8 opportunity fire" in labels


def test_the_player_policy_takes_the_defender_s_hexes(capsys):
    code, out, _ = run(
        capsys, *MOVE, "--policy", "player", "--fire", "de-sq1=0606,de-mg=0606", "--json"
    )
    assert code == 0
    assert [(a["firer"], a["hex"]) for a in json.loads(out)["fire_plan"]] == [
        ("de-sq1+de-ldr", "0606"),
        ("de-mg", "0606"),
    ]


def test_move_draws_the_board_the_units_and_the_path(capsys, tmp_path: Path):
    picture = tmp_path / "move.svg"
    code, _, err = run(capsys, *MOVE, "--out", str(picture))
    assert code == 0
    assert "drawn to" in err
    text = picture.read_text()
    assert "Crossroads at dusk: 0206 to 0606" in text
    assert "83%" in text
    assert "barbed wire" in text
    assert "sniper (de)" in text


@pytest.mark.parametrize(
    ("args", "field"),
    [
        (["--policy", "bogus"], "'--policy' must be one of threshold"),
        (["--fire", "de-mg=0606"], "'--fire' must be given with --policy player only"),
        (["--policy", "player", "--fire", "de-mg"], "'--fire' must be FIRER=HEX pairs"),
        (["--threshold", "-1"], "'--threshold' must be a number of at least 0"),
        (["--seed", "1", "--roll", "3"], "'--seed/--roll' must be at most one of"),
        (["--fortification-cover", "x"], "'--fortification-cover' must be one of path_end"),
        (["--out", "x.gif"], "'--out' must be a file name ending in .png or .svg"),
        (["--units", "de-mg"], "'--units' must be units in hex 0206"),
        (["--units", ","], "'--units' must be at least one unit id"),
    ],
)
def test_bad_options_are_one_line_with_exit_code_2(capsys, args, field):
    code, _, err = run(capsys, *MOVE, *args)
    assert code == 2
    assert err.count("\n") == 1
    assert field in err


def test_a_bad_path_is_one_line_naming_the_hex(capsys):
    code, _, err = run(capsys, "move", "village", "--stack", "0206", "--path", "0306,0605")
    assert code == 2
    assert "'--path'" in err
    assert "0605" in err


@pytest.mark.parametrize(
    ("stack", "path", "field"),
    [
        ("0299", "0306", "'--stack' must be a hex of board"),
        ("0206", "0306,9999", "'--path' must be a hex of board"),
        ("0101", "0102", "'--stack' must be a hex with units in it"),
    ],
)
def test_hexes_off_the_board_name_the_option(capsys, stack, path, field):
    code, _, err = run(capsys, "move", "village", "--stack", stack, "--path", path)
    assert code == 2
    assert field in err


def test_the_docs_figures_of_the_sample_move_are_the_commands(capsys):
    """docs/vv.md quotes the sample move's first-pin chances (lanes laid by default, 13.9)."""
    doc = " ".join((Path(__file__).parents[2] / "docs" / "vv.md").read_text().split())
    for lanes in ("always", "never"):
        code, out, _ = run(capsys, *MOVE, "--lanes", lanes, "--json")
        assert code == 0
        first = {h["hex"]: h["first_hit"]["fraction"] for h in json.loads(out)["hexes"]}
        if lanes == "always":
            quoted = (
                f"the first pin happens in 0306 with chance {first['0306']}, in 0406 with "
                f"{first['0406']} (the MG42's fire lane) and in 0606 with {first['0606']}"
            )
        else:
            quoted = f"({first['0606']} with `--lanes never`)"
        assert quoted in doc
