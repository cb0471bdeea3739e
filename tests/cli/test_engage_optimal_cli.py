"""``firefight engage --optimal``: the best fire plan, its documented JSON and its one-line
refusals (docs/advisor-engagements.md)."""

from __future__ import annotations

import json
from fractions import Fraction

from firefight.cli import main

SMALL = """
ruleset = "ept"
title = "small"
turns = 2
[situation]
range = "normal"
[a]
name = "Germans"
[[a.units]]
name = "MG"
strength = [6]
morale = 7
[b]
name = "Americans"
[[b.units]]
name = "Squad"
strength = [5]
morale = 7
[[b.units]]
name = "BAR"
strength = [3]
morale = 6
"""

KEYS = {
    "scenario",
    "title",
    "ruleset",
    "exact",
    "turns",
    "order",
    "policy",
    "side",
    "side_name",
    "objective",
    "opponent",
    "note",
    "optimal",
    "both_scenario_policy",
    "heuristics",
    "plan",
    "nodes",
}


def _file(tmp_path):
    path = tmp_path / "small.toml"
    path.write_text(SMALL, encoding="utf-8")
    return str(path)


def test_optimal_json_has_the_documented_shape_and_the_heuristics_losses(tmp_path, capsys):
    assert main(["engage", _file(tmp_path), "--optimal", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) == KEYS
    assert data["exact"] is True
    assert data["opponent"] == "optimal"
    best = Fraction(data["optimal"])
    assert [h["policy"] for h in data["heuristics"]] == ["best_expected_effect", "focus", "spread"]
    for row in data["heuristics"]:
        assert Fraction(row["loss"]) == best - Fraction(row["value"]) >= 0
    first = data["plan"][0]
    assert first["unit"] == "MG"
    assert Fraction(first["probability"]) == 1
    assert first["best"] in {a["target"] for a in first["alternatives"]}
    assert max(Fraction(a["value"]) for a in first["alternatives"]) == best


def test_optimal_prints_the_policies_and_the_first_turns_plan(tmp_path, capsys):
    assert (
        main(["engage", _file(tmp_path), "--optimal", "--side", "b", "--objective", "losses"]) == 0
    )
    out = capsys.readouterr().out
    assert "best fire plan for Americans" in out
    assert "best expected effect" in out
    assert "Turn 1: Squad fires at MG" in " ".join(out.split())


def test_simultaneous_fire_is_a_best_response_and_says_so(tmp_path, capsys):
    path = tmp_path / "simultaneous.toml"
    path.write_text(SMALL.replace('title = "small"', 'title = "small"\norder = "simultaneous"'))
    assert main(["engage", str(path), "--optimal", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["opponent"] == "best_expected_effect"
    assert "mixed strategies" in data["note"]
    assert main(["engage", str(path), "--optimal", "--against", "optimal"]) == 2
    assert "mixed strategies" in capsys.readouterr().err


def test_optimal_options_are_refused_in_one_line_where_they_do_not_belong(tmp_path, capsys):
    path = _file(tmp_path)
    assert main(["engage", path, "--side", "b"]) == 2
    assert capsys.readouterr().err == (
        "error: --side, --objective and --against apply only with --optimal (got --side 'b')\n"
    )
    assert main(["engage", path, "--objective", "losses", "--against", "focus"]) == 2
    assert capsys.readouterr().err == (
        "error: --side, --objective and --against apply only with --optimal "
        "(got --objective 'losses', --against 'focus')\n"
    )
    assert main(["engage", path, "--optimal", "--seed", "3"]) == 2
    assert "'--seed' must be left out with the optimal policy" in capsys.readouterr().err
    assert main(["engage", path, "--optimal", "--objective", "kills"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "'--objective' must be one of win, losses (got 'kills')" in err
