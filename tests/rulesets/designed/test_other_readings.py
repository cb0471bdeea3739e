"""The readings the two examples do not use, against the brute force over the dice: a column
a choice names, a difference of dice, rows that refuse a roll beyond them, a follow-up passed
at or above a fixed target."""

from __future__ import annotations

from itertools import product
from pathlib import Path

import pytest

from firefight.api import RuleError
from firefight.rulesets.designed import load_game
from tests.rulesets.designed.twin import brute_odds

DUEL = """\
id = "duel"
title = "Duel Table"
source = "tests/rulesets/designed/test_other_readings.py"
dice = "1d6-1d6"

[[fields]]
name = "weapon"
type = "choice"
choices = ["pistol", "rifle", "cannon"]

[[fields]]
name = "skill"
type = "integer"
min = -2
max = 2
default = 0

[[modifiers]]
label = "skill"
rule = "D.1"
when = { skill = [1, 2] }
dice = 1

[[modifiers]]
label = "clumsy"
rule = "D.2"
when = { skill = { at_most = -1 } }
dice = -1

[[modifiers]]
label = "cannon"
rule = "D.3"
when = { weapon = "cannon" }
column_shift = 1

[column]
by = "choice"
field = "weapon"

[rows]
labels = ["<=-3", "-2-0", "1-2", "3+"]

[cells]
"<=-3" = ["miss", "miss", "miss"]
"-2-0" = ["miss", "miss", "hit"]
"1-2" = ["miss", "hit", "hit"]
"3+" = ["hit", "hit", "hit"]

[[results]]
code = "miss"
meaning = "missed"

[[results]]
code = "hit"
meaning = "hit"

[[results]]
code = "down"
meaning = "down"

[[follow_ups]]
after = ["hit"]
label = "wound roll"
rule = "D.4"
dice = "1d10"
passes = "at_least"
target = 8
if_failed = "hit"
if_passed = "down"
"""


@pytest.fixture
def duel(tmp_path: Path) -> Path:
    path = tmp_path / "duel.toml"
    path.write_text(DUEL, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("weapon", "skill"), list(product(["pistol", "rifle", "cannon"], [-2, -1, 0, 1, 2]))
)
def test_a_choice_column_and_a_difference_of_dice_are_the_brute_force(duel, weapon, skill):
    procedure = load_game(duel).procedure("combat")
    inp = {"weapon": weapon, "skill": skill}
    odds = procedure.odds(procedure.parse(inp))
    assert sum(odds.values()) == 1
    assert dict(odds) == brute_odds(duel, inp)


def test_each_term_of_a_difference_is_a_roll_of_its_own(duel):
    procedure = load_game(duel).procedure("combat")
    rolled = procedure.replay(procedure.parse({"weapon": "rifle"}), [6, 1, 9])
    assert [e.label for e in rolled.trace] == [
        "1d6-1d6 [1]",
        "1d6-1d6 [2]",
        "Duel Table",
        "wound roll",
    ]
    assert rolled.outcome == "down"


def test_rows_that_refuse_a_roll_beyond_them(tmp_path):
    text = DUEL.replace(
        'labels = ["<=-3", "-2-0", "1-2", "3+"]',
        'labels = ["<=-3", "-2-0", "1-2", "3-4"]\nabove = "error"',
    ).replace('"3+" = ', '"3-4" = ')
    path = tmp_path / "duel.toml"
    path.write_text(text, encoding="utf-8")
    procedure = load_game(path).procedure("combat")
    with pytest.raises(RuleError, match=r"^roll 5 is above the chart's highest, 3-4$"):
        procedure.odds(procedure.parse({"weapon": "rifle", "skill": 1}))
