"""What a board's picture is asked to show besides the board: the visible hexes (a
set, a mapping to verdicts or modifiers, or an ``(origin, hexes)`` pair) and every hex an
option mentions (:func:`firefight.board.render.render_board`'s ``units``, ``los`` and
``visible``).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass

from firefight.board.hexes import Hex
from firefight.board.los import LosVerdict

Visible = (
    Collection[Hex]
    | Mapping[Hex, LosVerdict]
    | Mapping[Hex, int]
    | tuple[Hex, Collection[Hex] | Mapping[Hex, LosVerdict] | Mapping[Hex, int]]
)
"""What ``render_board(visible=...)`` accepts: see :func:`render_board`."""


@dataclass(frozen=True)
class Seen:
    """The visible set to draw, whichever shape it was given in."""

    hexes: frozenset[Hex] | None
    modifiers: Mapping[Hex, int]
    origin: Hex | None

    @classmethod
    def of(cls, visible: Visible | None, origin: Hex | None) -> Seen:
        if (
            isinstance(visible, tuple)
            and len(visible) == 2
            and isinstance(visible[0], Hex)
            and not isinstance(visible[1], Hex)
        ):
            origin, visible = visible[0], visible[1]
        if visible is None:
            return cls(None, {}, origin)
        modifiers: dict[Hex, int] = {}
        if isinstance(visible, Mapping):
            for h, value in visible.items():
                modifier = value.modifier if isinstance(value, LosVerdict) else int(value)
                if modifier:
                    modifiers[h] = modifier
        hexes = frozenset(h for h in visible if isinstance(h, Hex))
        return cls(hexes, modifiers, origin)


def mentioned_hexes(
    units: Mapping[Hex, str] | None, los: tuple[Hex, Hex, LosVerdict] | None, seen: Seen
) -> Iterable[Hex]:
    yield from units or ()
    if los:
        yield los[0]
        yield los[1]
    yield from seen.hexes or ()
    if seen.origin is not None:
        yield seen.origin
