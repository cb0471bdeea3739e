"""Scenario files: the samples load, and every mistake is one line naming the file and the
place in it (docs/engagements.md)."""

from __future__ import annotations

import pytest

from firefight.errors import InputError
from firefight.sim.scenario import ScenarioError, load_scenario, parse_scenario, sample_scenarios

GOOD = """
ruleset = "ept"
[situation]
range = "normal"
[a]
name = "A"
[a.target]
protection = "light"
[[a.units]]
name = "a1"
strength = [6, 3]
morale = 7
[b]
[[b.units]]
name = "b1"
strength = 5
morale = 6
"""


def test_every_rule_set_with_engagement_rules_ships_a_sample_scenario():
    rulesets = {load_scenario(name).ruleset for name in sample_scenarios()}
    assert rulesets == {"ept", "vv", "tirs", "percentile"}


def test_a_good_scenario_reads_one_number_as_a_one_step_strength():
    scenario = parse_scenario(GOOD, "good.toml")
    assert scenario.sides[1].units[0].strength == (5,)
    assert scenario.sides[1].name == "b"
    assert scenario.order == "alternating"
    assert scenario.turns == 10


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            ("morale = 6", "morale = 6\nstrenght = 4"),
            "bad.toml: b.units[1]: unknown field 'strenght' (allowed: name, strength,",
        ),
        (
            ("morale = 7", "morale = 7\nsteps = 3"),
            "bad.toml: a.units[1]: 'steps' must be from 1 to 2 (one strength per step) (got 3)",
        ),
        (
            ('[[b.units]]\nname = "b1"\nstrength = 5\nmorale = 6\n', "units = []\n"),
            "bad.toml: b.units: a side needs at least one unit (got none)",
        ),
        (
            ('ruleset = "ept"', 'ruleset = "asl"'),
            "bad.toml: ruleset: must be one of ept, percentile, tirs, vv (got 'asl')",
        ),
        (
            ('range = "normal"', 'range = "far"'),
            "bad.toml: situation: 'range' must be one of adjacent, normal, long (got 'far')",
        ),
        (
            ('protection = "light"', 'protection = "thick"'),
            "bad.toml: a.target: 'protection' must be one of none, light, medium, important",
        ),
        (
            ('range = "normal"', "strength = 9"),
            "bad.toml: situation: 'strength' comes from each unit, not from the situation",
        ),
        (
            ('range = "normal"', "rnage = 2"),
            "bad.toml: situation: unknown field 'rnage' of ept fire (allowed: range,",
        ),
        (
            ("morale = 6", "morale = 13"),
            "bad.toml: b.units[1]: 'morale' must be an integer from 2 to 12 (got 13)",
        ),
        (
            ('ruleset = "ept"', 'ruleset = "ept"\nturns = 0'),
            "bad.toml: turns: must be an integer from 1 to 100 (got 0)",
        ),
        (
            ('ruleset = "ept"', 'ruleset = "ept"\npolicy = "nearest"'),
            "bad.toml: policy: must be one of best_expected_effect, focus, spread (got 'nearest')",
        ),
        (
            ('ruleset = "ept"', 'ruleset = "ept"\nside = 3'),
            "bad.toml: top level: unknown field 'side'",
        ),
        (("[b]\n", "[c]\n"), "bad.toml: top level: unknown field 'c'"),
        (("[situation]", "[situation"), "bad.toml: TOML: "),
    ],
)
def test_a_bad_scenario_is_one_line_naming_the_file_and_the_place(change, message):
    old, new = change
    assert old in GOOD
    with pytest.raises(ScenarioError) as raised:
        parse_scenario(GOOD.replace(old, new, 1), "bad.toml")
    text = str(raised.value)
    assert "\n" not in text
    assert text.startswith(message)


def test_a_second_unit_of_the_same_name_is_refused():
    text = GOOD + '[[b.units]]\nname = "b1"\nstrength = 4\nmorale = 6\n'
    with pytest.raises(ScenarioError, match=r"b.units\[2\]: a second unit named 'b1'"):
        parse_scenario(text, "bad.toml")


def test_an_impossible_vv_state_is_refused():
    text = """
ruleset = "vv"
[a]
[[a.units]]
name = "hs"
kind = "half_squad"
apfp = 3
casualty_rating = 2
reduced = true
[b]
[[b.units]]
name = "s"
apfp = 4
casualty_rating = 4
half_squad_apfp = 2
half_squad_rating = 2
"""
    with pytest.raises(ScenarioError, match=r"bad.toml: a.units\[1\]: 'reduced' must be false"):
        parse_scenario(text, "bad.toml")


def test_a_missing_scenario_file_names_the_samples(tmp_path):
    with pytest.raises(InputError, match="ept_hedgerow"):
        load_scenario(str(tmp_path / "nowhere.toml"))


def test_a_tirs_state_off_the_units_track_names_the_unit():
    text = """
ruleset = "tirs"
[rules]
crew_hits = "two"
[a]
[[a.units]]
name = "crew"
kind = "gun_crew"
cdt = 2
experience = "trained"
state = "demoralized"
[b]
[[b.units]]
name = "g"
cdt = 3
experience = "trained"
"""
    with pytest.raises(
        ScenarioError,
        match=r"bad.toml: a.units\[1\]: 'state' must be one of normal, pinned for a gun_crew",
    ):
        parse_scenario(text, "bad.toml")
    with pytest.raises(ScenarioError, match=r"bad.toml: a.units\[1\]: 'state' must be one of"):
        parse_scenario(text.replace('"demoralized"', '"2nd pinned"'), "bad.toml")


def test_a_side_of_more_than_twelve_units_is_refused():
    extra = "".join(f'[[b.units]]\nname = "x{i}"\nstrength = 4\nmorale = 6\n' for i in range(12))
    with pytest.raises(ScenarioError, match=r"b.units: a side has at most 12 units \(got 13\)"):
        parse_scenario(GOOD + extra, "bad.toml")
