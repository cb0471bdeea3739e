"""V&V 14.6 Combat Results, the outcome: the defender's default
allocation (the policy losing the least Casualty Rating), checking a chosen one, and applying
it, with the survival roll of an unarmoured vehicle or Gun (14.64).
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


def _valuation(hex_units: HexUnits, allocation: tuple[Casualty, ...]) -> tuple[Fraction, ...]:
    """``least_rating_lost``: expected Casualty Rating lost, then expected new pins, then CPs."""
    units = slots(hex_units)
    states = exact(lambda chance: _states(units, allocation, chance))
    lost = Fraction(0)
    pins = Fraction(0)
    for outcome, probability in states.items():
        for slot, state in zip(units, outcome, strict=True):
            if state == "eliminated":
                lost += probability * slot.unit.casualty_rating
            elif state in ("reduced", "reduced_pinned"):
                lost += probability * slot.unit.reduction_cost
            if state in ("pinned", "reduced_pinned") and not slot.unit.pinned:
                pins += probability
    return (lost, pins, Fraction(sum(c.cost for c in allocation)))


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
    """The defender's cheapest legal allocation under ``policy`` (docs: "least_rating_lost").

    Cheapest = the least expected Casualty Rating lost (eliminated units count their rating,
    passengers included; a reduction its cost; a survival roll its chance of failing times the
    rating), then the fewest expected new pins, then the fewest CPs applied; ties go to the
    first in the order of :func:`legal_allocations`.
    """
    del policy  # one policy so far; the parameter names it in the Python API and the docs
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
