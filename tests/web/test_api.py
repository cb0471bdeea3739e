"""The web calculator's JSON API: the CLI's shapes, one-line 422s, 404s, 413, and no
500 for bad input on any procedure of any rule set."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from fastapi.testclient import TestClient

from firefight.cli import main
from firefight.core.inputs import _non_none, choices
from firefight.digits import SEED_MAX
from firefight.rulesets import rulesets
from firefight.rulesets.vv.scenario import sample_board_scenarios as vv_scenarios
from firefight.sim.scenario import sample_scenarios
from firefight.web.app import create_app
from firefight.web.middleware import MAX_BODY

PROCEDURES = [(r.id, p.name) for r in rulesets() for p in r.procedures]


@pytest.fixture(scope="module")
def client():
    return TestClient(create_app())


def cli_json(capsys, *args):
    assert main([*args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_odds_are_the_clis_strings_plus_facts(client, capsys):
    answer = client.post("/api/rulesets/ept/fire/odds", json={"strength": 6, "range": "adjacent"})
    assert answer.status_code == 200
    data = answer.json()
    cli = cli_json(capsys, "odds", "ept", "fire", "--strength", "6", "--range", "adjacent")
    assert {k: v for k, v in data.items() if k not in ("facts", "order", "severity")} == cli
    assert data["order"] == list(cli["distribution"])
    assert sum(Fraction(p) for p in data["distribution"].values()) == 1
    assert ["final attack factor", "6 -> 12"] in data["facts"]


def test_modifiers_and_tables_are_the_clis(client, capsys):
    body = {"strength": 5, "range": "long"}
    answer = client.post("/api/rulesets/ept/fire/modifiers", json=body)
    assert answer.json() == cli_json(
        capsys, "modifiers", "ept", "fire", "--strength", "5", "--range", "long"
    )
    assert client.get("/api/rulesets").json() == cli_json(capsys, "rulesets")
    assert client.get("/api/rulesets/ept/tables").json() == cli_json(capsys, "tables", "ept")
    table = client.get("/api/rulesets/ept/tables/combat").json()
    assert table == cli_json(capsys, "table", "ept", "combat")


def test_boards_are_the_clis(client, capsys):
    assert client.get("/api/boards").json() == cli_json(capsys, "board", "list")
    board = client.get("/api/boards/normandy_bocage").json()
    assert board == cli_json(capsys, "board", "show", "normandy_bocage")
    los = client.get("/api/boards/normandy_bocage/los", params={"from": "0101", "to": "0505"})
    assert los.json() == cli_json(capsys, "board", "los", "normandy_bocage", "0101", "0505")
    seen = client.get("/api/boards/vv_village/visible", params={"from": "0504"}).json()
    assert seen == cli_json(capsys, "board", "visible", "vv_village", "0504")


def test_resolve_with_a_seed_replays_with_its_dice(client, capsys):
    seeded = client.post(
        "/api/rulesets/ept/fire/resolve", json={"input": {"strength": 6}, "seed": 42}
    ).json()
    assert seeded == cli_json(capsys, "resolve", "ept", "fire", "--strength", "6", "--seed", "42")
    dice = "+".join(str(d) for d in seeded["trace"][0]["dice"])
    replayed = client.post(
        "/api/rulesets/ept/fire/resolve", json={"input": {"strength": 6}, "roll": dice}
    ).json()
    assert replayed["trace"] == seeded["trace"]
    assert replayed["seed"] is None


def test_resolve_reads_the_table_dice_like_the_cli(client):
    answer = client.post(
        "/api/rulesets/ept/fire/resolve", json={"input": {"strength": 6}, "roll": "3,4"}
    )
    assert answer.status_code == 200
    assert answer.json()["outcome"] == "S1"
    assert "row 7, column 6 -> S1" in answer.json()["trace"][1]["value"]


@pytest.mark.parametrize(
    ("body", "field", "message"),
    [
        ({"input": {"strength": 6}}, "seed/roll", "neither"),
        ({"input": {"strength": 6}, "seed": 1, "roll": "3,4"}, "seed/roll", "both"),
        ({"input": {"strength": 6}, "seed": -1}, "seed", "from 0 to"),
        ({"input": {"strength": 6}, "seed": "x"}, "seed", "from 0 to"),
        ({"input": {"strength": 6}, "roll": "x"}, "roll", "2 dice of 1..6"),
        ({"input": {"strength": 6}, "roll": 7}, "roll", "as text"),
        ({"input": [1], "seed": 1}, "input", "JSON object"),
        ({"input": {}, "seed": 1, "extra": 1}, "body", "extra"),
        ({"input": {"strength": 0}, "seed": 1}, "strength", "from 1 to 99"),
    ],
)
def test_resolve_bad_bodies_are_one_line_422s(client, body, field, message):
    answer = client.post("/api/rulesets/ept/fire/resolve", json=body)
    assert answer.status_code == 422
    assert answer.json()["field"] == field
    assert message in answer.json()["detail"]
    assert "\n" not in answer.json()["detail"]


def test_the_422_is_the_line_the_cli_prints_naming_the_json_field(client, capsys):
    """The CLI names the option (``'--target-movement'``), the API the JSON field."""
    code = main(["odds", "ept", "fire", "--strength", "6", "--target-movement", "far"])
    printed = capsys.readouterr().err.strip()
    assert code == 2
    assert printed.startswith("error: '--target-movement' must be one of ")
    answer = client.post(
        "/api/rulesets/ept/fire/odds", json={"strength": 6, "target_movement": "far"}
    )
    assert answer.status_code == 422
    detail = printed.removeprefix("error: ").replace("'--target-movement'", "'target_movement'")
    assert answer.json() == {"detail": detail, "field": "target_movement"}


def test_a_rule_that_forbids_the_action_is_a_422(client):
    answer = client.post("/api/rulesets/ept/fire/odds", json={"strength": 6, "hindrance_hexes": 10})
    assert answer.status_code == 422
    assert answer.json()["detail"].startswith("no line of sight")


@pytest.mark.parametrize(
    "url",
    [
        "/api/rulesets/nope/tables",
        "/api/rulesets/ept/tables/nope",
        "/api/boards/nope",
        "/api/boards/..%2F..%2Fetc%2Fpasswd",
        "/api/boards/nope/los?from=0101&to=0202",
    ],
)
def test_unknown_names_are_404s_naming_the_allowed(client, url):
    answer = client.get(url)
    assert answer.status_code == 404
    assert set(answer.json()) == {"detail", "field"}


@pytest.mark.parametrize("path", ["nope/fire", "ept/nope"])
def test_unknown_procedures_are_404s(client, path):
    answer = client.post(f"/api/rulesets/{path}/odds", json={})
    assert answer.status_code == 404
    assert "must be one of" in answer.json()["detail"]


def test_aliases_reach_the_same_procedure(client):
    answer = client.post("/api/rulesets/eptii/fire/odds", json={"strength": 6})
    assert answer.status_code == 200
    assert answer.json()["ruleset"] == "ept"


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"from": "zz", "to": "0101"}, "from"),
        ({"from": "0101", "to": "9999"}, "to"),
        ({"from": "0101"}, "to"),
    ],
)
def test_bad_hexes_are_422s(client, params, field):
    answer = client.get("/api/boards/normandy_bocage/los", params=params)
    assert answer.status_code == 422
    assert answer.json()["field"] == field


def test_a_body_over_64_kib_is_a_413(client):
    big = {"strength": 6, "pad": "x" * MAX_BODY}
    answer = client.post("/api/rulesets/ept/fire/odds", json=big)
    assert answer.status_code == 413
    chunks = (b"x" * 1024 for _ in range(80))  # no Content-Length: counted as it arrives
    answer = client.post("/api/rulesets/ept/fire/odds", content=chunks)
    assert answer.status_code == 413


@pytest.mark.parametrize(
    ("procedure", "body", "message"),
    [
        ("fire", {"strength": True}, "'strength' must be an integer from 1 to "),
        ("fire", {"strength": "6.0"}, "'strength' must be an integer from 1 to "),
        ("fire", {"strength": 6.0}, "'strength' must be an integer from 1 to "),
        ("fire", {"strength": "1_000"}, "'strength' must be an integer from 1 to "),
        ("fire", {"strength": 6, "firer_stopped": 1}, "'firer_stopped' must be true or false"),
        ("artillery_delay", {"additional_turns": False}, "'additional_turns' must be an integer"),
    ],
)
def test_the_json_api_takes_strict_types(client, procedure, body, message):
    """JSON ``true`` is not 1, ``"6.0"`` and ``"1_000"`` are not integers, ``false``
    is not 0, and 1 is not a flag: each is a one-line 422 naming the field."""
    answer = client.post(f"/api/rulesets/ept/{procedure}/odds", json=body)
    assert answer.status_code == 422
    assert answer.json()["detail"].startswith(message)
    assert answer.json()["field"] == next(iter(body.keys() - {"strength"}), "strength")


def test_a_422_quotes_at_most_80_characters_of_the_value(client):
    answer = client.post("/api/rulesets/ept/fire/odds", json={"strength": 6, "range": "x" * 9000})
    assert answer.status_code == 422
    assert answer.json()["detail"].endswith("(got '" + "x" * 77 + "…')")


def test_the_json_api_reads_ascii_dice_only(client):
    body = {"input": {"strength": 6}, "roll": "\u0663,\u0664"}
    answer = client.post("/api/rulesets/ept/fire/resolve", json=body)
    assert answer.status_code == 422
    assert answer.json()["field"] == "roll"


def required_values(model):
    """A first legal value for each required field (the lowest bound, the first choice)."""
    values = {}
    for name, info in model.model_fields.items():
        if not info.is_required():
            continue
        annotation, _ = _non_none(info.annotation)
        allowed = choices(annotation)
        if allowed:
            values[name] = allowed[0]
        elif annotation is int:
            low = next((m.ge for m in info.metadata if hasattr(m, "ge")), 1)
            values[name] = max(low, 1)
    return values


def bad_values(procedure):
    """A few bad bodies for a procedure: each names the field it should be reported on."""
    model = procedure.input_model
    base = required_values(model)
    cases = [("not json", "body"), ("[1, 2]", "body"), ("", "body")]
    cases.append((json.dumps({**base, "no_such_field": 1}), "input"))
    for name, info in model.model_fields.items():
        annotation, _ = _non_none(info.annotation)
        if annotation is int:
            cases.append((json.dumps({**base, name: "many"}), name))
            cases.append((json.dumps({**base, name: -(10**30)}), name))
            cases.append((json.dumps({**base, name: 10**30}), name))  # every int has a maximum
            cases.append((json.dumps({**base, name: True}), name))  # strict: not 1
            cases.append((json.dumps({**base, name: "1"}), name))  # strict: not 1
        elif annotation is bool:
            cases.append((json.dumps({**base, name: "perhaps"}), name))
            cases.append((json.dumps({**base, name: 1}), name))  # strict: not true
        elif choices(annotation):
            cases.append((json.dumps({**base, name: "not-a-choice"}), name))
            cases.append((json.dumps({**base, name: [1]}), name))
    return cases


@pytest.mark.parametrize(("ruleset", "procedure"), PROCEDURES)
def test_bad_input_never_gives_a_500(client, ruleset, procedure):
    proc = next(r for r in rulesets() if r.id == ruleset).procedure(procedure)
    for body, field in bad_values(proc):
        for what in ("odds", "modifiers"):
            answer = client.post(
                f"/api/rulesets/{ruleset}/{procedure}/{what}",
                content=body,
                headers={"content-type": "application/json"},
            )
            assert answer.status_code in (200, 422), (what, body, answer.text)
            if answer.status_code == 422:
                data = answer.json()
                assert set(data) == {"detail", "field"}
                assert "\n" not in data["detail"]
                if field is not None:
                    assert data["field"] in (field, "input"), (body, data)
            elif field is not None:
                pytest.fail(f"{ruleset} {procedure} {what} accepted {body}")
        resolve_body = '{"input": ' + (body or "null") + ', "seed": 1}'
        answer = client.post(
            f"/api/rulesets/{ruleset}/{procedure}/resolve",
            content=resolve_body,
            headers={"content-type": "application/json"},
        )
        assert answer.status_code in (200, 422), (resolve_body, answer.text)


@pytest.mark.parametrize(("ruleset", "procedure"), PROCEDURES)
def test_empty_object_gives_the_defaults_or_names_the_missing_field(client, ruleset, procedure):
    proc = next(r for r in rulesets() if r.id == ruleset).procedure(procedure)
    answer = client.post(f"/api/rulesets/{ruleset}/{procedure}/odds", json={})
    required = [n for n, f in proc.input_model.model_fields.items() if f.is_required()]
    if required:
        assert answer.status_code == 422
        assert answer.json()["field"] in required
    else:
        assert answer.status_code in (200, 422)
        if answer.status_code == 200:
            assert sum(Fraction(p) for p in answer.json()["distribution"].values()) == 1


def test_the_openapi_document_lists_every_procedure(client):
    document = client.get("/openapi.json").json()
    for ruleset, procedure in PROCEDURES:
        for what in ("odds", "resolve", "modifiers"):
            assert f"/api/rulesets/{ruleset}/{procedure}/{what}" in document["paths"]
    assert client.get("/docs").status_code == 200


def test_odds_give_the_outcomes_in_the_charts_order():
    from fastapi.testclient import TestClient  # noqa: PLC0415

    from firefight.web.app import create_app  # noqa: PLC0415

    client = TestClient(create_app())
    body = {"strength": 6, "range": "adjacent", "protection": "medium"}
    data = client.post("/api/rulesets/ept/fire/odds", json=body).json()
    assert data["order"] == list(data["distribution"])
    assert data["order"] == ["-", "S1", "N", "N1", "N2", "N3", "1"]


VV_MOVE = {"stack": "0206", "path": ["0306", "0406"]}


@pytest.mark.parametrize(
    ("route", "body", "field"),
    [
        ("/api/rulesets/ept/fire/resolve", {"input": {"strength": 6}}, "seed"),
        ("/api/engage", {"scenario": "sample"}, "seed"),
        ("/api/engage", {"scenario": "sample"}, "sample_seed"),
        ("/api/vv/move", {"scenario": "vv", **VV_MOVE}, "seed"),
    ],
)
def test_a_seed_past_the_64_bit_bound_is_a_one_line_422(client, route, body, field):
    """Every endpoint that takes a seed bounds it as the CLI does (a 400-digit seed was taken
    and echoed back)."""
    texts = {
        "sample": sample_scenarios()["ept_hedgerow"].read_text(encoding="utf-8"),
        "vv": vv_scenarios()["village"].read_text(encoding="utf-8"),
    }
    sent = {**body, "scenario": texts[body["scenario"]]} if "scenario" in body else body
    assert client.post(route, json={**sent, field: SEED_MAX}).status_code == 200
    for seed in (SEED_MAX + 1, 10**400):
        answer = client.post(route, json={**sent, field: seed})
        assert answer.status_code == 422
        detail = answer.json()["detail"]
        assert detail.startswith(f"'{field}' must be ")
        assert str(SEED_MAX) in detail
        assert "\n" not in detail
        assert len(detail) < 200
