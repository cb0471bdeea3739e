"""V&V 14.61-14.65 Combat Results, the choices: what a defender may do with each unit of a
hex (pin, reduce, eliminate; Gun Shields and valour, 14.63; vehicles and their passengers,
14.64-14.65) and whether an allocation of Casualty Points is legal (the legal allocations are
found by :mod:`~firefight.rulesets.vv.allocation_search`;
:mod:`firefight.rulesets.vv.casualties` applies them).

An allocation gives one :class:`Casualty` per *slot*: the units of the hex in order, each
vehicle followed by its passengers (:func:`slots`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from firefight.rulesets.vv.units import (
    SURVIVAL_ROLL_KINDS,
    HexUnits,
    Unit,
)

Action = Literal[
    "none", "ignore", "pin", "reduce", "reduce_pin", "eliminate", "survival", "destroy"
]


UnitState = Literal["unhurt", "pinned", "reduced", "reduced_pinned", "eliminated"]


Policy = Literal["least_rating_lost", "in_order"]
"""How the owner of the units hit chooses an allocation when he is not asked (14.61 "the
defending player determines"): ``least_rating_lost`` (the default) or ``in_order`` (the units
take the CPs in the hex's order, the first the most:
:func:`~firefight.rulesets.vv.allocation_outcome.ordered_allocation`)."""


SurvivalReading = Literal["cps_applied", "attack_total"]
"""14.64 "Any single attack against a vehicle or Gun that inflicts Casualty Points greater than
the unit's Casualty Rating automatically eliminates the unit": ``cps_applied`` compares the CPs
applied to the unit (docs: the default), ``attack_total`` the attack's CPs."""


POLICIES: tuple[Policy, ...] = ("least_rating_lost", "in_order")


@dataclass(frozen=True, order=True)
class Casualty:
    """What one unit takes: an action, the CPs it fulfils and whether its first CP was ignored.

    ``survival`` (14.64) takes ``cps`` from 2 to the Casualty Rating and calls for the survival
    roll; ``destroy`` eliminates a vehicle or Gun outright with more CPs than its rating and
    fulfils all the CPs left. ``ignored``: the Gun Shield or valor ignored its first CP (14.63).
    """

    action: Action = "none"
    cps: int = 0
    ignored: bool = False

    @property
    def cost(self) -> int:
        """The CPs this casualty fulfils."""
        return self.cps + (1 if self.ignored else 0)

    @property
    def last_step(self) -> int:
        """The CPs of its last step (a pin after a reduction is a step of its own, 14.61)."""
        return 1 if self.action in ("ignore", "reduce_pin") else self.cps

    def __str__(self) -> str:
        """As ``apply_casualties --allocation`` reads it: ``reduce+pin 3``, ``ignore+pin 1``,
        ``ignore`` (the first CP ignored, 14.63), ``survival 2``, ``destroy 5``."""
        if self.action == "ignore":
            return "ignore"
        if self.action == "none":
            return "none"
        text = f"{self.action.replace('_', '+')} {self.cps}"
        return f"ignore+{text}" if self.ignored else text


NONE = Casualty()


@dataclass(frozen=True)
class Slot:
    """One unit that may take CPs: a unit of the hex or a passenger (``carrier`` its index)."""

    unit: Unit
    carrier: int | None = None
    carrier_kind: str | None = None


@lru_cache(maxsize=4096)
def slots(hex_units: HexUnits) -> tuple[Slot, ...]:
    """The units of the hex in order, each vehicle followed by its passengers."""
    found: list[Slot] = []
    for unit in hex_units:
        index = len(found)
        found.append(Slot(unit))
        found.extend(Slot(p, index, unit.kind) for p in unit.passengers)
    return tuple(found)


def shielded(slot: Slot, attack_in_gun_ffa: bool, gun_moving: bool) -> bool:
    """14.63: may this unit ignore the first CP (Gun Shield in its FFA and still; valor)?"""
    unit = slot.unit
    if unit.kind == "gun":
        return unit.gun_shield and attack_in_gun_ffa and not gun_moving
    return unit.valorous and unit.is_infantry


def destroy_from(unit: Unit, cps: int, survival: SurvivalReading) -> int:
    """14.64: the fewest CPs that eliminate an unpinned vehicle or Gun outright: more than its
    rating; by the ``attack_total`` reading, 2 when the attack's ``cps`` exceed its rating."""
    if survival == "attack_total" and cps > unit.casualty_rating:
        return 2
    return unit.casualty_rating + 1


def base_options(  # noqa: PLR0911 - one return per unit class of 14.61-14.65
    slot: Slot, cps: int = 0, survival: SurvivalReading = "cps_applied"
) -> list[Casualty]:
    unit = slot.unit
    rating = unit.casualty_rating
    if not unit.affected_by_ap or slot.carrier_kind == "armoured_vehicle":
        return []  # 14.1: AP fire has no effect on AFVs; 14.65: nor on their passengers.
    if slot.carrier is not None:  # 14.65: passengers are reduced or eliminated, never pinned
        if unit.kind == "squad" and not unit.pinned:
            return [Casualty("reduce", unit.reduction_cost), Casualty("eliminate", rating)]
        return [Casualty("eliminate", rating)]
    if unit.pinned:  # 14.62 and 14.64: a pinned unit is eliminated at its rating
        return [Casualty("eliminate", rating)]
    if unit.kind in SURVIVAL_ROLL_KINDS:
        outright = destroy_from(unit, cps, survival)
        rolls = [Casualty("survival", k) for k in range(2, min(rating, outright - 1) + 1)]
        return [Casualty("pin", 1), *rolls, Casualty("destroy", outright)]
    if unit.kind == "squad":
        cost = unit.reduction_cost
        return [
            Casualty("pin", 1),
            Casualty("reduce", cost),
            Casualty("reduce_pin", cost + 1),
            Casualty("eliminate", rating),
        ]
    return [Casualty("pin", 1), Casualty("eliminate", rating)]


def options(
    slot: Slot, shield: bool, cps: int = 0, survival: SurvivalReading = "cps_applied"
) -> list[Casualty]:
    """Every casualty one unit may take (without the rules that tie units together)."""
    base = base_options(slot, cps, survival)
    if not base:
        return [NONE]
    found = [NONE, *base]
    if shield:
        found.append(Casualty("ignore", 0, ignored=True))
        found.extend(Casualty(c.action, c.cps, ignored=True) for c in base)
    return found


@lru_cache(maxsize=4096)
def _allowed(slot: Slot, shield: bool, cps: int, survival: SurvivalReading) -> tuple[Casualty, ...]:
    """:func:`options` once per slot and CPs (every allocation tried checks them again)."""
    return tuple(options(slot, shield, cps, survival))


def _ends_pinned_or_gone(casualty: Casualty) -> bool:
    return casualty.action in ("pin", "reduce_pin", "eliminate", "survival", "destroy")


@lru_cache(maxsize=65536)
def allocation_problem(
    hex_units: HexUnits,
    cps: int,
    allocation: tuple[Casualty, ...],
    *,
    attack_in_gun_ffa: bool = True,
    gun_moving: bool = False,
    survival: SurvivalReading = "cps_applied",
) -> str | None:
    """Why an allocation of ``cps`` breaks 14.61-14.65 (one line), or ``None`` if legal."""
    units = slots(hex_units)
    if len(allocation) != len(units):
        return f"the allocation names {len(allocation)} units; the hex holds {len(units)}"
    problem = _choice_problem(units, cps, allocation, attack_in_gun_ffa, gun_moving, survival)
    problem = problem or _sharing_problem(units, cps, allocation)
    if problem is not None:
        return problem
    if cps < 1:
        return None if all(c == NONE for c in allocation) else "no CPs to apply"
    absorbs = absorbing(units)
    return _pinned_problem(units, allocation) or _total_problem(units, cps, allocation, absorbs)


def absorbing(units: tuple[Slot, ...]) -> tuple[bool, ...]:
    """Which slots may take CPs at all (14.1, 14.65)."""
    return tuple(_allowed(s, False, 0, "cps_applied") != (NONE,) for s in units)


def _choice_problem(  # noqa: PLR0917 - allocation_problem's inputs, passed on
    units: tuple[Slot, ...],
    cps: int,
    allocation: tuple[Casualty, ...],
    attack_in_gun_ffa: bool,
    gun_moving: bool,
    survival: SurvivalReading,
) -> str | None:
    """A unit given a casualty its class cannot take (14.61-14.65), if any."""
    for slot, casualty in zip(units, allocation, strict=True):
        shield = shielded(slot, attack_in_gun_ffa, gun_moving)
        allowed = _allowed(slot, shield, cps, survival)
        ok = casualty in allowed or (
            casualty.action == "destroy"
            and any(
                a.action == "destroy" and a.ignored == casualty.ignored and casualty.cps >= a.cps
                for a in allowed
            )
        )
        if not ok:
            if casualty.action == "survival" and survival == "attack_total":
                return (
                    f"{slot.unit.label} makes no survival roll: the attack's {cps} CPs exceed "
                    "its Casualty Rating (14.64, reading attack_total)"
                )
            return f"{slot.unit.label} cannot take '{casualty}' (14.61-14.65)"
    return None


def _sharing_problem(
    units: tuple[Slot, ...], cps: int, allocation: tuple[Casualty, ...]
) -> str | None:
    """A passenger given CPs of its own beside its eliminated vehicle (14.64), or CPs left
    after an ignored first CP sent to another unit (14.63), if any."""
    for slot, casualty in zip(units, allocation, strict=True):
        carrier = slot.carrier
        if (
            carrier is not None
            and casualty != NONE
            and allocation[carrier].action in ("eliminate", "destroy")
        ):
            return (
                f"{slot.unit.label} shares its vehicle's elimination and takes no CPs "
                "of its own (14.64)"
            )
        if casualty.action == "ignore" and cps != 1:
            return (
                f"{slot.unit.label}: after its first CP is ignored the CPs left must go to "
                "the same unit (14.63)"
            )
    return None


def _pinned_problem(units: tuple[Slot, ...], allocation: tuple[Casualty, ...]) -> str | None:
    """CPs given to a pinned unit before every unpinned one is pinned or gone (14.62), if so."""
    touched_pinned = any(
        c != NONE and s.unit.pinned and s.carrier is None
        for s, c in zip(units, allocation, strict=True)
    )
    if touched_pinned:
        for slot, casualty in zip(units, allocation, strict=True):
            unpinned = slot.carrier is None and not slot.unit.pinned and slot.unit.affected_by_ap
            if unpinned and not _ends_pinned_or_gone(casualty):
                return f"CPs go to unpinned units ({slot.unit.label}) before pinned ones (14.62)"
    return None


def _total_problem(  # noqa: PLR0911 - one return per clause of 14.61 and 14.64
    units: tuple[Slot, ...], cps: int, allocation: tuple[Casualty, ...], absorbs: tuple[bool, ...]
) -> str | None:
    """CPs applied short of ``cps`` or beyond what fulfils them (14.61), or a vehicle or Gun
    eliminated outright not taking all the CPs left (14.64), if so (``absorbs``:
    :func:`absorbing`)."""
    destroys = [c for c in allocation if c.action == "destroy"]
    if len(destroys) > 1:
        return "only one vehicle or Gun can take all the CPs left (14.64)"
    passenger_credit = sum(
        s.unit.casualty_rating
        for s in units
        if s.carrier is not None and allocation[s.carrier].action == "eliminate"
    )
    others = sum(c.cost for c in allocation if c.action != "destroy") + passenger_credit
    if destroys:
        destroy = destroys[0]
        left = cps - others
        if destroy.cps != left - (1 if destroy.ignored else 0):
            return "a vehicle or Gun eliminated outright takes all the CPs left (14.64)"
        return None
    if others >= cps:
        last = max(c.last_step for c in allocation)
        if others - last >= cps:
            return f"{others} CPs applied for {cps}: stop once the CPs are fulfilled (14.61)"
        return None
    for slot, casualty, absorbing in zip(units, allocation, absorbs, strict=True):
        gone = casualty.action == "eliminate" or (
            slot.carrier is not None and allocation[slot.carrier].action == "eliminate"
        )
        if absorbing and not gone:
            return f"{others} CPs applied for {cps}: the CPs must be fulfilled (14.61)"
    return None


def fit_destroy(combo: tuple[Casualty, ...], cps: int) -> tuple[Casualty, ...] | None:
    """Give an outright elimination (14.64) all the CPs the others leave (at least the CPs of
    the ``destroy`` given, the fewest that eliminate the unit outright)."""
    destroys = [i for i, c in enumerate(combo) if c.action == "destroy"]
    if len(destroys) != 1:
        return None if destroys else combo
    index = destroys[0]
    others = sum(c.cost for i, c in enumerate(combo) if i != index)
    taken = cps - others - (1 if combo[index].ignored else 0)
    if taken < combo[index].cps:
        return None
    fitted = list(combo)
    fitted[index] = Casualty("destroy", taken, combo[index].ignored)
    return tuple(fitted)
