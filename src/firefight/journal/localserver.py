"""A throwaway PostgreSQL server in a temporary folder: for the tests and the benchmark.

It runs Debian's ``postgresql`` programs (``initdb``, ``pg_ctl``; found on ``PATH`` or in
``/usr/lib/postgresql/VERSION/bin``) as an unprivileged user: the current one, or ``nobody``
(through ``runuser``) when that is root, which PostgreSQL refuses to run as. It listens only
on a unix socket in its folder (no TCP port to collide with), trusts local connections, and
runs with ``fsync = off``: its data is deleted when it stops, so there is nothing to keep
through a power loss. (The journal's own durability does not rest on it: a client killed
mid-transaction is rolled back by the server, fsync or not.) ``stop()`` is idempotent and is
also registered with :mod:`atexit`, so a failing run stops it too.
"""

from __future__ import annotations

import atexit
import itertools
import os
import shutil
import subprocess
import tempfile
from pathlib import Path
from types import TracebackType

from firefight.errors import FirefightError
from firefight.translation import gettext as _

SUPERUSER = "firefight"
UNPRIVILEGED = "nobody"
START_TIMEOUT_S = 60


class ServerError(FirefightError):
    """The throwaway server could not be started."""


def server_programs() -> Path:
    """The folder of ``initdb`` and ``pg_ctl``: the newest ``/usr/lib/postgresql/*/bin``, else
    the folder of ``pg_ctl`` on ``PATH``."""
    found = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"),
        key=lambda p: int(p.parent.parent.name) if p.parent.parent.name.isdigit() else 0,
    )
    if found:
        return found[-1].parent
    on_path = shutil.which("pg_ctl")
    if on_path:
        return Path(on_path).resolve().parent
    raise ServerError(
        "PostgreSQL's server programs (initdb, pg_ctl) are not installed: "
        "apt-get install postgresql (make test does it)"
    )


class LocalPostgres:
    """``with LocalPostgres() as server: url = server.create_database()``."""

    def __init__(self) -> None:
        self.folder: Path | None = None
        self._names = itertools.count(1)
        self._as_root = os.geteuid() == 0

    @property
    def socket_folder(self) -> Path:
        """Where the server's unix socket lies (its host, to a client)."""
        assert self.folder is not None, "start() first"
        return self.folder

    def url(self, database: str = "postgres") -> str:
        """A ``postgresql://`` URL of ``database`` on this server."""
        return f"postgresql://{SUPERUSER}@/{database}?host={self.socket_folder}"

    def _run(self, *command: str) -> None:
        prefix = ["runuser", "-u", UNPRIVILEGED, "--"] if self._as_root else []
        result = subprocess.run(
            [*prefix, *command],
            cwd=self.folder,
            capture_output=True,
            text=True,
            timeout=START_TIMEOUT_S,
            check=False,
        )
        if result.returncode != 0:
            detail = " ".join((result.stderr or result.stdout).split())[-300:]
            raise ServerError(
                _("{name} failed: {detail}").format(name=Path(command[0]).name, detail=detail)
            )

    def start(self) -> LocalPostgres:
        """Create the cluster and start the server (a few seconds)."""
        if self.folder is not None:
            return self
        programs = server_programs()
        self.folder = Path(tempfile.mkdtemp(prefix="ffpg-"))  # short: a socket path is <108
        atexit.register(self.stop)
        if self._as_root:
            shutil.chown(self.folder, UNPRIVILEGED)
        data = self.folder / "data"
        try:
            self._run(
                str(programs / "initdb"),
                "-D", str(data),
                "-U", SUPERUSER,
                "--auth=trust",
                "--encoding=UTF8",
                "--no-sync",
            )  # fmt: skip
            options = f"-k {self.folder} -c listen_addresses='' -c fsync=off"
            self._run(
                str(programs / "pg_ctl"),
                "-D", str(data),
                "-l", str(self.folder / "server.log"),
                "-o", options,
                "-w", "-t", str(START_TIMEOUT_S),
                "start",
            )  # fmt: skip
        except BaseException:
            self.stop()
            raise
        return self

    def create_database(self, name: str | None = None) -> str:
        """A new, empty database (``journal_N`` unless named); its URL."""
        import psycopg  # noqa: PLC0415 - only where PostgreSQL is used

        chosen = name or f"journal_{os.getpid()}_{next(self._names)}"
        with psycopg.connect(
            host=str(self.socket_folder), user=SUPERUSER, dbname="postgres", autocommit=True
        ) as connection:
            connection.execute(f'CREATE DATABASE "{chosen}"')
        return self.url(chosen)

    def stop(self) -> None:
        """Stop the server (at once) and delete its folder; nothing if not started."""
        folder, self.folder = self.folder, None
        if folder is None:
            return
        data = folder / "data"
        if (data / "postmaster.pid").exists():
            prefix = ["runuser", "-u", UNPRIVILEGED, "--"] if self._as_root else []
            subprocess.run(
                [*prefix, str(server_programs() / "pg_ctl"), "-D", str(data), "-m", "immediate",
                 "-w", "stop"],
                cwd=folder,
                capture_output=True,
                timeout=START_TIMEOUT_S,
                check=False,
            )  # fmt: skip
        shutil.rmtree(folder, ignore_errors=True)

    def __enter__(self) -> LocalPostgres:
        return self.start()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.stop()
