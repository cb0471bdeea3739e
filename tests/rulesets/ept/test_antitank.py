"""EPT antitank fire: every chart cell against the seed's text, the odds against twins computed
from that text alone, monotonicity, replay and the CLI.

The texts below are pasted verbatim from seed 000 (000_7e545a6d88e32420.txt), re-wrapped only.
They are parsed here, independently of firefight's chart loader.
"""

from __future__ import annotations

import json
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
from firefight.errors import InputError, RuleError
from firefight.rulesets.ept.antitank import (
    at_fire_gun_table,
    at_fire_table,
    portable_table,
    to_hit_gun_table,
    to_hit_table,
)
from firefight.rulesets.ept.fire import DATA
from tests.helpers import assert_replay_reproduces, assert_samples_agree_with_odds
from tests.helpers import run_cli as run

EPT = firefight.ruleset("ept")
TO_HIT = EPT.procedure("at_to_hit")
AT_FIRE = EPT.procedure("at_fire")
AT_SHOT = EPT.procedure("at_shot")
PORTABLE = EPT.procedure("portable_at")
PF_AVAILABILITY = EPT.procedure("panzerfaust_availability")

PORTABLE_TEXT = """
TIR D’ARMES PORTATIVES ANTICHARS = Fire of Portable Antitank Weapons -- Panzerschreck: 7 --
Panzerfaust; Bazooka: 6 -- PIAT: 5 Roll less with 2d6 [roll less = destroyed; roll equal =
immobilized] Maximum Distance: 2 hexagons (PF = 1) Modifiers to the dice (cumulative): --
Target size: Large: -1 Small: +1 Very small: +2 -- Firer with movement marker: +2 -- Target
with movement marker: +2 -- Recruit: +1 Veteran: -1 -- Schurzen (on side): +1 -- at 2 hexes: +1
PF Availability: unmodified colored die <= to the availability of the scenario [2 for Normandy
(17.1)]"""

AT_FIRE_TEXT = """
TIRS ANTICHARS = Antitank Fire DICE DIFFERENTIAL <=0 1 2 3 4 5 6 >=7 2 D D D D D D D D 3 I D D
D D D D D 4 S I I D D D D D 5 S S I D D D D D 6 - - S I D D D D 7 - - - S I D D D 8 - - - - S I
D D 9 - - - - - S I D 10 - - - - - - S I 11 - - - - - - - S 12 - - - - - - - - D = destroyed; I
= Immobilized, S = Shut Down Natural 12 = miss Modifiers to the dice: -- Differential less than
0: +1 to the dice per column of difference. -- Differential greater than 7: -1 to the dice per
column of difference. -- Fire to the rear: -1 to the value of side armor -- Modification to
function of the gun: >6 hex. >10 hex. >15 hex. Small +1 +2 +3 Medium -- +1 +2 Long -- -- +1"""

TO_HIT_TEXT = """
TABLE DE TOUCHER ANTICHAR = Antitank To Hit Table (VV 32) DISTANCE 1-10 hex. 11-20 hex. 21 hex.
and more Armor 8 7 6 Dice modifiers: -- Moving target: +2 -- Moving firer: +2 -- Recruit: +1 --
Veteran: -1 -- Target size: Large: -1 Small: +1 Very small: +2 -- fire to the flank or rear:
according to the turret speed -- Protection of terrain and visual hindrances (see table) --
Modification to function of gun: > 10 hex. > 20 hex. Small +1 +2 Medium -- +1 Long -- --"""

FIRE_TERRAIN_TEXT = """
Terrain: modifiers to the dice -- Light protection: +1 -- Medium protection: +2 -- Important
protection: +3 -- Target in smoke: +1 -- Visual hindrance: +1 per hex. traversed (max.: 3)"""
"""The MODIFICATEURS DE TIR terrain lines, which the to-hit chart's '(see table)' points to."""


# --- an independent transcription of the seed's text ---------------------------------------


def flat(text: str) -> str:
    return " ".join(text.split())


def named_values(text: str) -> dict[str, int]:
    """Every 'Name: +n' in a run of modifiers ('Large: -1 Small: +1' gives both)."""
    return {
        name.strip(): int(value)
        for name, value in re.findall(r"([A-Za-z][A-Za-z0-9 ()]*?):\s*([+-]\d+)", text)
    }


def gun_grid(text: str) -> dict[tuple[str, int], str]:
    """(gun, 'beyond' distance) -> cell, from '> 10 hex. > 20 hex. Small +1 +2 ...'."""
    thresholds = [int(n) for n in re.findall(r">\s*(\d+) hex\.", text)]
    tokens = re.split(r"hex\.", text)[-1].split()
    grid = {}
    width = len(thresholds) + 1
    for start in range(0, len(tokens), width):
        gun, *cells = tokens[start : start + width]
        for threshold, cell in zip(thresholds, cells, strict=True):
            grid[gun, threshold] = cell
    return grid


def parse_at_fire(text: str) -> dict[tuple[str, str], str]:
    body = flat(text).split("DICE DIFFERENTIAL")[1].split(" D = destroyed")[0]
    tokens = body.split()
    columns, tokens = tokens[:8], tokens[8:]
    cells = {}
    for row in range(2, 13):
        assert tokens[0] == str(row), f"expected row {row}, found {tokens[0]!r}"
        for column, cell in zip(columns, tokens[1:9], strict=True):
            cells[str(row), column] = cell
        tokens = tokens[9:]
    assert not tokens
    return cells


def parse_to_hit(text: str) -> list[tuple[int, float, int]]:
    """(first hex, last hex, number) for each distance column."""
    body = flat(text).split("DISTANCE")[1].split("Dice modifiers")[0]
    bands: list[tuple[int, float]] = [
        (int(lo), int(hi)) for lo, hi in re.findall(r"(\d+)-(\d+) hex\.", body)
    ]
    bands += [(int(lo), math.inf) for lo in re.findall(r"(\d+) hex\. and more", body)]
    numbers = [int(n) for n in body.split("Armor")[1].split()]
    return [(lo, hi, n) for (lo, hi), n in zip(bands, numbers, strict=True)]


def parse_portable(text: str) -> tuple[dict[str, int], dict[str, int]]:
    """Weapon -> number, and weapon -> maximum distance."""
    body = flat(text)
    weapons = body.split("Weapons")[1].split("Roll less")[0]
    numbers = {}
    for entry in weapons.split("--"):
        if entry.strip():
            names, number = entry.split(":")
            for name in names.split(";"):
                numbers[name.strip()] = int(number)
    distance = re.search(r"Maximum Distance: (\d+) hexagons \(PF = (\d+)\)", body)
    assert distance is not None
    maximum = {name: int(distance.group(1)) for name in numbers}
    maximum["Panzerfaust"] = int(distance.group(2))
    return numbers, maximum


AT_FIRE_CELLS = parse_at_fire(AT_FIRE_TEXT)
AT_FIRE_GUN = gun_grid(flat(AT_FIRE_TEXT).split("function of the gun:")[1])
TO_HIT_NUMBERS = parse_to_hit(TO_HIT_TEXT)
TO_HIT_GUN = gun_grid(flat(TO_HIT_TEXT).split("function of gun:")[1])
TO_HIT_MODIFIERS = named_values(
    flat(TO_HIT_TEXT).split("Dice modifiers:")[1].split("-- fire to")[0]
)
TERRAIN_MODIFIERS = named_values(flat(FIRE_TERRAIN_TEXT))
HINDRANCE_MAXIMUM = int(re.findall(r"max\.: (\d+)", FIRE_TERRAIN_TEXT)[0])
PORTABLE_NUMBERS, PORTABLE_MAXIMUM = parse_portable(PORTABLE_TEXT)
PORTABLE_MODIFIERS = named_values(flat(PORTABLE_TEXT).split("(cumulative):")[1].split("PF ")[0])


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


# --- twins: the odds recomputed from the seed's text by brute force over the dice ----------

TWO_DICE = list(product(range(1, 7), repeat=2))
GUN_ROW = {"small": "Small", "medium": "Medium", "long": "Long"}
SIZE = {"large": "Large", "small": "Small", "very_small": "Very small"}


def seed_gun(grid: dict[tuple[str, int], str], gun: str, distance: int) -> int:
    beyond = [t for g, t in grid if g == GUN_ROW[gun] and distance > t]
    if not beyond:
        return 0
    cell = grid[GUN_ROW[gun], max(beyond)]
    return 0 if cell == "--" else int(cell)


def seed_quality(data: dict, table: dict[str, int]) -> int:
    quality = data.get("firer_quality", "line")
    if quality == "shock" and data.get("shock_quality") == "as_veteran":
        quality = "veteran"
    return table.get(quality.capitalize(), 0)


def twin_to_hit_modifier(data: dict) -> int:
    m = TO_HIT_MODIFIERS
    terrain = {"light": "Light", "medium": "Medium", "important": "Important"}
    protection = data.get("protection", "none")
    return (
        (m["Moving target"] if data.get("target_moving") else 0)
        + (m["Moving firer"] if data.get("firer_moving") else 0)
        + seed_quality(data, m)
        + m.get(SIZE.get(data.get("target_size", "normal"), ""), 0)
        + data.get("turret_penalty", 0)
        + (TERRAIN_MODIFIERS[f"{terrain[protection]} protection"] if protection != "none" else 0)
        + (TERRAIN_MODIFIERS["Target in smoke"] if data.get("target_in_smoke") else 0)
        + min(data.get("hindrance_hexes", 0), HINDRANCE_MAXIMUM)
        * TERRAIN_MODIFIERS["Visual hindrance"]
        + seed_gun(TO_HIT_GUN, data["gun_length"], data["distance"])
    )


def twin_hit_chance(data: dict) -> Fraction:
    number = next(n for lo, hi, n in TO_HIT_NUMBERS if lo <= data["distance"] <= hi)
    modifier = twin_to_hit_modifier(data)
    return Fraction(sum(1 for a, b in TWO_DICE if a + b + modifier <= number), 36)


def twin_to_hit(data: dict) -> dict[str, Fraction]:
    hit = twin_hit_chance(data)
    return {k: v for k, v in {"hit": hit, "miss": 1 - hit}.items() if v}


def twin_at_fire(data: dict) -> dict[str, Fraction]:
    armour = {
        "front": data["front_armour"],
        "side": data["side_armour"],
        "rear": data["side_armour"] - 1,
    }[data.get("facing", "front")]
    differential = data["at_value"] - armour
    column = "<=0" if differential <= 0 else ">=7" if differential >= 7 else str(differential)
    modifier = (
        max(0, -differential)
        - max(0, differential - 7)
        + seed_gun(AT_FIRE_GUN, data["gun_length"], data["distance"])
    )
    counts = Counter(
        "miss" if a + b == 12 else AT_FIRE_CELLS[str(min(max(a + b + modifier, 2), 12)), column]
        for a, b in TWO_DICE
    )
    return {code: Fraction(n, 36) for code, n in counts.items()}


def twin_shot(data: dict) -> dict[str, Fraction]:
    hit = twin_hit_chance(data)
    words = {"D": "destroyed", "I": "immobilized", "S": "shut_down", "-": "no_effect"}
    result: Counter = Counter({"miss": 1 - hit})
    for code, p in twin_at_fire(data).items():
        result[words.get(code, "miss")] += hit * p
    return {k: v for k, v in result.items() if v}


def twin_portable(data: dict) -> dict[str, Fraction]:
    name = {"piat": "PIAT"}.get(data["weapon"], data["weapon"].capitalize())
    number = PORTABLE_NUMBERS[name]
    m = PORTABLE_MODIFIERS
    modifier = (
        m.get(SIZE.get(data.get("target_size", "normal"), ""), 0)
        + (m["Firer with movement marker"] if data.get("firer_movement_marker") else 0)
        + (m["Target with movement marker"] if data.get("target_movement_marker") else 0)
        + seed_quality(data, m)
        + (m["Schurzen (on side)"] if data.get("schurzen_on_side") else 0)
        + (m["at 2 hexes"] if data["distance"] == 2 else 0)
    )

    def effect(total: int) -> str:
        if total + modifier < number:
            return "destroyed"
        return "immobilized" if total + modifier == number else "no_effect"

    check = data.get("panzerfaust_check", "none")
    availability = data.get("availability", 2)
    counts: Counter = Counter()
    for coloured, white, extra in product(range(1, 7), range(1, 7), range(1, 7)):
        # 216 equal branches: 'coloured' is the separate die or the attack's coloured die.
        if check != "none" and coloured > availability:
            counts["not_available"] += 1
        elif check == "separate_die":
            counts[effect(white + extra)] += 1
        else:
            counts[effect(white + coloured)] += 1
    return {k: Fraction(n, 216) for k, n in counts.items()}


# --- strategies -----------------------------------------------------------------------------

GUNS = ("small", "medium", "long")
QUALITIES = ("recruit", "line", "veteran", "shock")
SIZES = ("large", "normal", "small", "very_small")
WEAPONS = ("panzerschreck", "panzerfaust", "bazooka", "piat")


@st.composite
def to_hit_inputs(draw: st.DrawFn) -> dict:
    distance = draw(st.integers(1, 30))
    return {
        "distance": distance,
        "gun_length": draw(st.sampled_from(GUNS)),
        "target_moving": draw(st.booleans()),
        "firer_moving": draw(st.booleans()),
        "firer_quality": draw(st.sampled_from(QUALITIES)),
        "shock_quality": draw(st.sampled_from(("no_modifier", "as_veteran"))),
        "target_size": draw(st.sampled_from(SIZES)),
        "turret_penalty": draw(st.integers(0, 3)),
        "protection": draw(st.sampled_from(("none", "light", "medium", "important"))),
        "target_in_smoke": draw(st.booleans()),
        # the hexes between firer and target: none at 1 hex
        "hindrance_hexes": draw(st.integers(0, min(3, distance - 1))),
    }


@st.composite
def at_fire_inputs(draw: st.DrawFn) -> dict:
    return {
        "distance": draw(st.integers(1, 20)),
        "gun_length": draw(st.sampled_from(GUNS)),
        "at_value": draw(st.integers(0, 20)),
        "front_armour": draw(st.integers(0, 15)),
        "side_armour": draw(st.integers(0, 15)),
        "facing": draw(st.sampled_from(("front", "side", "rear"))),
    }


@st.composite
def shot_inputs(draw: st.DrawFn) -> dict:
    data = draw(at_fire_inputs())
    hit = draw(to_hit_inputs())
    hindrance = min(hit["hindrance_hexes"], data["distance"] - 1)  # the hexes between
    return {**hit, **data, "hindrance_hexes": hindrance}


@st.composite
def portable_inputs(draw: st.DrawFn) -> dict:
    weapon = draw(st.sampled_from(WEAPONS))
    data = {
        "weapon": weapon,
        "distance": 1 if weapon == "panzerfaust" else draw(st.integers(1, 2)),
        "target_size": draw(st.sampled_from(SIZES)),
        "firer_movement_marker": draw(st.booleans()),
        "target_movement_marker": draw(st.booleans()),
        "firer_quality": draw(st.sampled_from(QUALITIES)),
        "shock_quality": draw(st.sampled_from(("no_modifier", "as_veteran"))),
        "schurzen_on_side": draw(st.booleans()),
    }
    if weapon == "panzerfaust":
        data["panzerfaust_check"] = draw(st.sampled_from(("none", "separate_die", "attack_roll")))
        data["availability"] = draw(st.integers(0, 6))
    return data


ANY_INPUT = st.one_of(
    st.tuples(st.just(TO_HIT), to_hit_inputs()),
    st.tuples(st.just(AT_FIRE), at_fire_inputs()),
    st.tuples(st.just(AT_SHOT), shot_inputs()),
    st.tuples(st.just(PORTABLE), portable_inputs()),
    st.tuples(
        st.just(PF_AVAILABILITY), st.builds(lambda a: {"availability": a}, st.integers(0, 6))
    ),
)


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


# --- worked examples and readings -----------------------------------------------------------


def test_to_hit_modifiers_are_itemized_in_the_charts_order():
    shot = TO_HIT.parse(
        {
            "distance": 22,
            "gun_length": "small",
            "target_moving": True,
            "firer_moving": True,
            "firer_quality": "recruit",
            "target_size": "very_small",
            "turret_penalty": 1,
            "protection": "light",
            "target_in_smoke": True,
            "hindrance_hexes": 3,
        }
    )
    assert [(m.label, m.display()) for m in TO_HIT.modifiers(shot)] == [
        ("moving target", "+2"),
        ("moving firer", "+2"),
        ("recruit", "+1"),
        ("very small target", "+2"),
        ("fire to the flank or rear (turret speed)", "+1"),
        ("light protection", "+1"),
        ("target in smoke", "+1"),
        ("visual hindrance (3 hex, max. +3)", "+3"),
        ("gun function: Small gun, > 20 hex.", "+2"),
    ]
    assert all(m.rule.startswith("TABLE DE TOUCHER ANTICHAR") for m in TO_HIT.modifiers(shot))
    # 2d6 + 15 is never <= 6.
    assert dict(TO_HIT.odds(shot)) == {"miss": Fraction(1)}


@pytest.mark.parametrize(
    ("distance", "number"), [(1, 8), (10, 8), (11, 7), (20, 7), (21, 6), (99, 6)]
)
def test_the_to_hit_number_falls_with_distance(distance, number):
    shot = TO_HIT.parse({"distance": distance, "gun_length": "long"})
    # Long guns have no gun-function modifier: 2d6 <= number.
    hits = sum(1 for a, b in TWO_DICE if a + b <= number)
    assert TO_HIT.odds(shot)["hit"] == Fraction(hits, 36)
    assert dict(TO_HIT.facts(shot))["to-hit number"].startswith(f"{number} ")


def test_a_hit_is_a_roll_at_most_the_number():
    shot = TO_HIT.parse({"distance": 5, "gun_length": "medium", "target_moving": True})
    assert TO_HIT.replay(shot, ["3", "3"]).outcome == "hit"  # 6 + 2 = 8 <= 8
    assert TO_HIT.replay(shot, ["3", "4"]).outcome == "miss"  # 7 + 2 = 9 > 8
    assert TO_HIT.replay(shot, ["6", "6"]).outcome == "miss"


def test_shock_troops_are_a_documented_reading():
    shock = {"distance": 5, "gun_length": "long", "firer_quality": "shock"}
    assert TO_HIT.modifiers(TO_HIT.parse(shock)) == []
    veteran = TO_HIT.modifiers(TO_HIT.parse({**shock, "shock_quality": "as_veteran"}))
    assert [(m.label, m.display()) for m in veteran] == [("shock (read as veteran)", "-1")]


def test_visual_hindrance_above_3_blocks_the_line_of_sight():
    with pytest.raises(RuleError, match="no line of sight: 4 visual hindrance hexes"):
        TO_HIT.odds(TO_HIT.parse({"distance": 5, "gun_length": "long", "hindrance_hexes": 4}))
    blocked = {"distance": 5, "gun_length": "long", "hindrance_hexes": 3}
    assert TO_HIT.odds(TO_HIT.parse(blocked))
    with pytest.raises(RuleError, match="hindrance_blocking=from_3"):
        TO_HIT.odds(TO_HIT.parse({**blocked, "hindrance_blocking": "from_3"}))


def test_the_differential_beyond_the_chart_moves_the_dice():
    base = {"distance": 3, "gun_length": "long", "front_armour": 10, "side_armour": 6}
    weak = AT_FIRE.parse({**base, "at_value": 7})  # differential -3: column <=0, +3
    assert [(m.label, m.display()) for m in AT_FIRE.modifiers(weak)] == [
        ("differential -3: 3 columns below 0", "+3"),
    ]
    assert AT_FIRE.replay(weak, ["1", "1"]).outcome == "S"  # 2 + 3 = 5: row 5, column <=0
    strong = AT_FIRE.parse({**base, "at_value": 19})  # differential 9: column >=7, -2
    assert [(m.label, m.display()) for m in AT_FIRE.modifiers(strong)] == [
        ("differential 9: 2 columns above 7", "-2"),
    ]
    resolution = AT_FIRE.replay(strong, ["5", "6"])  # 11 - 2 = 9, column >=7 -> D
    assert resolution.outcome == "D"
    assert str(resolution.trace[-1]).endswith("11 -2 = 9: row 9, column >=7 -> D")


def test_a_natural_12_misses_whatever_the_modifiers():
    shot = AT_FIRE.parse(
        {"distance": 1, "gun_length": "long", "at_value": 30, "front_armour": 1, "side_armour": 1}
    )
    assert AT_FIRE.replay(shot, ["6", "6"]).outcome == "miss"
    assert dict(AT_FIRE.odds(shot)) == {"D": Fraction(35, 36), "miss": Fraction(1, 36)}


def test_fire_to_the_rear_uses_side_armour_minus_one():
    shot = AT_FIRE.parse(
        {
            "distance": 12,
            "gun_length": "small",
            "at_value": 6,
            "front_armour": 9,
            "side_armour": 4,
            "facing": "rear",
        }
    )
    facts = dict(AT_FIRE.facts(shot))
    assert facts["armour hit"] == "side 4 - 1 (fire to the rear) = 3"
    assert facts["differential"] == "AT value 6 - armour 3 = 3"
    assert facts["Antitank Fire column"] == "3"
    assert [(m.label, m.display(), m.kind.value) for m in AT_FIRE.modifiers(shot)] == [
        (
            "fire to the rear: -1 to the value of side armour (differential +1)",
            "-1",
            "value",
        ),
        ("gun function: Small gun, >10 hex.", "+2", "dice"),
    ]


def test_one_shot_chains_the_two_rolls():
    data = {
        "distance": 12,
        "gun_length": "long",
        "at_value": 10,
        "front_armour": 8,
        "side_armour": 4,
    }
    shot = AT_SHOT.parse(data)
    resolution = AT_SHOT.replay(shot, ["3", "4", "2", "2"])  # 7 <= 7 hits; 4, column 2 -> I
    assert resolution.outcome == "immobilized"
    assert [e.label for e in resolution.trace] == [
        "to-hit roll (2d6)",
        "TABLE DE TOUCHER ANTICHAR (Antitank To Hit Table)",
        "antitank fire roll (2d6)",
        "TIRS ANTICHARS (Antitank Fire)",
    ]
    assert AT_SHOT.replay(shot, ["4+4"]).outcome == "miss"  # 8 > 7: no second roll
    assert AT_SHOT.replay(shot, ["1", "1", "6", "6"]).outcome == "miss"  # natural 12
    odds = AT_SHOT.odds(shot)
    # Hit on 2d6 <= 7 (21 in 36); differential 2: D on 2-3 (3 in 36), I on 4-5 (7 in 36).
    assert odds["destroyed"] == Fraction(21, 36) * Fraction(3, 36)
    assert odds["immobilized"] == Fraction(21, 36) * Fraction(7, 36)
    assert odds["miss"] == Fraction(15, 36) + Fraction(21, 36) * Fraction(1, 36)


def test_portable_weapons_destroy_below_and_immobilize_on_their_number():
    piat = PORTABLE.parse({"weapon": "piat", "distance": 2, "target_size": "large"})
    # 5 with -1 (large) +1 (at 2 hexes): 2d6 < 5 destroys, = 5 immobilizes.
    assert dict(PORTABLE.odds(piat)) == {
        "destroyed": Fraction(6, 36),
        "immobilized": Fraction(4, 36),
        "no_effect": Fraction(26, 36),
    }
    assert PORTABLE.replay(piat, ["2", "3"]).outcome == "immobilized"
    assert PORTABLE.replay(piat, ["1", "3"]).outcome == "destroyed"
    assert [(m.label, m.display()) for m in PORTABLE.modifiers(piat)] == [
        ("large target", "-1"),
        ("at 2 hexes", "+1"),
    ]


def test_every_portable_modifier_is_itemized():
    shot = PORTABLE.parse(
        {
            "weapon": "panzerschreck",
            "distance": 2,
            "target_size": "small",
            "firer_movement_marker": True,
            "target_movement_marker": True,
            "firer_quality": "veteran",
            "schurzen_on_side": True,
        }
    )
    assert [(m.label, m.display()) for m in PORTABLE.modifiers(shot)] == [
        ("small target", "+1"),
        ("firer with movement marker", "+2"),
        ("target with movement marker", "+2"),
        ("veteran", "-1"),
        ("Schurzen (on side)", "+1"),
        ("at 2 hexes", "+1"),
    ]


def test_beyond_the_maximum_distance_a_portable_weapon_cannot_fire():
    with pytest.raises(RuleError, match="cannot fire at 2 hexes"):
        PORTABLE.odds(PORTABLE.parse({"weapon": "panzerfaust", "distance": 2}))


@pytest.mark.parametrize("weapon", ["panzerschreck", "piat"])
def test_beyond_the_charts_maximum_distance_the_input_is_refused(weapon):
    """'Maximum Distance: 2 hexagons' is the distance field's bound."""
    with pytest.raises(InputError, match=r"'distance' must be an integer from 1 to 2 \(got 3\)"):
        PORTABLE.parse({"weapon": weapon, "distance": 3})


def test_the_panzerfaust_check_can_ride_on_the_shot():
    separate = PORTABLE.parse(
        {"weapon": "panzerfaust", "distance": 1, "panzerfaust_check": "separate_die"}
    )
    assert PORTABLE.replay(separate, ["3"]).outcome == "not_available"
    assert PORTABLE.replay(separate, ["2", "2", "2"]).outcome == "destroyed"
    same_roll = PORTABLE.parse(
        {"weapon": "panzerfaust", "distance": 1, "panzerfaust_check": "attack_roll"}
    )
    assert PORTABLE.replay(same_roll, ["1", "4"]).outcome == "not_available"  # coloured 4 > 2
    assert PORTABLE.replay(same_roll, ["4", "2"]).outcome == "immobilized"  # 6 = 6
    assert PORTABLE.odds(same_roll)["not_available"] == Fraction(2, 3)
    with pytest.raises(InputError, match="'panzerfaust_check' applies to the panzerfaust only"):
        PORTABLE.parse({"weapon": "bazooka", "distance": 1, "panzerfaust_check": "attack_roll"})


def test_bad_input_names_the_field():
    with pytest.raises(InputError, match="'gun_length' must be given: one of small, medium, long"):
        TO_HIT.parse({"distance": 3})
    with pytest.raises(InputError, match="'distance' must be an integer from 1 to 99"):
        AT_FIRE.parse(
            {
                "distance": 0,
                "gun_length": "long",
                "at_value": 5,
                "front_armour": 5,
                "side_armour": 5,
            }
        )
    with pytest.raises(InputError, match="'availability' must be an integer from 0 to 6"):
        PF_AVAILABILITY.parse({"availability": 7})


# --- the CLI --------------------------------------------------------------------------------


SHOT_ARGS = [
    "--distance",
    "12",
    "--gun-length",
    "long",
    "--at-value",
    "10",
    "--front-armour",
    "8",
    "--side-armour",
    "4",
]


@pytest.mark.parametrize(
    ("procedure", "args"),
    [
        ("at_to_hit", ["--distance", "12", "--gun-length", "small", "--target-moving"]),
        ("at_fire", [*SHOT_ARGS, "--facing", "rear"]),
        ("at_shot", SHOT_ARGS),
        ("portable_at", ["--weapon", "piat", "--distance", "2", "--target-size", "large"]),
        ("panzerfaust_availability", ["--availability", "3"]),
    ],
)
def test_odds_json_is_exact_and_sums_to_1(capsys, procedure, args):
    code, out, _ = run(capsys, "odds", "ept", procedure, *args, "--json")
    assert code == 0
    data = json.loads(out)
    assert data["procedure"] == procedure
    assert sum(Fraction(p) for p in data["distribution"].values()) == 1


def test_resolve_json_with_the_players_dice(capsys):
    code, out, _ = run(
        capsys, "resolve", "ept", "at_shot", *SHOT_ARGS, "--roll", "3,4,2,2", "--json"
    )
    assert code == 0
    data = json.loads(out)
    assert data["outcome"] == "immobilized"
    assert [e["value"] for e in data["trace"] if "dice" in e] == [7, 4]


def test_resolve_with_a_seed_is_replayable(capsys):
    args = ["resolve", "ept", "portable_at", "--weapon", "bazooka", "--distance", "1"]
    code, out, _ = run(capsys, *args, "--seed", "7", "--json")
    assert code == 0
    first = json.loads(out)
    dice = [str(d) for e in first["trace"] for d in e.get("dice", [])]
    code, out, _ = run(capsys, *args, "--roll", ",".join(dice), "--json")
    assert code == 0
    assert json.loads(out)["outcome"] == first["outcome"]


def test_table_json_prints_the_antitank_fire_chart_as_printed(capsys):
    code, out, _ = run(capsys, "table", "ept", "at_fire", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["columns"] == ["<=0", "1", "2", "3", "4", "5", "6", ">=7"]
    assert data["rows"] == [str(n) for n in range(2, 13)]
    assert data["cells"][2] == ["S", "I", "I", "D", "D", "D", "D", "D"]


def test_tables_lists_every_antitank_chart(capsys):
    code, out, _ = run(capsys, "tables", "ept", "--json")
    assert code == 0
    ids = {chart["id"] for chart in json.loads(out)}
    assert {"at_to_hit", "at_to_hit_gun", "at_fire", "at_fire_gun", "portable_at"} <= ids


def test_a_panzerfaust_at_2_hexes_is_one_line_and_exit_2(capsys):
    code, out, err = run(
        capsys, "odds", "ept", "portable_at", "--weapon", "panzerfaust", "--distance", "2"
    )
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1
    assert err.startswith("error: the Panzerfaust cannot fire at 2 hexes")


def test_a_bad_facing_is_one_line_and_exit_2(capsys):
    code, _, err = run(capsys, "odds", "ept", "at_fire", *SHOT_ARGS, "--facing", "top")
    assert code == 2
    assert err == "error: '--facing' must be one of front, side, rear (got 'top')\n"
