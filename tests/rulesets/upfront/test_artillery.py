"""Page 5: artillery (RADIO) and demolition charge attacks, ending in page 3 on each man."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest
from scipy.stats import chisquare

from firefight.chance import exact, sample_many
from firefight.errors import InputError
from firefight.rulesets.upfront.artillery import (
    ARTILLERY,
    DC_MALFUNCTION,
    DEMOLITION,
    MISS,
    RADIO_BREAKS,
    UpFrontArtillery,
    UpFrontDemolition,
    artillery_strength,
    demolition_strength,
    to_hit,
)
from firefight.rulesets.upfront.cards import load_deck
from firefight.rulesets.upfront.men import load_men
from firefight.rulesets.upfront.paths import ILLUSTRATIVE_DECK, ILLUSTRATIVE_MEN
from firefight.rulesets.upfront.resolution import Target, man_result

DECK = load_deck(ILLUSTRATIVE_DECK)
MEN = load_men(ILLUSTRATIVE_MEN)


def _card(predicate, skip=()):
    return next(c for c in DECK.cards if predicate(c) and c.number not in skip)


RED_6 = _card(lambda c: c.rn.red and c.rn.value == 6)
RED_2 = _card(lambda c: c.rn.red and c.rn.value == 2)
BLACK_1 = _card(lambda c: not c.rn.red and c.rn.value == 1)
BLACK_4 = _card(lambda c: not c.rn.red and c.rn.value == 4)
BLACK_6 = _card(lambda c: not c.rn.red and c.rn.value == 6)
PILE = ",".join(str(c.number) for c in (RED_6, RED_2, BLACK_1, BLACK_4))


def _target(man_id: str) -> Target:
    return Target(MEN.man(man_id), False, False, False)


def test_artillery_odds_over_a_small_pile_are_the_hand_computed_ones():
    inp = UpFrontArtillery(pool="omniscient", pile=PILE, targets="ger-rifle-1")
    odds = ARTILLERY.odds(inp)
    assert sum(odds.values()) == 1
    assert odds[RADIO_BREAKS] == Fraction(1, 4)  # red 6: radio malfunction
    assert odds[MISS] == Fraction(1, 4)  # red 2: not Black 0-6
    # Black 1 or Black 4 hits (1/4 each), strength 8; the man's card is one of the other 3
    expected: dict[str, Fraction] = {}
    for hit in (BLACK_1, BLACK_4):
        for card in (c for c in (RED_6, RED_2, BLACK_1, BLACK_4) if c is not hit):
            result = man_result(_target("ger-rifle-1"), 8, 0, card, inp)
            expected[result] = expected.get(result, Fraction(0)) + Fraction(1, 4) * Fraction(1, 3)
    for result, p in expected.items():
        assert odds[result] == p


def test_artillery_odds_equal_the_rules_own_exact_evaluation():
    pile = ",".join(str(c.number) for c in DECK.cards[:9])
    inp = UpFrontArtillery(
        pool="omniscient", pile=pile, targets="ger-rifle-1,ger-lmg", defender_tem=-1
    )
    by_prefix = exact(lambda chance: ARTILLERY.rule(inp, chance))
    assert dict(ARTILLERY.odds(inp)) == dict(by_prefix)


def test_one_mans_artillery_odds_name_his_result_as_the_rule_does():
    # page 3's Tally keeps losses only (no "no effect", one KIA count): one man's outcome comes
    # from the walk's per-man odds, so it names the result the rule itself returns
    pile = ",".join(str(c.number) for c in DECK.cards[:9])
    inp = UpFrontArtillery(pool="omniscient", pile=pile, targets="ger-rifle-1", defender_tem=-6)
    odds = dict(ARTILLERY.odds(inp))
    assert odds == dict(exact(lambda chance: ARTILLERY.rule(inp, chance)))
    assert "no effect" in odds


def test_demolition_odds_equal_the_rules_own_exact_evaluation():
    pile = ",".join(str(c.number) for c in DECK.cards[20:29])
    inp = UpFrontDemolition(
        pool="omniscient",
        pile=pile,
        targets="ger-rifle-1,ger-lmg",
        other_infiltrators="us-bar",
        carrier="us-rifle",
    )
    by_prefix = exact(lambda chance: DEMOLITION.rule(inp, chance))
    assert dict(DEMOLITION.odds(inp)) == dict(by_prefix)


def test_artillery_seeded_resolutions_agree_with_the_exact_odds():
    inp = UpFrontArtillery(targets="ger-rifle-1", defender_tem=-2)
    odds = ARTILLERY.odds(inp)
    samples = 4000
    counts = Counter(sample_many(lambda chance: ARTILLERY.rule(inp, chance), 14, samples))
    assert set(counts) <= set(odds)
    outcomes = list(odds)
    observed = [counts[o] for o in outcomes]
    expected = [float(odds[o]) * samples for o in outcomes]
    assert chisquare(observed, expected).pvalue > 0.001


def test_a_concealment_narrows_the_hit_to_black_its_value_to_6():
    inp = UpFrontArtillery(pool="omniscient", pile=PILE, concealment=2)
    assert to_hit(inp) == (2, 6)
    assert ARTILLERY.odds(inp)[MISS] == Fraction(2, 4)  # red 2 and now Black 1
    assert artillery_strength(inp)[0] == 8  # the strength is untouched
    other = UpFrontArtillery(concealment=2, concealment_reading="strength")
    assert to_hit(other) == (0, 6)
    assert artillery_strength(other)[0] == 6


def test_woods_tem_counts_zero_against_artillery():
    assert artillery_strength(UpFrontArtillery(defender_tem=-2, woods=True))[0] == 8
    assert artillery_strength(UpFrontArtillery(defender_tem=-2))[0] == 6
    printed = UpFrontArtillery(defender_tem=-2, woods=True, woods_tem="printed")
    assert artillery_strength(printed)[0] == 6
    assert artillery_strength(UpFrontArtillery(defender_wire_movement=1))[0] == 9


def test_the_radio_malfunction_number_and_colour_are_readings():
    never = UpFrontArtillery(pool="omniscient", pile=PILE, radio_malfunction=7)
    assert RADIO_BREAKS not in ARTILLERY.odds(never)
    any_colour = UpFrontArtillery(
        pool="omniscient", pile=f"{PILE},{BLACK_6.number}", malfunction_check="any_at_least"
    )
    assert ARTILLERY.odds(any_colour)[RADIO_BREAKS] == Fraction(2, 5)


def test_artillery_replays_the_players_cards_with_a_trace_of_what_was_read():
    inp = UpFrontArtillery(targets="ger-rifle-1")
    missed = ARTILLERY.replay(inp, [str(RED_2.number)])
    assert missed.outcome == MISS
    assert any(f"card {RED_2.number}: RN 2 red" in str(e) for e in missed.trace)
    hit = ARTILLERY.replay(inp, [str(BLACK_4.number), str(BLACK_1.number)])
    assert hit.outcome == man_result(_target("ger-rifle-1"), 8, 0, BLACK_1, inp)
    shown = [str(e) for e in hit.trace]
    assert any("final strength 8" in s for s in shown)
    assert any(f"card {BLACK_1.number}" in s for s in shown)


def test_the_dc_malfunctions_on_a_first_card_6_and_else_resolves_the_first_man_on_it():
    inp = UpFrontDemolition(targets="ger-rifle-1,ger-lmg", carrier="us-rifle")
    assert DEMOLITION.replay(inp, [str(BLACK_6.number)]).outcome == DC_MALFUNCTION
    assert DEMOLITION.replay(inp, [str(RED_6.number)]).outcome == DC_MALFUNCTION
    red_only = UpFrontDemolition(targets="ger-rifle-1", carrier="us-rifle", dc_malfunction="red_6")
    first = DEMOLITION.replay(red_only, [str(BLACK_6.number)]).outcome
    assert first == man_result(_target("ger-rifle-1"), 5, 0, BLACK_6, red_only)
    single = UpFrontDemolition(targets="ger-rifle-1", carrier="us-rifle")
    assert DEMOLITION.replay(single, [str(BLACK_4.number)]).outcome == man_result(
        _target("ger-rifle-1"), 5, 0, BLACK_4, single
    )


def test_dc_odds_over_a_small_pile_are_the_hand_computed_ones():
    inp = UpFrontDemolition(pool="omniscient", pile=PILE, targets="ger-lmg", carrier="us-rifle")
    odds = DEMOLITION.odds(inp)
    assert sum(odds.values()) == 1
    assert odds[DC_MALFUNCTION] == Fraction(1, 4)
    expected: dict[str, Fraction] = {DC_MALFUNCTION: Fraction(1, 4)}
    for card in (RED_2, BLACK_1, BLACK_4):
        result = man_result(_target("ger-lmg"), 5, 0, card, inp)
        expected[result] = expected.get(result, Fraction(0)) + Fraction(1, 4)
    assert dict(odds) == expected


def test_dc_strength_is_5_minus_concealment_plus_wire_movement():
    assert demolition_strength(UpFrontDemolition())[0] == 5
    assert demolition_strength(UpFrontDemolition(concealment=2, defender_wire_movement=1))[0] == 4


def test_the_dc_resolves_on_the_other_infiltrating_attackers_after_the_defenders():
    inp = UpFrontDemolition(targets="ger-rifle-1", carrier="us-rifle", other_infiltrators="us-bar")
    played = DEMOLITION.replay(inp, [str(BLACK_4.number), str(BLACK_1.number)])
    shown = [str(e) for e in played.trace]
    assert any("us-bar" in s for s in shown)
    assert played.outcome.startswith("KIA ")  # a tally: two men resolved


@pytest.mark.parametrize(
    ("procedure", "data", "field"),
    [
        (ARTILLERY, {"smoke": -1}, "smoke"),
        (DEMOLITION, {"carrier": "ger-rifle-1", "targets": "ger-rifle-1"}, "carrier"),
        (DEMOLITION, {"carrier": "nobody"}, "carrier"),
        (DEMOLITION, {"other_infiltrators": "us-rifle", "carrier": "us-rifle"}, "other"),
    ],
)
def test_bad_page5_inputs_are_refused_in_one_line(procedure, data, field):
    inp = procedure.parse(data)
    with pytest.raises(InputError, match=field) as error:
        procedure.odds(inp)
    assert "\n" not in str(error.value)


def test_out_of_range_fields_are_refused_when_parsed():
    with pytest.raises(InputError, match="concealment"):
        ARTILLERY.parse({"concealment": 7})
    with pytest.raises(InputError, match="radio_malfunction"):
        ARTILLERY.parse({"radio_malfunction": 8})


def test_page5_attacks_are_never_checked_for_a_weapon_malfunction():
    assert UpFrontArtillery().attack == "artillery"
    assert UpFrontDemolition().attack == "dc"
    with pytest.raises(InputError, match="attack"):
        ARTILLERY.parse({"attack": "firepower"})
    # a red 6 resolution card after a hit is read for FR only, never as a malfunction
    inp = UpFrontArtillery(targets="ger-rifle-1", malfunction="page6")
    played = ARTILLERY.replay(inp, [str(BLACK_4.number), str(RED_6.number)])
    assert played.outcome == man_result(_target("ger-rifle-1"), 8, 0, RED_6, inp)
    assert not any("malfunction" in str(e) for e in played.trace)


def test_demolition_seeded_resolutions_agree_with_the_exact_odds():
    inp = UpFrontDemolition(targets="ger-lmg", carrier="us-rifle", concealment=1)
    odds = DEMOLITION.odds(inp)
    samples = 4000
    counts = Counter(sample_many(lambda chance: DEMOLITION.rule(inp, chance), 15, samples))
    assert set(counts) <= set(odds)
    outcomes = list(odds)
    observed = [counts[o] for o in outcomes]
    expected = [float(odds[o]) * samples for o in outcomes]
    assert chisquare(observed, expected).pvalue > 0.001
