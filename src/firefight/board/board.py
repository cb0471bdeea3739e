"""A hex board: each hex's terrain and elevation, each hexside's feature.

Boards are written by hand in TOML (see ``docs/boards.md``) or imported from the Tiled map
editor. A board names the rule set whose terrain vocabulary it uses; loading checks every
terrain name against that vocabulary and names the hex of any bad value.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Protocol

from firefight.board.hexes import Hex
from firefight.board.layout import (
    LABELS,
    OFFSETS,
    ORIENTATIONS,
    Labels,
    MapOffset,
    Orientation,
    centre,
    format_place,
    grid,
    hex_at,
    parse_place,
    place_of,
)
from firefight.board.reading import (
    MAX_BOARD_FILE_BYTES,
    MAX_TOML_BYTES,
    MAX_TOML_VALUES,
    SHOWN_CHARACTERS,
    SHOWN_INTEGER_BITS,
    BoardError,
    board_file_error,
    deepest_line,
    read_text,
    read_toml,
    shown,
    too_deep,
    too_long_a_number,
)
from firefight.board.reading import fail as _fail
from firefight.errors import InputError
from firefight.i18n import gettext as _

__all__ = [
    "MAX_BOARD_FILE_BYTES",
    "MAX_BOARD_HEXES",
    "MAX_DRAWN_HEXES",
    "MAX_LABEL_NUMBER",
    "MAX_NAME_CHARACTERS",
    "MAX_TOML_BYTES",
    "MAX_TOML_VALUES",
    "SHOWN_CHARACTERS",
    "SHOWN_INTEGER_BITS",
    "Board",
    "BoardError",
    "TerrainVocabulary",
    "board_file_error",
    "board_from_data",
    "check_drawable",
    "check_size",
    "deepest_line",
    "hexside",
    "load_board",
    "read_text",
    "read_toml",
    "shown",
    "too_deep",
    "too_long_a_number",
]

MAX_BOARD_HEXES = 40_000
"""The largest board firefight loads: at most this many hexes (``columns`` x ``rows``), e.g.
200 x 200. Set by what line of sight handles (docs/boards.md): a visible set's time and memory
grow with the board's hexes, and the first board of a size builds that size's line templates
(``benchmarks/visibility.py`` measures both), so a larger board is refused before either is
spent. Pictures have their own, smaller limit (:data:`MAX_DRAWN_HEXES`)."""

MAX_DRAWN_HEXES = 600
"""The largest board drawn to a picture (``board show --out``, ``board los --out``, ``board
visible --out``): a picture's cost grows with its hexes, each drawn with its terrain, symbols
and label, so the limit holds a 24 x 24 board (576 hexes). Larger boards load and answer line
of sight; drawing them is refused on one line (:func:`check_drawable`)."""

MAX_NAME_CHARACTERS = 100
"""The longest board name. A name is printed as it is (``firefight board show``), so it may hold
no control character: a board file could otherwise write terminal escape sequences or fake
lines into the output."""

MAX_LABEL_NUMBER = 999
"""The largest column or row number: a label's column and row have at most three digits
(``CCCRRR``), as :func:`~firefight.board.hexes.parse_label` reads them."""


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
            _(
                "given only for a board of at most {max_drawn_hexes} hexes (pictures are slow; "
                "this board loads and answers line of sight without one)"
            ).format(max_drawn_hexes=MAX_DRAWN_HEXES),
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
    """A rectangular hex board of ``columns`` x ``rows`` as printed, labelled from its first
    column and row (``0101`` or ``A1``). ``orientation``, ``offset`` and ``labels`` say how it
    is printed (:mod:`firefight.board.layout`); the hexes are the one internal grid either way."""

    name: str
    ruleset: str
    columns: int
    rows: int
    offset: MapOffset = "odd-q"
    default_terrain: str = "clear"
    terrain: Mapping[Hex, str] = field(default_factory=dict)
    elevation: Mapping[Hex, int] = field(default_factory=dict)
    hexsides: Mapping[tuple[Hex, Hex], str] = field(default_factory=dict)
    first: int = 1
    """Number of the first column and of the first row (most maps start at 01)."""
    orientation: Orientation = "flat-top"
    """``flat-top`` (hexes in columns) or ``pointy-top`` (hexes in rows)."""
    labels: Labels = "numbers"
    """``numbers`` (``CCRR``) or ``letter-number`` (``D2``)."""

    def __post_init__(self) -> None:
        if self.orientation not in ORIENTATIONS:
            raise InputError(
                "orientation",
                _("one of {values}").format(values=", ".join(ORIENTATIONS)),
                self.orientation,
            )
        if self.labels not in LABELS:
            raise InputError(
                "labels", _("one of {values}").format(values=", ".join(LABELS)), self.labels
            )
        if self.offset not in OFFSETS[self.orientation]:
            allowed = ", ".join(OFFSETS[self.orientation])
            raise InputError(
                "offset",
                _("one of {allowed} ({orientation})").format(
                    allowed=allowed, orientation=self.orientation
                ),
                self.offset,
            )

    def __contains__(self, hex_: object) -> bool:
        if not isinstance(hex_, Hex):
            return False
        column, row = self.column_row(hex_)
        return (
            self.first <= column < self.first + self.columns
            and self.first <= row < self.first + self.rows
        )

    def column_row(self, hex_: Hex) -> tuple[int, int]:
        """The printed column and row of a hex."""
        return place_of(hex_, self.offset)

    def hexes(self) -> Iterator[Hex]:
        """Every hex, line by line (:func:`firefight.board.layout.grid`)."""
        yield from grid(self.columns, self.rows, self.first, self.offset)

    def label(self, hex_: Hex) -> str:
        """The printed label of a hex (``CCRR`` or ``D2``); ``(q,r)`` off the map's numbering
        (a line can graze a ragged edge)."""
        width = max(2, len(str(self.first + max(self.columns, self.rows) - 1)))
        column, row = self.column_row(hex_)
        text = format_place(column, row, self.orientation, self.labels, width)
        return f"({hex_.q},{hex_.r})" if text is None else text

    def locate(self, label: str) -> Hex:
        """The hex of a printed label, on this board or not (an error names a malformed one)."""
        return hex_at(*parse_place(label, self.orientation, self.labels), self.offset)

    def hex(self, label: str) -> Hex:
        """The hex of a printed label, which must be on this board."""
        found = self.locate(label)
        if found not in self:
            last = self.label(
                hex_at(self.first + self.columns - 1, self.first + self.rows - 1, self.offset)
            )
            first = self.label(hex_at(self.first, self.first, self.offset))
            raise InputError(
                "hex",
                _("a hex of board {shown} ({first}..{last})").format(
                    shown=shown(self.name), first=first, last=last
                ),
                label,
            )
        return found

    def centre(self, hex_: Hex, size: float = 1.0) -> tuple[float, float]:
        """The pixel centre of a hex as printed (y grows downwards)."""
        return centre(hex_, self.orientation, size)

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
            "orientation": self.orientation,
            "labels": self.labels,
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
    orientation, offset, labels = _printed(data, source)
    default = data.get("default_terrain", vocabulary.default_terrain)
    if not isinstance(default, str) or default not in vocabulary.hex_terrains:
        allowed = ", ".join(sorted(vocabulary.hex_terrains))
        raise _fail(source, f"'default_terrain' must be one of {allowed} (got {shown(default)})")
    return Board(
        str(data["name"]),
        str(data["ruleset"]),
        columns,
        rows,
        offset,
        default,
        orientation=orientation,
        labels=labels,
    )


def _printed(data: Mapping[str, object], source: str) -> tuple[Orientation, MapOffset, Labels]:
    """The file's ``orientation`` (default flat-top), ``offset`` (default the orientation's
    first: odd-q or odd-r) and ``labels`` (default numbers)."""
    orientation = data.get("orientation", "flat-top")
    if orientation not in ORIENTATIONS:
        raise _fail(
            source,
            f"'orientation' must be one of {', '.join(ORIENTATIONS)} (got {shown(orientation)})",
        )
    allowed = OFFSETS[orientation]
    offset = data.get("offset", allowed[0])
    if offset not in allowed:
        raise _fail(
            source,
            f"'offset' must be one of {', '.join(allowed)} for a {orientation} board "
            f"(got {shown(offset)})",
        )
    labels = data.get("labels", "numbers")
    if labels not in LABELS:
        raise _fail(source, f"'labels' must be one of {', '.join(LABELS)} (got {shown(labels)})")
    return orientation, offset, labels


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
    return replace(board, terrain=terrain, elevation=elevation, hexsides=sides)


def _on_board(board: Board, label: str, source: str) -> Hex:
    try:
        return board.hex(label)
    except InputError as error:
        raise _fail(source, f"hex {shown(label)}: {error}") from None


def load_board(path: Path, vocabulary: TerrainVocabulary) -> Board:
    """Load and validate a TOML board file."""
    return board_from_data(read_toml(path), vocabulary, path.name)
