"""The shared table under costly and hostile requests: an answer's roll and odds worked out once,
by the odds pool, within the odds API's work budget; rate limits whose cost per call does not
grow with the addresses they count, an IPv6 client counted by its /64; every JSON body bounded
in size and nesting, refused in one line."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from firefight.journal import Journal
from firefight.pbem import game as protocol
from firefight.pbem import play
from firefight.pbem.chain import element
from firefight.web import app as web_app
from firefight.web import ratelimit, table
from firefight.web.ratelimit import RateLimit, client_key
from tests.web.test_table import FIRE, _game, _start

DEEP = b"[" * 8000 + b"]" * 8000
"""A JSON body nested 8,000 deep: the parser's own recursion gives out first."""


class Recorded:
    """A :class:`table.Compute` that works out in the caller, noting each function it is given."""

    def __init__(self) -> None:
        self.functions: list[str] = []

    async def __call__(self, function: Callable[..., Any], *args: object) -> Any:
        self.functions.append(function.__name__)
        return function(*args)


def _app(tmp_path, monkeypatch, **options: Any) -> TestClient:
    monkeypatch.setenv("FIREFIGHT_DB", str(tmp_path / "server.sqlite3"))
    app = FastAPI()
    app.include_router(table.router(**{"budget": web_app.WORK_BUDGET, **options}))
    return TestClient(app)


def _declared(client: TestClient) -> tuple[str, dict, dict]:
    name, auth = _game(client)
    seeds = _start(client, name, auth)
    declared = client.post(
        f"/api/table/{name}/declare",
        json={
            "ruleset": "ept",
            "procedure": "fire",
            "input": FIRE,
            "element": element(seeds["A"], 1000, 1).hex(),
        },
        headers=auth["A"],
    )
    assert declared.status_code == 200, declared.text
    return name, auth, seeds


def test_an_answer_works_its_roll_out_once_in_the_odds_pool(tmp_path, monkeypatch):
    """The roll and odds of an answer are worked out once (they were three times: the draft,
    its check against a copy of the game, and applying it), by the odds pool."""
    compute = Recorded()
    client = _app(tmp_path, monkeypatch, compute=compute)
    name, auth, seeds = _declared(client)
    calls: list[int] = []
    resolution_body = protocol.resolution_body

    def counted(*args: Any) -> dict[str, Any]:
        calls.append(1)
        return resolution_body(*args)

    monkeypatch.setattr(protocol, "resolution_body", counted)
    answered = client.post(
        f"/api/table/{name}/answer",
        json={"element": element(seeds["B"], 1000, 1).hex()},
        headers=auth["B"],
    )
    assert answered.status_code == 200, answered.text
    assert answered.json()["resolved"] == 1
    assert len(calls) == 1
    assert compute.functions == ["worked_out"]
    with Journal.open(str(tmp_path / "server.sqlite3"), name) as journal:
        entries = list(journal.entries())
        verdict = play.verify_entries(name, entries, [str(p) for p in journal.verify().problems])
    assert verdict.ok, verdict.problems  # as by mail: every roll worked out again
    assert [e.kind for e in entries].count("resolution") == 1


def test_an_answer_is_worked_out_in_another_process_of_the_odds_pool(tmp_path, monkeypatch):
    """Served with an odds pool, the answer's roll travels between processes: the server's
    own process works out none of it, and the journaled game verifies."""
    monkeypatch.setenv("FIREFIGHT_DB", str(tmp_path / "server.sqlite3"))
    with TestClient(web_app.create_app(calculator=web_app.Calculator(1))) as client:
        name, auth, seeds = _declared(client)
        calls: list[int] = []
        resolution_body = protocol.resolution_body

        def counted(*args: Any) -> dict[str, Any]:
            calls.append(1)
            return resolution_body(*args)

        monkeypatch.setattr(protocol, "resolution_body", counted)
        answered = client.post(
            f"/api/table/{name}/answer",
            json={"element": element(seeds["B"], 1000, 1).hex()},
            headers=auth["B"],
        )
        assert answered.status_code == 200, answered.text
        assert calls == []
    with Journal.open(str(tmp_path / "server.sqlite3"), name) as journal:
        verdict = play.verify_entries(name, list(journal.entries()), [])
    assert verdict.ok, verdict.problems


def test_an_answer_past_the_work_budget_is_refused_in_one_line(tmp_path, monkeypatch):
    """The server's app gives the table the odds API's budget: past it, the answer is a 422
    naming the budget, and the declaration still waits."""
    monkeypatch.setattr(web_app, "WORK_BUDGET", 10)  # an EPT fire attack takes 23 to 65 steps
    monkeypatch.setenv("FIREFIGHT_DB", str(tmp_path / "server.sqlite3"))
    client = TestClient(web_app.create_app())
    name, auth, seeds = _declared(client)
    refused = client.post(
        f"/api/table/{name}/answer",
        json={"element": element(seeds["B"], 1000, 1).hex()},
        headers=auth["B"],
    )
    assert refused.status_code == 422
    assert refused.json() == {
        "detail": "'input' must be inputs whose exact odds take at most 10 steps to work out "
        "(got 'more than 10')"
    }
    assert client.get(f"/api/table/{name}", headers=auth["B"]).json()["expects"] == "answer"


def test_an_answer_to_no_declaration_is_refused_before_any_work(tmp_path, monkeypatch):
    compute = Recorded()
    client = _app(tmp_path, monkeypatch, compute=compute)
    name, auth = _game(client)
    seeds = _start(client, name, auth)
    answer = {"element": element(seeds["B"], 1000, 1).hex()}
    refused = client.post(f"/api/table/{name}/answer", json=answer, headers=auth["B"])
    assert refused.status_code == 422
    assert refused.json() == {"detail": "no declaration waits for an answer"}
    assert compute.functions == []


def test_a_rate_limits_cost_per_call_does_not_grow_with_the_addresses_it_counts():
    """Each call looks at two windows while every address counted is recent (the limiter
    rebuilt its whole table on every call past 10,000 addresses); idle addresses are forgotten
    from the oldest end, each once."""
    now = [0.0]
    limiter = RateLimit(1_000, clock=lambda: now[0])
    for index in range(12_000):
        now[0] = index * 1e-3
        limiter.allow(f"10.0.{index // 256}.{index % 256}")
    assert len(limiter) == 12_000
    before = limiter.visited
    for _ in range(100):
        assert limiter.allow("192.0.2.1")
    assert limiter.visited - before == 200
    now[0] += 2 * ratelimit.RATE_WINDOW_S + 1
    before = limiter.visited
    limiter.allow("192.0.2.2")
    assert len(limiter) == 1  # every other address idle for two minutes
    assert limiter.visited - before == 12_001 + 1  # each idle address forgotten once
    before = limiter.visited
    limiter.allow("192.0.2.3")
    assert limiter.visited - before == 2


def test_a_rate_limit_counts_at_most_its_addresses_and_a_sliding_minute():
    now = [0.0]
    limiter = RateLimit(3, tracked=100, clock=lambda: now[0])
    for index in range(1_000):
        limiter.allow(f"10.1.{index // 256}.{index % 256}")
    assert len(limiter) == 100
    assert [limiter.allow("a") for _ in range(4)] == [True, True, True, False]
    now[0] = 59.0
    assert not limiter.allow("a")
    now[0] = 90.0  # half of the first minute still inside the sliding one: 1.5 counted
    assert [limiter.allow("a") for _ in range(3)] == [True, True, False]
    now[0] = 240.0
    assert limiter.allow("a")


def test_an_ipv6_client_is_counted_by_its_network():
    assert client_key("2001:db8:1:2::1") == client_key("2001:db8:1:2:ffff:ffff:ffff:9")
    assert client_key("2001:db8:1:2::1") == "2001:db8:1:2::/64"
    assert client_key("2001:db8:1:2::1") != client_key("2001:db8:1:3::1")
    assert client_key("::ffff:192.0.2.7") == "192.0.2.7"
    assert client_key("192.0.2.7") != client_key("192.0.2.8")
    assert client_key("testclient") == "testclient"


def test_two_addresses_of_one_ipv6_network_share_a_limit(tmp_path, monkeypatch):
    monkeypatch.setenv("FIREFIGHT_DB", str(tmp_path / "server.sqlite3"))
    app = FastAPI()
    app.include_router(table.router(steps_per_minute=2, budget=web_app.WORK_BUDGET))
    body = {"players": {"A": "a", "B": "b"}}

    def post(address: str) -> int:
        client = TestClient(app, client=(address, 50000))
        return client.post("/api/table", json=body).status_code

    assert [post("2001:db8:5:6::1"), post("2001:db8:5:6::2")] == [200, 200]
    assert post("2001:db8:5:6:aaaa::3") == 429  # the same /64
    assert post("2001:db8:5:7::1") == 200  # another /64
    assert [post("192.0.2.1"), post("192.0.2.1"), post("192.0.2.2")] == [200, 200, 200]


@pytest.mark.parametrize("path", ["", "/commit", "/declare", "/answer", "/seed"])
@pytest.mark.parametrize(
    "body",
    [DEEP, b"[" * 100 + b"]" * 100, b'{"input": ' + b'{"a": ' * 40 + b"1" + b"}" * 41],
    ids=["8000-deep", "100-deep", "object-40-deep"],
)
def test_a_deeply_nested_body_is_refused_in_one_line(tmp_path, monkeypatch, path, body):
    client = _app(tmp_path, monkeypatch)
    name, auth = _game(client) if path else ("", {"A": {}})
    url = f"/api/table/{name}{path}" if path else "/api/table"
    refused = client.post(url, content=body, headers=auth["A"])
    assert refused.status_code == 422, refused.text
    detail = refused.json()["detail"]
    assert "\n" not in detail
    assert detail.startswith("body: ")
    assert "nested more than" in detail or "more than 2,000 values" in detail


def test_a_body_of_many_values_is_refused_before_it_is_read(tmp_path, monkeypatch):
    client = _app(tmp_path, monkeypatch)
    many = b'{"scenario": [' + b"0," * 5000 + b"0]}"
    refused = client.post("/api/table", content=many)
    assert refused.status_code == 422
    assert refused.json() == {
        "detail": "body: holds more than 2,000 values and separators (refused before it is read)"
    }
