"""Export and import: a journal as JSON Lines, one entry's canonical JSON per line.

A file imported is checked whole before anything is written: each line a JSON object with
exactly the entry's fields, of their types; the lines a chain (``seq`` running on by one, each
``prev`` the hash before it, each hash its content's). The first line's error is reported, as
one line naming the file, the line and the field.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from contextlib import nullcontext
from pathlib import Path

from firefight.core.files import FileError, loader, parse_json
from firefight.errors import FirefightError, InputError
from firefight.journal.canonical import GENESIS, canonical, canonical_text
from firefight.journal.chain import ChainCheck
from firefight.journal.entry import ENTRY_FIELDS, Draft, Entry, check_entry
from firefight.translation import gettext as _

HASH_LENGTH = 64
SEQ_MAX = 2**62
"""The largest entry number imported: both databases store ``seq`` as a 64-bit BIGINT, and
this leaves room for the entries appended after it (``firefight journal show`` takes the same
range)."""


MAX_LINE_BYTES = 16 * 1024 * 1024
"""The longest line an imported file may hold: an entry (a resolution with its trace and odds)
takes a few KiB, and a line is read whole before it is parsed, so a longer one (or a file with
no line end at all, such as ``/dev/zero``) is refused as it is read."""


class JournalFileError(FirefightError):
    """An exported journal file that cannot be imported (one line: file, line, what)."""

    def __init__(self, source: str, line: int, what: str) -> None:
        super().__init__(f"{source} line {line}: {what}")


def _field_error(name: str, allowed: str, got: object) -> str:
    return str(InputError(name, allowed, got))  # the one-line error's words


def parse_line(text: str, source: str, number: int) -> Entry:
    """One exported line as an :class:`Entry`: bounded JSON, its fields' types checked, the
    limits of an entry appended (:func:`~firefight.journal.entry.check_entry`), and the line
    its entry's canonical JSON, byte for byte (the form its hash and the database keep)."""
    try:
        data = parse_json(text, source)
    except FileError as error:  # not JSON, too deep, too many values, too long a number
        raise JournalFileError(source, number, error.problem) from None
    try:  # json reads NaN, 1e400 (infinity) and lone surrogates, which no hash can cover
        canonical(data)
    except ValueError:
        what = "not canonical JSON (NaN, infinities and lone surrogates have no canonical form)"
        raise JournalFileError(source, number, what) from None
    if not isinstance(data, dict):
        raise JournalFileError(source, number, "not a JSON object (an entry is one)")
    _check_types(data, source, number)
    try:
        check_entry(data["who"], data["kind"], data["time"], data["body"])
    except FirefightError as error:
        raise JournalFileError(source, number, str(error)) from None
    if canonical_text(data) != text:
        what = (
            "not canonical JSON (a line is the entry's canonical JSON, as 'journal export' "
            "writes it: keys sorted and once each, no spaces)"
        )
        raise JournalFileError(source, number, what)
    return Entry.from_json(data)


def _check_types(data: dict[str, object], source: str, number: int) -> None:
    """An entry's fields, exactly, each of its type."""
    names = set(data)
    if names != set(ENTRY_FIELDS):
        missing = [n for n in ENTRY_FIELDS if n not in names]
        extra = sorted(names - set(ENTRY_FIELDS))
        what = f"missing {', '.join(missing)}" if missing else f"unknown {', '.join(extra)}"
        raise JournalFileError(
            source,
            number,
            _("an entry has the fields {entry_fields} ({what})").format(
                entry_fields=", ".join(ENTRY_FIELDS), what=what
            ),
        )
    seq = data["seq"]
    if not isinstance(seq, int) or isinstance(seq, bool) or seq < 1:
        raise JournalFileError(source, number, _field_error("seq", "an integer of at least 1", seq))
    if seq > SEQ_MAX:  # past a BIGINT: the database would refuse it with a traceback
        allowed = _("an integer from 1 to {seq_max}").format(seq_max=SEQ_MAX)
        raise JournalFileError(source, number, _field_error("seq", allowed, seq))
    for name in ("kind", "time", "who"):
        if not isinstance(data[name], str):
            raise JournalFileError(source, number, _field_error(name, "a string", data[name]))
    for name in ("prev", "hash"):
        value = data[name]
        if not (
            isinstance(value, str)
            and len(value) == HASH_LENGTH
            and all(c in "0123456789abcdef" for c in value)
        ):
            raise JournalFileError(
                source, number, _field_error(name, "64 lower-case hexadecimal digits", value)
            )
    if not isinstance(data["body"], dict):
        raise JournalFileError(source, number, _field_error("body", "a JSON object", data["body"]))


def read_lines(lines: Iterable[str], source: str) -> list[Entry]:
    """The entries of an exported file, verified as a chain (it may start after entry 1: the
    rest of a journal whose beginning the importer holds)."""
    found: list[Entry] = []
    check: ChainCheck | None = None
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        entry = parse_line(line, source, number)
        if check is None:
            if entry.seq == 1 and entry.prev != GENESIS:
                raise JournalFileError(
                    source, number, "entry 1's prev must be 64 zeros (nothing before it)"
                )
            check = ChainCheck(entry.seq, entry.prev)
        problems = check.add(entry)
        if problems:
            raise JournalFileError(source, number, str(problems[0]))
        found.append(entry)
    if not found:
        raise JournalFileError(source, 1, "no entries (an export has one JSON object per line)")
    return found


def file_lines(path: str) -> Iterator[str]:
    """The lines of an exported file (``-``: standard input), read one at a time, each of at
    most :data:`MAX_LINE_BYTES` and UTF-8, without their line end (``\\n`` or ``\\r\\n``)."""
    try:
        stream = sys.stdin.buffer if path == "-" else Path(path).open("rb")  # noqa: SIM115
    except OSError as error:
        raise InputError("file", "a readable file", path) from error
    with stream if path != "-" else nullcontext(stream):
        number = 0
        while raw := stream.readline(MAX_LINE_BYTES + 1):  # read line by line, each bounded
            number += 1
            if len(raw) > MAX_LINE_BYTES:
                too_long = _(
                    "a line longer than {max_line_bytes} bytes (an entry is far shorter)"
                ).format(max_line_bytes=MAX_LINE_BYTES)
                raise JournalFileError(path, number, too_long)
            try:
                yield raw.removesuffix(b"\n").removesuffix(b"\r").decode("utf-8")
            except UnicodeDecodeError:
                raise JournalFileError(path, number, "not UTF-8 text") from None


EXAMPLE_TIME = "2026-11-30T21:08:52.123456Z"


def example_export() -> str:
    """A small exported journal, as ``firefight journal export`` writes one: two entries."""
    drafts = [
        Draft("alice", {"note": "the scenario begins"}, kind="note", time=EXAMPLE_TIME),
        Draft(
            "bob",
            {"ruleset": "ept", "procedure": "fire", "dice": ["3", "4"], "outcome": "N1"},
            time=EXAMPLE_TIME,
        ),
    ]
    lines: list[str] = []
    prev = GENESIS
    for seq, draft in enumerate(drafts, start=1):
        entry = Entry.chained(draft, seq, prev)
        lines.append(entry.to_line())
        prev = entry.hash
    return "\n".join(lines) + "\n"


@loader(
    "journal-import",
    ".jsonl",
    example_export,
    ("journal", "import", "{path}", "--db", ":memory:"),
)
def load_export(path: Path) -> list[Entry]:
    """An exported journal file's entries, each line and the chain checked (what ``firefight
    journal import`` reads before it writes anything)."""
    return read_lines(file_lines(str(path)), str(path))
