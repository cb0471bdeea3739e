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

from collections.abc import Awaitable, Callable, Mapping
from copy import deepcopy
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from starlette.concurrency import run_in_threadpool

from firefight.core.files import parse_json
from firefight.digits import read_integer
from firefight.errors import FirefightError, InputError
from firefight.i18n import gettext as _
from firefight.journal import Draft
from firefight.pbem.chain import DEFAULT_LENGTH, MAX_LENGTH
from firefight.pbem.game import (
    PLAYER_MAX,
    SCENARIO_MAX,
    SIDES,
    Declaration,
    Game,
    declare_draft,
    hex_bytes,
    join_draft,
    offer_draft,
    seed_draft,
)
from firefight.translation import thousands
from firefight.web import language
from firefight.web.docpage import rendered
from firefight.web.ratelimit import RateLimit, client_key
from firefight.web.tablegame import (
    WRONG_TOKEN,
    Compute,
    TableError,
    TableGame,
    Tables,
    expects,
    in_thread,
    worked_out,
)

HERE = Path(__file__).resolve().parent
Build = Callable[[Game, str, Mapping[str, Any]], Draft]
"""Builds a step's draft from the game, the token's side and the request's JSON."""
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
AFTER_MAX = 2**62
"""The largest ``after`` a read takes (an entry number; the databases' integers are 64-bit)."""
__all__ = [
    "AFTER_MAX",
    "READS_PER_MINUTE",
    "STEPS_PER_MINUTE",
    "TABLE_BODY",
    "TABLE_DEPTH",
    "TABLE_VALUES",
    "WRONG_TOKEN",
    "Compute",
    "TableError",
    "router",
]
"""The routes, their bounds, and what they answer a wrong token (403, the games' own line)."""


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
        raise InputError(
            name,
            _("text of {least} to {limit} characters").format(least=0 if empty else 1, limit=limit),
            value,
        )
    return value


def _commit(game: Game, side: str, data: Mapping[str, Any]) -> Draft:
    anchor_hex = hex_bytes(data.get("anchor"), "anchor").hex()
    if side in game.anchors:
        raise TableError(409, _("side {side} has committed already").format(side=side))
    if game.offer is None:
        table = _game_table(game)
        return offer_draft(side, table["players"], table["scenario"], table["length"], anchor_hex)
    return join_draft(game, anchor_hex)


def _game_table(game: Game) -> dict[str, Any]:
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


def _refused(error: FirefightError) -> Response:
    status = error.status if isinstance(error, TableError) else 422
    return JSONResponse({"detail": str(error)}, status_code=status)


def _answer(call: Callable[[], dict[str, Any]]) -> Response:
    try:
        return JSONResponse(call())
    except FirefightError as error:
        return _refused(error)


def _stepped(game: str, side: str, after: Game) -> dict[str, Any]:
    return {"game": game, "side": side, "status": after.status(), "resolved": after.resolved}


def _new_game(tables: Tables, data: Mapping[str, Any]) -> dict[str, Any]:
    """A game made from ``{"scenario", "players": {"A", "B"}, "length"?}``: its name and the
    two player links."""
    scenario = _text(data, "scenario", SCENARIO_MAX, empty=True)
    players = data.get("players")
    if not isinstance(players, dict):
        raise InputError("players", "an object with a player for A and one for B", players)
    names = {side: _text(players, side, PLAYER_MAX) for side in SIDES}
    length = data.get("length", DEFAULT_LENGTH)
    if not isinstance(length, int) or isinstance(length, bool) or not 1 <= length <= MAX_LENGTH:
        raise InputError(
            "length",
            _("a whole number from 1 to {max_length}").format(max_length=thousands(MAX_LENGTH)),
            length,
        )
    name, tokens = tables.create(scenario, names, length)
    links = {side: f"/table/{name}#{token}" for side, token in tokens.items()}
    return {"game": name, "links": links}


class _Api:
    """The table's API routes: the games ``tables``, the steps' and reads' rate limits, and
    where an answer is worked out (``compute``, within ``budget``)."""

    def __init__(self, tables: Tables, steps: RateLimit, budget: int, compute: Compute) -> None:
        self.tables = tables
        self.steps = steps
        self.reads = RateLimit(READS_PER_MINUTE)
        self.budget = budget
        self.compute = compute

    async def _body(self, request: Request) -> dict[str, Any]:
        if not self.steps.allow(_client(request)):
            raise TableError(
                429,
                _("at most {limit} steps a minute from one address").format(limit=self.steps.limit),
            )
        raw = await request.body()
        if len(raw) > TABLE_BODY:
            raise TableError(
                413,
                _("the request body must be at most {table_body} bytes").format(
                    table_body=TABLE_BODY
                ),
            )
        data = parse_json(raw, "body", max_values=TABLE_VALUES, max_depth=TABLE_DEPTH)
        if not isinstance(data, dict):
            raise InputError("body", "a JSON object", data)
        return data

    async def create(self, request: Request) -> Response:
        """Create a game: ``{"scenario", "players": {"A", "B"}, "length"?}`` → its name and the
        two player links (each holding its side's token, shown only here)."""
        try:
            data = await self._body(request)
        except FirefightError as error:
            return _refused(error)
        # a database write: off the event loop
        return await run_in_threadpool(_answer, lambda: _new_game(self.tables, data))

    def read(self, request: Request, game: str, after: str = "0") -> Response:
        """The game for the token's side, and the journal's entries after ``after`` (an entry
        number: 0 for all)."""
        return _answer(lambda: self._state(request, game, after))

    def _state(self, request: Request, game: str, after: str) -> dict[str, Any]:
        if not self.reads.allow(_client(request)):
            raise TableError(
                429,
                _("at most {limit} reads a minute from one address").format(limit=self.reads.limit),
            )
        seen = read_integer(after)
        if seen is None or not 0 <= seen <= AFTER_MAX:
            got = after if seen is None else seen
            raise InputError(
                "after", _("an entry number from 0 to {after_max}").format(after_max=AFTER_MAX), got
            )
        side = self.tables.side(game, _bearer(request))
        journal, current, lock = self.tables.state(game)
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
            "status": snapshot.status() if snapshot.offer else "waiting for both players to commit",
            "expects": expects(snapshot, side, table),
            "resolved": snapshot.resolved,
            "open": None
            if declared is None
            else {"index": declared.index, "side": declared.side, **declared.declared()},
            "entries": entries,
        }

    def _post(self, request: Request, game: str, data: dict[str, Any], build: Build) -> Response:
        def stepped() -> dict[str, Any]:
            side = self.tables.side(game, _bearer(request))
            return _stepped(game, side, self.tables.step(game, lambda now: build(now, side, data)))

        return _answer(stepped)

    async def answer(self, request: Request, game: str) -> Response:
        """The answer to the open declaration: its roll and odds worked out once, by
        ``compute`` within the ``budget``, then checked and journaled in a thread."""
        try:
            data = await self._body(request)
            side, snapshot, declared = await run_in_threadpool(self._declared, request, game)
            element = hex_bytes(data.get("element"), "element").hex()
            status, made = await self.compute(worked_out, snapshot, side, element, self.budget)
        except FirefightError as error:
            return _refused(error)
        if isinstance(made, str):
            return JSONResponse({"detail": made}, status_code=status)
        return await run_in_threadpool(
            _answer, lambda: _stepped(game, side, self.tables.answer(game, declared, side, made))
        )

    def _declared(self, request: Request, game: str) -> tuple[str, TableGame, Declaration]:
        side = self.tables.side(game, _bearer(request))
        snapshot, declared = self.tables.open_declaration(game)
        return side, snapshot, declared

    def step(self, build: Build) -> Callable[[Request, str], Awaitable[Response]]:
        """The route of the step ``build`` makes (commit, declare, seed)."""

        async def endpoint(request: Request, game: str) -> Response:
            try:
                data = await self._body(request)
            except FirefightError as error:
                return _refused(error)
            # a step waits for the game's lock and the database's (up to 30 s for SQLite):
            # in a thread, so that other requests go on meanwhile
            return await run_in_threadpool(self._post, request, game, data, build)

        return endpoint


def router(
    db: str | None = None,
    steps_per_minute: int = STEPS_PER_MINUTE,
    *,
    budget: int,
    compute: Compute = in_thread,
) -> APIRouter:
    """The shared table's pages and API. An answer's roll and odds are worked out once, by
    ``compute`` (the server's odds pool), within ``budget`` steps of the chance engine's work
    (the odds API's, :data:`firefight.web.compute.WORK_BUDGET`): past it, a 422 naming it."""
    routes = _Api(Tables(db), RateLimit(steps_per_minute), budget, compute)
    templates = language.templates(HERE / "templates")
    api = APIRouter()

    @api.get("/table", response_class=HTMLResponse, include_in_schema=False)
    def table_page(request: Request) -> Response:
        return templates.TemplateResponse(request, "table.html", {"game": None})

    @api.get("/table/rules", response_class=HTMLResponse, include_in_schema=False)
    def rules_page(request: Request) -> Response:
        """The protocol's rules (docs/pbem.md) as a page."""
        return templates.TemplateResponse(
            request,
            "document.html",
            {"title": _("How the shared table works"), "body": rendered("pbem.md")},
        )

    @api.get("/table/{game}", response_class=HTMLResponse, include_in_schema=False)
    def game_page(request: Request, game: str) -> Response:
        return templates.TemplateResponse(request, "table.html", {"game": game})

    api.add_api_route("/api/table", routes.create, methods=["POST"], include_in_schema=False)
    api.add_api_route("/api/table/{game}", routes.read, methods=["GET"], include_in_schema=False)
    api.add_api_route(
        "/api/table/{game}/answer", routes.answer, methods=["POST"], include_in_schema=False
    )
    for path, build in (("commit", _commit), ("declare", _declare), ("seed", _seed)):
        api.add_api_route(
            f"/api/table/{{game}}/{path}",
            routes.step(build),
            methods=["POST"],
            include_in_schema=False,
        )
    return api
