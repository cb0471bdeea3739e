"""Bodies larger than ``LARGE_BODY`` (only Up Front's routes accept them, for uploaded
files) are counted per client address: past ``LARGE_BODIES_PER_MINUTE`` a minute, a
429 in one line before the body is read, while small requests from the same address and large
ones from another go on."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from firefight.web import middleware as web_app
from firefight.web.app import create_app
from firefight.web.middleware import LARGE_BODIES_PER_MINUTE, LARGE_BODY, BodyLimit
from tests.web.test_hardening_uploads import CHEAP, UPFRONT_ODDS, run_async

LARGE = {"deck": "uploaded", "deck_toml": "# " + "x" * (LARGE_BODY + 100) + "\n"}


async def _send(app, address: str, count: int) -> list[int]:
    transport = httpx.ASGITransport(app=app, client=(address, 1234))
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
        return [(await client.post(UPFRONT_ODDS, json=LARGE)).status_code for _ in range(count)]


async def _cheap(app, address: str) -> httpx.Response:
    transport = httpx.ASGITransport(app=app, client=(address, 1234))
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
        return await client.post(CHEAP[0], json=CHEAP[1])


@pytest.fixture
def no_wait(monkeypatch):
    """Refusals answered at once (their wait is tested apart)."""
    monkeypatch.setattr(web_app, "REFUSED_WAIT_S", 0.0)


def test_a_refusal_waits_within_its_held_connections(monkeypatch):
    monkeypatch.setattr(web_app, "REFUSED_WAIT_S", 0.5)
    limit = BodyLimit(create_app())
    ended: list[str] = []

    async def hold(key: str, n: int) -> None:
        await limit._hold(key)
        ended.append(f"{key}{n}")

    async def flood() -> None:
        held = [hold("a", n) for n in range(web_app.REFUSED_HELD + 2)]
        await asyncio.gather(*held, hold("b", 0))

    run_async(flood())
    # past REFUSED_HELD for one address, the refusals are answered at once, first
    assert ended[:2] == [f"a{web_app.REFUSED_HELD}", f"a{web_app.REFUSED_HELD + 1}"]
    # the other address waits in its own count, and nothing stays counted after
    assert sorted(ended[2:]) == sorted([f"a{n}" for n in range(web_app.REFUSED_HELD)] + ["b0"])
    assert limit.held == {}


@pytest.mark.usefixtures("no_wait")
@pytest.mark.parametrize("chunked", [False, True], ids=["content-length", "chunked"])
def test_large_bodies_past_their_limit_a_minute_are_refused_before_they_are_read(chunked):
    app = create_app()
    if chunked:  # no Content-Length: counted once read
        body = LARGE

        async def chunks():
            yield httpx.Request("POST", "/", json=body).content

        async def send(address: str, count: int) -> list[int]:
            transport = httpx.ASGITransport(app=app, client=(address, 1234))
            async with httpx.AsyncClient(transport=transport, base_url="http://test") as c:
                return [
                    (await c.post(UPFRONT_ODDS, content=chunks())).status_code for _ in range(count)
                ]
    else:

        async def send(address: str, count: int) -> list[int]:
            return await _send(app, address, count)

    codes = run_async(send("192.0.2.1", LARGE_BODIES_PER_MINUTE + 2))
    assert 429 not in codes[:LARGE_BODIES_PER_MINUTE]
    assert codes[LARGE_BODIES_PER_MINUTE:] == [429, 429]
    refused = run_async(_refused(app))
    assert refused.startswith(f"at most {LARGE_BODIES_PER_MINUTE} request bodies larger than")
    assert "\n" not in refused
    assert run_async(_cheap(app, "192.0.2.1")).status_code == 200
    assert 429 not in run_async(send("192.0.2.2", 1))


async def _refused(app) -> str:
    transport = httpx.ASGITransport(app=app, client=("192.0.2.1", 1234))
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
        return str((await client.post(UPFRONT_ODDS, json=LARGE)).json()["detail"])


def test_a_shipped_deck_upload_is_no_large_body():
    from tests.web.test_hardening_uploads import DECK, MEN  # noqa: PLC0415

    body = httpx.Request("POST", "/", json={"deck_toml": DECK, "men_toml": MEN}).content
    assert len(body) < LARGE_BODY
