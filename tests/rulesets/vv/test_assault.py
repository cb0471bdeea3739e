"""V&V 15 close assaults: the chart against a second transcription, the procedure against a twin."""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given
from hypothesis import strategies as st

import firefight
from firefight.cli import main
from firefight.errors import InputError
from firefight.rulesets.vv.assault import ODDS, close_assault_table, kill_number, odds_ratio

ASSAULT = firefight.ruleset("vv").procedure("close_assault")

# Typed from close_assault_combat_table.png, one "odds: Kill #" per line.
KILL_NUMBERS_TEXT = """
1-4: 3
1-3: 4
1-2: 5
1-1: 6
2-1: 8
3-1: 9
4-1: 10
"""
KILL = dict(line.split(": ") for line in KILL_NUMBERS_TEXT.strip().splitlines())


@pytest.mark.parametrize("odds", sorted(KILL))
def test_kill_number_matches_the_image(odds):
    assert close_assault_table().cell_at("Kill #", odds).value == KILL[odds]


def test_the_columns_are_the_printed_odds():
    assert list(close_assault_table().columns.labels) == list(KILL) == list(ODDS)


@pytest.mark.parametrize(
    ("assault", "defense", "expected"),
    [
        (14, 6, ("2-1", "2-1")),  # 15.6 example
        (6, 14, ("1-2", "1-2")),  # 15.6 example, reversed
        (13, 11, ("1-1", "1-1")),  # close assault example
        (50, 2, ("25-1", "4-1")),
        (1, 20, ("1-20", "1-4")),
        (5, 0, ("no defending APFP", "4-1")),
    ],
)
def test_odds_ratio_rounds_down_and_is_capped(assault, defense, expected):
    assert odds_ratio(assault, defense) == expected


def test_defender_favour_rounds_the_short_odds_up():
    assert odds_ratio(6, 14, "defender_favour") == ("1-3", "1-3")
    assert odds_ratio(14, 6, "defender_favour") == ("2-1", "2-1")


def twin(number: int, modifier: int, base_cp: int, assaulters: int) -> dict[str, Fraction]:
    found: dict[str, Fraction] = {}
    for a, b in product(range(1, 7), repeat=2):
        total = a + b + modifier
        if total <= number:
            key = f"defenders_eliminated;assaulters_cp={base_cp}"
        else:
            cp = total - number + base_cp
            key = f"assault_failed;assaulters_cp={cp};defenders_cp={assaulters}"
        found[key] = found.get(key, Fraction(0)) + Fraction(1, 36)
    return found


def odds(**fields: object) -> dict[str, Fraction]:
    return dict(ASSAULT.odds(ASSAULT.parse(fields)))


def test_the_rulebook_example_germans_take_the_building():
    # 13 v 11 = 1-1, Kill Number 6 - 1 (Coleman) = 5; 7 - 1 (Schmidt) - 1 (grenades) = 5.
    fields = {
        "assault_apfp": 13,
        "defense_apfp": 11,
        "assaulting_units": 3,
        "defending_units": 3,
        "cover": 3,
        "assault_leader_modifier": -1,
        "assault_grenades": 1,
        "defense_leader_modifier": -1,
    }
    inp = ASSAULT.parse(fields)
    assert ASSAULT.replay(inp, [7]).outcome == "defenders_eliminated;assaulters_cp=6"
    assert odds(**fields) == twin(5, -2, 6, 3)


def test_the_woods_example_a_failed_assault():
    # 15.8: three squads v two in woods (+2) at 2-1: a 10 costs 2 + 2 + 2 = 6 CPs, and 3.
    fields = {"assault_apfp": 12, "defense_apfp": 6, "assaulting_units": 3}
    fields |= {"defending_units": 2, "cover": 2}
    inp = ASSAULT.parse(fields)
    assert ASSAULT.replay(inp, [10]).outcome == "assault_failed;assaulters_cp=6;defenders_cp=3"
    assert odds(**fields) == twin(8, 0, 4, 3)


def test_valor_doubles_inherent_apfp():
    # 6 v 6 is 1-1; 4 of the assaulters' 6 inherent and valorous: 10 v 6, still 1-1; all 6: 2-1.
    assert odds(assault_apfp=6, defense_apfp=6, assault_valorous_apfp=6) == twin(8, 0, 1, 1)
    assert odds(assault_apfp=6, defense_apfp=6, defense_valorous_apfp=6) == twin(5, 0, 1, 1)


def test_uphill_adds_a_cp_per_level():
    assert odds(assault_apfp=6, defense_apfp=6, uphill_levels=2) == twin(6, 0, 3, 1)


def test_defender_grenades_lower_the_kill_number():
    found = odds(assault_apfp=6, defense_apfp=6, defending_units=2, defense_grenades=2)
    assert found == twin(4, 0, 2, 1)


def test_pinned_defenders_only_the_hex_falls_without_casualties():
    found = odds(assault_apfp=3, defending_units=0, pinned_defenders=2)
    assert found == {"defenders_eliminated;assaulters_cp=0": 1}


def test_pinned_defenders_do_not_count():
    with_pinned = odds(assault_apfp=6, defense_apfp=6, pinned_defenders=3)
    assert with_pinned == odds(assault_apfp=6, defense_apfp=6)


def test_a_defending_afv_may_be_immobilized():
    found = odds(assault_apfp=6, defense_apfp=6, assaulting_units=2, defending_afv=True)
    failed = {k: v for k, v in found.items() if k.startswith("assault_failed")}
    immobilized = sum(v for k, v in failed.items() if "afv_immobilized" in k)
    assert immobilized == sum(failed.values()) * Fraction(2, 6)
    assert all(k.endswith("defenders_cp=0") for k in failed)
    three = odds(assault_apfp=6, defense_apfp=6, assaulting_units=5, defending_afv=True)
    assert all(k.endswith("afv_immobilized;defenders_cp=2") for k in three if "failed" in k)


@pytest.mark.parametrize(
    "fields",
    [
        {"assault_apfp": 4, "defending_units": 0},
        {"assault_apfp": 4, "assault_valorous_apfp": 5},
        {"assault_apfp": 4, "defense_apfp": 2, "defense_valorous_apfp": 3},
        {"assault_apfp": 4, "assault_grenades": 2},
        {"assault_apfp": 4, "defense_grenades": 2},
        {"assault_apfp": 4, "defending_units": 0, "pinned_defenders": 1, "defending_afv": True},
        {"assault_apfp": 0},
    ],
)
def test_inconsistent_inputs_are_one_line_errors(fields):
    with pytest.raises(InputError):
        ASSAULT.parse(fields)


def success(found: dict[str, Fraction]) -> Fraction:
    return sum((v for k, v in found.items() if k.startswith("defenders_eliminated")), Fraction(0))


@given(st.integers(1, 60), st.integers(1, 60), st.integers(1, 20))
def test_better_odds_never_lower_the_success(assault, defense, more):
    worse = success(odds(assault_apfp=assault, defense_apfp=defense))
    assert success(odds(assault_apfp=assault + more, defense_apfp=defense)) >= worse


def test_kill_numbers_rise_with_the_odds():
    numbers = [kill_number(o) for o in ODDS]
    assert numbers == sorted(numbers)


def test_cli_odds_and_scripted_resolution(capsys):
    args = ["vv", "close_assault", "--assault-apfp", "12", "--defense-apfp", "6"]
    args += ["--assaulting-units", "3", "--defending-units", "2", "--cover", "2"]
    assert main(["odds", *args, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert sum(Fraction(p) for p in data["distribution"].values()) == 1
    assert main(["resolve", *args, "--roll", "10", "--json"]) == 0
    outcome = json.loads(capsys.readouterr().out)["outcome"]
    assert outcome == "assault_failed;assaulters_cp=6;defenders_cp=3"
