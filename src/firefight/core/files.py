"""Reading what a user sends: files, uploads, pasted text, JSON bodies, compressed blocks.

Every text firefight reads from outside goes through these few functions, each bounded before
the work: a size read in chunks and refused past its limit, the parsers' own stack guarded
(a ``RecursionError`` is an error line, never a traceback), the number of values and the
depth of nesting counted without recursion, decompression capped at its output's size. Each
refusal is one :class:`FileError` line naming the source (a file's name, ``uploaded deck``,
``request body``), never the content.

A loader of a file format registers itself with :func:`loader`, so the standing hostile-input
run in the tests (``tests/hostile/``) finds every format, including one added
later.
"""

from __future__ import annotations

import json
import os
import stat
import sys
import tomllib
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO, TypeVar

from firefight.errors import FirefightError
from firefight.i18n import gettext as _

MAX_DEPTH = 64
"""The deepest nesting of arrays and tables (objects) read from any file or body. No format
firefight reads needs more than a handful of levels (a Tiled map's group layers are the
deepest); a parser's own stack gives out near 1,000, and code that walks a value recursively
sooner."""

MAX_VALUES = 1_000_000
"""The most values (scalars, arrays and tables together) a file may hold unless its loader sets
fewer: a board of 40,000 hexes written out holds about 200,000."""


class FileError(FirefightError):
    """A file, upload or body that cannot be read: ``source: problem`` on one line. ``reason``
    says which check refused it, for a loader that words some of them its own way: ``nesting``,
    ``number`` (an integer too long to read), ``syntax``, those of :func:`named_inside`, or
    ``""`` for the others."""

    def __init__(self, source: str, problem: str, reason: str = "") -> None:
        self.source = source
        self.problem = problem
        self.reason = reason
        super().__init__(_("{source}: {problem}").format(source=source, problem=problem))


def size_text(limit: int) -> str:
    """A byte limit as a reader says it: ``2 MiB``, ``64 KiB``, ``500 bytes``."""
    if limit >= 2**20 and limit % 2**20 == 0:
        return f"{limit // 2**20} MiB"
    if limit >= 2**10 and limit % 2**10 == 0:
        return f"{limit // 2**10} KiB"
    return f"{limit:,} bytes"


def _opened(path: Path, source: str, what: str) -> BinaryIO:
    """A file opened to read, without waiting on a named pipe (its open would block until a
    writer comes): a pipe is refused; a regular file or a device is read as asked."""
    nonblocking = getattr(os, "O_NONBLOCK", 0)  # POSIX: the open of a pipe returns at once
    fd = os.open(path, os.O_RDONLY | nonblocking)
    if stat.S_ISFIFO(os.fstat(fd).st_mode):
        os.close(fd)
        raise FileError(
            source,
            _("{what} cannot be read ({why})").format(what=what, why=_("a named pipe, not a file")),
        )
    if nonblocking:
        os.set_blocking(fd, True)
    return os.fdopen(fd, "rb")


def read_bytes(path: Path, source: str, limit: int, what: str | None = None) -> bytes:
    """A file's bytes, read a MiB at a time and refused past ``limit`` (a device or a huge file
    costs at most the limit); an error names the file, never its content (``what`` says what
    it is, "the file" by default)."""
    what = what or _("the file")
    try:
        chunks: list[bytes] = []
        size = 0
        with _opened(path, source, what) as file:
            while chunk := file.read(min(2**20, limit + 1)):
                size += len(chunk)
                if size > limit:
                    raise FileError(
                        source,
                        _("{what} must be at most {most}").format(what=what, most=size_text(limit)),
                    )
                chunks.append(chunk)
        return b"".join(chunks)
    except OSError as error:
        raise FileError(
            source,
            _("{what} cannot be read ({why})").format(what=what, why=error.strerror or "error"),
        ) from None


def read_text(path: Path, source: str, limit: int, what: str | None = None) -> str:
    """A file's text (UTF-8) of at most ``limit`` bytes, as :func:`read_bytes`."""
    return decode(read_bytes(path, source, limit, what), source, what)


def decode(data: bytes, source: str, what: str | None = None) -> str:
    """UTF-8 bytes as text; an error names the first byte that is not UTF-8. A byte order mark
    opening the text (Windows' Notepad writes one) is dropped: TOML and JSON refuse it, and it
    says nothing in UTF-8."""
    what = what or _("the file")
    try:
        return data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as error:
        raise FileError(
            source,
            _("{what} must be UTF-8 text (got a byte that is not, at byte {at})").format(
                what=what, at=error.start
            ),
        ) from None


def check_length(text: str, source: str, limit: int, what: str | None = None) -> None:
    """Refuse a text (an upload, a paste) of more than ``limit`` bytes in UTF-8."""
    what = what or _("the text")
    if len(text) > limit or len(text.encode("utf-8", "surrogatepass")) > limit:
        raise FileError(
            source, _("{what} must be at most {most}").format(what=what, most=size_text(limit))
        )


def values_bound(text: str) -> int:
    """An upper bound on the values a TOML or JSON text holds, counted without parsing: every
    value but the first of an array follows a comma, every key's value an ``=`` or ``:``, every
    array or table opens with a bracket, and every table a dotted key makes follows a dot
    (marks inside strings and numbers only raise it)."""
    return sum(text.count(mark) for mark in ",=:[{.") + 1


def _check_bound(text: str, source: str, max_values: int) -> None:
    if values_bound(text) > max_values:
        raise FileError(
            source,
            _("holds more than {most} values and separators (refused before it is read)").format(
                most=f"{max_values:,}"
            ),
        )


def check_shape(value: object, source: str, max_depth: int, max_values: int) -> None:
    """Walk a parsed value without recursion: refuse it past ``max_depth`` levels of nesting or
    ``max_values`` values."""
    stack: list[tuple[object, int]] = [(value, 1)]
    count = 0
    while stack:
        item, depth = stack.pop()
        count += 1
        if count > max_values:
            raise FileError(
                source, _("holds more than {most} values").format(most=f"{max_values:,}")
            )
        if isinstance(item, dict | list):
            if depth > max_depth:
                raise FileError(
                    source,
                    _("arrays and tables nested more than {most} levels deep").format(
                        most=max_depth
                    ),
                    "nesting",
                )
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)


def _too_long_a_number(source: str) -> FileError:
    return FileError(
        source,
        _("a number in it has more than {digits} digits").format(
            digits=sys.get_int_max_str_digits()
        ),
        "number",
    )


def _too_deep(source: str) -> FileError:
    return FileError(
        source,
        _("arrays and tables nested more than {most} levels deep").format(most=MAX_DEPTH),
        "nesting",
    )


def parse_toml(
    text: str, source: str, *, max_values: int = MAX_VALUES, max_depth: int = MAX_DEPTH
) -> dict[str, Any]:
    """TOML text as data, its values counted (a cheap bound before parsing, the exact count
    after) and its nesting bounded; every failure one :class:`FileError`."""
    _check_bound(text, source, max_values)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise FileError(source, str(error), "syntax") from None
    except RecursionError:  # the parser's own stack: answered in one line
        raise _too_deep(source) from None
    except ValueError:  # an integer of more digits than Python converts from text
        raise _too_long_a_number(source) from None
    check_shape(data, source, max_depth, max_values)
    return data


def parse_json(
    text: str | bytes, source: str, *, max_values: int = MAX_VALUES, max_depth: int = MAX_DEPTH
) -> object:
    """JSON text as data, bounded as :func:`parse_toml`; every failure one :class:`FileError`."""
    if isinstance(text, bytes):
        text = decode(text, source)
    _check_bound(text, source, max_values)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise FileError(source, _("not JSON ({why})").format(why=error.msg), "syntax") from None
    except RecursionError:
        raise _too_deep(source) from None
    except ValueError:
        raise _too_long_a_number(source) from None
    check_shape(data, source, max_depth, max_values)
    return data


def inflate(data: bytes, source: str, limit: int, wbits: int = zlib.MAX_WBITS) -> bytes:
    """Decompress a zlib (or, with ``wbits``, gzip) stream to at most ``limit`` bytes: the
    output is capped, not only buffered, so a small bomb costs at most the limit."""
    inflater = zlib.decompressobj(wbits)
    try:
        out = inflater.decompress(data, limit)
    except zlib.error:
        raise FileError(source, _("the compressed data is damaged")) from None
    if inflater.unconsumed_tail:
        raise FileError(
            source,
            _("decompresses to more than {most}").format(most=size_text(limit)),
        )
    if not inflater.eof:
        raise FileError(source, _("the compressed data is cut short"))
    return out


def named_inside(folder: Path, name: str, suffixes: tuple[str, ...]) -> Path:
    """The file a file read from ``folder`` names (``name``): in that folder or one below it,
    and nowhere else: not an absolute path, not up through ``..``, not out through a link (a
    file sent by someone else must not make firefight open a file of the reader's). A refusal
    is a :class:`FileError` whose ``problem`` says why (the caller words the line: its field,
    what else it allows) and whose ``reason`` is ``outside``, ``suffix``, ``link`` or
    ``missing``."""
    relative = Path(name)
    if not name or relative.is_absolute() or relative.drive or ".." in relative.parts:
        raise FileError(name, _("no absolute path, no '..'"), "outside")
    if relative.suffix.lower() not in suffixes:
        raise FileError(
            name, _("its suffix must be {suffixes}").format(suffixes=", ".join(suffixes)), "suffix"
        )
    try:
        inside = folder.resolve()
        path = (inside / relative).resolve()
        found = path.is_file()
    except (OSError, ValueError, RuntimeError):  # a NUL in the name; a loop of links
        found = False
    else:
        if not path.is_relative_to(inside):
            raise FileError(name, _("it is a link that leads out of it"), "link")
    if not found:
        raise FileError(name, _("no such file"), "missing")
    return path


@dataclass(frozen=True)
class Loader:
    """A file format firefight reads: its name, the function that reads a path, what one file
    of it looks like (a small valid example, which the hostile-input run distorts) and the
    ``firefight`` command line that reads such a file (``"{path}"`` stands for the file)."""

    name: str
    suffix: str
    load: Callable[[Path], object]
    example: Callable[[], str]
    command: tuple[str, ...]


LOADERS: dict[str, Loader] = {}
"""Every registered file format by name (filled as the loaders' modules are imported)."""


F = TypeVar("F", bound=Callable[[Path], object])


def loader(
    name: str, suffix: str, example: Callable[[], str], command: tuple[str, ...]
) -> Callable[[F], F]:
    """Register the decorated function (of a path) as the reader of the format ``name``."""

    def register(load: F) -> F:
        LOADERS[name] = Loader(name, suffix, load, example, command)
        return load

    return register
