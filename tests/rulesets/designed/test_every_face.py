"""Each of the two example game files, added to the user's folder, goes through every face at
its defaults: ``rulesets``, ``odds``, ``resolve``, ``table`` on the command line; the
calculator's page, the JSON API (its odds, resolve and chart) and the OpenAPI document."""

from __future__ import annotations

import json
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from firefight.rulesets import added
from firefight.web.app import create_app
from tests.helpers import run_cli

EXAMPLES = Path(__file__).parents[3] / "examples"
GAMES = [
    (EXAMPLES / "classic-crt.toml", "classic-crt", "attack"),
    (EXAMPLES / "firepower-2d6.toml", "firepower-2d6", "fire"),
]


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    where = tmp_path / "rulesets"
    monkeypatch.setenv(added.FOLDER_VARIABLE, str(where))
    added.forget()
    yield where
    added.forget()


@pytest.mark.parametrize(("path", "game", "procedure"), GAMES)
def test_an_example_file_goes_through_every_face(folder, capsys, path, game, procedure):
    assert run_cli(capsys, "rulesets", "--add", str(path))[0] == 0
    code, out, err = run_cli(capsys, "rulesets", "--json")
    assert code == 0, err
    assert next(r for r in json.loads(out) if r["id"] == game)["procedures"] == [procedure]
    code, out, err = run_cli(capsys, "odds", game, procedure, "--json")
    assert code == 0, err
    odds = json.loads(out)["distribution"]
    assert sum(Fraction(p) for p in odds.values()) == 1
    code, out, err = run_cli(capsys, "resolve", game, procedure, "--seed", "7", "--json")
    assert code == 0, err
    assert json.loads(out)["outcome"] in odds
    code, out, err = run_cli(capsys, "table", game, game, "--json")
    assert code == 0, err
    columns = json.loads(out)["columns"]
    assert columns
    client = TestClient(create_app())
    assert client.get(f"/rulesets/{game}/{procedure}").status_code == 200
    assert client.get(f"/rulesets/{game}/tables/{game}").status_code == 200
    base = f"/api/rulesets/{game}/{procedure}"
    assert client.post(f"{base}/odds", json={}).json()["distribution"] == odds
    rolled = client.post(f"{base}/resolve", json={"input": {}, "seed": 7})
    assert rolled.json()["outcome"] in odds
    assert client.get(f"/api/rulesets/{game}/tables/{game}").json()["columns"] == columns
    document = client.get("/openapi.json").json()
    assert {f"{base}/odds", f"{base}/resolve", f"{base}/modifiers"} <= set(document["paths"])
    assert f"{game}.{procedure}.input" in document["components"]["schemas"]
