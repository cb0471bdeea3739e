"""What a rule set draws on top of a board: unit counters, a path, marker chains (fire lanes)
and a shading of hexes by a probability, with its legend.

The board layer knows no rule set: an :class:`Overlay` is plain hexes, texts and numbers in
``[0, 1]``. A rule set builds one from its own answers (V&V's movement and threat map) and both
faces draw it the same way: :func:`firefight.board.render.render_board` in a PNG or SVG picture
and :mod:`firefight.web.boardsvg` on the web page, with the same colours
(:func:`shade_colour`, :data:`SIDE_COLOURS`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import pairwise

from firefight.board.hexes import Hex
from firefight.errors import InputError

SIDE_COLOURS: tuple[tuple[str, str], ...] = (
    ("#c9d6a3", "#2f3d12"),
    ("#a9c4e6", "#12263d"),
    ("#e6b8a9", "#3d1a12"),
    ("#d8c8e8", "#2a1a3d"),
)
"""Fill and text colour of a counter by side index (the first side's olive, the second's
blue, ...); a side past the last reuses the colours in turn."""

SHADE_STOPS: tuple[tuple[float, str], ...] = (
    (0.0, "#fff5c0"),
    (0.25, "#fdc25a"),
    (0.5, "#f37b2a"),
    (0.75, "#d7301f"),
    (1.0, "#7f0000"),
)
"""The shading ramp, pale yellow (0) to dark red (1): a colour-blind-safe sequential scale
(ColorBrewer YlOrRd) whose lightness falls with the value."""
SHADE_ALPHA = 0.6
"""How opaque the shading is over the terrain (the terrain stays readable under it)."""
PATH_COLOUR = "#1f4e9c"
LANE_COLOUR = "#b0008a"
MAX_COUNTERS_DRAWN = 3
"""Counters drawn per hex; a taller stack shows ``+N`` on its top counter."""


def shade_colour(value: float | Fraction) -> str:
    """The colour of a value in ``[0, 1]`` on :data:`SHADE_STOPS` (linear between stops)."""
    x = min(1.0, max(0.0, float(value)))
    for (low, a), (high, b) in pairwise(SHADE_STOPS):
        if x <= high:
            share = (x - low) / (high - low)
            return _mix(a, b, share)
    return SHADE_STOPS[-1][1]


def _mix(colour: str, other: str, share: float) -> str:
    a = [int(colour[i : i + 2], 16) for i in (1, 3, 5)]
    b = [int(other[i : i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(x + (y - x) * share):02x}" for x, y in zip(a, b, strict=True))


def side_colours(side: int) -> tuple[str, str]:
    """Fill and text colour of side ``side``'s counters."""
    return SIDE_COLOURS[side % len(SIDE_COLOURS)]


@dataclass(frozen=True, slots=True)
class Counter:
    """One unit counter: its hex, a short text (``"1/A"``, ``"MG42"``), its side's index (the
    colours) and a state shown under the text (``"pinned"``, ``"fired"``; empty when none)."""

    hex: Hex
    text: str
    side: int = 0
    state: str = ""


@dataclass(frozen=True)
class Overlay:
    """Everything drawn over the terrain, bottom to top: the shading (each hex's value in
    ``[0, 1]``, with ``legend`` naming what it measures), per-hex ``notes`` (a short text such
    as ``"23%"``), the ``lanes`` (chains of markers, one per hex), the ``path`` (a line through
    the hexes' centres, its first hex ringed) and the ``counters``."""

    counters: tuple[Counter, ...] = ()
    path: tuple[Hex, ...] = ()
    lanes: tuple[tuple[Hex, ...], ...] = ()
    shading: Mapping[Hex, Fraction | float] = field(default_factory=dict)
    notes: Mapping[Hex, str] = field(default_factory=dict)
    legend: str = ""

    def __post_init__(self) -> None:
        for h, value in self.shading.items():
            if not 0 <= value <= 1:
                raise InputError("shading", "values from 0 to 1", f"{value} at {h}")

    def hexes(self) -> Iterator[Hex]:
        """Every hex the overlay draws on (to check that it is on the board)."""
        for counter in self.counters:
            yield counter.hex
        yield from self.path
        for lane in self.lanes:
            yield from lane
        yield from self.shading
        yield from self.notes

    def stacks(self) -> dict[Hex, list[Counter]]:
        """The counters by hex, in the order given (the first is drawn at the bottom)."""
        found: dict[Hex, list[Counter]] = {}
        for counter in self.counters:
            found.setdefault(counter.hex, []).append(counter)
        return found


def legend_stops(steps: int = 5) -> list[tuple[float, str]]:
    """``steps`` values evenly from 0 to 1 with their colours: the legend's swatches."""
    return [(k / (steps - 1), shade_colour(k / (steps - 1))) for k in range(steps)]
