"""The advisor's refusals past their budgets are the same line on the command line (exit 2)
and on the web (a 4xx), the web naming its fields where the command names its options: the
safest path, the optimal defender, the engagement optimum."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from firefight.rulesets.vv import defender, path_search
from firefight.rulesets.vv.scenario import sample_board_scenarios
from firefight.web.app import create_app
from tests.helpers import run_cli

VILLAGE = sample_board_scenarios()["village"].read_text(encoding="utf-8")


def units(side: str, name: str, fp: int) -> str:
    return "".join(
        f'[[{side}.units]]\nname = "{name}{i}"\nstrength = [{fp}, {fp - 2}]\nmorale = 7\n'
        for i in range(6)
    )


SIX = (
    'ruleset = "ept"\ntitle = "six"\nturns = 10\n[situation]\nrange = "normal"\n'
    f'[a]\nname = "Germans"\n{units("a", "MG", 6)}[b]\nname = "Americans"\n{units("b", "Squad", 5)}'
)
"""Six two-step units against six: past the state engine's limits on the optimal game."""


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app())


def same_refusal(client: TestClient, capsys, cli: list[str], route: str, body: dict) -> str:
    code, _out, err = run_cli(capsys, *cli)
    response = client.post(route, json=body)
    assert code == 2
    assert 400 <= response.status_code < 500, response.text
    line = err.strip().removeprefix("error: ")
    assert "\n" not in line
    assert response.json()["detail"] == as_fields(line)
    return line


def as_fields(line: str) -> str:
    """The command's line as the web words it: its options named as the request's fields
    (``'--to'`` and ``--units`` as ``'to'`` and ``'units'``), every other word the same."""
    line = re.sub(r"'--([a-z-]+)'", lambda m: f"'{m[1].replace('-', '_')}'", line)
    return re.sub(r"--([a-z-]+)", lambda m: f"'{m[1].replace('-', '_')}'", line)


def test_the_safest_path_past_its_budget(client, capsys, monkeypatch) -> None:
    monkeypatch.setattr(path_search, "MAX_EVALUATIONS", 2)
    line = same_refusal(
        client, capsys, ["move", "village", "--stack", "0206", "--to", "0406"],
        "/api/vv/move", {"scenario": VILLAGE, "stack": "0206", "to": "0406"},
    )  # fmt: skip
    assert as_fields(line).startswith("'to' must be a destination the path search reaches")


def test_the_optimal_defender_past_its_budget(client, capsys, monkeypatch) -> None:
    monkeypatch.setattr(defender, "MAX_STATES", 5)
    line = same_refusal(
        client, capsys,
        ["move", "village", "--stack", "0206", "--path", "0306,0406", "--policy", "optimal"],
        "/api/vv/move",
        {"scenario": VILLAGE, "stack": "0206", "path": ["0306", "0406"], "policy": "optimal"},
    )  # fmt: skip
    assert "budget of 5 states" in line


def test_the_engagement_optimum_past_its_limits(client, capsys, tmp_path: Path) -> None:
    path = tmp_path / "six.toml"
    path.write_text(SIX, encoding="utf-8")
    line = same_refusal(
        client, capsys, ["engage", str(path), "--optimal"],
        "/api/engage", {"scenario": SIX, "optimal": True},
    )  # fmt: skip
    assert line.startswith("'six': the optimal policy is exact only")
