"""The contract holds: a rule set built here, from ``firefight.api`` alone (docs/api.md), and
registered at run time, appears in every face with no line of face code written for it.

The rule set, ``proof``, has one procedure, ``shot``: a die rolled against a chart whose
file is written to a temporary folder; a skill above 3 adds to the roll, and the cover is the
chart's column. It is registered for this module only and taken out after.
"""

from __future__ import annotations

import ast
import json
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Literal

import pytest
from fastapi.testclient import TestClient
from pydantic import Field

from firefight.api import (
    D6,
    Chance,
    Modifier,
    ModifierKind,
    Procedure,
    RuleInput,
    RuleSet,
    load_chart,
)
from firefight.pbem.chain import DEFAULT_LENGTH as LENGTH
from firefight.pbem.chain import anchor, element, new_seed
from firefight.rulesets import infos, register, registry, ruleset, rulesets
from firefight.web.app import create_app
from tests.helpers import run_cli, shown

CHART = """\
id = "shots"
title = "Shot Chart"
source = "tests/test_contract.py, the proof's one chart"

[rows]
header = "Roll"
labels = ["1", "2", "3", "4", "5", "6"]

[columns]
header = "Cover"
kind = "labels"
labels = ["none", "light"]

[cells]
"1" = ["-", "-"]
"2" = ["-", "-"]
"3" = ["-", "-"]
"4" = ["H", "-"]
"5" = ["H", "H"]
"6" = ["K", "H"]

[legend]
"-" = "missed"
"H" = "hit"
"K" = "killed"
"""


class Shot(RuleInput):
    """A shot at a target."""

    skill: int = Field(3, ge=1, le=6, description="The shooter's skill (proof 1.1).")
    cover: Literal["none", "light"] = Field("none", description="The target's cover (1.2).")


def build(folder: Path) -> RuleSet:
    """The proof's rule set, its chart written in ``folder``: only the API's names."""
    (folder / "shots.toml").write_text(CHART, encoding="utf-8")
    chart = load_chart(folder / "shots.toml")

    def modifiers(inp: Shot) -> list[Modifier]:
        if inp.skill == 3:
            return []
        return [Modifier("skill", Fraction(inp.skill - 3), ModifierKind.DICE, "proof 1.1")]

    def rule(inp: Shot, chance: Chance) -> str:
        roll = chance.roll(D6, "shot roll") + inp.skill - 3
        return chart.cell_at(str(min(max(roll, 1), 6)), inp.cover).value

    shot = Procedure(
        name="shot",
        title="Proof shot",
        input_model=Shot,
        rule=rule,
        modifiers=modifiers,
        chart="shots",
        outcome_order=("-", "H", "K"),
    )
    return RuleSet(
        id="proof",
        title="Proof of the contract",
        source="tests/test_contract.py",
        procedures=(shot,),
        data=folder,
    )


@pytest.fixture(scope="module")
def proof(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RuleSet]:
    """The rule set, registered for this module's tests, taken out after."""
    built = build(tmp_path_factory.mktemp("proof"))
    register(built)
    yield built
    del registry._registered[built.id]
    assert "proof" not in {info.id for info in infos()}


@pytest.fixture(scope="module")
def client(proof: RuleSet) -> TestClient:
    """The web calculator, built once the rule set is registered (it reads the registry)."""
    return TestClient(create_app())


ODDS = ["shot", "--skill", "4", "--cover", "light"]
EXPECTED = {"-": "1/2", "H": "1/2"}
"""Skill 4 adds 1 to the roll: 1 to 3 miss (rows 2-4), 4 to 6 hit (rows 5-6 in light cover)."""


def test_the_rule_set_is_built_from_the_api_alone():
    """What this module imports of firefight besides the API is the harness: the registry
    that registers the rule set and the faces that show it, never a piece of a rule set."""
    tree = ast.parse(Path(__file__).read_text(encoding="utf-8"))
    imported = {
        node.module
        for node in tree.body
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("firefight")
    }
    assert imported == {
        "firefight.api",
        "firefight.rulesets",
        "firefight.pbem.chain",
        "firefight.web.app",
    }


def test_the_registry_finds_it(proof):
    assert ruleset("PROOF") is proof
    assert proof in rulesets()
    assert next(i for i in infos() if i.id == "proof").procedures == ("shot",)


def test_the_cli_lists_it(proof, capsys):
    code, out, err = run_cli(capsys, "rulesets", "--json")
    assert code == 0, err
    assert {
        "id": "proof",
        "title": "Proof of the contract",
        "source": "tests/test_contract.py",
        "aliases": [],
        "procedures": ["shot"],
    } in json.loads(out)
    code, out, err = run_cli(capsys, "rulesets")
    assert code == 0, err
    assert shown("Proof of the contract", out)


def test_the_cli_gives_its_exact_odds(proof, capsys):
    code, out, err = run_cli(capsys, "odds", "proof", *ODDS, "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["distribution"] == EXPECTED
    assert sum(Fraction(p) for p in data["distribution"].values()) == 1
    assert data["modifiers"] == [
        {"label": "skill", "value": "1", "kind": "dice", "rule": "proof 1.1"}
    ]
    code, out, err = run_cli(capsys, "odds", "proof", *ODDS)
    assert code == 0, err
    assert "hit" in out
    code, out, err = run_cli(capsys, "modifiers", "proof", *ODDS, "--json")
    assert code == 0, err
    assert json.loads(out)["modifiers"] == data["modifiers"]


def test_the_cli_resolves_and_replays_it(proof, capsys):
    code, out, err = run_cli(capsys, "resolve", "proof", *ODDS, "--seed", "1", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["seed"] == 1
    assert data["outcome"] in EXPECTED
    assert data["trace"][0]["label"] == "shot roll"
    code, out, err = run_cli(capsys, "resolve", "proof", *ODDS, "--roll", "6", "--json")
    assert code == 0, err
    assert json.loads(out)["outcome"] == "H"


def test_the_cli_names_its_options_and_refuses_a_bad_value(proof, capsys):
    code, out, err = run_cli(capsys, "odds", "proof", "shot", "--help")
    assert code == 0, err
    assert "--skill" in out
    assert "--cover" in out
    code, out, err = run_cli(capsys, "odds", "proof", "shot", "--cover", "heavy")
    assert code == 2
    assert "'--cover' must be one of none, light (got 'heavy')" in err


def test_the_cli_prints_its_charts(proof, capsys):
    code, out, err = run_cli(capsys, "tables", "proof", "--json")
    assert code == 0, err
    assert json.loads(out) == [
        {"id": "shots", "title": "Shot Chart", "source": proof.chart("shots").source}
    ]
    code, out, err = run_cli(capsys, "table", "proof", "shots", "--json")
    assert code == 0, err
    assert json.loads(out)["cells"][5] == ["K", "H"]


def test_the_web_index_and_procedure_page_show_it(client):
    index = client.get("/")
    assert index.status_code == 200
    assert "Proof of the contract" in index.text
    assert "/rulesets/proof/shot" in index.text
    page = client.get("/rulesets/proof/shot")
    assert page.status_code == 200
    assert "Proof shot" in page.text
    assert "skill" in page.text
    assert "cover" in page.text


def test_the_web_api_gives_its_odds_resolution_and_modifiers(client):
    answer = client.post("/api/rulesets/proof/shot/odds", json={"skill": 4, "cover": "light"})
    assert answer.status_code == 200, answer.text
    assert answer.json()["distribution"] == EXPECTED
    assert sum(Fraction(p) for p in answer.json()["distribution"].values()) == 1
    rolled = client.post(
        "/api/rulesets/proof/shot/resolve", json={"input": {"skill": 4}, "seed": 1}
    )
    assert rolled.status_code == 200, rolled.text
    assert rolled.json()["outcome"] in {"-", "H", "K"}
    modifiers = client.post("/api/rulesets/proof/shot/modifiers", json={"skill": 2})
    assert modifiers.json()["modifiers"][0]["value"] == "-1"
    refused = client.post("/api/rulesets/proof/shot/odds", json={"cover": "heavy"})
    assert refused.status_code == 422
    assert "proof" in {r["id"] for r in client.get("/api/rulesets").json()}


def test_the_web_shows_its_chart(client):
    assert client.get("/api/rulesets/proof/tables").json()[0]["id"] == "shots"
    chart = client.get("/api/rulesets/proof/tables/shots")
    assert chart.status_code == 200
    assert chart.json()["rows"] == ["1", "2", "3", "4", "5", "6"]
    page = client.get("/rulesets/proof/tables/shots")
    assert page.status_code == 200
    assert "Shot Chart" in page.text


def test_the_openapi_document_names_its_input_fields(client):
    document = client.get("/openapi.json").json()
    assert "/api/rulesets/proof/shot/odds" in document["paths"]
    schema = document["components"]["schemas"]["proof.shot.input"]
    assert set(schema["properties"]) == {"skill", "cover"}
    assert schema["properties"]["cover"]["enum"] == ["none", "light"]


def test_the_shared_table_plays_it(proof, tmp_path, monkeypatch):
    """A game at the shared table declares the proof's shot, and the answer resolves it."""
    monkeypatch.setenv("FIREFIGHT_DB", str(tmp_path / "server.sqlite3"))
    table = TestClient(create_app())
    made = table.post("/api/table", json={"scenario": "Proof", "players": {"A": "al", "B": "bo"}})
    assert made.status_code == 200, made.text
    name = made.json()["game"]
    auth = {
        side: {"Authorization": "Bearer " + link.split("#", 1)[1]}
        for side, link in made.json()["links"].items()
    }
    seeds = {"A": new_seed(), "B": new_seed()}
    for side in ("B", "A"):
        body = {"anchor": anchor(seeds[side], LENGTH).hex()}
        committed = table.post(f"/api/table/{name}/commit", json=body, headers=auth[side])
        assert committed.status_code == 200, committed.text
    declared = table.post(
        f"/api/table/{name}/declare",
        json={
            "ruleset": "proof",
            "procedure": "shot",
            "input": {"skill": 4, "cover": "light"},
            "element": element(seeds["A"], LENGTH, 1).hex(),
        },
        headers=auth["A"],
    )
    assert declared.status_code == 200, declared.text
    answered = table.post(
        f"/api/table/{name}/answer",
        json={"element": element(seeds["B"], LENGTH, 1).hex()},
        headers=auth["B"],
    )
    assert answered.status_code == 200, answered.text
    state = table.get(f"/api/table/{name}", headers=auth["A"]).json()
    resolution = next(e["body"] for e in state["entries"] if e["kind"] == "resolution")
    assert (resolution["ruleset"], resolution["procedure"]) == ("proof", "shot")
    assert dict(resolution["odds"]) == EXPECTED
    assert resolution["outcome"] in EXPECTED
