"""Play-by-e-mail messages: the text block that carries a game's entries through a mail
(zlib, then base64 in lines of 76 characters, between :data:`BEGIN` and :data:`END`), its
game's name, and the bounds a message is read within. Part of :mod:`~firefight.pbem.play`,
which sends and receives them.
"""

from __future__ import annotations

import base64
import binascii
import sys
import zlib
from collections.abc import Iterable
from pathlib import Path

from firefight.core.files import decode, inflate, loader, read_bytes, size_text
from firefight.errors import FirefightError, InputError
from firefight.journal.canonical import GENESIS
from firefight.journal.entry import Draft, Entry
from firefight.journal.transfer import parse_line, read_lines
from firefight.pbem.chain import anchor
from firefight.pbem.game import offer_draft
from firefight.translation import gettext as _
from firefight.translation import thousands

BEGIN = "-----BEGIN FIREFIGHT PBEM-----"
END = "-----END FIREFIGHT PBEM-----"
NAME_PREFIX = "pbem-"
HEX_DIGITS = frozenset("0123456789abcdef")
MESSAGE_MAX = 1_000_000
"""The longest message read, in bytes (its text is ASCII but for what a mail puts around it):
the message answering a step holds one to three entries, under 4 KB; a whole game of 1,000
resolutions sent for ``pbem verify`` takes about 330 KB."""
INFLATED_MAX = 16 * 2**20
"""The most a message's block may decompress to: the entries' JSON Lines. A step's entries
take a few KiB, a whole game of 1,000 resolutions about 2.3 MB; a block decompressing past
this is refused as soon as the limit is reached (a small block of zeros can inflate a
thousandfold)."""
LINES_MAX = 20_000
"""The most lines (entries) a message's block may hold, counted before they are split: a whole
game of 10,000 resolutions (two entries each)."""


class MessageError(FirefightError):
    """A message that cannot be read (one line saying why)."""


def armor(name: str, entries: Iterable[Entry]) -> str:
    """The message carrying ``entries`` of the game ``name``."""
    lines = "\n".join(entry.to_line() for entry in entries).encode()
    payload = base64.b64encode(zlib.compress(lines, 9)).decode()
    wrapped = [payload[i : i + 76] for i in range(0, len(payload), 76)]
    return "\n".join([BEGIN, f"Game: {name}", *wrapped, END]) + "\n"


def game_name(given: str, field: str = "game") -> str:
    """A game's name, ``pbem-`` and 16 lower-case hex digits (the ``pbem-`` may be left off),
    or a one-line error on ``field``."""
    name = given if given.startswith(NAME_PREFIX) else NAME_PREFIX + given
    digits = name[len(NAME_PREFIX) :]
    if len(digits) != 16 or not set(digits) <= HEX_DIGITS:
        raise InputError(
            field,
            _("{name_prefix} and 16 hex digits (as 'pbem new' printed)").format(
                name_prefix=NAME_PREFIX
            ),
            given,
        )
    return name


def dearmor(text: str, chained: bool = True) -> tuple[str, list[Entry]]:
    """The game name and entries of a message (text around the block, and mail quoting
    ``>``, are ignored); ``chained``: refuse entries that do not chain (``verify`` reads them
    one by one instead, to report each problem). Bounded before the work: the text at
    :data:`MESSAGE_MAX`, the block's inflated size at :data:`INFLATED_MAX`, its lines at
    :data:`LINES_MAX`."""
    if len(text) > MESSAGE_MAX:
        raise MessageError(
            _("a message is at most {message_max} characters (got {count})").format(
                message_max=thousands(MESSAGE_MAX), count=thousands(len(text))
            )
        )
    lines = [line.strip().lstrip(">").strip() for line in text.splitlines()]
    if BEGIN not in lines or END not in lines:
        raise MessageError(
            _("no {begin} … {end} block in the message").format(begin=BEGIN, end=END)
        )
    block = lines[lines.index(BEGIN) + 1 : lines.index(END)]
    if not block or not block[0].startswith("Game: "):
        raise MessageError("the block must start with 'Game: NAME'")
    given = block[0].removeprefix("Game: ").strip()
    if not given.startswith(NAME_PREFIX):
        raise InputError(
            "Game", _("{name_prefix} and 16 hex digits").format(name_prefix=NAME_PREFIX), given
        )
    name = game_name(given, "Game")
    try:
        packed = base64.b64decode("".join(block[1:]), validate=True)
    except binascii.Error:
        raise MessageError("the message's block is damaged (not base64 of zlib)") from None
    raw = inflate(packed, "the message", INFLATED_MAX)
    if raw.count(b"\n") >= LINES_MAX:
        raise MessageError(
            _("a message holds at most {lines_max} lines (entries)").format(
                lines_max=thousands(LINES_MAX)
            )
        )
    lines = decode(raw, "the message", "the message's block").splitlines()
    entries = (
        read_lines(lines, "the message")
        if chained
        else [parse_line(line, "the message", n) for n, line in enumerate(lines, 1)]
    )
    return name, entries


def read_message(source: str) -> str:
    """A message from a file, or from standard input (``-``): at most :data:`MESSAGE_MAX`
    bytes, UTF-8, read before anything is decoded."""
    if source == "-":
        data = sys.stdin.buffer.read(MESSAGE_MAX + 1)
        if len(data) > MESSAGE_MAX:
            raise MessageError(
                _("a message is at most {size_text}").format(size_text=size_text(MESSAGE_MAX))
            )
        return decode(data, "standard input", "the message")
    path = Path(source)
    if not path.is_file():
        raise InputError("message", "a file holding a message, or - for standard input", source)
    return decode(read_bytes(path, source, MESSAGE_MAX, "a message"), source, "the message")


def example_message() -> str:
    """A message as ``firefight pbem new`` writes one: side A's offer (from a fixed seed)."""
    seed = bytes(range(32))
    draft = offer_draft("A", {"A": "alice", "B": "bob"}, "Hill 112", 20, anchor(seed, 20).hex())
    draft = Draft(draft.who, draft.body, draft.kind, time="2026-11-30T21:08:52.123456Z")
    entry = Entry.chained(draft, 1, GENESIS)
    return armor(NAME_PREFIX + entry.hash[:16], [entry])


@loader("pbem-message", ".txt", example_message, ("pbem", "verify", "{path}"))
def load_message(path: Path) -> tuple[str, list[Entry]]:
    """A message file's game name and entries, every bound and the chain checked (what
    ``firefight pbem answer`` and ``pbem verify`` read before anything else)."""
    return dearmor(read_message(str(path)))
