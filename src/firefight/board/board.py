"""A hex board: each hex's terrain and elevation, each hexside's feature.

Boards are written by hand in TOML (see ``docs/boards.md``) or imported from the Tiled map
editor. A board names the rule set whose terrain vocabulary it uses; loading checks every
terrain name against that vocabulary and names the hex of any bad value.
"""

from __future__ import annotations

import reprlib
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from firefight.board.hexes import Hex, Offset, format_label, from_offset, parse_label
from firefight.core import files
from firefight.errors import FirefightError, InputError
from firefight.i18n import gettext as _


class BoardError(FirefightError):
    """A board file is malformed; the message names the file, the hex and the bad value."""


MAX_BOARD_HEXES = 40_000
"""The largest board firefight loads: at most this many hexes (``columns`` x ``rows``), e.g.
200 x 200. Set by what line of sight handles (docs/boards.md): on a 200 x 200 board of countryside,
one visible set takes about 30-45 ms of CPU once the board is prepared (about 1 s, and a few
seconds more the first time for the size's line templates, some 13 MB), with a peak near
50 MB (``benchmarks/visibility.py``). Pictures have their own, smaller limit
(:data:`MAX_DRAWN_HEXES`). A 999 x 999 board, accepted once, was killed after 90 s at 3.9 GB."""

MAX_DRAWN_HEXES = 600
"""The largest board drawn to a picture (``board show --out``, ``board los --out``, ``board
visible --out``): a picture's cost grows with its hexes (about 1.8 ms each), and a 24 x 24
board (576 hexes) takes about 2 s of CPU, start-up included, on the development machine (two
shared cores). Larger boards load and answer line of sight; drawing them is refused on one
line (:func:`check_drawable`)."""

MAX_NAME_CHARACTERS = 100
"""The longest board name. A name is printed as it is (``firefight board show``), so it may hold
no control character: a board file could otherwise write terminal escape sequences or fake
lines into the output."""

MAX_LABEL_NUMBER = 999
"""The largest column or row number: a label's column and row have at most three digits
(``CCCRRR``), as :func:`~firefight.board.hexes.parse_label` reads them."""

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


def check_size(columns: int, rows: int, source: str, names: tuple[str, str]) -> None:
    """Refuse a board larger than :data:`MAX_BOARD_HEXES` (``names`` are the file's words for
    the width and the height, e.g. ``('columns', 'rows')``)."""
    wide, high = names
    if max(columns, rows) > MAX_LABEL_NUMBER:
        raise BoardError(
            _(
                "{source}: '{wide}' and '{high}' must be at most {most} (a hex label "
                "has at most three digits for each) (got {columns} x {rows})"
            ).format(
                source=source,
                wide=wide,
                high=high,
                most=MAX_LABEL_NUMBER,
                columns=shown(columns),
                rows=shown(rows),
            )
        )
    if columns < 1 or rows < 1 or columns * rows > MAX_BOARD_HEXES:
        raise BoardError(
            _(
                "{source}: '{wide}' and '{high}' must be at least 1, and {wide} x {high} at most "
                "{most} hexes (got {columns} x {rows})"
            ).format(
                source=source,
                wide=wide,
                high=high,
                most=MAX_BOARD_HEXES,
                columns=shown(columns),
                rows=shown(rows),
            )
        )


def check_drawable(board: Board) -> None:
    """Refuse to draw a board of more than :data:`MAX_DRAWN_HEXES` hexes (the ``out`` field)."""
    if board.columns * board.rows > MAX_DRAWN_HEXES:
        raise InputError(
            "out",
            f"given only for a board of at most {MAX_DRAWN_HEXES} hexes (pictures are slow; "
            f"this board loads and answers line of sight without one)",
            f"{board.columns} x {board.rows}",
        )


class TerrainVocabulary(Protocol):
    """What a rule set lets a board contain."""

    @property
    def hex_terrains(self) -> frozenset[str]:
        """Terrain names a hex may have."""
        ...

    @property
    def hexside_features(self) -> frozenset[str]:
        """Feature names a hexside may have."""
        ...

    @property
    def default_terrain(self) -> str:
        """The terrain of a hex the board does not list."""
        ...


def hexside(a: Hex, b: Hex) -> tuple[Hex, Hex]:
    """The hexside between two adjacent hexes, as an ordered pair (so it is a dict key)."""
    return (a, b) if a <= b else (b, a)


@dataclass(frozen=True)
class Board:
    """A rectangular hex board of ``columns`` x ``rows``, labelled from ``0101``."""

    name: str
    ruleset: str
    columns: int
    rows: int
    offset: Offset = "odd-q"
    default_terrain: str = "clear"
    terrain: Mapping[Hex, str] = field(default_factory=dict)
    elevation: Mapping[Hex, int] = field(default_factory=dict)
    hexsides: Mapping[tuple[Hex, Hex], str] = field(default_factory=dict)
    first: int = 1
    """Number of the first column and of the first row (most maps start at 01)."""

    def __contains__(self, hex_: object) -> bool:
        if not isinstance(hex_, Hex):
            return False
        column, row = self.column_row(hex_)
        return (
            self.first <= column < self.first + self.columns
            and self.first <= row < self.first + self.rows
        )

    def column_row(self, hex_: Hex) -> tuple[int, int]:
        """The map column and row of a hex."""
        from firefight.board.hexes import to_offset  # noqa: PLC0415 - avoid a name clash

        return to_offset(hex_, self.offset)

    def hexes(self) -> Iterator[Hex]:
        """Every hex, column by column."""
        for column in range(self.first, self.first + self.columns):
            for row in range(self.first, self.first + self.rows):
                yield from_offset(column, row, self.offset)

    def label(self, hex_: Hex) -> str:
        """The map label ``CCRR`` of a hex."""
        width = max(2, len(str(self.first + max(self.columns, self.rows) - 1)))
        column, row = self.column_row(hex_)
        if column < 0 or row < 0:  # off the map (a line can graze a ragged edge)
            return f"({hex_.q},{hex_.r})"
        return format_label(hex_, self.offset, width)

    def hex(self, label: str) -> Hex:
        """The hex of a map label, which must be on this board."""
        found = parse_label(label, self.offset)
        if found not in self:
            last = self.label(
                from_offset(self.first + self.columns - 1, self.first + self.rows - 1, self.offset)
            )
            raise InputError(
                "hex",
                f"a hex of board {shown(self.name)} ({self.label(next(self.hexes()))}..{last})",
                label,
            )
        return found

    def terrain_of(self, hex_: Hex) -> str:
        """The terrain of a hex."""
        return self.terrain.get(hex_, self.default_terrain)

    def elevation_of(self, hex_: Hex) -> int:
        """The level of a hex (0 = ground level)."""
        return self.elevation.get(hex_, 0)

    def hexside_of(self, a: Hex, b: Hex) -> str | None:
        """The feature on the hexside between two adjacent hexes, if any."""
        return self.hexsides.get(hexside(a, b))

    def to_json(self) -> dict[str, object]:
        """The board as data: size, and every hex and hexside that is not the default."""
        return {
            "name": self.name,
            "ruleset": self.ruleset,
            "columns": self.columns,
            "rows": self.rows,
            "offset": self.offset,
            "default_terrain": self.default_terrain,
            "hexes": {
                self.label(h): {"terrain": self.terrain_of(h), "elevation": self.elevation_of(h)}
                for h in self.hexes()
                if h in self.terrain or h in self.elevation
            },
            "hexsides": {
                f"{self.label(a)}/{self.label(b)}": f for (a, b), f in self.hexsides.items()
            },
        }


def _fail(path: str, message: str) -> BoardError:
    return BoardError(f"{path}: {message}")


def _header(data: Mapping[str, object], vocabulary: TerrainVocabulary, source: str) -> Board:
    for key, kind in (("name", str), ("ruleset", str), ("columns", int), ("rows", int)):
        value = data.get(key)
        if not isinstance(value, kind) or isinstance(value, bool):
            what = "a string" if kind is str else "an integer"
            raise _fail(source, f"'{key}' must be {what} (got {shown(data.get(key))})")
    name = data["name"]
    assert isinstance(name, str)
    if not name or len(name) > MAX_NAME_CHARACTERS or not name.isprintable():
        raise _fail(
            source,
            f"'name' must be 1 to {MAX_NAME_CHARACTERS} printable characters, without control "
            f"characters or line breaks (got {shown(name)})",
        )
    columns, rows = data["columns"], data["rows"]
    assert isinstance(columns, int)
    assert isinstance(rows, int)
    check_size(columns, rows, source, ("columns", "rows"))
    offset = data.get("offset", "odd-q")
    if offset != "odd-q" and offset != "even-q":  # noqa: PLR1714 - narrows the Literal
        raise _fail(source, f"'offset' must be one of odd-q, even-q (got {shown(offset)})")
    default = data.get("default_terrain", vocabulary.default_terrain)
    if not isinstance(default, str) or default not in vocabulary.hex_terrains:
        allowed = ", ".join(sorted(vocabulary.hex_terrains))
        raise _fail(source, f"'default_terrain' must be one of {allowed} (got {shown(default)})")
    return Board(str(data["name"]), str(data["ruleset"]), columns, rows, offset, default)


def _hex_entry(
    board: Board, label: str, value: object, vocabulary: TerrainVocabulary, source: str
) -> tuple[Hex, str, int]:
    where = _on_board(board, label, source)
    entry = {"terrain": value} if isinstance(value, str) else value
    if not isinstance(entry, Mapping):
        raise _fail(
            source,
            f"hex {label}: must be a terrain name or {{ terrain, elevation }} (got {shown(value)})",
        )
    unknown = sorted(str(key) for key in entry if key not in {"terrain", "elevation"})
    if unknown:
        raise _fail(
            source, f"hex {label}: unknown key {shown(unknown[0])}; allowed: terrain, elevation"
        )
    name = entry.get("terrain", board.default_terrain)
    if not isinstance(name, str) or name not in vocabulary.hex_terrains:
        allowed = ", ".join(sorted(vocabulary.hex_terrains))
        raise _fail(source, f"hex {label}: terrain must be one of {allowed} (got {shown(name)})")
    level = entry.get("elevation", 0)
    if not isinstance(level, int) or isinstance(level, bool) or not 0 <= level <= 9:
        raise _fail(
            source, f"hex {label}: elevation must be an integer from 0 to 9 (got {shown(level)})"
        )
    return where, name, level


def _hexside_entry(
    board: Board, key: str, feature: object, vocabulary: TerrainVocabulary, source: str
) -> tuple[tuple[Hex, Hex], str]:
    parts = key.split("/")
    if len(parts) != 2:
        raise _fail(source, f"hexside {shown(key)}: must be two adjacent hexes 'CCRR/CCRR'")
    a, b = (_on_board(board, p, source) for p in parts)
    if a.distance(b) != 1:
        raise _fail(source, f"hexside {key}: {parts[0]} and {parts[1]} are not adjacent")
    if not isinstance(feature, str) or feature not in vocabulary.hexside_features:
        allowed = ", ".join(sorted(vocabulary.hexside_features))
        raise _fail(
            source, f"hexside {key}: feature must be one of {allowed} (got {shown(feature)})"
        )
    return hexside(a, b), feature


def board_from_data(
    data: Mapping[str, object], vocabulary: TerrainVocabulary, source: str
) -> Board:
    """Build and validate a board from parsed TOML (or any mapping of the same shape)."""
    board = _header(data, vocabulary, source)
    hexes = data.get("hexes", {})
    if not isinstance(hexes, Mapping):
        raise _fail(source, "[hexes] must be a table of hex label = terrain")
    terrain: dict[Hex, str] = {}
    elevation: dict[Hex, int] = {}
    for label, value in hexes.items():
        where, name, level = _hex_entry(board, str(label), value, vocabulary, source)
        if name != board.default_terrain:
            terrain[where] = name
        if level:
            elevation[where] = level
    hexsides = data.get("hexsides", {})
    if not isinstance(hexsides, Mapping):
        raise _fail(source, "[hexsides] must be a table of 'CCRR/CCRR' = feature")
    sides = dict(
        _hexside_entry(board, str(key), feature, vocabulary, source)
        for key, feature in hexsides.items()
    )
    return Board(
        board.name,
        board.ruleset,
        board.columns,
        board.rows,
        board.offset,
        board.default_terrain,
        terrain,
        elevation,
        sides,
    )


def _on_board(board: Board, label: str, source: str) -> Hex:
    try:
        return board.hex(label)
    except InputError as error:
        raise _fail(source, f"hex {shown(label)}: {error}") from None


MAX_BOARD_FILE_BYTES = 4 * 2**20
"""The largest Tiled JSON map or external tileset read: 4 MiB. A map of
:data:`MAX_BOARD_HEXES` hexes takes some tens of KiB (with notes, objects and group layers
rarely a few hundred); a larger file is refused before it is parsed, so it costs neither the
seconds nor the memory of parsing it."""

MAX_TOML_BYTES = 2 * 2**20
"""The largest TOML board file read: 2 MiB. A board of :data:`MAX_BOARD_HEXES` hexes with
every hex written out (a third of them with a level) takes about 1.3 MiB. Python's TOML
parser is slowest on dense arrays and inline tables (about 0.45 s of CPU a MiB measured here,
2 s a MiB under load; a 13 MiB file took over 20 s), so the limit keeps
any file to about a second."""


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
    return _fail(
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
    return _fail(source, f"line {line}: {kind} nested too deeply (a board needs {need})")


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


def load_board(path: Path, vocabulary: TerrainVocabulary) -> Board:
    """Load and validate a TOML board file."""
    return board_from_data(read_toml(path), vocabulary, path.name)
