"""Canonical JSON and the SHA-256 of an entry (docs/journal.md, "Canonical JSON").

Canonical JSON is the one byte string a JSON value is hashed as: keys sorted, no whitespace,
UTF-8 (non-ASCII characters as themselves, not ``\\u`` escapes), ``NaN`` and infinities refused,
numbers as Python's ``json`` writes them (integers in full; a float, which no input of a rule
set holds today, in its shortest round-trip form). It follows RFC 8785 (JCS) except that keys
sort by code point rather than by UTF-16 unit, which differ only for characters beyond U+FFFF
in keys, and floats are not rewritten in ECMAScript's form: a verifier in another language
must do the same (the two rules are stated in docs/journal.md).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping

GENESIS = "0" * 64
"""The ``prev`` of a journal's first entry: no entry comes before it."""


def canonical(value: object) -> bytes:
    """The canonical JSON bytes of ``value`` (a JSON value: dict, list, str, int, bool, None)."""
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    ).encode("utf-8")


def canonical_text(value: object) -> str:
    """:func:`canonical` as text."""
    return canonical(value).decode("utf-8")


def sha256_hex(data: bytes) -> str:
    """The SHA-256 of ``data`` in lower-case hexadecimal (64 characters)."""
    return hashlib.sha256(data).hexdigest()


def entry_hash(content: Mapping[str, object]) -> str:
    """The hash an entry holds: SHA-256 of the canonical JSON of its content, which includes
    ``prev`` (the previous entry's hash) and ``seq``, so that the chain binds each entry to all
    the ones before it."""
    return sha256_hex(canonical(dict(content)))
