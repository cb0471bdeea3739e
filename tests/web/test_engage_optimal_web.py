"""The engage page's best fire plan: ``POST /api/engage`` with ``optimal`` gives the CLI's
JSON, its options are checked in one line, and the page has the control."""

from __future__ import annotations

import json
from typing import get_args

import pytest
from fastapi.testclient import TestClient

from firefight.cli import main
from firefight.i18n import gettext as _
from firefight.i18n import using
from firefight.web.app import create_app
from firefight.web.engage import EngageIn
from tests.cli.test_engage_optimal_cli import SMALL
from tests.i18n.advice_words import pending_french  # noqa: F401 - a fixture


@pytest.fixture(scope="module")
def client():
    return TestClient(create_app())


def test_the_best_fire_plan_is_the_clis_json(client, capsys, tmp_path):
    path = tmp_path / "small.toml"
    path.write_text(SMALL, encoding="utf-8")
    answer = client.post(
        "/api/engage", json={"scenario": SMALL, "optimal": True, "side": "b", "objective": "losses"}
    )
    assert answer.status_code == 200
    assert (
        main(["engage", str(path), "--optimal", "--side", "b", "--objective", "losses", "--json"])
        == 0
    )
    expected = json.loads(capsys.readouterr().out)
    got = answer.json()
    assert got.pop("scenario") == "scenario"
    expected.pop("scenario")
    assert got == expected


@pytest.mark.parametrize(
    ("extra", "field"),
    [
        ({"optimal": True, "seed": 3}, "seed"),
        ({"side": "b"}, "optimal"),
        ({"optimal": True, "side": "c"}, "side"),
        ({"optimal": True, "against": "nobody"}, "against"),
    ],
)
def test_bad_optimal_requests_are_one_line_422s(client, extra, field):
    answer = client.post("/api/engage", json={"scenario": SMALL, **extra})
    assert answer.status_code == 422
    assert answer.json()["field"] == field
    assert "\n" not in answer.json()["detail"]


def test_the_engage_page_offers_the_best_fire_plan(client):
    page = client.get("/engage/ept_hedgerow").text
    assert 'id="optimal"' in page
    assert 'id="optimal-objective"' in page


def test_the_opponent_chosen_is_the_clis_against(client, capsys, tmp_path):
    path = tmp_path / "small.toml"
    path.write_text(SMALL, encoding="utf-8")
    answer = client.post(
        "/api/engage", json={"scenario": SMALL, "optimal": True, "against": "focus"}
    )
    assert answer.status_code == 200
    assert main(["engage", str(path), "--optimal", "--against", "focus", "--json"]) == 0
    expected = json.loads(capsys.readouterr().out)
    got = answer.json()
    assert got["opponent"] == expected["opponent"] == "focus"
    assert got["optimal"] == expected["optimal"]
    assert got["heuristics"] == expected["heuristics"]


def test_the_engage_page_offers_every_opponent_the_request_allows(client):
    page = client.get("/engage/ept_hedgerow").text
    picker = page[page.index('id="optimal-against"') :]
    picker = picker[: picker.index("</select>")]
    values = [part.split('"', 1)[0] for part in picker.split('value="')[1:]]
    assert values == ["", *get_args(get_args(EngageIn.model_fields["against"].annotation)[0])]
    assert "optimal opponent (minimax)" in picker
    assert "best expected effect" in picker


@pytest.mark.usefixtures("pending_french")
def test_the_opponents_are_french_on_a_french_page(client):
    page = client.get("/engage/ept_hedgerow?lang=fr").text
    picker = page[page.index('id="optimal-against"') :]
    picker = picker[: picker.index("</select>")]
    with using("fr"):
        for english in ("the default opponent", "optimal opponent (minimax)", "focus"):
            assert _(english) in picker


def test_an_option_of_the_optimal_policy_without_it_names_the_fields_given(client):
    client.cookies.clear()  # a French page earlier in the module left its language's cookie
    answer = client.post("/api/engage", json={"scenario": SMALL, "side": "b", "against": "focus"})
    assert answer.status_code == 422
    assert answer.json() == {
        "detail": "'side', 'objective' and 'against' apply only with 'optimal' "
        "(got 'side' 'b', 'against' 'focus')",
        "field": "optimal",
    }
