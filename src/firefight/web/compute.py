"""Where the answers are computed (README, "Serving: limits"): under the :data:`WORK_BUDGET`;
in a served app the trivially cheap ones on the event loop within about a millisecond's steps
(:meth:`Calculator.answer`), cheap ones at once in the cheap lane's process
(:func:`quick_odds`), costly ones in a pool of processes, each client's in turn
(:class:`Calculator`), so a costly request delays no cheap answer."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Hashable
from concurrent.futures import Executor
from concurrent.futures.process import BrokenProcessPool
from functools import partial
from typing import TYPE_CHECKING, Any, TypeVar

from firefight import faces
from firefight.chance import WorkBudgetError, work_budget, work_left
from firefight.digits import SEED_MAX, SEEDS
from firefight.errors import FirefightError, InputError
from firefight.i18n import language, showing, using
from firefight.rulesets import added
from firefight.rulesets import rulesets as every_ruleset
from firefight.web import lookup
from firefight.web.channel import ProcessLane
from firefight.web.errors import api_error, json_bytes
from firefight.web.faults import fault_answer
from firefight.web.lanes import Estimates, FairQueue
from firefight.web.ratelimit import client_key
from firefight.web.uploads import CLIENT
from firefight.web.workers import ended, process_pool

if TYPE_CHECKING:
    from firefight.core.inputs import RuleInput
    from firefight.rulesets.procedure import Procedure, RuleSet

WORK_BUDGET = 100_000
"""The most work one request may ask of the chance engine, in steps (:func:`work_budget`):
past it, a 422 naming the budget. The costliest input the rules allow today, tirs ``fire`` at
CdT 20, short range, ``fires`` 5, takes 46,741 steps; the cap leaves twice that for rules to
grow and refuses anything beyond."""
QUICK_STEPS = 300
"""The work an answer may do in the caller, on the event loop, where the calculator has no
processes (tests, ``create_app`` by default): past it, the computation starts again
under the whole budget. A served calculator's cheap lane takes the steps each procedure's
measured pace allows instead (:class:`~firefight.web.lanes.Estimates`)."""
LENGTHY_PROCESSES = 1
"""The processes of the pool that answers the engagement and V&V scenario routes, apart from
the odds pool (:class:`Calculator`): one of their answers may take 20 s
(:data:`~firefight.web.scenario.SCENARIO_SECONDS`) where odds are bounded by
:data:`WORK_BUDGET`, so in a shared pool a few pasted scenarios would hold every process and
every odds request would wait behind them. Apart, they queue among themselves only."""
log = logging.getLogger("firefight.web")


def odds_payload(
    found: RuleSet, procedure: Procedure[RuleInput], inp: RuleInput
) -> dict[str, object]:
    """The CLI's odds shape, the facts as ``[label, value]`` pairs, the outcomes' order (a
    JavaScript object puts integer-like keys such as ``"1"`` first) and each outcome's
    severity grade (:meth:`~firefight.rulesets.severity.Severity.grade`; ``None``: no rank)."""
    distribution = procedure.odds(inp)
    payload = faces.odds_json(found, procedure, inp, distribution)
    payload["facts"] = faces.facts_pairs(procedure, inp)
    payload["order"] = list(distribution)
    severity = found.outcome_severity(procedure.name)
    payload["severity"] = {
        o: severity.grade(o) if severity is not None else None for o in distribution
    }
    return payload


def compute_odds(ruleset_id: str, procedure_name: str, raw: bytes) -> tuple[int, bytes]:
    """The odds route's status and body for a request body, under the :data:`WORK_BUDGET`.

    It runs in a process of the server's pool (:class:`Calculator`), so it takes and gives
    only bytes and strings, and never raises: a user error is its answer, a bug a logged
    500."""
    return compute_answer("odds", ruleset_id, procedure_name, raw)


def quick_odds(
    ruleset_id: str, procedure_name: str, raw: bytes, steps: int | None = None
) -> tuple[int, bytes] | None:
    """:func:`compute_odds` if it takes at most ``steps`` (default :data:`QUICK_STEPS`), else
    ``None``: tried in the cheap lane first, where most odds (every EPT fire attack: 23 to 65
    steps) cost less than handing them to the pool would."""
    return quick_answer("odds", ruleset_id, procedure_name, raw, steps)


def compute_answer(
    route: str, ruleset_id: str, procedure_name: str, raw: bytes
) -> tuple[int, bytes]:
    """The status and body of a procedure's ``route`` (``odds``, ``modifiers``, ``resolve``)
    for a request body, under the :data:`WORK_BUDGET` (in the pool: bytes and strings only,
    never raising)."""
    try:
        return _within(route, ruleset_id, procedure_name, raw, WORK_BUDGET)
    except WorkBudgetError as error:
        return api_error(error)


def quick_answer(
    route: str, ruleset_id: str, procedure_name: str, raw: bytes, steps: int | None = None
) -> tuple[int, bytes] | None:
    """:func:`compute_answer` if it takes at most ``steps`` (default :data:`QUICK_STEPS`),
    else ``None``."""
    allowed = QUICK_STEPS if steps is None else steps
    try:
        return _within(route, ruleset_id, procedure_name, raw, allowed)
    except WorkBudgetError:
        SPENT[0] = allowed
        return None


def _within(
    route: str, ruleset_id: str, procedure_name: str, raw: bytes, steps: int
) -> tuple[int, bytes]:
    """``route``'s answer within ``steps`` (past them, :class:`WorkBudgetError`)."""
    if route == "odds":
        return _odds(ruleset_id, procedure_name, raw, steps)
    return _answer(route, ruleset_id, procedure_name, raw, steps)


def _odds(ruleset_id: str, procedure_name: str, raw: bytes, steps: int) -> tuple[int, bytes]:
    """The odds within ``steps`` (past them, :class:`WorkBudgetError`)."""
    return _answer("odds", ruleset_id, procedure_name, raw, steps)


def _answer(
    route: str, ruleset_id: str, procedure_name: str, raw: bytes, steps: int
) -> tuple[int, bytes]:
    """The answer within ``steps`` (past them, :class:`WorkBudgetError`)."""
    return _bounded(
        partial(_payload, route, ruleset_id, procedure_name, raw),
        f"{route} of {ruleset_id} {procedure_name}",
        steps,
    )


def parsed_odds(
    found: RuleSet, procedure: Procedure[RuleInput], inp: RuleInput, steps: int
) -> tuple[int, bytes] | None:
    """:func:`quick_odds` of an input already parsed (on the event loop, where the request
    was parsed: the same status and bytes, without parsing it again)."""
    try:
        return _bounded(
            partial(odds_payload, found, procedure, inp),
            f"odds of {found.id} {procedure.name}",
            steps,
        )
    except WorkBudgetError:
        SPENT[0] = steps
        return None


def _bounded(payload: Callable[[], object], what: str, steps: int) -> tuple[int, bytes]:
    """``payload()`` as a status and JSON within ``steps`` (past them, :class:`WorkBudgetError`;
    a user error its answer, a bug a logged 500)."""
    try:
        with work_budget(steps):
            try:
                return 200, json_bytes(payload())
            finally:
                SPENT[0] = steps - (work_left() or 0)
    except WorkBudgetError:
        raise
    except FirefightError as error:
        return api_error(error)
    except Exception as error:
        log.exception("%s failed", what)
        return fault_answer(error)  # a third party's bug: one line naming it


def _payload(route: str, ruleset_id: str, procedure_name: str, raw: bytes) -> object:
    found, proc = lookup.find(ruleset_id, procedure_name)
    data = lookup.body_data(proc, raw)
    if route == "odds":
        return odds_payload(found, proc, lookup.parse(proc, data))
    if route == "modifiers":
        return faces.modifiers_json(found, proc, lookup.parse(proc, data))
    data, seed, roll = resolve_request(data)
    inp = lookup.parse(proc, data)
    resolution = (
        proc.resolve(inp, seed)
        if seed is not None
        else proc.replay(inp, faces.parse_roll(roll or ""))
    )
    return faces.resolve_json(found, proc, inp, resolution)


SPENT = [0]
"""The steps the last answer of this process spent (:func:`measured` reads it)."""


def measured(function: Callable[..., R], *args: object) -> tuple[float, int, R]:
    """``function(*args)`` (an answer of this module), the seconds it took where it ran (the
    cheap lane's process, a pool process: the time waited in a queue is not counted) and the
    steps it spent."""
    SPENT[0] = 0
    started = time.perf_counter()
    result = function(*args)
    return time.perf_counter() - started, SPENT[0], result


def resolve_request(
    body: dict[str, object],
) -> tuple[dict[str, object], int | None, str | None]:
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


R = TypeVar("R")


def _warm() -> None:
    """Load every rule set in a pool process before the first request needs it, and work out
    one answer of each procedure (its defaults, within :data:`QUICK_STEPS`; a refusal is no
    matter), so that what a rule loads on its first walk (a compiled step read from its cache:
    seconds) is loaded before a request waits for it."""
    for found in every_ruleset():
        for procedure in found.procedures:
            quick_answer("odds", found.id, procedure.name, b"{}")


def in_language(lang: str, function: Callable[..., R], *args: object) -> R:
    """``function(*args)`` with ``lang`` as the language of its messages: a process of a pool
    does not share the request's context, so the language travels as an argument (and the
    game whose words it shows is the one it names, none shown after it)."""
    with using(lang), showing(None):
        return function(*args)


def as_served(lang: str, games: str, function: Callable[..., R], *args: object) -> R:
    """:func:`in_language`, in a pool's process that has read the user's folder of game files
    as its server had (``games``: :func:`~firefight.rulesets.added.seen`), so that a game
    the server has just seen is known there too."""
    added.catch_up(games)
    return in_language(lang, function, *args)


def _ended_lane(cheap: Executor | ProcessLane | None) -> None:
    if isinstance(cheap, ProcessLane):
        cheap.shutdown()
    else:
        ended(cheap)


CHEAP_PROCESSES = 1
"""The cheap lane's processes in a server process: its answers take at most a few
milliseconds, so one keeps up with what one event loop reads and writes."""
Job = tuple["asyncio.Future[Any]", str, Callable[..., Any], tuple[object, ...]]
"""A costly computation waiting: its future, the request's language, the function, its
arguments."""


class Calculator:
    """Where the answers not in the cache are computed, in two lanes: cheap ones at once in a
    process of their own (:meth:`quickly`, :data:`CHEAP_PROCESSES`), costly ones in a pool of
    ``processes`` processes (:meth:`__call__`), both off the event loop and outside its GIL, so
    that one costly request delays no cheap one and no computation delays the loop (a thread
    would share the GIL: the loop would wait for it at every switch, some milliseconds at each
    of its reads and writes); or, with ``processes=0``, both in the caller (tests, and
    ``create_app`` by default). :meth:`answer` picks the lane.

    The costly lane's requests wait in a queue of the server's, each client's (his address, an
    IPv6 /64) in its own, taken in turn (:class:`~firefight.web.lanes.FairQueue`), and are
    handed to the pool only when one of its processes is free: a client sending many costly
    requests delays another's by at most one of his per process.

    The processes start with the app (each loads the rule sets then), the costly pool's at a
    lower CPU priority than the server, and are replaced if one of them dies. They are closed
    with the app (ended at once), and end with the server process even when that one is killed
    (:func:`_end_with`). ``executor(processes, niced)`` makes a pool (tests hand pools of
    threads, to block them with an event).
    """

    def __init__(
        self,
        processes: int = 0,
        executor: Callable[[int, bool], Executor] | None = None,
        *,
        inline: bool = False,
    ) -> None:
        self.processes = processes
        self.inline = inline
        """Whether the cheapest answers are computed on the event loop itself, within the
        steps :meth:`~firefight.web.lanes.Estimates.inline` allows (a served app)."""
        self.make_executor = executor or process_pool
        self.own_processes = executor is None
        """Whether the lanes are processes of their own (not a test's pools): the cheap lane is
        then a :class:`~firefight.web.channel.ProcessLane`, read and written by the loop."""
        self.executor: Executor | None = None
        self.cheap: Executor | ProcessLane | None = None
        self.closed = False
        self.waiting: FairQueue[Job] = FairQueue()
        self.running = 0
        self.estimates = Estimates()

    def start(self) -> None:
        """Start the lanes' processes and have each load the rule sets."""
        if not self.processes or self.closed:
            return
        if self.executor is None:
            self.executor = self.make_executor(self.processes, True)
            for _ in range(self.processes):
                self.executor.submit(_warm)
        if self.cheap is None:
            if self.own_processes:
                self.cheap = ProcessLane(_warm)
            else:
                self.cheap = self.make_executor(CHEAP_PROCESSES, False)
                self.cheap.submit(_warm)

    def stop(self) -> None:
        """Stop the lanes at once: what their pools hold is dropped, what runs is ended (its
        answer is no one's once the server stops; waiting for it would hold the server's exit
        for as long as the answer's limit).
        What waits in the fair queue is handed to the next pool."""
        ended(self.executor)
        _ended_lane(self.cheap)
        self.executor = self.cheap = None

    def close(self) -> None:
        """Stop the lanes for good (the app's end): nothing starts them again, and what waits
        is refused."""
        self.closed = True
        self.stop()
        for job, *_ in self.waiting.drain():
            if not job.done():
                job.set_exception(BrokenProcessPool("the server is stopping"))

    async def quickly(self, function: Callable[..., R], *args: object) -> R:
        """``function(*args)`` in the cheap lane's process, at once (in the caller without
        one)."""
        if not self.processes:
            return function(*args)
        self.start()
        cheap = self.cheap
        if cheap is None:
            raise BrokenProcessPool("the server is stopping")
        try:
            if isinstance(cheap, ProcessLane):
                answer: R = await cheap(as_served, language(), added.seen(), function, *args)
                return answer
            return await asyncio.get_running_loop().run_in_executor(
                cheap, as_served, language(), added.seen(), function, *args
            )
        except BrokenProcessPool:
            if cheap is self.cheap and not self.closed:
                log.error("the cheap lane's process died; it is started anew")
                _ended_lane(cheap)
                self.cheap = None
                self.start()
            raise

    async def __call__(self, function: Callable[..., R], *args: object) -> R:
        """``function(*args)``, in the pool if there is one, in its client's turn."""
        if not self.processes:
            return function(*args)
        self.start()
        if self.executor is None:
            raise BrokenProcessPool("the server is stopping")
        job: asyncio.Future[R] = asyncio.get_running_loop().create_future()
        self.waiting.put(client_key(CLIENT.get()), (job, language(), function, args))
        self._dispatch()
        return await job

    def _dispatch(self) -> None:
        """Hand the waiting jobs to the pool, in the clients' turns, while a process is free."""
        while self.running < self.processes and self.executor is not None:
            taken = self.waiting.take()
            if taken is None:
                return
            job, lang, function, args = taken
            if job.done():  # its client left (cancelled)
                continue
            self.running += 1
            executor = self.executor
            future = asyncio.get_running_loop().run_in_executor(
                executor, as_served, lang, added.seen(), function, *args
            )
            future.add_done_callback(partial(self._finished, job, executor))

    def _finished(
        self, job: asyncio.Future[Any], executor: Executor, future: asyncio.Future[Any]
    ) -> None:
        self.running -= 1
        error = None if future.cancelled() else future.exception()
        if future.cancelled():
            error = BrokenProcessPool("the pool was stopped")
        if isinstance(error, BrokenProcessPool) and executor is self.executor and not self.closed:
            log.error("a process of the odds pool died; the pool is started anew")
            ended(executor)
            self.executor = None
            self.start()
        if not job.done():
            if error is not None:
                job.set_exception(error)
            else:
                job.set_result(future.result())
        self._dispatch()

    async def answer(
        self,
        key: Hashable,
        quick: Callable[..., R | None],
        full: Callable[..., R],
        *args: object,
        here: Callable[[int], R | None] | None = None,
    ) -> R:
        """``quick(*args, steps)`` in the cheap lane, ``steps`` what ``key``'s measured rate
        allows in :data:`~firefight.web.lanes.CHEAP_SECONDS` (in the caller: the
        :data:`QUICK_STEPS`); where it gives ``None`` (past them), or where ``key`` allows
        no step, ``full(*args)`` in the pool. Each one's seconds and steps, measured where it
        ran, are ``key``'s estimate (:class:`~firefight.web.lanes.Estimates`).

        With :attr:`inline`, a request whose procedure's answers are measured as trivially
        cheap is first tried on the event loop itself, within the steps its pace allows in
        about a millisecond (:meth:`~firefight.web.lanes.Estimates.inline`, decided before the
        work): no process hop for the most common answers, and none holds the loop longer.
        ``here(steps)``, if given, is ``quick(*args, steps)`` from what the caller parsed."""
        inline = self.estimates.inline(key) if self.inline and self.processes else 0
        if inline:
            looped: tuple[float, int, R | None] = (
                measured(here, inline) if here is not None else measured(quick, *args, inline)
            )
            self.estimates.record(key, looped[0], looped[1], looped[2] is not None)
            if looped[2] is not None:
                return looped[2]
        steps = self.estimates.steps(key) if self.processes else QUICK_STEPS
        if steps:
            tried: tuple[float, int, R | None] = await self.quickly(measured, quick, *args, steps)
            self.estimates.record(key, tried[0], tried[1], tried[2] is not None)
            if tried[2] is not None:
                return tried[2]
        done: tuple[float, int, R] = await self(measured, full, *args)
        self.estimates.record(key, done[0], done[1])
        return done[2]
