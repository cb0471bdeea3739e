"""Hex geometry: axial coordinates, wargame labels, distance, directions, rings and hex lines.

Internally hexes are flat-topped and stand in columns. A hex is an axial coordinate ``(q, r)``;
on a flat-top map labelled with numbers it is ``CCRR`` (``0504`` = column 05, row 04). Which
columns stand half a hex lower is the ``offset``: ``odd-q`` (odd-numbered columns shifted down)
or ``even-q``. A board printed with pointy-topped hexes, or labelled letter + number, is the
same grid turned and labelled otherwise (:mod:`firefight.board.layout`).

Directions are numbered 1 to 6 clockwise from the top, as the V&V Artillery Scatter Diagram
numbers them: 1 up, 2 upper right, 3 lower right, 4 down, 5 lower left, 6 upper left.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

from firefight.errors import InputError
from firefight.translation import N_

Offset = Literal["odd-q", "even-q"]

DIRECTIONS: dict[int, tuple[int, int]] = {
    1: (0, -1),
    2: (1, -1),
    3: (1, 0),
    4: (0, 1),
    5: (-1, 1),
    6: (-1, 0),
}
"""Axial steps of directions 1-6 (clockwise from the top)."""

_LABEL = re.compile(r"[0-9]{4}|[0-9]{6}")
"""A label: ASCII digits only (``re``'s ``\\d`` would also take Arabic-Indic or full-width
digits, which ``int`` reads as 0-9), two or three for the column and as many for the row."""
_EPSILON = 1e-6


@dataclass(frozen=True, slots=True, order=True)
class Hex:
    """A hex in axial coordinates. ``Hex(2, -1)``."""

    q: int
    r: int

    @property
    def s(self) -> int:
        """The third cube coordinate (q + r + s = 0)."""
        return -self.q - self.r

    def __add__(self, other: Hex) -> Hex:
        return Hex(self.q + other.q, self.r + other.r)

    def __sub__(self, other: Hex) -> Hex:
        return Hex(self.q - other.q, self.r - other.r)

    def distance(self, other: Hex) -> int:
        """Hexes from here to ``other`` (the target counted, this one not)."""
        d = self - other
        return max(abs(d.q), abs(d.r), abs(d.s))

    def neighbour(self, direction: int) -> Hex:
        """The adjacent hex in ``direction`` (1-6)."""
        if direction not in DIRECTIONS:
            raise InputError("direction", "an integer from 1 to 6", direction)
        dq, dr = DIRECTIONS[direction]
        return Hex(self.q + dq, self.r + dr)

    def neighbours(self) -> list[Hex]:
        """The six adjacent hexes, in direction order 1-6."""
        return [self.neighbour(d) for d in DIRECTIONS]

    def step(self, direction: int, distance: int) -> Hex:
        """The hex ``distance`` hexes away in a straight line along ``direction``."""
        dq, dr = DIRECTIONS[direction]
        return Hex(self.q + dq * distance, self.r + dr * distance)

    def ring(self, radius: int) -> list[Hex]:
        """The hexes at exactly ``radius`` (one hex, this one, for radius 0)."""
        if radius == 0:
            return [self]
        found = []
        here = self.step(5, radius)
        for direction in (1, 2, 3, 4, 5, 6):
            for _ in range(radius):
                found.append(here)
                here = here.neighbour(direction)
        return found

    def line_to(self, other: Hex, nudge: float = _EPSILON) -> list[Hex]:
        """The hexes whose centres the straight centre-to-centre line passes, ends included.

        ``nudge`` shifts the line a hair to one side (``+nudge``) or the other (``-nudge``),
        so that a line running exactly along a hexside is traced on each side in turn.
        """
        n = self.distance(other)
        if n == 0:
            return [self]
        aq, ar, as_ = self.q + nudge, self.r + 2 * nudge, self.s - 3 * nudge
        bq, br, bs = other.q + nudge, other.r + 2 * nudge, other.s - 3 * nudge
        return [
            cube_round(aq + (bq - aq) * i / n, ar + (br - ar) * i / n, as_ + (bs - as_) * i / n)
            for i in range(n + 1)
        ]

    def centre(self, size: float = 1.0) -> tuple[float, float]:
        """Pixel centre of a flat-topped hex of circumradius ``size`` (y grows downwards)."""
        return (1.5 * size * self.q, math.sqrt(3) * size * (self.r + self.q / 2))


def cube_round(q: float, r: float, s: float) -> Hex:
    """The hex containing the fractional cube coordinate ``(q, r, s)``."""
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return Hex(int(rq), int(rr))


def lines_between(a: Hex, b: Hex) -> tuple[list[Hex], list[Hex]]:
    """The centre-to-centre line traced nudged to each side (equal unless along a hexside)."""
    return a.line_to(b, _EPSILON), a.line_to(b, -_EPSILON)


def from_offset(column: int, row: int, offset: Offset = "odd-q") -> Hex:
    """The axial hex of the map's column and row."""
    if offset == "odd-q":
        return Hex(column, row - (column - (column & 1)) // 2)
    return Hex(column, row - (column + (column & 1)) // 2)


def to_offset(hex_: Hex, offset: Offset = "odd-q") -> tuple[int, int]:
    """The map's column and row of an axial hex."""
    if offset == "odd-q":
        return hex_.q, hex_.r + (hex_.q - (hex_.q & 1)) // 2
    return hex_.q, hex_.r + (hex_.q + (hex_.q & 1)) // 2


def label_place(label: str) -> tuple[int, int]:
    """``"0504"`` -> column 5, row 4. Column and row have the same width, written in ASCII
    digits ``0``-``9`` only."""
    text = label.strip() if isinstance(label, str) else ""
    if _LABEL.fullmatch(text) is None:
        allowed = N_("a label CCRR of ASCII digits such as 0504 (column 05, row 04)")
        given = label if isinstance(label, str) else type(label).__name__
        raise InputError("hex", allowed, given if len(given) <= 40 else given[:37] + "...")
    width = len(text) // 2
    return int(text[:width]), int(text[width:])


def parse_label(label: str, offset: Offset = "odd-q") -> Hex:
    """``"0504"`` -> the hex at column 05, row 04 of a flat-top board (:func:`label_place`)."""
    return from_offset(*label_place(label), offset)


def format_label(hex_: Hex, offset: Offset = "odd-q", width: int = 2) -> str:
    """The map label ``CCRR`` of a hex: the pair of :func:`parse_label`."""
    column, row = to_offset(hex_, offset)
    if column < 0 or row < 0:
        msg = f"hex {hex_!r} has a negative column or row ({column}, {row})"
        raise ValueError(msg)
    return f"{column:0{width}d}{row:0{width}d}"


def spiral(centre: Hex, radius: int) -> Iterator[Hex]:
    """Every hex within ``radius`` of ``centre``, ring by ring."""
    for k in range(radius + 1):
        yield from centre.ring(k)
