"""A data file a player may supply to a rule set's procedures (a deck, a roster): the input
field it fills, how an uploaded text of it is read, its limits and how a face names it.

The CLI and the Python API name such a file by path in its field; the web reads no path, so
it takes the file's text in the request body (:attr:`DataFile.text_field`) and reads it with
:attr:`DataFile.uploads`. A rule set lists its data files in ``RuleSet.files``; the web finds
them there (:mod:`firefight.web.uploads`), naming no game.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, Literal, Protocol, TypeVar

__all__ = ["Checked", "DataFile", "EntryField", "FileEditor", "Kept", "Problem"]


T = TypeVar("T")


class Kept(Protocol[T]):
    """Uploaded texts of one kind of file, read once per content and kept by a name (the
    text's hash) that the input field then holds."""

    def name_of(self, text: str) -> str:
        """The name that finds ``text``'s content."""
        ...

    def register(self, text: str) -> str:
        """Read ``text`` (once per content; a malformed one raises the file's error) and
        return its name."""
        ...

    def read(self, text: str) -> T:
        """``text`` read into what the procedures use (no keeping: a pool process's work)."""
        ...

    def keep(self, name: str, loaded: T) -> None:
        """Keep what ``name``'s text was read into (read elsewhere: in a pool process)."""
        ...

    def get(self, name: str) -> T | None:
        """What ``name`` was read into, if it is still kept."""
        ...


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong in a data file: the entry (``card 17``; empty for the file itself), the
    field (``rpn[3]``) and the one line that says what it must be and what was given."""

    entry: str
    field: str
    message: str
    missing: bool = False
    """The field is not given at all (a page typing the entry may not have come to it yet)."""


@dataclass(frozen=True)
class Checked:
    """A data file checked whole (every problem, not only the first), and what it holds: how
    many entries of each kind (``kind`` first, the rule set's order) against how many the
    published set has (``expected``; empty when the file has no such count)."""

    problems: tuple[Problem, ...]
    entries: int
    counts: tuple[tuple[str, int], ...] = ()
    expected: tuple[tuple[str, int], ...] = ()


FieldKind = Literal[
    "coloured", "coloured_row", "choice", "integer", "integers", "flag", "text", "pairs"
]
"""How an entry's field is typed: a number and its colour (``4r``), a row of them, one of
``choices``, an integer, a row of integers, true or false, words, or ``key=value`` pairs (a
table whose keys are ``choices``)."""


@dataclass(frozen=True, slots=True)
class EntryField:
    """One field of an entry as the editor page types it (the file's TOML key ``name``)."""

    name: str
    label: str
    kind: FieldKind
    required: bool = False
    choices: tuple[str, ...] = ()
    low: int = 0
    high: int = 9
    count: int = 1
    """How many values a row holds (``coloured_row``, ``integers``)."""
    colours: tuple[tuple[str, str], ...] = ()
    """A coloured number's colours: each letter written in the file and its word."""
    hint: str = ""


@dataclass(frozen=True)
class FileEditor:
    """How a page types a data file entry by entry: the TOML array of tables that holds the
    entries (``card``), what one is called, its fields, the field that names an entry, and
    the check of a whole text (every problem, one line each)."""

    entry: str
    entry_label: str
    fields: tuple[EntryField, ...]
    key: str
    check: Callable[[str, str, bool], Checked]
    """``check(text, source, partial)``: ``partial`` for a file still being typed (too few of
    a kind is no problem yet)."""
    title: str = ""
    """The title a new file gets."""


@dataclass(frozen=True)
class DataFile(Generic[T]):
    """One kind of data file a rule set's procedures read (``T``: what one is read into)."""

    field: str
    """The input field that names the file (``deck``): a path, ``illustrative`` (the file the
    rule set ships) or, on the web, an uploaded text's name."""
    text_field: str
    """The request body's field that carries an uploaded file's text (``deck_toml``)."""
    what: str
    """What a face calls the file (``deck``, ``personality file``)."""
    uploads: Kept[T]
    """Its loader for uploaded texts (validated by the file loader's own checks)."""
    max_bytes: int
    """The largest text accepted (bytes, UTF-8), as for a file."""
    max_values: int
    """The most values (and separators, counted before parsing) a text may hold."""
    error: type[Exception]
    """The loader's one-line error for a malformed text."""
    shipped_label: Callable[[], str]
    """How a face labels the shipped (``illustrative``) file (read when a page is drawn)."""
    doc: str = ""
    """The page that gives the file's format (``docs/<game>.md``)."""
    format: str = "TOML"
    """The file's format, as a face names it."""
    editor: FileEditor | None = None
    """How a face checks a whole file and types it entry by entry (``firefight deck check``,
    the web's editor page); ``None``: the file is only read."""
