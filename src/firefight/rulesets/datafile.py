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
from typing import Generic, Protocol, TypeVar

__all__ = ["DataFile", "Kept"]


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
