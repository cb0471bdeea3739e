"""The journal's tables (SQLAlchemy Core), the same on SQLite and PostgreSQL.

The schema is created and changed only by the Alembic migrations in ``migrations/``, run when a
journal is opened; these objects describe it for queries. Several journals can share a database
(one per game, say): each row names its journal.
"""

from __future__ import annotations

from sqlalchemy import BigInteger, Column, MetaData, String, Table, Text, UniqueConstraint

METADATA = MetaData()

entries = Table(
    "journal_entry",
    METADATA,
    Column("journal", String(100), primary_key=True),
    Column("seq", BigInteger, primary_key=True, autoincrement=False),
    Column("kind", String(40), nullable=False),
    Column("time", String(40), nullable=False),
    Column("who", String(200), nullable=False),
    # The body as its canonical JSON text: the bytes hashed are the bytes stored, on both
    # databases (PostgreSQL's jsonb would reorder keys and renormalize numbers).
    Column("body", Text, nullable=False),
    Column("prev", String(64), nullable=False),
    Column("hash", String(64), nullable=False),
    UniqueConstraint("journal", "hash", name="uq_journal_entry_hash"),
)
"""One row per entry; ``(journal, seq)`` is the key, so two writers cannot fork a chain."""

heads = Table(
    "journal_head",
    METADATA,
    Column("journal", String(100), primary_key=True),
    Column("seq", BigInteger, nullable=False),
    Column("hash", String(64), nullable=False),
)
"""Each journal's last entry, written in the same transaction as the entry: a row deleted from
the end of a chain (which the chain alone cannot show) is caught against it, and appending
locks this row, so writers take turns."""
