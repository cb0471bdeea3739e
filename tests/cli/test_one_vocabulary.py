"""One spelling of armour (``armour``) in every option, field and sample; the older spelling
(``armor``) still read wherever a player or a file gives it: the command line, the web API, a
link shared earlier, a journal or a play-by-e-mail message written before; the samples'
names unique across games, their former names still loading them."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient

import firefight
from firefight.cli.fields import field_aliases
from tests.helpers import run_cli as run

RENAMED = [
    ("vv", "at_attack", "front_armour", "front_armor"),
    ("vv", "at_attack", "rear_armour", "rear_armor"),
    ("ept", "indirect_vs_armor", "front_armour", "front_armor"),
    ("ept", "assault", "assaulting_armour", "assaulting_armor"),
    ("ept", "assault", "open_topped_or_non_armoured", "open_topped_or_non_armored"),
]


def _every_field() -> list[str]:
    return [
        field
        for rules in firefight.list_rulesets()
        for name in rules.procedure_names
        for field in rules.procedure(name).input_model.model_fields
    ]


def test_no_field_spells_armor():
    assert [f for f in _every_field() if "armor" in f] == []


@pytest.mark.parametrize(("ruleset", "procedure", "field", "older"), RENAMED)
def test_the_older_spelling_is_an_alias(ruleset, procedure, field, older):
    model = firefight.ruleset(ruleset).procedure(procedure).input_model
    assert field in model.model_fields
    assert field_aliases(model)[older] == field


AT = ["odds", "vv", "at_attack", "--atfp", "C", "--target", "afv", "--json"]


@pytest.mark.parametrize("option", ["--front-armor", "--front-armour"])
def test_the_command_line_reads_either_spelling(capsys, option):
    code, out, err = run(capsys, *AT, option, "B")
    assert (code, err) == (0, "")
    shown = json.loads(out)
    assert shown["input"]["front_armour"] == "B"  # written in the one spelling


def test_both_spellings_give_the_same_odds(capsys):
    answers = [
        json.loads(run(capsys, *AT, o, "B")[1])["distribution"]
        for o in ("--front-armor", "--front-armour")
    ]
    assert answers[0] == answers[1]


def test_a_flag_reads_either_spelling(capsys):
    base = ["odds", "ept", "assault", "--troop-type", "line", "--target", "vehicle", "--json"]
    old = json.loads(run(capsys, *base, "--assaulting-armor")[1])
    new = json.loads(run(capsys, *base, "--assaulting-armour")[1])
    assert old == new
    assert new["input"]["assaulting_armour"] is True


def test_move_reads_armor_as_armour():
    import inspect  # noqa: PLC0415

    from firefight.cli.actions import command, declared_actions  # noqa: PLC0415

    made = command("move", declared_actions("move"))
    armour = inspect.signature(made).parameters["armour"]
    option = armour.annotation.__metadata__[0]
    assert [option.default, *option.param_decls][-2:] == ["--armour", "--armor"]


@pytest.fixture(scope="module")
def client():
    from firefight.web.app import create_app  # noqa: PLC0415

    return TestClient(create_app())


@pytest.mark.parametrize("key", ["front_armor", "front_armour"])
def test_the_web_api_reads_either_spelling(client, key):
    answer = client.post(
        "/api/rulesets/vv/at_attack/odds", json={"atfp": "C", "target": "afv", key: "B"}
    )
    assert answer.status_code == 200
    assert answer.json()["input"]["front_armour"] == "B"


def test_a_link_shared_with_the_older_spelling_fills_the_form(client):
    old = client.get("/rulesets/vv/at_attack?atfp=C&target=afv&front_armor=B")
    new = client.get("/rulesets/vv/at_attack?atfp=C&target=afv&front_armour=B")
    assert old.status_code == new.status_code == 200
    assert old.text.count('value="B" selected') == new.text.count('value="B" selected') == 1


def test_a_journal_written_with_the_older_spelling_still_loads(capsys, tmp_path):
    from firefight.faces import resolve_json  # noqa: PLC0415
    from firefight.journal.record import record  # noqa: PLC0415

    vv = firefight.ruleset("vv")
    proc = vv.procedure("at_attack")
    inp = proc.parse({"atfp": "C", "target": "afv", "front_armor": "B"})
    resolution = proc.resolve(inp, 3)
    answer = resolve_json(vv, proc, inp, resolution)
    older = dict(answer["input"])  # as a journal written before the rename holds it
    older["front_armor"] = older.pop("front_armour")
    db = str(tmp_path / "old.sqlite3")
    record(
        {**answer, "input": older}, resolution.replay_values(), proc.odds(inp).to_json(), "ann", db
    )
    assert run(capsys, "journal", "verify", "--db", db)[0] == 0
    code, out, _ = run(capsys, "journal", "show", "1", "--db", db, "--json")
    assert code == 0
    kept = json.loads(out)["body"]["input"]
    assert kept["front_armor"] == "B"
    assert proc.parse(kept) == inp  # what it kept reads as today's input: a message replays


@pytest.mark.parametrize(
    ("former", "name"), [("village", "vv_crossroads"), ("armour", "vv_armour")]
)
def test_a_sample_loads_by_its_former_name(capsys, former, name):
    old = run(capsys, "scenario", "show", former, "--json")
    new = run(capsys, "scenario", "show", name, "--json")
    assert old[0] == new[0] == 0
    assert json.loads(old[1]) == json.loads(new[1])


def test_sample_names_are_unique_across_games():
    from firefight.cli.scenario import sample_names  # noqa: PLC0415

    names = sample_names()
    engagements = [
        path.stem
        for rules in firefight.list_rulesets()
        if getattr(firefight.ruleset(rules.id), "scenarios", None) is not None
        for path in firefight.ruleset(rules.id).scenarios.glob("*.toml")
    ]
    every = names + engagements
    assert len(every) == len(set(every))
    assert "village" not in every
