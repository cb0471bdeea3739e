"""Checking a chain of entries: what ``firefight journal verify`` and an import check.

Each entry holds ``prev``, the hash of the entry before it (:data:`GENESIS` for the first), and
``hash``, the SHA-256 of its own canonical content, ``seq`` and ``prev`` included. Editing an
entry changes its content's hash; deleting or moving one breaks the next entry's ``prev`` or
the run of ``seq``; deleting the last ones is caught against the journal's head row, or against
a head kept elsewhere (``--head``: one an opponent saw, a mail received).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from firefight.core.files import FileError, parse_json
from firefight.journal.canonical import GENESIS, canonical_text
from firefight.journal.entry import Entry


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a chain, at entry ``seq`` (0: the journal as a whole)."""

    seq: int
    problem: str

    def to_json(self) -> dict[str, object]:
        """``{"seq", "problem"}``."""
        return {"seq": self.seq, "problem": self.problem}

    def __str__(self) -> str:
        return f"entry {self.seq}: {self.problem}" if self.seq else self.problem


@dataclass(frozen=True)
class Verification:
    """What verifying a journal found: how many entries, the last one's hash, any problems."""

    entries: int
    head: str
    problems: tuple[Problem, ...] = field(default=())

    @property
    def ok(self) -> bool:
        """True when nothing is wrong."""
        return not self.problems

    def to_json(self) -> dict[str, object]:
        """``{"ok", "entries", "head", "problems": [{"seq", "problem"}]}``."""
        return {
            "ok": self.ok,
            "entries": self.entries,
            "head": self.head,
            "problems": [p.to_json() for p in self.problems],
        }


class ChainCheck:
    """Checks entries one by one, in order, keeping only the last one (any length of chain)."""

    def __init__(self, first_seq: int = 1, prev: str = GENESIS) -> None:
        self.expected_seq = first_seq
        self.prev = prev
        self.count = 0
        self.last_seq = first_seq - 1
        self.problems: list[Problem] = []
        self.hashes: set[str] = set()

    def add(self, entry: Entry) -> list[Problem]:
        """Check ``entry`` against the one before; returns (and keeps) what is wrong with it."""
        found: list[Problem] = []
        if entry.seq != self.expected_seq:
            if entry.seq > self.expected_seq:
                gap = (
                    f"entry {self.expected_seq}"
                    if entry.seq == self.expected_seq + 1
                    else f"entries {self.expected_seq} to {entry.seq - 1}"
                )
                found.append(Problem(entry.seq, f"{gap} missing before it (deleted)"))
            else:
                found.append(
                    Problem(entry.seq, f"out of order: entry {self.expected_seq} expected")
                )
        if entry.prev != self.prev:
            found.append(
                Problem(
                    entry.seq,
                    "its prev is not the hash of the entry before it "
                    "(an entry before it was edited, deleted or moved)",
                )
            )
        if entry.computed_hash() != entry.hash:
            found.append(Problem(entry.seq, "its hash does not match its content (edited)"))
        self.expected_seq = entry.seq + 1
        self.prev = entry.hash
        self.last_seq = entry.seq
        self.count += 1
        self.hashes.add(entry.hash)
        self.problems.extend(found)
        return found

    def finish(
        self, head: tuple[int, str] | None = None, known_heads: Iterable[str] = ()
    ) -> Verification:
        """The verdict, with the stored head (``(seq, hash)``) and heads known from elsewhere."""
        problems = list(self.problems)
        if head is not None and (head[0], head[1]) != (self.last_seq, self.prev):
            problems.append(
                Problem(
                    0,
                    f"the journal's head is entry {head[0]} ({head[1][:12]}…) but its last "
                    f"entry is {self.last_seq} ({self.prev[:12]}…): entries deleted from its "
                    "end, or written past the journal",
                )
            )
        problems.extend(
            Problem(
                0,
                f"head {known[:12]}… given is not in the journal (rewritten or cut before it)",
            )
            for known in known_heads
            if known != GENESIS and known not in self.hashes
        )
        return Verification(self.count, self.prev, tuple(problems))


def verify_entries(
    entries: Iterable[Entry],
    head: tuple[int, str] | None = None,
    known_heads: Iterable[str] = (),
) -> Verification:
    """Verify a whole chain from its first entry."""
    check = ChainCheck()
    for entry in entries:
        check.add(entry)
    return check.finish(head, known_heads)


def body_of(text: str) -> tuple[dict[str, Any] | None, str | None]:
    """A stored body parsed (bounded: :func:`firefight.core.files.parse_json`), and what is
    wrong with it: ``(None, problem)`` when the text is not a JSON object this reader accepts;
    ``(body, problem)`` when it is one but not stored as its canonical JSON, byte for byte (a
    row edited with added whitespace or a duplicate key hashes as its parsed body would, so
    only the stored text shows it); ``(body, None)`` when it is sound."""
    try:
        value = parse_json(text, "body")
    except FileError as error:
        return None, f"its body is not a JSON object this journal reads (edited): {error.problem}"
    if not isinstance(value, dict):
        return None, "its body is not a JSON object (edited)"
    try:
        same = canonical_text(value) == text
    except ValueError:  # NaN, an infinity or a lone surrogate: no canonical form
        same = False
    if not same:
        return value, "its body is not stored as its canonical JSON (edited)"
    return value, None
