"""Engagements as a sweep's cell kind: each row is the engagement's own exact odds (or its
seeded samples), the scenario's fields are the axes, and a bad field names its axis."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from firefight.sim import InProcess, SpecError, cell_seed, find_spec, load_spec, run_sweep
from firefight.sim.engagement import Engagement
from firefight.sim.scenario import read_toml, sample_scenarios, scenario_from_data
from tests.sim.conftest import rows_of, write_spec

SPEC = """
kind = "engagement"
scenario = "vv_village"
mode = "{mode}"
samples = 300
seed = 5

[inputs]
turns = 2

[axes]
"b.target.target_terrain" = ["open", "woods"]
"a.units.3.apfp" = [3, 6]
"""


def cell_engagement(terrain: str, apfp: int) -> Engagement:
    text = sample_scenarios()["vv_village"].read_text(encoding="utf-8")
    data = read_toml(text, "vv_village.toml")
    data["turns"] = 2
    data["b"]["target"]["target_terrain"] = terrain
    data["a"]["units"][2]["apfp"] = apfp
    return Engagement(scenario_from_data(data, "vv_village.toml"))


def test_an_exact_engagement_row_is_the_engagements_own_odds(tmp_path):
    out = tmp_path / "out.csv"
    run_sweep(load_spec(write_spec(tmp_path, SPEC.format(mode="exact"))), out, InProcess())
    rows = rows_of(out)
    assert len(rows) == 4
    row = next(
        r for r in rows if (r["b.target.target_terrain"], r["a.units.3.apfp"]) == ("woods", "6")
    )
    odds = cell_engagement("woods", 6).odds_over_turns()
    assert Fraction(row["exact_a_wins"]) == odds.outcome["a_wins"].value
    assert json.loads(row["distribution"])["undecided"] == str(odds.outcome["undecided"].value)
    assert row["status"] == "ok"


def test_a_sampled_engagement_row_is_reproduced_from_the_cells_seed(tmp_path):
    out = tmp_path / "out.csv"
    spec = load_spec(write_spec(tmp_path, SPEC.format(mode="sampled")))
    run_sweep(spec, out, InProcess())
    row = rows_of(out)[1]
    sampled = cell_engagement(row["b.target.target_terrain"], int(row["a.units.3.apfp"])).sampled(
        300, cell_seed(5, 1)
    )
    counts = {k: v for k, v in (sampled.result_counts or {}).items() if v}
    assert json.loads(row["distribution"]) == dict(sorted(counts.items()))
    assert sum(counts.values()) == 300
    assert row["mode"] == "sampled"


@pytest.mark.parametrize(
    ("axis", "message"),
    [
        (
            '"a.units.3.apfp" = [3, 0]',
            "axes.a.units.3.apfp: vv_village.toml: a.units[3]: "
            "'apfp' must be an integer from 1 to 30 (got 0)",
        ),
        (
            '"a.units.9.apfp" = [3]',
            "axes.a.units.9.apfp: 'a.units.9.apfp': the side has no unit 9",
        ),
        ('"range" = ["short"]', "axes.range: 'range' must be a scenario field"),
        (
            '"b.fire.leadership_modifier" = [5]',
            "axes.b.fire.leadership_modifier: vv_village.toml: b.fire: 'leadership_modifier' "
            "must be an integer from -3 to 0 (got 5)",
        ),
    ],
)
def test_a_bad_scenario_field_names_its_axis(tmp_path, axis, message):
    text = SPEC.format(mode="exact").replace('"a.units.3.apfp" = [3, 6]', axis)
    with pytest.raises(SpecError) as raised:
        load_spec(write_spec(tmp_path, text))
    assert str(raised.value).startswith(f"{tmp_path / 'spec.toml'}: {message}")


def test_an_unknown_scenario_is_a_spec_error_naming_the_samples(tmp_path):
    text = SPEC.format(mode="exact").replace('"vv_village"', '"nowhere"')
    with pytest.raises(SpecError, match=r"spec.toml: scenario: .*vv_village"):
        load_spec(write_spec(tmp_path, text))


def test_the_sample_engagement_sweep_runs(tmp_path):
    out = tmp_path / "out.csv"
    report = run_sweep(load_spec(find_spec("vv_village_cover")), out, InProcess())
    assert report is not None
    rows = rows_of(out)
    assert len(rows) == 9
    assert all(r["status"] == "ok" for r in rows)
