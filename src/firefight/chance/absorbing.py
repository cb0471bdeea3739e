"""A process run until absorbed, exactly (:meth:`firefight.chance.process.Process.absorption`).

The reachable states are explored, split into strongly connected components and solved
component by component in topological order, as an absorbing Markov chain with ``Fraction``:
an acyclic stretch costs one multiplication per transition and only a cycle needs an (exact,
sparse) linear solve (:mod:`firefight.chance.linear`).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, TypeVar

from firefight.chance.distribution import Distribution
from firefight.chance.limits import NeverAbsorbedError, StateLimitError
from firefight.chance.linear import components as _components
from firefight.chance.linear import solve as _solve
from firefight.chance.runs import Absorption

if TYPE_CHECKING:
    from firefight.chance.stepped import Kernel
    from firefight.chance.stepped import Stepped as Process

S = TypeVar("S", bound=Hashable)


def absorption(
    process: Process[S], start: S, max_states: int, max_cycle_states: int
) -> Absorption[S]:
    """Run ``process`` until a terminal state, exactly: each terminal state's probability and
    the expected number of steps, the process solved as an absorbing Markov chain (its
    kernels cached on it)."""
    if process.terminal(start):
        return Absorption(Distribution({start: Fraction(1)}), Fraction(0), 0)
    transient = _explore(process, start, max_states)
    components = _components(transient, lambda state: _transient_successors(process, state))
    visits: dict[S, Fraction] = {}
    inflow: dict[S, Fraction] = {start: Fraction(1)}
    absorbed: dict[S, Fraction] = {}
    for component in reversed(components):  # Tarjan gives sinks first
        members = set(component)
        leaves = any(
            successor not in members for state in component for successor, _ in transient[state]
        )
        if not leaves:
            raise NeverAbsorbedError(process.name, component[0])
        if len(component) > max_cycle_states:
            raise StateLimitError("states that reach one another", max_cycle_states, process.name)
        solved = _solve_component(component, members, transient, inflow)
        for state, expected in solved.items():
            visits[state] = expected
            for successor, p in transient[state]:
                if successor in members:
                    continue
                target = absorbed if process.terminal(successor) else inflow
                target[successor] = target.get(successor, 0) + expected * p
    return Absorption(Distribution(absorbed), sum(visits.values(), Fraction(0)), len(visits))


def _transient_successors(process: Process[S], state: S) -> Iterator[S]:
    return (s for s, _ in process.kernel(state) if not process.terminal(s))


def _explore(process: Process[S], start: S, max_states: int) -> dict[S, Kernel[S]]:
    """Every non-terminal state reachable from ``start``, with its kernel."""
    found: dict[S, Kernel[S]] = {}
    frontier = [start]
    while frontier:
        state = frontier.pop()
        if state in found:
            continue
        if len(found) >= max_states:
            raise StateLimitError("reachable states", max_states, process.name)
        kernel = process.kernel(state)
        found[state] = kernel
        frontier.extend(s for s, _ in kernel if s not in found and not process.terminal(s))
    return found


def _solve_component(
    component: Sequence[S],
    members: set[S],
    transient: dict[S, Kernel[S]],
    inflow: dict[S, Fraction],
) -> dict[S, Fraction]:
    """Expected visits v to each state of one component: v_s = inflow_s + sum_r v_r Q(r,s)."""
    if len(component) == 1:
        (state,) = component
        stay = sum((p for s, p in transient[state] if s == state), Fraction(0))
        return {state: inflow.get(state, Fraction(0)) / (1 - stay)}
    rows: dict[S, dict[S, Fraction]] = {s: {s: Fraction(1)} for s in component}
    for source in component:
        for successor, p in transient[source]:
            if successor in members:
                row = rows[successor]
                row[source] = row.get(source, 0) - p
    rhs = {s: inflow.get(s, Fraction(0)) for s in component}
    return _solve(rows, rhs)
