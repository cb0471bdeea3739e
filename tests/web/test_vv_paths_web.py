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
    assert detail.startswith("'seed' must be left out with 'to'")
    assert "'path' and 'seed'" in detail
    assert "\n" not in detail


@pytest.mark.parametrize(
    ("extra", "field", "said"),
    [
        ({"to": "0406", "policy": "player"}, "policy", "with 'to'"),
        ({"to": "0406", "policy": "optimal", "path": ["0305"]}, "path", "left out with 'to'"),
        ({"policy": "optimal", "seed": 3}, "seed", "with 'policy' player"),
        ({"path": []}, "path", "(or 'to': the safest paths there)"),
        ({"path": ["0305"], "player": {"de-sq1": "0305"}}, "player", "given with 'policy' player"),
        ({"path": ["0305"], "position_cost": "charged"}, "position_cost", "given with 'overrun'"),
    ],
)
def test_the_webs_errors_name_its_fields_not_the_commands_options(client, extra, field, said):
    body = {"scenario": TEXT, "stack": "0206", **extra}
    response = client.post("/api/vv/move", json=body)
    assert response.status_code == 422, response.text
    answer = response.json()
    assert answer["field"] == field
    assert said in answer["detail"]
    assert "--" not in answer["detail"]


def test_the_command_still_names_its_options(capsys):
    code, _out, err = run_cli(capsys, "move", "village", "--stack", "0206", "--to", "0406",
                              "--seed", "3")  # fmt: skip
    assert code == 2
    assert "'--seed' must be left out with --to" in err


@pytest.mark.parametrize("policy", ["threshold", "optimal"])
def test_a_destination_no_path_reaches_is_the_clis_line_as_a_422(client, capsys, policy):
    body = {"scenario": TEXT, "stack": "0206", "to": "1001", "policy": policy}
    response = client.post("/api/vv/move", json=body)
    assert response.status_code == 422, response.text
    answer = response.json()
    assert answer == {
        "detail": "'to' must be a hex the stack can reach with its MPs (got '1001')",
        "field": "to",
    }
    code, _out, err = run_cli(capsys, "move", "village", "--stack", "0206", "--to", "1001",
                              "--policy", policy)  # fmt: skip
    assert code == 2
    assert err == f"error: {answer['detail'].replace(chr(39) + 'to', chr(39) + '--to')}\n"
