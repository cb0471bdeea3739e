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
is a state of its own); and once per game, not per path: a kernel is kept in the game's store
(:class:`~.defender_kernels.GameKernels`) by what its phase reads, the same on every path
that asks for it, before the path drops the marks that change nothing more on it. The
induction values the states the count walked over the same kernels, kept with their weights,
so counting first costs it nothing it would not compute; the plan found is walked forward
over them too.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from firefight.chance.process import IntKernel
    from firefight.rulesets.vv.defender_fire import Fire
    from firefight.rulesets.vv.defender_kernels import GameKernels
    from firefight.rulesets.vv.move_state import MoveState
    from firefight.rulesets.vv.movement import MovePlan


class Defence(Protocol):
    """What the count reads of the defender's decision problem on one path
    (:class:`~.defender.Defence`, which it walks for)."""

    plan: MovePlan
    start: MoveState
    fires: dict[int, list[Fire]]
    store: GameKernels

    @property
    def last_marks(self) -> Mapping[str, int]: ...

    def graph(self) -> Walk: ...

    def terminal(self, state: MoveState) -> bool: ...

    def settle_key(self, at: int) -> Hashable: ...

    def enter_key(self, at: int, lanes: frozenset[str]) -> Hashable: ...

    def settle_raw(self, state: MoveState) -> IntKernel[MoveState]: ...

    def enter_raw(self, state: MoveState) -> IntKernel[MoveState]: ...

    def fire_raw(self, state: MoveState, fire: Fire) -> IntKernel[MoveState]: ...


def decision_states(defence: Defence, limit: int) -> int:
    """The decision states :meth:`~.defender.Defence.solve` values, counted without valuing
    them; the count stops at the first state past ``limit`` (it returns ``limit + 1``). The
    kernels it computes stay in the defence's :class:`Walk`, for the induction to value."""
    walk = defence.graph()
    seen: set[tuple[int, int]] = set()
    todo: list[tuple[int, int]] = []
    after: set[tuple[int, int]] = set()  # the settled states whose next hex is walked

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
            if settled in after or walk.terminal(settled[0]):
                continue
            after.add(settled)
            if reach(walk.entered(settled)):
                return limit + 1
        for fire in walk.may_fire(state):
            if reach(walk.fired(state, fire)):
                return limit + 1
    return len(seen)


State = tuple[int, int]
"""A state as the count walks it: the number of the state without its marks (its movers, the
leader's bonus, the halt, the hex), and its marks as bits."""
Kernel = tuple[int, list[tuple[State, int]]]
"""A kernel from a state: its denominator and its states with their weights."""


class Walk:
    """The defence's transitions, each kernel's states computed once per state of the movers
    and what its phase reads (the game's store, :class:`~.defender_kernels.GameKernels`,
    shared by every path of a game) and given back the marks of the state it starts from,
    less those the path drops (see the module): the count walks them, and the induction
    (:meth:`~.defender.Defence.solve`) values the same states over the same kernels."""

    def __init__(self, defence: Defence) -> None:
        self.defence = defence
        self.store = defence.store
        self.bare = self.store.bare
        self._keep: list[int] = []
        self._known = -1
        self._enter: dict[tuple[int, int], int] = {}
        self._settle: dict[int, int] = {}
        self._fires: dict[int, list[tuple[int, Fire, int]]] = {}
        self._hex_bits: dict[int, int] = {}
        self._may: dict[tuple[int, int], list[tuple[int, Fire]]] = {}

    def keeps(self) -> list[int]:
        """The marks kept in a state at each hex index (:meth:`~.defender.Defence._canon`),
        of the marks the game has numbered so far."""
        bits = self.store.bits
        if len(bits) != self._known:
            last = self.defence.last_marks
            self._keep = [
                sum(bit for m, bit in bits.items() if last.get(m, 0) >= at)
                for at in range(len(self.defence.plan.steps) + 1)
            ]
            self._known = len(bits)
        return self._keep

    def state(self, state: MoveState) -> State:
        return self.store.state(state)

    def terminal(self, bare: int) -> bool:
        found = self.store.terminal.get(bare)
        if found is None:
            found = self.defence.terminal(self.bare[bare])
            self.store.terminal[bare] = found
        return found

    def _kernel(
        self,
        phase: int,
        kernel: Callable[[MoveState], IntKernel[MoveState]],
        state: State,
        start: int = 0,
    ) -> Kernel:
        """The kernel of ``phase`` (its number in the store) from ``state``: the store's,
        computed by ``kernel`` from the state without marks but ``start`` the first time
        the game asks for it, given the state's marks less those the path drops."""
        store = self.store
        moves = store.moves.get((phase, state[0]))
        if moves is None:
            denominator, items = kernel(self.bare[state[0]]._replace(marks=store.marks(start)))
            states = [(store.state(s), s.at, w) for s, w in items]
            moves = denominator, tuple((b, m & ~start, at, w) for (b, m), at, w in states)
            store.moves[phase, state[0]] = moves
            store.computed += 1
        mask, keep = state[1], self.keeps()
        return moves[0], [((b, (mask | m) & keep[at]), w) for b, m, at, w in moves[1]]

    def settle_kernel(self, state: State) -> Kernel:
        """The settling's kernel (:meth:`~.defender.Defence.settle_raw`) from ``state``."""
        at = self.bare[state[0]].at
        phase = self._settle.get(at)
        if phase is None:
            phase = self._settle[at] = self.store.phase(self.defence.settle_key(at))
        return self._kernel(phase, self.defence.settle_raw, state)

    def enter_kernel(self, state: State) -> Kernel:
        """The next hex's kernel (:meth:`~.defender.Defence.enter_raw`) from ``state``."""
        lanes = state[1] & self.store.lanes
        at = self.bare[state[0]].at
        phase = self._enter.get((at, lanes))
        if phase is None:
            phase = self.store.phase(self.defence.enter_key(at, self.store.marks(lanes)))
            self._enter[at, lanes] = phase
        return self._kernel(phase, self.defence.enter_raw, state, lanes)

    def fire_kernel(self, state: State, fire: tuple[int, Fire]) -> Kernel:
        """A fire's kernel (:meth:`~.defender.Defence.fire_raw`) from ``state`` (``fire``:
        its number in the hex, and the fire)."""
        made = fire[1]
        return self._kernel(made.key, lambda s: self.defence.fire_raw(s, made), state)

    def settling(self, state: State) -> list[State]:
        return [s for s, _ in self.settle_kernel(state)[1]]

    def entered(self, state: State) -> list[State]:
        return [s for s, _ in self.enter_kernel(state)[1]]

    def _hex_fires(self, at: int) -> list[tuple[int, Fire, int]]:
        found = self._fires.get(at)
        if found is None:
            fires = self.defence.fires.get(at, ())
            found = [(i, f, self.store.mask(frozenset((f.mark,)))) for i, f in enumerate(fires)]
            self._fires[at] = found
            self._hex_bits[at] = sum({bit for _, _, bit in found})
        return found

    def may_fire(self, state: State) -> list[tuple[int, Fire]]:
        """The fires the defender may make (:meth:`~.defender.Defence.may_fire`), numbered
        in the hex."""
        bare = self.bare[state[0]]
        if bare.halted:
            return []
        fires = self._hex_fires(bare.at)
        key = (state[0], state[1] & self._hex_bits[bare.at])  # the fires of the hex made
        found = self._may.get(key)
        if found is None:
            found = []
            aims = self.store.aims
            for i, fire, bit in fires:
                if state[1] & bit:
                    continue
                aim = (fire.key, state[0])
                aimed = aims.get(aim)
                if aimed is None:
                    aimed = aims[aim] = fire.phase.aim(bare) is not None
                if aimed:
                    found.append((i, fire))
            self._may[key] = found
        return found

    def fired(self, state: State, fire: tuple[int, Fire]) -> list[State]:
        return [s for s, _ in self.fire_kernel(state, fire)[1]]

    # --- the same kernels over the move's states, for a plan walked forward ---------------

    def _states(self, kernel: Kernel) -> IntKernel[MoveState]:
        marks, bare = self.store.marks, self.bare
        return kernel[0], tuple((bare[b]._replace(marks=marks(m)), w) for (b, m), w in kernel[1])

    def settling_states(self, state: MoveState) -> IntKernel[MoveState]:
        """:meth:`~.defender.Defence.settling`, from the store's kernel."""
        return self._states(self.settle_kernel(self.state(state)))

    def entered_states(self, state: MoveState) -> IntKernel[MoveState]:
        """:meth:`~.defender.Defence.entered`, from the store's kernel."""
        return self._states(self.enter_kernel(self.state(state)))

    def fired_states(self, state: MoveState, fire: Fire) -> IntKernel[MoveState]:
        """:meth:`~.defender.Defence.fired`, from the store's kernel."""
        return self._states(self.fire_kernel(self.state(state), (0, fire)))

    def may_fire_states(self, state: MoveState) -> list[Fire]:
        """:meth:`~.defender.Defence.may_fire`, from the store's aims."""
        return [f for _, f in self.may_fire(self.state(state))]
