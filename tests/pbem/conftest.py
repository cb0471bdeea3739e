"""The play-by-e-mail tests run on SQLite and PostgreSQL, as the journal's do."""

from tests.journal.conftest import _no_default_journal, db_url, postgres

__all__ = ["_no_default_journal", "db_url", "postgres"]
