"""V&V 14.6 Combat Results: the defender applies Casualty Points (CPs) to the units in a hex.

14.61: pin a unit for 1 CP; reduce a squad to its half squad for the difference of their
Casualty Ratings (and then, if wished, pin it for 1 more); eliminate a unit for its Casualty
Rating; never pin and then eliminate. The CPs must be equalled or exceeded.
14.62: CPs go to unpinned units before pinned ones; pinned units can only be eliminated.
14.63: a Gun with a Gun Shield (attack from inside its FFA, Gun not moving) and a valorous
unit ignore the first CP against them; the CPs left must then go to the same unit.
14.64: an unarmoured vehicle or Gun given 2 CPs up to its Casualty Rating makes a survival
roll (1d6 <= rating: pinned, else eliminated); more than its rating eliminates it outright;
a pinned one is eliminated at its rating. Passengers share their vehicle's fate. Which CPs
are compared with the rating is a reading (``SurvivalReading``): those applied to the unit
(default), or the attack's total (then a unit whose rating the attack exceeds has no survival
roll: pinned for 1 CP, or eliminated outright).
14.65: passengers of an unarmoured vehicle may be reduced or eliminated (never pinned) to
fulfil CPs; those of an AFV may not.

An allocation gives one :class:`Casualty` per *slot*: the units of the hex in order, each
vehicle followed by its passengers (:func:`slots`).
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache
from typing import Any, ClassVar, Literal

from pydantic import Field, create_model

from firefight.chance import D6, Chance, exact
from firefight.core.inputs import RuleInput
from firefight.errors import InputError, RuleError
from firefight.i18n import gettext
from firefight.rulesets.procedure import Procedure
from firefight.rulesets.vv.ap import VvApAttack, attack_roll, facts, modifiers
from firefight.rulesets.vv.support import (
    VvSniperAttack,
    VvSniperElimination,
    no_modifiers,
    sniper_attack,
    sniper_attack_modifiers,
    sniper_cover_field,
    sniper_elimination,
    target_cover_field,
)
from firefight.rulesets.vv.units import (
    INFANTRY,
    SURVIVAL_ROLL_KINDS,
    VEHICLES,
    HexUnits,
    Unit,
)

Action = Literal[
    "none", "ignore", "pin", "reduce", "reduce_pin", "eliminate", "survival", "destroy"
]
UnitState = Literal["unhurt", "pinned", "reduced", "reduced_pinned", "eliminated"]
Policy = Literal["least_rating_lost"]
SurvivalReading = Literal["cps_applied", "attack_total"]
"""14.64 "Any single attack against a vehicle or Gun that inflicts Casualty Points greater than
the unit's Casualty Rating automatically eliminates the unit": ``cps_applied`` compares the CPs
applied to the unit (docs: the default), ``attack_total`` the attack's CPs."""

POLICIES: tuple[Policy, ...] = ("least_rating_lost",)


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


def _base_options(  # noqa: PLR0911 - one return per unit class of 14.61-14.65
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
    base = _base_options(slot, cps, survival)
    if not base:
        return [NONE]
    found = [NONE, *base]
    if shield:
        found.append(Casualty("ignore", 0, ignored=True))
        found.extend(Casualty(c.action, c.cps, ignored=True) for c in base)
    return found


def _ends_pinned_or_gone(casualty: Casualty) -> bool:
    return casualty.action in ("pin", "reduce_pin", "eliminate", "survival", "destroy")


@lru_cache(maxsize=65536)
def allocation_problem(  # noqa: PLR0911, PLR0912 - one check per clause of 14.61-14.65
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
    for slot, casualty in zip(units, allocation, strict=True):
        shield = shielded(slot, attack_in_gun_ffa, gun_moving)
        allowed = options(slot, shield, cps, survival)
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
    if cps < 1:
        return None if all(c == NONE for c in allocation) else "no CPs to apply"
    touched_pinned = any(
        c != NONE and s.unit.pinned and s.carrier is None
        for s, c in zip(units, allocation, strict=True)
    )
    if touched_pinned:
        for slot, casualty in zip(units, allocation, strict=True):
            unpinned = slot.carrier is None and not slot.unit.pinned and slot.unit.affected_by_ap
            if unpinned and not _ends_pinned_or_gone(casualty):
                return f"CPs go to unpinned units ({slot.unit.label}) before pinned ones (14.62)"
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
    for slot, casualty in zip(units, allocation, strict=True):
        gone = casualty.action == "eliminate" or (
            slot.carrier is not None and allocation[slot.carrier].action == "eliminate"
        )
        if options(slot, False) != [NONE] and not gone:
            return f"{others} CPs applied for {cps}: the CPs must be fulfilled (14.61)"
    return None


@lru_cache(maxsize=4096)
def legal_allocations(
    hex_units: HexUnits,
    cps: int,
    *,
    attack_in_gun_ffa: bool = True,
    gun_moving: bool = False,
    survival: SurvivalReading = "cps_applied",
) -> tuple[tuple[Casualty, ...], ...]:
    """Every legal allocation of ``cps`` CPs to the hex (14.61-14.65), in a fixed order.

    When the hex cannot absorb them all (every unit eliminated), the CPs left are lost.
    """
    units = slots(hex_units)
    per_slot = [
        options(s, shielded(s, attack_in_gun_ffa, gun_moving), cps, survival) if cps > 0 else [NONE]
        for s in units
    ]
    found: list[tuple[Casualty, ...]] = []
    for combo in itertools.product(*per_slot):
        allocation = _fit_destroy(combo, cps)
        if allocation is None:
            continue
        problem = allocation_problem(
            hex_units,
            cps,
            allocation,
            attack_in_gun_ffa=attack_in_gun_ffa,
            gun_moving=gun_moving,
            survival=survival,
        )
        if problem is None and allocation not in found:
            found.append(allocation)
    return tuple(found)


def _fit_destroy(combo: tuple[Casualty, ...], cps: int) -> tuple[Casualty, ...] | None:
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


HexUnitKind = Literal[
    "none", "squad", "half_squad", "leader", "unarmoured_vehicle", "armoured_vehicle", "gun"
]


def _unit_fields(n: int, default: HexUnitKind) -> dict[str, Any]:
    return {
        f"unit{n}": (HexUnitKind, Field(default, description=f"Target unit {n} (none: absent).")),
        f"unit{n}_casualty_rating": (
            int,
            Field(4, ge=1, le=6, description="Its Casualty Rating (a squad's: the full squad's)."),
        ),
        f"unit{n}_half_squad_rating": (
            int,
            Field(2, ge=1, le=5, description="A squad's half squad Casualty Rating (14.61)."),
        ),
        f"unit{n}_pinned": (bool, Field(False, description="Already pinned (14.62).")),
        f"unit{n}_valorous": (bool, Field(False, description="Valorous infantry (14.63, 16.3).")),
        f"unit{n}_gun_shield": (bool, Field(False, description="A Gun with a Gun Shield (14.63).")),
        f"unit{n}_passenger": (
            bool,
            Field(False, description="Infantry carried by the vehicle among the targets (14.65)."),
        ),
    }


_HexFields = create_model(
    "_HexFields",
    __base__=VvApAttack,
    **_unit_fields(1, "squad"),
    **_unit_fields(2, "none"),
    **_unit_fields(3, "none"),
)


GUN_MOVING_HELP = "The target Gun is moving (13.5: no shield)."
SURVIVAL_READING_HELP = (  # the same reading for every procedure that applies CPs
    "Which CPs 14.64 compares with a vehicle's or Gun's Casualty Rating: cps_applied = "
    "those applied to it (2 up to its rating: a survival roll; more: eliminated); "
    "attack_total = the attack's CPs (when they exceed its rating it makes no survival "
    "roll: pinned for 1 CP, or eliminated outright)."
)


class VvApAttackHex(_HexFields):
    """An AP attack on a hex of up to three units, with the CPs applied (14.5, 14.6)."""

    readings: ClassVar[frozenset[str]] = frozenset({"fighter_bombers", "survival_reading"})
    """The fields that read the rules where they are silent (folded apart on the web)."""

    attack_in_gun_ffa: bool = Field(
        True, description="The attack comes from inside the target Gun's FFA (14.63)."
    )
    gun_moving: bool = Field(False, description=GUN_MOVING_HELP)
    survival_reading: SurvivalReading = Field("cps_applied", description=SURVIVAL_READING_HELP)
    casualty_policy: Policy = Field(
        "least_rating_lost",
        description=(
            "How the defender applies the CPs: least_rating_lost = the legal allocation that "
            "loses the least expected Casualty Rating, then the fewest new pins, then the "
            "fewest CPs (docs: casualty policy)."
        ),
    )


@lru_cache(maxsize=1024)
def target_hex(
    inp: VvApAttackHex | VvApplyCasualties | VvSniperAttackHex,
) -> tuple[HexUnits, tuple[int, ...]]:
    """The target hex as units, and the input unit number of each slot (passengers nested)."""
    data = inp.model_dump()
    given = [n for n in (1, 2, 3) if data[f"unit{n}"] != "none"]
    if not given:
        raise InputError("unit1", "a unit (the target hex holds at least one)", "none")
    carriers = [n for n in given if data[f"unit{n}"] in VEHICLES and not data[f"unit{n}_passenger"]]
    units: dict[int, Unit] = {}
    riders: list[int] = []
    for n in given:
        kind = data[f"unit{n}"]
        if data[f"unit{n}_valorous"] and kind not in INFANTRY:
            raise InputError(f"unit{n}_valorous", "true only for infantry (16.1)", True)
        if data[f"unit{n}_gun_shield"] and kind != "gun":
            raise InputError(f"unit{n}_gun_shield", "true only for a gun", True)
        if data[f"unit{n}_passenger"]:
            if kind not in INFANTRY:
                raise InputError(f"unit{n}_passenger", "true only for infantry (14.65)", True)
            if not carriers:
                raise InputError(
                    f"unit{n}_passenger", "true only with a vehicle among the units", True
                )
            riders.append(n)
        units[n] = Unit(
            kind,
            data[f"unit{n}_casualty_rating"],
            name=f"unit{n}",
            half_squad_rating=data[f"unit{n}_half_squad_rating"] if kind == "squad" else None,
            pinned=data[f"unit{n}_pinned"],
            valorous=data[f"unit{n}_valorous"],
            gun_shield=data[f"unit{n}_gun_shield"],
        )
    carrier = carriers[0] if riders else None
    order: list[int] = []
    placed: list[Unit] = []
    for n in given:
        if n in riders:
            continue
        unit = units[n]
        if n == carrier:
            unit = replace(unit, passengers=tuple(units[r] for r in riders))
            placed.append(unit)
            order.extend([n, *riders])
        else:
            placed.append(unit)
            order.append(n)
    return HexUnits(tuple(placed)), tuple(order)


def ap_attack_hex(inp: VvApAttackHex, chance: Chance) -> str:
    """The state of every target unit after the attack and the default allocation (14.6)."""
    target_hex(inp)  # a mistake in the hex is named before any die is read
    cps_text, suffix = attack_roll(inp, chance)
    units, _ = policy_casualties(inp, 0 if cps_text == "-" else int(cps_text), chance)
    return units + suffix


def _shield(inp: VvApAttackHex | VvApplyCasualties | VvSniperAttackHex) -> dict[str, Any]:
    """The keywords of the casualty functions that the input sets (14.63, 14.64)."""
    return {
        "attack_in_gun_ffa": inp.attack_in_gun_ffa,
        "gun_moving": inp.gun_moving,
        "survival": inp.survival_reading,
    }


def policy_casualties(
    inp: VvApAttackHex | VvSniperAttackHex, cps: int, chance: Chance
) -> tuple[str, tuple[UnitState, ...]]:
    """``cps`` applied to the input's hex by its casualty policy, the allocation noted (as
    ``--allocation`` reads it): every unit's state in words (``unit1 pinned, unit2 unhurt``),
    and the states in the order of :func:`slots`."""
    hex_units, order = target_hex(inp)
    shield = _shield(inp)
    allocation = default_allocation(hex_units, cps, inp.casualty_policy, **shield)
    if cps:
        chance.note(
            "14.61 allocation",
            ", ".join(f"unit{n} {c}" for n, c in zip(order, allocation, strict=True) if c != NONE),
        )
    states = apply_allocation(hex_units, cps, allocation, chance, **shield)
    by_unit = dict(zip(order, states, strict=True))
    return ", ".join(f"unit{n} {by_unit[n]}" for n in sorted(by_unit)), states


def hex_facts(inp: VvApAttackHex) -> list[tuple[str, str]]:
    """The attack's facts and the casualty policy."""
    return [
        *facts(inp),
        ("casualty policy", inp.casualty_policy),
        ("survival roll (14.64)", inp.survival_reading),
    ]


UNIT_STATES = {  # what each state of a unit means, for both procedures
    "unhurt": "no change",
    "pinned": "flipped to its pinned side (14.7)",
    "reduced": "a squad reduced to its half squad (14.61)",
    "reduced_pinned": "reduced to its half squad and pinned (14.61)",
    "eliminated": "removed (14.61, 14.64)",
}

AP_ATTACK_HEX: Procedure[VvApAttackHex] = Procedure(
    name="ap_attack_hex",
    title="AP attack on a hex, CPs applied (14.5, 14.6)",
    input_model=VvApAttackHex,
    rule=ap_attack_hex,
    modifiers=modifiers,
    chart="ap_combat",
    facts=hex_facts,
    meanings=UNIT_STATES,
)

ALLOCATION_HELP = (
    "How the defending player applies the CPs (V&V 14.61): entries 'unitN ACTION' separated "
    "by commas, e.g. 'unit1 reduce, unit2 pin'. ACTION: pin, reduce, reduce+pin, eliminate, "
    "survival K (a vehicle or Gun given K CPs, 2 to its rating, rolls to survive, 14.64), "
    "destroy (a vehicle or Gun takes all the CPs left, more than its rating), ignore (the "
    "first CP, Gun Shield or valor, 14.63), or ignore+ACTION. Units not named take nothing. "
    "Empty: the casualty policy's allocation."
)


class _CasualtiesFirst(RuleInput):
    """The CPs and the allocation, first on the form: what the player came to enter."""

    cps: int = Field(
        ge=0,
        le=99,
        description="The Casualty Points to apply: the AP Combat Table's result (V&V 14.5).",
    )
    allocation: str = Field("", max_length=200, description=ALLOCATION_HELP)


_CasualtiesHex = create_model(
    "_CasualtiesHex",
    __base__=_CasualtiesFirst,
    **_unit_fields(1, "squad"),
    **_unit_fields(2, "none"),
    **_unit_fields(3, "none"),
)


class VvApplyCasualties(_CasualtiesHex):
    """The CPs an AP attack gave, applied to a hex by the defending player (V&V 14.6)."""

    readings: ClassVar[frozenset[str]] = frozenset({"survival_reading"})
    """The fields that read the rules where they are silent (folded apart on the web)."""

    attack_in_gun_ffa: bool = Field(
        True, description="The attack came from inside the target Gun's FFA (14.63)."
    )
    gun_moving: bool = Field(False, description=GUN_MOVING_HELP)
    survival_reading: SurvivalReading = Field("cps_applied", description=SURVIVAL_READING_HELP)
    casualty_policy: Policy = Field(
        "least_rating_lost",
        description=(
            "The allocation when none is given: least_rating_lost (as ap_attack_hex; docs: "
            "casualty policy)."
        ),
    )


_ACTIONS: dict[str, Action] = {
    "pin": "pin",
    "reduce": "reduce",
    "reduce+pin": "reduce_pin",
    "eliminate": "eliminate",
    "survival": "survival",
    "destroy": "destroy",
}
_ALLOWED_ENTRY = (
    "entries 'unitN ACTION' separated by commas, ACTION one of ignore, "
    + ", ".join(_ACTIONS)
    + " (survival with its CPs: 'survival 3'), or ignore+ACTION"
)


_NUMBER = re.compile(r"[0-9]+")
_UNIT = re.compile(r"unit([0-9]+)")


def _casualty(
    slot: Slot, entry: str, cps: int, survival: SurvivalReading
) -> tuple[Casualty, int | None]:
    """One entry's action as a :class:`Casualty`, its CPs from the unit (14.61, 14.64), and
    the CPs the entry gave, if any."""
    words = entry.split()
    action_text, numbers = words[1], words[2:]
    ignored = action_text.startswith("ignore+")
    name = action_text.removeprefix("ignore+")
    if name == "ignore" and not ignored and not numbers:
        return Casualty("ignore", 0, ignored=True), None
    if name not in _ACTIONS or len(numbers) > 1 or not all(_NUMBER.fullmatch(n) for n in numbers):
        raise InputError("allocation", _ALLOWED_ENTRY, entry)
    action = _ACTIONS[name]
    given = int(numbers[0]) if numbers else None
    unit = slot.unit
    implied = {
        "pin": 1,
        "reduce": unit.reduction_cost if unit.kind == "squad" else None,
        "reduce_pin": unit.reduction_cost + 1 if unit.kind == "squad" else None,
        "eliminate": unit.casualty_rating,
        "survival": given,
        "destroy": destroy_from(unit, cps, survival),  # fitted to the CPs left by parse_allocation
    }[action]
    if action == "survival" and given is None:
        raise InputError("allocation", "'survival K', K the CPs: 2 to the unit's rating", entry)
    if implied is None:
        raise RuleError(
            gettext("{label} cannot take '{name}' (14.61-14.65)").format(
                label=unit.label, name=name
            )
        )
    if given is not None and action not in ("survival", "destroy") and given != implied:
        msg = gettext("{label}: '{name}' costs {implied} CPs (14.61), not {given}").format(
            label=unit.label, name=name, implied=implied, given=given
        )
        raise RuleError(msg)
    return Casualty(action, implied, ignored=ignored), given


def parse_allocation(
    text: str,
    hex_units: HexUnits,
    order: tuple[int, ...],
    cps: int,
    *,
    survival: SurvivalReading = "cps_applied",
) -> tuple[Casualty, ...]:
    """The player's allocation (``"unit1 reduce, unit2 pin"``) as one casualty per slot, in the
    order of :func:`slots`; ``order`` gives each slot's input unit number. Its legality is
    :func:`check_allocation`'s to judge."""
    units = slots(hex_units)
    by_number = dict(zip(order, range(len(order)), strict=True))
    present = ", ".join(f"unit{n}" for n in sorted(by_number))
    allocation = [NONE] * len(units)
    destroy_given: int | None = None
    named: set[int] = set()
    for raw in text.split(","):
        entry = " ".join(raw.split())
        if not entry:
            continue
        words = entry.split()
        unit_word = _UNIT.fullmatch(words[0])
        if len(words) < 2 or unit_word is None:
            raise InputError("allocation", _ALLOWED_ENTRY, entry)
        number = int(unit_word.group(1))
        if number not in by_number:
            raise InputError("allocation", f"units of the hex: {present}", words[0])
        if number in named:
            raise InputError("allocation", "each unit named once", words[0])
        named.add(number)
        index = by_number[number]
        allocation[index], given = _casualty(units[index], entry, cps, survival)
        if allocation[index].action == "destroy":
            destroy_given = given
    fitted = _fit_destroy(tuple(allocation), cps)
    if fitted is None:
        raise RuleError(
            f"illegal allocation of {cps} CPs: a vehicle or Gun eliminated outright takes "
            + (
                "more CPs than its rating, all those left (14.64)"
                if survival == "cps_applied"
                else "all the CPs left: more than its rating, or 2 or more when the attack's "
                "CPs exceed it (14.64, reading attack_total)"
            )
        )
    taken = next((c.cps for c in fitted if c.action == "destroy"), None)
    if destroy_given is not None and destroy_given != taken:
        raise RuleError(
            gettext(
                "illegal allocation of {cps} CPs: the vehicle or Gun eliminated "
                "outright takes the {taken} CPs left (14.64), not {destroy_given}"
            ).format(cps=cps, taken=taken, destroy_given=destroy_given)
        )
    return fitted


@lru_cache(maxsize=1024)
def chosen_allocation(inp: VvApplyCasualties) -> tuple[Casualty, ...]:
    """The player's allocation, checked (14.61-14.65), or the policy's when none is given."""
    hex_units, order = target_hex(inp)
    shield = _shield(inp)
    if not inp.allocation.strip():
        return default_allocation(hex_units, inp.cps, inp.casualty_policy, **shield)
    allocation = parse_allocation(
        inp.allocation, hex_units, order, inp.cps, survival=inp.survival_reading
    )
    check_allocation(hex_units, inp.cps, allocation, **shield)
    return allocation


def apply_casualties(inp: VvApplyCasualties, chance: Chance) -> str:
    """The state of every unit after the allocation, with each survival roll (14.6)."""
    hex_units, order = target_hex(inp)
    allocation = chosen_allocation(inp)
    shield = _shield(inp)
    states = apply_allocation(hex_units, inp.cps, allocation, chance, **shield)
    by_unit = dict(zip(order, states, strict=True))
    return ", ".join(f"unit{n} {by_unit[n]}" for n in sorted(by_unit))


def casualty_facts(inp: VvApplyCasualties) -> list[tuple[str, str]]:
    """The allocation applied, as its entries, and whose it is."""
    _, order = target_hex(inp)
    allocation = chosen_allocation(inp)
    applied = ", ".join(f"unit{n} {c}" for n, c in zip(order, allocation, strict=True) if c != NONE)
    whose = "the player's" if inp.allocation.strip() else f"policy {inp.casualty_policy}"
    return [
        ("allocation", f"{applied or 'nothing'} ({whose})"),
        ("CPs", str(inp.cps)),
        ("survival roll (14.64)", inp.survival_reading),
    ]


APPLY_CASUALTIES: Procedure[VvApplyCasualties] = Procedure(
    name="apply_casualties",
    title="Casualty Points applied by the defending player (14.6)",
    input_model=VvApplyCasualties,
    rule=apply_casualties,
    modifiers=no_modifiers,
    facts=casualty_facts,
    meanings=UNIT_STATES,
)


class _SniperFirst(RuleInput):
    """The two covers, first on the form."""

    target_cover: int = target_cover_field()
    sniper_cover: int = sniper_cover_field()


_SniperHex = create_model(
    "_SniperHex",
    __base__=_SniperFirst,
    **_unit_fields(1, "squad"),
    **_unit_fields(2, "none"),
    **_unit_fields(3, "none"),
)


class VvSniperAttackHex(_SniperHex):
    """A sniper's attack on a hex (17.5), its CPs applied (14.6), then the Sniper Elimination
    Check the targeted units make if one of them is left unpinned (17.6)."""

    readings: ClassVar[frozenset[str]] = frozenset({"survival_reading"})
    """The fields that read the rules where they are silent (folded apart on the web)."""

    attack_in_gun_ffa: bool = Field(
        True, description="The sniper fires from inside the target Gun's FFA (14.63)."
    )
    gun_moving: bool = Field(False, description=GUN_MOVING_HELP)
    survival_reading: SurvivalReading = Field("cps_applied", description=SURVIVAL_READING_HELP)
    casualty_policy: Policy = Field(
        "least_rating_lost",
        description="How the defender applies the CPs (as ap_attack_hex; docs: casualty policy).",
    )


UNPINNED: tuple[UnitState, ...] = ("unhurt", "reduced")


def sniper_attack_hex(inp: VvSniperAttackHex, chance: Chance) -> str:
    """Every unit's state after the sniper's CPs, then ``sniper_eliminated``,
    ``sniper_survives`` or ``no_check`` (17.5, 14.6, 17.6).

    The check is made by a targeted unit left unpinned: one the sniper's AP attack could
    reach (14.1: not an AFV; 14.65: not an AFV's passenger)."""
    hex_units, _ = target_hex(inp)  # a mistake in the hex is named before any die is read
    reachable = [bool(_base_options(slot)) for slot in slots(hex_units)]
    cps_text = sniper_attack(VvSniperAttack(target_cover=inp.target_cover), chance)
    units, states = policy_casualties(inp, 0 if cps_text == "-" else int(cps_text), chance)
    left = [s for s, can in zip(states, reachable, strict=True) if can and s in UNPINNED]
    if not left:
        chance.note("17.6", "no unpinned unit is left in the target hex: no check")
        return f"{units}; no_check"
    check = VvSniperElimination(sniper_cover=inp.sniper_cover, unpinned_target=True)
    return f"{units}; {sniper_elimination(check, chance)}"


def sniper_hex_facts(inp: VvSniperAttackHex) -> list[tuple[str, str]]:
    """What the dice must beat, and the casualty policy."""
    return [
        ("CPs", f"1d6 - {inp.target_cover}, when the die is above {inp.target_cover}"),
        ("sniper eliminated on 1d6 >", str(inp.sniper_cover)),
        ("casualty policy", inp.casualty_policy),
        ("survival roll (14.64)", inp.survival_reading),
    ]


SNIPER_ATTACK_HEX: Procedure[VvSniperAttackHex] = Procedure(
    name="sniper_attack_hex",
    title="Sniper attack on a hex, CPs applied, elimination check (17.5, 14.6, 17.6)",
    input_model=VvSniperAttackHex,
    rule=sniper_attack_hex,
    modifiers=lambda inp: sniper_attack_modifiers(VvSniperAttack(target_cover=inp.target_cover)),
    facts=sniper_hex_facts,
    meanings={
        **UNIT_STATES,
        "sniper_eliminated": "removed; it can no longer be activated (17.6)",
        "sniper_survives": "stays in its hex",
        "no_check": "no unpinned unit left in the target hex: no elimination check (17.6)",
    },
)

PROCEDURES = (AP_ATTACK_HEX, APPLY_CASUALTIES, SNIPER_ATTACK_HEX)
