"""The server's pool processes (README, "Serving: limits"): spawned with no state of the
server's copied, each leaving Ctrl-C to the server, yielding the CPU to its event loop and
ending with it however it ends."""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
import threading
import time
from concurrent.futures import Executor, ProcessPoolExecutor
from contextlib import suppress

__all__ = ["POOL_NICENESS", "ended", "process_pool"]


POOL_NICENESS = 10
"""How much a pool process lowers its CPU priority: on a machine with fewer free cores than
busy pool processes, the event loop (and every cached answer) comes first."""


PR_SET_PDEATHSIG = 1
"""Linux's ``prctl`` option that has the kernel signal a process when its parent dies."""
WATCH_SECONDS = 1.0
"""How often a pool process without ``prctl`` (not Linux) looks whether its server lives."""


def _pool_process(server: int, niced: bool = True) -> None:
    """A pool process leaves Ctrl-C to the server, which closes the pool, yields the CPU to
    the server's event loop (:data:`POOL_NICENESS`; not the cheap lane's, ``niced`` false: its
    answers are the ones waited for) and ends with the server process ``server``
    (:func:`_end_with`)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if niced:
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


def process_pool(processes: int, niced: bool) -> Executor:
    """A pool of ``processes`` processes (spawned: no state of the server's copied), each set
    up by :func:`_pool_process`."""
    return ProcessPoolExecutor(
        max_workers=processes,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_pool_process,
        initargs=(os.getpid(), niced),
    )


def ended(executor: Executor | None) -> None:
    """``executor`` shut down at once, its processes ended."""
    if executor is None:
        return
    processes = list((getattr(executor, "_processes", None) or {}).values())  # no public API
    executor.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        with suppress(OSError, ValueError):
            process.terminate()
