"""One journal entry: what happened, who did it and when, chained to the entry before."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from firefight.core.files import MAX_DEPTH, check_shape
from firefight.errors import InputError
from firefight.journal.canonical import canonical_text, entry_hash
from firefight.translation import gettext as _

CONTENT_FIELDS = ("seq", "kind", "time", "who", "body", "prev")
"""The fields whose canonical JSON an entry's hash covers (all but the hash itself)."""
ENTRY_FIELDS = (*CONTENT_FIELDS, "hash")

KIND_RESOLUTION = "resolution"
"""The kind of an entry that records one resolution of a procedure (``firefight resolve``)."""

JsonObject = dict[str, Any]

WHO_MAX = 200
"""The longest ``who`` (a player's name): the database column's width."""
KIND_MAX = 40
"""The longest ``kind`` (``resolution``, ``pbem-declare``…): the database column's width."""
TIME_MAX = 40
"""The longest ``time``: the database column's width (firefight writes 27 characters)."""
BODY_VALUES_MAX = 100_000
"""The most values (scalars, arrays and objects together) an entry's body may hold: a
resolution with its trace and odds holds a few hundred."""
BODY_DEPTH_MAX = MAX_DEPTH - 1
"""The deepest nesting of a body: one level under the most a JSON line may hold, the entry's
own object being the first."""


def check_entry(
    who: str, kind: str, time: str, body: Mapping[str, Any], who_field: str = "who"
) -> None:
    """Refuse an entry's ``who``, ``kind``, ``time`` or ``body`` past the journal's limits: the
    one check of an entry appended and of a line imported (``who_field``: how the caller names
    ``who``, e.g. ``player`` for ``--player``)."""
    for name, value, limit in (
        (who_field, who, WHO_MAX),
        ("kind", kind, KIND_MAX),
        ("time", time, TIME_MAX),
    ):
        if not isinstance(value, str) or not 1 <= len(value) <= limit:
            raise InputError(name, _("text of 1 to {limit} characters").format(limit=limit), value)
    check_shape(dict(body), "body", BODY_DEPTH_MAX, BODY_VALUES_MAX)


def utc_now() -> str:
    """The current time as ISO 8601 UTC with microseconds (``2026-11-30T21:08:52.123456Z``)."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


@dataclass(frozen=True)
class Draft:
    """An entry to append: the journal gives it its ``seq``, ``prev`` and ``hash``.

    ``body`` is any JSON object (a resolution's ``{"ruleset", "procedure", "input", "dice",
    "outcome", "trace", "odds", ...}``, or another kind's own shape); ``time`` defaults to now.
    """

    who: str
    body: Mapping[str, Any]
    kind: str = KIND_RESOLUTION
    time: str = field(default_factory=utc_now)


@dataclass(frozen=True)
class Entry:
    """An entry as stored: its content (``seq``, ``kind``, ``time``, ``who``, ``body``,
    ``prev``) and ``hash``, the SHA-256 of the content's canonical JSON."""

    seq: int
    kind: str
    time: str
    who: str
    body: JsonObject
    prev: str
    hash: str

    def content(self) -> JsonObject:
        """What the hash covers."""
        return {
            "seq": self.seq,
            "kind": self.kind,
            "time": self.time,
            "who": self.who,
            "body": self.body,
            "prev": self.prev,
        }

    def computed_hash(self) -> str:
        """The hash the content gives now (equal to ``hash`` unless the entry was edited)."""
        return entry_hash(self.content())

    def to_json(self) -> JsonObject:
        """The entry as one JSON object (a line of ``firefight journal export``)."""
        return {**self.content(), "hash": self.hash}

    def to_line(self) -> str:
        """The entry's canonical JSON, as exported (one line of JSON Lines)."""
        return canonical_text(self.to_json())

    @classmethod
    def chained(cls, draft: Draft, seq: int, prev: str) -> Entry:
        """``draft`` as entry ``seq`` after the entry whose hash is ``prev``."""
        body: JsonObject = json.loads(canonical_text(dict(draft.body)))  # a plain JSON copy
        content = {
            "seq": seq,
            "kind": draft.kind,
            "time": draft.time,
            "who": draft.who,
            "body": body,
            "prev": prev,
        }
        return cls(**content, hash=entry_hash(content))  # type: ignore[arg-type]

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Entry:
        """An entry from its JSON object; the caller checks the fields' types first."""
        return cls(**{name: data[name] for name in ENTRY_FIELDS})
