"""How ``firefight serve`` runs uvicorn: the bounded protocol, its timeouts and the size of the
pool of odds processes (:data:`firefight.web.app.COMPUTE_PROCESSES`).

The command line keeps only its options; the limits live here, beside the protocol that
applies them (README, "Serving the web calculator").
"""

from __future__ import annotations

import os
from functools import partial
from typing import Any

from firefight.journal.database import DB_VARIABLE
from firefight.web.app import COMPUTE_PROCESSES, compute_processes
from firefight.web.protocol import BoundedHttpToolsProtocol

LIMIT_CONCURRENCY = 4096
"""Connections and requests in progress a server process takes at once; past it, uvicorn
answers 503 (memory stays bounded: each holds at most a 16 KiB head and a 64 KiB body)."""
OPEN_FILES = 65536
"""The open-file limit the server raises its own soft limit to (within the hard limit), so
that a few thousand idle connections do not keep the next client from being accepted."""


def cores() -> int:
    """The CPU cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def pool_size(workers: int) -> int:
    """Odds processes per server process: the cores shared among them, at least one."""
    return max(1, cores() // workers)


def raise_open_files(limit: int = OPEN_FILES) -> None:
    """Raise the soft open-file limit towards ``limit`` where the hard limit allows."""
    try:
        import resource  # noqa: PLC0415 - POSIX only

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        wanted = limit if hard == resource.RLIM_INFINITY else min(limit, hard)
        if soft != resource.RLIM_INFINITY and soft < wanted:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    except (ImportError, ValueError, OSError):
        pass  # the system's limit stays


def uvicorn_options(host: str, port: int, workers: int, timeout: int) -> dict[str, Any]:
    """What ``firefight serve`` hands :func:`uvicorn.run` besides the app factory."""
    protocol = partial(BoundedHttpToolsProtocol, request_timeout=float(timeout))
    return {
        "factory": True,
        "host": host,
        "port": port,
        "workers": workers,
        "log_level": "warning",
        "http": protocol,
        "timeout_keep_alive": timeout,
        "limit_concurrency": LIMIT_CONCURRENCY,
    }


def run(host: str, port: int, workers: int, timeout: int, db: str | None = None) -> None:
    """Serve :func:`firefight.web.app.serving_app` until Ctrl-C; ``db`` (``--db``) is the
    shared table's journal database, handed to the server processes as ``FIREFIGHT_DB``."""
    import uvicorn  # noqa: PLC0415 - lazy: fast start-up

    processes = compute_processes(pool_size(workers))  # a bad value: one line, exit 2
    os.environ[COMPUTE_PROCESSES] = str(processes)  # for the server processes
    if db:
        os.environ[DB_VARIABLE] = db
    raise_open_files()
    uvicorn.run("firefight.web.app:serving_app", **uvicorn_options(host, port, workers, timeout))
