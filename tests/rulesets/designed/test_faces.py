"""A game written as one TOML file goes through every face: the CLI by its file or, once
added to the user's folder, by its id; the web calculator's page, its JSON API and OpenAPI
document; in English and in French, in the file's own words."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from firefight.rulesets import added, infos
from firefight.rulesets.designed import build
from firefight.web.app import create_app
from tests.helpers import run_cli, shown
from tests.rulesets.designed.twin import brute_odds

EXAMPLES = Path(__file__).parents[3] / "examples"
CRT = EXAMPLES / "classic-crt.toml"
FIREPOWER = EXAMPLES / "firepower-2d6.toml"
CRT_INPUT = {
    "attack_strength": 7,
    "defense_strength": 3,
    "terrain": "woods",
    "behind_river": False,
    "out_of_supply": False,
}
CRT_OPTIONS = ["--attack-strength", "7", "--defense-strength", "3", "--terrain", "woods"]


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """An empty folder of added rule sets, read afresh."""
    where = tmp_path / "rulesets"
    monkeypatch.setenv(added.FOLDER_VARIABLE, str(where))
    added.forget()
    yield where
    added.forget()


def _expected() -> dict[str, str]:
    return {k: str(v) for k, v in brute_odds(CRT, CRT_INPUT).items()}


def test_odds_of_a_file_named_on_the_command_line(folder, capsys):
    code, out, err = run_cli(capsys, "odds", str(CRT), "attack", *CRT_OPTIONS, "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["distribution"] == _expected()
    assert sum(Fraction(p) for p in data["distribution"].values()) == 1
    assert data["modifiers"][0]["rule"] == "Terrain Effects Chart"


def test_a_file_added_is_found_by_its_id_in_every_command(folder, capsys):
    code, out, err = run_cli(capsys, "rulesets", "--add", str(CRT))
    assert code == 0, err
    assert (folder / "classic-crt.toml").is_file()
    assert "classic-crt" in out
    code, out, err = run_cli(capsys, "rulesets", "--json")
    assert any(r["id"] == "classic-crt" for r in json.loads(out))
    code, out, err = run_cli(capsys, "odds", "classic-crt", "attack", *CRT_OPTIONS, "--json")
    assert code == 0, err
    assert json.loads(out)["distribution"] == _expected()
    code, out, err = run_cli(
        capsys, "resolve", "classic-crt", "attack", *CRT_OPTIONS, "--roll", "1", "--json"
    )
    assert code == 0, err
    assert json.loads(out)["outcome"] == "DR"  # row 1 of column 1-1
    code, out, err = run_cli(
        capsys, "resolve", "classic-crt", "attack", *CRT_OPTIONS, "--seed", "4", "--json"
    )
    assert code == 0, err
    assert json.loads(out)["outcome"] in _expected()
    code, out, err = run_cli(capsys, "table", "classic-crt", "classic-crt", "--json")
    assert code == 0, err
    assert json.loads(out)["columns"] == ["1-2", "1-1", "2-1", "3-1", "4-1", "5-1", "6-1"]


def test_a_file_dropped_by_hand_is_read_too(folder, capsys):
    folder.mkdir()
    shutil.copy(FIREPOWER, folder / "mine.toml")
    assert "firepower-2d6" in {i.id for i in infos()}
    code, out, err = run_cli(capsys, "odds", "firepower-2d6", "fire", "--firepower", "5")
    assert code == 0, err
    assert "one step lost" in out


def test_check_prints_the_chart_and_refuses_a_bad_file_in_one_line(folder, capsys, tmp_path):
    code, out, err = run_cli(capsys, "rulesets", "--check", str(FIREPOWER))
    assert code == 0, err
    assert "a valid game: firepower-2d6" in out
    assert "12-16" in out
    bad = tmp_path / "bad.toml"
    bad.write_text(CRT.read_text(encoding="utf-8").replace('"4-1", "5-1"', '"5-1", "4-1"'))
    code, out, err = run_cli(capsys, "rulesets", "--check", str(bad))
    assert code == 2
    assert err.count("\n") == 1
    assert "bad.toml: column.labels[5]" in err
    assert not folder.exists()


def test_an_id_clashing_with_a_built_in_game_or_another_file_is_refused(folder, capsys, tmp_path):
    ept = tmp_path / "ept.toml"
    ept.write_text(CRT.read_text(encoding="utf-8").replace('id = "classic-crt"', 'id = "ept"'))
    code, _out, err = run_cli(capsys, "rulesets", "--add", str(ept))
    assert code == 2
    assert err.strip().endswith("the id 'ept' is a built-in rule set's: give the file another id")
    assert run_cli(capsys, "rulesets", "--add", str(CRT))[0] == 0
    twin = tmp_path / "twin.toml"
    shutil.copy(CRT, twin)
    code, _out, err = run_cli(capsys, "rulesets", "--add", str(twin))
    assert code == 2
    assert "the id 'classic-crt' is that of classic-crt.toml" in err
    shutil.copy(twin, folder / "twin.toml")  # dropped by hand: left out, and said
    added.forget()
    code, _out, err = run_cli(capsys, "rulesets")
    assert code == 0
    assert err.strip() == (
        "left out: twin.toml: the id 'classic-crt' is that of classic-crt.toml: "
        "give the file another id"
    )
    code, _out, err = run_cli(capsys, "odds", "twin", "attack")
    assert code == 2
    assert "twin.toml: the id 'classic-crt'" in err
    assert (
        run_cli(
            capsys,
            "odds",
            "ept",
            "fire",
            "--strength",
            "4",
            "--range",
            "adjacent",
            "--protection",
            "none",
        )[0]
        == 0
    )


def test_the_cli_speaks_the_files_french(folder, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "120")  # the words whole: a first column that wraps reads apart
    code, out, err = run_cli(capsys, "--lang", "fr", "odds", str(CRT), "attack", *CRT_OPTIONS)
    assert code == 0, err
    assert "Table de résultats des combats classique" in out
    assert shown("défenseur dans les bois", out)
    assert shown("l'attaquant recule", out)


@pytest.fixture
def client(folder: Path) -> TestClient:
    folder.mkdir()
    for path in (CRT, FIREPOWER):
        shutil.copy(path, folder / path.name)
    return TestClient(create_app())


def test_the_web_page_and_api_have_both_examples(client):
    index = client.get("/")
    assert "Classic Combat Results Table" in index.text
    page = client.get("/rulesets/classic-crt/attack")
    assert page.status_code == 200
    assert "attack strength" in page.text
    answer = client.post("/api/rulesets/classic-crt/attack/odds", json=CRT_INPUT)
    assert answer.status_code == 200, answer.text
    assert answer.json()["distribution"] == _expected()
    rolled = client.post(
        "/api/rulesets/firepower-2d6/fire/resolve", json={"input": {"firepower": 9}, "seed": 3}
    )
    assert rolled.status_code == 200, rolled.text
    assert rolled.json()["outcome"] in {"-", "P", "K", "KK", "E"}
    refused = client.post("/api/rulesets/classic-crt/attack/odds", json={"terrain": "swamp"})
    assert refused.status_code == 422
    assert "swamp" in refused.text
    chart = client.get("/rulesets/classic-crt/tables/classic-crt")
    assert chart.status_code == 200
    french = client.get("/rulesets/firepower-2d6/fire?lang=fr")
    assert "Tir (table de tir par puissance de feu)" in french.text
    assert "puissance de feu" in french.text


def test_the_openapi_document_names_the_files_fields(client):
    document = client.get("/openapi.json").json()
    assert "/api/rulesets/classic-crt/attack/odds" in document["paths"]
    schema = document["components"]["schemas"]["classic-crt.attack.input"]
    assert set(schema["properties"]) == set(CRT_INPUT)
    assert schema["properties"]["terrain"]["enum"] == ["clear", "woods", "town"]


def test_odds_the_chart_refuses_are_a_one_line_4xx(client):
    refused = client.post(
        "/api/rulesets/classic-crt/attack/odds",
        json={"attack_strength": 1, "defense_strength": 9},
    )
    assert refused.status_code == 422
    assert refused.json()["detail"] == "odds 1-9 is below the chart's lowest, 1-2"


def test_listing_the_folder_reads_the_files_headers_alone(folder):
    """``firefight rulesets`` imports no game's builder: each file's id, title and source."""
    folder.mkdir()
    for path in (CRT, FIREPOWER):
        shutil.copy(path, folder / path.name)
    script = (
        "import sys, json; from firefight.cli import main; main(['rulesets', '--json']); "
        "print(json.dumps(sorted(m for m in sys.modules if 'designed' in m)))"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, added.FOLDER_VARIABLE: str(folder)},
    )
    listed, imported = done.stdout.rsplit("\n", 2)[0], done.stdout.rsplit("\n", 2)[1]
    assert {"classic-crt", "firepower-2d6"} <= {r["id"] for r in json.loads(listed)}
    assert json.loads(imported) == []


def test_a_bug_while_a_files_rule_runs_names_the_file_and_procedure(folder, capsys, monkeypatch):
    def broken(self: build.DesignedRule, total: int) -> int:
        raise LookupError(f"no row {total}")

    monkeypatch.setattr(build.DesignedRule, "row", broken)
    code, _out, err = run_cli(capsys, "odds", str(CRT), "attack", *CRT_OPTIONS)
    assert code == 70
    assert err.count("\n") == 1
    assert err.startswith(
        "error: internal error in game file 'classic-crt.toml' "
        "(rule set classic-crt, procedure attack): LookupError: no row "
    )
