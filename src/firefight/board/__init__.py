"""The hex board: geometry, board files, line of sight and visibility."""

from firefight.board.board import Board, BoardError, load_board
from firefight.board.hexes import Hex, format_label, parse_label
from firefight.board.los import LosPolicy, LosVerdict, hex_range, line_of_sight, visible_from
from firefight.board.scatter import impact_distribution, impact_hex
from firefight.board.visibility import Visibility, visibility_matrix, visible_set, visible_sets

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
