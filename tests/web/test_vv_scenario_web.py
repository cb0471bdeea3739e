"""The V&V scenario page and its JSON API (issue 15): the CLI's JSON shapes, one-line 422s,
boards by sample name only, answers in the pool under a time limit."""

from __future__ import annotations

import json
import time

import pytest
from fastapi.testclient import TestClient

from firefight.cli import main
from firefight.rulesets.vv.scenario import sample_scenarios
from firefight.web import scenario as web_scenario
from firefight.web.app import create_app

TEXT = sample_scenarios()["village"].read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def client():
    return TestClient(create_app())


def test_the_threat_map_is_the_clis_json(client, capsys):
    response = client.post("/api/vv/threat", json={"scenario": TEXT, "side": "us"})
    assert response.status_code == 200
    assert main(["threat", "village", "--side", "us", "--json"]) == 0
    assert response.json() == json.loads(capsys.readouterr().out)


def test_a_stacks_threat_map_with_assault_movement(client, capsys):
    body = {"scenario": TEXT, "side": "us", "stack": "0206", "assault": True}
    response = client.post("/api/vv/threat", json=body)
    assert response.status_code == 200
    argv = ["threat", "village", "--side", "us", "--stack", "0206", "--assault", "--json"]
    assert main(argv) == 0
    assert response.json() == json.loads(capsys.readouterr().out)


def test_a_moves_odds_and_a_seeded_run_that_its_dice_replay(client):
    body = {"scenario": TEXT, "stack": "0206", "path": ["0306", "0406"]}
    odds = client.post("/api/vv/move", json=body).json()
    assert odds["exact"] is True
    assert [h["hex"] for h in odds["hexes"]] == ["0306", "0406"]
    run = client.post("/api/vv/move", json={**body, "seed": 4}).json()
    dice = ",".join(run["replay"])
    replayed = client.post("/api/vv/move", json={**body, "roll": dice}).json()
    assert replayed["outcome"] == run["outcome"]
    assert replayed["steps"] == run["steps"]


@pytest.mark.parametrize(
    ("route", "body", "message"),
    [
        ("threat", {"side": "fr"}, "'side' must be one of us, de (got 'fr')"),
        ("threat", {"side": "us", "stack": "99"}, "'stack' must be"),
        (
            "move",
            {"stack": "0206", "path": ["0306", "0806"]},
            "'path' must be a hex adjacent to 0306",
        ),
        ("move", {"stack": "0206", "path": ["0306"], "policy": "x"}, "'policy' must be one of"),
        ("move", {"stack": "0206", "path": ["0306"], "seed": 1, "roll": "3,4"}, "'seed/roll'"),
    ],
)
def test_bad_input_is_a_one_line_422(client, route, body, message):
    response = client.post(f"/api/vv/{route}", json={"scenario": TEXT, **body})
    assert response.status_code == 422
    detail = response.json()["detail"]
    assert message in detail
    assert "\n" not in detail


def test_a_scenario_names_a_sample_board_never_a_path(client):
    text = TEXT.replace('board = "vv_village"', 'board = "/etc/passwd.toml"')
    response = client.post("/api/vv/threat", json={"scenario": text, "side": "us"})
    assert response.status_code == 422
    assert response.json()["detail"] == (
        "scenario: 'board' must be a sample board on the web: one of normandy_bocage, "
        'vv_village (got "/etc/passwd.toml")'
    )
    broken = client.post("/api/vv/scenario", json={"scenario": "board = ["})
    assert broken.status_code == 422
    assert broken.json()["detail"].startswith("scenario: not TOML (")


def test_a_pasted_scenario_comes_back_with_its_counters_and_board(client):
    found = client.post("/api/vv/scenario", json={"scenario": TEXT}).json()
    assert found["board"] == "vv_village"
    assert len(found["units"]) == 9
    assert found["units"][0] == {
        "id": "us-sq1",
        "name": "1st Rifle squad",
        "side": "us",
        "side_index": 0,
        "kind": "squad",
        "hex": "0206",
        "text": "Sq 4",
        "state": "",
    }
    assert len(found["drawing"]["hexes"]) == 16 * 12


def test_the_index_links_the_scenario_page(client):
    assert 'href="/rulesets/vv/scenario"' in client.get("/").text


def test_the_page_draws_the_board_and_names_the_samples(client):
    page = client.get("/rulesets/vv/scenario")
    assert page.status_code == 200
    assert 'data-hex="0206"' in page.text
    assert "/static/scenario.js" in page.text
    assert client.get("/rulesets/vv/scenario?name=nope").status_code == 404
    assert client.get("/api/vv/scenarios").json() == [
        {"name": "armour", "title": "Armour west of the crossroads", "board": "vv_village"},
        {"name": "village", "title": "Crossroads at dusk", "board": "vv_village"},
    ]


def test_a_costly_answer_is_cut_off_in_one_line(monkeypatch):
    monkeypatch.setattr(web_scenario, "SCENARIO_SECONDS", 0.05)

    def stuck(body: str) -> dict[str, object]:
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            pass
        return {}

    monkeypatch.setitem(web_scenario.ANSWERS, "threat", stuck)
    started = time.monotonic()
    status, body = web_scenario.compute_answer("threat", "{}")
    assert time.monotonic() - started < 2
    assert status == 422
    assert "a scenario whose answer takes at most 0.05 s here" in json.loads(body)["detail"]
