"""``POST /api/vv/move`` with ``"to"``: the safest paths, the CLI's ``move --to --json``, and a
one-line 422 for what the search does not read."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient

from firefight.rulesets.vv.scenario import sample_board_scenarios as sample_scenarios
from firefight.web.app import create_app
from tests.helpers import run_cli

TEXT = sample_scenarios()["village"].read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def client():
    return TestClient(create_app())


def test_the_safest_paths_are_the_clis_json(client, capsys):
    body = {"scenario": TEXT, "stack": "0206", "to": "0406", "top": 2}
    response = client.post("/api/vv/move", json=body)
    assert response.status_code == 200, response.text
    code, out, err = run_cli(capsys, "move", "village", "--stack", "0206", "--to", "0406",
                             "--top", "2", "--json")  # fmt: skip
    assert code == 0, err
    answer, cli = response.json(), json.loads(out)
    assert answer["paths"] == cli["paths"]
    assert [p["rank"] for p in answer["paths"]] == [1, 2]


def test_a_destination_with_a_seed_is_a_one_line_422(client):
    body = {"scenario": TEXT, "stack": "0206", "to": "0406", "seed": 3}
    response = client.post("/api/vv/move", json=body)
    assert response.status_code == 422
    detail = response.json()["detail"]
    assert detail.startswith("'seed' must be left out with --to")
    assert "\n" not in detail
