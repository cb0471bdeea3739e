"""Alembic's environment for the journal: migrations run on the connection that opened it.

:func:`firefight.journal.migrate.upgrade` passes that connection in
``config.attributes["connection"]``, inside the transaction that holds the journal's lock, so
a migration is all or nothing, and two processes opening a new journal migrate it once.
"""

from __future__ import annotations

from alembic import context

from firefight.journal.schema import METADATA

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=METADATA, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
