"""Every route of the web app, found in its own route table, fed hostile requests: a body of
hostile shape or size to each route that takes one (``POST``, ``PUT``, ``PATCH``), hostile
query strings to each ``GET``. Each is answered with a 4xx whose ``detail`` is one line (a
``GET`` may also answer 2xx, an unknown parameter being ignored), never a 500 or a traceback.

Path parameters take valid values (the first rule set, its first procedure and chart, a sample
board and engagement, a table game created for the run); a route with a parameter of another
name fails until it is given one in :func:`_parameters`."""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote

import pytest
from fastapi import FastAPI
from starlette.routing import Mount

from firefight.rulesets.boards import sample_boards
from firefight.rulesets.registry import rulesets
from firefight.sim.scenario import sample_scenarios
from firefight.web.app import create_app

BODY_METHODS = {"POST", "PUT", "PATCH"}

DEEP = 100_000
BODIES: dict[str, bytes] = {
    "brackets-8000": b"[" * 8000 + b"]" * 8000,
    "object-100000-deep": b'{"a":' * DEEP + b"1" + b"}" * DEEP,
    "body-2MiB": b'{"a": "' + b"x" * 2**21 + b'"}',
    "values-490000": b'{"a": [' + b"0," * 489_999 + b"0]}",
    "invalid-utf8": b'{"a": "\xff\xfe"}',
    "nul-bytes": b'{"a": "\x00"}\x00',
    "not-json": b"{'a': 1",
    "empty": b"",
    "an-array": b"[1, 2, 3]",
    "a-number": b"12",
    "a-string": b'"text"',
    "null": b"null",
    "huge-integer": b'{"a": ' + b"9" * 5000 + b"}",
}
"""Bodies sent to every route that takes one, whatever its fields."""

WRONG_VALUES: dict[str, str] = {
    "fields-wrong-types": '[{"a": [1]}]',
    "fields-huge-integers": "9" * 5000,
    "fields-huge-floats": "1e999999",
    "fields-deep": "[" * 3000 + "]" * 3000,
}
"""Each of the route's own fields set to one of these (raw JSON), all in one body."""

QUERIES: dict[str, Callable[[list[str]], str]] = {
    "value-100KiB": lambda names: "&".join(f"{n}={'x' * 102_400}" for n in names),
    "deep-brackets": lambda names: "&".join(f"{n}={'%5B' * 8000}" for n in names),
    "nul": lambda names: "&".join(f"{n}=%00" for n in names),
    "invalid-utf8": lambda names: "&".join(f"{n}=%FF%FE" for n in names),
    "repeated-10000": lambda names: "&".join(f"{names[0]}=1" for _ in range(10_000)),
    "huge-integer": lambda names: "&".join(f"{n}={'9' * 5000}" for n in names),
}
"""Query strings sent to every ``GET`` route, over its own parameters (and ``x``)."""

COMMON_FIELDS = ("scenario", "input", "ruleset", "procedure", "players", "seed", "roll", "side")
"""Fields tried where a route's body has no schema (it reads the raw body)."""

_addresses = (f"10.{i // 65536 % 256}.{i // 256 % 256}.{i % 256}" for i in itertools.count(1))


@dataclass
class Answer:
    """What the app answered: status, headers, body."""

    status_code: int
    headers: dict[str, str]
    content: bytes

    @property
    def text(self) -> str:
        return self.content.decode("utf-8", "replace")

    def json(self) -> Any:
        return json.loads(self.content)


async def _ask(app: FastAPI, method: str, url: str, body: bytes, headers: dict[str, str]) -> Answer:
    """One request straight to the ASGI app, from an address of its own (so that no
    per-address rate limit answers in place of the route's own handling of the body)."""
    path, _, query = url.partition("?")
    fields = {"host": "testserver", "content-length": str(len(body)), **headers}
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": unquote(path),
        "raw_path": path.encode(),
        "query_string": query.encode(),
        "root_path": "",
        "headers": [(k.lower().encode(), v.encode()) for k, v in fields.items()],
        "client": (next(_addresses), 50000),
        "server": ("testserver", 80),
    }
    messages = [{"type": "http.request", "body": body, "more_body": False}]
    answer = Answer(500, {}, b"")

    async def receive() -> dict[str, Any]:
        return messages.pop(0) if messages else {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            answer.status_code = message["status"]
            answer.headers = {k.decode().lower(): v.decode() for k, v in message["headers"]}
        elif message["type"] == "http.response.body":
            answer.content += message.get("body", b"")

    try:
        await app(scope, receive, send)
    except Exception:  # the app has sent its 500: that is the finding
        answer.status_code = 500
    return answer


def ask_all(app: FastAPI, requests: list[tuple[str, str, bytes, dict[str, str]]]) -> list[Answer]:
    """The answers to ``requests`` (method, url, body, headers), in one event loop run in a
    thread of its own (a test session may hold a running loop in the main thread)."""

    async def every() -> list[Answer]:
        return [await _ask(app, *request) for request in requests]

    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, every()).result()


def walk(routes: list[Any], prefix: str = "") -> Iterator[tuple[str, set[str], Any]]:
    """Every route (path, methods, route), included routers' routes with their prefix;
    mounted static folders are not routes of the app's own."""
    for route in routes:
        inner = getattr(route, "original_router", None)
        if inner is not None:
            context = getattr(route, "include_context", None)
            yield from walk(inner.routes, prefix + getattr(context, "prefix", ""))
        elif isinstance(route, Mount):
            continue
        elif getattr(route, "methods", None):
            yield prefix + route.path, set(route.methods), route


@pytest.fixture(scope="module")
def app(tmp_path_factory) -> Iterator[FastAPI]:
    monkey = pytest.MonkeyPatch()
    monkey.setenv("FIREFIGHT_DB", str(tmp_path_factory.mktemp("db") / "server.sqlite3"))
    yield create_app()
    monkey.undo()


@pytest.fixture(scope="module")
def game(app) -> tuple[str, dict[str, str]]:
    body = json.dumps({"players": {"A": "al", "B": "bo"}}).encode()
    made = ask_all(app, [("POST", "/api/table", body, {"content-type": "application/json"})])[0]
    assert made.status_code == 200, made.text
    link = made.json()["links"]["A"]
    return made.json()["game"], {"Authorization": "Bearer " + link.split("#", 1)[1]}


def _parameters(game: str) -> dict[str, Callable[[str], str]]:
    first = rulesets()[0]
    edited = next(
        (r, f.field) for r in rulesets() for f in r.files if f.editor is not None
    )  # a rule set with a file typed in the browser, and that file's field
    return {
        "ruleset": lambda path: edited[0].id if "/files/" in path else first.id,
        "field": lambda path: edited[1],
        "procedure": lambda path: first.procedures[0].name,
        "table": lambda path: first.chart_paths()[0].stem,
        "game": lambda path: game,
        "name": lambda path: (
            next(iter(sample_boards())) if "boards" in path else next(iter(sample_scenarios()))
        ),
    }


def filled(path: str, game: str) -> str:
    """The route's path with every parameter given a valid value."""
    values = _parameters(game)
    out = path
    for part in path.split("/"):
        if part.startswith("{") and part.endswith("}"):
            name = part[1:-1].split(":")[0]
            assert name in values, f"{path}: give the parameter {name!r} a value in _parameters"
            out = out.replace(part, values[name](path), 1)
    return out


def _fields(app: FastAPI, path: str, method: str) -> list[str]:
    """The body's fields as the OpenAPI document declares them (else the common ones)."""
    document = app.openapi()
    operation = document.get("paths", {}).get(path, {}).get(method.lower(), {})
    schema = operation.get("requestBody", {}).get("content", {}).get("application/json", {})
    schema = schema.get("schema", {})
    while "$ref" in schema:
        schema = document["components"]["schemas"][schema["$ref"].rsplit("/", 1)[-1]]
    return list(schema.get("properties", {})) or list(COMMON_FIELDS)


def _problem(response: Any, allow_success: bool) -> str | None:
    """What is wrong with an answer to a hostile request, if anything."""
    status = response.status_code
    if "Traceback" in response.text:
        return f"{status} with a traceback"
    if 200 <= status < 300 and allow_success:
        return None
    if not 400 <= status < 500:
        return f"{status}: {response.text[:160]!r}"
    if "json" not in response.headers.get("content-type", ""):
        return None if allow_success else f"{status} not JSON: {response.text[:120]!r}"
    detail = response.json().get("detail") if response.text.startswith("{") else None
    if not isinstance(detail, str) or "\n" in detail:
        return f"{status} without a one-line detail: {response.text[:160]!r}"
    return None


def body_routes(app: FastAPI) -> list[tuple[str, str]]:
    return sorted(
        (path, method)
        for path, methods, _ in walk(app.routes)
        for method in sorted(methods & BODY_METHODS)
    )


def get_routes(app: FastAPI) -> list[tuple[str, Any]]:
    return sorted(
        ((path, route) for path, methods, route in walk(app.routes) if "GET" in methods),
        key=lambda pair: pair[0],
    )


def test_the_route_table_is_walked(app):
    paths = {path for path, _ in body_routes(app)}
    assert {"/api/table", "/api/engage", "/api/vv/scenario"} <= paths
    assert any(path.endswith("/{procedure}/odds") for path in paths)


def test_every_route_refuses_hostile_bodies_in_one_line(app, game):
    name, auth = game
    headers = {**auth, "content-type": "application/json"}
    sent = []
    for path, method in body_routes(app):
        fields = _fields(app, path, method)
        bodies = dict(BODIES)
        for label, raw in WRONG_VALUES.items():
            bodies[label] = (
                "{" + ",".join(f"{json.dumps(f)}: {raw}" for f in fields) + "}"
            ).encode()
        for label, body in bodies.items():
            sent.append((f"{method} {path} {label}", (method, filled(path, name), body, headers)))
    answers = ask_all(app, [request for _, request in sent])
    failures = [
        f"{what}: {problem}"
        for (what, _), answer in zip(sent, answers, strict=True)
        if (problem := _problem(answer, allow_success=False))
    ]
    assert sent
    assert not failures, f"{len(failures)} of {len(sent)} requests:\n" + "\n".join(failures)


def test_every_get_route_survives_hostile_query_strings(app, game):
    name, auth = game
    sent = []
    for path, route in get_routes(app):
        url = filled(path, name)
        dependant = getattr(route, "dependant", None)
        names = [p.alias for p in getattr(dependant, "query_params", [])] + ["x"]
        for label, query in QUERIES.items():
            sent.append((f"GET {path} {label}", ("GET", f"{url}?{query(names)}", b"", auth)))
    answers = ask_all(app, [request for _, request in sent])
    failures = [
        f"{what}: {problem}"
        for (what, _), answer in zip(sent, answers, strict=True)
        if (problem := _problem(answer, allow_success=True))
    ]
    assert sent
    assert not failures, f"{len(failures)} of {len(sent)} requests:\n" + "\n".join(failures)
