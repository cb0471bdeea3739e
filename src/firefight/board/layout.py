"""How a board is printed: the hexes' orientation, the offset of their staggered lines, the
labels printed in them, and where each hex lies on the page.

firefight keeps one internal coordinate system: the axial ``(q, r)`` of flat-topped hexes
standing in columns (:mod:`firefight.board.hexes`). A **flat-top** board is that grid as it is:
hexes in columns, column ``c`` and row ``r`` from :func:`~firefight.board.hexes.from_offset`.
A **pointy-top** board is the same grid turned a quarter turn clockwise: the flat-top pixel
``(x, y)`` is printed at ``(-y, x)``, so the internal columns become the printed rows and the
hexes stand in rows. A quarter turn is a rotation, not a mirror: on either printed map the
left of a line seen from its start is the same side (a fire lane's ``left`` and ``right``),
and distances, adjacency and lines of sight are the same (the rules code sees only ``Hex``).

* Offsets: flat-top ``odd-q`` (odd-numbered columns half a hex lower) or ``even-q``; pointy-top
  ``odd-r`` (odd-numbered rows half a hex to the right) or ``even-r``.
* Labels: ``numbers`` (``CCRR``: column then row, two or three digits each, ``0504``) or
  ``letter-number``: the letter names the line the hexes are staggered in (the column of a
  flat-top board, the row of a pointy-top board), the number the hex along it (``D2``: column
  D, row 2 on a flat-top board; row D, column 2 on a pointy-top board). Lines past ``Z`` are
  ``AA``, ``BB``, ... ``ZZ``, ``AAA`` (the letter doubled, as wargame maps print them).
* Directions 1-6 (scatter, facing) are the internal ones, numbered clockwise from the top of
  the flat-top grid; on a pointy-top board direction 1 is therefore the hexside to the right
  (east), 2 lower right, 3 lower left, 4 left, 5 upper left, 6 upper right.
"""

from __future__ import annotations

import re
from typing import Literal, get_args

from firefight.board.hexes import Hex, Offset, from_offset, label_place, to_offset
from firefight.errors import InputError

Orientation = Literal["flat-top", "pointy-top"]
Labels = Literal["numbers", "letter-number"]
MapOffset = Literal["odd-q", "even-q", "odd-r", "even-r"]

ORIENTATIONS: tuple[Orientation, ...] = get_args(Orientation)
LABELS: tuple[Labels, ...] = get_args(Labels)
OFFSETS: dict[Orientation, tuple[MapOffset, MapOffset]] = {
    "flat-top": ("odd-q", "even-q"),
    "pointy-top": ("odd-r", "even-r"),
}
"""The offsets of each orientation, the default first."""

_INTERNAL: dict[MapOffset, Offset] = {
    "odd-q": "odd-q",
    "even-q": "even-q",
    "odd-r": "even-q",
    "even-r": "odd-q",
}
"""The internal (flat-top) offset of each printed one: turned a quarter turn clockwise, the
internal columns shifted down (``+y``) are the printed rows shifted left, so printed ``odd-r``
(odd rows to the right, even rows to the left) is internal ``even-q``."""

_LETTERED = re.compile(r"([A-Za-z])(\1*)([0-9]{1,3})", re.IGNORECASE)
"""A letter + number label: one ASCII letter, maybe repeated (``AA`` = the 27th line), then one
to three ASCII digits."""

ALPHABET = 26


def orientation_of(offset: MapOffset) -> Orientation:
    """The orientation an offset belongs to (``odd-q`` -> flat-top, ``odd-r`` -> pointy-top)."""
    return "flat-top" if offset in OFFSETS["flat-top"] else "pointy-top"


def hex_at(column: int, row: int, offset: MapOffset) -> Hex:
    """The hex at the printed ``column`` and ``row`` of a board with this offset."""
    if offset == "odd-q" or offset == "even-q":  # noqa: PLR1714 - narrows the Literal
        return from_offset(column, row, offset)
    return from_offset(row, -column, _INTERNAL[offset])


def place_of(hex_: Hex, offset: MapOffset) -> tuple[int, int]:
    """The printed column and row of a hex (the pair of :func:`hex_at`)."""
    if offset == "odd-q" or offset == "even-q":  # noqa: PLR1714 - narrows the Literal
        return to_offset(hex_, offset)
    column, row = to_offset(hex_, _INTERNAL[offset])
    return -row, column


def grid(columns: int, rows: int, first: int, offset: MapOffset) -> list[Hex]:
    """Every hex of a ``columns`` x ``rows`` board, line by line: a flat-top board column by
    column (each from the top), a pointy-top one row by row (each from the left). Both are
    the internal columns in turn, as :func:`firefight.board.shape.cached_shape` needs them."""
    if orientation_of(offset) == "flat-top":
        return [
            hex_at(c, r, offset)
            for c in range(first, first + columns)
            for r in range(first, first + rows)
        ]
    return [
        hex_at(c, r, offset)
        for r in range(first, first + rows)
        for c in range(first, first + columns)
    ]


def centre(hex_: Hex, orientation: Orientation, size: float = 1.0) -> tuple[float, float]:
    """The pixel centre of a hex of circumradius ``size`` as printed (y grows downwards)."""
    x, y = hex_.centre(size)
    return (x, y) if orientation == "flat-top" else (-y, x)


def first_corner_degrees(orientation: Orientation) -> float:
    """The angle of a hex's first corner from its centre (0: a flat-top hex's right corner;
    30 for a pointy-top hex, whose corners are turned with it)."""
    return 0.0 if orientation == "flat-top" else 30.0


def letters(number: int) -> str:
    """The letters of line ``number`` (1 = ``A``, 26 = ``Z``, 27 = ``AA``, 28 = ``BB``)."""
    times, index = divmod(number - 1, ALPHABET)
    return chr(ord("A") + index) * (times + 1)


def _lettered(label: str) -> tuple[int, int] | None:
    """(line, number) of a letter + number label, or None."""
    match = _LETTERED.fullmatch(label)
    if match is None:
        return None
    index = ord(match.group(1).upper()) - ord("A") + 1
    return ALPHABET * len(match.group(2)) + index, int(match.group(3))


def label_example(orientation: Orientation, labels: Labels) -> str:
    """What a label looks like, as an error's "allowed" part says it."""
    if labels == "numbers":
        return "a label CCRR of ASCII digits such as 0504 (column 05, row 04)"
    if orientation == "flat-top":
        return "a label such as D2 (column D, row 2)"
    return "a label such as D2 (row D, column 2)"


def parse_place(label: object, orientation: Orientation, labels: Labels) -> tuple[int, int]:
    """The printed ``(column, row)`` of a label, or an error naming the field ``hex``, the
    labels allowed and the label given."""
    if labels == "numbers":
        return label_place(label)  # type: ignore[arg-type]  # it refuses a non-string
    text = label.strip() if isinstance(label, str) else ""
    found = _lettered(text)
    if found is None:
        given = label if isinstance(label, str) else type(label).__name__
        shown = given if len(given) <= 40 else given[:37] + "..."
        raise InputError("hex", label_example(orientation, labels), shown)
    line, number = found
    return (line, number) if orientation == "flat-top" else (number, line)


def format_place(
    column: int, row: int, orientation: Orientation, labels: Labels, width: int = 2
) -> str | None:
    """The label of a printed column and row (the pair of :func:`parse_place`), or None where
    it has none (a negative number, or a lettered line before ``A``)."""
    if labels == "numbers":
        if column < 0 or row < 0:
            return None
        return f"{column:0{width}d}{row:0{width}d}"
    line, number = (column, row) if orientation == "flat-top" else (row, column)
    if line < 1 or number < 0:
        return None
    return f"{letters(line)}{number}"
