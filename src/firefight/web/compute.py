"""Where the odds are computed (README, "Serving: limits"): under the :data:`WORK_BUDGET`,
on the event loop when they are quick (:func:`quick_odds`), else in a pool of processes
(:class:`Calculator`), so a costly request delays no one else's answer."""

from __future__ import annotations

import asyncio
import ctypes
import logging
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import AbstractContextManager, suppress
from typing import TYPE_CHECKING, TypeVar

from firefight import faces
from firefight.chance import WorkBudgetError, work_budget
from firefight.errors import FirefightError
from firefight.i18n import language, using
from firefight.rulesets import rulesets as every_ruleset
from firefight.web import lookup
from firefight.web.errors import api_error, json_bytes

if TYPE_CHECKING:
    from firefight.core.inputs import RuleInput
    from firefight.rulesets.procedure import Procedure, RuleSet

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
log = logging.getLogger("firefight.web")


def within_budget() -> AbstractContextManager[None]:
    """The :data:`WORK_BUDGET` in force (the modifiers and resolve routes: facts and a roll
    may work out a chance)."""
    return work_budget(WORK_BUDGET)


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
            found, proc = lookup.find(ruleset_id, procedure_name)
            inp = lookup.parse(proc, lookup.body_data(proc, raw))
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
