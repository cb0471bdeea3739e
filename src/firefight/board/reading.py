"""Reading a board file: its text within size limits, TOML parsed with its values counted,
and one-line errors that name the file, the line and the bad value (quoted short)."""

from __future__ import annotations

import reprlib
import sys
from pathlib import Path

from firefight.core import files
from firefight.errors import FirefightError
from firefight.translation import gettext as _


class BoardError(FirefightError):
    """A board file is malformed; the message names the file, the hex and the bad value."""


SHOWN_INTEGER_BITS = 10_000
"""An integer read from a file is quoted (cut to 40 characters) up to this many bits (some 3000
digits); a longer one is named by its size: Python refuses to write an integer of more than
4300 digits as text, and a TOML file may hold one (``0xFFFF...``)."""


class _Shown(reprlib.Repr):
    """``reprlib.Repr`` that names an integer too long to quote by its size."""

    def repr_int(self, x: int, level: int) -> str:
        if x.bit_length() > SHOWN_INTEGER_BITS:
            sign = "-" if x < 0 else ""
            return f"{sign}an integer of {x.bit_length()} bits"
        return super().repr_int(x, level)


_SHOWN = _Shown()
_SHOWN.maxlevel = 2
_SHOWN.maxstring = 60
_SHOWN.maxother = 60
_SHOWN.maxlong = 40
_SHOWN.maxdict = _SHOWN.maxlist = _SHOWN.maxtuple = _SHOWN.maxset = 4
SHOWN_CHARACTERS = 80
"""An error quotes at most this many characters of a value read from a file."""


def shown(value: object) -> str:
    """A value read from a board file, as an error quotes it: its ``repr``, cut to at most
    :data:`SHOWN_CHARACTERS` characters and two levels of nesting (so a hostile file can
    neither flood the error line nor recurse without end through a deeply nested value)."""
    text = _SHOWN.repr(value)
    if len(text) > SHOWN_CHARACTERS:
        text = text[: SHOWN_CHARACTERS - 3] + "..."
    return text


def fail(path: str, message: str) -> BoardError:
    return BoardError(_("{path}: {message}").format(path=path, message=message))


MAX_BOARD_FILE_BYTES = 4 * 2**20
"""The largest Tiled JSON map or external tileset read: 4 MiB. A map of
:data:`MAX_BOARD_HEXES` hexes takes some tens of KiB (with notes, objects and group layers
rarely a few hundred); a larger file is refused before it is parsed, so it costs neither the
seconds nor the memory of parsing it."""

MAX_TOML_BYTES = 2 * 2**20
"""The largest TOML board file read: 2 MiB. A board of :data:`MAX_BOARD_HEXES` hexes with
every hex written out (a third of them with a level) takes about 1.3 MiB. Python's TOML
parser is slowest on dense arrays and inline tables, its time growing with the file, so the
limit sits just above the largest board's file and refuses a larger one before it is parsed."""


MAX_TOML_VALUES = 250_000
"""The most values and separators a TOML board file may hold, counted before it is parsed
(:func:`firefight.core.files.parse_toml`). A board of :data:`MAX_BOARD_HEXES` hexes with every
hex written out as ``"0101" = { terrain = "...", elevation = 1 }`` counts five marks a hex,
200,000 in all; a file of dense arrays and inline tables under :data:`MAX_TOML_BYTES` counts
up to three times as many, and Python's TOML parser is slowest on exactly those."""


def read_text(
    path: Path, source: str, what: str = "a board file", limit: int = MAX_BOARD_FILE_BYTES
) -> str:
    """A board file's text (UTF-8), of at most ``limit`` bytes, read in chunks
    (:func:`firefight.core.files.read_text`); an error names the file, never its content."""
    try:
        return files.read_text(path, source, limit, what)
    except files.FileError as error:
        raise BoardError(str(error)) from None


def board_file_error(error: files.FileError, source: str, text: str, *, toml: bool) -> BoardError:
    """A parser's refusal (:func:`firefight.core.files.parse_toml` or ``parse_json``) in the
    board files' words: nesting too deep names its line, a number too long says which kind of
    file could not be read; any other problem as it is."""
    if error.reason == "nesting":
        return too_deep(source, text, toml=toml)
    if error.reason == "number":
        return too_long_a_number(source, "TOML" if toml else "JSON")
    return BoardError(str(error))


def read_toml(path: Path, source: str | None = None) -> dict[str, object]:
    """Parse a TOML board file (:func:`firefight.core.files.parse_toml`: its values counted,
    its nesting bounded): one-line errors naming the file and the line."""
    name = source or path.name
    text = read_text(path, name, limit=MAX_TOML_BYTES)
    try:
        return files.parse_toml(text, name, max_values=MAX_TOML_VALUES)
    except files.FileError as error:
        raise board_file_error(error, name, text, toml=True) from None


def too_long_a_number(source: str, kind: str) -> BoardError:
    """The error for a file with an integer written with more digits than Python reads from
    text (``sys.get_int_max_str_digits()``, 4300 by default): the only ``ValueError`` that
    ``tomllib`` and ``json`` let through."""
    return fail(
        source,
        f"not a readable {kind} file: a number in it has more than "
        f"{sys.get_int_max_str_digits()} digits",
    )


def too_deep(source: str, text: str, *, toml: bool) -> BoardError:
    """The error for a file whose arrays and tables nest too deeply for the parser: it names
    the line where the nesting is deepest."""
    kind, need = (
        ("arrays and inline tables", "two levels: [hexes] and { terrain, elevation }")
        if toml
        else ("arrays and objects", "a few levels: map, layers, objects, properties")
    )
    line = deepest_line(text, toml=toml)
    return fail(source, f"line {line}: {kind} nested too deeply (a board needs {need})")


def deepest_line(text: str, *, toml: bool) -> int:
    """The line (from 1) where a TOML or JSON text's brackets and braces first reach their
    deepest nesting. Quoted strings are skipped (and TOML's ``#`` comments); only used to place
    an error, so it need not be a full parser."""
    depth = deepest = 0
    line = found = 1
    quote = ""
    i, end = 0, len(text)
    while i < end:
        char = text[i]
        if char == "\n":
            line += 1
        if quote:
            if char == "\\" and quote[0] == '"':
                i += 1
                if i < end and text[i] == "\n":
                    line += 1
            elif text.startswith(quote, i):
                i += len(quote) - 1
                quote = ""
        elif char == "#" and toml:
            while i + 1 < end and text[i + 1] != "\n":
                i += 1
        elif char == '"' or (char == "'" and toml):
            quote = char * 3 if toml and text.startswith(char * 3, i) else char
            i += len(quote) - 1
        elif char in "[{":
            depth += 1
            if depth > deepest:
                deepest, found = depth, line
        elif char in "]}":
            depth -= 1
        i += 1
    return found
