"""The throwaway PostgreSQL of the tests on the real databases: ``make test`` installs Debian's
package without a question, the tests start the server in a temporary folder as an unprivileged
user, and it is stopped afterwards — by ``stop()``, and by :mod:`atexit` when a test process ends
without it — leaving no process and no folder."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import psycopg

from firefight.journal.localserver import LocalPostgres

ROOT = Path(__file__).resolve().parents[2]


def _running(pid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return False
    return re.search(r"^State:\s+Z", status, re.MULTILINE) is None  # a zombie has stopped


def _postmaster(folder: Path) -> int:
    return int((folder / "data" / "postmaster.pid").read_text().split()[0])


def test_the_tests_postgresql_runs_unprivileged_in_a_temporary_folder_and_stops():
    server = LocalPostgres().start()
    folder = server.socket_folder
    pid = _postmaster(folder)
    try:
        assert _running(pid)
        assert Path(f"/proc/{pid}").stat().st_uid != 0  # never as root
        with psycopg.connect(server.url()) as connection:
            assert connection.execute("SELECT 1").fetchone() == (1,)
    finally:
        server.stop()
    assert not _running(pid)
    assert not folder.exists()


def test_a_test_process_that_ends_without_stopping_its_postgresql_stops_it_at_exit():
    script = (
        "from firefight.journal.localserver import LocalPostgres\n"
        "server = LocalPostgres().start()\n"
        "print(server.socket_folder, flush=True)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
    )
    folder = Path(done.stdout.strip())
    assert folder.name.startswith("ffpg-")
    assert not folder.exists()  # atexit stopped the server and deleted its folder
    left = subprocess.run(
        ["pgrep", "-f", f"postgres.*-D {folder}/data"], capture_output=True, check=False
    )
    assert left.stdout == b""


def test_make_test_installs_its_packages_without_a_question_and_stops_a_packaged_cluster():
    """On a fresh machine ``make test`` installs chromium and postgresql with apt-get: without
    ``DEBIAN_FRONTEND=noninteractive`` a package's question (tzdata's) waits for an answer
    nobody gives; a cluster the package's install starts is stopped (the tests run their own)."""
    recipe = (ROOT / "Makefile").read_text()
    assert "APT_INSTALL := DEBIAN_FRONTEND=noninteractive apt-get install -y" in recipe
    test_target = recipe.split("\ntest:", 1)[1].split("\n\n", 1)[0]
    apt = [line for line in test_target.splitlines() if "apt-get" in line]
    assert len(apt) == 2  # chromium, postgresql
    assert all("$(APT_INSTALL)" in line and "apt-get install" not in line for line in apt)
    assert "postgresql && (service postgresql stop || true)" in test_target
