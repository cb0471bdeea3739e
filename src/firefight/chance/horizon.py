"""A phased process over a finite horizon, phase by phase (:meth:`Process.weights`).

A step made of phases (:class:`~firefight.chance.phases.Phases`,
:class:`~firefight.chance.phases.Staged`) carries the whole distribution through each phase in
turn: every state's phase kernel (cached per state on the process) is added into the states
after the phase, equal states merged across every state the step started from, then the next
phase. Each step's distribution is the one the step's own kernels give (a step's kernel is its
phases' kernels composed), without composing a kernel per state: the states after one phase
are met from many states the step started in, and are carried once.

The limits are those of the per-state kernels (:mod:`firefight.chance.limits`): the states at
one step, the states within one step where the phases name it (here every state within the
step, whichever state it started from), the successors merged, and the work of each phase's
new kernels estimated before they are computed: each step's from the work per new state of
the step before, each phase's from the latest kernels of the same phase (the step before's
too).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Hashable
from math import gcd, lcm
from typing import TYPE_CHECKING, Any, TypeVar

from firefight.chance.limits import ESTIMATE_SLACK, PROBE_KERNELS, Budget, Probe, StateLimitError
from firefight.chance.phases import IntKernel, Phases, Staged, Weights
from firefight.chance.protocol import Chance

if TYPE_CHECKING:
    from firefight.chance.stepped import Stepped as Process

S = TypeVar("S", bound=Hashable)


def phased_weights(
    process: Process[S],
    phases: Phases[S] | Staged[S, Any],
    start: S,
    steps: int,
    max_states: int,
) -> tuple[Weights[S], ...]:
    """The state after 0, 1, ..., ``steps`` steps of ``process`` (whose step is ``phases``)
    as integer masses over a common denominator, a terminal state staying as it is."""
    budget = Budget(process.name, max_states)
    recent: list[deque[int]] = [deque(maxlen=PROBE_KERNELS) for _ in phases.phases]
    current: dict[S, int] = {start: 1}
    denominator = 1
    result = [Weights(current, denominator)]
    per_new: float | None = None  # the step before's work per state new to it
    for _ in range(steps):
        ended: dict[S, int] = {}
        inner: dict[Any, int] = {}
        for state, mass in current.items():
            if process.terminal(state):
                ended[state] = mass
            else:
                entered = phases.enter(state)
                inner[entered] = inner.get(entered, 0) + mass
        new = sum(1 for s in inner if (0, s) not in process._phase_kernels)
        if per_new is not None:  # a step of thousands of new states after a costly one
            budget.estimate(per_new, new, ESTIMATE_SLACK)
        before = budget.work
        for index, phase in enumerate(phases.phases):
            kernels = phase_kernels(process, index, phase, inner, budget, recent=recent[index])
            inner, common = merged_phase(kernels, budget, phases.within)
            denominator *= common
            if common != 1:
                ended = {s: m * common for s, m in ended.items()}
        following = ended
        for state, mass in inner.items():
            left = phases.leave(state)
            following[left] = following.get(left, 0) + mass
            if len(following) > max_states:
                raise StateLimitError("states at one step", max_states, process.name)
        budget.spend(len(following))
        if new:
            per_new = (before - budget.work) / new
        result.append(reduced(following, denominator))
        current, denominator = result[-1].masses, result[-1].denominator
    return tuple(result)


def reduced(masses: dict[S, int], denominator: int) -> Weights[S]:
    """``masses`` over ``denominator``, both divided by their greatest common divisor (it keeps
    the integers of a long horizon short)."""
    divisor = gcd(denominator, *masses.values())
    return Weights({s: m // divisor for s, m in masses.items()}, denominator // divisor)


def phase_kernels(
    process: Process[Any],
    index: int,
    phase: Callable[[Any, Chance], Any],
    inner: dict[Any, int],
    budget: Budget,
    *,
    recent: deque[int] | None = None,
) -> list[tuple[int, IntKernel[Any]]]:
    """Each state's mass and its phase kernel (cached on ``process``), the new kernels' work
    estimated before the first (from ``recent``, the latest kernels of the same phase before,
    which it updates) and after each (:class:`~firefight.chance.limits.Probe`)."""
    cached = process._phase_kernels
    new = sum(1 for s in inner if (index, s) not in cached)
    probe = Probe(budget, new) if recent is None else Probe(budget, new, recent)
    kernels = []
    for state, mass in inner.items():
        found = cached.get((index, state))
        if found is None:
            found = process._phase_kernel(index, phase, state, budget)
            probe.computed()
        kernels.append((mass, found))
    return kernels


def merged_phase(
    kernels: list[tuple[int, IntKernel[Any]]], budget: Budget, within: str | None
) -> tuple[dict[Any, int], int]:
    """The states after a phase (each state's mass times its kernel, equal states merged,
    their count checked against the states ``within`` one step as they come, where the phases
    name it) and the factor their denominator grew by."""
    common = lcm(*(k[0] for _, k in kernels))
    following: dict[Any, int] = {}
    get = following.get
    for mass, (kernel_denominator, items) in kernels:
        scaled = mass * (common // kernel_denominator)
        for after, weight in items:
            following[after] = get(after, 0) + scaled * weight
        if within is not None:  # checked as the states come, not after
            budget.states(len(following), within)
    budget.spend(sum(len(k[1]) for _, k in kernels))
    return following, common
