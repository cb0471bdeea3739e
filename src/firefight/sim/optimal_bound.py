"""A bound on the optimal policy's game decided before it is explored
(docs/advisor-engagements.md): the states within one turn's layer and the successors merged
can be no more than this, whatever the dice and the choices.

A unit's state changes only by the effect of a hit on it (the rule set's ``apply`` over the
outcomes of an attack) and by its side's start of fire (``before_fire``). The states each kind
of unit can reach are their closure from its start (:func:`unit_states`): every attack of any
state of any enemy firer on any of its states, each outcome applied, until nothing new comes.
A layer then holds at most, per side, the multisets of its kinds' states (exchangeable units:
``C(r + m - 1, m)`` for ``m`` units of ``r`` states; within a simultaneous turn, of the pairs
of states, the start of the turn and now), the product over both sides; each node's work is at
most its choices (the distinct targets it may fire at) times the kernel's cost and its largest
number of successors (the target's distinct states after the hit).

The closure's work is the state engine's (:class:`~firefight.chance.limits.Budget`): one
kernel's cost per attack looked at. Its attacks and odds are the engagement's own caches,
which the exploration then reuses.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from math import comb

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

BOUND_SLACK = 4
"""The game is refused before it is explored when its bound is more than this many times a
limit: the bound counts every multiset of states and every target in every layer, the game
only those the dice and the choices reach (the samples' work is bounded at up to three times
the work they do: ``ept_hedgerow``, 23.4 million for 7.8 million)."""

__all__ = ["BOUND_SLACK", "GameBound", "OptimalBoundError", "check_bound", "game_bound"]

Reached = tuple[tuple[frozenset[Hashable], ...], tuple[frozenset[Hashable], ...]]
"""Per side, per unit: every state it can reach (the same for every unit of a kind)."""


class OptimalBoundError(OptimalLimitError):
    """The optimal policy's game, bounded before it is explored, is far past the limits."""

    def __init__(self, name: str, bound: int, what: str, limit: int) -> None:
        FirefightError.__init__(  # its own line, not the count's
            self,
            f"'{name}': the optimal policy is exact only, and its game, bounded before it is "
            f"explored, may have up to {bound:,} {what}, more than {BOUND_SLACK} times the "
            f"limit of {limit:,} for exact odds (fewer units or turns)",
        )


@dataclass(frozen=True)
class GameBound:
    """What the game can be at most: the states of any one layer, and the work (successors
    merged, :data:`KERNEL_COST` a kernel) of its whole exploration."""

    states: int
    work: int


def unit_states(engagement: Steered, budget: Budget) -> Reached:
    """Every state each unit can reach, by kind: the closure of its start under every
    attack on it (from any state of any enemy firer) and its side's start of fire."""
    rules, sides = engagement.rules, engagement.scenario.sides
    columns = engagement.groups.columns
    reached = [[{rules.start(sides[s].units[k[0]])} for k in columns[s]] for s in (0, 1)]
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
                    if rules.can_fire(firer, own):
                        fresh |= _fire(engagement, budget, (side, f, own), reached, looked)
                    changed |= fresh
    by_unit = [[frozenset[Hashable]()] * len(side.units) for side in sides]
    for s in (0, 1):
        for k, members in enumerate(columns[s]):
            for index in members:
                by_unit[s][index] = frozenset(reached[s][k])
    return (tuple(by_unit[0]), tuple(by_unit[1]))


Looked = tuple[int, int, Hashable, int, Hashable]
"""An attack looked at: the firing side, the firer's kind and state, the target's."""


def _fire(
    engagement: Steered,
    budget: Budget,
    firer: tuple[int, int, Hashable],
    reached: list[list[set[Hashable]]],
    looked: set[Looked],
) -> bool:
    """Every attack of the firer (side, kind, state) on every state of every enemy kind not
    looked at yet, its outcomes added to the target's states: whether any was new."""
    side, f, own = firer
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
            changed |= not fresh <= states
            states |= fresh
    return changed


def game_bound(engagement: Steered, side: int, opponent: str, budget: Budget) -> GameBound:
    """The bound on the game of ``side`` against ``opponent`` (``optimal`` or a policy)."""
    reached = unit_states(engagement, budget)
    simultaneous = engagement.scenario.order == "simultaneous"
    columns = engagement.groups.columns
    states = 1
    for s in (0, 1):
        for members in columns[s]:
            r = len(reached[s][members[0]])
            states *= comb((r * r if simultaneous else r) + len(members) - 1, len(members))
    per_turn = 0
    for phase in turn_phases(engagement, side):
        chooses = phase.side == side or opponent == "optimal"
        per_turn += _node_work(engagement, reached, phase, chooses)
    return GameBound(states, states * per_turn * engagement.scenario.turns)


def _node_work(engagement: Steered, reached: Reached, phase: Phase, chooses: bool) -> int:
    """The most work one node of the phase can cost: its choices (one per distinct target,
    or the one its policy makes) times a kernel's cost and largest successors."""
    if phase.kind != "fire":
        return KERNEL_COST + 1
    side, unit = phase.side, phase.unit
    rules, enemy = engagement.rules, 1 - side
    units = engagement.scenario.sides
    simultaneous = engagement.scenario.order == "simultaneous"
    choices, items = 0, 1
    for members in engagement.groups.columns[enemy]:
        r = len(reached[enemy][members[0]])
        choices += min(len(members), r * r if simultaneous else r)
    for own in reached[side][unit]:
        if not rules.can_fire(units[side].units[unit], own):
            continue
        for target, states in enumerate(reached[enemy]):
            for state in states:
                if rules.out(units[enemy].units[target], state):
                    continue
                attack = engagement.attack(side, unit, target, own, state)
                if attack is not None:
                    items = max(items, len(engagement.hit(attack, enemy, target, state)[1]))
    return (max(1, choices) if chooses else 1) * (KERNEL_COST + items)


def check_bound(
    engagement: Steered, side: int, opponent: str, max_states: int = MAX_STATES
) -> GameBound:
    """The game's bound, after refusing it (:class:`OptimalBoundError`) when it is more than
    :data:`BOUND_SLACK` times the states or the work allowed. Alternating fire only: within a
    simultaneous turn the bound counts every pair of states (the start of the turn and now)
    of every unit, far more than the game meets (two against two over two turns: 390,625 for
    995), so that game is stopped by the counts alone, as it is explored."""
    budget = Budget(engagement.scenario.title or "engagement", max_states)
    try:
        found = game_bound(engagement, side, opponent, budget)
    except StateLimitError as error:
        raise OptimalLimitError(budget.name, str(error)) from None
    if engagement.scenario.order == "simultaneous":
        return found
    if found.states > BOUND_SLACK * max_states:
        raise OptimalBoundError(budget.name, found.states, "states within one turn", max_states)
    if found.work > BOUND_SLACK * MAX_EXPANSIONS:
        raise OptimalBoundError(budget.name, found.work, "successors to merge", MAX_EXPANSIONS)
    return found
