"""The exact-odds caps: an overrun takes a full 10-man group, with or without a TMM (its
walk pays the web's work budget, so a costly group is refused there in one line, and past 10
men it is refused in one line everywhere); infiltration takes 10 men too
(rulesets/upfront/infiltration_walk.py) and pays the budget."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from firefight.chance import WorkBudgetError, work_budget
from firefight.errors import InputError
from firefight.rulesets.upfront.infiltration import INFILTRATION, UpFrontInfiltration
from firefight.rulesets.upfront.overrun import OVERRUN
from firefight.rulesets.upfront.overrun_attack import UpFrontOverrun
from firefight.rulesets.upfront.overrun_walk import MAX_PAIRS
from firefight.web.app import WORK_BUDGET, create_app
from tests.helpers import run_cli
from tests.rulesets.upfront.small_files import group_men


def _men(tmp_path: Path, distinct: bool) -> str:
    path = tmp_path / "men.toml"
    path.write_text(group_men(11, distinct=distinct), encoding="utf-8")
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


def test_an_overrun_with_a_tmm_takes_a_full_ten_man_group_of_distinct_men_within_the_web_budget(
    tmp_path: Path,
):
    men = _men(tmp_path, distinct=True)
    for tmm, tem in (("us9", -2), ("us0", -3)):  # drawn ahead of the men; after his card
        inp = UpFrontOverrun(
            men=men, afv="pz", targets=_ids(10), tmm=tmm, defender_terrain="woods", defender_tem=tem
        )
        with work_budget(WORK_BUDGET):  # what the web allows one request
            odds = OVERRUN.odds(inp)
        assert sum(odds.values()) == Fraction(1)
        assert any("AFV" in outcome for outcome in odds)


TEN_PLUS_ONE = "'targets' must be 1 to 10 ids (got 'us0,us1,us2,us3,us4,us5,us6,us7,us8,us9,us10')"


def test_an_overrun_with_a_tmm_past_ten_men_is_refused_in_one_line(tmp_path: Path):
    inp = UpFrontOverrun(men=_men(tmp_path, distinct=True), afv="pz", targets=_ids(11), tmm="us0")
    with pytest.raises(InputError) as error:
        OVERRUN.odds(inp)
    assert str(error.value) == TEN_PLUS_ONE


def test_the_cli_refuses_eleven_men_with_a_tmm_with_exit_2(tmp_path: Path, capsys):
    men = _men(tmp_path, distinct=True)
    args = ["odds", "upfront", "overrun", "--men", men, "--afv", "pz", "--tmm", "us0"]
    code, out, err = run_cli(capsys, *args, "--targets", _ids(11))
    assert code == 2
    assert out == ""
    assert err == "error: '--" + TEN_PLUS_ONE[1:] + "\n"


def test_the_web_refuses_eleven_men_with_a_tmm_with_422(tmp_path: Path):
    men = Path(_men(tmp_path, distinct=True)).read_text(encoding="utf-8")
    body = {"men": "uploaded", "men_toml": men, "afv": "pz", "tmm": "us0", "targets": _ids(11)}
    answer = TestClient(create_app()).post("/api/rulesets/upfront/overrun/odds", json=body)
    assert answer.status_code == 422
    assert TEN_PLUS_ONE in answer.text


def test_a_walk_past_its_memory_bound_is_refused_in_one_line_not_a_memory_error(tmp_path: Path):
    inp = UpFrontOverrun(
        men=_men(tmp_path, distinct=True),
        afv="pz",
        targets=_ids(10),
        tmm="us0,us3,us9",
        defender_tem=-4,
    )
    with pytest.raises(InputError) as error:
        OVERRUN.odds(inp)
    assert str(error.value).startswith(
        f"'targets' must be a group whose exact odds keep at most {MAX_PAIRS:,}"
    )
    assert "\n" not in str(error.value)


def test_a_costly_overrun_pays_the_web_work_budget(tmp_path: Path):
    men = _men(tmp_path, distinct=True)
    inp = UpFrontOverrun(men=men, afv="pz", targets=_ids(10), defender_tem=-4, smoke=-2)
    with pytest.raises(WorkBudgetError), work_budget(200):
        OVERRUN.odds(inp)


def test_a_costly_infiltration_pays_the_web_work_budget(tmp_path: Path):
    inp = UpFrontInfiltration(men=_men(tmp_path, distinct=True), infiltrators=_ids(10), hero=True)
    with pytest.raises(WorkBudgetError), work_budget(20):
        INFILTRATION.odds(inp)
