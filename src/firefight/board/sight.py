"""The steps of a line of sight, the values both tracers give.

The centre-to-centre line from one hex to another passes *through* a hex, *across* the hexside
between two consecutive hexes, or *along* the hexside between two hexes, one on each side of it.
:func:`firefight.board.los.trace` gives a line's steps from the geometry, and
:func:`firefight.board.visibility.traced_steps` reads the same steps back from the engine's
bytes; both speak these values, which import nothing of either.
"""

from __future__ import annotations

from dataclasses import dataclass

from firefight.board.hexes import Hex


@dataclass(frozen=True, slots=True)
class Through:
    """The line passes through the interior of an intermediate hex."""

    hex: Hex


@dataclass(frozen=True, slots=True)
class Across:
    """The line crosses the hexside between two consecutive hexes."""

    before: Hex
    after: Hex


@dataclass(frozen=True, slots=True)
class Along:
    """The line runs along the hexside between two hexes, one on each side of it."""

    left: Hex
    right: Hex


Step = Through | Across | Along
"""One step of a line, in the order the line meets it."""
