"""The multisets of one side's unit states that a layer of the optimal policy's game can hold,
counted by what they cost (docs/advisor-engagements.md, the bound before the work).

A unit's state changes only by a hit on it (one attack, one unit) and by its side's start of
fire; so a state the unit holds has cost it at least its *distance* from the start: the fewest
hits on the way, a start of fire costing none (:func:`distances`). A side has taken at most as
many hits as the enemy has made fires, so a side's states in a layer are the multisets whose
distances add up to no more than the enemy's fires so far (:class:`SideTable`, one entry per
cost). Within a simultaneous turn a unit's element is its pair of states (the start of the
turn, now), costing the distance to the start of the turn and, apart, the distance from it to
now (the hits of this turn).

Each multiset is noted with what a node's work reads of it (the firer's state, the distinct
targets) and whether the side is still in the fight (a state a turn starts from is no
ended one), so that a layer's states and its nodes' work are summed exactly over the
multisets its fires so far allow, not the product of every state.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from heapq import heappop, heappush
from itertools import product

from firefight.chance.limits import Budget

Element = Hashable
"""A unit's state (alternating fire), or its pair of states (simultaneous: start, now)."""

Costs = tuple[int, int]
"""A multiset's distances: from the start to its states (or to the turn's start), and from
the turn's start to now (simultaneous fire; none with alternating fire)."""

Target = tuple[int, Hashable, Hashable]
"""What tells one target from another: its kind (index among the side's kinds), the state it
is seen in (the start of the turn's, or now) and now."""

__all__ = [
    "Allowed",
    "Element",
    "Kinds",
    "SideTable",
    "TooManyError",
    "allows",
    "distances",
    "side_table",
]


class TooManyError(Exception):
    """A side has more multisets than the table may hold (its bound is then past the limit)."""


def distances(
    edges: dict[Hashable, set[tuple[Hashable, int]]], source: Hashable
) -> dict[Hashable, int]:
    """The fewest hits from ``source`` to every state it leads to (each edge a state after,
    costing one hit or, a start of fire, none)."""
    found: dict[Hashable, int] = {}
    queue: list[tuple[int, int, Hashable]] = [(0, 0, source)]
    order = 1
    while queue:
        cost, _n, state = heappop(queue)
        if state in found:
            continue
        found[state] = cost
        for after, step in edges.get(state, ()):
            if after not in found:
                heappush(queue, (cost + step, order, after))
                order += 1
    return found


Firing = frozenset[int] | None
"""Within a simultaneous turn, the units (by index, in canonical order) able to fire from the
turn's start: the hits the enemy takes this turn are no more than those of them that fired
(``None`` with alternating fire)."""

Mark = tuple[Costs, bool, Firing]
"""What a layer's allowance reads of a multiset: its costs, the side fighting, its firers."""


@dataclass
class SideTable:
    """A side's multisets, counted by their marks; by the state of each unit (in canonical
    order) and by their distinct targets."""

    counts: dict[Mark, int] = field(default_factory=dict)
    firers: dict[tuple[int, Hashable, Mark], int] = field(default_factory=dict)
    """Per unit index, the state it fires from."""
    targets: dict[tuple[frozenset[Target], Mark], int] = field(default_factory=dict)

    def add(self, mark: Mark, views: Sequence[Hashable], present: frozenset[Target]) -> None:
        """One multiset: its mark, each unit's state seen, its targets."""
        self.counts[mark] = self.counts.get(mark, 0) + 1
        for index, view in enumerate(views):
            key = (index, view, mark)
            self.firers[key] = self.firers.get(key, 0) + 1
        key2 = (present, mark)
        self.targets[key2] = self.targets.get(key2, 0) + 1


Allowed = tuple[int, int, bool]
"""A layer's allowance for one side: the most each cost may be, and whether the side must be
still fighting."""


def allows(allowed: Allowed, mark: Mark, firing: Firing) -> bool:
    """The multiset of this mark, its firers ``firing``, can be in the layer."""
    (c0, c1), live, own = mark
    return own == firing and c0 <= allowed[0] and c1 <= allowed[1] and (live or not allowed[2])


def _multisets(
    elements: Sequence[tuple[Element, Costs]], size: int, most: Costs, cap: int, budget: Budget
) -> list[tuple[tuple[Element, ...], Costs]]:
    """Every multiset of ``size`` elements (in the elements' order) within the costs
    (:class:`TooManyError` past ``cap``)."""
    found: list[tuple[tuple[Element, ...], Costs]] = []

    def grow(start: int, left: int, taken: tuple[Element, ...], c0: int, c1: int) -> None:
        if not left:
            if len(found) >= cap:
                raise TooManyError
            budget.spend(1)
            found.append((taken, (c0, c1)))
            return
        for i in range(start, len(elements)):
            element, (e0, e1) = elements[i]
            if c0 + e0 <= most[0] and c1 + e1 <= most[1]:
                grow(i, left - 1, (*taken, element), c0 + e0, c1 + e1)

    grow(0, size, (), 0, 0)
    return found


@dataclass(frozen=True)
class Kinds:
    """One side's units by kind: each kind's unit indices and its elements in canonical order
    with their costs."""

    columns: tuple[tuple[int, ...], ...]
    elements: tuple[tuple[tuple[Element, Costs], ...], ...]
    units: int


def side_table(
    kinds: Kinds,
    most: Costs,
    *,
    cap: int,
    budget: Budget,
    fighting: Callable[[tuple[Hashable, ...]], tuple[bool, Firing]],
    split: Callable[[Element], tuple[Hashable, Hashable]],
) -> SideTable:
    """Every multiset of the side within ``most``, each added to the table (:class:`TooManyError`
    past ``cap`` of them). ``fighting``: the side's test over its states in unit order (the
    turn's start's, within a simultaneous turn); ``split``: an element's state seen (which it
    fires from and is targeted in) and its state now."""
    per_kind = [
        _multisets(elements, len(members), most, cap, budget)
        for elements, members in zip(kinds.elements, kinds.columns, strict=True)
    ]
    table, made = SideTable(), 0
    for combination in product(*per_kind):
        c0 = sum(c[1][0] for c in combination)
        c1 = sum(c[1][1] for c in combination)
        if c0 > most[0] or c1 > most[1]:
            continue
        made += 1
        if made > cap:
            raise TooManyError
        budget.spend(1)
        views: list[Hashable] = [None] * kinds.units
        present: set[Target] = set()
        for kind, ((chosen, _costs), members) in enumerate(
            zip(combination, kinds.columns, strict=True)
        ):
            for index, element in zip(members, chosen, strict=True):
                view, now = split(element)
                views[index] = view
                present.add((kind, view, now))
        live, firing = fighting(tuple(views))
        table.add(((c0, c1), live, firing), views, frozenset(present))
    return table
