"""The board's contents on the cell grid: the per-cell and per-hexside tables a
rule set's :class:`~firefight.board.sight_rule.SightRule` reads, and the policy that builds a
rule on them (:class:`SightPolicy`) (:mod:`firefight.board.visibility`, its section "the
board's contents on the grid"). :func:`firefight.board.visibility.board_cells`
keeps them per board.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from firefight.board.board import Board
from firefight.board.hexes import Hex
from firefight.board.hexline import (
    Bools,
    Ints,
    direction_codes,
)
from firefight.board.shape import BoardShape
from firefight.board.sight_rule import (
    SightRule,
)

# --- the board's contents on the grid -------------------------------------------------------


class BoardCells:
    """A board's terrain, levels and hexside features on the cells of its shape's grid, and
    the tables a :class:`SightRule` builds from them.

    Cells outside the board (a line can graze a ragged edge) read as ``Board.terrain_of`` and
    ``Board.elevation_of`` read them. Hexsides are looked up as ``Board.hexside_of`` does:
    hexside ``6 * cell + k`` is the one in direction code ``k`` (0-5: directions 1-6). Every
    table a rule indexes with :class:`StepWindow` ids ends with one neutral entry (cell
    ``cells``, hexside and corner ``6 * cells``), which padding and "none" point at.
    """

    def __init__(self, board: Board, shape: BoardShape) -> None:
        self.board = board
        self.shape = shape
        size = shape.cells
        vocabulary = {board.default_terrain: 0}
        for name in set(board.terrain.values()):
            vocabulary.setdefault(name, len(vocabulary))
        self.terrain_names = tuple(vocabulary)
        self.terrain = np.zeros(size, dtype=np.int32)
        self._put(
            self.terrain, board.terrain.keys(), map(vocabulary.__getitem__, board.terrain.values())
        )
        self.elevation = np.zeros(size, dtype=np.int32)
        self._put(self.elevation, board.elevation.keys(), board.elevation.values())
        features = {"": 0}
        for name in set(board.hexsides.values()):
            features.setdefault(name, len(features))
        self.feature_names = tuple(features)
        self.hexsides = np.zeros(6 * size, dtype=np.int32)
        if board.hexsides:
            a_cell = self._cells(a for a, _ in board.hexsides)
            b_cell = self._cells(b for _, b in board.hexsides)
            code = np.fromiter(
                map(features.__getitem__, board.hexsides.values()), np.int32, len(a_cell)
            )
            a_q, a_r = np.divmod(a_cell, shape.height)
            b_q, b_r = np.divmod(b_cell, shape.height)
            forth = direction_codes(b_q - a_q, b_r - a_r)
            back = direction_codes(a_q - b_q, a_r - b_r)
            # Only what Board.hexside_of finds: adjacent hexes, in hexside() order.
            found = (a_cell >= 0) & (b_cell >= 0) & (forth >= 0) & (a_cell <= b_cell)
            self.hexsides[a_cell[found] * 6 + forth[found]] = code[found]
            self.hexsides[b_cell[found] * 6 + back[found]] = code[found]
        self._rules: dict[object, SightRule] = {}

    def rule(self, policy: SightPolicy) -> SightRule:
        """``policy``'s rule on this board (built once per policy: its tables)."""
        found = self._rules.get(policy)
        if found is None:
            found = self._rules[policy] = policy.sight_rule(self)
        return found

    def _cells(self, hexes: Iterable[Hex]) -> Ints:
        listed = list(hexes)
        q = np.array([h.q for h in listed], dtype=np.int32)
        r = np.array([h.r for h in listed], dtype=np.int32)
        return self.shape.cell_ids(q, r)

    def _put(self, table: Ints, hexes: Iterable[Hex], values: Iterable[int]) -> None:
        cell = self._cells(hexes)
        if len(cell):
            inside = cell >= 0
            table[cell[inside]] = np.fromiter(values, dtype=np.int32, count=len(cell))[inside]

    def terrain_in(self, names: Iterable[str]) -> Bools:
        """Per cell: whether its terrain is one of ``names``."""
        wanted = set(names)
        member = np.array([name in wanted for name in self.terrain_names], dtype=np.bool_)
        return member[self.terrain]

    def features_in(self, names: Iterable[str]) -> Bools:
        """Per hexside id: whether its feature is one of ``names``."""
        wanted = set(names)
        member = np.array([name in wanted for name in self.feature_names], dtype=np.bool_)
        return member[self.hexsides]

    def feature_codes(self, codes: dict[str, int]) -> npt.NDArray[np.int8]:
        """Per hexside id, the code of its feature (0 for none and for features not listed)."""
        table = np.array([codes.get(name, 0) for name in self.feature_names], dtype=np.int8)
        return table[self.hexsides]

    def cell_table(self, values: npt.NDArray[Any], padding: int | bool) -> npt.NDArray[Any]:
        """A per-cell table to index with :class:`StepWindow` cell ids (the neutral cell
        reads ``padding``)."""
        return np.append(values, np.array([padding], dtype=values.dtype))

    def side_table(self, values: npt.NDArray[Any], padding: int | bool) -> npt.NDArray[Any]:
        """A per-hexside table to index with :class:`StepWindow` hexside ids."""
        return np.append(values, np.array([padding], dtype=values.dtype))

    def corner_table(self, sides: npt.NDArray[Any]) -> npt.NDArray[Any]:
        """From a per-hexside table (:meth:`side_table`), a per-corner one to index with
        :class:`StepWindow` corner ids: corner ``6 * cell + k`` of a cell lies between its
        hexsides ``6 * cell + k`` and ``6 * cell + (k + 1) % 6`` and reads their values
        and-ed (bitwise): what both hexsides that fan out from it have."""
        per_cell = sides[:-1].reshape(-1, 6)
        found = (per_cell & np.roll(per_cell, -1, axis=1)).ravel()
        return np.append(found, sides[-1:])

    def sight_table(self, blocking: Bools, flags: Ints) -> npt.NDArray[Any]:
        """Per cell ``height * 256 + flags`` (``flags`` from 0 to 255): the height is the
        cell's level, or above every level where ``blocking``; the neutral cell is below every
        level with no flags. The largest value over a line's cells holds its highest height
        (``>> 8``); each cell's flags are ``& 255``. Two bytes a cell when the levels allow."""
        small = int(self.elevation.min()) >= -100 and int(self.elevation.max()) <= 100
        top, bottom = (127, -128) if small else (1 << 40, -(1 << 40))
        height = np.where(blocking, top, self.elevation).astype(np.int64)
        code = (height << 8) | flags
        return self.cell_table(code.astype(np.int16 if small else np.int64), bottom << 8)


class SightPolicy(Protocol):
    """What the engine needs of a line-of-sight policy."""

    def sight_rule(self, cells: BoardCells) -> SightRule:
        """The policy's rule, reading its tables from the board's cells."""
        ...
