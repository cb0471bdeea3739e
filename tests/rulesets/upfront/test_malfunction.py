"""Page 6: firepower weapon malfunction, box by box, and the selection card's exact odds."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from fractions import Fraction

import pytest
from scipy.stats import chisquare

from firefight.chance import exact, sample_many
from firefight.errors import InputError
from firefight.rulesets.upfront.cards import load_deck
from firefight.rulesets.upfront.malfunction import (
    MALFUNCTION,
    Firer,
    MalfunctionReadings,
    UpFrontMalfunction,
    affected_by_rn,
    outcome_for,
    selection_column,
)
from firefight.rulesets.upfront.men import load_men
from firefight.rulesets.upfront.paths import ILLUSTRATIVE_DECK, ILLUSTRATIVE_MEN

DECK = load_deck(ILLUSTRATIVE_DECK)
MEN = load_men(ILLUSTRATIVE_MEN)
READ = MalfunctionReadings()
LMG = MEN.man("ger-lmg")  # malfunction 5, FP 5 at RR 3
RIFLE = MEN.man("ger-rifle-1")  # malfunction 6, FP 2 at RR 3
UNARMED = replace(RIFLE, id="unarmed", weapon="unarmed", malfunction=None)
ASSISTANT = MEN.man("ger-assistant")


def _out(firers, position, *, rn=6, ffs=10, rr=3, inp=READ):
    return outcome_for(firers, position, rn=rn, ffs=ffs, rr=rr, inp=inp)


def test_only_one_weapon_affected_lmg_and_three_rifles_with_rnc_5_is_the_lmg():
    # the chart's example: Japanese/Italian LMG, R, R, R and RNC 5 drawn: only the LMG
    firers = (Firer(LMG), Firer(RIFLE), Firer(RIFLE), Firer(RIFLE))
    assert affected_by_rn(firers, 5) == (0,)
    inp = UpFrontMalfunction(
        firers="ger-lmg,ger-rifle-1,ger-rifle-2,ger-assistant", rn=5, ffs=10, rr=3
    )
    odds = MALFUNCTION.odds(inp)  # no card drawn: certain
    assert list(odds.values()) == [Fraction(1)]
    (text,) = odds
    assert text.startswith("ger-lmg: malf weapon, -1/2 FP (3) to FFS")
    assert text.endswith("weapon malfunctions; FFS 7")


def test_only_one_armed_man_malfunctions_that_weapon_and_ends_the_attack():
    for group in ((Firer(RIFLE),), (Firer(RIFLE), Firer(UNARMED)), (Firer(LMG),)):
        outcome = _out(group, 0)
        assert outcome.end_attack
        assert "END ATTACK" in outcome.text(group)


def test_all_malfunctioned_weapons_break_on_x6_and_captured_ones_on_x5_6():
    group = (Firer(LMG), Firer(RIFLE))
    assert _out(group, 0, rn=6).weapon == "broken (X6), removed"
    assert _out(group, 0, rn=5).weapon == "malfunctions"
    captured = (Firer(LMG, captured=True), Firer(RIFLE))
    assert _out(captured, 0, rn=5).weapon == "removed (captured, X5-6)"
    repair = MalfunctionReadings(breaks_on="repair")
    assert _out(group, 0, rn=6, inp=repair).weapon == "malfunctions"


def test_a_captured_weapon_breaks_on_5_even_with_a_higher_malfunction_number():
    captured = (Firer(RIFLE, captured=True), Firer(RIFLE))
    assert affected_by_rn(captured, 5) == (0,)


def test_malf_weapon_takes_half_its_fp_rounded_up_off_the_ffs():
    group = (Firer(LMG), Firer(RIFLE))
    assert _out(group, 0, ffs=10).ffs == 7  # LMG FP 5: -3
    assert _out(group, 1, ffs=10).ffs == 9  # rifle FP 2: -1
    assert not _out(group, 1).end_attack


def test_pinned_man_or_malfed_weapon_malf_or_remove_no_effect_on_ffs():
    pinned = (Firer(LMG), Firer(RIFLE, pinned=True))
    outcome = _out(pinned, 1, rn=5)
    assert (outcome.ffs, outcome.weapon) == (10, "malfunctions")
    malfed = (Firer(LMG), Firer(RIFLE, malfed=True))
    assert (_out(malfed, 1).ffs, _out(malfed, 1).weapon) == (10, "removed")


def test_unarmed_ordnance_crew_and_non_firing_men_are_no_effect():
    crewman = replace(RIFLE, crew="crewman")
    gun = MEN.man("ger-pz4")
    for firer in (Firer(UNARMED), Firer(crewman), Firer(gun), Firer(RIFLE, firing=False)):
        outcome = _out((Firer(LMG), Firer(RIFLE), firer), 2)
        assert (outcome.ffs, outcome.weapon) == (10, "unaffected")


def test_assistant_crewman_of_an_lmg_is_no_malf_minus_1():
    outcome = _out((Firer(LMG), Firer(ASSISTANT)), 1)
    assert (outcome.ffs, outcome.weapon) == (9, "unaffected")
    no_mg = _out((Firer(RIFLE), Firer(ASSISTANT)), 1)  # no LMG/MMG: an ordinary rifleman
    assert no_mg.ffs == 9
    assert no_mg.weapon != "unaffected"


def test_a_firing_flamethrower_malfunctions_and_the_attack_goes_on():
    ft = replace(RIFLE, id="ft", weapon="flamethrower", firepower=(8, 8, 8, 8, 8, 8))
    half = _out((Firer(ft), Firer(RIFLE)), 0, ffs=12)
    assert (half.ffs, half.end_attack) == (8, False)
    assert "no defensive TEM" in half.box
    full = _out((Firer(ft), Firer(RIFLE)), 0, ffs=12, inp=MalfunctionReadings(ft_reduction="full"))
    assert full.ffs == 4


def test_the_selection_card_odds_are_the_rpn_column_counts_over_the_pile():
    pile = DECK.cards[:12]
    firers = "ger-lmg,ger-rifle-1,ger-rifle-2"
    inp = UpFrontMalfunction(
        pool="omniscient", pile=",".join(str(c.number) for c in pile), firers=firers, ffs=10, rr=3
    )
    column = selection_column(3)
    odds = MALFUNCTION.odds(inp)
    assert sum(odds.values()) == 1
    for position, man_id in enumerate(firers.split(",")):
        picked = sum(1 for c in pile if c.rpn[column].value % 3 == position)
        got = sum(p for text, p in odds.items() if text.startswith(man_id + ":"))
        assert got == Fraction(picked, 12)
    assert odds == exact(lambda chance: MALFUNCTION.rule(inp, chance))


def test_lowest_malf_selection_draws_no_card():
    inp = UpFrontMalfunction(
        firers="ger-rifle-1,ger-lmg,us-bar", rn=6, ffs=10, rr=3, select="lowest_malf"
    )
    (text,) = MALFUNCTION.odds(inp)
    assert text.startswith("ger-lmg:")


def test_a_replayed_selection_card_names_the_man_in_the_trace():
    card = DECK.cards[0]
    inp = UpFrontMalfunction(firers="ger-lmg,ger-rifle-1,ger-rifle-2", rn=6, ffs=10, rr=3)
    played = MALFUNCTION.replay(inp, [str(card.number)])
    position = card.rpn[selection_column(3)].value % 3
    man_id = ("ger-lmg", "ger-rifle-1", "ger-rifle-2")[position]
    assert played.outcome.startswith(man_id)
    assert any(f"position {position}: {man_id}" in str(e) for e in played.trace)


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"rn": 4, "ffs": 5}, "rn"),  # no weapon's malfunction number reached
        ({"pinned_firers": "us-rifle", "ffs": 5}, "pinned_firers"),
        ({"firers": "nobody", "ffs": 5}, "firers"),
    ],
)
def test_bad_malfunction_inputs_are_refused_in_one_line(data, field):
    inp = MALFUNCTION.parse(data)
    with pytest.raises(InputError, match=field) as error:
        MALFUNCTION.odds(inp)
    assert "\n" not in str(error.value)


def test_malfunction_seeded_resolutions_agree_with_the_exact_odds():
    inp = UpFrontMalfunction(firers="ger-lmg,ger-rifle-1,ger-rifle-2,ger-assistant", ffs=10, rr=3)
    odds = MALFUNCTION.odds(inp)
    samples = 3000
    counts = Counter(sample_many(lambda chance: MALFUNCTION.rule(inp, chance), 17, samples))
    outcomes = list(odds)
    observed = [counts[o] for o in outcomes]
    expected = [float(odds[o]) * samples for o in outcomes]
    assert chisquare(observed, expected).pvalue > 0.001
