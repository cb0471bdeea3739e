"""The hex board: geometry, board files, line of sight and visibility.

The names below are imported from their modules the first time they are asked for (PEP 562):
the visibility engine is numpy's, and a rule set that only declares its sight policy loads
none of it."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from firefight.board.board import Board, BoardError, load_board
    from firefight.board.hexes import Hex, format_label, parse_label
    from firefight.board.los import LosPolicy, LosVerdict, hex_range, line_of_sight, visible_from
    from firefight.board.scatter import impact_distribution, impact_hex
    from firefight.board.visibility import Visibility, visibility_matrix, visible_set, visible_sets

_MODULES = {
    "board": ("Board", "BoardError", "load_board"),
    "hexes": ("Hex", "format_label", "parse_label"),
    "los": ("LosPolicy", "LosVerdict", "hex_range", "line_of_sight", "visible_from"),
    "scatter": ("impact_distribution", "impact_hex"),
    "visibility": ("Visibility", "visibility_matrix", "visible_set", "visible_sets"),
}
_LAZY = {name: module for module, names in _MODULES.items() for name in names}


def __getattr__(name: str) -> object:
    if name not in _LAZY:
        msg = f"module {__name__!r} has no attribute {name!r}"
        raise AttributeError(msg)
    return getattr(import_module(f"{__name__}.{_LAZY[name]}"), name)


__all__ = [
    "Board",
    "BoardError",
    "Hex",
    "LosPolicy",
    "LosVerdict",
    "Visibility",
    "format_label",
    "hex_range",
    "impact_distribution",
    "impact_hex",
    "line_of_sight",
    "load_board",
    "parse_label",
    "visibility_matrix",
    "visible_from",
    "visible_set",
    "visible_sets",
]
