"""The precision test: dice count, hit test, and its odds against brute-force enumeration."""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import firefight
from firefight.errors import InputError, RuleError

PRECISION = firefight.ruleset("tirs").procedure("precision")


def shot(**fields):
    return PRECISION.parse(fields)


# --- an independent twin, written from the seed's text alone -------------------------------

SEED_EXPERIENCE = {"novice": 4, "trained": 5, "veteran": 6}


def twin_dice(data: dict) -> int:
    """Short x2, long /2 (not mortars), moving /2, an element's half /2, floored once;
    opportunity half-move: 1."""
    factor = Fraction(1)
    mortar = data.get("weapon") == "mortar"
    if data.get("range") == "short" and not mortar:
        factor *= 2
    if data.get("range") == "long" and not mortar:
        factor /= 2
    if data.get("firer_moving"):
        factor /= 2
    if data.get("element_share") == "half":
        factor /= 2
    n = math.floor(data["cdt"] * factor)
    return min(n, 1) if data.get("opportunity_half_move") else n


def twin_modifier(data: dict) -> int:
    return (
        # an opportunity fire at a target that moved at most half: a moving target
        (-2 if data.get("target_moving") or data.get("opportunity_half_move") else 0)
        + data.get("protection", 0)
        + (3 if data.get("target_camouflaged") else 0)
        - data.get("leader_aptitude", 0)
        + (2 if data.get("firer_state") == "pinned" else 0)
    )


def brute_force_hits(data: dict) -> dict[str, Fraction]:
    """Every face of every die, counted: 10^n outcomes."""
    n = twin_dice(data)
    limit = SEED_EXPERIENCE[data["experience"]]
    modifier = twin_modifier(data)
    counts = Counter(
        sum(1 for die in faces if die + modifier <= limit)
        for faces in product(range(1, 11), repeat=n)
    )
    return {f"{k} hit{'' if k == 1 else 's'}": Fraction(c, 10**n) for k, c in counts.items()}


small_shots = st.fixed_dictionaries(
    {
        "cdt": st.integers(1, 4),
        "experience": st.sampled_from(["novice", "trained", "veteran"]),
    },
    optional={
        "range": st.sampled_from(["medium", "long"]),
        "weapon": st.sampled_from(["infantry", "light_support", "mortar"]),
        "target_moving": st.booleans(),
        "protection": st.integers(0, 6),
        "target_camouflaged": st.booleans(),
        "firer_state": st.sampled_from(["normal", "pinned"]),
        "opportunity_half_move": st.booleans(),
        "element_share": st.sampled_from(["whole", "half"]),
    },
)


@settings(max_examples=60, deadline=None)
@given(small_shots, st.integers(0, 3))
def test_exact_odds_equal_brute_force_enumeration_of_every_die(data, aptitude):
    if data.get("weapon", "infantry") != "infantry":
        data = {**data, "leader_aptitude": aptitude}
    if twin_dice(data) == 0:
        with pytest.raises(RuleError, match="0 dice"):
            PRECISION.odds(shot(**data))
        return
    assert dict(PRECISION.odds(shot(**data))) == brute_force_hits(data)


def test_short_range_doubles_the_pool_and_short_range_odds_match_enumeration():
    data = {"cdt": 2, "experience": "trained", "range": "short", "target_moving": True}
    assert dict(PRECISION.facts(shot(**data)))["D10 rolled"] == "4"
    assert dict(PRECISION.odds(shot(**data))) == brute_force_hits(data)


def test_fire_on_the_move_at_short_range_halves_the_doubled_rate():
    moving = shot(cdt=3, experience="veteran", range="short", firer_moving=True)
    assert [(m.label, m.display()) for m in PRECISION.modifiers(moving)] == [
        ("short range (Portée courte)", "x2"),
        ("firer moving (Tireur en mouvement)", "x1/2"),
    ]
    assert dict(PRECISION.facts(moving))["D10 rolled"] == "3"
    halved = shot(
        cdt=3,
        experience="veteran",
        range="short",
        firer_moving=True,
        moving_fire_rate="halved_only",
    )
    assert dict(PRECISION.facts(halved))["D10 rolled"] == "1"


def test_long_range_halves_and_rounds_down_but_not_for_mortars():
    assert (
        dict(PRECISION.facts(shot(cdt=5, experience="novice", range="long")))["D10 rolled"] == "2"
    )
    mortar = shot(cdt=5, experience="novice", range="long", weapon="mortar")
    assert dict(PRECISION.facts(mortar))["D10 rolled"] == "5"
    assert PRECISION.modifiers(mortar) == []


def test_every_die_modifier_is_itemized_with_its_rule():
    data = shot(
        cdt=2,
        experience="veteran",
        weapon="light_support",
        target_moving=True,
        protection=2,
        target_camouflaged=True,
        leader_aptitude=1,
        firer_state="pinned",
    )
    assert [(m.label, m.display()) for m in PRECISION.modifiers(data)] == [
        ("target moving (Cible en mouvement)", "-2"),
        ("terrain protection (Cible protégé par le terrain)", "+2"),
        ("target camouflaged (Cible camouflé)", "+3"),
        (
            "leader directing the support weapon (Tir d'une arme de soutien dirigé par un chef)",
            "-1",
        ),
        ("firer pinned (Le tireur est cloué)", "+2"),
    ]
    assert all(m.rule.startswith("Les tirs: Modificateurs") for m in PRECISION.modifiers(data))
    assert dict(PRECISION.facts(data))["a die hits on"] == "2 or less (Vétéran 6, modifier +4)"
    add = data.model_copy(update={"leader_aptitude_applies": "add"})
    assert dict(PRECISION.facts(add))["a die hits on"] == "0 or less (Vétéran 6, modifier +6)"
    assert dict(PRECISION.odds(add)) == {"0 hits": 1}


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"firer_state": "demoralized"}, "demoralized element cannot move or fire"),
        ({"firer_moving": True, "range": "short", "firer_state": "pinned"}, "pinned"),
        ({"firer_moving": True, "range": "short", "weapon": "medium_support"}, "medium_support"),
        ({"firer_moving": True, "range": "short", "weapon": "heavy_support"}, "heavy_support"),
        ({"firer_moving": True, "range": "short", "weapon": "light_support"}, "light_support"),
        ({"firer_moving": True, "range": "medium"}, "short range only"),
        ({"leader_aptitude": 1}, "support weapon"),
        ({"cdt": 1, "range": "long"}, "0 dice"),
    ],
)
def test_fires_the_rules_forbid_are_one_line_errors(fields, message):
    with pytest.raises(RuleError, match=message):
        PRECISION.odds(shot(**{"cdt": 1, "experience": "trained", **fields}))


def test_flamethrowers_and_light_support_by_option_may_fire_on_the_move():
    base = {"cdt": 2, "experience": "trained", "range": "short", "firer_moving": True}
    assert PRECISION.odds(shot(**base, weapon="flamethrower"))
    allowed = shot(**base, weapon="light_support", light_support_moving="allowed")
    assert PRECISION.odds(allowed)


def test_opportunity_fire_on_a_half_move_target_rolls_one_die_at_a_moving_target():
    # One D10; the target is moving (Cible en mouvement -2): a trained die hits on 7 or less.
    data = shot(cdt=4, experience="trained", range="short", opportunity_half_move=True)
    assert dict(PRECISION.odds(data)) == {"0 hits": Fraction(3, 10), "1 hit": Fraction(7, 10)}
    assert [m.label for m in PRECISION.modifiers(data)][-1] == (
        "target moving, fired on as it moves (Cible en mouvement)"
    )
    both = shot(
        cdt=4, experience="trained", range="short", opportunity_half_move=True, target_moving=True
    )
    assert dict(PRECISION.odds(both)) == dict(PRECISION.odds(data))  # never counted twice


def test_the_pool_is_one_event_and_replays_from_each_die():
    data = shot(cdt=3, experience="trained", target_moving=True)
    played = PRECISION.replay(data, [2, 7, 9])
    assert played.outcome == "2 hits"
    (event,) = played.trace
    assert event.kind == "count"
    assert event.dice == (2, 7, 9)
    assert event.label == "precision test (3 D10, hit on die -2 <= 5)"


def test_out_of_range_inputs_name_the_field():
    with pytest.raises(InputError, match="'experience' must be one of novice, trained, veteran"):
        PRECISION.parse({"cdt": 2, "experience": "elite"})
    with pytest.raises(InputError, match="'cdt' must be an integer from 1 to 20"):
        PRECISION.parse({"cdt": 0, "experience": "novice"})


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 10), st.integers(0, 5), st.sampled_from(["novice", "trained", "veteran"]))
def test_more_rate_of_fire_or_less_protection_never_lowers_the_chance_of_a_hit(cdt, cover, exp):
    def any_hit(c: int, p: int) -> Fraction:
        return 1 - PRECISION.odds(shot(cdt=c, experience=exp, protection=p))["0 hits"]

    assert any_hit(cdt + 1, cover) >= any_hit(cdt, cover)
    assert any_hit(cdt, cover) >= any_hit(cdt, cover + 1)


def test_forty_dice_are_one_closed_form_event():
    data = shot(cdt=20, experience="veteran", range="short")
    odds = PRECISION.odds(data)
    assert len(odds) == 41
    assert odds["40 hits"] == Fraction(6, 10) ** 40
