"""The engage page's best fire plan: ``POST /api/engage`` with ``optimal`` gives the CLI's
JSON, its options are checked in one line, and the page has the control."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient

from firefight.cli import main
from firefight.web.app import create_app
from tests.cli.test_engage_optimal_cli import SMALL


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
