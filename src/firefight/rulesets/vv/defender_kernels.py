"""The optimal defender's kernels for every path of one game, each computed once (V&V 13.8,
13.9, 6.31, 20.7 on the move).

A game (``move --to --policy optimal``) solves many paths, most of them prefixes and
extensions of each other or paths meeting in a hex; every path's count and induction
(:mod:`~.defender_count`) walk the kernels of the same phases from the same states. A
kernel is a function of what its phase reads, not of the path it was asked for:

* the settling of the hex entered ``at`` (pins, 13.8's stacking, 6.31's bonus) reads the
  movers' states, the leader's bonus, the halt, the hex (the friendly units staying there)
  and whether it ends the path (the units still moving stop there);
* the next hex entered reads, beside the state, which units may go on into it with and
  without the leader's bonus (their MPs spent to it, 6.31), that hex (its minefield, 20.7, and
  the allocation of a hit there, 14.6) and the Fire Lane markers met there (13.9, 13.91: a
  count, whichever lanes put them);
* a fire reads the state, the attack (:class:`~.opportunity.Opportunity` or
  :class:`~.at_move.AtOpportunity`: the firer, the hex, its index, the modifiers and cover)
  and whether it lays its lanes (the mark it adds, ``lane:FIRER@INDEX``).

The stack, its casualty policy and the board are the game's, the same on every path. So the
store keys each kernel by those and keeps it as the phases give it, before any path drops
the marks that can change nothing more on it (:meth:`~.defender.Defence._canon`, a function
of the hexes still to come): each path's walk adds its own marks and drops its own. The
marks a phase adds are the same names on every path; a lane mark names its firer and index,
and the hexes it covers are read only through the markers a path counts from it, so one bit
per name serves every path.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING

from firefight.rulesets.vv.lanes import FireLane, LaneReadings, group_lanes
from firefight.rulesets.vv.move_state import Mover, MoveState

if TYPE_CHECKING:
    from firefight.board.board import Board
    from firefight.board.hexes import Hex
    from firefight.rulesets.vv.opportunity import Firer

NONE: frozenset[str] = frozenset()

Moves = tuple[int, tuple[tuple[int, int, int, int], ...]]
"""A kernel as the store keeps it: its denominator and its states, each the number of its
state without marks, the marks the phase added, its hex index and its weight."""


class GameKernels:
    """The states without marks numbered, the marks as bits, and the kernels of every path
    of one game by what they read (see the module)."""

    def __init__(self) -> None:
        self.bare: list[MoveState] = []
        self._ids: dict[MoveState, int] = {}
        self.bits: dict[str, int] = {}
        self._names: dict[int, frozenset[str]] = {0: NONE}
        self.lanes = 0
        """The bits of the lane marks."""
        self.terminal: dict[int, bool] = {}
        self.moves: dict[tuple[int, int], Moves] = {}
        self.aims: dict[tuple[int, int], bool] = {}
        self.leaves: dict[tuple[str, tuple[Mover, ...]], tuple[int, int]] = {}
        """The objectives of the final states, by objective and the movers' states (the
        stack and how it started are the game's)."""
        self.computed = 0
        """The kernels computed (each once per key)."""
        self._phases: dict[Hashable, int] = {}
        self._lanes_laid: dict[tuple[Firer, Hex], tuple[FireLane, ...]] = {}

    def phase(self, key: Hashable) -> int:
        """The number of a phase by what its kernel reads beside the state: for a fire, its
        kind, its attack (the :class:`~.opportunity.Opportunity` or
        :class:`~.at_move.AtOpportunity`, equal by content) and whether it lays its lanes;
        the settling's and the next hex's keys (:meth:`~.defender.Defence.settle_key`,
        :meth:`~.defender.Defence.enter_key`)."""
        return self._phases.setdefault(key, len(self._phases))

    def group_lanes(
        self, board: Board, firer: Firer, target: Hex, readings: LaneReadings
    ) -> tuple[FireLane, ...]:
        """The lanes a fire group lays firing at ``target`` (:func:`~.lanes.group_lanes`,
        a function of the group, its hex and the target's; the game's readings)."""
        key = (firer, target)
        found = self._lanes_laid.get(key)
        if found is None:
            found = group_lanes(board, firer.hex, target, firer.units, readings)
            self._lanes_laid[key] = found
        return found

    def id(self, bare: MoveState) -> int:
        """The number of a state without marks."""
        found = self._ids.get(bare)
        if found is None:
            found = len(self.bare)
            self._ids[bare] = found
            self.bare.append(bare)
        return found

    def mask(self, marks: frozenset[str]) -> int:
        """The marks as bits (a new mark gets the next bit)."""
        mask = 0
        bits = self.bits
        for m in marks:
            bit = bits.get(m)
            if bit is None:
                bit = 1 << len(bits)
                bits[m] = bit
                self._names[bit] = frozenset((m,))
                if m.startswith("lane:"):
                    self.lanes |= bit
            mask |= bit
        return mask

    def marks(self, mask: int) -> frozenset[str]:
        """The marks of a mask."""
        found = self._names.get(mask)
        if found is None:
            found = frozenset(m for m, bit in self.bits.items() if mask & bit)
            self._names[mask] = found
        return found

    def state(self, state: MoveState) -> tuple[int, int]:
        """A state as the walks number it: without its marks, and its marks."""
        return self.id(state._replace(marks=NONE)), self.mask(state.marks)
