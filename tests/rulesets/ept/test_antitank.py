"""EPT antitank fire: every chart cell against the seed's text, the odds against twins computed
from that text alone (tests/rulesets/ept/antitank_seed.py), monotonicity and replay."""

from __future__ import annotations

import math
import re
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firefight.core.chart import Chart, load_chart
from firefight.rulesets.ept.antitank import (
    at_fire_gun_table,
    at_fire_table,
    portable_table,
    to_hit_gun_table,
    to_hit_table,
)
from firefight.rulesets.ept.fire import DATA
from tests.helpers import assert_replay_reproduces, assert_samples_agree_with_odds
from tests.rulesets.ept.antitank_seed import (
    ANY_INPUT,
    AT_FIRE,
    AT_FIRE_CELLS,
    AT_FIRE_GUN,
    AT_SHOT,
    HINDRANCE_MAXIMUM,
    PF_AVAILABILITY,
    PORTABLE,
    PORTABLE_MAXIMUM,
    PORTABLE_MODIFIERS,
    PORTABLE_NUMBERS,
    TO_HIT,
    TO_HIT_GUN,
    TO_HIT_MODIFIERS,
    TO_HIT_NUMBERS,
    WEAPONS,
    at_fire_inputs,
    portable_inputs,
    shot_inputs,
    to_hit_inputs,
    twin_at_fire,
    twin_portable,
    twin_shot,
    twin_to_hit,
)


def test_the_seed_texts_parse_to_the_charts_printed_sizes():
    assert len(AT_FIRE_CELLS) == 11 * 8
    assert len(AT_FIRE_GUN) == 3 * 3
    assert len(TO_HIT_GUN) == 3 * 2
    assert HINDRANCE_MAXIMUM == 3
    assert list(TO_HIT_NUMBERS) == [(1, 10, 8), (11, 20, 7), (21, math.inf, 6)]
    assert PORTABLE_NUMBERS == {"Panzerschreck": 7, "Panzerfaust": 6, "Bazooka": 6, "PIAT": 5}
    assert PORTABLE_MAXIMUM == {"Panzerschreck": 2, "Panzerfaust": 1, "Bazooka": 2, "PIAT": 2}
    assert TO_HIT_MODIFIERS == {
        "Moving target": 2,
        "Moving firer": 2,
        "Recruit": 1,
        "Veteran": -1,
        "Large": -1,
        "Small": 1,
        "Very small": 2,
    }
    assert PORTABLE_MODIFIERS == {
        "Large": -1,
        "Small": 1,
        "Very small": 2,
        "Firer with movement marker": 2,
        "Target with movement marker": 2,
        "Recruit": 1,
        "Veteran": -1,
        "Schurzen (on side)": 1,
        "at 2 hexes": 1,
    }


def at_fire_differences(chart: Chart) -> list[str]:
    found = []
    for (row, column), expected in AT_FIRE_CELLS.items():
        actual = chart.cell_at(row, column).value
        if actual != expected:
            found.append(f"row {row}, column {column}: data {actual!r}, seed {expected!r}")
    if list(chart.columns.labels) != ["<=0", "1", "2", "3", "4", "5", "6", ">=7"]:
        found.append(f"columns {chart.columns.labels}")
    return found


def gun_differences(chart: Chart, seed: dict[tuple[str, int], str]) -> list[str]:
    found = []
    thresholds = sorted({t for _, t in seed})
    if [int(re.sub(r"\D", "", label)) for label in chart.columns.labels] != thresholds:
        found.append(f"columns {chart.columns.labels}")
    for (gun, threshold), expected in seed.items():
        column = next(label for label in chart.columns.labels if f"{threshold} hex." in label)
        actual = chart.cell_at(gun, column).value
        if actual != expected:
            found.append(f"{gun}, {column}: data {actual!r}, seed {expected!r}")
    return found


def to_hit_differences(chart: Chart) -> list[str]:
    found = []
    bands = [(lo, hi) for lo, hi, _ in TO_HIT_NUMBERS]
    if list(chart.columns.bands) != bands:
        found.append(f"columns {chart.columns.labels}")
    for lo, hi, number in TO_HIT_NUMBERS:
        for distance in (lo, lo + 1, 40 if hi == math.inf else int(hi)):
            actual = chart.lookup_label("Armor", distance).value
            if actual != str(number):
                found.append(f"distance {distance}: data {actual!r}, seed {number!r}")
    return found


def portable_differences(chart: Chart) -> list[str]:
    found = []
    if sorted(chart.rows.labels) != sorted(PORTABLE_NUMBERS):
        found.append(f"rows {chart.rows.labels}")
    for weapon, number in PORTABLE_NUMBERS.items():
        for column, expected in (
            ("number", number),
            ("maximum distance (hexagons)", PORTABLE_MAXIMUM[weapon]),
        ):
            actual = chart.cell_at(weapon, column).value
            if actual != str(expected):
                found.append(f"{weapon}, {column}: data {actual!r}, seed {expected!r}")
    return found


CHECKS = {
    "at_fire.toml": at_fire_differences,
    "at_fire_gun.toml": lambda chart: gun_differences(chart, AT_FIRE_GUN),
    "at_to_hit.toml": to_hit_differences,
    "at_to_hit_gun.toml": lambda chart: gun_differences(chart, TO_HIT_GUN),
    "portable_at.toml": portable_differences,
}


@pytest.mark.parametrize(
    ("name", "chart"),
    [
        ("at_fire.toml", at_fire_table),
        ("at_fire_gun.toml", at_fire_gun_table),
        ("at_to_hit.toml", to_hit_table),
        ("at_to_hit_gun.toml", to_hit_gun_table),
        ("portable_at.toml", portable_table),
    ],
)
def test_the_data_file_agrees_with_the_seed_everywhere(name, chart):
    assert CHECKS[name](chart()) == []


@pytest.mark.parametrize(("row", "column"), sorted(AT_FIRE_CELLS))
def test_antitank_fire_cell_matches_the_seed(row, column):
    assert at_fire_table().cell_at(row, column).value == AT_FIRE_CELLS[row, column]


@pytest.mark.parametrize(
    ("name", "line", "typo", "expected"),
    [
        (
            "at_fire.toml",
            '"8" =  ["-", "-", "-", "-", "S", "I", "D", "D"]',
            '"8" =  ["-", "-", "-", "-", "S", "D", "D", "D"]',
            ["row 8, column 5: data 'D', seed 'I'"],
        ),
        (
            "at_fire_gun.toml",
            '"Medium" = ["--", "+1", "+2"]',
            '"Medium" = ["--", "+2", "+2"]',
            ["Medium, >10 hex.: data '+2', seed '+1'"],
        ),
        (
            "at_to_hit.toml",
            '"Armor" = ["8",  "7",   "6"]',
            '"Armor" = ["8",  "6",   "6"]',
            [
                "distance 11: data '6', seed 7",
                "distance 12: data '6', seed 7",
                "distance 20: data '6', seed 7",
            ],
        ),
        (
            "at_to_hit_gun.toml",
            '"Long" =   ["--",  "--"]',
            '"Long" =   ["--",  "+1"]',
            ["Long, > 20 hex.: data '+1', seed '--'"],
        ),
        (
            "portable_at.toml",
            '"Panzerfaust" =   ["6", "1"]',
            '"Panzerfaust" =   ["6", "2"]',
            ["Panzerfaust, maximum distance (hexagons): data '2', seed 1"],
        ),
    ],
)
def test_a_typo_in_a_data_file_is_caught(tmp_path: Path, name, line, typo, expected):
    text = (DATA / name).read_text(encoding="utf-8")
    assert line in text
    bad = tmp_path / name
    bad.write_text(text.replace(line, typo), encoding="utf-8")
    assert CHECKS[name](load_chart(bad)) == expected


# --- the odds equal their twins -------------------------------------------------------------


@given(to_hit_inputs())
def test_to_hit_odds_equal_the_twin(data):
    assert dict(TO_HIT.odds(TO_HIT.parse(data))) == twin_to_hit(data)


@given(at_fire_inputs())
def test_antitank_fire_odds_equal_the_twin(data):
    assert dict(AT_FIRE.odds(AT_FIRE.parse(data))) == twin_at_fire(data)


@settings(max_examples=60)
@given(shot_inputs())
def test_shot_odds_equal_the_twin(data):
    assert dict(AT_SHOT.odds(AT_SHOT.parse(data))) == twin_shot(data)


@given(portable_inputs())
def test_portable_odds_equal_the_twin(data):
    assert dict(PORTABLE.odds(PORTABLE.parse(data))) == twin_portable(data)


@pytest.mark.parametrize("availability", range(7))
def test_panzerfaust_availability_is_the_coloured_die_at_most_the_availability(availability):
    odds = PF_AVAILABILITY.odds(PF_AVAILABILITY.parse({"availability": availability}))
    assert odds["available"] == Fraction(availability, 6)
    assert sum(odds.values()) == 1


@given(ANY_INPUT)
def test_every_distribution_sums_to_exactly_1(case):
    procedure, data = case
    distribution = procedure.odds(procedure.parse(data))
    assert sum(distribution.values()) == 1
    assert all(isinstance(p, Fraction) for p in distribution.values())
    assert sum(Fraction(p) for p in distribution.to_json().values()) == 1


@given(ANY_INPUT, st.integers(0, 2**32))
def test_scripted_rolls_reproduce_the_sampled_trace(case, seed):
    procedure, data = case
    assert_replay_reproduces(procedure, data, seed)


def test_20000_seeded_shots_agree_with_the_exact_odds():
    shot = AT_SHOT.parse(
        {"distance": 12, "gun_length": "medium", "at_value": 9, "front_armour": 6, "side_armour": 3}
    )
    assert_samples_agree_with_odds(AT_SHOT, shot, 20_000)


# --- monotonicity ---------------------------------------------------------------------------

WORST_FIRST = ("destroyed", "immobilized", "shut_down")


def at_least(distribution, outcomes) -> list[Fraction]:
    """P(destroyed), P(destroyed or immobilized), P(destroyed, immobilized or shut down)."""
    return [sum((distribution[o] for o in outcomes[: i + 1]), Fraction(0)) for i in range(3)]


@settings(max_examples=60)
@given(to_hit_inputs())
def test_a_longer_distance_never_makes_a_hit_likelier(data):
    near = TO_HIT.odds(TO_HIT.parse(data))["hit"]
    far = TO_HIT.odds(TO_HIT.parse({**data, "distance": data["distance"] + 1}))["hit"]
    assert far <= near


@settings(max_examples=60)
@given(shot_inputs())
def test_a_longer_distance_never_makes_a_kill_likelier(data):
    near = at_least(AT_SHOT.odds(AT_SHOT.parse(data)), WORST_FIRST)
    far_data = {**data, "distance": data["distance"] + 1}
    far = at_least(AT_SHOT.odds(AT_SHOT.parse(far_data)), WORST_FIRST)
    assert all(f <= n for f, n in zip(far, near, strict=True))


@settings(max_examples=60)
@given(shot_inputs())
def test_more_armour_never_makes_destroyed_or_immobilized_likelier(data):
    thicker = {
        **data,
        "front_armour": data["front_armour"] + 1,
        "side_armour": data["side_armour"] + 1,
    }
    for procedure, outcomes in ((AT_SHOT, WORST_FIRST), (AT_FIRE, ("D", "I", "S"))):
        fields = procedure.input_model.model_fields
        thin = at_least(
            procedure.odds(procedure.parse({k: data[k] for k in fields if k in data})), outcomes
        )
        thick = at_least(
            procedure.odds(procedure.parse({k: thicker[k] for k in fields if k in thicker})),
            outcomes,
        )
        assert all(t <= s for t, s in zip(thick, thin, strict=True))


@settings(max_examples=40)
@given(at_fire_inputs())
def test_the_rear_is_never_harder_than_the_side(data):
    side = at_least(AT_FIRE.odds(AT_FIRE.parse({**data, "facing": "side"})), ("D", "I", "S"))
    rear = at_least(AT_FIRE.odds(AT_FIRE.parse({**data, "facing": "rear"})), ("D", "I", "S"))
    assert all(r >= s for r, s in zip(rear, side, strict=True))


@settings(max_examples=60)
@given(portable_inputs(), st.sampled_from(WEAPONS), st.sampled_from(WEAPONS))
def test_a_bigger_weapon_number_never_lowers_the_kill_chance(data, first, second):
    numbers = {w: PORTABLE_NUMBERS[{"piat": "PIAT"}.get(w, w.capitalize())] for w in WEAPONS}
    small, big = sorted((first, second), key=numbers.__getitem__)
    base = {
        k: v for k, v in data.items() if k not in ("weapon", "panzerfaust_check", "availability")
    }
    base["distance"] = 1
    weak = PORTABLE.odds(PORTABLE.parse({**base, "weapon": small}))
    strong = PORTABLE.odds(PORTABLE.parse({**base, "weapon": big}))
    assert strong["destroyed"] >= weak["destroyed"]
    assert strong["destroyed"] + strong["immobilized"] >= weak["destroyed"] + weak["immobilized"]


@settings(max_examples=60)
@given(
    portable_inputs(),
    st.sampled_from(("firer_movement_marker", "target_movement_marker", "schurzen_on_side")),
)
def test_an_adverse_portable_modifier_never_raises_the_kill_chance(data, adverse):
    without = PORTABLE.odds(PORTABLE.parse({**data, adverse: False}))
    with_it = PORTABLE.odds(PORTABLE.parse({**data, adverse: True}))
    assert with_it["destroyed"] <= without["destroyed"]
    assert (
        with_it["destroyed"] + with_it["immobilized"]
        <= without["destroyed"] + without["immobilized"]
    )


@settings(max_examples=60)
@given(to_hit_inputs())
def test_a_slower_turret_never_makes_a_hit_likelier(data):
    quick = TO_HIT.odds(TO_HIT.parse(data))["hit"]
    slow = TO_HIT.odds(TO_HIT.parse({**data, "turret_penalty": data["turret_penalty"] + 1}))["hit"]
    assert slow <= quick
