"""Page 8: infiltration, close combat vs infantry and vs AFV, morale checks over the unseen
cards."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest
from scipy.stats import chisquare

from firefight.chance import exact
from firefight.errors import InputError
from firefight.rulesets.upfront.closecombat import CLOSE_COMBAT, ccv
from firefight.rulesets.upfront.closecombat_afv import CLOSE_COMBAT_AFV, cc_afv_band
from firefight.rulesets.upfront.infiltration import (
    INFILTRATION,
    UpFrontInfiltration,
    _infiltration_rule,
    infiltration_count,
)
from firefight.rulesets.upfront.morale import MORALE_CHECK, _morale_rule
from firefight.rulesets.upfront.page8 import passes_morale


def _pile(inp_data: dict, predicate, n: int = 4) -> str:
    deck = INFILTRATION.parse({}).deck_data()
    chosen = [c.number for c in deck.cards if predicate(c)][:n]
    return ",".join(map(str, chosen))


def test_a_morale_check_passes_on_an_rn_at_most_the_morale_by_default():
    assert passes_morale(3, 3, "at_most")
    assert not passes_morale(4, 3, "at_most")
    assert not passes_morale(3, 3, "below")


def test_morale_check_odds_are_the_share_of_low_rns_in_the_pile():
    deck = MORALE_CHECK.parse({}).deck_data()
    pile = [c.number for c in deck.cards][:7]
    low = sum(1 for n in pile if deck.card(n).rn.value <= 3)  # ger-rifle-1: morale 3
    inp = MORALE_CHECK.parse({"pool": "omniscient", "pile": ",".join(map(str, pile))})
    assert MORALE_CHECK.odds(inp)["passed"] == Fraction(low, 7)
    two = MORALE_CHECK.parse({"men_checked": "ger-rifle-1,ger-rifle-2"})
    assert sum(MORALE_CHECK.odds(two).values()) == 1


def test_the_infiltration_count_adds_every_printed_item_and_clamps_to_1_10():
    count, _ = infiltration_count(UpFrontInfiltration(unpinned_defenders=0), False)
    assert count == 1
    big = UpFrontInfiltration(unpinned_defenders=5, night=True, smoke=2, from_terrain="brush")
    assert infiltration_count(big, False)[0] == 10
    some = UpFrontInfiltration(unpinned_defenders=2, from_terrain="woods", pillbox=True)
    assert infiltration_count(some, True)[0] == 5  # 2 + woods 1 + pillbox 1 + Japanese 1
    afv = UpFrontInfiltration(target="afv", afv_status="crew_exposed", commander_kia=2)
    assert infiltration_count(afv, False)[0] == 6
    with pytest.raises(InputError, match="commander_kia"):
        infiltration_count(UpFrontInfiltration(commander_kia=1), False)


def test_infiltration_succeeds_on_a_red_rpn_under_the_counts_column():
    deck = INFILTRATION.parse({}).deck_data()
    pile = [c.number for c in deck.cards][:9]
    red = sum(1 for n in pile if deck.card(n).rpn[3].red)
    inp = INFILTRATION.parse(
        {
            "pool": "omniscient",
            "pile": ",".join(map(str, pile)),
            "unpinned_defenders": 3,
            "morale_check": "none",
        }
    )
    assert INFILTRATION.odds(inp)["infiltrated"] == Fraction(red, 9)


def test_a_count_of_10_reads_column_0r():
    deck = INFILTRATION.parse({}).deck_data()
    pile = [c.number for c in deck.cards][:9]
    red = sum(1 for n in pile if deck.card(n).rpn[0].red)
    inp = INFILTRATION.parse(
        {
            "pool": "omniscient",
            "pile": ",".join(map(str, pile)),
            "unpinned_defenders": 10,
            "morale_check": "none",
        }
    )
    assert INFILTRATION.odds(inp)["infiltrated"] == Fraction(red, 9)


def test_a_hero_retries_a_black_rpn_once():
    deck = INFILTRATION.parse({}).deck_data()
    black = next(c.number for c in deck.cards if not c.rpn[1].red)
    red = next(c.number for c in deck.cards if c.rpn[1].red)
    data = {"pool": "omniscient", "pile": f"{black},{red}", "morale_check": "none"}
    assert dict(INFILTRATION.odds(INFILTRATION.parse({**data, "hero": True}))) == {"infiltrated": 1}
    assert INFILTRATION.odds(INFILTRATION.parse(data))["pinned"] == Fraction(1, 2)
    replay = INFILTRATION.replay(INFILTRATION.parse({**data, "hero": True}), [str(black), str(red)])
    assert replay.outcome == "infiltrated"
    assert any("Hero retries" in str(e) for e in replay.trace)


def test_a_failed_morale_check_pins_the_infiltrator_before_any_rpn():
    deck = INFILTRATION.parse({}).deck_data()
    high = [c.number for c in deck.cards if c.rn.value > 3][:3]  # ger-rifle-1: morale 3
    inp = INFILTRATION.parse({"pool": "omniscient", "pile": ",".join(map(str, high))})
    assert dict(INFILTRATION.odds(inp)) == {"pinned (morale check)": 1}


def test_too_many_infiltrators_is_a_one_line_error():
    with pytest.raises(InputError, match="infiltrators"):
        INFILTRATION.odds(INFILTRATION.parse({"infiltrators": ",".join(["ger-rifle-1"] * 11)}))


def test_ccv_is_morale_plus_the_weapon_with_the_japanese_values_and_penalties():
    men = CLOSE_COMBAT.parse({}).men_data()
    assert ccv(men.man("us-bar"), False, False)[0] == 4 + 2
    assert ccv(men.man("ger-leader"), False, False)[0] == 5 + 3
    assert ccv(men.man("ger-lmg"), True, True)[0] == 4 + 1 - 4 - 1
    assert ccv(men.man("brit-rifle"), False, False)[0] == 4 + 5


def test_close_combat_ties_kill_both_and_a_win_by_3_captures_the_weapon():
    # attacker ger-rifle-1 CCV 8, defender us-rifle CCV 9: replayed cards decide
    inp = CLOSE_COMBAT.parse({})
    deck = inp.deck_data()
    by_rn = {}
    for c in deck.cards:
        by_rn.setdefault(c.rn.value, []).append(str(c.number))
    assert CLOSE_COMBAT.replay(inp, [by_rn[3][0], by_rn[2][0]]).outcome == "both KIA"
    assert CLOSE_COMBAT.replay(inp, [by_rn[6][0], by_rn[2][0]]).outcome == (
        "defender KIA, weapon captured"
    )
    assert CLOSE_COMBAT.replay(inp, [by_rn[5][0], by_rn[3][0]]).outcome == "defender KIA"
    assert CLOSE_COMBAT.replay(inp, [by_rn[0][0], by_rn[0][1]]).outcome == "attacker KIA"
    prisoner = CLOSE_COMBAT.parse({"prisoner": True})
    assert CLOSE_COMBAT.replay(prisoner, [by_rn[6][0], by_rn[0][0]]).outcome == (
        "defender prisoner, weapon captured"
    )


def test_close_combat_exact_odds_match_seeded_sampling():
    inp = CLOSE_COMBAT.parse({"additional_attackers": 1, "defender_concealment": 2})
    odds = CLOSE_COMBAT.odds(inp)
    assert sum(odds.values()) == 1
    n = 2000
    seen = Counter(CLOSE_COMBAT.resolve(inp, seed).outcome for seed in range(n))
    outcomes = list(odds)
    observed = [seen.get(o, 0) for o in outcomes]
    assert sum(observed) == n
    assert chisquare(observed, [float(odds[o]) * n for o in outcomes]).pvalue > 1e-3


def test_cc_vs_afv_bands_restore_the_lost_signs():
    assert cc_afv_band(-2) == "attacker KIA"
    assert cc_afv_band(0) == "attacker KIA"
    assert cc_afv_band(1) == "no effect"
    assert cc_afv_band(5) == "no effect"
    assert cc_afv_band(6) == "AFV immobilized"
    assert cc_afv_band(7) == "AFV KIA"
    assert cc_afv_band(12) == "AFV KIA"


def test_cc_vs_afv_modifiers_are_itemized_and_the_odds_follow_the_rn():
    inp = CLOSE_COMBAT_AFV.parse(
        {"afv": "ger-pz4", "tmm_or_dc": True, "wounded": True, "afv_terrain": "woods"}
    )
    values = {m.label: m.value for m in CLOSE_COMBAT_AFV.modifiers(inp)}
    assert values == {
        "attacker has TMM / DC (removed)": 4,
        "attacker wounded": -2,
        "AFV in woods": 2,
        "AFV buttoned up": 1,
    }
    deck = inp.deck_data()
    count = Counter(c.rn.value for c in deck.cards)
    odds = CLOSE_COMBAT_AFV.odds(inp)  # total = RN + 5
    assert odds["AFV immobilized"] == Fraction(count[1], 162)
    assert odds["AFV KIA"] == Fraction(sum(count[v] for v in range(2, 7)), 162)


def test_cc_vs_afv_refuses_an_infantry_man_as_the_afv():
    with pytest.raises(InputError, match="'afv'"):
        CLOSE_COMBAT_AFV.odds(CLOSE_COMBAT_AFV.parse({"afv": "us-rifle"}))


PILE = ",".join(map(str, range(1, 10)))


@pytest.mark.parametrize(
    ("procedure", "rule", "data"),
    [
        (MORALE_CHECK, _morale_rule, {"men_checked": "ger-rifle-1,ger-rifle-2,ger-leader"}),
        (MORALE_CHECK, _morale_rule, {"men_checked": "ger-rifle-1", "morale_pass": "below"}),
        (
            INFILTRATION,
            _infiltration_rule,
            {"infiltrators": "ger-rifle-1,ger-rifle-2", "hero": True},
        ),
        (
            INFILTRATION,
            _infiltration_rule,
            {"infiltrators": "ger-rifle-1,ger-lmg", "hero": True, "reshuffle": "end_attack"},
        ),
        (
            INFILTRATION,
            _infiltration_rule,
            {"infiltrators": "ger-rifle-1,ger-lmg", "morale_check": "none", "target": "afv"},
        ),
    ],
)
def test_the_state_walk_gives_the_odds_of_replaying_the_rule_itself(procedure, rule, data):
    inp = procedure.parse({**data, "pool": "omniscient", "pile": PILE})
    walked = procedure.odds(inp)
    assert dict(walked) == dict(exact(lambda chance: rule(inp, chance)))
    assert sum(walked.values()) == 1


def test_ten_men_check_morale_exactly():
    ids = ",".join(["ger-rifle-1", "ger-rifle-2", "ger-lmg", "ger-leader", "us-rifle"] * 2)
    odds = MORALE_CHECK.odds(MORALE_CHECK.parse({"men_checked": ids}))
    assert sum(odds.values()) == 1
    assert len(odds) == 11


def test_a_weapon_page_8_does_not_list_asks_for_the_printed_ccv_in_one_line(tmp_path):
    men = tmp_path / "men.toml"
    men.write_text(
        'title = "t"\n[[man]]\nid = "officer"\nnationality = "german"\nrank = "leader"\n'
        'weapon = "pistol"\nfirepower = [0, 0, 0, 1, 1, 2]\nmorale = 5\npanic = 6\nrout = 7\n'
        '[[man]]\nid = "gi"\nnationality = "american"\nrank = "private"\nweapon = "rifle"\n'
        "firepower = [1, 1, 1, 2, 2, 3]\nmorale = 4\npanic = 5\nrout = 6\n",
        encoding="utf-8",
    )
    data = {"men": str(men), "attacker": "officer", "defender": "gi"}
    with pytest.raises(InputError, match="'attacker_ccv' must be the printed CCV of officer"):
        CLOSE_COMBAT.odds(CLOSE_COMBAT.parse(data))
    odds = CLOSE_COMBAT.odds(CLOSE_COMBAT.parse({**data, "attacker_ccv": 7}))
    assert sum(odds.values()) == 1


@pytest.mark.parametrize("reshuffle", ["end_attack", "discards"])
@pytest.mark.parametrize("pile_size", [1, 2, 5])
def test_close_combat_odds_over_classes_equal_the_replay_on_short_piles(reshuffle, pile_size):
    """The walk over the pool's classes (:func:`page8.rn_odds`) against the rule replayed once
    per card, where the pile runs out before both sides draw (no combat, or the discards
    reshuffled), with each procedure of page 8 that draws RNCs alone."""
    deck = CLOSE_COMBAT.parse({}).deck_data()
    pile = ",".join(str(c.number) for c in deck.cards[3 : 3 + pile_size])
    for procedure in (CLOSE_COMBAT, CLOSE_COMBAT_AFV):
        inp = procedure.parse({"pool": "omniscient", "pile": pile, "reshuffle": reshuffle})
        odds = procedure.odds(inp)
        assert list(odds.items()) == list(procedure.replayed_odds(inp).items())
        ends = reshuffle == "end_attack" and pile_size < (2 if procedure is CLOSE_COMBAT else 1)
        assert ("no combat" in odds) == ends
