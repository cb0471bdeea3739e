"""EPT artillery, continued (``test_artillery.py``): worked examples of the delay, scatter,
impact and mission charts, and the command line."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from firefight.errors import InputError, RuleError
from firefight.rulesets.ept.artillery import (
    Impact,
    read_scatter,
)
from tests.helpers import assert_odds_json_sums_to_1
from tests.helpers import run_cli as run
from tests.rulesets.ept.test_artillery import (
    DELAY,
    INDIRECT,
    MISSION,
    MOVEMENTS,
    SCATTER,
    twin_indirect_odds,
)

# --- worked examples ----------------------------------------------------------------------------


def test_the_delay_value_falls_with_each_printed_modifier():
    plain = DELAY.parse({})
    assert dict(DELAY.facts(plain)) == {"delay value": "7", "the fire arrives on": "2d6 >= 7"}
    assert dict(DELAY.odds(plain)) == {"arrives": Fraction(21, 36), "delayed": Fraction(15, 36)}
    every = DELAY.parse({"german": True, "pre_registered": True, "additional_turns": 2})
    assert dict(DELAY.facts(every))["delay value"] == "3"
    assert [(m.label, m.display()) for m in DELAY.modifiers(every)] == [
        ("German (value -1, i.e. +1 to the dice)", "+1"),
        ("pre-registered bombardment (value -1, i.e. +1 to the dice)", "+1"),
        ("2 additional turns (value -2, i.e. +2 to the dice)", "+2"),
    ]
    assert DELAY.odds(every)["arrives"] == Fraction(35, 36)


def test_the_1d6_reading_never_arrives_at_an_unmodified_7():
    assert dict(DELAY.odds(DELAY.parse({"delay_test": "1d6_at_least"}))) == {"delayed": 1}
    german = DELAY.parse({"delay_test": "1d6_at_least", "german": True})
    assert DELAY.odds(german)["arrives"] == Fraction(1, 6)


def test_delay_resolution_with_the_players_dice():
    resolution = DELAY.replay(DELAY.parse({"german": True}), ["3", "3"])
    assert resolution.outcome == "arrives"
    assert str(resolution.trace[-1]).endswith("6 >= value 6: the fire arrives")


def test_scatter_reads_the_chart_rows_and_clamps_both_ends():
    assert [read_scatter(v, "three_hexes").distance for v in range(-3, 11)] == [
        0, 0, 0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 3, 3
    ]  # fmt: skip
    assert [read_scatter(v, "extend").distance for v in range(7, 18)] == [
        3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8
    ]  # fmt: skip
    assert read_scatter(-2, "three_hexes").text == "row 0,1,2 (read as 0) -> in the hex"
    assert read_scatter(9, "three_hexes").text == "row 7 (read as 7) -> three hexes"


def test_scatter_modifiers_are_itemized_in_the_chart_order():
    inp = SCATTER.parse({"fire_without_correction": "third", "observer_distance": 31, "weather": 2})
    assert [(m.label, m.display()) for m in SCATTER.modifiers(inp)] == [
        ("third fire without correction", "-2"),
        ("observer at 31 hexes", "+2"),
        ("weather (visibility level)", "+2"),
    ]
    assert dict(SCATTER.facts(inp)) == {"distance die modifier": "+2"}


@pytest.mark.parametrize(
    ("distance", "modifier"), [(1, -1), (9, -1), (10, 0), (20, 0), (21, 1), (30, 1), (31, 2)]
)
def test_observer_distance_bands(distance, modifier):
    inp = SCATTER.parse({"observer_distance": distance})
    assert dict(SCATTER.facts(inp))["distance die modifier"] == f"{modifier:+}"


def test_an_observer_out_of_los_counts_as_no_observer_by_default():
    out = SCATTER.parse({"observer_distance": 5, "observer_out_of_los": True})
    assert [(m.label, m.display()) for m in SCATTER.modifiers(out)] == [
        ("observer out of LOS", "+3")
    ]
    both = SCATTER.parse(
        {"observer_distance": 5, "observer_out_of_los": True, "out_of_los_distance": "cumulative"}
    )
    assert dict(SCATTER.facts(both))["distance die modifier"] == "+2"
    assert [m.label for m in SCATTER.modifiers(SCATTER.parse({}))] == ["no observer"]


def test_scatter_odds_and_the_direction_die():
    inp = SCATTER.parse({"observer_distance": 12})
    assert dict(SCATTER.odds(inp)) == {
        "0": Fraction(1, 3),
        "1": Fraction(1, 3),
        "2": Fraction(1, 3),
    }
    in_hex = SCATTER.replay(inp, ["2"])
    assert in_hex.outcome == "0"
    assert [e.label for e in in_hex.trace] == [
        "distance of impact (1d6)",
        "EMPARPILLEMENT (Scatter)",
    ]
    off = SCATTER.replay(inp, ["6", "4"])
    assert off.outcome == "2"
    assert [(e.label, e.value) for e in off.trace if e.kind == "roll"] == [
        ("distance of impact (1d6)", 6),
        ("direction (1d6)", 4),
    ]


def test_indirect_fire_terrain_rule():
    inp = INDIRECT.parse(
        {"strength": 8, "mortar": True, "target_hidden": True, "terrain_modifiers": 3,
         "target_movement": "force_march"}
    )  # fmt: skip
    assert [(m.label, m.display(), m.kind.value) for m in INDIRECT.modifiers(inp)] == [
        ("unit hidden (mortar)", "x1/2", "factor"),
        ("terrain in the target hex +3, -1 (minimum 0)", "+2", "dice"),
        ("unit in force march", "-1", "dice"),
    ]
    assert dict(INDIRECT.facts(inp)) == {
        "final attack factor": "8 -> 4",
        "Combat Table column": "4",
        "dice modifier": "+1",
    }


def test_hidden_halves_mortars_only_and_tactical_movement_does_not_count():
    artillery = INDIRECT.parse(
        {
            "strength": 8,
            "target_hidden": True,
            "terrain_modifiers": 1,
            "target_movement": "tactical",
        }
    )
    assert [(m.label, m.display()) for m in INDIRECT.modifiers(artillery)] == [
        ("terrain in the target hex +1, -1 (minimum 0)", "+0")
    ]
    assert dict(INDIRECT.facts(artillery))["unit hidden"] == "no effect (mortars only)"
    assert dict(INDIRECT.odds(artillery)) == twin_indirect_odds(
        {"strength": 8, "terrain_modifiers": 1}
    )


def test_a_hidden_target_can_leave_a_mortar_no_column():
    with pytest.raises(RuleError, match="cannot attack"):
        INDIRECT.odds(INDIRECT.parse({"strength": 1, "mortar": True, "target_hidden": True}))


def test_impact_cells_are_read_as_strength_and_smoke():
    assert Impact.parse("12^2") == Impact(12, 2)
    assert Impact.parse("14") == Impact(14, None)
    assert Impact.parse("-") == Impact(None, None)


def test_mission_worked_example():
    inp = MISSION.parse({"artillery": "medium", "observer_distance": 12, "terrain_modifiers": 3})
    resolution = MISSION.replay(inp, ["5", "4", "3", "3"])
    assert [str(e) for e in resolution.trace] == [
        "distance of impact (1d6): 5",
        "EMPARPILLEMENT (Scatter): 5 +0 = 5: row 5,6 -> two hexes",
        "direction (1d6): 4",
        "ARTILLERIE/BOMBES (Artillery/Bombs): Medium, distance of impact 2 -> 4^1",
        "combat roll (2d6): 3 + 3 = 6",
        "TABLE DE COMBAT (Combat Table): 6 +2 = 8: row 8, column 4 -> -",
    ]
    assert resolution.outcome == "-"
    light = MISSION.parse({"artillery": "light", "observer_distance": 12})
    assert MISSION.replay(light, ["6", "1"]).outcome == "-"  # two hexes: "-", no combat roll


def test_smoke_missions_give_the_marker_and_no_attack():
    inp = MISSION.parse({"artillery": "light", "mission": "smoke", "observer_distance": 12})
    assert dict(MISSION.odds(inp)) == {
        "no_smoke": Fraction(1, 3),
        "smoke_1": Fraction(1, 3),
        "smoke_2": Fraction(1, 3),
    }
    with pytest.raises(InputError, match="prints no Smoke marker for bombs"):
        MISSION.parse({"artillery": "bomb", "mission": "smoke"})


def test_extended_scatter_beyond_three_hexes_has_no_effect():
    inp = MISSION.parse(
        {"artillery": "heavy", "weather": 6, "scatter_above_7": "extend"}
    )  # die 1 + 9 = 10 reads four hexes at best
    assert dict(MISSION.odds(inp)) == {"-": 1}
    assert "beyond the chart" in str(MISSION.replay(inp, ["1", "1"]).trace[3])


# --- the command line ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["artillery_delay", "--german", "--additional-turns", "1"],
        ["scatter", "--observer-distance", "25", "--fire-without-correction", "second"],
        ["indirect_fire", "--strength", "8", "--mortar", "--target-hidden"],
        ["artillery_mission", "--artillery", "heavy", "--observer-distance", "12"],
    ],
)
def test_cli_odds_json_sums_to_1(capsys, args):
    assert_odds_json_sums_to_1(capsys, "ept", args)


def test_cli_resolve_mission_with_the_players_dice(capsys):
    code, out, err = run(
        capsys, "resolve", "ept", "artillery_mission", "--artillery", "medium",
        "--observer-distance", "12", "--terrain-modifiers", "3", "--roll", "5,4,3,3", "--json",
    )  # fmt: skip
    assert code == 0, err
    data = json.loads(out)
    assert data["outcome"] == "-"
    assert data["trace"][0]["label"] == "distance of impact (1d6)"


def test_cli_tables_list_the_artillery_charts(capsys):
    code, out, _ = run(capsys, "tables", "ept", "--json")
    assert code == 0
    ids = {chart["id"] for chart in json.loads(out)}
    assert {"artillery_delay", "artillery_impact", "scatter"} <= ids
    code, out, _ = run(capsys, "table", "ept", "artillery_impact", "--json")
    assert json.loads(out)["cells"][2] == ["16^2", "10^2", "6^2", "4^1"]


def test_cli_bad_input_is_one_line_and_exit_2(capsys):
    code, _, err = run(capsys, "odds", "ept", "artillery_mission", "--artillery", "huge")
    assert code == 2
    assert err.strip() == (
        "error: '--artillery' must be one of light, medium, heavy, bomb (got 'huge')"
    )
    code, _, err = run(capsys, "resolve", "ept", "scatter", "--roll", "7")
    assert code == 2
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("delay_test", ["2d6_at_least", "1d6_at_least"])
def test_after_six_additional_turns_the_fire_has_surely_arrived(delay_test):
    """Why ``additional_turns`` stops at 6: 7 - 6 = 1, reached on any test, so no
    seventh turn is ever waited; a seventh is refused in one line."""
    last = DELAY.parse({"additional_turns": 6, "delay_test": delay_test})
    assert dict(DELAY.odds(last)) == {"arrives": 1}
    with pytest.raises(InputError, match=r"'additional_turns' must be an integer from 0 to 6"):
        DELAY.parse({"additional_turns": 7, "delay_test": delay_test})


@pytest.mark.parametrize("movement", MOVEMENTS)
def test_terrain_modifiers_stop_where_every_roll_reads_the_last_row(movement):
    """Why ``terrain_modifiers`` stops at 15: 2d6 + 15 - 1 (and -1 for a moving
    target) reads row 15+ on every roll, as any larger sum would."""
    inp = INDIRECT.parse({"strength": 6, "terrain_modifiers": 15, "target_movement": movement})
    assert len(INDIRECT.odds(inp)) == 1
    with pytest.raises(InputError, match=r"'terrain_modifiers' must be an integer from 0 to 15"):
        INDIRECT.parse({"strength": 6, "terrain_modifiers": 16})
