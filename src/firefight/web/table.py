"""A shared table (docs/pbem.md "A shared table"): ``firefight serve`` hosts games
played with the play-by-e-mail protocol, each player in his own browser.

* ``GET /table`` — a form: the scenario and both players; ``POST /api/table`` creates the game
  and answers the two player links, each with its own random secret token;
* ``GET /table/{game}`` — a player's page (the token in the link's fragment): the journal and
  new rolls as they come (polling), committing, declaring, revealing;
* ``GET /api/table/{game}?after=N`` — the game's state for the token's side and the journal's
  entries after ``N``; ``POST /api/table/{game}/commit|declare|answer|seed`` — one step each.

A token is 256 random bits (``secrets.token_urlsafe(32)``), stored only as its SHA-256 in the
game's first journal entry and compared in constant time (``hmac.compare_digest``); it is sent
as ``Authorization: Bearer TOKEN``. Every step is checked as ``firefight pbem verify`` checks
it (:class:`firefight.pbem.game.Game`) and journaled in the server's database
(``FIREFIGHT_DB``). The server never holds a seed: the browser draws it and reveals the chain.
An answer's roll and odds are worked out once, in the server's odds pool, within the odds
API's work budget; bodies are bounded in size, values and nesting; the rate limits count an
IPv4 address or an IPv6 /64 (:mod:`firefight.web.ratelimit`).

A game's routes check the token before the game: an unknown game answers 403 as a wrong token
does, so that game names cannot be probed. The table's routes are left out of the OpenAPI
document: they answer 401, 403, 404, 409, 413
and 429 besides 200 and 422, and each creates or changes a game in the server's database, which
a generated-request test of the document must not do; docs/pbem.md describes them.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping
from copy import deepcopy
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, TypeVar

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from starlette.concurrency import run_in_threadpool

from firefight.chance import work_budget
from firefight.core.files import parse_json
from firefight.digits import read_integer
from firefight.errors import FirefightError, InputError
from firefight.journal import Draft, Journal
from firefight.pbem.chain import DEFAULT_LENGTH, MAX_LENGTH
from firefight.pbem.game import (
    KIND_TABLE,
    PLAYER_MAX,
    PROTOCOL,
    SCENARIO_MAX,
    SIDES,
    Declaration,
    Game,
    ProtocolError,
    answer_draft,
    declare_draft,
    hex_bytes,
    join_draft,
    offer_draft,
    seed_draft,
)
from firefight.pbem.play import StepConflictError, append_step
from firefight.web import language
from firefight.web.ratelimit import RateLimit, client_key

HERE = Path(__file__).resolve().parent
Build = Callable[[Game, str, Mapping[str, Any]], Draft]
"""Builds a step's draft from the game, the token's side and the request's JSON."""
NAME_PREFIX = "table-"
TABLE_BODY = 16 * 1024
"""The largest request body a table route accepts, in bytes (a step is well under 1 kB)."""
TABLE_DEPTH = 16
"""The deepest nesting of a table request's JSON: a declaration's body holds its input, an
object of the procedure's inputs (a list of cards at the most), so four levels; the rest is
room for rules to grow."""
TABLE_VALUES = 2_000
"""The most values a table request's JSON may hold: a step has tens (a declaration's input its
fields); 16 kB of JSON can hold 8,000."""
STEPS_PER_MINUTE = 60
"""Steps (``POST``) one client address may take in a minute."""
READS_PER_MINUTE = 600
"""Reads (``GET``, the page polls once a second) one client address may make in a minute."""
OPEN_JOURNALS = 256
"""Games whose journal and state are kept open (least recently used first out)."""
WRONG_TOKEN = "the token is not one of this game's"
"""The answer (403) to a token that is not one of the game's, and to a game that is not here."""
AFTER_MAX = 2**62
"""The largest ``after`` a read takes (an entry number; the databases' integers are 64-bit)."""


class TableError(FirefightError):
    """A refused table request; ``status`` is its HTTP status."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


R = TypeVar("R")


class Compute(Protocol):
    """Where a costly step is worked out: ``await compute(function, *args)`` gives
    ``function(*args)`` (the server's odds pool, :class:`firefight.web.app.Calculator`)."""

    async def __call__(self, function: Callable[..., R], *args: object) -> R: ...


async def in_thread(function: Callable[..., R], *args: object) -> R:
    """``function(*args)`` in a thread of the server, off the event loop (the default
    :class:`Compute` of a table served without an odds pool)."""
    return await run_in_threadpool(function, *args)


def token_hash(token: str) -> str:
    """What the server keeps of a token: its SHA-256, in hex."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class TableGame(Game):
    """A game at the table: a resolution the server has worked out already (in its odds pool,
    :func:`worked_out`) is checked and applied without working it out again."""

    known: dict[tuple[str, str, str], dict[str, Any]] = field(
        default_factory=dict, repr=False, compare=False
    )
    """Resolution bodies by declaration hash, element and answering side."""

    def resolution(self, declared: Declaration, element: str, side: str) -> dict[str, Any]:
        """The resolution body the elements give: the one worked out, if it is known."""
        known = self.known.get((declared.hash, element, side))
        return known if known is not None else super().resolution(declared, element, side)


def worked_out(game: Game, side: str, element: str, steps: int) -> tuple[int, Draft | str]:
    """Side ``side``'s answer to the open declaration with ``element``: the resolution's draft,
    worked out once within ``steps`` of the chance engine's work, or a refusal's status and
    line. It runs in a process of the server's odds pool, so it takes and gives only values
    that travel between processes, and never raises for a user's error."""
    try:
        with work_budget(steps):
            return 200, answer_draft(game, side, element)
    except FirefightError as error:
        return 422, str(error)


class Tables:
    """The games: each a journal named ``table-…`` in the server's database, its state kept in
    memory and brought up to date from the journal's new entries on each request."""

    def __init__(self, db: str | None = None) -> None:
        self.db = db
        self._open: OrderedDict[str, tuple[Journal, TableGame, threading.Lock]] = OrderedDict()
        self._lock = threading.Lock()

    def create(
        self, scenario: str, players: Mapping[str, str], length: int
    ) -> tuple[str, dict[str, str]]:
        """A new game; its name and each side's token (shown once, never stored)."""
        name = NAME_PREFIX + secrets.token_hex(8)
        tokens = {side: secrets.token_urlsafe(32) for side in SIDES}
        body = {
            "protocol": PROTOCOL,
            "scenario": scenario,
            "players": dict(players),
            "length": length,
            "tokens": {side: token_hash(token) for side, token in tokens.items()},
        }
        with Journal.open(self.db, name) as journal:
            journal.append(Draft(who="table", body=body, kind=KIND_TABLE))
        return name, tokens

    def _get(self, name: str) -> tuple[Journal, TableGame, threading.Lock]:
        if not name.startswith(NAME_PREFIX) or len(name) != len(NAME_PREFIX) + 16:
            raise TableError(404, f"no game {name!r} here")
        with self._lock:
            found = self._open.get(name)
            if found is not None:
                self._open.move_to_end(name)
                return found
        try:  # a name probed must not become a journal: read first, write only if it is one
            Journal.open(self.db, name, create=False).close()
        except InputError:
            raise TableError(404, f"no game {name!r} here") from None
        journal = Journal.open(self.db, name)
        if journal.count() == 0:
            journal.close()
            raise TableError(404, f"no game {name!r} here")
        found = (journal, TableGame(), threading.Lock())
        with self._lock:
            self._open[name] = found
            while len(self._open) > OPEN_JOURNALS:
                _, (old, _, _) = self._open.popitem(last=False)
                old.close()
        return found

    def state(self, name: str) -> tuple[Journal, TableGame, threading.Lock]:
        """The game's journal, its state up to date, and its lock (steps one at a time)."""
        journal, game, lock = self._get(name)
        with lock:
            seen = game.last.seq if game.last else 0
            for entry in journal.entries(seen + 1):
                game.apply(entry)
        return journal, game, lock

    def side(self, name: str, token: str) -> str:
        """The side whose token this is (constant-time comparison of the hashes). A game that
        is not here answers as a wrong token does (403, the same line): a request's answer must
        not tell which game names exist to someone who holds no token of theirs."""
        try:
            journal, _, _ = self.state(name)
        except TableError as error:
            if error.status != 404:
                raise
            raise TableError(403, WRONG_TOKEN) from None
        table = journal.entry(1).body
        given = token_hash(token)
        found = ""
        for side in SIDES:
            if hmac.compare_digest(given, str(table["tokens"][side])):
                found = side
        if not found:
            raise TableError(403, WRONG_TOKEN)
        return found

    def step(self, name: str, draft_of: Callable[[TableGame], Draft]) -> Game:
        """Append the draft ``draft_of(game)`` builds, once checked against the game."""
        journal, game, lock = self.state(name)
        with lock:
            for entry in journal.entries((game.last.seq if game.last else 0) + 1):
                game.apply(entry)
            try:
                append_step(journal, game, draft_of(game))
            except StepConflictError as error:
                raise TableError(409, str(error)) from None
            finally:
                game.known.clear()
            return deepcopy(game)

    def answer(self, name: str, declared: Declaration, side: str, draft: Draft) -> Game:
        """Append the resolution ``draft`` worked out for ``declared`` (:func:`worked_out`),
        if that declaration still waits, checked against the game without working it out
        again."""

        def known(game: TableGame) -> Draft:
            if game.open is None or game.open.hash != declared.hash:
                msg = "the game moved on meanwhile (the declaration was answered); read it again"
                raise TableError(409, msg)
            game.known[declared.hash, str(draft.body["element"]), side] = dict(draft.body)
            return draft

        return self.step(name, known)

    def open_declaration(self, name: str) -> tuple[TableGame, Declaration]:
        """A copy of the game, to work its answer out on, and the declaration it waits for."""
        _, game, lock = self.state(name)
        with lock:
            snapshot = deepcopy(game)
        if snapshot.open is None:
            msg = "no declaration waits for an answer"
            raise ProtocolError(msg)
        return snapshot, snapshot.open


def _client(request: Request) -> str:
    return client_key(request.client.host) if request.client else "unknown"


def _bearer(request: Request) -> str:
    header = request.headers.get("authorization", "")
    if not header.startswith("Bearer ") or not header[7:].strip():
        raise TableError(401, "a player's token must be sent as 'Authorization: Bearer TOKEN'")
    return header[7:].strip()


def _text(data: Mapping[str, Any], name: str, limit: int, empty: bool = False) -> str:
    value = data.get(name, "" if empty else None)
    if not isinstance(value, str) or len(value) > limit or (not empty and not value.strip()):
        raise InputError(name, f"text of {0 if empty else 1} to {limit} characters", value)
    return value


def expects(game: Game, side: str, table: Mapping[str, Any]) -> str:
    """What this side may do now: commit, declare, answer, seed (reveal his seed), wait, over."""
    if side not in game.anchors:
        return "commit"
    if not game.started:
        return "wait"
    if len(game.seeds) == len(SIDES):
        return "over"
    if game.seeds:
        return "wait" if side in game.seeds else "seed"
    if game.open is None:
        return "declare"
    return "wait" if game.open.side == side else "answer"


def router(  # noqa: PLR0915 - every route of the table
    db: str | None = None,
    steps_per_minute: int = STEPS_PER_MINUTE,
    *,
    budget: int,
    compute: Compute = in_thread,
) -> APIRouter:
    """The shared table's pages and API. An answer's roll and odds are worked out once, by
    ``compute`` (the server's odds pool), within ``budget`` steps of the chance engine's work
    (the odds API's, :data:`firefight.web.app.WORK_BUDGET`): past it, a 422 naming it."""
    tables = Tables(db)
    steps = RateLimit(steps_per_minute)
    reads = RateLimit(READS_PER_MINUTE)
    templates = language.templates(HERE / "templates")
    api = APIRouter()

    async def _body(request: Request) -> dict[str, Any]:
        if not steps.allow(_client(request)):
            raise TableError(429, f"at most {steps.limit} steps a minute from one address")
        raw = await request.body()
        if len(raw) > TABLE_BODY:
            raise TableError(413, f"the request body must be at most {TABLE_BODY} bytes")
        data = parse_json(raw, "body", max_values=TABLE_VALUES, max_depth=TABLE_DEPTH)
        if not isinstance(data, dict):
            raise InputError("body", "a JSON object", data)
        return data

    def _refused(error: FirefightError) -> Response:
        status = error.status if isinstance(error, TableError) else 422
        return JSONResponse({"detail": str(error)}, status_code=status)

    def _answer(call: Callable[[], dict[str, Any]]) -> Response:
        try:
            return JSONResponse(call())
        except FirefightError as error:
            return _refused(error)

    @api.get("/table", response_class=HTMLResponse, include_in_schema=False)
    def table_page(request: Request) -> Response:
        return templates.TemplateResponse(request, "table.html", {"game": None})

    @api.get("/table/{game}", response_class=HTMLResponse, include_in_schema=False)
    def game_page(request: Request, game: str) -> Response:
        return templates.TemplateResponse(request, "table.html", {"game": game})

    @api.post("/api/table", include_in_schema=False)
    async def create(request: Request) -> Response:
        """Create a game: ``{"scenario", "players": {"A", "B"}, "length"?}`` → its name and the
        two player links (each holding its side's token, shown only here)."""
        try:
            data = await _body(request)
        except FirefightError as error:
            return _refused(error)

        def made() -> dict[str, Any]:
            scenario = _text(data, "scenario", SCENARIO_MAX, empty=True)
            players = data.get("players")
            if not isinstance(players, dict):
                raise InputError("players", "an object with a player for A and one for B", players)
            names = {side: _text(players, side, PLAYER_MAX) for side in SIDES}
            length = data.get("length", DEFAULT_LENGTH)
            if (
                not isinstance(length, int)
                or isinstance(length, bool)
                or not 1 <= length <= MAX_LENGTH
            ):
                raise InputError("length", f"a whole number from 1 to {MAX_LENGTH:,}", length)
            name, tokens = tables.create(scenario, names, length)
            links = {side: f"/table/{name}#{token}" for side, token in tokens.items()}
            return {"game": name, "links": links}

        return await run_in_threadpool(_answer, made)  # a database write: off the event loop

    @api.get("/api/table/{game}", include_in_schema=False)
    def read(request: Request, game: str, after: str = "0") -> Response:
        """The game for the token's side, and the journal's entries after ``after`` (an entry
        number: 0 for all)."""

        def state() -> dict[str, Any]:
            if not reads.allow(_client(request)):
                raise TableError(429, f"at most {reads.limit} reads a minute from one address")
            seen = read_integer(after)
            if seen is None or not 0 <= seen <= AFTER_MAX:
                got = after if seen is None else seen
                raise InputError("after", f"an entry number from 0 to {AFTER_MAX}", got)
            side = tables.side(game, _bearer(request))
            journal, current, lock = tables.state(game)
            with lock:
                snapshot = deepcopy(current)
            table = journal.entry(1).body
            entries = [e.to_json() for e in journal.entries(seen + 1)]
            declared = snapshot.open
            return {
                "game": game,
                "side": side,
                "players": table["players"],
                "scenario": table["scenario"],
                "length": table["length"],
                "id": snapshot.id or None,
                "status": snapshot.status()
                if snapshot.offer
                else "waiting for both players to commit",
                "expects": expects(snapshot, side, table),
                "resolved": snapshot.resolved,
                "open": None
                if declared is None
                else {"index": declared.index, "side": declared.side, **declared.declared()},
                "entries": entries,
            }

        return _answer(state)

    def _stepped(game: str, side: str, after: Game) -> dict[str, Any]:
        return {"game": game, "side": side, "status": after.status(), "resolved": after.resolved}

    def _post(request: Request, game: str, data: dict[str, Any], build: Build) -> Response:
        def stepped() -> dict[str, Any]:
            side = tables.side(game, _bearer(request))
            return _stepped(game, side, tables.step(game, lambda now: build(now, side, data)))

        return _answer(stepped)

    def _commit(game: Game, side: str, data: Mapping[str, Any]) -> Draft:
        anchor_hex = hex_bytes(data.get("anchor"), "anchor").hex()
        if side in game.anchors:
            raise TableError(409, f"side {side} has committed already")
        if game.offer is None:
            table = game_table(game)
            return offer_draft(
                side, table["players"], table["scenario"], table["length"], anchor_hex
            )
        return join_draft(game, anchor_hex)

    def game_table(game: Game) -> dict[str, Any]:
        if game.last is None:  # pragma: no cover - a game starts with its table entry
            raise TableError(404, "no game")
        return dict(game.table or {})

    def _declare(game: Game, side: str, data: Mapping[str, Any]) -> Draft:
        data_input = data.get("input")
        if not isinstance(data_input, dict):
            raise InputError("input", "a JSON object of the procedure's inputs", data_input)
        element_hex = hex_bytes(data.get("element"), "element").hex()
        return declare_draft(
            game,
            side,
            _text(data, "ruleset", 100),
            _text(data, "procedure", 100),
            data_input,
            element_hex,
        )

    def _seed(game: Game, side: str, data: Mapping[str, Any]) -> Draft:
        return seed_draft(game, side, hex_bytes(data.get("seed"), "seed").hex())

    @api.post("/api/table/{game}/answer", include_in_schema=False)
    async def answer(request: Request, game: str) -> Response:
        """The answer to the open declaration: its roll and odds worked out once, by
        ``compute`` within the ``budget``, then checked and journaled in a thread."""
        try:
            data = await _body(request)
            side, snapshot, declared = await run_in_threadpool(_declared, request, game)
            element = hex_bytes(data.get("element"), "element").hex()
            status, made = await compute(worked_out, snapshot, side, element, budget)
        except FirefightError as error:
            return _refused(error)
        if isinstance(made, str):
            return JSONResponse({"detail": made}, status_code=status)
        return await run_in_threadpool(
            _answer, lambda: _stepped(game, side, tables.answer(game, declared, side, made))
        )

    def _declared(request: Request, game: str) -> tuple[str, TableGame, Declaration]:
        side = tables.side(game, _bearer(request))
        snapshot, declared = tables.open_declaration(game)
        return side, snapshot, declared

    for path, build in (
        ("commit", _commit),
        ("declare", _declare),
        ("seed", _seed),
    ):

        def route(build: Build = build) -> Callable[[Request, str], Awaitable[Response]]:
            async def endpoint(request: Request, game: str) -> Response:
                try:
                    data = await _body(request)
                except FirefightError as error:
                    return _refused(error)
                # a step waits for the game's lock and the database's (up to 30 s for SQLite):
                # in a thread, so that other requests go on meanwhile
                return await run_in_threadpool(_post, request, game, data, build)

            return endpoint

        api.add_api_route(
            f"/api/table/{{game}}/{path}", route(), methods=["POST"], include_in_schema=False
        )

    return api
