"""EPT vehicle charts: TIR ANTIPERSONNEL PAR UN VEHICULE and TIR ANTIPERSONNEL CONTRE BLINDES,
against the seed's text and a twin written from it."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import firefight
from firefight.core.chart import Chart, load_chart
from firefight.errors import InputError, RuleError
from firefight.rulesets.ept.fire import DATA
from firefight.rulesets.ept.vehicles import indirect_vs_armor_chart, vehicle_ap_chart
from tests.helpers import assert_odds_json_sums_to_1, assert_replay_reproduces
from tests.helpers import run_cli as run
from tests.rulesets.ept.test_fire import twin_followed_odds, twin_odds
from tests.strategies import ept_fire_inputs

EPT = firefight.ruleset("ept")
AP_FIRE = EPT.procedure("vehicle_ap_fire")
ARMOR = EPT.procedure("indirect_vs_armor")
SEVERITY = ["-", "S", "S1", "S2", "N", "N1", "N2", "N3", "1", "E"]

# Pasted verbatim from seed 000 (000_7e545a6d88e32420.txt), re-wrapped only.
SEED_TEXT = """
TIR ANTIPERSONNEL PAR UN VEHICULE = Antipersonnel Fire by a Vehicle DISTANCE >than 6 hex.
>than 10 hex. >than 16 hex. Mods to AP val. -2 -3 -4 -----------------------------
TIR ANTIPERSONNEL CONTRE BLINDES = Antipersonnel Fire Against Armor [should be Indirect Fire
Against Armor?] TYPE OF VEHICLE TYPE OF FIRE HvyArt. Med.Art. LightArt. Armored 5 4 3 Non
armored 10 9 8 Mo90 Mo60 Armored 2 1 Non armored 7 6 Modifiers: Open-topped: -2 (armored only)
Armor front > 10: +1 Test:
"""
TEXT = " ".join(SEED_TEXT.split())

# --- an independent transcription of the seed's text -----------------------------------------

_AP = TEXT.split("DISTANCE ", 1)[1].split(" -----", 1)[0]
SEED_AP_BANDS = [int(n) for n in re.findall(r">than (\d+) hex\.", _AP)]
SEED_AP_MODS = [int(n) for n in _AP.split("Mods to AP val.", 1)[1].split()]
SEED_AP_COLUMNS = re.findall(r">than \d+ hex\.", _AP)


def transcribe_armor(text: str) -> dict[tuple[str, str], str]:
    """(row, column) -> cell, read from the seed's two half-charts."""
    body = text.split("TYPE OF FIRE ", 1)[1].split(" Modifiers:", 1)[0]
    cells: dict[tuple[str, str], str] = {}
    for half in re.split(r" (?=Mo90 )", body):
        columns = re.findall(r"\S+\.|Mo\d+", half.split(" Armored", 1)[0])
        for row in ("Armored", "Non armored"):
            values = re.search(rf"(?:^|\s){row} ((?:\d+ ?)+)", half)
            assert values is not None
            for column, value in zip(columns, values[1].split(), strict=True):
                cells[row, column] = value
    return cells


SEED_ARMOR = transcribe_armor(TEXT)
SEED_OPEN_TOPPED = int(re.search(r"Open-topped: ([-+]\d+)", TEXT)[1])  # type: ignore[index]
_FRONT = re.search(r"Armor front > (\d+): ([-+]\d+)", TEXT)
assert _FRONT is not None
SEED_FRONT_LIMIT, SEED_FRONT_MOD = int(_FRONT[1]), int(_FRONT[2])


def test_the_seed_text_is_transcribed_whole():
    assert SEED_AP_BANDS == [6, 10, 16]
    assert SEED_AP_MODS == [-2, -3, -4]
    assert len(SEED_ARMOR) == 10
    assert SEED_ARMOR["Non armored", "Mo60"] == "6"
    assert (SEED_OPEN_TOPPED, SEED_FRONT_LIMIT, SEED_FRONT_MOD) == (-2, 10, 1)


def armor_differences(chart: Chart) -> list[str]:
    found = []
    for (row, column), expected in SEED_ARMOR.items():
        actual = chart.cell_at(row, column).value
        if actual != expected:
            found.append(f"{row}, {column}: data {actual!r}, seed {expected!r}")
    return found


@pytest.mark.parametrize(("row", "column"), sorted(SEED_ARMOR))
def test_armor_cell_matches_the_seed(row, column):
    assert indirect_vs_armor_chart().cell_at(row, column).value == SEED_ARMOR[row, column]


def test_the_charts_have_the_seed_rows_columns_and_cells():
    armor = indirect_vs_armor_chart()
    assert list(armor.rows.labels) == ["Armored", "Non armored"]
    assert list(armor.columns.labels) == ["HvyArt.", "Med.Art.", "LightArt.", "Mo90", "Mo60"]
    assert armor_differences(armor) == []
    assert "[should be Indirect Fire Against Armor?]" in armor.title
    assert armor.notes == (
        "Modifiers: Open-topped: -2 (armored only) Armor front > 10: +1",
        "Test:",
    )
    assert all(note in TEXT for note in armor.notes)
    ap = vehicle_ap_chart()
    assert list(ap.columns.labels) == SEED_AP_COLUMNS
    assert [int(c) for c in ap.cells[0]] == SEED_AP_MODS


def test_a_typo_in_the_armor_data_is_caught(tmp_path: Path):
    text = (DATA / "indirect_vs_armor.toml").read_text(encoding="utf-8")
    row = '"Non armored" = ["10",   "9",     "8",      "7", "6"]'
    assert row in text
    bad = tmp_path / "indirect_vs_armor.toml"
    bad.write_text(text.replace(row, row.replace('"8"', '"7"')), encoding="utf-8")
    assert armor_differences(load_chart(bad)) == ["Non armored, LightArt.: data '7', seed '8'"]


# --- the twins ---------------------------------------------------------------------------------


def twin_ap_strength(data: dict) -> int:
    mods = [
        m for band, m in zip(SEED_AP_BANDS, SEED_AP_MODS, strict=True) if data["distance"] > band
    ]
    return data["ap_value"] + (mods[-1] if mods else 0)


def twin_fire_data(data: dict) -> dict:
    fire = {k: v for k, v in data.items() if k not in {"ap_value", "distance", "adjacent_fire"}}
    adjacent = data["distance"] == 1 and data.get("adjacent_fire", "doubled") == "doubled"
    return fire | {
        "strength": twin_ap_strength(data),
        "range": "adjacent" if adjacent else "normal",
    }


def twin_ap_odds(data: dict) -> dict[str, Fraction]:
    fire = twin_fire_data(data)
    return twin_followed_odds(fire) if fire.get("follow_up") == "morale_test" else twin_odds(fire)


ARMOR_COLUMNS = {
    "heavy_artillery": "HvyArt.",
    "medium_artillery": "Med.Art.",
    "light_artillery": "LightArt.",
    "mortar_90": "Mo90",
    "mortar_60": "Mo60",
}


def twin_armor_odds(data: dict) -> dict[str, Fraction]:
    row = "Armored" if data["vehicle_type"] == "armored" else "Non armored"
    number = int(SEED_ARMOR[row, ARMOR_COLUMNS[data["fire_type"]]])
    modifier = (SEED_OPEN_TOPPED if data.get("open_topped") and row == "Armored" else 0) + (
        SEED_FRONT_MOD if data.get("front_armour", 0) > SEED_FRONT_LIMIT else 0
    )
    result: dict[str, Fraction] = {}
    for a in range(1, 7):
        for b in range(1, 7):
            total = a + b + modifier
            if data.get("test", "at_most") == "at_most":
                outcome = "destroyed" if total <= number else "no_effect"
            else:
                outcome = (
                    "destroyed"
                    if total < number
                    else ("immobilized" if total == number else "no_effect")
                )
            result[outcome] = result.get(outcome, Fraction(0)) + Fraction(1, 36)
    return result


# --- strategies shaped like these procedures ---------------------------------------------------


@st.composite
def ap_inputs(draw: st.DrawFn, follow_up: bool = False) -> dict:
    """Raw input for ``ept vehicle_ap_fire`` that can fire."""
    fire = draw(ept_fire_inputs(follow_up=follow_up))
    data = {k: v for k, v in fire.items() if k not in {"strength", "range"}}
    data["distance"] = draw(st.integers(1, 24))
    data["hindrance_hexes"] = min(int(data["hindrance_hexes"]), data["distance"] - 1)
    data["adjacent_fire"] = draw(st.sampled_from(("doubled", "not_doubled")))
    data["ap_value"] = draw(st.integers(1, 30))
    halvings = sum(
        bool(data[k])
        for k in ("moved_and_fired", "firer_stopped", "firer_in_smoke", "target_hidden")
    )
    doubling = 2 if data["distance"] == 1 and data["adjacent_fire"] == "doubled" else 1
    needed = -(-(2**halvings) // doubling)  # the least strength that keeps a column
    data["ap_value"] = max(data["ap_value"], needed - (twin_ap_strength(data) - data["ap_value"]))
    return data


@st.composite
def armor_inputs(draw: st.DrawFn) -> dict:
    return {
        "vehicle_type": draw(st.sampled_from(("armored", "non_armored"))),
        "fire_type": draw(st.sampled_from(tuple(ARMOR_COLUMNS))),
        "open_topped": draw(st.booleans()),
        "front_armour": draw(st.integers(0, 20)),
        "test": draw(st.sampled_from(("at_most", "less_destroys_equal_immobilizes"))),
    }


# --- worked examples ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("distance", "strength"),
    [(1, 6), (6, 6), (7, 4), (10, 4), (11, 3), (16, 3), (17, 2), (40, 2)],
)
def test_the_ap_value_falls_by_distance_band(distance, strength):
    inp = AP_FIRE.parse({"ap_value": 6, "distance": distance, "adjacent_fire": "not_doubled"})
    assert dict(AP_FIRE.facts(inp))["final attack factor"] == f"{strength} -> {strength}"


def test_vehicle_ap_fire_is_fire_combat_at_the_modified_value():
    inp = AP_FIRE.parse({"ap_value": 6, "distance": 12, "protection": "light"})
    assert dict(AP_FIRE.facts(inp)) == {
        "AP value at distance": "6 -3 (>than 10 hex.) = 3",
        "final attack factor": "3 -> 3",
        "Combat Table column": "3",
        "dice modifier": "+1",
    }
    assert [(m.label, m.display()) for m in AP_FIRE.modifiers(inp)] == [("light protection", "+1")]
    fire = EPT.procedure("fire")
    same = fire.parse({"strength": 3, "protection": "light"})
    assert AP_FIRE.odds(inp) == fire.odds(same)


def test_adjacent_fire_doubles_by_default():
    doubled = AP_FIRE.parse({"ap_value": 4, "distance": 1})
    assert [m.label for m in AP_FIRE.modifiers(doubled)] == ["against adjacent hex"]
    assert dict(AP_FIRE.facts(doubled))["Combat Table column"] == "8"
    plain = AP_FIRE.parse({"ap_value": 4, "distance": 1, "adjacent_fire": "not_doubled"})
    assert dict(AP_FIRE.facts(plain))["Combat Table column"] == "4"


def test_a_vehicle_too_far_cannot_fire():
    with pytest.raises(RuleError, match=r"AP value 3 -4 \(>than 16 hex.\) = -1 at 17 hexes"):
        AP_FIRE.odds(AP_FIRE.parse({"ap_value": 3, "distance": 17}))


def test_vehicle_ap_modifiers_refuse_a_blocked_line_of_sight_as_odds_do(capsys):
    blocked = AP_FIRE.parse({"ap_value": 6, "distance": 6, "hindrance_hexes": 4})
    for view in (AP_FIRE.modifiers, AP_FIRE.facts, AP_FIRE.odds):
        with pytest.raises(RuleError, match="no line of sight: 4 visual hindrance hexes"):
            view(blocked)
    args = ["ept", "vehicle_ap_fire", "--ap-value", "6", "--distance", "6"]
    code, out, err = run(capsys, "modifiers", *args, "--hindrance-hexes", "4")
    assert (code, out) == (2, "")
    assert err.startswith("error: no line of sight")
    code, out, _ = run(capsys, "modifiers", *args, "--hindrance-hexes", "3")
    assert code == 0
    assert "+3" in out


def test_the_morale_follow_up_passes_through():
    inp = AP_FIRE.parse({"ap_value": 6, "distance": 3, "follow_up": "morale_test", "morale": 7})
    resolution = AP_FIRE.replay(inp, ["3", "4", "2", "2"])  # row 7, column 6: S1; 5 <= 7
    assert resolution.outcome == "no_effect"
    with pytest.raises(InputError, match="'morale' must be given"):
        AP_FIRE.parse({"ap_value": 6, "distance": 3, "follow_up": "morale_test"})


def test_armor_test_worked_examples():
    inp = ARMOR.parse({"vehicle_type": "armored", "fire_type": "heavy_artillery"})
    assert dict(ARMOR.odds(inp)) == {"no_effect": Fraction(26, 36), "destroyed": Fraction(10, 36)}
    open_top = ARMOR.parse(
        {"vehicle_type": "armored", "fire_type": "heavy_artillery", "open_topped": True}
    )
    assert [(m.label, m.display()) for m in ARMOR.modifiers(open_top)] == [("open-topped", "-2")]
    assert ARMOR.odds(open_top)["destroyed"] == Fraction(21, 36)
    truck = ARMOR.parse(
        {"vehicle_type": "non_armored", "fire_type": "mortar_60", "open_topped": True}
    )
    assert ARMOR.modifiers(truck) == []
    assert dict(ARMOR.facts(truck))["open-topped"] == "no effect (armored only)"
    heavy = ARMOR.parse({"vehicle_type": "armored", "fire_type": "mortar_90", "front_armour": 11})
    assert [(m.label, m.display()) for m in ARMOR.modifiers(heavy)] == [
        ("armor front 11 > 10", "+1")
    ]
    assert dict(ARMOR.odds(heavy)) == {"no_effect": 1}


def test_the_alternative_test_reading_immobilizes_on_an_equal_roll():
    inp = ARMOR.parse(
        {
            "vehicle_type": "armored",
            "fire_type": "mortar_60",
            "open_topped": True,
            "test": "less_destroys_equal_immobilizes",
        }
    )
    assert ARMOR.replay(inp, ["2", "1"]).outcome == "immobilized"
    assert ARMOR.replay(inp, ["1", "1"]).outcome == "destroyed"


# --- properties ---------------------------------------------------------------------------------


@given(st.one_of(ap_inputs(), ap_inputs(follow_up=True)))
def test_vehicle_ap_odds_equal_the_twin(data):
    assert dict(AP_FIRE.odds(AP_FIRE.parse(data))) == twin_ap_odds(data)


@given(armor_inputs())
def test_armor_odds_equal_the_twin(data):
    assert dict(ARMOR.odds(ARMOR.parse(data))) == twin_armor_odds(data)


@given(st.one_of(ap_inputs().map(lambda d: (AP_FIRE, d)), armor_inputs().map(lambda d: (ARMOR, d))))
def test_every_distribution_sums_to_exactly_1(case):
    procedure, data = case
    distribution = procedure.odds(procedure.parse(data))
    assert sum(distribution.values()) == 1
    assert sum(Fraction(p) for p in distribution.to_json().values()) == 1


def at_least(distribution, order: list[str]) -> list[Fraction]:
    return [sum((distribution[c] for c in order[i:]), Fraction(0)) for i in range(len(order))]


@settings(max_examples=60)
@given(
    ap_value=st.integers(5, 30),
    distance=st.integers(1, 30),
    protection=st.sampled_from(("none", "light", "medium", "important")),
    adjacent=st.sampled_from(("doubled", "not_doubled")),
)
def test_a_longer_distance_never_raises_a_vehicles_ap_fire(
    ap_value, distance, protection, adjacent
):
    base = {"ap_value": ap_value, "protection": protection, "adjacent_fire": adjacent}
    near = AP_FIRE.parse(base | {"distance": distance})
    far = AP_FIRE.parse(base | {"distance": distance + 1})
    assert twin_ap_strength(base | {"distance": distance + 1}) <= twin_ap_strength(
        base | {"distance": distance}
    )
    near_odds = at_least(AP_FIRE.odds(near), SEVERITY)
    far_odds = at_least(AP_FIRE.odds(far), SEVERITY)
    assert all(f <= n for f, n in zip(far_odds, near_odds, strict=True))


def destroyed(data: dict) -> Fraction:
    return ARMOR.odds(ARMOR.parse(data))["destroyed"]


def damaged(data: dict) -> Fraction:
    odds = ARMOR.odds(ARMOR.parse(data))
    return odds["destroyed"] + odds["immobilized"]


@given(armor_inputs())
def test_open_topped_never_makes_a_kill_less_likely(data):
    closed, opened = data | {"open_topped": False}, data | {"open_topped": True}
    assert destroyed(opened) >= destroyed(closed)
    assert damaged(opened) >= damaged(closed)


@given(armor_inputs())
def test_more_front_armor_never_makes_a_kill_likelier(data):
    thicker = data | {"front_armour": data["front_armour"] + 1}
    assert destroyed(thicker) <= destroyed(data)
    assert damaged(thicker) <= damaged(data)


@given(armor_inputs(), st.integers(0, 3))
def test_heavier_fire_and_no_armor_never_make_a_kill_less_likely(data, lighter):
    fires = list(ARMOR_COLUMNS)
    heavier = data | {"fire_type": fires[lighter]}
    lighter_fire = data | {"fire_type": fires[lighter + 1]}
    assert destroyed(heavier) >= destroyed(lighter_fire)
    unarmored = data | {"vehicle_type": "non_armored", "open_topped": False}
    armored = data | {"vehicle_type": "armored", "open_topped": False}
    assert destroyed(unarmored) >= destroyed(armored)


@given(
    st.one_of(
        ap_inputs(follow_up=True).map(lambda d: (AP_FIRE, d)),
        armor_inputs().map(lambda d: (ARMOR, d)),
    ),
    st.integers(0, 2**32),
)
def test_scripted_rolls_reproduce_the_sampled_trace(case, seed):
    procedure, data = case
    assert_replay_reproduces(procedure, data, seed)


# --- the command line ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["vehicle_ap_fire", "--ap-value", "6", "--distance", "12", "--protection", "light"],
        ["indirect_vs_armor", "--vehicle-type", "armored", "--fire-type", "heavy_artillery"],
    ],
)
def test_cli_odds_json_sums_to_1(capsys, args):
    assert_odds_json_sums_to_1(capsys, "ept", args)


def test_cli_resolve_with_the_players_dice(capsys):
    code, out, err = run(
        capsys, "resolve", "ept", "indirect_vs_armor", "--vehicle-type", "armored",
        "--fire-type", "medium_artillery", "--open-topped", "--roll", "3,2", "--json",
    )  # fmt: skip
    assert code == 0, err
    data = json.loads(out)
    assert data["outcome"] == "destroyed"  # 5 - 2 = 3 <= 4
    assert data["modifiers"] == [
        {
            "label": "open-topped",
            "value": "-2",
            "kind": "dice",
            "rule": "TIR ANTIPERSONNEL CONTRE BLINDES: modifiers",
        }
    ]


def test_cli_tables_list_the_vehicle_charts(capsys):
    code, out, _ = run(capsys, "table", "ept", "indirect_vs_armor", "--json")
    assert code == 0
    assert json.loads(out)["cells"] == [["5", "4", "3", "2", "1"], ["10", "9", "8", "7", "6"]]
    code, out, _ = run(capsys, "table", "ept", "vehicle_ap", "--json")
    assert json.loads(out)["columns"] == [">than 6 hex.", ">than 10 hex.", ">than 16 hex."]


def test_cli_bad_input_is_one_line_and_exit_2(capsys):
    code, _, err = run(
        capsys, "odds", "ept", "vehicle_ap_fire", "--ap-value", "3", "--distance", "20"
    )
    assert code == 2
    assert err.strip().startswith("error: AP value 3 -4 (>than 16 hex.) = -1 at 20 hexes")
    assert len(err.strip().splitlines()) == 1
    code, _, err = run(capsys, "odds", "ept", "indirect_vs_armor", "--vehicle-type", "tank")
    assert code == 2
    assert err.strip() == (
        "error: '--vehicle-type' must be one of armored, non_armored (got 'tank')"
    )
