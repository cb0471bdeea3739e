"""The :class:`Journal`: append, read, verify, export and import a hash-chained journal."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

from sqlalchemy import (
    ColumnElement,
    Connection,
    Engine,
    Insert,
    RowMapping,
    Table,
    and_,
    func,
    select,
    update,
)
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import URL
from sqlalchemy.exc import DBAPIError, SQLAlchemyError

from firefight.errors import FirefightError, InputError, one_of, quoted
from firefight.journal.canonical import GENESIS, canonical_text
from firefight.journal.chain import ChainCheck, Problem, Verification, body_of
from firefight.journal.database import (
    WRITE,
    database_url,
    make_engine,
    migrate,
    schema_revision,
    shown,
)
from firefight.journal.entry import Draft, Entry, check_entry
from firefight.journal.schema import entries, heads
from firefight.translation import N_, gettext

DEFAULT_NAME = "main"
"""The journal's name when none is given (a database can hold several, one per game)."""
NAME_MAX = 100
NAMES_SHOWN = 20
"""At most this many of a database's journal names are listed in an error (a club's server may
hold hundreds)."""
READ_CHUNK = 1000
"""Entries read per query when walking a journal (memory stays flat for any length)."""


class JournalError(FirefightError):
    """The journal cannot be opened, read or written (one line, as every user error)."""


@dataclass(frozen=True)
class Merge:
    """What an import did: entries added, entries the journal already held."""

    added: int
    present: int

    def to_json(self) -> dict[str, int]:
        """``{"added", "present"}``."""
        return {"added": self.added, "present": self.present}


def _text_field(name: str, value: str, limit: int) -> str:
    if not value or len(value) > limit:
        raise InputError(
            name, gettext("text of 1 to {limit} characters").format(limit=limit), value
        )
    return value


class Journal:
    """A hash-chained journal of resolutions in a SQLite or PostgreSQL database.

    ``Journal.open(url)`` runs the migrations and returns it; ``append`` writes one entry in one
    transaction and returns it once committed; ``verify`` walks the chain.
    """

    def __init__(self, engine: Engine, url: URL, name: str) -> None:
        self.engine = engine
        self.url = url
        self.name = name

    @classmethod
    def open(
        cls, url: str | None = None, name: str = DEFAULT_NAME, *, create: bool = True
    ) -> Journal:
        """Open (creating and migrating as needed) the journal ``name`` at ``url`` (``None``:
        ``FIREFIGHT_DB``, else the default SQLite file). ``create=False`` opens it to read
        only: nothing is created, migrated or written (a read-only database user can), a SQLite
        file that is not there is an :class:`InputError` on ``db``, and a journal the database
        does not hold one on ``name``, naming those it holds."""
        _text_field("name", name, NAME_MAX)
        chosen = database_url(url)
        if not create:
            return cls._for_reading(chosen, name)
        try:
            engine = make_engine(chosen)
        except OSError as error:  # the SQLite file's folder cannot be made
            raise JournalError(
                gettext("cannot open the journal at {shown}: {reason}").format(
                    shown=shown(chosen), reason=error.strerror or error
                )
            ) from None
        journal = cls(engine, chosen, name)
        try:
            with journal._writing() as connection:
                migrate(connection)
                connection.execute(
                    journal._insert_ignore(heads, {"journal": name, "seq": 0, "hash": GENESIS})
                )
        except SQLAlchemyError as error:
            journal.close()
            raise journal._failure(
                N_("cannot open the journal at {where}: {detail}"), error
            ) from None
        return journal

    @classmethod
    def _for_reading(cls, chosen: URL, name: str) -> Journal:
        if chosen.drivername == "sqlite" and not Path(str(chosen.database)).is_file():
            allowed = N_("an existing journal database (reading never creates one)")
            raise InputError("db", allowed, str(chosen.database))
        journal = cls(make_engine(chosen, read_only=True), chosen, name)
        try:
            with journal._reading() as connection:
                current, newest = schema_revision(connection)
                if current is not None and current != newest:
                    raise JournalError(
                        gettext(
                            "cannot read the journal at {where}: its schema is revision {current}, "
                            "this "
                            "firefight reads {newest} (a command that writes to it migrates it)"
                        ).format(where=journal.where, current=current, newest=newest)
                    )
                held = (
                    []
                    if current is None
                    else [
                        str(n)
                        for n in connection.execute(
                            select(heads.c.journal).order_by(heads.c.journal)
                        ).scalars()
                    ]
                )
        except SQLAlchemyError as error:
            journal.close()
            raise journal._failure(
                N_("cannot open the journal at {where}: {detail}"), error
            ) from None
        except FirefightError:
            journal.close()
            raise
        if name not in held:
            journal.close()
            shown = [quoted(h) for h in held[:NAMES_SHOWN]]
            if len(held) > NAMES_SHOWN:
                shown.append(f"… ({len(held)} in all)")
            allowed = one_of(shown) if held else "a journal of the database (it holds none yet)"
            raise InputError("name", allowed, name)
        return journal

    @property
    def where(self) -> str:
        """The database as shown to a user (no password)."""
        return shown(self.url)

    def close(self) -> None:
        """Release the database connections."""
        self.engine.dispose()

    def __enter__(self) -> Journal:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()

    # writing

    def append(self, draft: Draft) -> Entry:
        """Append ``draft`` as the next entry; returned only once committed (durable)."""
        check_entry(draft.who, draft.kind, draft.time, draft.body, who_field="player")
        try:
            with self._writing() as connection:
                seq, prev = self._locked_head(connection)
                entry = Entry.chained(draft, seq + 1, prev)
                self._insert(connection, entry)
                return entry
        except SQLAlchemyError as error:
            raise self._failure(
                N_("cannot write to the journal at {where}: {detail}"), error
            ) from None

    def merge(self, lines: Iterable[str], source: str) -> Merge:
        """Import exported JSON Lines: the file must verify on its own, agree with every entry
        the journal already holds and continue its chain; all of it is written, or nothing."""
        from firefight.journal.transfer import read_lines  # noqa: PLC0415

        incoming = read_lines(lines, source)
        present = 0
        try:
            with self._writing() as connection:
                seq, prev = self._locked_head(connection)
                held = {
                    int(r.seq): str(r.hash)
                    for r in connection.execute(
                        select(entries.c.seq, entries.c.hash).where(
                            entries.c.journal == self.name,
                            entries.c.seq >= incoming[0].seq,
                            entries.c.seq <= min(seq, incoming[-1].seq),
                        )
                    )
                }
                new: list[Entry] = []
                for entry in incoming:
                    if entry.seq <= seq:
                        if held.get(entry.seq) != entry.hash:
                            raise JournalError(
                                gettext(
                                    "{source}: entry {seq} differs from the journal's (the two "
                                    "journals diverge "
                                    "there)"
                                ).format(source=source, seq=entry.seq)
                            )
                        present += 1
                        continue
                    if entry.seq != seq + 1 or entry.prev != prev:
                        raise JournalError(
                            gettext(
                                "{source}: entry {seq} does not continue the journal (it has "
                                "{entries} entries, "
                                "head {prev}…)"
                            ).format(source=source, seq=entry.seq, entries=seq, prev=prev[:12])
                        )
                    new.append(entry)
                    seq, prev = entry.seq, entry.hash
                if new:
                    self._insert(connection, *new)
        except SQLAlchemyError as error:
            raise self._failure(
                N_("cannot import into the journal at {where}: {detail}"), error
            ) from None
        added = len(new)
        return Merge(added, present)

    # reading

    def head(self) -> tuple[int, str]:
        """``(seq, hash)`` of the last entry (``(0, GENESIS)`` for an empty journal), as the
        head row records it."""
        with self._reading() as connection:
            row = connection.execute(
                select(heads.c.seq, heads.c.hash).where(heads.c.journal == self.name)
            ).one_or_none()
        return (0, GENESIS) if row is None else (int(row.seq), str(row.hash))

    def count(self) -> int:
        """How many entries the journal holds."""
        with self._reading() as connection:
            return int(
                connection.execute(
                    select(func.count()).select_from(entries).where(entries.c.journal == self.name)
                ).scalar_one()
            )

    def entry(self, seq: int) -> Entry:
        """Entry ``seq`` (an :class:`InputError` naming the range when there is none)."""
        with self._reading() as connection:
            row = connection.execute(select(entries).where(self._is(seq))).one_or_none()
        if row is None:
            last = self.head()[0]
            allowed = f"an entry of the journal, 1 to {last}" if last else "an entry (none yet)"
            raise InputError("seq", allowed, seq)
        return _entry(row._mapping)[0]

    def entries(self, start: int = 1, stop: int | None = None) -> Iterator[Entry]:
        """The entries from ``start`` to ``stop`` (inclusive; ``None``: the last), in order,
        read in chunks."""
        for row, _ in self._rows(start, stop):
            yield row

    def verify(self, known_heads: Iterable[str] = ()) -> Verification:
        """Walk the whole chain: every hash recomputed, every link and ``seq`` checked, the last
        entry checked against the head row and against ``known_heads`` (hashes seen elsewhere,
        which must still be entries of the chain)."""
        check = ChainCheck()
        for entry, problem in self._rows(1, None):
            check.add(entry)
            if problem:
                check.problems.append(Problem(entry.seq, problem))
        return check.finish(self.head(), known_heads)

    def export_lines(self) -> Iterator[str]:
        """The journal as JSON Lines: each entry's canonical JSON, in order."""
        for entry in self.entries():
            yield entry.to_line()

    # internals

    def _rows(self, start: int, stop: int | None) -> Iterator[tuple[Entry, str | None]]:
        position = start
        while True:
            query = (
                select(entries)
                .where(entries.c.journal == self.name, entries.c.seq >= position)
                .order_by(entries.c.seq)
                .limit(READ_CHUNK)
            )
            if stop is not None:
                query = query.where(entries.c.seq <= stop)
            try:
                with self._reading() as connection:
                    rows = connection.execute(query).all()
            except SQLAlchemyError as error:
                raise self._failure(
                    N_("cannot read the journal at {where}: {detail}"), error
                ) from None
            for row in rows:
                yield _entry(row._mapping)
            if len(rows) < READ_CHUNK:
                return
            position = int(rows[-1].seq) + 1

    def _is(self, seq: int) -> ColumnElement[bool]:
        return and_(entries.c.journal == self.name, entries.c.seq == seq)

    @contextmanager
    def _writing(self) -> Iterator[Connection]:
        """A connection in a write transaction, committed on leaving (rolled back on error)."""
        with (
            self.engine.connect().execution_options(**{WRITE: True}) as connection,
            connection.begin(),
        ):
            yield connection

    @contextmanager
    def _reading(self) -> Iterator[Connection]:
        with self.engine.connect() as connection:
            yield connection

    def _locked_head(self, connection: Connection) -> tuple[int, str]:
        query = select(heads.c.seq, heads.c.hash).where(heads.c.journal == self.name)
        if connection.dialect.name == "postgresql":
            query = query.with_for_update()
        row = connection.execute(query).one()
        return int(row.seq), str(row.hash)

    def _insert(self, connection: Connection, *written: Entry) -> None:
        """Insert entries that continue the chain (in order) and move the head to the last."""
        connection.execute(
            entries.insert(),
            [
                {
                    "journal": self.name,
                    "seq": entry.seq,
                    "kind": entry.kind,
                    "time": entry.time,
                    "who": entry.who,
                    "body": canonical_text(entry.body),
                    "prev": entry.prev,
                    "hash": entry.hash,
                }
                for entry in written
            ],
        )
        last = written[-1]
        connection.execute(
            update(heads).where(heads.c.journal == self.name).values(seq=last.seq, hash=last.hash)
        )

    def _insert_ignore(self, table: Table, values: dict[str, object]) -> Insert:
        insert = pg_insert if self.url.drivername.startswith("postgresql") else sqlite_insert
        return insert(table).values(**values).on_conflict_do_nothing()

    def _failure(self, failed: str, error: SQLAlchemyError) -> JournalError:
        """``failed``: the message saying what could not be done (``{where}``, ``{detail}``)."""
        cause = error.orig if isinstance(error, DBAPIError) else error
        detail = " ".join(str(cause).split()) or type(cause).__name__
        if len(detail) > 160:
            detail = detail[:159] + "…"
        return JournalError(gettext(failed).format(where=self.where, detail=detail))


def _entry(row: RowMapping) -> tuple[Entry, str | None]:
    """The entry of a row, and what is wrong with its stored body (``None``: nothing): a body
    that is not a JSON object, or not stored as its canonical text, reads as ``{}``."""
    body, problem = body_of(row["body"])
    entry = Entry(
        seq=int(row["seq"]),
        kind=row["kind"],
        time=row["time"],
        who=row["who"],
        body={} if body is None else body,
        prev=row["prev"],
        hash=row["hash"],
    )
    return entry, problem


def dumps(entry: Entry) -> str:
    """An entry as indented JSON (``firefight journal show --json``)."""
    return json.dumps(entry.to_json(), indent=2, ensure_ascii=False)
