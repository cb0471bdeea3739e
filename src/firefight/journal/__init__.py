"""The journal: every resolution appended to a hash-chained log (docs/journal.md).

``Journal.open(url)`` opens one (SQLite by default, PostgreSQL for a URL), ``append(Draft(...))``
writes an entry and returns it once committed, ``verify()`` walks the chain, ``entries()`` reads
it, ``export_lines()`` and ``merge(lines, source)`` move it as JSON Lines. ``luck`` compares
the outcomes a player obtained with the exact odds of each resolution.
"""

from firefight.journal.canonical import GENESIS, canonical, canonical_text, entry_hash
from firefight.journal.chain import Problem, Verification, verify_entries
from firefight.journal.database import DB_VARIABLE, database_url, default_path
from firefight.journal.entry import KIND_RESOLUTION, Draft, Entry, utc_now
from firefight.journal.store import DEFAULT_NAME, Journal, JournalError, Merge
from firefight.journal.transfer import JournalFileError, read_lines

__all__ = [
    "DB_VARIABLE",
    "DEFAULT_NAME",
    "GENESIS",
    "KIND_RESOLUTION",
    "Draft",
    "Entry",
    "Journal",
    "JournalError",
    "JournalFileError",
    "Merge",
    "Problem",
    "Verification",
    "canonical",
    "canonical_text",
    "database_url",
    "default_path",
    "entry_hash",
    "read_lines",
    "utc_now",
    "verify_entries",
]
