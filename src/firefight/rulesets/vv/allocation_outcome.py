"""V&V 14.6 Combat Results, the outcome: the defender's allocation by a policy (the one
losing the least Casualty Rating, or the units taking the CPs in an order), checking a chosen
one, and applying it, with the survival roll of an unarmoured vehicle or Gun (14.64).
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from firefight.chance import D6, Chance, exact
from firefight.errors import RuleError
from firefight.i18n import gettext
from firefight.rulesets.vv.allocation import (
    Casualty,
    Policy,
    Slot,
    SurvivalReading,
    UnitState,
    allocation_problem,
    legal_allocations,
    slots,
)
from firefight.rulesets.vv.units import (
    HexUnits,
    Unit,
)


def survival_chance(unit: Unit) -> Fraction:
    """14.64: the chance that 1d6 is at most the Casualty Rating."""
    return Fraction(min(max(unit.casualty_rating, 0), 6), 6)


Harm = tuple[Fraction, Fraction, Fraction]
"""What an allocation costs one slot: expected Casualty Rating lost, expected new pins, CPs."""


def _harms(hex_units: HexUnits, allocation: tuple[Casualty, ...]) -> tuple[Harm, ...]:
    """Each slot's :data:`Harm` under the allocation (its survival rolls weighed exactly)."""
    units = slots(hex_units)
    states = exact(lambda chance: _states(units, allocation, chance))
    lost = [Fraction(0)] * len(units)
    pins = [Fraction(0)] * len(units)
    for outcome, probability in states.items():
        for index, (slot, state) in enumerate(zip(units, outcome, strict=True)):
            if state == "eliminated":
                lost[index] += probability * slot.unit.casualty_rating
            elif state in ("reduced", "reduced_pinned"):
                lost[index] += probability * slot.unit.reduction_cost
            if state in ("pinned", "reduced_pinned") and not slot.unit.pinned:
                pins[index] += probability
    return tuple((lost[i], pins[i], Fraction(c.cost)) for i, c in enumerate(allocation))


def _valuation(hex_units: HexUnits, allocation: tuple[Casualty, ...]) -> tuple[Fraction, ...]:
    """``least_rating_lost``: expected Casualty Rating lost, then expected new pins, then CPs."""
    harms = _harms(hex_units, allocation)
    return tuple(sum((h[k] for h in harms), Fraction(0)) for k in range(3))


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

    def spared(allocation: tuple[Casualty, ...]) -> tuple[Harm, ...]:
        harms = _harms(hex_units, allocation)
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
    allowed = legal_allocations(
        hex_units,
        cps,
        attack_in_gun_ffa=attack_in_gun_ffa,
        gun_moving=gun_moving,
        survival=survival,
    )
    return min(allowed, key=lambda a: _valuation(hex_units, a))


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
    return _states(slots(hex_units), allocation, chance)


def _states(
    units: tuple[Slot, ...], allocation: tuple[Casualty, ...], chance: Chance
) -> tuple[UnitState, ...]:
    states = [
        _state(slot, casualty, chance) for slot, casualty in zip(units, allocation, strict=True)
    ]
    for index, slot in enumerate(units):
        if slot.carrier is None:
            continue
        vehicle = states[slot.carrier]
        if vehicle == "eliminated":
            states[index] = "eliminated"
        elif vehicle == "pinned" and states[index] != "eliminated":
            states[index] = "reduced_pinned" if states[index] == "reduced" else "pinned"
    return tuple(states)


def _state(slot: Slot, casualty: Casualty, chance: Chance) -> UnitState:
    unit = slot.unit
    action = casualty.action
    if action in ("eliminate", "destroy"):
        return "eliminated"
    if action == "survival":
        rating = unit.casualty_rating
        label = f"survival roll, {unit.label} (1d6)"
        survives = chance.check(D6, lambda die: die <= rating, label)
        chance.note(
            "14.64 survival",
            f"1d6 {'<=' if survives else '>'} {rating}: "
            + ("pinned" if survives else "eliminated"),
        )
        return "pinned" if survives else "eliminated"
    if action == "reduce_pin" or (action == "reduce" and unit.pinned):
        return "reduced_pinned"  # 14.61: reduced, then pinned for 1 more CP
    if action == "reduce":
        return "reduced"
    if action == "pin" or unit.pinned:
        return "pinned"
    return "unhurt"
