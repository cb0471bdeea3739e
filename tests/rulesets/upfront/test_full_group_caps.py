"""Issue 14's exact-odds caps: an overrun takes a full 10-man group (its walk pays the web's
work budget, so a costly group is refused there in one line); infiltration takes 10 men too
(rulesets/upfront/infiltration_walk.py) and pays the budget."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from firefight.chance import WorkBudgetError, work_budget
from firefight.errors import InputError
from firefight.rulesets.upfront.closecombat import INFILTRATION, UpFrontInfiltration
from firefight.rulesets.upfront.overrun import OVERRUN, UpFrontOverrun

RIFLEMAN = """
[[man]]
id = "us{i}"
nationality = "american"
rank = "private"
weapon = "rifle"
firepower = [1, 1, 2, 2, 3, 3]
morale = {morale}
panic = {panic}
rout = {rout}
malfunction = 6
kia = {kia}
"""
AFV = """
[[man]]
id = "pz"
nationality = "german"
rank = "vehicle"
weapon = "gun"
firepower = [2, 3, 3, 4, 4, 5]
morale = 5
panic = 6
rout = 9
malfunction = 6
to_hit = [3, 4, 4, 5, 5, 6]
[man.afv]
armour = { k = 9, s = 8, i = 7 }
flank = { k = 7, s = 6, i = 5 }
ce = 6
ovr = 8
turret = true
open_topped = false
boxed = true
"""


def _men(tmp_path: Path, distinct: bool) -> str:
    text = 'title = "test group"\n'
    for i in range(11):
        values = (
            {"kia": 6 + i % 4, "morale": 2 + i % 5, "panic": 3 + i % 5, "rout": 4 + i % 3}
            if distinct
            else {"kia": 8, "morale": 4, "panic": 5, "rout": 6}
        )
        text += RIFLEMAN.format(i=i, **values)
    path = tmp_path / "men.toml"
    path.write_text(text + AFV, encoding="utf-8")
    return str(path)


def _ids(count: int) -> str:
    return ",".join(f"us{i}" for i in range(count))


def test_an_overrun_takes_a_full_ten_man_group(tmp_path: Path):
    inp = UpFrontOverrun(men=_men(tmp_path, distinct=False), afv="pz", targets=_ids(10))
    odds = OVERRUN.odds(inp)
    assert sum(odds.values()) == Fraction(1)
    assert odds  # exact odds over the 162-card pool, not a refusal


def test_an_overrun_past_ten_men_is_refused_in_one_line(tmp_path: Path):
    inp = UpFrontOverrun(men=_men(tmp_path, distinct=False), afv="pz", targets=_ids(11))
    with pytest.raises(InputError, match=r"^'targets' must be 1 to 10 ids \(got "):
        OVERRUN.odds(inp)


def test_a_costly_overrun_pays_the_web_work_budget(tmp_path: Path):
    inp = UpFrontOverrun(men=_men(tmp_path, distinct=True), afv="pz", targets=_ids(6))
    with pytest.raises(WorkBudgetError), work_budget(200):
        OVERRUN.odds(inp)


def test_a_costly_infiltration_pays_the_web_work_budget(tmp_path: Path):
    inp = UpFrontInfiltration(men=_men(tmp_path, distinct=True), infiltrators=_ids(10), hero=True)
    with pytest.raises(WorkBudgetError), work_budget(20):
        INFILTRATION.odds(inp)
