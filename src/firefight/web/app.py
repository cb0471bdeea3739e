"""The web calculator (DESIGN.md "Faces"): server-rendered pages and a JSON API.

Every page and every API route is generated from the rule set registry and each procedure's
input model, so a new rule set or procedure appears without code written for it. The API gives
the CLI's ``--json`` shapes (built by :mod:`firefight.faces`); bad input is a 422 whose
``detail`` is the one line the CLI prints, unknown names a 404 of the same shape, and request
bodies over 64 KiB a 413.

Served (:func:`serving_app`), odds not in the cache are computed in a pool of processes, so a
costly request delays no one else's answer, and every request is bounded by the chance
engine's :data:`WORK_BUDGET`; what one connection may send is bounded by
:mod:`firefight.web.protocol`.
"""

from __future__ import annotations

import asyncio
import ctypes
import gc
import logging
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import (
    AsyncIterator,
    Awaitable,
    Callable,
    Hashable,
    Mapping,
    MutableMapping,
)
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import asynccontextmanager, suppress
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar
from urllib.parse import urlencode

from fastapi import FastAPI, Query, Request
from fastapi.openapi.utils import get_openapi
from fastapi.responses import (
    FileResponse,
    HTMLResponse,
    JSONResponse,
    RedirectResponse,
    Response,
)
from fastapi.staticfiles import StaticFiles
from fastapi_offline import FastAPIOffline
from pydantic import BaseModel

from firefight import faces
from firefight.chance import WorkBudgetError, work_budget
from firefight.core import files
from firefight.digits import SEED_MAX, SEEDS
from firefight.errors import FirefightError, InputError, one_of
from firefight.i18n import gettext as _
from firefight.i18n import language, using
from firefight.rulesets import ruleset as find_ruleset
from firefight.rulesets import rulesets as every_ruleset
from firefight.web import actions, engage, schemas, table, uploads
from firefight.web import language as languages
from firefight.web.boardsvg import board_svg
from firefight.web.errors import NotFoundError, api_error, install_handlers, json_bytes
from firefight.web.forms import Control, controls
from firefight.web.ratelimit import RateLimit, client_key

if TYPE_CHECKING:
    from firefight.board.board import Board
    from firefight.board.los import LosPolicy
    from firefight.core.chart import Chart
    from firefight.core.inputs import RuleInput
    from firefight.rulesets.procedure import Procedure, RuleSet

HERE = Path(__file__).resolve().parent
JSON = "application/json"
MAX_BODY = 64 * 1024
"""The largest request body accepted, in bytes (README, "Serving: limits")."""
LARGE_BODY = 256 * 1024
"""A body larger than this (only Up Front's routes take one, for uploaded files) is counted
against :data:`LARGE_BODIES_PER_MINUTE`. A real 162-card deck is about 20 kB, and the largest
deck the loader takes (1,000 cards) about 130 kB, so a player's uploads never count: only text
of a size no deck reaches does, and receiving and reading each such body holds the event loop
some tens of milliseconds."""
LARGE_BODIES_PER_MINUTE = 2
"""Bodies over :data:`LARGE_BODY` one client address (an IPv6 /64) may send a minute; past it,
a 429 before the body is read, and the connection closed so that its bytes are not received."""
REFUSED_WAIT_S = 1.0
"""How long the answer to a refused large body waits: a client sending such bodies in a loop
sends one a second, not hundreds (each, received and refused, costs the event loop about a
millisecond). The connection is held meanwhile, its bytes read no further than the server's
buffer; :data:`REFUSED_HELD` bounds the connections held so."""
REFUSED_HELD = 4
"""The refused connections held waiting at once per client address (an IPv6 /64); past it, or
past :data:`REFUSED_HELD_MOST` in all, the 429 is sent at once."""
REFUSED_HELD_MOST = 256
WORK_BUDGET = 100_000
"""The most work one request may ask of the chance engine, in steps (:func:`work_budget`):
past it, a 422 naming the budget. The costliest input the rules allow today, tirs ``fire`` at
CdT 20, short range, ``fires`` 5, takes 46,741 steps (about 1 s of CPU here); the cap leaves
twice that for rules to grow and refuses anything beyond about 2 s."""
QUICK_STEPS = 300
"""The work an odds request may do on the event loop (about 2 ms): past it, the computation
starts again in the pool (:class:`Calculator`), which costs about 0.5 ms of the server's CPU
more than answering in place."""
LENGTHY_PROCESSES = 1
"""The processes of the pool that answers the engagement and V&V scenario routes, apart from
the odds pool (:class:`Calculator`): one of their answers may take 20 s
(:data:`~firefight.web.scenario.SCENARIO_SECONDS`) where odds take at most about 2 s
(:data:`WORK_BUDGET`), so in a shared pool a few pasted scenarios held every process and every
odds request waited for them (4.3 s odds took 20.7 s behind one costly move with one process).
Apart, they queue among themselves only."""
CACHED_ANSWERS = 4096
"""Odds answers kept in each server process, the most recently asked."""
log = logging.getLogger("firefight.web")

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


def odds_payload(
    found: RuleSet, procedure: Procedure[RuleInput], inp: RuleInput
) -> dict[str, object]:
    """The CLI's odds shape, the facts as ``[label, value]`` pairs, and the outcomes' order
    (a JavaScript object puts integer-like keys such as ``"1"`` first)."""
    distribution = procedure.odds(inp)
    payload = faces.odds_json(found, procedure, inp, distribution)
    payload["facts"] = faces.facts_pairs(procedure, inp)
    payload["order"] = list(distribution)
    return payload


def compute_odds(ruleset_id: str, procedure_name: str, raw: bytes) -> tuple[int, bytes]:
    """The odds route's status and body for a request body, under the :data:`WORK_BUDGET`.

    It runs in a process of the server's pool (:class:`Calculator`), so it takes and gives
    only bytes and strings, and never raises: a user error is its answer, a bug a logged
    500."""
    try:
        return _odds(ruleset_id, procedure_name, raw, WORK_BUDGET)
    except WorkBudgetError as error:
        return api_error(error)


def quick_odds(ruleset_id: str, procedure_name: str, raw: bytes) -> tuple[int, bytes] | None:
    """:func:`compute_odds` if it takes at most :data:`QUICK_STEPS`, else ``None``: tried on
    the event loop first, where most odds (every EPT fire attack: 23 to 65 steps) cost less
    than handing them to the pool would."""
    try:
        return _odds(ruleset_id, procedure_name, raw, QUICK_STEPS)
    except WorkBudgetError:
        return None


def _odds(ruleset_id: str, procedure_name: str, raw: bytes, steps: int) -> tuple[int, bytes]:
    """The answer within ``steps`` (past them, :class:`WorkBudgetError`)."""
    try:
        with work_budget(steps):
            found, proc = _find(ruleset_id, procedure_name)
            inp = _parse(proc, _body_data(proc, raw))
            return 200, json_bytes(odds_payload(found, proc, inp))
    except WorkBudgetError:
        raise
    except FirefightError as error:
        return api_error(error)
    except Exception:
        log.exception("odds of %s %s failed", ruleset_id, procedure_name)
        return 500, json_bytes({"detail": "Internal Server Error", "field": None})


R = TypeVar("R")


POOL_NICENESS = 10
"""How much a pool process lowers its CPU priority: on a machine with fewer free cores than
busy pool processes, the event loop (and every cached answer) comes first."""


PR_SET_PDEATHSIG = 1
"""Linux's ``prctl`` option that has the kernel signal a process when its parent dies."""
WATCH_SECONDS = 1.0
"""How often a pool process without ``prctl`` (not Linux) looks whether its server lives."""


def _pool_process(server: int) -> None:
    """A pool process leaves Ctrl-C to the server, which closes the pool, yields the CPU to
    the server's event loop (:data:`POOL_NICENESS`) and ends with the server process
    ``server`` (:func:`_end_with`)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with suppress(AttributeError, OSError):  # not on POSIX: the same priority
        os.nice(POOL_NICENESS)
    _end_with(server)


def _end_with(server: int) -> None:
    """End this process when the server process ``server`` ends, however it ends (a
    ``kill -9`` too: no code of the server runs then). On Linux the kernel sends it SIGKILL
    (``prctl(PR_SET_PDEATHSIG)``): at once, at no cost, and while this process computes in C
    holding the GIL, which a thread could not interrupt. It fires when the thread that started
    this process ends: the pools are started by the server's event loop thread, the main one,
    which lives as long as the server. Elsewhere a daemon thread looks every
    :data:`WATCH_SECONDS` whether the parent is still ``server``."""
    if sys.platform == "linux":
        with suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            if libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0:
                if os.getppid() != server:  # the server ended before the signal was set
                    os._exit(1)
                return
    threading.Thread(target=_watch, args=(server,), daemon=True, name="server-watch").start()


def _watch(server: int) -> None:
    while os.getppid() == server:
        time.sleep(WATCH_SECONDS)
    os._exit(1)


def _warm() -> None:
    """Load every rule set in a pool process before the first request needs it."""
    every_ruleset()


def in_language(lang: str, function: Callable[..., R], *args: object) -> R:
    """``function(*args)`` with ``lang`` as the language of its messages: a process of a pool
    does not share the request's context, so the language travels as an argument."""
    with using(lang):
        return function(*args)


class Calculator:
    """Where the answers not in the cache are computed: in a pool of ``processes`` processes,
    off the event loop and outside its GIL, so that one costly request delays no other
    (threads would share the GIL: the loop would wait for it at every switch); or, with
    ``processes=0``, in the caller (tests, and ``create_app`` by default).

    The pool starts with the app (every process loads the rule sets then), runs at a lower CPU
    priority than the server, and is replaced if one of its processes dies. It is closed with
    the app (its processes ended at once), and its processes end with the server process
    even when that one is killed (:func:`_end_with`).
    """

    def __init__(self, processes: int = 0) -> None:
        self.processes = processes
        self.executor: ProcessPoolExecutor | None = None
        self.closed = False

    def start(self) -> None:
        """Start the pool's processes and have each load the rule sets."""
        if self.processes and self.executor is None and not self.closed:
            self.executor = ProcessPoolExecutor(
                max_workers=self.processes,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_pool_process,
                initargs=(os.getpid(),),
            )
            for _ in range(self.processes):
                self.executor.submit(_warm)

    def stop(self) -> None:
        """Stop the pool at once: what is queued is dropped, what runs is ended (its answer
        is no one's once the server stops; waiting for it held the server's exit 20 s)."""
        executor, self.executor = self.executor, None
        if executor is None:
            return
        processes = list((executor._processes or {}).values())  # the processes: no public API
        executor.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            with suppress(OSError, ValueError):
                process.terminate()

    def close(self) -> None:
        """Stop the pool for good (the app's end): nothing starts it again."""
        self.closed = True
        self.stop()

    async def __call__(self, function: Callable[..., R], *args: object) -> R:
        """``function(*args)``, in the pool if there is one."""
        if not self.processes:
            return function(*args)
        self.start()
        if self.executor is None:
            raise BrokenProcessPool("the server is stopping")
        try:
            return await asyncio.get_running_loop().run_in_executor(
                self.executor, in_language, language(), function, *args
            )
        except BrokenProcessPool:
            if not self.closed:
                log.error("a process of the odds pool died; the pool is started anew")
                self.stop()
                self.start()
            raise


def _ruleset(name: str) -> RuleSet:
    try:
        return find_ruleset(name)
    except InputError as error:
        raise NotFoundError(error) from None


def _find(ruleset_id: str, procedure_name: str) -> tuple[RuleSet, Procedure[RuleInput]]:
    found = _ruleset(ruleset_id)
    try:
        return found, found.procedure(procedure_name)
    except InputError as error:
        raise NotFoundError(error) from None


def _chart(found: RuleSet, table: str) -> Chart:
    try:
        return found.chart(table)
    except InputError as error:
        raise NotFoundError(error) from None


@cache
def _sample(name: str) -> tuple[Board, LosPolicy]:
    from firefight.rulesets.boards import load  # noqa: PLC0415 - boards load on first use

    return load(name)


def _board(name: str) -> tuple[Board, LosPolicy]:
    """A shipped sample board by name (never a path: the server reads no file it is told)."""
    from firefight.rulesets.boards import sample_boards  # noqa: PLC0415

    samples = sample_boards()
    if name not in samples:
        raise NotFoundError(InputError("board", one_of(samples), name))
    return _sample(name)


def _hex_label(board: Board, field: str, label: str) -> str:
    try:
        return board.label(board.hex(label))
    except InputError as error:
        raise InputError(field, error.allowed, error.got) from None


def _parse(proc: Procedure[RuleInput], data: dict[str, object]) -> RuleInput:
    """The procedure's input from a request's data; Up Front's data files only as
    ``illustrative`` or uploaded text (:mod:`firefight.web.uploads`), never a path."""
    return proc.parse(uploads.web_data(proc.input_model, data))


def _body_data(proc: Procedure[RuleInput], raw: bytes) -> dict[str, object]:
    """A request body that must be one JSON object (:func:`schemas.json_object`); Up Front's
    may hold its uploads' separators too (:data:`uploads.UPLOAD_VALUES`)."""
    extra = uploads.UPLOAD_VALUES if uploads.takes_uploads(proc.input_model) else 0
    return schemas.json_object(raw, schemas.MAX_BODY_VALUES + extra)


def _resolve_request(body: dict[str, object]) -> tuple[dict[str, object], int | None, str | None]:
    """``{"input": {...}, "seed": N}`` or ``{"input": {...}, "roll": "3,4"}``."""
    for key in body:
        if key not in ("input", "seed", "roll"):
            raise InputError("body", "an object with input and one of seed, roll", key)
    data = body.get("input", {})
    if not isinstance(data, dict):
        raise InputError("input", "a JSON object of the procedure's inputs", data)
    seed, roll = body.get("seed"), body.get("roll")
    if (seed is None) == (roll is None):
        got = "both" if seed is not None else "neither"
        raise InputError("seed/roll", "exactly one of seed N or roll V[,V...]", got)
    if seed is not None and (
        not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= SEED_MAX
    ):
        raise InputError("seed", SEEDS, seed)
    if roll is not None and not isinstance(roll, str):
        raise InputError("roll", "the dice rolled, as text such as 3,4 or 3+4,2", roll)
    return data, seed, roll


def _reply(data: object) -> Response:
    return Response(json_bytes(data), media_type=JSON)


def _component(ruleset_id: str, procedure_name: str, what: str) -> str:
    return f"{ruleset_id}.{procedure_name}.{what}"


def _openapi_components(app: FastAPI) -> dict[str, Any]:
    """The input model of every procedure (and its resolve body) as OpenAPI components."""
    components: dict[str, Any] = {}
    for found in every_ruleset():
        for procedure in found.procedures:
            name = _component(found.id, procedure.name, "input")
            template = "#/components/schemas/" + _component(found.id, procedure.name, "{model}")
            schema = procedure.input_model.model_json_schema(ref_template=template)
            if uploads.takes_uploads(procedure.input_model):
                uploads.document(procedure.input_model, schema)
            for def_name, definition in schema.pop("$defs", {}).items():
                components[_component(found.id, procedure.name, def_name)] = definition
            components[name] = schema
            components[_component(found.id, procedure.name, "resolve")] = {
                "title": f"{found.id} {procedure.name}: resolve",
                "type": "object",
                "properties": {
                    "input": {"$ref": "#/components/schemas/" + name},
                    "seed": {
                        "type": "integer",
                        "minimum": 0,
                        "maximum": SEED_MAX,
                        "description": "Seeded dice.",
                    },
                    "roll": {
                        "type": "string",
                        "description": "Dice rolled at the table, as --roll reads them: 3,4",
                    },
                },
                "required": ["input"],
                "additionalProperties": False,
            }
    return components


def _install_openapi(app: FastAPI) -> None:
    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            document = get_openapi(
                title=app.title,
                version=app.version,
                description=app.description,
                routes=app.routes,
            )
            document.setdefault("components", {}).setdefault("schemas", {}).update(
                _openapi_components(app)
            )
            app.openapi_schema = document
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


ERRORS: dict[int | str, dict[str, Any]] = {
    404: {"model": schemas.ErrorOut, "description": "Unknown rule set, procedure, chart or board"},
    422: {"model": schemas.ErrorOut, "description": "Bad input: the CLI's one-line message"},
}
BODY_ERRORS: dict[int | str, dict[str, Any]] = {
    **ERRORS,
    413: {"model": schemas.ErrorOut, "description": "Request body over 64 KiB"},
    429: {
        "model": schemas.ErrorOut,
        "description": "Up Front: too many uploaded files being read from this address",
    },
}


def _body_doc(ruleset_id: str, procedure_name: str, what: str) -> dict[str, Any]:
    ref = "#/components/schemas/" + _component(ruleset_id, procedure_name, what)
    return {
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": {"$ref": ref}}},
        }
    }


def create_app(  # noqa: PLR0915 - every route
    *, lean_odds: bool = True, calculator: Calculator | None = None
) -> FastAPI:
    """The web calculator: pages, JSON API, OpenAPI document at ``/docs``.

    ``lean_odds``: answer the odds route with :class:`LeanOdds` (the same answers as the
    FastAPI route, which the tests check by turning it off). ``calculator``: where odds not
    in the cache are computed (default: in the request's own task).
    """
    compute = calculator or Calculator()
    lengthy = Calculator(LENGTHY_PROCESSES if compute.processes else 0)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        compute.start()
        lengthy.start()
        try:
            yield
        finally:
            compute.close()
            lengthy.close()

    # FastAPIOffline: FastAPI with /docs and /redoc whose Swagger UI and ReDoc assets are
    # served by firefight itself from the fastapi-offline package (no CDN: /docs works on a
    # club's network without the internet).
    app = FastAPIOffline(
        favicon_url="/favicon.ico",
        swagger_ui_parameters={"validatorUrl": None},  # Swagger UI's badge asks a website
        lifespan=lifespan,
        title="firefight",
        version="0.1.0",
        description=(
            "Exact odds and replayable resolution of fire combat. The JSON shapes are the "
            "CLI's --json (DESIGN.md, 'Machine-readable output')."
        ),
    )
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    templates = languages.templates(HERE / "templates")
    app.include_router(engage.router(lengthy))
    app.include_router(actions.router(lengthy))
    app.include_router(table.router(budget=WORK_BUDGET, compute=compute))

    @app.get("/favicon.ico", include_in_schema=False)
    def favicon() -> Response:
        return FileResponse(HERE / "static" / "favicon.ico", media_type="image/x-icon")

    install_handlers(app, templates)

    answers: OrderedDict[Hashable, tuple[int, bytes]] = OrderedDict()
    computing: dict[Hashable, asyncio.Future[tuple[int, bytes]]] = {}
    reading = uploads.Reading(compute)  # uploaded files parsed in the pool, off the loop

    # --- JSON API --------------------------------------------------------------------------

    @app.get("/api/rulesets", response_model=list[schemas.RuleSetOut], tags=["rules"])
    def api_rulesets() -> Response:
        """Every rule set and its procedures (``firefight rulesets --json``)."""
        return _reply(faces.rulesets_json(every_ruleset()))

    @app.get(
        "/api/rulesets/{ruleset}/tables",
        response_model=list[schemas.ChartSummaryOut],
        responses=ERRORS,
        tags=["rules"],
    )
    def api_tables(ruleset: str) -> Response:
        """The charts of a rule set (``firefight tables RULESET --json``)."""
        return _reply(faces.tables_json(_ruleset(ruleset).charts()))

    @app.get(
        "/api/rulesets/{ruleset}/tables/{table}",
        response_model=schemas.ChartOut,
        responses=ERRORS,
        tags=["rules"],
    )
    def api_table(ruleset: str, table: str) -> Response:
        """A chart as printed (``firefight table RULESET TABLE --json``)."""
        chart = _chart(_ruleset(ruleset), table)
        return _reply(faces.table_json(chart))

    def remember(key: Hashable, done: asyncio.Future[tuple[int, bytes]]) -> None:
        del computing[key]
        if not done.cancelled() and done.exception() is None and done.result()[0] < 500:
            answers[key] = done.result()
            if len(answers) > CACHED_ANSWERS:
                answers.popitem(last=False)

    async def computed(
        ruleset_id: str, procedure_name: str, raw: bytes, read: uploads.Read = ()
    ) -> tuple[int, bytes]:
        """Quick odds on the event loop (its uploads already read: ``read``); the rest in the
        :class:`Calculator`."""
        uploads.keep(read)
        answer = quick_odds(ruleset_id, procedure_name, raw)
        if answer is None:
            answer = await compute(compute_odds, ruleset_id, procedure_name, raw)
        return answer

    async def odds_answer(ruleset: str, procedure: str, raw: bytes) -> tuple[int, bytes]:
        """The cached answer (here, at once), or one computed by the :class:`Calculator`;
        requests for the same input while it is computed wait for that one computation."""
        found, proc = _find(ruleset, procedure)
        data = _body_data(proc, raw)
        read = await reading.ready(proc.input_model, data)
        uploads.keep(read)
        inp = _parse(proc, data)
        key = (language(), found.id, proc.name, inp)  # an error's words are in a language
        try:
            answer = answers.get(key)
        except TypeError:  # an input model with an unhashable field: no cache
            return await computed(found.id, proc.name, raw, read)
        if answer is not None:
            answers.move_to_end(key)
            return answer
        running = computing.get(key)
        if running is None:
            running = asyncio.ensure_future(computed(found.id, proc.name, raw, read))
            computing[key] = running
            running.add_done_callback(lambda done: remember(key, done))
        return await asyncio.shield(running)  # a client that leaves stops no one else's

    async def odds(request: Request, ruleset: str, procedure: str) -> Response:
        status, content = await odds_answer(ruleset, procedure, await request.body())
        return Response(content, status_code=status, media_type=JSON)

    if lean_odds:
        app.add_middleware(LeanOdds, answer=odds_answer, status=api_error)
    uploading = {  # Up Front's routes take uploaded data files (firefight.web.uploads)
        f"/api/rulesets/{name}/": uploads.UPLOAD_BODY
        for found in every_ruleset()
        if any(uploads.takes_uploads(p.input_model) for p in found.procedures)
        for name in (found.id, *found.aliases)
    }
    app.add_middleware(BodyLimit, limit=MAX_BODY, larger=uploading)
    # added last: the outermost, so that every answer (LeanOdds' too) is in its language
    app.add_middleware(languages.Language)

    async def modifiers(request: Request, ruleset: str, procedure: str) -> Response:
        found, proc = _find(ruleset, procedure)
        data = _body_data(proc, await request.body())
        uploads.keep(await reading.ready(proc.input_model, data))
        inp = _parse(proc, data)
        with work_budget(WORK_BUDGET):  # facts may work out a chance
            return _reply(faces.modifiers_json(found, proc, inp))

    async def resolve(request: Request, ruleset: str, procedure: str) -> Response:
        found, proc = _find(ruleset, procedure)
        data, seed, roll = _resolve_request(_body_data(proc, await request.body()))
        uploads.keep(await reading.ready(proc.input_model, data))
        inp = _parse(proc, data)
        with work_budget(WORK_BUDGET):  # one roll of the dice; a rule may work out a chance
            resolution = (
                proc.resolve(inp, seed)
                if seed is not None
                else proc.replay(inp, faces.parse_roll(roll or ""))
            )
            return _reply(faces.resolve_json(found, proc, inp, resolution))

    endpoints: dict[str, tuple[Callable[..., Awaitable[Response]], type[BaseModel], str, str]] = {
        "odds": (odds, schemas.OddsOut, "input", "Exact odds, modifiers and facts"),
        "resolve": (resolve, schemas.ResolveOut, "resolve", "One seeded or scripted resolution"),
        "modifiers": (modifiers, schemas.ModifiersOut, "input", "The itemized modifiers"),
    }
    for found in every_ruleset():
        for procedure in found.procedures:
            for what, (endpoint, model, body, summary) in endpoints.items():
                app.add_api_route(
                    f"/api/rulesets/{found.id}/{procedure.name}/{what}",
                    _bound(endpoint, found.id, procedure.name),
                    methods=["POST"],
                    response_model=model,
                    responses=BODY_ERRORS,
                    summary=f"{found.id} {procedure.name}: {summary}",
                    description=procedure.title,
                    operation_id=f"{what}_{found.id}_{procedure.name}",
                    openapi_extra=_body_doc(found.id, procedure.name, body),
                    tags=[found.id],
                )
    for what, (endpoint, _model, _body, _summary) in endpoints.items():
        # Rule sets registered after start-up, aliases and unknown names (404) land here.
        app.add_api_route(
            f"/api/rulesets/{{ruleset}}/{{procedure}}/{what}",
            endpoint,
            methods=["POST"],
            include_in_schema=False,
        )

    @app.get("/api/boards", response_model=list[schemas.BoardSummaryOut], tags=["boards"])
    def api_boards() -> Response:
        """The sample boards (``firefight board list --json``)."""
        from firefight.rulesets.boards import sample_boards  # noqa: PLC0415

        samples = {name: _sample(name)[0] for name in sample_boards()}
        return _reply(faces.boards_json(samples))

    @app.get(
        "/api/boards/{name}", response_model=schemas.BoardOut, responses=ERRORS, tags=["boards"]
    )
    def api_board(name: str) -> Response:
        """A board as data (``firefight board show NAME --json``)."""
        return _reply(_board(name)[0].to_json())

    @app.get(
        "/api/boards/{name}/los", response_model=schemas.LosOut, responses=ERRORS, tags=["boards"]
    )
    def api_los(
        name: str,
        firer: Annotated[str, Query(alias="from", description="The firer's hex, e.g. 0504.")],
        target: Annotated[str, Query(alias="to", description="The target's hex, e.g. 0908.")],
    ) -> Response:
        """The line of sight between two hexes and why (``firefight board los … --json``)."""
        from firefight.board.los import line_of_sight  # noqa: PLC0415

        board, policy = _board(name)
        a = board.hex(_hex_label(board, "from", firer))
        b = board.hex(_hex_label(board, "to", target))
        verdict = line_of_sight(board, a, b, policy)
        return _reply(faces.los_json(board, firer, target, verdict))

    @app.get(
        "/api/boards/{name}/visible",
        response_model=schemas.VisibleOut,
        responses=ERRORS,
        tags=["boards"],
    )
    def api_visible(
        name: str,
        origin: Annotated[str, Query(alias="from", description="The hex that looks, e.g. 0504.")],
    ) -> Response:
        """Every hex a hex can see, with its hindrance modifier (``firefight board visible``)."""
        from firefight.board.visibility import visible_set  # noqa: PLC0415

        board, policy = _board(name)
        a = board.hex(_hex_label(board, "from", origin))
        seen = visible_set(board, a, policy)
        return _reply(faces.visible_json(board, origin, seen))

    # --- pages -----------------------------------------------------------------------------

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    def index(request: Request) -> Response:
        from firefight.rulesets.boards import sample_boards  # noqa: PLC0415

        boards = [(name, _sample(name)[0]) for name in sample_boards()]
        return templates.TemplateResponse(
            request, "index.html", {"rulesets": every_ruleset(), "boards": boards}
        )

    @app.get(
        "/rulesets/{ruleset}/tables/{table}", response_class=HTMLResponse, include_in_schema=False
    )
    def chart_page(
        request: Request,
        ruleset: str,
        table: str,
        row: str | None = None,
        column: str | None = None,
    ) -> Response:
        found = _ruleset(ruleset)
        chart = _chart(found, table)
        return templates.TemplateResponse(
            request,
            "chart.html",
            {"ruleset": found, "chart": chart, "row": row, "column": column},
        )

    @app.get(
        "/rulesets/{ruleset}/{procedure}", response_class=HTMLResponse, include_in_schema=False
    )
    def procedure_page(request: Request, ruleset: str, procedure: str) -> Response:
        found, proc = _find(ruleset, procedure)
        query = dict(request.query_params)
        fields = controls(proc.input_model, query)
        initial = {c.name: c for c in controls(proc.input_model, {})}
        illustrative: list[str] = []
        if uploads.takes_uploads(proc.input_model):  # Up Front: files uploaded, never a path
            try:
                uploads.web_data(
                    proc.input_model,
                    {
                        k: v
                        for k, v in query.items()
                        if k in uploads.upload_fields(proc.input_model) and v != "uploaded"
                    },
                )
            except InputError as error:
                return templates.TemplateResponse(
                    request,
                    "error.html",
                    {"message": str(error), "heading": "Bad input"},
                    status_code=422,
                )
            fields = [uploads.upload_control(c, proc.input_model) for c in fields]
            illustrative = uploads.illustrative_labels(proc.input_model)
        chart = found.chart(proc.chart) if proc.chart else None
        page = {
            "ruleset": found.id,
            "procedure": proc.name,
            "api": f"/api/rulesets/{found.id}/{proc.name}",
            "page": f"/rulesets/{found.id}/{proc.name}",
            "title": _(proc.title),
            "chart": chart.id if chart else None,
            "charts": {c.title: c.id for c in found.charts()},
            "meanings": {k: _(v) for k, v in faces.meanings(found, proc).items()},
            "fields": {
                c.name: {
                    "kind": c.kind,
                    "label": c.label,
                    "choices": dict(zip(c.choices, c.choice_types, strict=True)),
                    "initial": _initial(initial[c.name]),
                }
                for c in fields
            },
            "seed": query.get("seed"),
            "roll": query.get("roll"),
            "uploads": uploads.upload_fields(proc.input_model) if illustrative else {},
        }
        return templates.TemplateResponse(
            request,
            "procedure.html",
            {
                "ruleset": found,
                "procedure": proc,
                "controls": fields,
                "chart": chart,
                "page": page,
                "seed": query.get("seed", ""),
                "roll": query.get("roll", ""),
                "illustrative": illustrative,
            },
        )

    @app.get("/boards/{name}/fire", include_in_schema=False)
    def board_fire(
        request: Request,
        name: str,
        origin: Annotated[str, Query(alias="from")] = "",
        target: Annotated[str, Query(alias="to")] = "",
    ) -> Response:
        """The fire procedure of the board's rule set, what its feed reads of the line of
        sight ``from`` -> ``to`` filled in (``board_fire``; the feed's options, such as a
        reading, from the query): a redirect to the procedure page, whose address carries
        them."""
        from firefight.board.los import line_of_sight  # noqa: PLC0415
        from firefight.rulesets.board_fire import fire_inputs, fire_options  # noqa: PLC0415

        board, policy = _board(name)
        try:
            options = fire_options(board, request.query_params)
            a = board.hex(_hex_label(board, "from", origin))
            b = board.hex(_hex_label(board, "to", target))
            if a == b:
                raise InputError("to", f"a hex other than the firer's {origin}", target)
            verdict = line_of_sight(board, a, b, policy)
            feed = fire_inputs(board, a, b, verdict, options)
        except InputError as error:
            return templates.TemplateResponse(
                request,
                "error.html",
                {"message": str(error), "heading": "Bad input"},
                status_code=422,
            )
        query = urlencode(feed.inputs)
        return RedirectResponse(f"/rulesets/{feed.ruleset}/{feed.procedure}?{query}", 303)

    @app.get("/history", response_class=HTMLResponse, include_in_schema=False)
    def history_page(request: Request) -> Response:
        return templates.TemplateResponse(request, "history.html", {})

    @app.get("/boards/{name}", response_class=HTMLResponse, include_in_schema=False)
    def board_page(request: Request, name: str) -> Response:
        from firefight.rulesets.board_fire import board_fire  # noqa: PLC0415

        board, _policy = _board(name)
        feed = board_fire(board.ruleset)
        return templates.TemplateResponse(
            request,
            "board.html",
            {
                "name": name,
                "board": board,
                "svg": board_svg(board),
                "fire_help": _(feed.help) if feed else "",
            },
        )

    _install_openapi(app)
    return app


GC_THRESHOLD = (20_000, 50, 50)
"""The collector's thresholds in a server process (Python's defaults: 700, 10, 10). An answer
allocates thousands of short-lived objects (fractions, chart cells, JSON), so at the defaults
the collector ran every 700 of them and walked the caches of answers every few rounds: in
``benchmarks/web.py``, with :func:`gc.freeze` too, the server's CPU time per new attack fell
from 0.73 ms to 0.41 ms."""


COMPUTE_PROCESSES = "FIREFIGHT_COMPUTE_PROCESSES"
"""The environment variable that sizes each server process's pool of odds processes
(``firefight serve`` sets it to the CPU cores shared among its ``--workers``)."""


def compute_processes(default: int) -> int:
    """The pool size :data:`COMPUTE_PROCESSES` asks for (1 to 256), else ``default``."""
    text = os.environ.get(COMPUTE_PROCESSES, "")
    if not text:
        return default
    if not (text.isascii() and text.isdigit() and 1 <= int(text) <= 256):
        raise InputError(COMPUTE_PROCESSES, "an integer from 1 to 256", text)
    return int(text)


def serving_app() -> FastAPI:
    """:func:`create_app` for a server process (``firefight serve``; uvicorn calls this in each
    worker): odds not in the cache are computed in a pool of processes
    (:data:`COMPUTE_PROCESSES`, default one per core); the app and everything it loaded are
    frozen out of the garbage collector's view (``gc.freeze``; they live as long as the
    process), and the collector runs less often (:data:`GC_THRESHOLD`). Tests use
    :func:`create_app`, which computes in the request's task and leaves the collector alone."""
    default = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None
    processes = compute_processes(default or os.cpu_count() or 1)
    app = create_app(calculator=Calculator(processes))
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLD)
    return app


def _initial(control: Control) -> str:
    """The value a control opens with when the address names no value: the page leaves it out
    of the address it writes as the form is edited (README, "Web calculator")."""
    return ("true" if control.checked else "false") if control.kind == "checkbox" else control.value


def _bound(
    endpoint: Callable[[Request, str, str], Awaitable[Response]], ruleset_id: str, name: str
) -> Callable[[Request], Awaitable[Response]]:
    async def bound(request: Request) -> Response:
        return await endpoint(request, ruleset_id, name)

    bound.__name__ = f"{endpoint.__name__}_{ruleset_id}_{name}"
    bound.__doc__ = endpoint.__doc__
    return bound
