"""A bound on the optimal policy's game decided before it is explored
(docs/advisor-engagements.md): the states within one turn's layer and the successors merged
can be no more than this, whatever the dice and the choices.

A unit's state changes only by the effect of a hit on it (the rule set's ``apply`` over the
outcomes of an attack) and by its side's start of fire (``before_fire``). The states each kind
of unit can reach are their closure from its start (:func:`unit_states`): every attack of any
state of any enemy firer on any of its states, each outcome applied, until nothing new comes.
Each state has a distance, the fewest hits that lead to it (a start of fire costing none),
and a layer holds at most, per side, the multisets of its kinds' states (exchangeable units)
whose distances add up to no more than the enemy's fires so far, one still fighting where
nothing touched it since its turn started (:mod:`~firefight.sim.optimal_layers`); within a
simultaneous turn, of the pairs of states (the start of the turn and now), this turn's hits no
more than the enemy's firers able to fire. The layer is the pairs of both sides' multisets;
each node's work is summed over them exactly from what it reads: the firer's state, and each
distinct target it may attack (the kernel's cost and the hit's outcomes; the policy's one
where the opponent plays a named policy).

The closure's work is the state engine's (:class:`~firefight.chance.limits.Budget`): one
kernel's cost per attack looked at, and one per multiset listed (no more than
:data:`BOUND_SLACK` times the states allowed, a side: past them, every multiset of every
layer, :func:`every_multiset`, which is then refused). Its attacks and odds are the
engagement's own caches, which the exploration then reuses.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from functools import partial
from math import comb
from typing import cast

from firefight.chance.limits import (
    KERNEL_COST,
    MAX_EXPANSIONS,
    MAX_STATES,
    Budget,
    StateLimitError,
)
from firefight.errors import FirefightError
from firefight.sim.engagement_phases import Phase
from firefight.sim.optimal_game import OptimalLimitError, Steered, turn_phases
from firefight.sim.optimal_layers import (
    Against,
    Allowed,
    Element,
    Firing,
    Kinds,
    LayerWork,
    TooManyError,
    distances,
    side_table,
)
from firefight.translation import N_, phrase, thousands
from firefight.translation import gettext as _

BOUND_SLACK = 2
"""The game is refused before it is explored when its bound is more than this many times a
limit. The bound counts every multiset its fires so far allow in every layer and every target
of each, the game only those the dice and the choices reach: on EPT's units the bound's work
is 1.02 to 1.14 times the game's (``ept_hedgerow``: 8.95 million for 7.85 million), up to
about 2 on small engagements of mixed units, so at 2 no EPT game within the limits is refused
on its bound; the percentile and V&V samples' bounds are about 5 times their games. The
alternative not taken, 1.2, refuses five two-step units against five (bound 9.94 million,
game 9.73 million, the limit 8 million) at once rather than after the count's 3 s, but would
refuse EPT games of mixed units within the limits."""

__all__ = [
    "BOUND_SLACK",
    "GameBound",
    "OptimalBoundError",
    "check_bound",
    "every_multiset",
    "game_bound",
]

Reached = tuple[tuple[frozenset[Hashable], ...], tuple[frozenset[Hashable], ...]]
"""Per side, per unit: every state it can reach (the same for every unit of a kind)."""


class OptimalBoundError(OptimalLimitError):
    """The optimal policy's game, bounded before it is explored, is far past the limits."""

    def __init__(self, name: str, bound: int, what: str, limit: int) -> None:
        FirefightError.__init__(  # its own line, not the count's
            self,
            _(
                "'{name}': the optimal policy is exact only, and its game, bounded before it "
                "is explored, may have up to {bound} {what}, more than {slack} times the limit "
                "of {limit} for exact odds (fewer units or turns)"
            ).format(
                name=name,
                bound=thousands(bound),
                what=phrase(what),
                slack=BOUND_SLACK,
                limit=thousands(limit),
            ),
        )


@dataclass(frozen=True)
class GameBound:
    """What the game can be at most: the states of any one layer, and the work (successors
    merged, :data:`KERNEL_COST` a kernel) of its whole exploration."""

    states: int
    work: int


Edges = dict[tuple[int, int], dict[Hashable, set[tuple[Hashable, int]]]]
"""Per side and kind: each state's states after (a hit costing one, a start of fire none)."""


def unit_states(engagement: Steered, budget: Budget) -> Reached:
    """Every state each unit can reach, by kind: the closure of its start under every
    attack on it (from any state of any enemy firer) and its side's start of fire."""
    reached, _edges = _closure(engagement, budget)
    sides, columns = engagement.scenario.sides, engagement.groups.columns
    by_unit = [[frozenset[Hashable]()] * len(side.units) for side in sides]
    for s in (0, 1):
        for k, members in enumerate(columns[s]):
            for index in members:
                by_unit[s][index] = frozenset(reached[s][k])
    return (tuple(by_unit[0]), tuple(by_unit[1]))


def _closure(engagement: Steered, budget: Budget) -> tuple[list[list[set[Hashable]]], Edges]:
    """The states of each kind (per side) and the edges between them."""
    rules, sides = engagement.rules, engagement.scenario.sides
    columns = engagement.groups.columns
    reached = [[{rules.start(sides[s].units[k[0]])} for k in columns[s]] for s in (0, 1)]
    edges: Edges = {(s, k): {} for s in (0, 1) for k in range(len(columns[s]))}
    looked: set[Looked] = set()
    changed = True
    while changed:
        changed = False
        for side in (0, 1):
            for f, firers in enumerate(columns[side]):
                firer = sides[side].units[firers[0]]
                for own in list(reached[side][f]):
                    budget.spend(1)
                    prepared = rules.before_fire(firer, own) if rules.starts_fire() else own
                    fresh = prepared not in reached[side][f]
                    reached[side][f].add(prepared)
                    edges[(side, f)].setdefault(own, set()).add((prepared, 0))
                    if rules.can_fire(firer, own):
                        fresh |= _fire(engagement, budget, (side, f, own), reached, (looked, edges))
                    changed |= fresh
    return reached, edges


Looked = tuple[int, int, Hashable, int, Hashable]
"""An attack looked at: the firing side, the firer's kind and state, the target's."""


def _fire(
    engagement: Steered,
    budget: Budget,
    firer: tuple[int, int, Hashable],
    reached: list[list[set[Hashable]]],
    noted: tuple[set[Looked], Edges],
) -> bool:
    """Every attack of the firer (side, kind, state) on every state of every enemy kind not
    looked at yet, its outcomes added to the target's states (and edges): whether any was
    new."""
    side, f, own = firer
    looked, edges = noted
    columns, enemies = engagement.groups.columns, engagement.scenario.sides[1 - side].units
    first = columns[side][f][0]
    changed = False
    for t, targets in enumerate(columns[1 - side]):
        states = reached[1 - side][t]
        for state in list(states):
            key = (side, f, own, t, state)
            if key in looked or engagement.rules.out(enemies[targets[0]], state):
                continue
            looked.add(key)
            budget.spend(KERNEL_COST)
            attack = engagement.attack(side, first, targets[0], own, state)
            if attack is None:
                continue
            fresh = {after for after, _w in engagement.hit(attack, 1 - side, targets[0], state)[1]}
            edges[(1 - side, t)].setdefault(state, set()).update((a, 1) for a in fresh)
            changed |= not fresh <= states
            states |= fresh
    return changed


def game_bound(engagement: Steered, side: int, opponent: str, budget: Budget) -> GameBound:
    """The bound on the game of ``side`` against ``opponent`` (``optimal`` or a policy):
    summed over its layers from each side's multisets within the fires so far
    (:mod:`~firefight.sim.optimal_layers`); where a side has more multisets than
    :data:`BOUND_SLACK` times the states allowed (its layers then past that), every
    multiset of every layer, the product of the kinds' states."""
    reached, edges = _closure(engagement, budget)
    try:
        return _summed(engagement, (side, opponent), (reached, edges), budget)
    except TooManyError:
        return _product(engagement, side, opponent, reached)


def every_multiset(engagement: Steered, side: int, opponent: str, budget: Budget) -> GameBound:
    """The looser bound :func:`game_bound` falls back on: every multiset of the kinds' states
    (within a simultaneous turn, of their pairs) in every layer, each node's work at its
    most."""
    return _product(engagement, side, opponent, _closure(engagement, budget)[0])


def _product(
    engagement: Steered, side: int, opponent: str, reached: list[list[set[Hashable]]]
) -> GameBound:
    """:func:`every_multiset` of the states reached."""
    simultaneous = engagement.scenario.order == "simultaneous"
    columns = engagement.groups.columns
    states = 1
    for s in (0, 1):
        for k, members in enumerate(columns[s]):
            r = len(reached[s][k])
            states *= comb((r * r if simultaneous else r) + len(members) - 1, len(members))
    per_turn = 0
    for phase in turn_phases(engagement, side):
        chooses = phase.side == side or opponent == "optimal"
        per_turn += _node_work(engagement, reached, phase, chooses)
    return GameBound(states, states * per_turn * engagement.scenario.turns)


def _node_work(
    engagement: Steered, reached: list[list[set[Hashable]]], phase: Phase, chooses: bool
) -> int:
    """The most work one node of the phase can cost: its choices (one per distinct target,
    or the one its policy makes) times a kernel's cost and largest successors."""
    if phase.kind != "fire":
        return KERNEL_COST + 1
    side, unit = phase.side, phase.unit
    rules, enemy = engagement.rules, 1 - side
    units = engagement.scenario.sides
    columns = engagement.groups.columns
    simultaneous = engagement.scenario.order == "simultaneous"
    choices, items = 0, 1
    own_kind = next(k for k, m in enumerate(columns[side]) if unit in m)
    for t, members in enumerate(columns[enemy]):
        r = len(reached[enemy][t])
        choices += min(len(members), r * r if simultaneous else r)
        for own in reached[side][own_kind]:
            if not rules.can_fire(units[side].units[unit], own):
                continue
            for state in reached[enemy][t]:
                if rules.out(units[enemy].units[members[0]], state):
                    continue
                attack = engagement.attack(side, unit, members[0], own, state)
                if attack is not None:
                    hit = engagement.hit(attack, enemy, members[0], state)
                    items = max(items, len(hit[1]))
    return (max(1, choices) if chooses else 1) * (KERNEL_COST + items)


Closure = tuple[list[list[set[Hashable]]], Edges]


def _kinds(engagement: Steered, s: int, closure: Closure) -> Kinds:
    """The side's kinds, each with its elements in canonical order and their costs: a state
    and its distance from the start or, within a simultaneous turn, a pair (the turn's start,
    now) and the distances to the one and from it to the other."""
    reached, edges = closure
    rules, groups = engagement.rules, engagement.groups
    units = engagement.scenario.sides[s].units
    simultaneous = engagement.scenario.order == "simultaneous"
    elements = []
    for k, members in enumerate(groups.columns[s]):
        first = members[0]
        graph = edges[(s, k)]
        start = distances(graph, rules.start(units[first]))
        found: list[tuple[Element, tuple[int, int]]] = []
        for state in reached[s][k]:
            if state not in start:
                continue
            if not simultaneous:
                found.append((state, (start[state], 0)))
                continue
            for now, cost in distances(graph, state).items():
                found.append(((state, now), (start[state], cost)))
        if simultaneous:
            found.sort(key=lambda e: (groups.key(s, first, e[0][0]), groups.key(s, first, e[0][1])))  # type: ignore[index]
        else:
            found.sort(key=lambda e: groups.key(s, first, e[0]))
        elements.append(tuple(found))
    return Kinds(groups.columns[s], tuple(elements), len(units))


def _allowed(
    engagement: Steered, phases: tuple[Phase, ...], turn: int, done: int, s: int
) -> Allowed:
    """What side ``s``'s multisets may cost before phase ``done`` of turn ``turn``: the
    enemy's fires so far (this turn's apart, within a simultaneous turn), and whether the
    side is still fighting (the turn's start, and nothing changed it since)."""
    per_turn = sum(p.kind == "fire" and p.side != s for p in phases)
    before = phases[:done]
    fires = sum(p.kind == "fire" and p.side != s for p in before)
    if engagement.scenario.order == "simultaneous":
        return (turn * per_turn, fires, True)
    touched = fires or any(p.kind == "prepare" and p.side == s for p in before)
    return (turn * per_turn + fires, 0, not touched)


def _summed(engagement: Steered, against: Against, closure: Closure, budget: Budget) -> GameBound:
    """Each layer's states (the pairs of both sides' multisets its fires so far allow) and
    its nodes' work summed over them: the largest layer and the whole game's work."""
    simultaneous = engagement.scenario.order == "simultaneous"
    turns = engagement.scenario.turns
    phases = turn_phases(engagement, against[0])
    cap = int(BOUND_SLACK * budget.max_states)
    tables = []
    for s in (0, 1):
        per_turn = sum(p.kind == "fire" and p.side != s for p in phases)
        most = ((turns - 1) * per_turn, per_turn) if simultaneous else (turns * per_turn, 0)
        tables.append(
            side_table(
                _kinds(engagement, s, closure),
                most,
                cap=cap,
                budget=budget,
                fighting=partial(_fighting, engagement, s),
                split=_pair if simultaneous else _same,
            )
        )
    work = LayerWork(engagement, against, (tables[0], tables[1]))
    states, total = 1, 0  # the start, even where it ends the game
    for turn in range(turns):
        for done in range(len(phases) + 1):
            base = (
                _allowed(engagement, phases, turn, done, 0),
                _allowed(engagement, phases, turn, done, 1),
            )
            fired = [
                frozenset(p.unit for p in phases[:done] if p.kind == "fire" and p.side == s)
                for s in (0, 1)
            ]
            layer = 0
            for pair in work.patterns():
                allowed = (_within(base[0], pair[1], fired[1]), _within(base[1], pair[0], fired[0]))
                count = work.count(0, allowed[0], pair[0]) * work.count(1, allowed[1], pair[1])
                layer += count
                if done < len(phases):
                    total += work.phase(phases[done], (allowed, pair), count)
            states = max(states, layer)
    return GameBound(states, total)


def _same(element: Element) -> tuple[Hashable, Hashable]:
    """Alternating fire: a unit is seen in its state now."""
    return element, element


def _pair(element: Element) -> tuple[Hashable, Hashable]:
    """Within a simultaneous turn: a unit is seen in its state at the turn's start."""
    return cast(tuple[Hashable, Hashable], element)


def _fighting(engagement: Steered, s: int, states: tuple[Hashable, ...]) -> tuple[bool, Firing]:
    """Whether the side fights from these states (its rule set's test) and, within a
    simultaneous turn, which of its units can fire from them."""
    live = not engagement.side_out_of(s, states)
    if engagement.scenario.order != "simultaneous":
        return live, None
    units, rules = engagement.scenario.sides[s].units, engagement.rules
    return live, frozenset(i for i, state in enumerate(states) if rules.can_fire(units[i], state))


def _within(allowed: Allowed, firing: Firing, fired: frozenset[int]) -> Allowed:
    """Within a simultaneous turn the hits taken this turn are no more than the enemy's
    fires made from units able to fire (``firing``, of those that fired so far)."""
    if firing is None:
        return allowed
    return (allowed[0], min(allowed[1], len(firing & fired)), allowed[2])


def check_bound(
    engagement: Steered, side: int, opponent: str, max_states: int = MAX_STATES
) -> GameBound:
    """The game's bound, after refusing it (:class:`OptimalBoundError`) when it is more than
    :data:`BOUND_SLACK` times the states or the work allowed, with either order of fire."""
    budget = Budget(engagement.scenario.title or "engagement", max_states)
    try:
        found = game_bound(engagement, side, opponent, budget)
    except StateLimitError as error:
        raise OptimalLimitError(budget.name, error) from None
    if found.states > BOUND_SLACK * max_states:
        raise OptimalBoundError(budget.name, found.states, N_("states within one turn"), max_states)
    if found.work > BOUND_SLACK * MAX_EXPANSIONS:
        raise OptimalBoundError(budget.name, found.work, N_("successors to merge"), MAX_EXPANSIONS)
    return found
