"""The games of the shared table (:mod:`firefight.web.table`, docs/pbem.md "A shared table"):
each a journal in the server's database, its state kept in memory (:class:`Tables`), a token
known by its hash alone, an answer worked out once in the server's odds pool
(:func:`worked_out`)."""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from copy import deepcopy
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from starlette.concurrency import run_in_threadpool

from firefight.chance import work_budget
from firefight.errors import FirefightError, InputError
from firefight.journal import Draft, Journal
from firefight.pbem.game import (
    KIND_TABLE,
    PROTOCOL,
    SIDES,
    Declaration,
    Game,
    ProtocolError,
    answer_draft,
)
from firefight.pbem.play import StepConflictError, append_step
from firefight.translation import gettext

NAME_PREFIX = "table-"
OPEN_JOURNALS = 256
"""Games whose journal and state are kept open (least recently used first out)."""
WRONG_TOKEN = "the token is not one of this game's"
"""The answer (403) to a token that is not one of the game's, and to a game that is not here."""


class TableError(FirefightError):
    """A refused table request; ``status`` is its HTTP status."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


R = TypeVar("R")


class Compute(Protocol):
    """Where a costly step is worked out: ``await compute(function, *args)`` gives
    ``function(*args)`` (the server's odds pool, :class:`firefight.web.compute.Calculator`)."""

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
            raise TableError(404, gettext("no game {name!r} here").format(name=name))
        with self._lock:
            found = self._open.get(name)
            if found is not None:
                self._open.move_to_end(name)
                return found
        try:  # a name probed must not become a journal: read first, write only if it is one
            Journal.open(self.db, name, create=False).close()
        except InputError:
            raise TableError(404, gettext("no game {name!r} here").format(name=name)) from None
        journal = Journal.open(self.db, name)
        if journal.count() == 0:
            journal.close()
            raise TableError(404, gettext("no game {name!r} here").format(name=name))
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
