"""Reading the player's data files (``deck.toml``, ``men.toml``): one-line errors naming the
file, the entry (a card by its inventory number, a man by his id) and the field, never a
traceback. A file and an upload are read alike by :mod:`firefight.core.files`: at most
:data:`MAX_FILE_BYTES`, at most :data:`MAX_VALUES` values, nested at most
:data:`~firefight.core.files.MAX_DEPTH` levels."""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Callable, Sequence
from pathlib import Path
from stat import S_ISREG
from typing import Generic, TypeVar

from firefight.core.files import FileError, check_length, parse_toml, read_text
from firefight.errors import ChartError, one_of, quoted
from firefight.translation import gettext as _
from firefight.translation import thousands

__all__ = [
    "MAX_FILE_BYTES",
    "MAX_VALUES",
    "UPLOADED",
    "DataFileError",
    "FileCache",
    "Reader",
    "Uploads",
    "read_data_file",
    "read_data_text",
]

MAX_FILE_BYTES = 1_000_000
"""The largest data file read (a 162-card deck is about 20 kB): never a device or a huge file."""
MAX_VALUES = 50_000
"""The most values (and separators, counted before parsing) a deck or personality file may
hold. The shipped deck (162 cards) holds 2,591 values (2,776 counted before parsing), the
shipped personalities (11 men) 223; a card holds at most about 26 values (its RPN array and a
split card's table included) and a man about 35, so the largest deck the loader takes
(``MAX_CARDS``, 1,000 cards) needs about 26,000 and the most men (500) about 17,500: the cap
leaves twice that. A file of 1 MB can write 500,000 values, whose parsing held a server's
event loop for seconds; past the cap it is refused before it is parsed."""


class DataFileError(ChartError):
    """A player's Up Front data file is malformed (one line: file, entry, field, value);
    ``entry`` and ``field`` name where (empty when the file itself cannot be read)."""

    entry = ""
    field = ""
    got: object = None


def read_data_file(path: Path, what: str) -> dict[str, object]:
    """Parse ``path`` as TOML (at most :data:`MAX_FILE_BYTES`, :data:`MAX_VALUES` values); an
    unreadable or malformed file is one :class:`DataFileError`."""
    try:
        return parse_toml(
            read_text(path, path.name, MAX_FILE_BYTES, what), path.name, max_values=MAX_VALUES
        )
    except FileError as error:
        raise DataFileError(str(error)) from None


def read_data_text(text: str, source: str, what: str) -> dict[str, object]:
    """Parse uploaded ``text`` (the web's uploaded files) as TOML, with the file loader's
    limits and one-line errors naming ``source`` (``uploaded deck``), never the text."""
    try:
        check_length(text, source, MAX_FILE_BYTES, what)
        return parse_toml(text, source, max_values=MAX_VALUES)
    except FileError as error:
        raise DataFileError(str(error)) from None


T = TypeVar("T")


class FileCache(Generic[T]):
    """A data file a procedure's field names (``illustrative``, the shipped file, or a path),
    loaded once per file version (path, size, modification time; the shipped file once); an
    unreadable name, a device, a folder or a file over :data:`MAX_FILE_BYTES` is one
    :class:`DataFileError`."""

    KEPT = 16
    """How many file versions are kept."""

    def __init__(self, what: str, illustrative: Path, load: Callable[[Path], T]) -> None:
        self.what = what
        self.illustrative = illustrative
        self.load = load
        self._kept: dict[tuple[str, int, int], T] = {}
        self._shipped: T | None = None

    def __call__(self, name: str) -> T:
        """The loaded file ``name`` names. The shipped file (``illustrative``) is part of the
        installed package, as its code is: read once, never looked at again (an exact walk
        asks for its file once per run); a path is checked for a new version each time."""
        if name == "illustrative" and self._shipped is not None:
            return self._shipped
        path = self.illustrative if name == "illustrative" else Path(name)
        try:
            stat = path.stat()
        except ValueError:  # a NUL byte in the name
            message = _("{name}: {what} cannot be read (not a file name)").format(
                name=quoted(name), what=self.what
            )
            raise DataFileError(message) from None
        except OSError as error:
            message = _("{name}: {what} cannot be read ({reason})").format(
                name=path.name, what=self.what, reason=error.strerror or _("error")
            )
            raise DataFileError(message) from None
        if not S_ISREG(stat.st_mode) or stat.st_size > MAX_FILE_BYTES:
            message = _(
                "{name}: {what} must be a regular file of at most {max_file_bytes} bytes"
            ).format(name=path.name, what=self.what, max_file_bytes=thousands(MAX_FILE_BYTES))
            raise DataFileError(message)
        key = (str(path), stat.st_size, stat.st_mtime_ns)
        found = self._kept.get(key)
        if found is None:
            found = self.load(path)
            if len(self._kept) > self.KEPT:
                self._kept.clear()
            self._kept[key] = found
        if name == "illustrative":
            self._shipped = found
        return found


UPLOADED = "uploaded:"
"""How a procedure's ``deck`` or ``men`` field names uploaded content: ``uploaded:`` and the
SHA-256 of the text. Only the web sets it, after :meth:`Uploads.register`; a name that is not
registered is read as a path (the CLI and the Python API), as before."""


class Uploads(Generic[T]):
    """Uploaded files loaded from their text, keyed by the text's SHA-256: the most recently
    used :attr:`KEPT` are kept, so a page that sends its deck at every change parses it once."""

    KEPT = 16

    def __init__(self, load: Callable[[str], T]) -> None:
        self.load = load
        self.loaded: OrderedDict[str, T] = OrderedDict()

    @staticmethod
    def name_of(text: str) -> str:
        """The name that finds ``text``'s content: ``uploaded:`` and its SHA-256."""
        return UPLOADED + hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()

    def register(self, text: str) -> str:
        """Validate ``text`` (once per content) and return the name that finds it again."""
        name = self.name_of(text)
        if name in self.loaded:
            self.loaded.move_to_end(name)
        else:
            self.keep(name, self.load(text))
        return name

    def read(self, text: str) -> T:
        """``text`` loaded, not kept (in a pool process: the server keeps it)."""
        return self.load(text)

    def keep(self, name: str, loaded: T) -> None:
        """Keep what ``name``'s text loaded into (loaded elsewhere: in a pool process)."""
        self.loaded[name] = loaded
        self.loaded.move_to_end(name)
        while len(self.loaded) > self.KEPT:
            self.loaded.popitem(last=False)

    def get(self, name: str) -> T | None:
        """What ``name`` (from :meth:`register`) loaded, if it is still kept."""
        return self.loaded.get(name) if name.startswith(UPLOADED) else None


class Reader:
    """Field readers that fail with ``FILE: ENTRY: 'FIELD' must be ALLOWED (got VALUE)``."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, entry: str, field: str, must: str, got: object) -> DataFileError:
        where = f"{entry}: " if entry else ""
        error = DataFileError(
            _("{source}: {where}'{field}' must be {must} (got {got})").format(
                source=self.source, where=where, field=field, must=must, got=quoted(got)
            )
        )
        error.entry, error.field, error.got = entry, field, got
        return error

    def table(self, entry: str, field: str, value: object) -> dict[str, object]:
        if not isinstance(value, dict):
            raise self.fail(entry, field, "a table", value)
        return value

    def keys(
        self, entry: str, value: dict[str, object], required: set[str], optional: set[str]
    ) -> None:
        known = required | optional
        for key in value:
            if key not in known:
                raise self.fail(
                    entry, key, "a known field: one of " + ", ".join(sorted(known)), key
                )
        for key in sorted(required):
            if key not in value:
                raise self.fail(entry, key, "given", None)

    def integer(self, entry: str, field: str, value: object, low: int, high: int) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise self.fail(entry, field, f"an integer from {low} to {high}", value)
        return value

    def flag(self, entry: str, field: str, value: object) -> bool:
        if not isinstance(value, bool):
            raise self.fail(entry, field, "true or false", value)
        return value

    def text(self, entry: str, field: str, value: object, longest: int = 60) -> str:
        if not isinstance(value, str) or not value.strip() or len(value) > longest:
            raise self.fail(entry, field, f"text of 1 to {longest} characters", value)
        return value

    def choice(self, entry: str, field: str, value: object, allowed: Sequence[str]) -> str:
        if not isinstance(value, str) or value not in allowed:
            raise self.fail(entry, field, one_of(allowed), value)
        return value

    def array(self, entry: str, field: str, value: object, length: int | None) -> list[object]:
        if not isinstance(value, list) or (length is not None and len(value) != length):
            size = f"an array of {length} values" if length is not None else "an array"
            raise self.fail(entry, field, size, value)
        return value
