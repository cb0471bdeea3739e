"""The web app's answers to what is not a plain request: a 405
says what is allowed, a broken data file is a logged 500, a request over the work budget a
one-line 422, the odds cache hides no error, and /docs and /favicon.ico need no internet."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import pytest
from fastapi.testclient import TestClient

from firefight.errors import ChartError
from firefight.rulesets.procedure import RuleSet
from firefight.web import compute as web
from firefight.web.app import create_app
from firefight.web.compute import Calculator
from firefight.web.errors import BROKEN_DATA
from firefight.web.workers import POOL_NICENESS

COSTLY = {"cdt": 20, "experience": "trained", "range": "short", "fires": 5}
"""The costliest tirs fire the rules allow (46,741 steps of the chance engine)."""
T = TypeVar("T")


@pytest.fixture(params=[True, False], ids=["lean", "routed"])
def client(request):
    return TestClient(create_app(lean_odds=request.param))


def run_async(coroutine: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run`` in a thread of its own: in a whole test session the browser tests'
    Playwright keeps an event loop running in the main thread, where ``asyncio.run`` refuses."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, coroutine).result()


def test_a_405_carries_allow(client):
    answer = client.get("/api/rulesets/ept/fire/odds")
    assert answer.status_code == 405
    assert answer.headers["allow"] == "POST"
    answer = client.post("/api/rulesets")
    assert answer.status_code == 405
    assert answer.headers["allow"] == "GET"


def broken_chart(*args, **kwargs):
    raise ChartError("ept_fire.toml: row 3 has 5 cells, the header 6")


BROKEN = {
    "odds": ("post", "/api/rulesets/ept/fire/odds", (web, "odds_payload")),
    "modifiers": ("post", "/api/rulesets/ept/fire/modifiers", (web.faces, "modifiers_json")),
    "tables": ("get", "/api/rulesets/ept/tables", (RuleSet, "charts")),
}


@pytest.mark.parametrize("route", BROKEN)
def test_a_broken_data_file_is_a_logged_500_not_a_user_error(client, monkeypatch, caplog, route):
    method, path, loads = BROKEN[route]
    monkeypatch.setattr(*loads, broken_chart)
    body = {"strength": 6} if method == "post" else None
    with caplog.at_level(logging.ERROR, logger="firefight.web"):
        answer = client.request(method, path, json=body)
    assert answer.status_code == 500
    assert answer.json() == {"detail": BROKEN_DATA, "field": None}
    assert "toml" not in answer.text  # no file named to the client
    assert "row 3 has 5 cells" in caplog.text  # the log says which


def test_an_odds_request_over_the_work_budget_is_a_one_line_422(client, monkeypatch):
    monkeypatch.setattr(web, "WORK_BUDGET", 1000)
    answer = client.post("/api/rulesets/tirs/fire/odds", json=COSTLY)
    assert answer.status_code == 422
    detail = answer.json()["detail"]
    assert answer.json()["field"] == "input"
    assert "\n" not in detail
    assert detail == (
        "'input' must be inputs whose exact odds take at most 1,000 steps to work out "
        "(got 'more than 1,000')"
    )


def test_the_costliest_odds_the_rules_allow_fit_the_work_budget():
    answer = TestClient(create_app()).post("/api/rulesets/tirs/fire/odds", json=COSTLY)
    assert answer.status_code == 200


def test_modifiers_and_resolve_are_under_the_work_budget_too(monkeypatch):
    def costly(*args, **kwargs):
        from firefight.chance import exact  # noqa: PLC0415
        from firefight.rulesets import ruleset  # noqa: PLC0415

        fire = ruleset("tirs").procedure("fire")
        inp = fire.parse(COSTLY)
        exact(lambda chance: fire.rule(inp, chance))
        return []

    monkeypatch.setattr(web, "WORK_BUDGET", 1000)
    monkeypatch.setattr(web.faces, "modifiers_json", costly)
    monkeypatch.setattr(web.faces, "resolve_json", costly)
    client = TestClient(create_app())
    assert client.post("/api/rulesets/tirs/fire/modifiers", json=COSTLY).status_code == 422
    body = {"input": COSTLY, "seed": 1}
    assert client.post("/api/rulesets/tirs/fire/resolve", json=body).status_code == 422


def test_a_type_error_in_the_odds_is_a_500_computed_once_not_retried_uncached(client, monkeypatch):
    calls = []

    def buggy(*args):
        calls.append(args)
        raise TypeError("a bug in a rule")

    monkeypatch.setattr(web, "odds_payload", buggy)
    answer = client.post("/api/rulesets/ept/fire/odds", json={"strength": 6, "range": "adjacent"})
    assert answer.status_code == 500
    assert len(calls) == 1


def test_an_answer_is_computed_once_then_served_from_the_cache(client, monkeypatch):
    calls = []
    compute = web._odds

    def counted(*args):
        calls.append(args)
        return compute(*args)

    monkeypatch.setattr(web, "_odds", counted)
    attack = {"strength": 6, "range": "adjacent", "target_movement": "normal"}
    first = client.post("/api/rulesets/ept/fire/odds", json=attack)
    again = client.post("/api/rulesets/ept/fire/odds", json=dict(reversed(attack.items())))
    assert first.status_code == again.status_code == 200
    assert first.content == again.content
    assert len(calls) == 1


class Recording(Calculator):
    """Computes in the caller, and records what it was asked."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[tuple[object, ...]] = []

    async def __call__(self, function, *args):
        self.calls.append(args)
        return function(*args)


def test_quick_odds_are_answered_in_place_and_only_costlier_ones_go_to_the_pool():
    calculator = Recording()
    client = TestClient(create_app(calculator=calculator))
    cheap = {"strength": 6, "range": "adjacent", "follow_up": "morale_test", "morale": 7}
    assert client.post("/api/rulesets/ept/fire/odds", json=cheap).status_code == 200
    assert calculator.calls == []
    costlier = {"cdt": 20, "experience": "trained", "range": "short", "fires": 2}  # 821 steps
    answer = client.post("/api/rulesets/tirs/fire/odds", json=costlier)
    assert answer.status_code == 200
    assert len(calculator.calls) == 1
    routed = TestClient(create_app(lean_odds=False)).post(
        "/api/rulesets/tirs/fire/odds", json=costlier
    )
    assert routed.content == answer.content


def test_requests_for_the_same_odds_at_once_share_one_computation(monkeypatch):
    calls = []

    class Slow(Calculator):
        async def __call__(self, function, *args):
            calls.append(args)
            await asyncio.sleep(0.05)
            return function(*args)

    app = create_app(calculator=Slow())
    import httpx  # noqa: PLC0415

    async def ask() -> list[httpx.Response]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
            attack = {"cdt": 20, "experience": "trained", "range": "short", "fires": 2}
            return await asyncio.gather(
                *(http.post("/api/rulesets/tirs/fire/odds", json=attack) for _ in range(5))
            )

    answers = run_async(ask())
    assert {a.status_code for a in answers} == {200}
    assert len({a.content for a in answers}) == 1
    assert len(calls) == 1


def test_the_pool_computes_in_other_processes_at_a_lower_priority():
    calculator = Calculator(1)
    calculator.start()
    try:
        pid = run_async(calculator(os.getpid))
        niceness = run_async(calculator(os.nice, 0))
        status, body = run_async(
            calculator(web.compute_odds, "ept", "fire", b'{"strength": 6, "range": "adjacent"}')
        )
    finally:
        calculator.stop()
    assert pid != os.getpid()
    assert niceness == min(19, os.nice(0) + POOL_NICENESS)
    assert status == 200
    assert json.loads(body)["procedure"] == "fire"


def test_docs_are_served_by_firefight_with_no_cdn(client):
    for page in ("/docs", "/redoc"):
        html = client.get(page).text
        assert not re.search(r"https?://", html), page
        for asset in re.findall(r'(?:src|href)="(/[^"]+)"', html):
            answer = client.get(asset)
            assert answer.status_code == 200, asset
            assert len(answer.content) > 100, asset
    assert "SwaggerUIBundle" in client.get("/docs").text


def test_no_page_names_a_cdn(client):
    for path in ("/", "/rulesets/ept/fire", "/rulesets/ept/tables/adjuncts", "/boards/vv_village"):
        answer = client.get(path)
        assert answer.status_code == 200, path
        assert not re.search(r"""(?:src|href)=["']https?://""", answer.text), path


def test_the_favicon_exists(client):
    answer = client.get("/favicon.ico")
    assert answer.status_code == 200
    assert answer.headers["content-type"] == "image/x-icon"
    assert answer.content[:4] == b"\x00\x00\x01\x00"  # an ICO file
    assert '<link rel="icon" href="/favicon.ico">' in client.get("/").text
