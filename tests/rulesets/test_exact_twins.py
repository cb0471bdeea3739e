"""Every procedure whose exact odds are worked out over states (``exact_odds``) has the generic
prefix replay of its rule as a brute-force twin: on inputs drawn from its input model, both
give the same outcomes with the same probabilities, Fraction for Fraction, in the same order.

Inputs whose replay would take more than :data:`REPLAY_STEPS` steps are left out (the replay
is what the states replaced: at its largest it takes seconds)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from firefight.chance import WorkBudgetError, work_budget
from firefight.errors import FirefightError
from firefight.rulesets.procedure import Procedure
from tests.rulesets.test_every_procedure import PROCEDURES, inputs

REPLAY_STEPS = 20_000
PROCEDURES_BY_NAME = {f"{r.id}.{p.name}": p for r, p in PROCEDURES}
STATED = [(r, p) for r, p in PROCEDURES if type(p) is Procedure and p.exact_odds is not None]


def test_the_procedures_moved_onto_states_are_covered():
    names = {f"{r.id}.{p.name}" for r, p in STATED}
    assert {"tirs.fire", "vv.ap_attack"} <= names


@pytest.mark.parametrize(
    ("ruleset", "procedure"), STATED, ids=[f"{r.id}.{p.name}" for r, p in STATED]
)
@settings(
    max_examples=30,
    suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow],
    deadline=None,
)
@given(data=st.data())
def test_the_odds_over_states_equal_the_replay(ruleset, procedure, data):
    drawn = data.draw(inputs(procedure))
    try:
        inp = procedure.parse({k: v for k, v in drawn.items() if v is not None})
    except FirefightError:
        assume(False)
    try:
        with work_budget(REPLAY_STEPS):
            replayed = procedure.replayed_odds(inp)
    except WorkBudgetError:
        assume(False)
    except FirefightError as error:
        with pytest.raises(type(error)):
            procedure.odds(inp)
        return
    stated = procedure.odds(inp)
    assert list(stated.items()) == list(replayed.items())


VV_FIRERS = st.sampled_from(["none", "squad", "half_squad", "leader"])


@settings(max_examples=40, deadline=None)
@given(
    apfp=st.integers(1, 30),
    kinds=st.tuples(VV_FIRERS, VV_FIRERS, VV_FIRERS),
    ratings=st.tuples(st.integers(1, 12), st.integers(1, 12), st.integers(1, 12)),
    attack=st.sampled_from(["fire", "mortar"]),
)
def test_vv_valor_checks_by_phases_equal_the_replay(apfp, kinds, ratings, attack):
    """Up to three firers' valor checks after a natural 2 (16.2): the states after each check
    merged against the attack replayed once per branch of every check."""
    procedure = PROCEDURES_BY_NAME["vv.ap_attack"]
    data: dict[str, object] = {"apfp": apfp, "valor": "with_attacker_valor", "attack": attack}
    for n, (kind, rating) in enumerate(zip(kinds, ratings, strict=True), start=1):
        data[f"firer{n}"] = kind
        if kind in ("squad", "half_squad"):
            data[f"firer{n}_casualty_rating"] = rating
    try:
        inp = procedure.parse(data)
        replayed = procedure.replayed_odds(inp)
    except FirefightError:
        assume(False)
    assert list(procedure.odds(inp).items()) == list(replayed.items())


@settings(max_examples=15, deadline=None)
@given(
    cdt=st.integers(1, 20),
    fires=st.integers(1, 3),
    experience=st.sampled_from(["novice", "trained", "veteran"]),
    target=st.sampled_from(["group", "command_post", "support_crew", "gun_crew"]),
    crew_hits=st.sampled_from(["two", "three"]),
)
def test_tirs_fires_down_the_track_equal_the_replay(cdt, fires, experience, target, crew_hits):
    """Several fires walked down the hit track (a Markov chain over its states) against the
    rule replayed once per pool of every fire."""
    procedure = PROCEDURES_BY_NAME["tirs.fire"]
    data = {"cdt": cdt, "fires": fires, "experience": experience, "range": "short"}
    try:
        inp = procedure.parse({**data, "target": target, "crew_hits": crew_hits})
        with work_budget(REPLAY_STEPS):
            replayed = procedure.replayed_odds(inp)
    except (FirefightError, WorkBudgetError):
        assume(False)
    assert list(procedure.odds(inp).items()) == list(replayed.items())


RATINGS = st.sampled_from(["A", "B", "C", "D", "E", "F"])


@settings(max_examples=40, deadline=None)
@given(
    atfp=RATINGS,
    rear=RATINGS,
    cover=st.integers(0, 7),
    leader=st.integers(-3, 0),
    unit=st.sampled_from(["squad", "half_squad", "leader"]),
    rating=st.integers(1, 12),
    flags=st.tuples(st.booleans(), st.booleans(), st.booleans()),
    weapon=st.sampled_from(["at_weapon", "gun"]),
)
def test_vv_final_opportunity_fire_by_phases_equals_the_replay(  # noqa: PLR0917 - drawn
    atfp, rear, cover, leader, unit, rating, flags, weapon
):
    """The AT attack's to-hit, valor check and effect as phases (18.3-18.6, 16.2) against
    the rule replayed once per branch of every roll."""
    procedure = PROCEDURES_BY_NAME["vv.final_opportunity_fire"]
    check_valor, valorous, immobilized = flags
    data = {
        "atfp": atfp,
        "rear_armour": rear,
        "cover": cover,
        "leader_modifier": leader,
        "weapon": weapon,
        "check_valor": check_valor,
        "firer_valorous": valorous,
        "target_immobilized": immobilized,
        "firer_unit": unit,
        "firer_casualty_rating": rating,
    }
    try:
        inp = procedure.parse(data)
        replayed = procedure.replayed_odds(inp)
    except FirefightError:
        assume(False)
    assert list(procedure.odds(inp).items()) == list(replayed.items())


HEX_UNITS = st.sampled_from(["none", "squad", "half_squad", "leader", "gun", "unarmoured_vehicle"])


def hex_units(kinds, ratings, pinned) -> dict[str, object]:
    data: dict[str, object] = {}
    for n, (kind, rating, pin) in enumerate(zip(kinds, ratings, pinned, strict=True), start=1):
        data[f"unit{n}"] = kind
        data[f"unit{n}_casualty_rating"] = rating
        data[f"unit{n}_pinned"] = pin
    return data


@settings(max_examples=30, deadline=None)
@given(
    apfp=st.integers(1, 40),
    firers=st.tuples(VV_FIRERS, VV_FIRERS),
    kinds=st.tuples(HEX_UNITS, HEX_UNITS, HEX_UNITS),
    ratings=st.tuples(st.integers(1, 6), st.integers(1, 6), st.integers(1, 6)),
    pinned=st.tuples(st.booleans(), st.booleans(), st.booleans()),
    policy=st.sampled_from(["least_rating_lost", "in_order"]),
)
def test_vv_ap_attack_on_a_hex_by_phases_equals_the_replay(  # noqa: PLR0917 - drawn
    apfp, firers, kinds, ratings, pinned, policy
):
    """The attack's phases, then its CPs applied once per attack result (14.5, 16.2, 14.6),
    against the whole chain replayed once per branch."""
    procedure = PROCEDURES_BY_NAME["vv.ap_attack_hex"]
    data = {"apfp": apfp, "valor": "with_attacker_valor", "casualty_policy": policy}
    data.update(hex_units(kinds, ratings, pinned))
    for n, kind in enumerate(firers, start=1):
        data[f"firer{n}"] = kind
        data[f"firer{n}_casualty_rating"] = 4
    try:
        inp = procedure.parse(data)
        with work_budget(REPLAY_STEPS):
            replayed = procedure.replayed_odds(inp)
    except (FirefightError, WorkBudgetError):
        assume(False)
    assert list(procedure.odds(inp).items()) == list(replayed.items())


@settings(max_examples=30, deadline=None)
@given(
    covers=st.tuples(st.integers(0, 5), st.integers(1, 6)),
    kinds=st.tuples(HEX_UNITS, HEX_UNITS, HEX_UNITS),
    ratings=st.tuples(st.integers(1, 6), st.integers(1, 6), st.integers(1, 6)),
    pinned=st.tuples(st.booleans(), st.booleans(), st.booleans()),
    survival=st.sampled_from(["cps_applied", "attack_total"]),
)
def test_vv_sniper_attack_on_a_hex_by_phases_equals_the_replay(
    covers, kinds, ratings, pinned, survival
):
    """The sniper's die, its CPs applied, the elimination check (17.5, 14.6, 17.6) as
    phases against the chain replayed once per branch."""
    procedure = PROCEDURES_BY_NAME["vv.sniper_attack_hex"]
    data = {"target_cover": covers[0], "sniper_cover": covers[1], "survival_reading": survival}
    data.update(hex_units(kinds, ratings, pinned))
    try:
        inp = procedure.parse(data)
        replayed = procedure.replayed_odds(inp)
    except FirefightError:
        assume(False)
    assert list(procedure.odds(inp).items()) == list(replayed.items())
