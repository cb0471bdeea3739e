"""``firefight threat``: the table, the documented JSON shape, the picture, one-line errors
with exit code 2."""

from __future__ import annotations

import json
from fractions import Fraction

from tests.helpers import run_cli as run


def test_threat_prints_the_hexes_under_fire_most_dangerous_first(capsys):
    code, out, _ = run(capsys, "threat", "village", "--side", "us")
    assert code == 0
    assert "threat map of the move of Americans" in out
    assert "de-sq1+de-ldr in 0605" in out
    assert "hexes under fire" in out
    first = out.index("0505")  # two firers, the most dangerous hex
    assert first < out.index("0406")


def test_threat_json_has_the_documented_shape(capsys):
    code, out, _ = run(capsys, "threat", "village", "--side", "us", "--json")
    assert code == 0
    data = json.loads(out)
    assert set(data) == {"scenario", "board", "side", "stack", "target", "firers", "lanes", "hexes"}
    assert data["stack"] is None
    assert data["target"]["description"].startswith("a full squad moving normally")
    here = data["hexes"]["0505"]
    spared = Fraction(1)
    for firer in here["firers"]:
        assert set(firer) == {
            "units",
            "hex",
            "range",
            "apfp",
            "row",
            "modifiers",
            "dice_modifier",
            "pinned_or_worse",
        }
        spared *= 1 - Fraction(firer["pinned_or_worse"])
    assert Fraction(here["pinned_or_worse"]) == 1 - spared


def test_a_stack_and_assault_movement_change_the_target(capsys):
    code, out, _ = run(
        capsys, "threat", "village", "--side", "us", "--stack", "0206", "--assault", "--json"
    )
    assert code == 0
    data = json.loads(out)
    assert data["stack"] == "0206"
    assert data["target"]["units"] == ["us-sq1", "us-sq2", "us-ldr"]
    assert data["target"]["assault_movement"] is True
    assert "0206" not in data["hexes"]


def test_threat_draws_a_picture(capsys, tmp_path):
    out_file = tmp_path / "threat.svg"
    code, _, err = run(capsys, "threat", "village", "--side", "de", "--out", str(out_file))
    assert code == 0
    assert f"drawn to {out_file}" in err
    text = out_file.read_text(encoding="utf-8")
    assert "de: P(pinned or worse) on entering" in text
    assert ">Sq 4<" in text  # the counters


def test_bad_input_is_one_line_and_exit_code_two(capsys):
    for args, message in (
        (("--side", "fr"), "'side' must be one of us, de (got 'fr')"),
        (("--side", "us", "--stack", "0605"), "'stack' must be a hex holding us's units"),
        (("--side", "us", "--stack", "9999"), "'stack' must be"),
        (("--side", "us", "--out", "/nonexistent/x.png"), "'out' must be a file"),
    ):
        code, _, err = run(capsys, "threat", "village", *args)
        assert code == 2, args
        assert len(err.strip().splitlines()) == 1, err
        assert message in err


def test_a_moves_picture_shades_the_stacks_threat_map_under_its_path(capsys, tmp_path):
    out_file = tmp_path / "move.svg"
    path = "0306,0406,0506"
    code, _, err = run(
        capsys, "move", "village", "--stack", "0206", "--path", path, "--out", str(out_file)
    )
    assert code == 0
    assert f"drawn to {out_file}" in err
    text = out_file.read_text(encoding="utf-8")
    assert "us: P(pinned or worse) on entering, stack 0206" in text
    assert ">83%<" in text  # the first pin's chance in 0306, the path's note
    assert ">MG 5<" in text  # the enemy's counters
