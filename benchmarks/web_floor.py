"""The floor of the web benchmark's **mix** phase (``web_mix.py``): a trivial FastAPI endpoint,
served by uvicorn as ``firefight serve`` is, so that what the server adds to HTTP, uvicorn and
FastAPI is the difference (``POST /floor`` answers a small JSON object; no work)."""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.responses import Response

ENDPOINT = "/floor"


def app() -> FastAPI:
    """The floor's app factory (``uvicorn --factory web_floor:app``)."""
    floor = FastAPI()

    @floor.post(ENDPOINT)
    async def answer(request: Request) -> Response:
        await request.body()
        return Response(b'{"ok":true}', media_type="application/json")

    @floor.get("/api/rulesets")
    async def ready() -> Response:  # what the benchmark asks to know the server is up
        return Response(b"[]", media_type="application/json")

    return floor
