"""The Up Front advisor on the web: ``POST /api/upfront/advise`` (generated from the action,
in the OpenAPI document the standing fuzz reads) answers the command's JSON under the work
budget, and the card table's "Advise" button ranks the plays of the hand shown."""

from __future__ import annotations

import json
import time

import pytest
from fastapi.testclient import TestClient

from firefight.rulesets.upfront.advise import AdviseInput, advise
from firefight.rulesets.upfront.advise_answer import AdviceAnswer
from firefight.web import scenario
from firefight.web.app import create_app

SITUATION = {
    "firers": "ger-rifle-1,ger-rifle-2,ger-lmg,ger-assistant",
    "targets": "us-rifle,us-bar",
    "rr": 3,
    "hand": [64, 67, 70, 5, 129],
}
PAGE = "/rulesets/upfront/fire/cards"


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app())


def test_the_route_is_in_the_openapi_document(client: TestClient):
    paths = client.get("/openapi.json").json()["paths"]
    assert "post" in paths["/api/upfront/advise"]
    schema = paths["/api/upfront/advise"]["post"]["requestBody"]["content"]["application/json"]
    assert schema["schema"]


def test_the_route_answers_the_commands_json(client: TestClient):
    response = client.post("/api/upfront/advise", json=SITUATION)
    assert response.status_code == 200
    expected = AdviceAnswer(advise(AdviseInput.model_validate(SITUATION))).to_json()
    assert response.json() == expected


def test_the_route_spends_the_work_budget(client: TestClient, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(scenario, "WORK_BUDGET", 3)
    body = {**SITUATION, "targets": "us-bar,us-rifle", "rr": 2}  # not in a cache
    response = client.post("/api/upfront/advise", json=body)
    assert response.status_code == 422
    detail = response.json()["detail"]
    assert "\n" not in detail
    assert "at most 3 steps" in detail


def test_a_bad_objective_is_one_line(client: TestClient):
    response = client.post("/api/upfront/advise", json={**SITUATION, "objective": "most"})
    assert response.status_code == 422
    assert response.json()["field"] == "objective"


def test_the_card_table_offers_the_advise_button(client: TestClient):
    html = client.get(PAGE).text
    assert 'name="action" value="advise"' in html
    assert 'name="objective"' in html
    assert 'id="action-answer"' not in html


def test_the_advise_button_ranks_the_hand_shown(client: TestClient):
    query = {**SITUATION, "hand": "64,67,70,5,129", "fire_cards": "67", "action": "advise"}
    html = client.get(PAGE, params=query).text
    answer = html[html.index('id="action-answer"') :]
    assert "Best play: FIRE 64+67+70 = 9" in answer
    assert "not valued" in answer
    assert answer.index("FIRE 64+67+70 = 9") < answer.index("call the attack off")


def test_a_refused_advice_is_one_line_beside_the_table(client: TestClient):
    query = {**SITUATION, "hand": "5,129", "action": "advise"}
    html = client.get(PAGE, params=query).text
    assert 'id="action-error"' in html
    assert "a hand holding one or more FIRE cards" in html


def test_the_route_reads_no_file_it_is_told(client: TestClient):
    response = client.post("/api/upfront/advise", json={**SITUATION, "men": "/etc/passwd"})
    assert response.status_code == 422
    assert response.json()["field"] == "men"
    assert "the server reads no file path" in response.json()["detail"]


def test_the_advise_button_reads_no_file_it_is_told(client: TestClient):
    query = {**SITUATION, "hand": "64,67", "action": "advise", "deck": "/etc/passwd"}
    html = client.get(PAGE, params=query).text
    answer = html[html.index('id="action-error"') :]
    assert "the server reads no file path" in answer[: answer.index("</p>")]


def test_an_advice_past_the_time_limit_names_the_hand_and_what_to_reduce(monkeypatch):
    """The advice has no scenario: its refusal past the time limit names the field that makes
    the work large (the hand: its plays) and what to reduce, in one line."""
    monkeypatch.setattr(scenario, "SCENARIO_SECONDS", 0.05)

    def stuck(body: str) -> dict[str, object]:
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            pass
        return {}

    monkeypatch.setitem(scenario.ANSWERS, "upfront/advise", stuck)
    status, body = scenario.compute_answer("upfront/advise", json.dumps(SITUATION))
    assert status == 422
    answer = json.loads(body)
    assert answer["field"] == "hand"
    assert "scenario" not in answer["detail"]
    assert answer["detail"].startswith("'hand' must be an input whose answer takes at most 0.05 s")
    assert "fewer FIRE cards in the hand" in answer["detail"]
    assert "\n" not in answer["detail"]
