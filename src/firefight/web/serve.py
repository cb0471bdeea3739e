"""How ``firefight serve`` runs uvicorn: the bounded protocol, its timeouts and the size of the
pool of odds processes (:data:`firefight.web.app.COMPUTE_PROCESSES`).

The command line keeps only its options; the limits live here, beside the protocol that
applies them (README, "Serving the web calculator").

``kill -TERM`` stops the server as Ctrl-C does (uvicorn's graceful shutdown, then the pools
of processes stopped); the pools' processes end with the server process even when it is
killed outright (:func:`firefight.web.compute.Calculator`).
"""

from __future__ import annotations

import errno
import os
import signal
import socket
from functools import partial
from typing import Any

from firefight.errors import FirefightError
from firefight.i18n import gettext as _
from firefight.journal.database import DB_VARIABLE
from firefight.web.app import COMPUTE_PROCESSES, compute_processes
from firefight.web.protocol import BoundedHttpToolsProtocol

LIMIT_CONCURRENCY = 4096
"""Connections and requests in progress a server process takes at once; past it, uvicorn
answers 503 (memory stays bounded: each holds at most a 16 KiB head and a 64 KiB body)."""
OPEN_FILES = 65536
"""The open-file limit the server raises its own soft limit to (within the hard limit), so
that a few thousand idle connections do not keep the next client from being accepted."""


class ListenError(FirefightError):
    """The server cannot listen on the host and port asked for (one taken already, or an
    address not of this machine)."""


def shown_host(host: str) -> str:
    """A host as an address writes it: an IPv6 address in brackets."""
    return f"[{host}]" if ":" in host else host


def check_port(host: str, port: int) -> None:
    """Refuse, in one :class:`ListenError` line naming host and port, a port another program
    listens on (or a host that is no address of this machine), before the server says it
    serves: a socket is bound there as uvicorn binds its own (``SO_REUSEADDR``, so a port a
    stopped server left in ``TIME_WAIT`` is free) and closed at once."""
    where = f"{shown_host(host)}:{port}"
    try:
        addresses = socket.getaddrinfo(
            host, port, socket.AF_UNSPEC, socket.SOCK_STREAM, 0, socket.AI_PASSIVE
        )
    except (socket.gaierror, UnicodeError) as error:
        why = getattr(error, "strerror", None) or str(error)
        raise ListenError(
            _("cannot listen on {where}: {host} is no address here ({why})").format(
                where=where, host=host, why=why
            )
        ) from None
    for family, kind, protocol, _name, address in addresses:
        with socket.socket(family, kind, protocol) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                probe.bind(address)
            except OSError as error:
                if error.errno == errno.EADDRINUSE:
                    message = _(
                        "port {port} on {host} is already in use (another program listens "
                        "there): choose another --port"
                    ).format(port=port, host=shown_host(host))
                else:
                    message = _("cannot listen on {where} ({why})").format(
                        where=where, why=error.strerror or "error"
                    )
                raise ListenError(message) from None


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
    # uvicorn shuts down gracefully on SIGTERM, then raises it again with the handler found at
    # start: the default one ended the process there, before its pools were joined. As Ctrl-C
    # (a KeyboardInterrupt, which uvicorn.run takes as the end), the process ends normally.
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    uvicorn.run("firefight.web.app:serving_app", **uvicorn_options(host, port, workers, timeout))
