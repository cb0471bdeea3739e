"""The data file editor's page and its check route: a deck (or personality cards) typed entry
by entry or uploaded, checked by the file's own check (that of ``firefight deck check``)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from firefight.rulesets.upfront.check import check_deck
from firefight.web.app import create_app
from firefight.web.uploads import UPLOAD_BODY

ILLUSTRATIVE = (
    Path(__file__).resolve().parents[2] / "src/firefight/rulesets/upfront/data/illustrative"
)
CHECK = "/api/rulesets/upfront/files/deck/check"
RPN = ["0b", "1b", "2r", "3b", "4b", "5b", "6b", "7b", "8b", "9b"]


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app())


def card(**fields: object) -> dict[str, object]:
    return {"number": "1", "rn": "4r", "rpn": RPN, "kind": "fire", "value": "2", **fields}


def test_the_pages_are_drawn_and_linked_from_the_home_page(client):
    for field, text in (("deck", "RPN"), ("men", "Firepower by range")):
        page = client.get(f"/rulesets/upfront/files/{field}")
        assert page.status_code == 200
        assert text in page.text
        assert f"/api/rulesets/upfront/files/{field}/check" in page.text
    assert 'href="/rulesets/upfront/files/deck"' in client.get("/").text


def test_an_unknown_file_or_rule_set_is_a_404(client):
    assert client.get("/rulesets/upfront/files/roster").status_code == 404
    answer = client.post("/api/rulesets/upfront/files/roster/check", json={})
    assert answer.status_code == 404
    assert answer.json()["detail"] == "'file' must be one of deck, men (got 'roster')"
    assert client.post("/api/rulesets/nogame/files/deck/check", json={}).status_code == 404


def test_typed_cards_are_written_as_the_file_and_checked(client):
    answer = client.post(CHECK, json={"title": "mine", "entries": [card(), card(number="2")]})
    assert answer.status_code == 200
    data = answer.json()
    written = tomllib.loads(data["text"])
    assert written["title"] == "mine"
    assert written["card"][0] == {"number": 1, "rn": "4r", "rpn": RPN, "kind": "fire", "value": 2}
    assert data["valid"] is True
    assert (data["counted"], data["counts"]["fire"], data["expected"]["fire"]) == (2, 2, 48)


def test_each_problem_names_the_card_its_field_and_which_entry(client):
    entries = [card(), card(number="2", rn="8r", value=""), card(number="x")]
    data = client.post(CHECK, json={"entries": entries}).json()
    named = [(p["entry"], p["field"], p["index"], p["missing"]) for p in data["problems"]]
    assert named == [
        ("card 2", "rn", 1, False),
        ("card 2", "value", 1, True),
        ("card #3", "number", 2, False),
    ]
    assert data["problems"][0]["message"].startswith("deck.toml: card 2: 'rn' must be a number")


def test_the_check_is_the_command_lines(client):
    text = (
        (ILLUSTRATIVE / "deck.toml").read_text(encoding="utf-8").replace('rn = "4b"', 'rn = "4q"')
    )
    data = client.post(CHECK, json={"text": text, "partial": False}).json()
    expected = check_deck(text, "deck.toml", partial=False)
    assert [p["message"] for p in data["problems"]] == [p.message for p in expected.problems]
    assert data["problems"]


def test_an_uploaded_deck_comes_back_as_entries_and_again_as_the_same_file(client):
    text = (ILLUSTRATIVE / "deck.toml").read_text(encoding="utf-8")
    data = client.post(CHECK, json={"text": text, "partial": False}).json()
    assert data["valid"] is True
    assert len(data["entries"]) == 162
    assert data["entries"][0] == {
        "number": "1",
        "kind": "terrain",
        "value": "0",
        "rn": "4b",
        "rpn": ["5b", "6b", "8b", "2r", "0b", "6b", "6b", "0r", "1b", "3b"],
    }
    again = client.post(
        CHECK,
        json={
            "title": data["title"],
            "entries": data["entries"],
            "extra": data["extra"],
            "partial": False,
        },
    ).json()
    assert again["valid"] is True
    assert tomllib.loads(again["text"]) == tomllib.loads(text)


def test_uploaded_personalities_keep_what_the_page_does_not_type(client):
    text = (ILLUSTRATIVE / "men.toml").read_text(encoding="utf-8")
    route = "/api/rulesets/upfront/files/men/check"
    data = client.post(route, json={"text": text}).json()
    assert data["valid"] is True
    assert "afv" in data["entries"][-1]["extra"]
    again = client.post(
        route, json={"title": data["title"], "entries": data["entries"], "extra": data["extra"]}
    ).json()
    assert tomllib.loads(again["text"]) == tomllib.loads(text)


def test_a_text_over_the_files_limit_is_a_422_and_a_body_over_the_uploads_a_413(client):
    answer = client.post(CHECK, json={"text": "#" * 1_000_001})
    assert answer.status_code == 422
    assert answer.json()["field"] == "text"
    assert "at most 1,000,000 bytes" in answer.json()["detail"]
    assert client.post(CHECK, json={"text": "#" * UPLOAD_BODY}).status_code == 413


def test_a_malformed_upload_is_one_problem_and_a_bad_body_a_422(client):
    data = client.post(CHECK, json={"text": "title = "}).json()
    assert (data["valid"], data["entries"], len(data["problems"])) == (False, [], 1)
    assert client.post(CHECK, json={"entries": "no"}).status_code == 422
    assert client.post(CHECK, json={"cards": []}).status_code == 422


def test_a_body_that_is_no_json_object_is_a_422_in_one_line(client):
    answer = client.post(CHECK, content=b"\xff\x00", headers={"Content-Type": "application/json"})
    assert answer.status_code == 422
    assert isinstance(answer.json()["detail"], str)
