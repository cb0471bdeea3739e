"""V&V movement on the board: a stack's move hex by hex (V&V 6, 7.2, 10, 12.2, 20.3, 20.7, 20.8).

:func:`plan_move` checks a stack's path and prices it, hex by hex, for every unit; what can
change on the way (a unit pinned by opportunity fire, the leader's bonus lost) is the move
process's business (:mod:`firefight.rulesets.vv.move_steps`). The rules applied:

* 6.2, 10: the cost to enter each hex from the Terrain Effects Summary's "Movement Inf." or
  "Movement Veh." column, +1 for a wall, hedge or hedgerow hexside crossed (10.10, 10.101),
  +1 for moving up a level (10.7); infantry moving between ground level and level 2 spend
  their whole allowance (and may not do it with Assault Movement), vehicles and Guns may not;
* 20.3: +1 to enter a fortification or entrenchment hex, except a minefield or barbed wire;
* 6.31: leaders have 6 MPs, squads and half squads 4, or 6 when they make their whole move
  with a leader (an MG team is read as a squad); 12.2: a squad or half squad carrying a Heavy
  support weapon has 1 less; 6.4: Assault Movement halves an infantry unit's MPs before any
  other reduction (rounded down) and gives +1 cover;
* 6.32, 6.5, 7.2: vehicles and AFVs have their printed MPs, move into the hex they face (the
  first hexside turned in a hex is free, each further one costs 1) or reverse into the hex
  behind at double cost; a Gun with 1 MP moves one hex whatever the terrain, with 0 not at all;
  10.31: vehicles and Guns enter a bridge only from a road;
* 6.6: a unit may always move one hex, whatever it costs;
* 6.7, 6.8, 6.9: no enemy hex (nor an occupied enemy fortification, 20.3); the move may pass
  friendly units but not end over the stacking limit;
* 20.8: infantry entering barbed wire stop there (the path must end there), unarmoured
  vehicles may not enter it, AFVs ignore it; 20.7: a minefield attacks each unit entering.

Public API: :func:`plan_move` -> :class:`MovePlan` (``steps``: a :class:`PathStep` per hex
entered, each unit's cost and MPs spent), :func:`allowance`, :func:`entry_cost`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache

from firefight.board.board import Board
from firefight.board.hexes import DIRECTIONS, Hex
from firefight.errors import InputError
from firefight.rulesets.vv.allocator import DEFAULT_ALLOCATOR, Allocator
from firefight.rulesets.vv.ap import BOARD_TERRAINS, TERRAIN_ROWS, terrain_effects
from firefight.rulesets.vv.scenario import (
    INFANTRY_TYPES,
    OBSTACLES,
    BoardScenario,
    ScenarioUnit,
    prohibited,
    stacking_problem,
    stacks_text,
)
from firefight.translation import gettext as _

LEADER_MP = 6
INFANTRY_MP = 4
WITH_LEADER_MP = 6
"""6.31: leaders 6 MPs; squads and half squads 4, or 6 moving their whole move with a leader."""
WHOLE_ALLOWANCE = 99
"""The cost of a move between ground level and level 2 for infantry (10.7: "must expend their
full movement allowance"): more than any allowance, so only a first hex (6.6) can be one."""
VEHICLE_KINDS = frozenset({"afv", "unarmoured_vehicle"})
HEXSIDE_COST = 1
"""10.10, 10.101: +1 MP to cross a wall, hedge or hedgerow hexside."""


@cache
def _chart_cost(row: str, column: str) -> str:
    return str(terrain_effects().cell_at(row, column).value)


def terrain_cost(terrain: str, *, vehicle: bool) -> int | None:
    """The Terrain Effects Summary's cost to enter a hex of ``terrain`` (``None``: "Proh.")."""
    row = terrain if terrain in TERRAIN_ROWS else BOARD_TERRAINS.get(terrain, "open")
    text = _chart_cost(TERRAIN_ROWS[row], "Movement Veh." if vehicle else "Movement Inf.")
    return int(text) if text.lstrip("+").isdigit() else None


def allowance(unit: ScenarioUnit, *, with_leader: bool, assault: bool = False) -> int:
    """A unit's Movement Points for this move (6.31, 6.32, 6.4, 12.2)."""
    if not unit.is_infantry:
        return unit.movement_points or 0
    points = LEADER_MP if unit.type == "leader" else WITH_LEADER_MP if with_leader else INFANTRY_MP
    if assault:
        points //= 2  # 6.4: halved before any other reduction
    if unit.type in ("squad", "half_squad") and any(
        w.weapon_class == "H" for w in unit.support_weapons
    ):
        points -= 1  # 12.2
    return max(points, 0)


@dataclass(frozen=True)
class PathStep:
    """One hex the stack enters: ``index`` from 1, each unit's ``cost`` to enter it and MPs
    ``spent`` once in it (by unit id), what is there (terrain, fortification, the hexside
    crossed)."""

    index: int
    hex: Hex
    label: str
    terrain: str
    hexside: str | None
    fortification: str | None
    cost: Mapping[str, int]
    spent: Mapping[str, int]
    friendly: tuple[ScenarioUnit, ...]

    @property
    def minefield(self) -> bool:
        """20.7: a minefield attacks each unit entering."""
        return self.fortification == "minefield"

    @property
    def wire(self) -> bool:
        """20.8: infantry entering barbed wire stop."""
        return self.fortification == "barbed_wire"


@dataclass(frozen=True)
class MovePlan:
    """A stack's path, checked and priced. ``allowance``: each unit's MPs with the leader's
    bonus (when a leader moves with the stack); ``normal``: without it (6.31: what a unit may
    spend once the leader is pinned or eliminated on the way); ``allocator``: how the moving
    player, who owns the units hit, applies the CPs of each hit on the way (14.6, the hook a
    run consults: :class:`~firefight.rulesets.vv.allocator.Allocator`)."""

    scenario: BoardScenario
    start: Hex
    stack: tuple[ScenarioUnit, ...]
    steps: tuple[PathStep, ...]
    assault: bool
    allowance: Mapping[str, int]
    normal: Mapping[str, int]
    allocator: Allocator = DEFAULT_ALLOCATOR

    @property
    def side(self) -> str:
        """The moving side."""
        return self.stack[0].side

    @property
    def hexes(self) -> tuple[Hex, ...]:
        """The start hex and every hex entered."""
        return (self.start, *(s.hex for s in self.steps))

    @property
    def leader_ids(self) -> frozenset[str]:
        """The leaders moving with the stack (6.31)."""
        return frozenset(u.id for u in self.stack if u.type == "leader")

    def may_enter(self, unit_id: str, index: int, *, bonus: bool) -> bool:
        """May this unit go on into hex ``index`` (from 1), with or without the leader's bonus?
        6.6: the first hex always."""
        limit = (self.allowance if bonus else self.normal)[unit_id]
        return index == 1 or self.steps[index - 1].spent[unit_id] <= limit


def _level_two(label: str, *, assault: bool, alone: bool) -> None:
    """10.7: infantry move between ground level and level 2 with their whole allowance (so
    as a move of one hex), never with Assault Movement."""
    if assault:
        raise InputError("assault", "off between ground level and level 2 (10.7)", label)
    if not alone:
        raise InputError(
            "path",
            "one hex when moving between ground level and level 2 (10.7: the whole allowance)",
            label,
        )


def _on_board(board: Board, name: str, hex_: Hex | str) -> Hex:
    """A hex label of the board, or a one-line error naming the option it came from."""
    if isinstance(hex_, Hex):
        return hex_
    try:
        return board.hex(hex_)
    except InputError as error:
        raise InputError(name, error.allowed, hex_) from None


def _direction(a: Hex, b: Hex) -> int:
    delta = b - a
    for direction, step in DIRECTIONS.items():
        if (delta.q, delta.r) == step:
            return direction
    raise ValueError("not adjacent")  # plan_move checks adjacency first


def entry_cost(  # noqa: PLR0911 - one return per rule that prices or bars the hex
    unit: ScenarioUnit, board: Board, before: Hex, after: Hex, fortification: str | None
) -> int | str:
    """MPs for ``unit`` to enter ``after`` from ``before`` (turning aside), or why it may not."""
    terrain = board.terrain_of(after)
    vehicle = unit.type in VEHICLE_KINDS
    if prohibited(unit.type, terrain):
        return f"{unit.type.replace('_', ' ')}s may not enter {terrain} (10.4, 10.11, 10.12)"
    if fortification == "barbed_wire" and unit.type == "unarmoured_vehicle":
        return "vehicles may not enter barbed wire (20.8)"
    low, high = sorted((board.elevation_of(before), board.elevation_of(after)))
    if (low, high) == (0, 2):
        if not unit.is_infantry:
            return "vehicles and Guns may not move between ground level and level 2 (10.7)"
        return WHOLE_ALLOWANCE
    if unit.type == "gun":
        if not unit.movement_points:
            return "a Gun with 0 MPs may not move (6.32)"
        if terrain == "bridge" and board.terrain_of(before) not in ("road", "bridge"):
            return "Guns enter a bridge only from a road hex (10.31)"
        return unit.movement_points  # 6.32: one hex, whatever the terrain
    base = terrain_cost(terrain, vehicle=vehicle)
    if base is None:
        return f"{'vehicles' if vehicle else 'infantry'} may not enter {terrain} (10)"
    if vehicle and terrain == "bridge" and board.terrain_of(before) not in ("road", "bridge"):
        return "vehicles enter a bridge only from a road hex (10.31)"
    cost = base
    if board.elevation_of(after) > board.elevation_of(before):
        cost += 1  # 10.7: uphill
    if board.hexside_of(before, after) is not None:
        cost += HEXSIDE_COST
    if fortification is not None and fortification not in OBSTACLES:
        cost += 1  # 20.3
    return cost


def vehicle_turn_cost(facing: int, direction: int, cost: int) -> tuple[int, int]:
    """A vehicle's cost to enter a hex of entry ``cost`` in ``direction`` (1-6) from
    ``facing`` (6.5, 7.2): turn to face it (the first hexside free, +1 each further one) or
    reverse into the hex behind at double cost, whichever is cheaper; returns the cost and
    the new facing. Used by :func:`plan_move` and by an overrun's route (19.3)."""
    turn = min((direction - facing) % 6, (facing - direction) % 6)
    turning = cost + max(0, turn - 1)
    if turn == 3 and 2 * cost < turning:  # the hex behind
        return 2 * cost, facing
    return turning, direction


def _moving_units(  # noqa: PLR0912 - one check per rule (5.33, 6.4, 14.3, 14.7)
    scenario: BoardScenario, start: Hex, units: Sequence[str] | None, *, assault: bool
) -> tuple[ScenarioUnit, ...]:
    """The units that move: given by id, or every unpinned unit in the hex that has neither
    moved nor fired (5.33: units marked with a Fire marker may not move; 14.7: nor pinned);
    never a passenger (14.3: it rides its transport, not priced nor targeted in a move)."""
    board = scenario.board
    here = scenario.units_at(start)
    if not here:
        allowed = _("a hex with units in it: {stacks_text}").format(
            stacks_text=stacks_text(scenario)
        )
        raise InputError("stack", allowed, board.label(start))
    if units is None:
        stack = tuple(u for u in here if not (u.pinned or u.moved or u.fired or u.is_passenger))
        if not stack:
            raise InputError(
                "stack",
                "a hex with an unpinned unit that has not moved or fired",
                board.label(start),
            )
    else:
        ids = {u.id for u in here}
        for unit_id in units:
            if unit_id not in ids:
                raise InputError(
                    "units",
                    _("units in hex {label}: {values}").format(
                        label=board.label(start), values=", ".join(sorted(ids))
                    ),
                    unit_id,
                )
        stack = tuple(u for u in here if u.id in units)
        if not stack:
            raise InputError("units", "at least one unit id", ",".join(units))
    for unit in stack:
        if unit.is_passenger:
            raise InputError("units", "units not carried by a vehicle (14.3)", unit.id)
        if unit.pinned:
            raise InputError("units", "unpinned units (14.7: a pinned unit may not move)", unit.id)
        if unit.moved:
            raise InputError("units", "units without a Move marker", unit.id)
        if unit.fired:
            raise InputError("units", "units without a Fire marker (5.33)", unit.id)
        if assault and not unit.is_infantry:
            raise InputError("assault", "used by infantry only (6.4)", unit.id)
    return stack


@dataclass
class _Walk:
    """What :func:`plan_move` carries from hex to hex: the MPs each unit has spent, the way
    each vehicle faces (6.5, 7.2) and the hex it left."""

    spent: dict[str, int]
    facing: dict[str, int]
    before: Hex


def _unit_cost(  # noqa: PLR0917 - one hex's rules read for one unit
    unit: ScenarioUnit,
    board: Board,
    walk: _Walk,
    after: Hex,
    kind: str | None,
    index: int,
    full: Mapping[str, int],
    *,
    assault: bool,
    alone: bool,
) -> int:
    """The MPs ``unit`` pays to enter ``after``, the ``index``-th hex (6.2, 6.5, 6.32, 10,
    20.3), its facing and MPs spent updated in ``walk``; a one-line :class:`InputError` where
    it may not (``alone``: the path is this one hex, 10.7)."""
    label = board.label(after)
    price = entry_cost(unit, board, walk.before, after, kind)
    if isinstance(price, str):
        raise InputError(
            "path", _("a hex {id} may enter ({price})").format(id=unit.id, price=price), label
        )
    if unit.type in VEHICLE_KINDS:
        price, walk.facing[unit.id] = vehicle_turn_cost(
            walk.facing[unit.id], _direction(walk.before, after), price
        )
    if unit.type == "gun" and index > 1:
        raise InputError("path", _("one hex for Gun {id} (6.32)").format(id=unit.id), label)
    if price >= WHOLE_ALLOWANCE:
        _level_two(label, assault=assault, alone=alone)
        price = max(full[unit.id], 1)  # 10.7: all its MPs (6.6: it may always go)
    walk.spent[unit.id] += price
    return price


def _step(  # noqa: PLR0917 - the walk so far and the hex entered
    scenario: BoardScenario,
    stack: tuple[ScenarioUnit, ...],
    walk: _Walk,
    after: Hex,
    index: int,
    hexes: Sequence[Hex],
    full: Mapping[str, int],
    assault: bool,
) -> PathStep:
    """The ``index``-th hex entered, checked and priced for every unit (6.3, 6.8, 20.8)."""
    board = scenario.board
    label = board.label(after)
    before = walk.before
    if after not in board:
        raise InputError("path", "hexes on the board", label)
    if before.distance(after) != 1:
        raise InputError(
            "path",
            _("a hex adjacent to {label} (hex {index})").format(
                label=board.label(before), index=index
            ),
            label,
        )
    there = tuple(u for u in scenario.units_at(after) if u not in stack)
    if any(u.side != stack[0].side for u in there):
        raise InputError(
            "path", "hexes without enemy units (6.8; close assaults are not moves)", label
        )
    fort = scenario.fortification_at(after)
    kind = fort.kind if fort else None
    path_text = ",".join(board.label(h) for h in hexes)
    cost: dict[str, int] = {}
    for unit in stack:
        alone = len(hexes) == 1
        cost[unit.id] = _unit_cost(
            unit, board, walk, after, kind, index, full, assault=assault, alone=alone
        )
        if index > 1 and walk.spent[unit.id] > full[unit.id]:
            raise InputError(
                "path",
                _("within {id}'s {full} MPs (6.3; it would spend {spent} to enter {label})").format(
                    id=unit.id, full=full[unit.id], spent=walk.spent[unit.id], label=label
                ),
                path_text,
            )
    if kind == "barbed_wire" and any(u.is_infantry for u in stack) and index < len(hexes):
        raise InputError(
            "path",
            _("a path that ends at {label}: infantry entering barbed wire stop (20.8)").format(
                label=label
            ),
            path_text,
        )
    walk.before = after
    return PathStep(
        index,
        after,
        label,
        board.terrain_of(after),
        board.hexside_of(before, after),
        kind,
        cost,
        dict(walk.spent),
        there,
    )


def plan_move(
    scenario: BoardScenario,
    stack_hex: Hex | str,
    path: Sequence[Hex | str],
    *,
    units: Sequence[str] | None = None,
    assault: bool = False,
    allocator: Allocator = DEFAULT_ALLOCATOR,
    end: bool = True,
) -> MovePlan:
    """Check and price a stack's move from ``stack_hex`` along ``path`` (the hexes entered).

    ``units``: the ids of the units that move (default: every unpinned unit in the hex that
    has not moved); ``assault``: Assault Movement (6.4, infantry only); ``allocator``: who
    applies the CPs of each hit on the way (14.6); ``end=False``: the path is the start of a
    longer one, so its last hex need not hold the stack (6.7: friendly units are passed). A
    path the rules do not allow is a one-line :class:`InputError` naming the hex and the rule
    (each hex: :func:`_step`).
    """
    board = scenario.board
    start = _on_board(board, "stack", stack_hex)
    hexes = [_on_board(board, "path", h) for h in path]
    stack = _moving_units(scenario, start, units, assault=assault)
    if not hexes:
        raise InputError("path", "at least one hex", "")
    with_leader = any(u.type == "leader" for u in stack)
    full = {u.id: allowance(u, with_leader=with_leader, assault=assault) for u in stack}
    normal = {u.id: allowance(u, with_leader=False, assault=assault) for u in stack}
    walk = _Walk(dict.fromkeys(full, 0), {u.id: u.facing or 1 for u in stack}, start)
    steps = [
        _step(scenario, stack, walk, after, index, hexes, full, assault)
        for index, after in enumerate(hexes, start=1)
    ]
    last = steps[-1]
    if end and last.hex != start:
        problem = stacking_problem([*last.friendly, *stack])
        if problem:
            raise InputError(
                "path",
                _("a last hex that holds the stack (6.7, 6.9: {problem})").format(problem=problem),
                last.label,
            )
    return MovePlan(scenario, start, stack, tuple(steps), assault, full, normal, allocator)


def moving_infantry(plan: MovePlan) -> tuple[ScenarioUnit, ...]:
    """The infantry of the stack (snipers fire only at infantry, 17.4)."""
    return tuple(u for u in plan.stack if u.type in INFANTRY_TYPES)
