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

Parts, the public names re-exported here: the choices and their legality
(:mod:`~firefight.rulesets.vv.allocation`, the legal ones listed by
:mod:`~firefight.rulesets.vv.allocation_search`), the default allocation, its check and its
application (:mod:`~firefight.rulesets.vv.allocation_outcome`), an allocation as typed
(:mod:`~firefight.rulesets.vv.allocation_entry`). This module keeps the procedures.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import lru_cache
from typing import Any, ClassVar, Literal

import numpy as np
from pydantic import Field, create_model

from firefight.chance import Chance, exact
from firefight.chance.distribution import Distribution
from firefight.chance.phases import KnownPhase, Phases
from firefight.chance.process import Process
from firefight.core.inputs import RuleInput
from firefight.errors import InputError
from firefight.rulesets.procedure import Procedure
from firefight.rulesets.vv.allocation import (
    NONE,
    POLICIES,
    Action,
    Casualty,
    Policy,
    Slot,
    SurvivalReading,
    UnitState,
    allocation_problem,
    destroy_from,
    options,
    shielded,
    slots,
)
from firefight.rulesets.vv.allocation_entry import (
    parse_allocation,
)
from firefight.rulesets.vv.allocation_outcome import (
    apply_allocation,
    check_allocation,
    default_allocation,
    ordered_allocation,
    resolved_states,
    survival_chance,
)
from firefight.rulesets.vv.allocation_search import legal_allocations
from firefight.rulesets.vv.ap import Rolled, VvApAttack, attack_phases, facts, modifiers
from firefight.rulesets.vv.support import (
    no_modifiers,
    sniper_cover_field,
    target_cover_field,
)
from firefight.rulesets.vv.units import (
    INFANTRY,
    VEHICLES,
    HexUnits,
    Unit,
)

__all__ = [
    "ALLOCATION_HELP",
    "APPLY_CASUALTIES",
    "AP_ATTACK_HEX",
    "GUN_MOVING_HELP",
    "NONE",
    "POLICIES",
    "PROCEDURES",
    "SURVIVAL_READING_HELP",
    "UNIT_STATES",
    "Action",
    "Casualty",
    "HexUnitKind",
    "Policy",
    "Slot",
    "SurvivalReading",
    "UnitState",
    "VvApAttackHex",
    "VvApplyCasualties",
    "VvSniperAttackHex",
    "allocation_problem",
    "ap_attack_hex",
    "apply_allocation",
    "apply_casualties",
    "casualty_facts",
    "check_allocation",
    "chosen_allocation",
    "default_allocation",
    "destroy_from",
    "hex_facts",
    "legal_allocations",
    "options",
    "ordered_allocation",
    "parse_allocation",
    "policy_casualties",
    "shielded",
    "slots",
    "survival_chance",
    "target_hex",
]


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
            "fewest CPs; in_order = the units take them in order, unit1 the most "
            "(docs: casualty policy)."
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


@dataclass(frozen=True, eq=False)
class HexCasualties(KnownPhase[Any]):
    """The attack's CPs applied by the casualty policy (14.6), as the last phase: every unit's
    state in words, with the valor suffix. Its exact kernel evaluates the allocation once per
    CP count (the attack's states differ by their valor checks too, which the hex's states do
    not turn on) and adds each state's suffix to the words."""

    inp: VvApAttackHex
    by_cps: dict[int, tuple[tuple[str, Fraction], ...]] = field(default_factory=dict)

    def __call__(self, state: Rolled, chance: Chance) -> str:
        return policy_casualties(self.inp, _cps(state), chance)[0] + state.suffix

    def kernel(self, state: Rolled) -> tuple[tuple[str, Fraction], ...]:
        cps = _cps(state)
        found = self.by_cps.get(cps)
        if found is None:
            found = self.by_cps[cps] = tuple(
                exact(lambda chance: policy_casualties(self.inp, cps, chance)[0]).items()
            )
        return tuple((words + state.suffix, p) for words, p in found)

    def draw(self, state: Rolled, runs: int, rng: np.random.Generator) -> list[tuple[str, int]]:
        found = self.kernel(state)
        counts = rng.multinomial(runs, [float(p) for _, p in found])
        return [(s, int(n)) for (s, _), n in zip(found, counts, strict=True) if n]


def _cps(state: Rolled) -> int:
    return 0 if state.cps == "-" else int(state.cps)


def _hex_phases(inp: VvApAttackHex) -> tuple[Callable[[Any, Chance], Any], ...]:
    """The attack's phases (:func:`~firefight.rulesets.vv.ap.attack_phases`), then its CPs
    applied by the casualty policy (:class:`HexCasualties`)."""
    return (*attack_phases(inp), HexCasualties(inp))


def ap_attack_hex(inp: VvApAttackHex, chance: Chance) -> str:
    """The state of every target unit after the attack and the default allocation (14.6)."""
    target_hex(inp)  # a mistake in the hex is named before any die is read
    state: Any = None
    for phase in _hex_phases(inp):
        state = phase(state, chance)
    return str(state)


def ap_attack_hex_odds(inp: VvApAttackHex) -> Distribution[str]:
    """The exact odds over the phases' states: the CPs applied once per distinct attack
    result, not replayed once per branch of the attack roll and of each valor check."""
    target_hex(inp)
    return Process(Phases(_hex_phases(inp)), name="AP attack on a hex").after(None, 1)


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
    states = resolved_states(hex_units, allocation, chance)
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
    exact_odds=ap_attack_hex_odds,
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


PROCEDURES = (AP_ATTACK_HEX, APPLY_CASUALTIES)
"""The sniper's attack on a hex is in :mod:`~firefight.rulesets.vv.sniper_hex`."""
