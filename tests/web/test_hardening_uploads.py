"""What a client may send the web calculator, bounded before the work: an Up Front upload is
parsed off the event loop (in the pool), holds at most ``MAX_VALUES`` values, and a client
address has at most ``UPLOADS_PER_CLIENT`` new uploads read at once (a 429 past them); every
JSON body is bounded in values and nesting, refused in one line (never a 500)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import httpx
import pytest
from fastapi.testclient import TestClient

from firefight.rulesets import rulesets
from firefight.rulesets.upfront.loader import MAX_VALUES
from firefight.rulesets.upfront.paths import ILLUSTRATIVE_DECK, ILLUSTRATIVE_MEN
from firefight.web.app import create_app
from firefight.web.compute import Calculator
from firefight.web.schemas import MAX_BODY_VALUES
from firefight.web.uploads import UPLOAD_VALUES, UPLOADS_PER_CLIENT, load_upload

T = TypeVar("T")
DECK = ILLUSTRATIVE_DECK.read_text(encoding="utf-8")
MEN = ILLUSTRATIVE_MEN.read_text(encoding="utf-8")
UPFRONT_ODDS = "/api/rulesets/upfront/artillery/odds"
CHEAP = ("/api/rulesets/ept/fire/odds", {"strength": 6, "range": "adjacent"})
WAIT_S = 60.0
"""A generous bound on every wait below: it guards a hang, it measures nothing."""


def run_async(coroutine: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run`` in a thread of its own (the browser tests keep a loop in the main one)."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, coroutine).result()


class Gate(Calculator):
    """Computes in the caller, but holds every upload read until :attr:`release` is set:
    while it is held, whatever else the server answers was answered without it."""

    def __init__(self) -> None:
        super().__init__(0)
        self.release = asyncio.Event()
        self.held: list[str] = []

    async def __call__(self, function: Any, *args: Any) -> Any:
        if function is load_upload:
            self.held.append(args[0])
            await self.release.wait()
        return function(*args)


def _deck(tag: str) -> str:
    """The shipped deck, made new content by a comment (a new upload to read)."""
    return f"# {tag}\n{DECK}"


async def _until(check: Any) -> None:
    async with asyncio.timeout(WAIT_S):
        while not check():
            await asyncio.sleep(0.01)


def _client(app: Any, address: str) -> httpx.AsyncClient:
    transport = httpx.ASGITransport(app=app, client=(address, 1234))
    return httpx.AsyncClient(transport=transport, base_url="http://test", timeout=WAIT_S)


def test_an_upload_is_read_off_the_event_loop_while_other_requests_are_answered():
    gate = Gate()
    app = create_app(calculator=gate)

    async def scenario() -> tuple[int, int, int]:
        async with _client(app, "10.0.0.1") as http:
            upload = asyncio.ensure_future(http.post(UPFRONT_ODDS, json={"deck_toml": _deck("a")}))
            await _until(lambda: gate.held)  # the upload is being read, in the "pool"
            cheap = await http.post(CHEAP[0], json=CHEAP[1])  # answered meanwhile
            pending = upload.done()
            gate.release.set()
            return cheap.status_code, int(pending), (await upload).status_code

    assert run_async(scenario()) == (200, 0, 200)
    assert gate.held == ["deck"]


def test_a_client_has_at_most_its_uploads_read_at_once_and_the_next_is_a_429():
    gate = Gate()
    app = create_app(calculator=gate)

    async def scenario() -> tuple[list[int], httpx.Response, int, int]:
        async with _client(app, "10.0.0.1") as one, _client(app, "10.0.0.2") as other:
            first = [
                asyncio.ensure_future(one.post(UPFRONT_ODDS, json={"deck_toml": _deck(str(i))}))
                for i in range(UPLOADS_PER_CLIENT)
            ]
            # the same text again is the same read: it waits for it, counting for nothing
            again = asyncio.ensure_future(one.post(UPFRONT_ODDS, json={"deck_toml": _deck("0")}))
            await _until(lambda: len(gate.held) == UPLOADS_PER_CLIENT)
            refused = await one.post(UPFRONT_ODDS, json={"deck_toml": _deck("more")})
            elsewhere = asyncio.ensure_future(
                other.post(UPFRONT_ODDS, json={"deck_toml": _deck("other")})
            )
            await _until(lambda: len(gate.held) == UPLOADS_PER_CLIENT + 1)
            gate.release.set()
            codes = [(await f).status_code for f in first]
            return codes, refused, (await again).status_code, (await elsewhere).status_code

    codes, refused, again, elsewhere = run_async(scenario())
    assert codes == [200] * UPLOADS_PER_CLIENT
    assert (again, elsewhere) == (200, 200)
    assert refused.status_code == 429
    detail = refused.json()["detail"]
    assert "10.0.0.1" in detail
    assert f"at most {UPLOADS_PER_CLIENT}" in detail
    assert "\n" not in detail
    assert len(gate.held) == UPLOADS_PER_CLIENT + 1  # the repeated text was read once


@pytest.mark.parametrize("field", ["deck_toml", "men_toml"])
def test_an_upload_of_more_values_than_the_cap_is_refused_before_it_is_parsed(field):
    text = "x = [" + ",".join(["1"] * (MAX_VALUES + 1)) + "]\n"  # 100 kB
    for lean in (True, False):
        answer = TestClient(create_app(lean_odds=lean)).post(UPFRONT_ODDS, json={field: text})
        assert answer.status_code == 422
        body = answer.json()
        assert body["field"] == field
        assert f"holds more than {MAX_VALUES:,} values" in body["detail"]
        assert "\n" not in body["detail"]


def test_uploads_as_large_as_the_caps_allow_pass_the_body_count():
    """Each uploaded text's separators count in the body before it is parsed: a deck and a
    personality file of almost :data:`MAX_VALUES` each are read (and refused by the deck's
    own checks, not by the body's count)."""
    near = "x = [" + ",".join(["1"] * (MAX_VALUES - 10)) + "]\n"
    answer = TestClient(create_app()).post(UPFRONT_ODDS, json={"deck_toml": near, "men_toml": near})
    assert answer.status_code == 422
    assert answer.json()["field"] == "deck_toml"
    assert "'x' must be a known field" in answer.json()["detail"]


def test_the_shipped_files_uploaded_together_give_odds():
    answer = TestClient(create_app()).post(UPFRONT_ODDS, json={"deck_toml": DECK, "men_toml": MEN})
    assert answer.status_code == 200


def _post_routes() -> list[str]:
    """Every POST route of the app and of the engagement router: each procedure's three."""
    paths = ["/api/engage"]
    for found in rulesets():
        procedure = found.procedures[0].name
        paths += [f"/api/rulesets/{found.id}/{procedure}/{what}" for what in ("odds", "resolve")]
        paths.append(f"/api/rulesets/{found.id}/{procedure}/modifiers")
    return paths


DEEP = "[" * 8000 + "]" * 8000
NESTED = '{"a": ' * 65 + "1" + "}" * 65


def _many(path: str) -> tuple[str, int]:
    """A body of one value more than ``path`` takes (an engagement's 64 KiB body cannot hold
    more than its count: its size bounds it, as the 413 tests check)."""
    most = MAX_BODY_VALUES + (UPLOAD_VALUES if "/upfront/" in path else 0)
    return json.dumps({"a": [1] * (most + 1)}), most


@pytest.mark.parametrize("lean", [True, False], ids=["lean", "routed"])
def test_every_json_body_is_bounded_in_nesting_and_values_in_one_line(lean):
    app = create_app(lean_odds=lean)
    for number, path in enumerate(_post_routes()):
        # each route from an address of its own: the large bodies an address may send a
        # minute (LARGE_BODIES_PER_MINUTE) are not what is tested here
        address = (f"198.51.{number // 250}.{number % 250 + 1}", 1234)
        client = TestClient(app, raise_server_exceptions=False, client=address)
        many, most = _many(path)
        for body, said in (
            (DEEP, "nested more than 64 levels"),
            (NESTED, "nested more than 64 levels"),
            *([(many, f"more than {most:,} values")] if path != "/api/engage" else []),
            ("{oops", "not JSON"),
            (b'{"a": "\xff"}', "UTF-8"),
        ):
            answer = client.post(path, content=body, headers={"content-type": "application/json"})
            assert answer.status_code == 422, (path, body[:20], answer.text)
            detail = answer.json()["detail"]
            assert detail.startswith("request body: "), (path, detail)
            assert said in detail, (path, detail)
            assert answer.json()["field"] == "body"
            assert "\n" not in detail


def test_an_engagement_body_still_answers_and_names_a_bad_field():
    client = TestClient(create_app())
    answer = client.post("/api/engage", json={"scenario": "", "seed": -1})
    assert answer.status_code == 422
    assert answer.json()["field"] == "seed"
    answer = client.post("/api/engage", json={"scenario": "", "colour": 1})
    assert (answer.status_code, answer.json()["field"]) == (422, "colour")
    answer = client.post("/api/engage", json=[1])
    assert (answer.status_code, answer.json()["field"]) == (422, "body")
