"""Casualty Points (V&V 14.6): legal allocations, the default policy, the survival roll."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import firefight
from firefight.chance import exact
from firefight.chance.phases import Phases
from firefight.chance.process import Process
from firefight.errors import RuleError
from firefight.rulesets.vv.ap import Rolled
from firefight.rulesets.vv.casualties import (
    NONE,
    Casualty,
    HexCasualties,
    _hex_phases,
    apply_allocation,
    check_allocation,
    default_allocation,
    legal_allocations,
    slots,
)
from firefight.rulesets.vv.units import HexUnits, Unit
from tests.helpers import assert_counts_agree_with_odds, assert_samples_agree_with_odds

HEX = firefight.ruleset("vv").procedure("ap_attack_hex")


def squad(**kw: object) -> Unit:
    return Unit("squad", 4, half_squad_rating=2, **kw)  # type: ignore[arg-type]


INFANTRY = st.builds(
    lambda kind, pinned, valorous: (
        squad(pinned=pinned, valorous=valorous)
        if kind == "squad"
        else Unit(kind, 2 if kind == "half_squad" else 1, pinned=pinned, valorous=valorous)
    ),
    st.sampled_from(["squad", "half_squad", "leader"]),
    st.booleans(),
    st.booleans(),
)
UNIT = st.one_of(
    INFANTRY,
    st.builds(
        lambda kind, rating, pinned, shield, riders: Unit(
            kind,
            rating,
            pinned=pinned,
            gun_shield=shield and kind == "gun",
            passengers=tuple(riders) if kind != "gun" else (),
        ),
        st.sampled_from(["unarmoured_vehicle", "armoured_vehicle", "gun"]),
        st.integers(1, 4),
        st.booleans(),
        st.booleans(),
        st.lists(INFANTRY, max_size=1),
    ),
)
HEXES = st.lists(UNIT, min_size=1, max_size=3).map(lambda u: HexUnits(tuple(u)))


def fulfilled(hex_units: HexUnits, allocation: tuple[Casualty, ...]) -> int:
    units = slots(hex_units)
    credit = sum(
        s.unit.casualty_rating
        for s in units
        if s.carrier is not None and allocation[s.carrier].action == "eliminate"
    )
    return sum(c.cost for c in allocation) + credit


@settings(max_examples=60, deadline=None)
@given(HEXES, st.integers(0, 10))
def test_every_listed_allocation_is_legal_and_the_default_is_among_them(hex_units, cps) -> None:
    allowed = legal_allocations(hex_units, cps)
    assert allowed
    units = slots(hex_units)
    for allocation in allowed:
        check_allocation(hex_units, cps, allocation)
        total = fulfilled(hex_units, allocation)
        everything_gone = all(
            c.action in ("eliminate", "destroy")
            or (
                c == NONE
                and (
                    not s.unit.affected_by_ap
                    or (
                        s.carrier is not None
                        and (
                            allocation[s.carrier].action in ("eliminate", "destroy")
                            or units[s.carrier].unit.kind == "armoured_vehicle"
                        )
                    )
                )
            )
            for s, c in zip(units, allocation, strict=True)
        )
        assert total >= cps or everything_gone  # 14.61: fulfil, or every unit is gone
        for slot, casualty in zip(units, allocation, strict=True):
            if slot.unit.pinned:  # 14.62: pinned units can only be eliminated
                assert casualty.action in ("none", "eliminate", "ignore")
            if slot.carrier is not None:  # 14.65: passengers are never pinned
                assert casualty.action not in ("pin", "reduce_pin")
            if not slot.unit.affected_by_ap:  # 14.1
                assert casualty == NONE
    assert default_allocation(hex_units, cps) in allowed


def test_pinned_units_wait_for_the_unpinned() -> None:
    hex_units = HexUnits((squad(), squad(pinned=True)))
    with pytest.raises(RuleError, match=r"14\.62"):
        check_allocation(hex_units, 4, (NONE, Casualty("eliminate", 4)))
    check_allocation(hex_units, 5, (Casualty("pin", 1), Casualty("eliminate", 4)))


def test_the_choice_is_refused_with_one_line() -> None:
    hex_units = HexUnits((squad(), squad()))
    with pytest.raises(RuleError, match="fulfilled") as error:
        check_allocation(hex_units, 3, (Casualty("pin", 1), Casualty("pin", 1)))
    assert "\n" not in str(error.value)
    with pytest.raises(RuleError, match="stop once"):
        check_allocation(hex_units, 1, (Casualty("pin", 1), Casualty("pin", 1)))


def test_a_valorous_unit_ignores_its_first_cp_and_takes_the_rest() -> None:
    hex_units = HexUnits((squad(valorous=True), squad()))
    assert default_allocation(hex_units, 1) == (Casualty("ignore", 0, ignored=True), NONE)
    assert (Casualty("pin", 1, ignored=True), NONE) in legal_allocations(hex_units, 2)
    with pytest.raises(RuleError, match=r"14\.63"):
        check_allocation(hex_units, 2, (Casualty("ignore", 0, ignored=True), Casualty("pin", 1)))


def test_a_gun_shield_counts_only_inside_the_ffa_and_when_still() -> None:
    gun = HexUnits((Unit("gun", 2, gun_shield=True),))
    ignore = (Casualty("ignore", 0, ignored=True),)
    assert ignore in legal_allocations(gun, 1)
    assert ignore not in legal_allocations(gun, 1, attack_in_gun_ffa=False)
    assert ignore not in legal_allocations(gun, 1, gun_moving=True)


def test_the_survival_roll_pins_on_at_most_the_rating() -> None:
    truck = HexUnits((Unit("unarmoured_vehicle", 2, passengers=(squad(),)),))
    allocation = (Casualty("survival", 2), NONE)
    odds = exact(lambda chance: apply_allocation(truck, 2, allocation, chance))
    assert odds[("pinned", "pinned")] == Fraction(2, 6)  # 14.7: passengers pinned too
    assert odds[("eliminated", "eliminated")] == Fraction(4, 6)  # 14.64: same fate


def test_more_cps_than_the_rating_destroy_without_a_roll() -> None:
    gun = HexUnits((Unit("gun", 2),))
    assert legal_allocations(gun, 5) == ((Casualty("destroy", 5),),)
    odds = exact(lambda chance: apply_allocation(gun, 5, (Casualty("destroy", 5),), chance))
    assert dict(odds) == {("eliminated",): 1}


def test_passengers_may_be_collateral_but_not_on_an_afv() -> None:
    truck = HexUnits((Unit("unarmoured_vehicle", 3, passengers=(squad(),)),))
    assert (NONE, Casualty("reduce", 2)) in legal_allocations(truck, 2)
    tank = HexUnits((Unit("armoured_vehicle", 3, passengers=(squad(),)),))
    assert legal_allocations(tank, 2) == ((NONE, NONE),)


def test_excess_cps_are_lost_once_every_unit_is_eliminated() -> None:
    hex_units = HexUnits((squad(), Unit("leader", 1)))
    assert legal_allocations(hex_units, 10) == (
        (Casualty("eliminate", 4), Casualty("eliminate", 1)),
    )


def test_the_hex_procedure_agrees_with_40000_seeded_samples() -> None:
    """40,000 samples (200,000 before): enough that the counts also reject odds one 2d6
    combination off (tests/helpers.py), power above 0.9999 for this case."""
    inp = HEX.parse(
        {
            "apfp": 14,
            "target_terrain": "woods",
            "unit1": "squad",
            "unit1_valorous": True,
            "unit2": "unarmoured_vehicle",
            "unit2_casualty_rating": 3,
            "unit3": "half_squad",
            "unit3_casualty_rating": 2,
            "unit3_passenger": True,
        }
    )
    assert_samples_agree_with_odds(HEX, inp, 40_000, seed=20240607)


def test_the_hex_procedure_names_a_missing_vehicle() -> None:
    with pytest.raises(firefight.errors.FirefightError, match="unit1_passenger"):
        HEX.odds(HEX.parse({"apfp": 4, "unit1_passenger": True}))


def _valor_hex_phases() -> tuple[Any, tuple[Any, ...]]:
    inp = HEX.parse(
        {
            "apfp": 14,
            "firer1": "squad",
            "firer2": "leader",
            "valor": "with_attacker_valor",
            "unit1": "squad",
            "unit2": "unarmoured_vehicle",
            "unit2_casualty_rating": 3,
            "unit3": "half_squad",
            "unit3_casualty_rating": 2,
            "unit3_passenger": True,
        }
    )
    return inp, _hex_phases(inp)


def test_the_casualties_phase_kernel_is_the_phase_evaluated_state_by_state() -> None:
    """The last phase's odds, worked out once per CP count, equal the phase itself evaluated
    exactly from every state the attack reaches (states that differ by their valor checks
    alone share a CP count: the words are the same, the suffix each state's own)."""
    _, phases = _valor_hex_phases()
    casualties = phases[-1]
    assert isinstance(casualties, HexCasualties)
    reached = Process(Phases(phases[:-1]), name="attack").after(None, 1)
    assert len({s.cps for s in reached}) < len(reached)  # some share a CP count
    for state in reached:
        assert casualties.kernel(state) == tuple(
            exact(lambda chance, state=state: casualties(state, chance)).items()
        )


def test_the_casualties_phase_draws_agree_with_its_kernel() -> None:
    """The phase's batch draw (as a sampled process draws it) fits its exact kernel."""
    _, phases = _valor_hex_phases()
    casualties = phases[-1]
    assert isinstance(casualties, HexCasualties)
    state = Rolled("6", True, ("firer1",))  # a survival roll: two outcomes
    n = 40_000
    counts = dict(casualties.draw(state, n, np.random.default_rng(20261204)))
    assert sum(counts.values()) == n
    assert_counts_agree_with_odds(counts, dict(casualties.kernel(state)), n)
