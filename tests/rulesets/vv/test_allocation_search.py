"""The legal allocations found slot by slot, and their harms weighed in closed form, against
their brute-force twins: every combination of the slots' casualties judged by
``allocation_problem``, and every survival roll played out by ``exact`` (14.61-14.65)."""

from __future__ import annotations

import itertools
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from firefight.chance import exact
from firefight.rulesets.vv import allocation_outcome as outcome
from firefight.rulesets.vv.allocation import (
    NONE,
    Casualty,
    SurvivalReading,
    allocation_problem,
    fit_destroy,
    options,
    shielded,
    slots,
)
from firefight.rulesets.vv.allocation_search import legal_allocations
from firefight.rulesets.vv.units import HexUnits, Unit
from tests.strategies import vv_hexes

READINGS = st.fixed_dictionaries(
    {
        "attack_in_gun_ffa": st.booleans(),
        "gun_moving": st.booleans(),
        "survival": st.sampled_from(["cps_applied", "attack_total"]),
    }
)


def every_legal_allocation(
    hex_units: HexUnits,
    cps: int,
    *,
    attack_in_gun_ffa: bool = True,
    gun_moving: bool = False,
    survival: SurvivalReading = "cps_applied",
) -> tuple[tuple[Casualty, ...], ...]:
    """Every combination of the slots' casualties, in product order, that the rules allow."""
    units = slots(hex_units)
    per_slot = [
        options(s, shielded(s, attack_in_gun_ffa, gun_moving), cps, survival) if cps > 0 else [NONE]
        for s in units
    ]
    found: list[tuple[Casualty, ...]] = []
    for combo in itertools.product(*per_slot):
        allocation = fit_destroy(combo, cps)
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


def played_harms(
    hex_units: HexUnits, allocation: tuple[Casualty, ...]
) -> tuple[tuple[Fraction, Fraction, Fraction], ...]:
    """Each slot's expected rating lost, new pins and CPs, every survival roll played out."""
    units = slots(hex_units)
    states = exact(lambda chance: outcome._states(units, allocation, chance))
    lost = [Fraction(0)] * len(units)
    pins = [Fraction(0)] * len(units)
    for found, probability in states.items():
        for index, (slot, state) in enumerate(zip(units, found, strict=True)):
            if state == "eliminated":
                lost[index] += probability * slot.unit.casualty_rating
            elif state in ("reduced", "reduced_pinned"):
                lost[index] += probability * slot.unit.reduction_cost
            if state in ("pinned", "reduced_pinned") and not slot.unit.pinned:
                pins[index] += probability
    return tuple((lost[i], pins[i], Fraction(c.cost)) for i, c in enumerate(allocation))


def as_fractions(harms: tuple[outcome.Harm, ...]) -> tuple[tuple[Fraction, ...], ...]:
    scale = outcome.HARM_SCALE
    return tuple((Fraction(h[0], scale), Fraction(h[1], scale), Fraction(h[2])) for h in harms)


@settings(max_examples=300, deadline=None)
@given(vv_hexes(), st.integers(0, 14), READINGS)
def test_the_walk_finds_the_legal_allocations_of_every_combination(
    hex_units: HexUnits, cps: int, readings: dict[str, object]
) -> None:
    found = legal_allocations.__wrapped__(hex_units, cps, **readings)  # type: ignore[attr-defined]
    assert found == every_legal_allocation(hex_units, cps, **readings)  # type: ignore[arg-type]


@settings(max_examples=200, deadline=None)
@given(vv_hexes(), st.integers(1, 12), READINGS, st.randoms(use_true_random=False))
def test_the_harms_in_closed_form_equal_the_rolls_played_out(
    hex_units: HexUnits, cps: int, readings: dict[str, object], rng: object
) -> None:
    allowed = every_legal_allocation(hex_units, cps, **readings)  # type: ignore[arg-type]
    for allocation in rng.sample(allowed, min(len(allowed), 8)):  # type: ignore[attr-defined]
        closed = as_fractions(outcome._harms(hex_units, allocation))
        assert closed == played_harms(hex_units, allocation)


@settings(max_examples=200, deadline=None)
@given(vv_hexes(max_slots=3), st.integers(1, 12), READINGS, st.permutations(range(3)))
def test_the_policies_choose_as_over_every_combination(
    hex_units: HexUnits, cps: int, readings: dict[str, object], order: list[int]
) -> None:
    allowed = every_legal_allocation(hex_units, cps, **readings)  # type: ignore[arg-type]
    least = min(
        allowed, key=lambda a: tuple(map(sum, zip(*played_harms(hex_units, a), strict=True)))
    )
    assert outcome.default_allocation.__wrapped__(hex_units, cps, **readings) == least  # type: ignore[attr-defined]
    count = len(slots(hex_units))
    named = tuple(i for i in order if i < count)
    full = (*named, *(i for i in range(count) if i not in named))
    spared = min(allowed, key=lambda a: [played_harms(hex_units, a)[i] for i in reversed(full)])
    ordered = outcome.ordered_allocation.__wrapped__(hex_units, cps, named, **readings)  # type: ignore[attr-defined]
    assert ordered == spared


def test_a_hex_of_two_valorous_squads_and_a_pinned_truck_keeps_its_allocations() -> None:
    squads = tuple(Unit("squad", r, half_squad_rating=2, valorous=True) for r in (4, 3))
    hex_units = HexUnits((*squads, Unit("unarmoured_vehicle", 3, pinned=True)))
    for cps in range(13):
        assert legal_allocations(hex_units, cps) == every_legal_allocation(hex_units, cps)
