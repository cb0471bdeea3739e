"""Hostile requests to the advisor's routes and files from outside: each refusal is one line
that names the field given, what is allowed and the value, never the validator's own words
(``Extra inputs are not permitted``, ``String should have at most``, ``JSON decode error``)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from firefight.core.files import decode, parse_toml
from firefight.web.app import create_app

ADVISE = "/api/upfront/advise"
SITUATION = {
    "firers": "ger-rifle-1,ger-rifle-2,ger-lmg,ger-assistant",
    "targets": "us-rifle,us-bar",
    "rr": 3,
    "hand": [62, 64, 67, 70, 5],
}
VALIDATORS_WORDS = (
    "Input should",
    "should have",
    "Extra inputs",
    "decode error",
    "after validation",
)


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app())


def _refused(client: TestClient, **body: object) -> dict[str, object]:
    response = client.post(ADVISE, json={**SITUATION, **body})
    assert response.status_code == 422, response.text
    found = response.json()
    assert isinstance(found, dict)
    detail = str(found["detail"])
    assert "\n" not in detail
    assert not any(words in detail for words in VALIDATORS_WORDS), detail
    return found


def test_a_field_the_request_has_not_is_named_with_the_fields_it_has(client: TestClient):
    found = _refused(client, fire_cards=[62])
    assert found["field"] == "fire_cards"
    assert str(found["detail"]).startswith("'fire_cards' must be left out")
    assert "firers" in str(found["detail"])  # the fields allowed are named


def test_a_text_too_long_says_how_long_it_may_be(client: TestClient):
    found = _refused(client, deck="x" * 600)
    assert found["field"] == "deck"
    assert "'deck' must be a text of at most 500 characters" in str(found["detail"])


def test_a_list_too_long_says_how_many_items_it_may_hold(client: TestClient):
    # the move route's units: at most 40
    body = {"scenario": "x", "stack": "0206", "units": ["u"] * 41}
    response = client.post("/api/vv/move", json=body)
    assert response.status_code == 422
    detail = response.json()["detail"]
    assert "'units' must be a list of at most 40 items" in detail, detail
    assert not any(words in detail for words in VALIDATORS_WORDS), detail


def test_a_value_inside_a_field_names_the_field_and_its_place(client: TestClient):
    body = {"scenario": "x", "stack": "0206", "allocation": {"0406": "us-sq1"}}
    response = client.post("/api/vv/move", json=body)
    assert response.status_code == 422
    found = response.json()
    assert found["field"] == "allocation"
    assert str(found["detail"]).startswith("'allocation.0406' must be"), found


def test_a_body_that_is_not_json_is_one_line_naming_the_body(client: TestClient):
    response = client.post(
        ADVISE, content=b"not json", headers={"content-type": "application/json"}
    )
    assert response.status_code == 422
    found = response.json()
    assert found["field"] == "body"
    assert str(found["detail"]).startswith("'body' must be a JSON object"), found
    assert not any(words in found["detail"] for words in VALIDATORS_WORDS)


def test_a_body_that_is_a_list_is_one_line_naming_the_body(client: TestClient):
    response = client.post(ADVISE, json=[])
    assert response.status_code == 422
    found = response.json()
    assert found["field"] == "body"
    assert str(found["detail"]) == "'body' must be a JSON object (got [])"


def test_a_file_saved_with_a_byte_order_mark_reads_as_without():
    # Windows' Notepad saves UTF-8 with one; TOML's parser refuses it at line 1, column 1
    text = decode("\ufeffid = 'skirmish'\n".encode(), "skirmish.toml")
    assert parse_toml(text, "skirmish.toml") == {"id": "skirmish"}
