"""An upper bound on a path search's work, counted before the search (V&V 6.3, 6.6, 6.8).

:func:`path_space` counts, for one moving unit, the walks from the stack's hex that its MPs
allow and that can still reach the destination (the same check as the search's
:meth:`~.path_search._Search.may_reach`, over the same :func:`cost_to_go`): each
step priced by :func:`~.movement.entry_cost` (a vehicle's turns only add, 6.5), the first hex
whatever it costs (6.6), never an enemy hex (6.8) nor the start hex again, never straight back
to the hex just left, nor on from the destination or from barbed wire (20.8). Every legal
simple prefix of the stack is such a walk for each of its units, so the fewest walks over the
units, summed over the ways of moving, bounds the prefixes the search can make; the paths
that end at the destination bound the paths it can evaluate. The count is a dynamic program
over (hex, hex before, MPs spent): a few thousand entries on a board, whatever the paths'
number.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from firefight.board.hexes import DIRECTIONS, Hex
from firefight.errors import InputError
from firefight.rulesets.vv.movement import (
    VEHICLE_KINDS,
    WHOLE_ALLOWANCE,
    MovePlan,
    entry_cost,
    plan_move,
    vehicle_turn_cost,
)
from firefight.rulesets.vv.scenario import BoardScenario, ScenarioUnit

NEIGHBOURS = 6
"""The hexes a prefix's extensions are checked in, at most (each one plan checked)."""


@dataclass(frozen=True)
class Space:
    """The bound: ``prefixes`` the search may make (the paths to the destination among
    them, ``paths``), and the prefixes it may check (each of the others' neighbours, and
    the first hexes)."""

    prefixes: int
    paths: int
    checks: int


def cost_to_go(
    scenario: BoardScenario,
    stack: Sequence[ScenarioUnit],
    to: Hex,
    known: dict[str, dict[Hex, int]] | None = None,
) -> dict[str, dict[Hex, int]]:
    """For each unit, the fewest MPs it spends from each hex to ``to`` (a backward Dijkstra
    over :func:`~.movement.entry_cost`, never into an enemy hex, 6.8, nor on from barbed
    wire, 20.8): a lower bound, since
    a vehicle's turns only add (6.5) and a move the whole allowance pays (10.7) is never a
    later hex of a path; a prefix whose MPs left are fewer cannot reach ``to`` (6.3).
    ``known``: the units' costs already found to the same ``to`` on the same scenario, by unit
    id (a unit's costs are its own: those found are not found again; the new ones added)."""
    board = scenario.board
    side = stack[0].side
    enemy = {u.hex for u in scenario.units if u.side != side}
    wire = {f.hex for f in scenario.fortifications if f.kind == "barbed_wire"}
    found: dict[str, dict[Hex, int]] = {} if known is None else known
    for unit in stack:
        if unit.id in found:
            continue
        best = {to: 0}
        queue = [(0, board.label(to), to)]
        while queue:
            cost, _label, after = heapq.heappop(queue)
            if cost > best.get(after, WHOLE_ALLOWANCE) or after in enemy:
                continue
            fort = scenario.fortification_at(after)
            for before in after.neighbours():
                if before not in board or (unit.is_infantry and before in wire):
                    continue  # 20.8: infantry entering barbed wire stop there
                price = entry_cost(unit, board, before, after, fort.kind if fort else None)
                if isinstance(price, str) or price >= WHOLE_ALLOWANCE:
                    continue
                total = cost + price
                if total < best.get(before, WHOLE_ALLOWANCE):
                    best[before] = total
                    heapq.heappush(queue, (total, board.label(before), before))
        found[unit.id] = best
    return {u.id: found[u.id] for u in stack}


def _first_plan(
    scenario: BoardScenario, start: Hex, units: Sequence[str] | None, *, assault: bool
) -> MovePlan | None:
    """A plan of one hex (the stack and its MPs), or ``None`` where no first hex is legal."""
    for after in start.neighbours():
        if after in scenario.board:
            try:
                return plan_move(scenario, start, [after], units=units, assault=assault, end=False)
            except InputError:
                continue
    return None


def _walks(  # noqa: PLR0917 - the unit, its two ends, its MPs and its cost to go
    scenario: BoardScenario,
    unit: ScenarioUnit,
    start: Hex,
    to: Hex,
    full: int,
    need: dict[Hex, int],
) -> tuple[int, int]:
    """The unit's walks (see the module) and those that end at ``to``: a walk never comes
    back to either of the two hexes before it (on hexes, a hex two back may be adjacent), a
    vehicle pays its turns (6.5) and a Gun moves one hex (6.32)."""
    board = scenario.board
    enemy = {u.hex for u in scenario.units if u.side != unit.side}
    wire = {f.hex for f in scenario.fortifications if f.kind == "barbed_wire"}
    vehicle = unit.type in VEHICLE_KINDS

    def price(before: Hex, after: Hex, facing: int) -> tuple[int, int] | None:
        if after not in board or after == start or after in enemy:
            return None
        fort = scenario.fortification_at(after)
        cost = entry_cost(unit, board, before, after, fort.kind if fort else None)
        if isinstance(cost, str):
            return None
        if vehicle:
            return vehicle_turn_cost(facing, _direction(before, after), cost)
        return cost, facing

    def reaches(after: Hex, spent: int) -> bool:
        return after == to or need.get(after, WHOLE_ALLOWANCE) <= full - spent

    @cache
    def count(here: Hex, before: Hex, back: Hex, spent: int, facing: int) -> tuple[int, int]:
        if here == to:
            return 1, 1
        prefixes, paths = 1, 0
        if (unit.is_infantry and here in wire) or unit.type == "gun":
            return prefixes, paths  # 20.8, 6.32
        for after in here.neighbours():
            priced = price(here, after, facing) if after not in (before, back) else None
            if priced is None or priced[0] >= WHOLE_ALLOWANCE:
                continue
            cost, turned = priced
            if spent + cost <= full and reaches(after, spent + cost):
                more, ending = count(after, here, before, spent + cost, turned)
                prefixes += more
                paths += ending
        return prefixes, paths

    prefixes = paths = 0
    for after in start.neighbours():
        priced = price(start, after, unit.facing or 1)
        if priced is None:
            continue
        cost, turned = priced
        spent = max(full, 1) if cost >= WHOLE_ALLOWANCE else cost  # 6.6, 10.7
        if reaches(after, spent):
            more, ending = count(after, start, start, spent, turned)
            prefixes += more
            paths += ending
    return prefixes, paths


def _direction(a: Hex, b: Hex) -> int:
    delta = b - a
    return next(d for d, step in DIRECTIONS.items() if (delta.q, delta.r) == step)


def path_space(
    scenario: BoardScenario,
    start: Hex,
    to: Hex,
    units: Sequence[str] | None,
    modes: Sequence[bool],
    *,
    need: dict[str, dict[Hex, int]] | None = None,
) -> Space:
    """The bound on the search's work from ``start`` to ``to`` (see the module) for each way
    of moving in ``modes`` (Assault Movement or not), from each unit's fewest MPs
    from each hex to ``to`` (:func:`cost_to_go`; ``need``: those already found, by unit id,
    the new ones added)."""
    prefixes = paths = 0
    known: dict[str, dict[Hex, int]] = {} if need is None else need
    for assault in modes:
        plan = _first_plan(scenario, start, units, assault=assault)
        if plan is None:
            continue
        need = cost_to_go(scenario, plan.stack, to, known)
        counted = [
            _walks(scenario, u, start, to, plan.allowance[u.id], need[u.id]) for u in plan.stack
        ]
        prefixes += min(c[0] for c in counted)
        paths += min(c[1] for c in counted)
    checks = NEIGHBOURS * len(modes) + NEIGHBOURS * (prefixes - paths)
    return Space(prefixes, paths, checks)
