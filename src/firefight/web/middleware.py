"""The app's ASGI middleware: :class:`BodyLimit`, the bounds on what a request body may be
(README, "Serving: limits"), and :class:`LeanOdds`, the odds route answered without FastAPI's
router."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping, MutableMapping
from typing import Any

from fastapi.responses import JSONResponse

from firefight.core import files
from firefight.errors import FirefightError
from firefight.i18n import gettext as _
from firefight.web import uploads
from firefight.web.ratelimit import RateLimit, client_key

JSON = "application/json"
MAX_BODY = 64 * 1024
"""The largest request body accepted, in bytes (README, "Serving: limits")."""
LARGE_BODY = 256 * 1024
"""A body larger than this (only Up Front's routes take one, for uploaded files) is counted
against :data:`LARGE_BODIES_PER_MINUTE`. A real 162-card deck is about 20 kB, and the largest
deck the loader takes (1,000 cards) about 130 kB, so a player's uploads never count: only text
of a size no deck reaches does, and receiving and reading each such body holds the event loop
while it is read."""
LARGE_BODIES_PER_MINUTE = 2
"""Bodies over :data:`LARGE_BODY` one client address (an IPv6 /64) may send a minute; past it,
a 429 before the body is read, and the connection closed so that its bytes are not received."""
REFUSED_WAIT_S = 1.0
"""How long the answer to a refused large body waits: a client sending such bodies in a loop
sends one a second, not hundreds (each, received and refused, costs the event loop its
reading). The connection is held meanwhile, its bytes read no further than the server's
buffer; :data:`REFUSED_HELD` bounds the connections held so."""
REFUSED_HELD = 4
"""The refused connections held waiting at once per client address (an IPv6 /64); past it, or
past :data:`REFUSED_HELD_MOST` in all, the 429 is sent at once."""
REFUSED_HELD_MOST = 256

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class BodyTooLargeError(Exception):
    """A request body grew past the limit while it was read."""


async def read_body(receive: Receive, limit: int | None = None) -> bytes | None:
    """The whole request body, however many messages it comes in; ``None`` if the client
    left first. Past ``limit`` bytes: :class:`BodyTooLargeError`."""
    body = bytearray()
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        body.extend(message.get("body", b""))
        if limit is not None and len(body) > limit:
            raise BodyTooLargeError
        if not message.get("more_body", False):
            return bytes(body)


class BodyLimit:
    """ASGI middleware: a request body over ``limit`` bytes is answered 413 before any route
    reads it (by its Content-Length, or by counting when it is sent in chunks)."""

    def __init__(
        self, app: ASGIApp, limit: int = MAX_BODY, larger: Mapping[str, int] | None = None
    ) -> None:
        self.app = app
        self.limit = limit
        self.larger = dict(larger or {})
        """Path prefixes with a larger limit (Up Front's uploads, :data:`uploads.UPLOAD_BODY`)."""
        self.large = RateLimit(LARGE_BODIES_PER_MINUTE)
        """The bodies over :data:`LARGE_BODY` each client address has sent in the last minute."""
        self.held: dict[str, int] = {}
        """The refused connections waiting (:data:`REFUSED_WAIT_S`), by client address."""

    def _limit(self, path: str) -> int:
        for prefix, limit in self.larger.items():
            if path.startswith(prefix):
                return limit
        return self.limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass the request on with its body buffered, or answer 413."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self._limit(scope["path"])
        uploads.CLIENT.set(client_of(scope))  # who sends: what the uploads' limit counts by
        headers = dict(scope.get("headers") or [])
        length = headers.get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > limit):
            await self._too_large(scope, receive, send, limit)
            return
        if length is not None and int(length) > LARGE_BODY and not self._large_allowed(scope):
            await self._too_many(scope, receive, send)
            return
        try:
            body = await read_body(receive, limit)
        except BodyTooLargeError:
            await self._too_large(scope, receive, send, limit)
            return
        if body is None:
            return
        if length is None and len(body) > LARGE_BODY and not self._large_allowed(scope):
            await self._too_many(scope, receive, send)
            return
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if sent:
                return await receive()
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)

    def _large_allowed(self, scope: Scope) -> bool:
        return self.large.allow(client_key(client_of(scope)))

    async def _too_many(self, scope: Scope, receive: Receive, send: Send) -> None:
        detail = _(
            "at most {most} request bodies larger than {size} a minute from one address (a deck "
            "or personality file takes some tens of KiB)"
        ).format(most=LARGE_BODIES_PER_MINUTE, size=files.size_text(LARGE_BODY))
        # the body is not read: the connection is closed after the answer, so its bytes are
        # never received, and a client sending in a loop must connect again for each
        headers = {"connection": "close", "retry-after": "60"}
        response = JSONResponse({"detail": detail, "field": None}, 429, headers)
        await self._hold(client_key(client_of(scope)))
        await response(scope, receive, send)

    async def _hold(self, key: str) -> None:
        """Wait :data:`REFUSED_WAIT_S` before a refusal, within :data:`REFUSED_HELD` connections
        for ``key`` and :data:`REFUSED_HELD_MOST` in all (past either, no wait)."""
        held = self.held.get(key, 0)
        if held >= REFUSED_HELD or sum(self.held.values()) >= REFUSED_HELD_MOST:
            return
        self.held[key] = held + 1
        try:
            await asyncio.sleep(REFUSED_WAIT_S)
        finally:
            self.held[key] -= 1
            if not self.held[key]:
                del self.held[key]

    async def _too_large(self, scope: Scope, receive: Receive, send: Send, limit: int) -> None:
        detail = f"the request body must be at most {limit} bytes"
        response = JSONResponse({"detail": detail, "field": None}, status_code=413)
        await response(scope, receive, send)


class LeanOdds:
    """ASGI middleware: ``POST /api/rulesets/{ruleset}/{procedure}/odds``, the route the
    procedure page calls at every change of an input, answered here without FastAPI's router
    and request handling (about a third of the time of a cached answer).

    ``answer`` is the function the documented FastAPI route calls too, so both give the same
    status and bytes; ``status`` maps a user error to the same status and one-line JSON as the
    app's exception handlers.
    """

    def __init__(
        self,
        app: ASGIApp,
        answer: Callable[[str, str, bytes], Awaitable[tuple[int, bytes]]],
        status: Callable[[FirefightError], tuple[int, bytes]],
    ) -> None:
        self.app = app
        self.answer = answer
        self.status = status

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Answer an odds request, or pass any other request on."""
        parts: list[str] = scope["path"].split("/") if scope["type"] == "http" else []
        if (
            len(parts) != 6  # "", "api", "rulesets", ruleset, procedure, "odds"
            or parts[5] != "odds"
            or parts[1:3] != ["api", "rulesets"]
            or not (parts[3] and parts[4])  # an empty name: the router's own 404
            or scope["method"] != "POST"
        ):
            await self.app(scope, receive, send)
            return
        body = await read_body(receive)
        if body is None:
            return
        try:
            status, content = await self.answer(parts[3], parts[4], body)
        except FirefightError as error:
            status, content = self.status(error)
        headers = [(b"content-type", JSON.encode()), (b"content-length", b"%d" % len(content))]
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": content})


def client_of(scope: Scope) -> str:
    """The address a request came from (what :data:`uploads.UPLOADS_PER_CLIENT` counts by)."""
    client = scope.get("client")
    return str(client[0]) if client else "unknown"
