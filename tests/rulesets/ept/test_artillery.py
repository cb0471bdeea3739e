"""EPT artillery: DELAIS DE TIR D'ARTILLERIE, ARTILLERIE/BOMBES, EMPARPILLEMENT and the
artillery mission, against the seed's text and a twin written from it."""

from __future__ import annotations

import math
import re
from collections import Counter
from fractions import Fraction
from itertools import product
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import firefight
from firefight.core.chart import Chart, load_chart
from firefight.rulesets.ept.artillery import (
    Impact,
    delay_chart,
    impact_chart,
    scatter_chart,
)
from firefight.rulesets.ept.fire import DATA
from tests.helpers import assert_replay_reproduces
from tests.rulesets.ept.test_combat_transcription import SEED_CELLS

EPT = firefight.ruleset("ept")
DELAY = EPT.procedure("artillery_delay")
SCATTER = EPT.procedure("scatter")
INDIRECT = EPT.procedure("indirect_fire")
MISSION = EPT.procedure("artillery_mission")
SEVERITY = ["-", "S", "S1", "S2", "N", "N1", "N2", "N3", "1", "E"]
SEED_COLUMNS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 14, 16, 20, 24, 28, 34, 40]

# Pasted verbatim from seed 000 (000_7e545a6d88e32420.txt), re-wrapped only.
SEED_TEXT = """
DELAIS DE TIR D’ARTILLERIE = Delay of Artillery Fire (VV 32) Artillery: base value 7 German:
-1 Pre-registered bombardment: -1 Per additional turn: -1 ARTILLERIE/BOMBES Distance of impact
Type 0 1 2 3 Light 10^2 4^1 - - Medium 12^2 7^2 4^1 - Heavy 16^2 10^2 6^2 4^1 Bomb 14 8 5 - An
exponent [^]: value of the Smoke marker (smoke missions only). Effect of terrain on indirect
fire: -- terrain: sum the modifiers of terrain in the target hex -1 [minus one] (minimum 0) --
unit hidden: strength x 1/2 (mortars only) -- unit in normal movement or force march: -1 No
other terrain mod. are applicable. The modifiers normal to movement do not apply.
EMPARPILLEMENT = Scatter 1d6 = direction 1d6 = Distance of impact: 0,1,2 = in the hex. 3,4 =
one hex. 5,6 = two hexes. 7 = three hexes. Modifiers to dice for distance [of impact]: --
Second fire without correction: -1 -- Third fire without correction: -2 -- Distance of the OA
[artillery observer]: < than 10 hexes: -1 > than 20 hexes: +1 > than 30 hexes: +2 -- No
observer or out of LOS: +3 -- weather: according to the visibility level
"""
TEXT = " ".join(SEED_TEXT.split())


def between(start: str, end: str) -> str:
    return TEXT.split(start, 1)[1].split(end, 1)[0]


# --- an independent transcription of the seed's text -----------------------------------------

SEED_DELAY = dict(
    re.findall(
        r"([A-Z][A-Za-z-]*(?: [a-z-]+)*(?:: base value)?):? (-?\d+)",
        between("(VV 32)", "ARTILLERIE/BOMBES"),
    )
)


def transcribe_impact(text: str) -> dict[tuple[str, str], str]:
    tokens = text.split("Type 0 1 2 3", 1)[1].split("An exponent", 1)[0].split()
    cells = {}
    for _ in range(4):
        row, values, tokens = tokens[0], tokens[1:5], tokens[5:]
        for column, value in zip(["0", "1", "2", "3"], values, strict=True):
            cells[row, column] = value
    assert not tokens
    return cells


SEED_IMPACT = transcribe_impact(TEXT)
SEED_SCATTER = dict(re.findall(r"([\d,]+) = ([a-z ]+?)\.", between("Distance of impact:", "Mod")))
_MODIFIERS = between("Modifiers to dice for distance", "weather")
SEED_SCATTER_MODIFIERS = {
    "second": int(re.search(r"Second fire without correction: ([-+]\d)", _MODIFIERS)[1]),  # type: ignore[index]
    "third": int(re.search(r"Third fire without correction: ([-+]\d)", _MODIFIERS)[1]),  # type: ignore[index]
    "no_observer": int(re.search(r"No observer or out of LOS: ([-+]\d)", _MODIFIERS)[1]),  # type: ignore[index]
}
SEED_OBSERVER_BANDS = [
    (sign, int(hexes), int(value))
    for sign, hexes, value in re.findall(r"([<>]) than (\d+) hexes: ([-+]\d)", _MODIFIERS)
]
WORDS = {"in the hex": 0, "one hex": 1, "two hexes": 2, "three hexes": 3}


def test_the_seed_text_is_transcribed_whole():
    assert SEED_DELAY == {
        "Artillery: base value": "7",
        "German": "-1",
        "Pre-registered bombardment": "-1",
        "Per additional turn": "-1",
    }
    assert len(SEED_IMPACT) == 16
    assert SEED_SCATTER == {
        "0,1,2": "in the hex",
        "3,4": "one hex",
        "5,6": "two hexes",
        "7": "three hexes",
    }
    assert SEED_OBSERVER_BANDS == [("<", 10, -1), (">", 20, 1), (">", 30, 2)]


def impact_differences(chart: Chart) -> list[str]:
    found = []
    for (row, column), expected in SEED_IMPACT.items():
        actual = chart.cell_at(row, column).value
        if actual != expected:
            found.append(f"{row}, distance {column}: data {actual!r}, seed {expected!r}")
    return found


@pytest.mark.parametrize(("row", "column"), sorted(SEED_IMPACT))
def test_impact_cell_matches_the_seed(row, column):
    assert impact_chart().cell_at(row, column).value == SEED_IMPACT[row, column]


def test_the_charts_have_the_seed_rows_columns_and_cells():
    impact = impact_chart()
    assert list(impact.rows.labels) == ["Light", "Medium", "Heavy", "Bomb"]
    assert list(impact.columns.labels) == ["0", "1", "2", "3"]
    assert impact_differences(impact) == []
    assert impact.notes[0] in TEXT
    scatter = scatter_chart()
    assert {
        label: scatter.cell_at(label, "Distance of impact").value for label in scatter.rows.labels
    } == SEED_SCATTER
    delay = delay_chart()
    assert {label: delay.cell_at(label, "Value").value for label in delay.rows.labels} == (
        SEED_DELAY
    )
    for chart in (impact, scatter):
        for note in chart.notes:
            assert note in TEXT


def test_a_typo_in_the_impact_data_is_caught(tmp_path: Path):
    text = (DATA / "artillery_impact.toml").read_text(encoding="utf-8")
    medium = '"Medium" = ["12^2", "7^2",  "4^1", "-"]'
    assert medium in text
    bad = tmp_path / "artillery_impact.toml"
    bad.write_text(text.replace(medium, medium.replace('"7^2"', '"7^1"')), encoding="utf-8")
    assert impact_differences(load_chart(bad)) == ["Medium, distance 1: data '7^1', seed '7^2'"]


def test_a_typo_in_the_scatter_data_is_caught(tmp_path: Path):
    text = (DATA / "scatter.toml").read_text(encoding="utf-8")
    bad = tmp_path / "scatter.toml"
    bad.write_text(text.replace('"3,4" =   ["one hex"]', '"3,4" =   ["two hexes"]'), "utf-8")
    chart = load_chart(bad)
    read = {label: chart.cell_at(label, "Distance of impact").value for label in chart.rows.labels}
    assert read != SEED_SCATTER


# --- the twin: odds from the seed's text alone ------------------------------------------------


def twin_delay_odds(data: dict) -> dict[str, Fraction]:
    value = (
        int(SEED_DELAY["Artillery: base value"])
        + (int(SEED_DELAY["German"]) if data.get("german") else 0)
        + (int(SEED_DELAY["Pre-registered bombardment"]) if data.get("pre_registered") else 0)
        + int(SEED_DELAY["Per additional turn"]) * data.get("additional_turns", 0)
    )
    dice = 1 if data.get("delay_test") == "1d6_at_least" else 2
    rolls = [sum(r) for r in product(range(1, 7), repeat=dice)]
    arrives = Fraction(sum(1 for r in rolls if r >= value), len(rolls))
    return {k: v for k, v in {"arrives": arrives, "delayed": 1 - arrives}.items() if v}


def twin_scatter_modifier(data: dict) -> int:
    total = {"first": 0, "second": SEED_SCATTER_MODIFIERS["second"]}.get(
        data.get("fire_without_correction", "first"), SEED_SCATTER_MODIFIERS["third"]
    )
    distance = data.get("observer_distance")
    out = data.get("observer_out_of_los", False)
    if distance is None or out:
        total += SEED_SCATTER_MODIFIERS["no_observer"]
    if distance is not None and (not out or data.get("out_of_los_distance") == "cumulative"):
        # the observer bands: the farthest that applies
        applying = [
            value
            for sign, hexes, value in SEED_OBSERVER_BANDS
            if (distance < hexes if sign == "<" else distance > hexes)
        ]
        total += applying[-1] if applying else 0
    return total + data.get("weather", 0)


def twin_distance(modified: int, data: dict) -> int:
    if modified > 7 and data.get("scatter_above_7") == "extend":
        return math.ceil((modified - 2) / 2)
    value = min(max(modified, 0), 7)
    row = next(label for label in SEED_SCATTER if str(value) in label.split(","))
    return WORDS[SEED_SCATTER[row]]


def twin_scatter_odds(data: dict) -> dict[str, Fraction]:
    modifier = twin_scatter_modifier(data)
    counts = Counter(str(twin_distance(die + modifier, data)) for die in range(1, 7))
    return {k: Fraction(n, 6) for k, n in counts.items()}


def twin_combat_odds(factor: Fraction, dice_modifier: int) -> Counter:
    column = max(c for c in SEED_COLUMNS if c <= factor)
    result: Counter = Counter()
    for a, b in product(range(1, 7), repeat=2):
        row = min(max(a + b + dice_modifier, 0), 15)
        result[SEED_CELLS["15+" if row == 15 else str(row), str(column)]] += Fraction(1, 36)
    return result


def twin_indirect_dice(data: dict) -> int:
    terrain = max(data.get("terrain_modifiers", 0) - 1, 0)
    return terrain - (1 if data.get("target_movement") in {"normal", "force_march"} else 0)


def twin_indirect_odds(data: dict) -> dict[str, Fraction]:
    factor = Fraction(data["strength"])
    if data.get("mortar") and data.get("target_hidden"):
        factor /= 2
    rounding = data.get("factor_rounding", "down")
    read = {
        "down": math.floor(factor),
        "nearest": math.floor(factor + Fraction(1, 2)),
        "up": math.ceil(factor),
    }[rounding]
    return dict(twin_combat_odds(Fraction(read), twin_indirect_dice(data)))


def twin_mission_odds(data: dict) -> dict[str, Fraction]:
    row = data["artillery"].capitalize()
    result: Counter = Counter()
    for distance, p in twin_scatter_odds(data).items():
        cell = SEED_IMPACT.get((row, distance), "-")
        strength, _, smoke = cell.partition("^")
        if data.get("mission") == "smoke":
            result["no_smoke" if not smoke else f"smoke_{smoke}"] += p
        elif strength == "-":
            result["-"] += p
        else:
            for code, q in twin_combat_odds(
                Fraction(int(strength)), twin_indirect_dice(data)
            ).items():
                result[code] += p * q
    return dict(result)


# --- hypothesis strategies shaped like these procedures ---------------------------------------

MOVEMENTS = ("none", "tactical", "normal", "force_march")


@st.composite
def delay_inputs(draw: st.DrawFn) -> dict:
    return {
        "german": draw(st.booleans()),
        "pre_registered": draw(st.booleans()),
        "additional_turns": draw(st.integers(0, 6)),  # 6: the field's bound
        "delay_test": draw(st.sampled_from(("2d6_at_least", "1d6_at_least"))),
    }


@st.composite
def scatter_inputs(draw: st.DrawFn) -> dict:
    return {
        "fire_without_correction": draw(st.sampled_from(("first", "second", "third"))),
        "observer_distance": draw(st.one_of(st.none(), st.integers(1, 40))),
        "observer_out_of_los": draw(st.booleans()),
        "out_of_los_distance": draw(st.sampled_from(("replaced", "cumulative"))),
        "weather": draw(st.integers(0, 6)),
        "scatter_above_7": draw(st.sampled_from(("three_hexes", "extend"))),
    }


@st.composite
def indirect_inputs(draw: st.DrawFn) -> dict:
    mortar = draw(st.booleans())
    hidden = draw(st.booleans())
    return {
        "strength": draw(st.integers(2 if mortar and hidden else 1, 45)),
        "mortar": mortar,
        "target_hidden": hidden,
        "terrain_modifiers": draw(st.integers(0, 8)),
        "target_movement": draw(st.sampled_from(MOVEMENTS)),
        "factor_rounding": draw(st.sampled_from(("down", "nearest", "up"))),
    }


@st.composite
def mission_inputs(draw: st.DrawFn) -> dict:
    data = draw(scatter_inputs())
    mission = draw(st.sampled_from(("fire", "smoke")))
    artillery = ("light", "medium", "heavy") + (("bomb",) if mission == "fire" else ())
    data |= {
        "artillery": draw(st.sampled_from(artillery)),
        "mission": mission,
        "terrain_modifiers": draw(st.integers(0, 8)),
        "target_movement": draw(st.sampled_from(MOVEMENTS)),
    }
    return data


# --- properties ---------------------------------------------------------------------------------


@given(delay_inputs())
def test_delay_odds_equal_the_twin(data):
    assert dict(DELAY.odds(DELAY.parse(data))) == twin_delay_odds(data)


@given(scatter_inputs())
def test_scatter_odds_equal_the_twin(data):
    assert dict(SCATTER.odds(SCATTER.parse(data))) == twin_scatter_odds(data)


@given(indirect_inputs())
def test_indirect_fire_odds_equal_the_twin(data):
    assert dict(INDIRECT.odds(INDIRECT.parse(data))) == twin_indirect_odds(data)


@settings(max_examples=40)
@given(mission_inputs())
def test_mission_odds_equal_the_twin(data):
    assert dict(MISSION.odds(MISSION.parse(data))) == twin_mission_odds(data)


@settings(max_examples=40)
@given(
    st.one_of(
        delay_inputs().map(lambda d: (DELAY, d)),
        scatter_inputs().map(lambda d: (SCATTER, d)),
        indirect_inputs().map(lambda d: (INDIRECT, d)),
        mission_inputs().map(lambda d: (MISSION, d)),
    )
)
def test_every_distribution_sums_to_exactly_1(case):
    procedure, data = case
    distribution = procedure.odds(procedure.parse(data))
    assert sum(distribution.values()) == 1
    assert sum(Fraction(p) for p in distribution.to_json().values()) == 1


def test_farther_from_the_impact_is_never_stronger():
    chart = impact_chart()
    for row in chart.rows.labels:
        impacts = [Impact.parse(chart.cell_at(row, c).value) for c in chart.columns.labels]
        strengths = [i.strength or 0 for i in impacts]
        smokes = [i.smoke or 0 for i in impacts]
        assert strengths == sorted(strengths, reverse=True), row
        assert smokes == sorted(smokes, reverse=True), row


@given(
    delay_inputs().filter(lambda d: d["additional_turns"] < 6),
    st.sampled_from(("german", "pre_registered", "additional_turns")),
)
def test_every_delay_modifier_makes_the_fire_arrive_no_later(data, which):
    more = dict(data)
    more[which] = data[which] + 1 if which == "additional_turns" else True
    assert DELAY.odds(DELAY.parse(more))["arrives"] >= DELAY.odds(DELAY.parse(data))["arrives"]


def at_least(distribution, order: list[str]) -> list[Fraction]:
    return [sum((distribution[c] for c in order[i:]), Fraction(0)) for i in range(len(order))]


@given(scatter_inputs().filter(lambda d: d["weather"] < 6))
def test_a_higher_scatter_modifier_never_brings_the_impact_closer(data):
    order = [str(d) for d in range(9)]
    near = at_least(SCATTER.odds(SCATTER.parse(data)), order)
    far = at_least(SCATTER.odds(SCATTER.parse(data | {"weather": data["weather"] + 1})), order)
    assert all(f >= n for f, n in zip(far, near, strict=True))


@settings(max_examples=40)
@given(mission_inputs().filter(lambda d: d["mission"] == "fire"))
def test_more_terrain_never_raises_the_chance_of_a_worse_result(data):
    less = at_least(MISSION.odds(MISSION.parse(data)), SEVERITY)
    more_data = data | {"terrain_modifiers": data["terrain_modifiers"] + 1}
    more = at_least(MISSION.odds(MISSION.parse(more_data)), SEVERITY)
    assert all(m <= s for m, s in zip(more, less, strict=True))


@settings(max_examples=40)
@given(mission_inputs().filter(lambda d: d["mission"] == "fire" and d["weather"] < 6))
def test_a_farther_scatter_never_raises_the_chance_of_a_worse_result(data):
    near = at_least(MISSION.odds(MISSION.parse(data)), SEVERITY)
    far_data = data | {"weather": data["weather"] + 1}
    far = at_least(MISSION.odds(MISSION.parse(far_data)), SEVERITY)
    assert all(f <= n for f, n in zip(far, near, strict=True))


@given(indirect_inputs())
def test_more_terrain_never_worsens_an_indirect_fire(data):
    less = at_least(INDIRECT.odds(INDIRECT.parse(data)), SEVERITY)
    more_data = data | {"terrain_modifiers": data["terrain_modifiers"] + 1}
    more = at_least(INDIRECT.odds(INDIRECT.parse(more_data)), SEVERITY)
    assert all(m <= s for m, s in zip(more, less, strict=True))


@given(
    st.one_of(
        delay_inputs().map(lambda d: (DELAY, d)),
        scatter_inputs().map(lambda d: (SCATTER, d)),
        indirect_inputs().map(lambda d: (INDIRECT, d)),
        mission_inputs().map(lambda d: (MISSION, d)),
    ),
    st.integers(0, 2**32),
)
def test_scripted_rolls_reproduce_the_sampled_trace(case, seed):
    procedure, data = case
    assert_replay_reproduces(procedure, data, seed)
