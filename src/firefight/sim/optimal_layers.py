"""The multisets of one side's unit states that a layer of the optimal policy's game can hold,
counted by what they cost (docs/advisor-engagements.md, the bound before the work).

A unit's state changes only by a hit on it (one attack, one unit) and by its side's start of
fire; so a state the unit holds has cost it at least its *distance* from the start: the fewest
hits on the way, a start of fire costing none (:func:`distances`). A side has taken at most as
many hits as the enemy has made fires, so a side's states in a layer are the multisets whose
distances add up to no more than the enemy's fires so far (:class:`SideTable`, one entry per
cost). Within a simultaneous turn a unit's element is its pair of states (the start of the
turn, now), costing the distance to the start of the turn and, apart, the distance from it to
now (the hits of this turn, no more than the enemy's units able to fire from the turn's
start that have fired: :data:`Firing`).

Each multiset is noted with what a node's work reads of it (the firer's state, the distinct
targets) and whether the side is still in the fight (a state a turn starts from is no
ended one), so that a layer's states and its nodes' work are summed exactly over the
multisets its fires so far allow (:class:`LayerWork`), not the product of every state.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from heapq import heappop, heappush
from itertools import product

from firefight.chance.limits import KERNEL_COST, Budget
from firefight.sim.engagement_phases import Phase
from firefight.sim.optimal_game import Steered

Element = Hashable
"""A unit's state (alternating fire), or its pair of states (simultaneous: start, now)."""

Costs = tuple[int, int]
"""A multiset's distances: from the start to its states (or to the turn's start), and from
the turn's start to now (simultaneous fire; none with alternating fire)."""

Target = tuple[int, Hashable, Hashable]
"""What tells one target from another: its kind (index among the side's kinds), the state it
is seen in (the start of the turn's, or now) and now."""

__all__ = [
    "Against",
    "Allowed",
    "Element",
    "Kinds",
    "LayerWork",
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


Against = tuple[int, str]
"""The side advised and its opponent (``optimal`` or a policy)."""

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


@dataclass
class LayerWork:
    """The nodes' work of a layer, summed over the multisets it allows."""

    engagement: Steered
    against: Against
    tables: tuple[SideTable, SideTable]
    _targets: dict[tuple[int, int, Hashable, frozenset[Target], bool], int] = field(
        default_factory=dict
    )
    _done: dict[Hashable, int] = field(default_factory=dict)
    """Each count and phase's work already summed, by its allowances."""

    def __post_init__(self) -> None:
        self._most = [max((m[0][0] for m in t.counts), default=0) for t in self.tables]
        self._aimed: list[dict[Firing, list[tuple[frozenset[Target], Mark, int]]]] = [{}, {}]
        self._firing: list[dict[tuple[int, Firing], list[tuple[Hashable, Mark, int]]]] = [{}, {}]
        for s, table in enumerate(self.tables):
            for (present, mark), n in table.targets.items():
                self._aimed[s].setdefault(mark[2], []).append((present, mark, n))
            for (unit, own, mark), n in table.firers.items():
                self._firing[s].setdefault((unit, mark[2]), []).append((own, mark, n))

    def _key(self, s: int, allowed: Allowed) -> Allowed:
        """The allowance, its first cost no more than the side's largest (the same sums)."""
        return (min(allowed[0], self._most[s]), allowed[1], allowed[2])

    def patterns(self) -> list[tuple[Firing, Firing]]:
        """Every pair of the sides' firers met (one pair, ``None``, with alternating fire)."""
        found = [{mark[2] for mark in table.counts} for table in self.tables]
        return [(f0, f1) for f0 in found[0] for f1 in found[1]]

    def count(self, s: int, allowed: Allowed, firing: Firing) -> int:
        """The side's multisets the allowance lets in, of these firers."""
        key = ("count", s, self._key(s, allowed), firing)
        found = self._done.get(key)
        if found is None:
            found = self._done[key] = self._count(s, allowed, firing)
        return found

    def _count(self, s: int, allowed: Allowed, firing: Firing) -> int:
        return sum(n for mark, n in self.tables[s].counts.items() if allows(allowed, mark, firing))

    def phase(
        self,
        phase: Phase,
        within: tuple[tuple[Allowed, Allowed], tuple[Firing, Firing]],
        layer: int,
    ) -> int:
        """The work of every node of the phase over the layer's multisets ``within`` these
        allowances and firers: a start of fire one kernel of one successor each; a fire, per
        firer's state, its choices' over the targets."""
        if phase.kind != "fire":
            return layer * (KERNEL_COST + 1)
        allowed, firing = within
        key = (phase, self._key(0, allowed[0]), self._key(1, allowed[1]), firing)
        found = self._done.get(key)
        if found is None:
            found = self._done[key] = self._fire(phase, within)
        return found

    def _fire(
        self, phase: Phase, within: tuple[tuple[Allowed, Allowed], tuple[Firing, Firing]]
    ) -> int:
        allowed, firing = within
        a, b = phase.side, 1 - phase.side
        chooses = a == self.against[0] or self.against[1] == "optimal"
        targets: dict[frozenset[Target], int] = {}
        for present, mark, n in self._aimed[b].get(firing[b], ()):
            if allows(allowed[b], mark, firing[b]):
                targets[present] = targets.get(present, 0) + n
        firers: dict[Hashable, int] = {}
        for own, mark, n in self._firing[a].get((phase.unit, firing[a]), ()):
            if allows(allowed[a], mark, firing[a]):
                firers[own] = firers.get(own, 0) + n
        return sum(
            n * m * self._node(a, phase.unit, own, present, chooses)
            for own, n in firers.items()
            for present, m in targets.items()
        )

    def _node(
        self, a: int, unit: int, own: Hashable, present: frozenset[Target], chooses: bool
    ) -> int:
        """One node's work: each distinct target it may attack, its kernel's cost and
        successors (the one its policy picks where it does not choose); a kernel of one
        successor where it cannot fire."""
        key = (a, unit, own, present, chooses)
        found = self._targets.get(key)
        if found is not None:
            return found
        engagement, b = self.engagement, 1 - a
        rules, sides = engagement.rules, engagement.scenario.sides
        kernels = []
        if rules.can_fire(sides[a].units[unit], own):
            for kind, view, now in present:
                first = engagement.groups.columns[b][kind][0]
                if rules.out(sides[b].units[first], view):
                    continue
                attack = engagement.attack(a, unit, first, own, now)
                if attack is not None:
                    kernels.append(KERNEL_COST + len(engagement.hit(attack, b, first, now)[1]))
        kernels = kernels or [KERNEL_COST + 1]
        found = sum(kernels) if chooses else max(kernels)
        self._targets[key] = found
        return found
