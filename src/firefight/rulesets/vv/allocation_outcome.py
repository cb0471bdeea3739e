"""V&V 14.6 Combat Results, the outcome: the defender's allocation by a policy (the one
losing the least Casualty Rating, or the units taking the CPs in an order), checking a chosen
one, and applying it, with the survival roll of an unarmoured vehicle or Gun (14.64).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import lru_cache

from firefight.chance import D6, Chance
from firefight.errors import RuleError
from firefight.i18n import gettext
from firefight.rulesets.vv.allocation import (
    Casualty,
    Policy,
    Slot,
    SurvivalReading,
    UnitState,
    allocation_problem,
    slots,
)
from firefight.rulesets.vv.allocation_search import Weigh, least_allocation, legal_allocations
from firefight.rulesets.vv.units import (
    HexUnits,
    Unit,
)


def survival_chance(unit: Unit) -> Fraction:
    """14.64: the chance that 1d6 is at most the Casualty Rating."""
    return Fraction(min(max(unit.casualty_rating, 0), 6), 6)


HARM_SCALE = 36
"""The denominator of a :data:`Harm`'s expectations: a slot's state turns on at most two
survival rolls of 1d6, its own and its vehicle's (14.64)."""


Harm = tuple[int, int, int]
"""What an allocation costs one slot: expected Casualty Rating lost and expected new pins, both
times :data:`HARM_SCALE` (whole numbers), then the CPs it takes."""


def _harms(hex_units: HexUnits, allocation: tuple[Casualty, ...]) -> tuple[Harm, ...]:
    """Each slot's :data:`Harm` under the allocation (:func:`_weigher`)."""
    return _weigher(slots(hex_units))(allocation)


def _weigher(
    units: tuple[Slot, ...], weigh: Weigh | None = None
) -> Callable[[tuple[Casualty, ...]], tuple[Harm, ...]]:
    """Each slot's :data:`Harm` under an allocation (``weigh``, by default a new
    :func:`_slot_weigher` of the slots)."""
    if weigh is None:
        weigh = _slot_weigher(units)

    def harms(allocation: tuple[Casualty, ...]) -> tuple[Harm, ...]:
        return tuple(
            weigh(i, c, None if s.carrier is None else allocation[s.carrier])
            for i, (s, c) in enumerate(zip(units, allocation, strict=True))
        )

    return harms


@lru_cache(maxsize=256)
def _hex_weigher(hex_units: HexUnits) -> Weigh:
    """:func:`_slot_weigher` of the hex, kept for every CPs asked of it."""
    return _slot_weigher(slots(hex_units))


def _slot_weigher(units: tuple[Slot, ...]) -> Weigh:
    """A slot's :data:`Harm` by its index, its casualty and its vehicle's, its survival roll
    and its vehicle's weighed exactly; a slot's harm turns on those two casualties only, so
    each is weighed once for all the allocations compared."""
    alone: list[dict[Casualty, Harm]] = [{} for _ in units]
    carried: list[dict[tuple[Casualty, Casualty], Harm]] = [{} for _ in units]

    def weigh(index: int, casualty: Casualty, vehicle: Casualty | None) -> Harm:
        if vehicle is None:
            harm = alone[index].get(casualty)
            if harm is None:
                harm = alone[index][casualty] = _slot_harm(units[index], casualty, None, units)
            return harm
        key = (casualty, vehicle)
        harm = carried[index].get(key)
        if harm is None:
            harm = carried[index][key] = _slot_harm(units[index], casualty, vehicle, units)
        return harm

    return weigh


def _slot_harm(
    slot: Slot, casualty: Casualty, vehicle: Casualty | None, units: tuple[Slot, ...]
) -> Harm:
    """One slot's :data:`Harm` (``vehicle``: its carrier's casualty), each survival roll
    independent of the others (14.64)."""
    own = _own_states(slot, casualty)
    if slot.carrier is None or vehicle is None:
        weighed = [(state, weight * 6) for state, weight in own]
    else:
        weighed = [
            (_with_vehicle(state, carried), weight * carried_weight)
            for state, weight in own
            for carried, carried_weight in _own_states(units[slot.carrier], vehicle)
        ]
    unit = slot.unit
    lost = sum(w * _rating_lost(unit, state) for state, w in weighed)
    pins = 0 if unit.pinned else sum(w for state, w in weighed if state in _PINNED)
    return lost, pins, casualty.cost


_PINNED = ("pinned", "reduced_pinned")


def _rating_lost(unit: Unit, state: UnitState) -> int:
    if state == "eliminated":
        return unit.casualty_rating
    if state in ("reduced", "reduced_pinned"):
        return unit.reduction_cost
    return 0


@lru_cache(maxsize=4096)
def ordered_allocation(
    hex_units: HexUnits,
    cps: int,
    order: tuple[int, ...] = (),
    *,
    attack_in_gun_ffa: bool = True,
    gun_moving: bool = False,
    survival: SurvivalReading = "cps_applied",
) -> tuple[Casualty, ...]:
    """The units take the CPs in ``order`` (slot indices of :func:`slots`; the slots it does not
    name follow in the hex's order), the first named the most (14.61 "the defending player
    determines"; docs: "in_order").

    The legal allocation that spares the last unit of the order the most, then the one before
    it, and so on (each unit's :data:`Harm`: expected Casualty Rating lost, then expected new
    pins, then CPs). Six CPs on two squads of rating 5 in the order (first, second): the first
    eliminated, the second pinned (the chapter 19 example).
    """
    count = len(slots(hex_units))
    full = (*order, *(i for i in range(count) if i not in order))
    allowed = legal_allocations(
        hex_units,
        cps,
        attack_in_gun_ffa=attack_in_gun_ffa,
        gun_moving=gun_moving,
        survival=survival,
    )

    weigh = _weigher(slots(hex_units), _hex_weigher(hex_units))

    def spared(allocation: tuple[Casualty, ...]) -> tuple[Harm, ...]:
        harms = weigh(allocation)
        return tuple(harms[i] for i in reversed(full))

    return min(allowed, key=spared)


@lru_cache(maxsize=4096)
def default_allocation(
    hex_units: HexUnits,
    cps: int,
    policy: Policy = "least_rating_lost",
    *,
    attack_in_gun_ffa: bool = True,
    gun_moving: bool = False,
    survival: SurvivalReading = "cps_applied",
) -> tuple[Casualty, ...]:
    """The defender's legal allocation under ``policy`` (docs: "casualty policy").

    ``least_rating_lost``: the cheapest = the least expected Casualty Rating lost (eliminated
    units count their rating, passengers included; a reduction its cost; a survival roll its
    chance of failing times the rating), then the fewest expected new pins, then the fewest
    CPs applied; ties go to the first in the order of :func:`legal_allocations`.
    ``in_order``: the units take the CPs in the hex's order (:func:`ordered_allocation`).
    """
    if policy == "in_order":
        return ordered_allocation(
            hex_units,
            cps,
            attack_in_gun_ffa=attack_in_gun_ffa,
            gun_moving=gun_moving,
            survival=survival,
        )
    return least_allocation(
        hex_units,
        cps,
        _hex_weigher(hex_units),
        attack_in_gun_ffa=attack_in_gun_ffa,
        gun_moving=gun_moving,
        survival=survival,
    )


def check_allocation(
    hex_units: HexUnits,
    cps: int,
    allocation: tuple[Casualty, ...],
    *,
    attack_in_gun_ffa: bool = True,
    gun_moving: bool = False,
    survival: SurvivalReading = "cps_applied",
) -> None:
    """Refuse the player's own allocation with a one-line reason if it is not legal."""
    problem = allocation_problem(
        hex_units,
        cps,
        allocation,
        attack_in_gun_ffa=attack_in_gun_ffa,
        gun_moving=gun_moving,
        survival=survival,
    )
    if problem is not None:
        raise RuleError(
            gettext("illegal allocation of {cps} CPs: {problem}").format(cps=cps, problem=problem)
        )


def apply_allocation(
    hex_units: HexUnits,
    cps: int,
    allocation: tuple[Casualty, ...],
    chance: Chance,
    *,
    attack_in_gun_ffa: bool = True,
    gun_moving: bool = False,
    survival: SurvivalReading = "cps_applied",
) -> tuple[UnitState, ...]:
    """The state of every slot after the allocation, rolling each survival roll (14.64)."""
    check_allocation(
        hex_units,
        cps,
        allocation,
        attack_in_gun_ffa=attack_in_gun_ffa,
        gun_moving=gun_moving,
        survival=survival,
    )
    return resolved_states(hex_units, allocation, chance)


def resolved_states(
    hex_units: HexUnits, allocation: tuple[Casualty, ...], chance: Chance
) -> tuple[UnitState, ...]:
    """:func:`apply_allocation` of an allocation already known legal (a policy's: one of
    :func:`~firefight.rulesets.vv.allocation_search.legal_allocations`), not checked again."""
    return _states(slots(hex_units), allocation, chance)


def _states(
    units: tuple[Slot, ...], allocation: tuple[Casualty, ...], chance: Chance
) -> tuple[UnitState, ...]:
    states = [
        _state(slot, casualty, chance) for slot, casualty in zip(units, allocation, strict=True)
    ]
    for index, slot in enumerate(units):
        if slot.carrier is not None:
            states[index] = _with_vehicle(states[index], states[slot.carrier])
    return tuple(states)


def _with_vehicle(state: UnitState, vehicle: UnitState) -> UnitState:
    """A passenger's state once its vehicle's is known: it shares an elimination or a pin
    (14.64)."""
    if vehicle == "eliminated":
        return "eliminated"
    if vehicle == "pinned" and state != "eliminated":
        return "reduced_pinned" if state == "reduced" else "pinned"
    return state


def _own_states(slot: Slot, casualty: Casualty) -> tuple[tuple[UnitState, int], ...]:
    """The slot's own state after its casualty, each with its chance in sixths (14.64)."""
    if casualty.action == "survival":
        survives = min(max(slot.unit.casualty_rating, 0), 6)
        return (("pinned", survives), ("eliminated", 6 - survives))
    return ((_fixed_state(slot, casualty), 6),)


def _state(slot: Slot, casualty: Casualty, chance: Chance) -> UnitState:
    if casualty.action != "survival":
        return _fixed_state(slot, casualty)
    unit = slot.unit
    rating = unit.casualty_rating
    label = f"survival roll, {unit.label} (1d6)"
    survives = chance.check(D6, lambda die: die <= rating, label)
    chance.note(
        "14.64 survival",
        f"1d6 {'<=' if survives else '>'} {rating}: " + ("pinned" if survives else "eliminated"),
    )
    return "pinned" if survives else "eliminated"


def _fixed_state(slot: Slot, casualty: Casualty) -> UnitState:
    """The state after any casualty but a survival roll."""
    unit = slot.unit
    action = casualty.action
    if action in ("eliminate", "destroy"):
        return "eliminated"
    if action == "reduce_pin" or (action == "reduce" and unit.pinned):
        return "reduced_pinned"  # 14.61: reduced, then pinned for 1 more CP
    if action == "reduce":
        return "reduced"
    if action == "pin" or unit.pinned:
        return "pinned"
    return "unhurt"
