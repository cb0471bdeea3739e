"""The HTTP/1.1 connection ``firefight serve`` speaks: uvicorn's httptools protocol, bounded.

uvicorn's httptools protocol (the fast parser of the odds route) puts no limit on a request's
head and arms no timer until a first response is sent: a header line of any length is read
whole (httptools joins the pieces of a header as they come, so its cost grows with the square of
the size, while every other client waits), and a client that sends half a head holds its
connection open for ever. This protocol adds, for every connection:

* a cap on the request head (request line and headers): :data:`MAX_HEAD` bytes and
  :data:`MAX_HEADERS` header lines; past either, ``431 Request Header Fields Too Large`` and
  the connection is closed. The parser is never handed more than the cap of an unfinished
  head, so refusing a huge head costs what reading the cap costs.
* a deadline for each request: its head and body must arrive within ``request_timeout``
  seconds of its first byte, or the connection is closed;
* an idle timeout from the moment the connection is made, not only after a response
  (uvicorn's ``timeout_keep_alive``): a client that connects and sends nothing is closed too.

The limits are the defaults of ``h11``, uvicorn's other parser (16 KiB of head) and of Apache
(``LimitRequestFields 100``); a reverse proxy in front may be stricter (README, "Serving").
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.config import Config
from uvicorn.protocols.http.httptools_impl import STATUS_LINE, HttpToolsProtocol
from uvicorn.server import ServerState

MAX_HEAD = 16 * 1024
"""The largest request head accepted, in bytes: request line, headers and blank line (h11's
default ``max_incomplete_event_size``; the pages' longest query string is about 1 KiB)."""
MAX_HEADERS = 100
"""The most header lines a request may have (Apache's ``LimitRequestFields`` default)."""
REQUEST_TIMEOUT_S = 5.0
"""Seconds a request's head and body may take to arrive once its first byte has (64 KiB, the
largest body, in 5 s is 13 KB/s). ``firefight serve --timeout`` sets it and the idle time."""


class HeadTooLargeError(Exception):
    """Raised from a parser callback to stop the parser at one header line too many."""


class BoundedHttpToolsProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with a capped request head and a deadline per request."""

    def __init__(
        self,
        config: Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
        *,
        max_head: int = MAX_HEAD,
        max_headers: int = MAX_HEADERS,
        request_timeout: float = REQUEST_TIMEOUT_S,
    ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        self.max_head = max_head
        self.max_headers = max_headers
        self.request_timeout = request_timeout
        self.awaiting_head = True
        """No request head under way, or one not complete yet."""
        self.head_bytes = 0
        self.header_count = 0
        self.messages = 0
        self.deadline: asyncio.TimerHandle | None = None
        self.refused = False

    # --- the connection -------------------------------------------------------------------

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """As uvicorn, and the idle timer runs from now (uvicorn arms it after a response)."""
        super().connection_made(transport)
        self.timeout_keep_alive_task = self.loop.call_later(
            self.timeout_keep_alive, self.timeout_keep_alive_handler
        )

    def connection_lost(self, exc: Exception | None) -> None:
        """As uvicorn, and the request's deadline goes."""
        self._cancel_deadline()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        """Hand the parser the bytes, never more than the cap of an unfinished head."""
        while data:
            if not self.awaiting_head:
                super().data_received(data)
                return
            self._arm_deadline()
            room = self.max_head - self.head_bytes
            piece, data = (data, b"") if len(data) <= room else (data[:room], data[room:])
            messages = self.messages
            super().data_received(piece)
            if self.transport.is_closing():
                return
            if not self.awaiting_head:
                continue  # the head ended inside the piece: the rest is body or the next one
            if self.messages != messages:
                # A whole request ended in the piece and the next one began (pipelining): its
                # first bytes are not counted, so its head may reach twice the cap at most.
                continue
            self.head_bytes += len(piece)
            if self.head_bytes >= self.max_head:
                self._refuse_head(f"a request head over {self.max_head} bytes")
                return

    def send_400_response(self, msg: str) -> None:
        """uvicorn's answer to a request the parser refused: 431 if it had too many headers."""
        if self.refused:
            self._refuse_head(f"a request with over {self.max_headers} header lines")
            return
        super().send_400_response(msg)

    # --- parser callbacks -----------------------------------------------------------------

    def on_message_begin(self) -> None:
        """A new request: its header lines are counted afresh, and its deadline runs."""
        super().on_message_begin()
        self.header_count = 0
        self.awaiting_head = True
        self._arm_deadline()

    def on_header(self, name: bytes, value: bytes) -> None:
        """Count the header lines; past the cap the parser stops (and 431 is sent)."""
        self.header_count += 1
        if self.header_count > self.max_headers:
            self.refused = True
            raise HeadTooLargeError
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        """The head is whole: the body may follow, under the same deadline."""
        self.awaiting_head = False
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        """The request is whole: its deadline goes, and the next head is counted from zero."""
        self._cancel_deadline()
        self.awaiting_head = True
        self.head_bytes = 0
        self.messages += 1
        super().on_message_complete()

    # --- helpers --------------------------------------------------------------------------

    def _arm_deadline(self) -> None:
        if self.deadline is None:
            self.deadline = self.loop.call_later(self.request_timeout, self._too_slow)

    def _cancel_deadline(self) -> None:
        if self.deadline is not None:
            self.deadline.cancel()
            self.deadline = None

    def _too_slow(self) -> None:
        """A request not whole in time: the connection is closed (its handler, if one is
        waiting for the body, reads a disconnect)."""
        self.deadline = None
        if not self.transport.is_closing():
            self.logger.debug("Request not whole in %g s: connection closed.", self.request_timeout)
            self.transport.close()

    def _refuse_head(self, what: str) -> None:
        self.logger.warning("Refused %s (431).", what)
        message = f"Request Header Fields Too Large: {what}".encode("ascii")
        content = [STATUS_LINE[431]]
        for name, value in self.server_state.default_headers:
            content.extend([name, b": ", value, b"\r\n"])
        content.extend(
            [
                b"content-type: text/plain; charset=utf-8\r\n",
                b"content-length: %d\r\n" % len(message),
                b"connection: close\r\n\r\n",
                message,
            ]
        )
        self._cancel_deadline()
        self.transport.write(b"".join(content))
        self.transport.close()
