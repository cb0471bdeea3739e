"""The optimal defender's decision states, counted before they are valued (V&V 13.8, 13.9).

:meth:`~.defender.Defence.solve` values every decision state the move can reach (each one
step of the budget, :data:`~.defender.MAX_STATES`); valuing one costs its kernels and their
``Fraction`` expectations, most of it in the attacks' kernels, one per state and fire.
:func:`decision_states` counts the same states without valuing them, and stops as soon as
the count passes its limit, so that a move past the budget is refused before any is valued.

The count is exact, not an estimate: it walks the same transitions as the induction (the
settling, the next hex entered, each fire the defender may make) and the same canonical
states (:meth:`~.defender.Defence._canon`), so it equals the states the induction values (a
test). It is cheap because no phase of the move reads the marks (``fired:FIRER``,
``lane:FIRER@HEX``) except to add its own, and the lane attack reads only the lanes laid: a
kernel from a state is the kernel from the same state without its marks (the lanes' kept for
the hex entered), each successor given the marks back. The kernels are thus computed once per
state of the movers (their states, the leader's bonus, the halt), not once per state with its
marks, where the firers' marks multiply the states (each subset of the firers that have fired
is a state of its own). The induction values the states the count walked over the same
kernels, kept with their weights, so counting first costs it nothing it would not compute.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Protocol

from firefight.rulesets.vv.move_state import MoveState

if TYPE_CHECKING:
    from firefight.chance.process import IntKernel
    from firefight.rulesets.vv.defender_fire import Fire

_NONE: frozenset[str] = frozenset()


class Defence(Protocol):
    """What the count reads of the defender's decision problem on one path
    (:class:`~.defender.Defence`, which it walks for)."""

    start: MoveState
    fires: dict[int, list[Fire]]

    @property
    def last_marks(self) -> Mapping[str, int]: ...

    def graph(self) -> Walk: ...

    def terminal(self, state: MoveState) -> bool: ...

    def settling(self, state: MoveState) -> IntKernel[MoveState]: ...

    def entered(self, state: MoveState) -> IntKernel[MoveState]: ...

    def fired(self, state: MoveState, fire: Fire) -> IntKernel[MoveState]: ...


def decision_states(defence: Defence, limit: int) -> int:
    """The decision states :meth:`~.defender.Defence.solve` values, counted without valuing
    them; the count stops at the first state past ``limit`` (it returns ``limit + 1``). The
    kernels it computes stay in the defence's :class:`Walk`, for the induction to value."""
    walk = defence.graph()
    seen: set[tuple[int, int]] = set()
    todo: list[tuple[int, int]] = []

    def reach(states: list[tuple[int, int]]) -> bool:
        for s in states:
            if s not in seen:
                seen.add(s)
                todo.append(s)
        return len(seen) > limit

    start = walk.state(defence.start)
    if not defence.terminal(defence.start) and reach(walk.entered(start)):
        return limit + 1
    while todo:
        state = todo.pop()
        if walk.bare[state[0]].halted:
            continue
        for settled in walk.settling(state):
            if not walk.terminal(settled[0]) and reach(walk.entered(settled)):
                return limit + 1
        for fire in walk.may_fire(state):
            if reach(walk.fired(state, fire)):
                return limit + 1
    return len(seen)


State = tuple[int, int]
"""A state as the count walks it: the number of the state without its marks (its movers, the
leader's bonus, the halt, the hex), and its marks as bits."""
Moves = tuple[int, tuple[tuple[int, int, int, int], ...]]
"""A kernel as the walk keeps it: its denominator and its states, each the number of its
state without marks, the marks it adds, its hex and its weight."""
Kernel = tuple[int, list[tuple[State, int]]]
"""A kernel from a state: its denominator and its states with their weights."""
_SETTLE, _ENTER = -1, -2
"""The keys of the settling's and the next hex's kernels (a fire's is its number in the
hex)."""


class Walk:
    """The defence's transitions, each kernel's states computed once per state of the movers
    and given back the marks of the state it starts from (see the module): the count walks
    them, and the induction (:meth:`~.defender.Defence.solve`) values the same states over
    the same kernels."""

    def __init__(self, defence: Defence) -> None:
        self.defence = defence
        self.bare: list[MoveState] = []
        self._ids: dict[MoveState, int] = {}
        self._bits: dict[str, int] = {}
        self._names: dict[int, frozenset[str]] = {0: _NONE}
        self._keep: dict[int, int] = {}
        self._lanes = 0
        self._terminal: dict[int, bool] = {}
        self._moves: dict[tuple[int, int, int], Moves] = {}
        self._aims: dict[tuple[int, int], bool] = {}
        self._fires: dict[int, list[tuple[int, Fire, int]]] = {}

    def _id(self, bare: MoveState) -> int:
        found = self._ids.get(bare)
        if found is None:
            found = len(self.bare)
            self._ids[bare] = found
            self.bare.append(bare)
        return found

    def _mask(self, marks: frozenset[str]) -> int:
        mask = 0
        for m in marks:
            bit = self._bits.get(m)
            if bit is None:
                bit = 1 << len(self._bits)
                self._bits[m] = bit
                self._names[bit] = frozenset((m,))
                if m.startswith("lane:"):
                    self._lanes |= bit
                self._keep.clear()
            mask |= bit
        return mask

    def _marks(self, mask: int) -> frozenset[str]:
        found = self._names.get(mask)
        if found is None:
            found = frozenset(m for m, bit in self._bits.items() if mask & bit)
            self._names[mask] = found
        return found

    def keep(self, at: int) -> int:
        """The marks kept in a state at hex ``at`` (:meth:`~.defender.Defence._canon`)."""
        found = self._keep.get(at)
        if found is None:
            last = self.defence.last_marks
            found = sum(bit for m, bit in self._bits.items() if last.get(m, 0) >= at)
            self._keep[at] = found
        return found

    def state(self, state: MoveState) -> State:
        return self._id(state._replace(marks=_NONE)), self._mask(state.marks)

    def terminal(self, bare: int) -> bool:
        found = self._terminal.get(bare)
        if found is None:
            found = self.defence.terminal(self.bare[bare])
            self._terminal[bare] = found
        return found

    def _kernel(
        self,
        key: tuple[int, int, int],
        kernel: Callable[[MoveState], tuple[int, tuple[tuple[MoveState, int], ...]]],
        state: State,
    ) -> Kernel:
        found = self._moves.get(key)
        if found is None:
            start = self.bare[key[1]]._replace(marks=self._marks(key[2]))
            denominator, items = kernel(start)
            found = denominator, tuple((*self.state(s), s.at, w) for s, w in items)
            self._moves[key] = found
        mask, keep = state[1], self.keep
        return found[0], [((b, (mask | m) & keep(at)), w) for b, m, at, w in found[1]]

    def settle_kernel(self, state: State) -> Kernel:
        """The settling's kernel (:meth:`~.defender.Defence.settling`) from ``state``."""
        return self._kernel((_SETTLE, state[0], 0), self.defence.settling, state)

    def enter_kernel(self, state: State) -> Kernel:
        """The next hex's kernel (:meth:`~.defender.Defence.entered`) from ``state``."""
        lanes = state[1] & self._lanes
        return self._kernel((_ENTER, state[0], lanes), self.defence.entered, state)

    def fire_kernel(self, state: State, fire: tuple[int, Fire]) -> Kernel:
        """A fire's kernel (:meth:`~.defender.Defence.fired`) from ``state``."""
        index, made = fire
        key = (index, state[0], 0)
        return self._kernel(key, lambda s: self.defence.fired(s, made), state)

    def settling(self, state: State) -> list[State]:
        return [s for s, _ in self.settle_kernel(state)[1]]

    def entered(self, state: State) -> list[State]:
        return [s for s, _ in self.enter_kernel(state)[1]]

    def _hex_fires(self, at: int) -> list[tuple[int, Fire, int]]:
        found = self._fires.get(at)
        if found is None:
            fires = self.defence.fires.get(at, ())
            found = [(i, f, self._mask(frozenset((f.mark,)))) for i, f in enumerate(fires)]
            self._fires[at] = found
        return found

    def may_fire(self, state: State) -> list[tuple[int, Fire]]:
        """The fires the defender may make (:meth:`~.defender.Defence.may_fire`), numbered
        in the hex."""
        bare = self.bare[state[0]]
        if bare.halted:
            return []
        found = []
        for i, fire, bit in self._hex_fires(bare.at):
            if state[1] & bit:
                continue
            aims = self._aims.get((i, state[0]))
            if aims is None:
                aims = fire.phase.aim(bare) is not None
                self._aims[i, state[0]] = aims
            if aims:
                found.append((i, fire))
        return found

    def fired(self, state: State, fire: tuple[int, Fire]) -> list[State]:
        return [s for s, _ in self.fire_kernel(state, fire)[1]]
