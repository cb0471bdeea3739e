"""The phases of an engagement's turn as the state engine runs them (docs/engagements.md).

A turn is each side's start of fire and each unit's fire (:class:`Phase`); the state engine
takes a side's consecutive fires as ONE phase of the turn (:class:`SideFire`), whose exact
kernel is the side's fires one after the other, equal states merged after each and every
weight an integer over one denominator. A side's fire is thus cached per state (the state
after one side fired is met from many states the turn started in), and the state engine's
limits are spent as the states come (:class:`~firefight.chance.limits.Budget`).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from math import gcd, lcm
from typing import TYPE_CHECKING, Any, Literal, Protocol

from firefight.chance import Chance
from firefight.chance.limits import KERNEL_COST, Budget
from firefight.chance.phases import IntKernel, KnownPhase

if TYPE_CHECKING:
    import numpy as np

State = tuple[tuple[Any, ...], tuple[Any, ...]]
TurnState = tuple[State | None, State]
"""Within a turn: the state at the start of the turn (simultaneous fire reads it; ``None``
when fire alternates) and the state now."""


@dataclass(frozen=True)
class Phase:
    """One phase of a turn: a side's start of fire, or one unit's fire."""

    kind: Literal["prepare", "fire"]
    side: int
    unit: int = -1


def grouped(phases: tuple[Phase, ...]) -> tuple[tuple[Phase, ...], ...]:
    """The turn's phases with each side's consecutive fires together."""
    groups: list[list[Phase]] = []
    for phase in phases:
        last = groups[-1][-1] if groups else None
        if last and phase.kind == last.kind == "fire" and phase.side == last.side:
            groups[-1].append(phase)
        else:
            groups.append([phase])
    return tuple(tuple(g) for g in groups)


class Phased(Protocol):
    """What a side's fire reads of its engagement (:class:`firefight.sim.engagement.Engagement`)."""

    def run_phase(self, phase: Phase, turn_state: TurnState, chance: Chance) -> TurnState:
        """The phase resolved with ``chance``."""
        ...

    def phase_weights(self, phase: Phase, turn_state: TurnState) -> IntKernel[TurnState]:
        """The phase's exact successors as integer weights."""
        ...

    def draw_phase(
        self, phase: Phase, turn_state: TurnState, k: int, rng: np.random.Generator
    ) -> Iterator[tuple[TurnState, int]]:
        """Where ``k`` runs in ``turn_state`` go in the phase."""
        ...


@dataclass(frozen=True, eq=False)
class SideFire(KnownPhase[TurnState]):
    """A side's start of fire, or its units' fires one after the other, as one phase of the
    turn: on a chance, exactly (from the attacks' cached odds) or in batches (drawn from
    them)."""

    engagement: Phased
    phases: tuple[Phase, ...]

    def __call__(self, state: TurnState, chance: Chance) -> TurnState:
        for phase in self.phases:
            state = self.engagement.run_phase(phase, state, chance)
        return state

    def kernel(self, state: TurnState) -> tuple[tuple[TurnState, Fraction], ...]:
        denominator, items = self.integer_kernel(state)
        return tuple((s, Fraction(w, denominator)) for s, w in items)

    def integer_kernel(
        self, state: TurnState, budget: Budget | None = None
    ) -> IntKernel[TurnState]:
        current: dict[TurnState, int] = {state: 1}
        denominator = 1
        kernel = self.engagement.phase_weights
        for done, phase in enumerate(self.phases):
            if budget is not None:  # each fire left at least as many states as this one
                budget.estimate(KERNEL_COST, len(current) * (len(self.phases) - done))
            kernels = [(mass, kernel(phase, s)) for s, mass in current.items()]
            common = lcm(*(k[0] for _, k in kernels))
            following: dict[TurnState, int] = {}
            get = following.get
            for mass, (kernel_denominator, items) in kernels:
                scaled = mass * (common // kernel_denominator)
                for after, weight in items:
                    following[after] = get(after, 0) + scaled * weight
                if budget is not None:  # spent as the states come, one kernel at a time
                    budget.states(len(following), "turn")
                    budget.spend(KERNEL_COST + len(items))
            current = following
            denominator *= common
        divisor = gcd(denominator, *current.values())
        return denominator // divisor, tuple((s, m // divisor) for s, m in current.items())

    def draw(
        self, state: TurnState, runs: int, rng: np.random.Generator
    ) -> Iterator[tuple[TurnState, int]]:
        current: dict[TurnState, int] = {state: runs}
        for phase in self.phases:
            following: dict[TurnState, int] = {}
            for before, k in current.items():
                for after, drawn in self.engagement.draw_phase(phase, before, k, rng):
                    following[after] = following.get(after, 0) + drawn
            current = following
        yield from current.items()


def merged_weights(items: Iterator[tuple[Hashable, int]], denominator: int) -> IntKernel[Any]:
    """Equal successors merged, their weights over ``denominator``."""
    merged: dict[Any, int] = {}
    for state, weight in items:
        merged[state] = merged.get(state, 0) + weight
    return denominator, tuple(merged.items())
