"""Exact linear algebra for absorbing chains: strongly connected components (Tarjan) and a
sparse linear solve in ``Fraction`` (:meth:`firefight.chance.process.Process.absorption`)."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from fractions import Fraction
from typing import Any, TypeVar

S = TypeVar("S", bound=Hashable)
R = TypeVar("R", bound=Hashable)


def components(graph: dict[S, Any], successors: Callable[[S], Iterator[S]]) -> list[list[S]]:
    """Tarjan's strongly connected components (iterative), sinks first."""
    index: dict[S, int] = {}
    low: dict[S, int] = {}
    on_stack: set[S] = set()
    stack: list[S] = []
    components: list[list[S]] = []
    counter = 0
    for root in graph:
        if root in index:
            continue
        work: list[tuple[S, Iterator[S]]] = [(root, successors(root))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, successors(child)))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component: list[S] = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                components.append(component)
    return components


def solve(rows: dict[R, dict[S, Fraction]], rhs: dict[R, Fraction]) -> dict[S, Fraction]:
    """Solve the sparse linear system ``sum_c rows[r][c] x_c = rhs[r]`` exactly (Gaussian
    elimination with ``Fraction``). Each pivot is taken from the shortest remaining row, on
    its unknown held by the fewest rows (Markowitz's rule), to keep the fill-in small."""
    pending = {r: dict(row) for r, row in rows.items()}
    values = dict(rhs)
    holders: dict[S, set[R]] = {}
    for r, row in pending.items():
        for c in row:
            holders.setdefault(c, set()).add(r)
    solved: dict[S, tuple[dict[S, Fraction], Fraction]] = {}
    while pending:
        pivot_row = min(pending, key=lambda r: len(pending[r]))
        row = pending.pop(pivot_row)
        unknown = min(row, key=lambda c: len(holders[c]))
        for c in row:
            holders[c].discard(pivot_row)
        scale = row[unknown]
        row = {c: v / scale for c, v in row.items()}
        value = values.pop(pivot_row) / scale
        for other in list(holders.pop(unknown)):
            other_row = pending[other]
            factor = other_row[unknown]
            for c, v in row.items():
                updated = other_row.get(c, 0) - factor * v
                if updated:
                    if c not in other_row and c != unknown:
                        holders[c].add(other)
                    other_row[c] = updated
                else:
                    other_row.pop(c, None)
                    if c != unknown:
                        holders[c].discard(other)
            values[other] -= factor * value
        solved[unknown] = (row, value)
    # Back-substitution, last pivot first: a pivot's row holds only unknowns pivoted later.
    result: dict[S, Fraction] = {}
    for unknown in reversed(list(solved)):
        row, value = solved[unknown]
        result[unknown] = value - sum(
            (v * result[c] for c, v in row.items() if c != unknown), Fraction(0)
        )
    return result
