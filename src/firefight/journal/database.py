"""Where a journal lives: a database URL, an engine, and the migrations run on open.

SQLite by default (one file in the user's data folder, found by ``platformdirs``), PostgreSQL
when given a ``postgresql://`` URL (``--db`` or ``FIREFIGHT_DB``). Both go through SQLAlchemy
Core with one code path; only the connection set-up differs: SQLite gets WAL, ``synchronous =
FULL`` (a commit reported is on disk) and ``BEGIN IMMEDIATE`` for writes (writers take turns
from the start of their transaction); PostgreSQL gets psycopg 3 and row locks.
"""

from __future__ import annotations

import os
import re
import sqlite3
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import quote

from sqlalchemy import Connection, Engine, create_engine, event, text
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError

from firefight.errors import InputError
from firefight.translation import N_

if TYPE_CHECKING:
    from alembic.script import ScriptDirectory

DB_VARIABLE = "FIREFIGHT_DB"
"""The environment variable naming the journal's database when ``--db`` is not given."""
DEFAULT_FILE = "journal.sqlite3"
WRITE = "firefight_write"
"""Execution option of a connection that will write: SQLite begins it ``IMMEDIATE``."""
BUSY_TIMEOUT_MS = 30_000
"""How long a SQLite writer waits for another to finish before giving up."""
ALLOWED = N_("a postgresql:// or sqlite:/// URL, or a file path")
IN_MEMORY = ":memory:"
"""``--db :memory:``: a SQLite journal in memory, gone when the command ends (``journal import
FILE --db :memory:`` checks a file as an import would, keeping nothing)."""


def default_path() -> Path:
    """The default journal: ``journal.sqlite3`` in the user's data folder (platformdirs)."""
    from platformdirs import user_data_path  # noqa: PLC0415 - only when no URL is given

    return user_data_path("firefight", appauthor=False) / DEFAULT_FILE


def database_url(given: str | None = None) -> URL:
    """The URL of the journal's database: ``given`` (``--db``), else ``FIREFIGHT_DB``, else the
    default SQLite file. A path without ``://`` is a SQLite file; ``postgresql://`` uses psycopg
    3."""
    chosen = given if given else os.environ.get(DB_VARIABLE) or None
    if chosen is None:
        return URL.create("sqlite", database=str(default_path()))
    if chosen == IN_MEMORY:
        return URL.create("sqlite", database=IN_MEMORY)
    if "://" not in chosen:
        return URL.create("sqlite", database=str(Path(chosen).expanduser()))
    try:
        url = make_url(chosen)
    except (ArgumentError, ValueError):  # ValueError: a port or an IPv6 host it cannot read
        raise InputError("db", ALLOWED, without_password(chosen)) from None
    if url.drivername in {"postgresql", "postgres", "postgresql+psycopg"}:
        return url.set(drivername="postgresql+psycopg")
    if url.drivername == "sqlite" and url.database not in {None, "", ":memory:"}:
        return url
    raise InputError("db", ALLOWED, without_password(chosen))


def without_password(text: str) -> str:
    """A URL as given, its password (``user:PASSWORD@``) shown as ``***``: what an error
    echoes of a URL it refused, which SQLAlchemy may not have been able to read."""
    return re.sub(r"(://[^/?#@:]*:)[^/?#]*@", r"\1***@", text, count=1)


def shown(url: URL) -> str:
    """The URL as printed to a user: no password."""
    if url.drivername == "sqlite":
        return str(url.database)
    return url.render_as_string(hide_password=True)


def make_engine(url: URL, *, read_only: bool = False) -> Engine:
    """An engine for ``url``, set up for the journal's durability and locking. ``read_only``:
    a SQLite file is never created, its folder is not made, no pragma is set and only
    ``SELECT`` is sent (:func:`_reading_mode`); PostgreSQL only ever reads through it."""
    if url.drivername == "sqlite":
        assert url.database is not None
        if read_only:
            uri = f"file:{quote(url.database)}?{_reading_mode(url.database)}"
            engine = create_engine(url.set(database=uri, query={"uri": "true"}))
            event.listen(engine, "connect", _sqlite_connect_reading)
        else:
            Path(url.database).parent.mkdir(parents=True, exist_ok=True)
            engine = create_engine(url)
            event.listen(engine, "connect", _sqlite_connect)
        event.listen(engine, "begin", _sqlite_begin)
        return engine
    return create_engine(url, pool_pre_ping=True)


def _reading_mode(database: str) -> str:
    """How a reader opens a SQLite file: ``mode=rw`` when this user can write the file and its
    folder (a reader that may write tidies the ``-wal`` and ``-shm`` files away when it closes,
    as a writer does); ``mode=ro`` when only the folder can be written (the reader makes the
    ``-shm`` file a WAL journal needs, and leaves it); ``mode=ro&immutable=1`` when the folder
    cannot be written either (a read-only mount, another user's folder): the ``-shm`` file
    cannot be made, so the file is read as it stands on disk, without locks, as SQLite reads
    a read-only medium (a ``-wal`` file left beside it is not read, and a writer working on
    it meanwhile could show this reader a torn state)."""
    folder = os.path.dirname(os.path.abspath(database))
    if not os.access(folder, os.W_OK):
        return "mode=ro&immutable=1"
    return "mode=rw" if os.access(database, os.W_OK) else "mode=ro"


def _sqlite_connect_reading(dbapi_connection: sqlite3.Connection, _record: object) -> None:
    # no journal_mode or synchronous pragma: a read-only connection sets nothing
    dbapi_connection.isolation_level = None
    dbapi_connection.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}").close()


def _sqlite_connect(dbapi_connection: sqlite3.Connection, _record: object) -> None:
    # The driver's own transaction handling is off, so that BEGIN is ours (SQLAlchemy's recipe
    # for pysqlite); WAL lets readers read while one writes; FULL syncs the WAL at each commit.
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    cursor.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    cursor.execute("PRAGMA journal_mode = WAL")
    cursor.execute("PRAGMA synchronous = FULL")
    cursor.close()


def _sqlite_begin(connection: Connection) -> None:
    writing = connection.get_execution_options().get(WRITE, False)
    connection.exec_driver_sql("BEGIN IMMEDIATE" if writing else "BEGIN")


@cache
def _script_directory() -> ScriptDirectory:
    from alembic.script import ScriptDirectory  # noqa: PLC0415 - heavy, once per process

    return ScriptDirectory(str(Path(__file__).parent / "migrations"))


def migrate(connection: Connection) -> str | None:
    """Bring the schema to the newest migration, in the caller's transaction (which holds the
    write lock: SQLite's ``BEGIN IMMEDIATE``, or a PostgreSQL advisory lock taken here).
    Returns the revision it started from (``None``: a new database)."""
    from alembic.runtime.migration import MigrationContext  # noqa: PLC0415 - heavy

    if connection.dialect.name == "postgresql":
        connection.execute(text("SELECT pg_advisory_xact_lock(1717171717)"))
    current = MigrationContext.configure(connection).get_current_revision()
    head = _script_directory().get_current_head()
    if current == head:
        return current
    from alembic import command  # noqa: PLC0415
    from alembic.config import Config  # noqa: PLC0415

    config = Config()
    config.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    config.attributes["connection"] = connection
    command.upgrade(config, "head")
    return current


def schema_revision(connection: Connection) -> tuple[str | None, str]:
    """``(the database's schema revision, the newest migration's)``, read without writing
    anything (``None``: firefight never wrote to this database)."""
    from alembic.runtime.migration import MigrationContext  # noqa: PLC0415 - heavy

    current = MigrationContext.configure(connection).get_current_revision()
    head = _script_directory().get_current_head()
    assert head is not None
    return current, head
