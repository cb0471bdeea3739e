"""The two example games of ``examples/``: their exact odds equal a brute force over every
face of their dice (a second reading of the file, :mod:`.twin`), sum to 1, and come from the
rule that resolves a roll (a seeded roll and the player's own dice give its outcomes)."""

from __future__ import annotations

from fractions import Fraction
from itertools import product
from pathlib import Path

import pytest

from firefight.rulesets.designed import load_game
from tests.helpers import assert_replay_reproduces
from tests.rulesets.designed.twin import brute_odds

EXAMPLES = Path(__file__).parents[3] / "examples"
CRT = EXAMPLES / "classic-crt.toml"
FIREPOWER = EXAMPLES / "firepower-2d6.toml"

CRT_INPUTS = [
    {
        "attack_strength": a,
        "defense_strength": d,
        "terrain": t,
        "behind_river": r,
        "out_of_supply": s,
    }
    for a, d in [(1, 2), (2, 2), (3, 1), (7, 3), (9, 4), (12, 2), (30, 4), (5, 3)]
    for t in ("clear", "woods", "town")
    for r, s in [(False, False), (True, False), (False, True)]
]
FIREPOWER_INPUTS = [
    {
        "firepower": f,
        "range": rng,
        "cover": c,
        "moving_in_open": m,
        "firer_pinned": p,
        "morale": morale,
    }
    for f, rng in [(1, 3), (2, 1), (5, 9), (8, 1), (16, 4), (40, 12)]
    for c, m in [("open", False), ("open", True), ("woods", True), ("building", False)]
    for p, morale in [(False, 7), (True, 5)]
]


def _playable(inp: dict[str, object]) -> bool:
    """Odds below 1-2 (and not clamped) are refused by the chart: left out of the twin."""
    attacker = Fraction(inp["attack_strength"]) / (2 if inp["out_of_supply"] else 1)
    defender = Fraction(inp["defense_strength"]) * (2 if inp["behind_river"] else 1)
    return attacker * 2 >= defender


@pytest.mark.parametrize(
    "inp", [i for i in CRT_INPUTS if _playable(i)], ids=lambda i: "-".join(map(str, i.values()))
)
def test_the_crt_odds_are_the_brute_force_over_the_die(inp):
    procedure = load_game(CRT).procedure("attack")
    odds = procedure.odds(procedure.parse(inp))
    assert sum(odds.values()) == 1
    assert dict(odds) == brute_odds(CRT, inp)


@pytest.mark.parametrize("inp", FIREPOWER_INPUTS, ids=lambda i: "-".join(map(str, i.values())))
def test_the_firepower_odds_are_the_brute_force_over_both_rolls(inp):
    procedure = load_game(FIREPOWER).procedure("fire")
    odds = procedure.odds(procedure.parse(inp))
    assert sum(odds.values()) == 1
    assert dict(odds) == brute_odds(FIREPOWER, inp)


def test_odds_rounded_in_the_defenders_favour_and_shifted_by_terrain():
    procedure = load_game(CRT).procedure("attack")
    facts = dict(procedure.facts(procedure.parse({"attack_strength": 11, "defense_strength": 4})))
    assert facts["odds"] == "11 : 4 = 2-1"
    facts = dict(procedure.facts(procedure.parse({"attack_strength": 4, "defense_strength": 7})))
    assert facts["odds"] == "4 : 7 = 1-2"
    shifted = procedure.parse({"attack_strength": 12, "defense_strength": 3, "terrain": "town"})
    assert dict(procedure.facts(shifted))["odds"] == "12 : 3 = 4-1 → 2-1"
    assert [m.to_json() for m in procedure.modifiers(shifted)] == [
        {
            "label": "defender in town",
            "value": "-2",
            "kind": "column_shift",
            "rule": "Terrain Effects Chart",
        }
    ]


def test_odds_below_the_lowest_column_are_refused_in_one_line():
    procedure = load_game(CRT).procedure("attack")
    with pytest.raises(Exception, match=r"^odds 1-3 is below the chart's lowest, 1-2$"):
        procedure.odds(procedure.parse({"attack_strength": 4, "defense_strength": 9}))


def test_a_factor_multiplies_the_strength_it_names():
    procedure = load_game(FIREPOWER).procedure("fire")
    adjacent = procedure.parse({"firepower": 4, "range": 1})
    assert dict(procedure.facts(adjacent))["firepower"] == "8: 8-11"
    assert procedure.modifiers(adjacent)[0].display() == "x2"


@pytest.mark.parametrize("path", [CRT, FIREPOWER])
def test_seeded_and_table_dice_resolutions_replay_the_same_trace(path):
    procedure = load_game(path).procedures[0]
    for seed in range(20):
        assert_replay_reproduces(procedure, {}, seed)


def test_the_players_own_dice_give_the_cell_and_the_morale_test():
    procedure = load_game(FIREPOWER).procedure("fire")
    inp = procedure.parse({"firepower": 5, "morale": 7})  # column 5-7
    for first, second in product(range(1, 7), repeat=2):
        if first + second == 5:  # row 5: MC, then the morale test
            passed = procedure.replay(inp, [first, second, 3, 4])  # 7: at most the morale
            assert passed.outcome == "-"
            failed = procedure.replay(inp, [first, second, 4, 4])
            assert failed.outcome == "P"
            assert [e.label for e in failed.trace][-1] == "morale test (2d6)"
