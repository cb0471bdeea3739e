"""How the calculator is served (for its load target): the lean odds route gives the FastAPI
route's answers byte for byte, ``serving_app`` settles the garbage collector, and
``firefight serve`` hands uvicorn the factory and the worker count."""

from __future__ import annotations

import json
import os
import pickle

import pytest
from fastapi.testclient import TestClient
from starlette.types import Receive, Scope, Send

from firefight.cli import main
from firefight.errors import InputError
from firefight.rulesets import rulesets
from firefight.web import app as web
from firefight.web import serve
from firefight.web.app import create_app
from firefight.web.errors import api_error
from firefight.web.middleware import LeanOdds
from firefight.web.protocol import BoundedHttpToolsProtocol

PROCEDURES = [(r.id, p.name) for r in rulesets() for p in r.procedures]


@pytest.fixture(scope="module")
def lean():
    return TestClient(create_app())


@pytest.fixture(scope="module")
def routed():
    return TestClient(create_app(lean_odds=False))


def bodies(ruleset: str, procedure: str) -> list[bytes]:
    """Good and bad bodies: defaults, an unknown field, a bad value, not JSON, not an object."""
    proc = next(r for r in rulesets() if r.id == ruleset).procedure(procedure)
    first = next(iter(proc.input_model.model_fields), "x")
    return [
        b"{}",
        json.dumps({"no_such_field": 1}).encode(),
        json.dumps({first: "not-a-value"}).encode(),
        b"not json",
        b"[1, 2]",
        b"",
    ]


@pytest.mark.parametrize(("ruleset", "procedure"), PROCEDURES)
def test_the_lean_odds_route_answers_as_the_fastapi_route(lean, routed, ruleset, procedure):
    path = f"/api/rulesets/{ruleset}/{procedure}/odds"
    for body in bodies(ruleset, procedure):
        headers = {"content-type": "application/json"}
        a = lean.post(path, content=body, headers=headers)
        b = routed.post(path, content=body, headers=headers)
        assert (a.status_code, a.content) == (b.status_code, b.content), body
        assert a.headers["content-type"] == b.headers["content-type"] == "application/json"


def test_a_worked_attack_unknown_names_and_aliases_agree(lean, routed):
    attack = {"strength": 6, "range": "adjacent", "target_movement": "normal"}
    for path in (
        "/api/rulesets/ept/fire/odds",
        "/api/rulesets/nope/fire/odds",  # 404 naming the rule sets
        "/api/rulesets/ept/nope/odds",  # 404 naming the procedures
        "/api/rulesets//fire/odds",  # an empty name: the router's 404
        "/api/rulesets/ept//odds",
    ):
        a, b = lean.post(path, json=attack), routed.post(path, json=attack)
        assert (a.status_code, a.content) == (b.status_code, b.content), path
    assert lean.post("/api/rulesets/ept/fire/odds", json=attack).status_code == 200
    assert lean.post("/api/rulesets/nope/fire/odds", json=attack).json()["field"] == "ruleset"
    for alias in {alias for r in rulesets() for alias in getattr(r, "aliases", ())}:
        a = lean.post(f"/api/rulesets/{alias}/fire/odds", json={})
        b = routed.post(f"/api/rulesets/{alias}/fire/odds", json={})
        assert (a.status_code, a.content) == (b.status_code, b.content), alias


def test_other_methods_and_paths_still_reach_fastapi(lean):
    assert lean.get("/api/rulesets/ept/fire/odds").status_code == 405
    slash = lean.post("/api/rulesets/ept/fire/odds/", json={}, follow_redirects=False)
    assert slash.status_code == 307  # FastAPI's redirect to the route without the slash
    assert lean.post("/api/rulesets/ept/fire/modifiers", json={"strength": 4}).status_code == 200


async def unreachable(scope: Scope, receive: Receive, send: Send) -> None:
    raise AssertionError(f"passed on: {scope['method']} {scope['path']}")


def test_lean_odds_answers_without_the_app_behind_it():
    seen = []

    async def answer(ruleset: str, procedure: str, raw: bytes) -> tuple[int, bytes]:
        seen.append((ruleset, procedure, raw))
        if procedure == "bad":
            raise InputError("strength", "an integer of at least 1", 0)
        return 200, b'{"ok":1}'

    client = TestClient(LeanOdds(unreachable, answer=answer, status=api_error))
    good = client.post("/api/rulesets/ept/fire/odds", content=b'{"strength": 4}')
    assert (good.status_code, good.content) == (200, b'{"ok":1}')
    assert good.headers["content-length"] == "8"
    bad = client.post("/api/rulesets/ept/bad/odds", content=b"{}")
    assert bad.status_code == 422
    assert bad.json() == {
        "detail": "'strength' must be an integer of at least 1 (got 0)",
        "field": "strength",
    }
    assert seen == [("ept", "fire", b'{"strength": 4}'), ("ept", "bad", b"{}")]
    with pytest.raises(AssertionError, match="passed on: GET"):
        client.get("/api/rulesets/ept/fire/odds")


def test_serving_app_freezes_what_it_loaded_and_raises_the_gc_thresholds(monkeypatch):
    calls = []
    monkeypatch.setattr(web.gc, "collect", lambda: calls.append("collect"))
    monkeypatch.setattr(web.gc, "freeze", lambda: calls.append("freeze"))
    monkeypatch.setattr(web.gc, "set_threshold", lambda *t: calls.append(t))
    app = web.serving_app()
    assert calls == ["collect", "freeze", web.GC_THRESHOLD]
    assert TestClient(app).get("/api/rulesets").status_code == 200


def test_serve_hands_uvicorn_the_factory_the_workers_and_the_bounded_protocol(monkeypatch, capsys):
    import uvicorn  # noqa: PLC0415

    runs = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: runs.append((app, options)))
    monkeypatch.setenv(serve.COMPUTE_PROCESSES, "")  # restored after the test
    monkeypatch.delenv(serve.COMPUTE_PROCESSES)
    monkeypatch.setattr(serve, "cores", lambda: 8)
    assert main(["serve", "--port", "8123", "--workers", "3", "--timeout", "7"]) == 0
    [(app, options)] = runs
    protocol = options.pop("http")
    assert (app, options) == (
        "firefight.web.app:serving_app",
        {
            "factory": True,
            "host": "127.0.0.1",
            "port": 8123,
            "workers": 3,
            "log_level": "warning",
            "timeout_keep_alive": 7,
            "limit_concurrency": serve.LIMIT_CONCURRENCY,
        },
    )
    assert protocol.func is BoundedHttpToolsProtocol
    assert protocol.keywords == {"request_timeout": 7.0}
    assert pickle.loads(pickle.dumps(protocol)).func is BoundedHttpToolsProtocol  # to workers
    assert os.environ[serve.COMPUTE_PROCESSES] == "2"  # 8 cores among 3 server processes
    assert "http://127.0.0.1:8123/" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("args", "got"),
    [
        (["--workers", "0"], "(got 0)"),
        (["--workers=65"], "(got 65)"),
        (["--workers", "many"], "(got 'many')"),
        (["--port", "99999"], "(got 99999)"),
        (["--workers", "²"], "(got '²')"),  # a digit to str.isdigit, not to int()
        (["--workers=--5"], "(got '--5')"),
        (["--timeout", "0"], "(got 0)"),
        (["--timeout=301"], "(got 301)"),
    ],
)
def test_serve_refuses_a_bad_option_in_one_line_naming_it_and_the_value(
    monkeypatch, capsys, args, got
):
    import uvicorn  # noqa: PLC0415

    monkeypatch.setattr(uvicorn, "run", lambda *a, **k: pytest.fail("served"))
    assert main(["serve", *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith(f"error: '{args[0].split('=')[0]}' must be an integer from ")
    assert err.rstrip().endswith(got)


def test_serve_refuses_an_option_given_twice(monkeypatch, capsys):
    """Click kept the last of a repeated option; every firefight command refuses it."""
    import uvicorn  # noqa: PLC0415

    monkeypatch.setattr(uvicorn, "run", lambda *a, **k: pytest.fail("served"))
    assert main(["serve", "--workers", "2", "--workers", "0"]) == 2
    assert capsys.readouterr().err == "error: '--workers' must be given once (got '--workers')\n"
