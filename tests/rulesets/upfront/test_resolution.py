"""Page 3 (resolution on each man) and page 1 (the Fire Strength build-up): a hand-computed
small case, exact group odds against prefix replay of the rule and against seeded sampling,
replay with the player's cards, and the pool choice."""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction

import pytest
from scipy.stats import chisquare

from firefight.chance import exact, sample_many, scripted
from firefight.cli import main
from firefight.errors import InputError, RuleError
from firefight.rulesets import registry
from firefight.rulesets.upfront import RULESET
from firefight.rulesets.upfront.fire import FIRE, RESOLUTION, UpFrontFire, fire_strength
from firefight.rulesets.upfront.resolution import UpFrontResolution

# Cards 1-10 of the illustrative deck: (RN, RPN column 0, RPN column 7)
# 1: 4 black, 5, 0   2: 3 red, 1, 1   3: 6 red, 7, 6   4: 3 black, 2, 9   5: 6 black, 0, 2
# 6: 1 red, 8, 2     7: 6 black, 8, 0  8: 2 black, 3, 1  9: 5 black, 2, 9  10: 1 red, 0, 9
TEN = "1,2,3,4,5,6,7,8,9,10"


def _one_man(**fields) -> UpFrontResolution:
    base = {"pool": "omniscient", "pile": TEN, "ffs": 3, "rr": 3, "targets": "us-rifle"}
    return UpFrontResolution(**{**base, **fields})


def test_one_man_against_a_ten_card_pool_by_hand():
    # us-rifle: KIA 8, morale 4. FR = 3 + RN: cards 3, 5, 7 (RN 6) give 9 > 8: KIA; card 9
    # (RN 5) gives FR 8 = KIA, RPN(7) 9 is not his morale: on to the test, 8 > 4: pinned;
    # cards 1, 2, 4, 8 give 5 to 7 > 4: pinned; cards 6 and 10 give 4: no effect.
    odds = RESOLUTION.odds(_one_man())
    assert dict(odds) == {
        "KIA": Fraction(3, 10),
        "pinned": Fraction(5, 10),
        "no effect": Fraction(2, 10),
    }


def test_equality_read_as_always_wounded_moves_card_9_to_wounded():
    odds = RESOLUTION.odds(_one_man(equality="wounded"))
    assert odds["wounded"] == Fraction(1, 10)
    assert odds["pinned"] == Fraction(4, 10)


def test_two_men_share_the_pool_without_replacement():
    odds = RESOLUTION.odds(_one_man(targets="us-rifle,brit-rifle"))
    both_killed = [p for outcome, p in odds.items() if outcome.startswith("KIA 2,")]
    assert sum(both_killed) == Fraction(3, 10) * Fraction(2, 9)


@pytest.mark.parametrize(
    "fields",
    [
        {},
        {"smoke": -2},
        {"smoke": -3, "firers": "ger-lmg"},
        {"smoke": -3, "firers": "ger-lmg", "malfunction": "continue"},
        {"pile": "1,2"},
        {"pile": "1,2", "reshuffle": "end_attack"},
        {
            "equality": "wounded",
            "panic": "panic_column",
            "pinned_targets": "ger-rifle-1",
            "wounded_targets": "us-bar",
            "rr": 5,
        },
        {"kia_on": "man", "banzai": True, "pinned_targets": "jap-rifle", "ffs": 6},
    ],
)
def test_group_odds_by_pool_states_equal_prefix_replay_of_the_rule(fields):
    base = {
        "pool": "omniscient",
        "pile": "29,69,17,45,1,2,4,5,6,7,8,9",  # 29, 69: BREEZE; 17, 45: red RN 5
        "ffs": 4,
        "rr": 5,
        "targets": "ger-rifle-1,us-bar,jap-rifle",
    }
    inp = UpFrontResolution(**{**base, **fields})
    fast = RESOLUTION.odds(inp)
    slow = exact(lambda chance: RESOLUTION.rule(inp, chance))
    assert dict(fast) == dict(slow)
    assert sum(fast.values()) == 1


def test_a_ten_man_group_over_the_whole_deck_sums_to_one_and_each_man_too():
    from firefight.rulesets.upfront.fire import resolution_odds  # noqa: PLC0415

    men = "ger-leader,ger-rifle-1,ger-rifle-2,ger-lmg,ger-assistant,us-rifle,us-bar"
    inp = UpFrontResolution(ffs=3, rr=5, targets=men, firers="ger-lmg")
    odds = resolution_odds(inp)
    assert sum(odds.tally.values()) == 1
    assert all(sum(d.values()) == 1 for _, d in odds.men)


def test_exact_group_odds_agree_with_seeded_sampling():
    inp = UpFrontResolution(
        ffs=4, rr=5, targets="ger-rifle-1,us-bar,jap-rifle", smoke=-2, firers="ger-lmg"
    )
    odds = RESOLUTION.odds(inp)
    n = 2000
    counts = Counter(sample_many(lambda chance: RESOLUTION.rule(inp, chance), 5, n))
    assert set(counts) <= set(odds)
    outcomes = [o for o in odds if odds[o] * n >= 5]
    observed = [counts[o] for o in outcomes]
    expected = [float(odds[o]) * n for o in outcomes]
    scale = sum(observed) / sum(expected)
    assert chisquare(observed, [e * scale for e in expected]).pvalue > 0.001


def test_observer_and_omniscient_pools_give_the_odds_of_their_cards():
    observer = RESOLUTION.odds(_one_man(pool="observer", pile="", hand="3,5,7", seen="1,2"))
    # observer: 157 cards; the three RN 6 cards held are not among them
    omniscient = RESOLUTION.odds(_one_man())
    assert observer != omniscient
    deck = _one_man().deck_data()
    unseen = [c for c in deck.cards if c.number not in {1, 2, 3, 5, 7}]
    killed = sum(1 for c in unseen if 3 + c.rn.value > 8)
    assert observer["KIA"] == Fraction(killed, len(unseen))


def test_the_players_cards_replay_by_inventory_number():
    inp = _one_man(targets="us-rifle,brit-rifle")
    resolution = scripted(lambda chance: RESOLUTION.rule(inp, chance), ["3", "6"])
    assert resolution.outcome.startswith("KIA 1, wounded 0, pinned 0")
    shown = [str(e) for e in resolution.trace]
    assert "card for man 1 (us-rifle): card 3: RN 6 red; RPN(0r) 7; RPN(7) 6; no BREEZE" in shown
    assert "man 1 (us-rifle): FR 9 > KIA 8: KIA" in shown


@pytest.fixture
def upfront_registered(monkeypatch):
    monkeypatch.setitem(registry._registered, "upfront", RULESET)


def test_resolve_draw_option_replays_the_cards_and_json_shows_each_card(upfront_registered, capsys):
    args = ["resolve", "upfront", "resolution", "--ffs", "3", "--targets", "us-rifle"]
    assert main([*args, "--draw", "3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["outcome"] == "KIA"
    labels = [event["label"] for event in data["trace"]]
    assert "card for man 1 (us-rifle): card 3" in labels
    assert main([*args, "--draw", "3", "--seed", "1"]) == 2
    assert "exactly one of --seed N or --roll" in capsys.readouterr().err
    assert main([*args, "--draw", "999"]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_fire_odds_through_the_cli_label_the_illustrative_data(upfront_registered, capsys):
    assert main(["odds", "upfront", "fire", "--fire-cards", "67,71", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert sum(Fraction(p) for p in data["distribution"].values()) == 1
    assert main(["modifiers", "upfront", "fire", "--fire-cards", "67,71"]) == 0
    assert "ILLUSTRATIVE" in capsys.readouterr().out


# Page 1: the Fire Strength build-up. Firers at RR 3: ger-rifle-1 2, ger-rifle-2 2,
# ger-lmg 5 ([3] bracketed), ger-assistant 0 (a crewman). FIRE cards 67 (3), 71 (4), 64 (2).
def _fire(**fields) -> UpFrontFire:
    return UpFrontFire(**{"fire_cards": "67", **fields})


def _fp(inp: UpFrontFire) -> dict[str, int]:
    return {man_id: fp for man_id, fp, _ in fire_strength(inp).firers}


def test_group_fp_is_the_sum_and_a_crewman_fires_zero():
    strength = fire_strength(_fire())
    assert _fp(_fire()) == {"ger-rifle-1": 2, "ger-rifle-2": 2, "ger-lmg": 5, "ger-assistant": 0}
    assert strength.fp == 9
    assert strength.base == 3
    assert strength.ffs == 3


@pytest.mark.parametrize(
    ("fields", "man", "fp"),
    [
        ({"flanking": True}, "ger-rifle-1", 4),
        ({"encircled": True}, "ger-rifle-1", 4),
        ({"infiltrators": "ger-rifle-1"}, "ger-rifle-1", 4),
        ({"hero": "ger-rifle-1"}, "ger-rifle-1", 4),
        ({"hero": "ger-lmg"}, "ger-lmg", 6),
        ({"hero": "ger-lmg", "hero_on_mg": "bracketed"}, "ger-lmg", 5),
        ({"mg_fully_crewed": False}, "ger-lmg", 3),
        ({"moving": True}, "ger-lmg", 3),
        ({"stream_or_marsh": True}, "ger-lmg", 3),
        ({"wounded_firers": "ger-lmg"}, "ger-lmg", 2),
        ({"transferring_firers": "ger-rifle-1"}, "ger-rifle-1", 0),
        ({"malfunctioned": "ger-rifle-1"}, "ger-rifle-1", 0),
        ({"pinned_firers": "ger-rifle-1"}, "ger-rifle-1", 0),
        ({"flanking": True, "wounded_firers": "ger-lmg"}, "ger-lmg", 5),
    ],
)
def test_each_page_1_firepower_modifier(fields, man, fp):
    assert _fp(_fire(**fields))[man] == fp


def test_a_moving_bar_is_halved_rounded_down():
    inp = _fire(firers="us-rifle,us-bar", moving=True, fire_cards="64", rr=1)
    assert _fp(inp)["us-bar"] == 1  # 3 x 1/2


@pytest.mark.parametrize(
    ("fields", "ffs"),
    [
        ({"attacker_tem": 1, "defender_tem": -2}, 2),
        ({"concealment": 2}, 1),
        ({"smoke": -1}, 2),
        ({"commander_kia": 2}, 1),
        ({"moving": True}, 1),
        ({"moving": True, "moving_fire": "tem_only"}, 3),
        ({"firers": "brit-rifle", "fire_cards": "64"}, 3),
        ({"firers": "ita-rifle", "fire_cards": "62"}, 0),
    ],
)
def test_the_final_fire_strength_adds_each_page_1_term(fields, ffs):
    assert fire_strength(_fire(**fields)).ffs == ffs


def test_fire_cards_must_total_at_most_the_fp_and_be_fire_cards():
    with pytest.raises(InputError, match=r"'fire_cards' must be FIRE cards totalling at most"):
        fire_strength(_fire(fire_cards="67,71,64,77", rr=0))
    with pytest.raises(InputError, match=r"'fire_cards' must be inventory numbers of FIRE"):
        fire_strength(_fire(fire_cards="1"))


def test_calling_the_attack_off_ends_it():
    assert dict(FIRE.odds(_fire(call_off=True))) == {"called off": 1}


def test_an_afv_target_is_refused_by_page_3_alone():
    with pytest.raises(RuleError, match="AFV: page 4 resolves it"):
        RESOLUTION.odds(_one_man(targets="ger-pz4"))


def test_a_chained_draw_resolves_the_group_from_the_pool_it_left():
    """Page 2 draws a To-Hit card first: resolution continues from the pool left (``start``)."""
    from firefight.chance import Chance  # noqa: PLC0415
    from firefight.rulesets.upfront.group import group_odds  # noqa: PLC0415
    from firefight.rulesets.upfront.pool import pool_for  # noqa: PLC0415
    from firefight.rulesets.upfront.resolution import (  # noqa: PLC0415
        Tally,
        reads_for,
        resolve_group,
        targets,
    )

    inp = _one_man(targets="us-rifle,brit-rifle", pile="1,2,3,4,5,6,7")
    pool = pool_for(inp, reads_for(inp))
    group = targets(inp, inp.men_data())

    def rule(chance: Chance) -> str:
        drawn = pool.draw(chance, pool.start, "to-hit")
        assert drawn is not None
        card, left = drawn
        if card.rn.value < 4:
            return "miss"
        return Tally.of(resolve_group(inp, chance, 3, 3, group, (), start=left)).text()

    expected: dict[str, Fraction] = {}
    for members in pool.start.classes:
        if not members:
            continue
        share = Fraction(len(members), pool.start.size)
        card = inp.deck_data().card(members[0])
        if card.rn.value < 4:
            expected["miss"] = expected.get("miss", Fraction(0)) + share
            continue
        after = pool.start.without(members[0])
        for outcome, p in group_odds(inp, 3, 3, group, (), start=after).tally.items():
            expected[outcome.text()] = expected.get(outcome.text(), Fraction(0)) + share * p
    assert dict(exact(rule)) == expected
