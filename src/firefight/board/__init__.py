"""The hex board: geometry, board files, line of sight and visibility."""

from firefight.board.board import Board, BoardError, load_board
from firefight.board.hexes import Hex, format_label, parse_label
from firefight.board.los import LosPolicy, LosVerdict, line_of_sight, visible_from

__all__ = [
    "Board",
    "BoardError",
    "Hex",
    "LosPolicy",
    "LosVerdict",
    "format_label",
    "line_of_sight",
    "load_board",
    "parse_label",
    "visible_from",
]
