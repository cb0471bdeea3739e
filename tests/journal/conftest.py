"""The journal's tests run on both databases: SQLite (a file in the test's folder) and
PostgreSQL (a throwaway server started here, once per test process, and stopped at the end of
the session, failed or not; each test gets a new database on it)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from firefight.journal.localserver import LocalPostgres

DATABASES = ("sqlite", "postgresql")


@pytest.fixture(scope="session")
def postgres() -> Iterator[LocalPostgres]:
    """One PostgreSQL server for this test process (xdist: one per worker that needs it)."""
    with LocalPostgres() as server:
        yield server


@pytest.fixture(params=DATABASES)
def db_url(request: pytest.FixtureRequest, tmp_path) -> str:
    """A new, empty journal database: a SQLite file, or a database on the PostgreSQL server."""
    if request.param == "sqlite":
        return str(tmp_path / "journal.sqlite3")
    server: LocalPostgres = request.getfixturevalue("postgres")
    return server.create_database()


@pytest.fixture(autouse=True)
def _no_default_journal(monkeypatch, tmp_path):
    """No test writes to the user's data folder: the default database is in the test's
    folder, and the journaling and player settings start unset."""
    monkeypatch.setenv("FIREFIGHT_DB", str(tmp_path / "default.sqlite3"))
    monkeypatch.delenv("FIREFIGHT_JOURNAL", raising=False)
    monkeypatch.delenv("FIREFIGHT_PLAYER", raising=False)
