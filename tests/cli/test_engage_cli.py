"""``firefight engage``: the odds, the JSON shape, a seeded run and its replay, the curve,
sampling, and one-line errors with exit code 2."""

from __future__ import annotations

import json
from fractions import Fraction

from tests.helpers import run_cli as run


def test_engage_prints_who_wins_by_turn_and_the_survivors(capsys):
    code, out, _ = run(capsys, "engage", "vv_village")
    assert code == 0
    assert "P(Germans win)" in out
    assert "By turn" in out
    assert "Survivors" in out
    assert "exact" in out


def test_engage_json_has_the_documented_shape_and_exact_fractions(capsys):
    code, out, _ = run(capsys, "engage", "vv_village", "--json")
    assert code == 0
    data = json.loads(out)
    assert {
        "scenario",
        "title",
        "ruleset",
        "exact",
        "label",
        "turns",
        "policy",
        "order",
        "sides",
        "outcome",
        "decided_by",
        "fighting",
        "expected_turns",
        "survivors",
        "end_states",
    } <= set(data)
    assert data["exact"] is True
    assert sum(Fraction(p) for p in data["outcome"].values()) == 1
    assert len(data["decided_by"]) == data["turns"] + 1
    assert set(data["survivors"]["a"]) == {"1st squad", "2nd squad", "MG half squad"}
    assert {"result", "a", "b", "probability"} <= set(data["end_states"][0])


def test_engage_seed_resolves_turn_by_turn_and_roll_replays_it(capsys):
    code, out, _ = run(capsys, "engage", "ept_hedgerow", "--seed", "7", "--turns", "2", "--json")
    assert code == 0
    seeded = json.loads(out)
    assert [t["turn"] for t in seeded["turns"]] == [1, 2][: len(seeded["turns"])]
    assert any(e["label"] == "combat roll (2d6)" for e in seeded["turns"][0]["trace"])
    code, out, _ = run(
        capsys, "engage", "ept_hedgerow", "--roll", seeded["replay"], "--turns", "2", "--json"
    )
    assert code == 0
    replayed = json.loads(out)
    assert replayed["final"] == seeded["final"]
    assert replayed["turns"] == seeded["turns"]
    code, out, _ = run(capsys, "engage", "ept_hedgerow", "--seed", "7", "--turns", "1")
    assert code == 0
    assert "Turn 1" in out
    assert "replay with: --roll" in out


def test_engage_out_draws_the_curve(capsys, tmp_path):
    target = tmp_path / "curve.svg"
    code, _, err = run(capsys, "engage", "vv_village", "--out", str(target))
    assert code == 0
    assert "drawn to" in err
    assert "P(still fighting)" in target.read_text(encoding="utf-8")


def test_engage_samples_are_labelled_sampled_with_intervals(capsys):
    code, out, _ = run(capsys, "engage", "vv_village", "--samples", "2000", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["label"] == "sampled"
    assert data["n"] == 2000
    low, high = data["outcome"]["a_wins"]["interval"]
    assert low <= data["outcome"]["a_wins"]["estimate"] <= high
    code, out, _ = run(capsys, "engage", "vv_village", "--samples", "2000")
    assert "SAMPLED" in out


def test_a_bad_scenario_is_one_line_and_exit_code_2(capsys, tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('ruleset = "ept"\n[a]\nunits = []\n[b]\n', encoding="utf-8")
    code, out, err = run(capsys, "engage", str(bad))
    assert code == 2
    assert out == ""
    assert err == f"error: {bad}: a.units: a side needs at least one unit (got none)\n"


def test_engage_refuses_seed_and_roll_together(capsys):
    code, _, err = run(capsys, "engage", "vv_village", "--seed", "1", "--roll", "3,4")
    assert code == 2
    assert err.count("\n") == 1
    assert "--seed/--roll" in err


def test_a_bad_picture_name_is_refused_before_any_work(capsys, monkeypatch):
    from firefight.sim import engagement  # noqa: PLC0415

    def no_work(*_args, **_kwargs):
        raise AssertionError("the odds were computed")

    monkeypatch.setattr(engagement.Engagement, "answer", no_work)
    code, _, err = run(capsys, "engage", "vv_village", "--out", "curve.txt")
    assert code == 2
    assert err == "error: '--out' must be a file ending in .png or .svg (got 'curve.txt')\n"


def test_samples_with_a_seeded_run_is_refused(capsys):
    code, _, err = run(capsys, "engage", "vv_village", "--seed", "1", "--samples", "500")
    assert code == 2
    assert err == "error: '--samples' must be given without --seed or --roll (got 500)\n"


def test_the_odds_table_prints_each_probability(capsys):
    code, out, _ = run(capsys, "engage", "ept_hedgerow")
    assert code == 0
    assert "exact (--json)" not in out
    data = json.loads(run(capsys, "engage", "ept_hedgerow", "--json")[1])
    numerator, denominator = (int(n) for n in data["outcome"]["a_wins"].split("/"))
    assert f"{numerator / denominator:.7f}…" in out  # too long a fraction: its decimals
    assert data["outcome"]["draw"] == "0"
    code, out, _ = run(capsys, "engage", "vv_village", "--samples", "2000", "--sample-seed", "3")
    sampled = json.loads(
        run(capsys, "engage", "vv_village", "--samples", "2000", "--sample-seed", "3", "--json")[1]
    )
    assert f"≈ {sampled['outcome']['a_wins']['estimate']:.4f}" in out
