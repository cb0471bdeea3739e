"""Page 6 wired into page 3 (malfunction = page6): the rule and its exact odds agree, and a
firepower attack goes through page 6 on a malfunction."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from itertools import product

import pytest
from scipy.stats import chisquare

from firefight.chance import exact, sample_many
from firefight.errors import RuleError
from firefight.rulesets.upfront.cards import load_deck
from firefight.rulesets.upfront.fire import FIRE, RESOLUTION, UpFrontFire, fire_odds
from firefight.rulesets.upfront.malfunction import Firer
from firefight.rulesets.upfront.malfunction_walk import page6_group_odds, resolve_group_page6
from firefight.rulesets.upfront.paths import ILLUSTRATIVE_DECK
from firefight.rulesets.upfront.resolution import Readings, Tally, targets

DECK = load_deck(ILLUSTRATIVE_DECK)
HIGH_RED = [c.number for c in DECK.cards if c.rn.red and c.rn.value >= 5]
BREEZE = [c.number for c in DECK.cards if c.breeze]
OTHER = [c.number for c in DECK.cards if c.number not in HIGH_RED and c.number not in BREEZE]
PILE = ",".join(map(str, HIGH_RED[:3] + BREEZE[:1] + OTHER[:2]))


def _by_prefix(inp, ffs, group, firers):
    odds = exact(lambda chance: "|".join(resolve_group_page6(inp, chance, ffs, 2, group, firers)))
    tallies: dict[Tally, object] = {}
    for key, p in odds.items():
        tally = Tally.of(key.split("|"))
        tallies[tally] = tallies.get(tally, 0) + p
    return tallies


@pytest.mark.parametrize(
    ("ffs", "smoke", "reshuffle", "team", "select"),
    list(
        product(
            (0, 3), (0, -2), ("discards", "end_attack"), ("one", "three"), ("rpn", "lowest_malf")
        )
    ),
)
def test_the_page6_walk_equals_the_rules_own_exact_evaluation(ffs, smoke, reshuffle, team, select):
    inp = Readings(
        pool="omniscient",
        pile=PILE,
        targets="ger-rifle-1,ger-rifle-2,us-rifle,jap-rifle",
        smoke=smoke,
        reshuffle=reshuffle,
        malfunction="page6",
        select=select,
    )
    men = inp.men_data()
    group = targets(inp, men)
    if team == "one":  # an LMG and an unarmed man: only one armed man, END ATTACK
        unarmed = replace(men.man("ger-rifle-1"), id="u", weapon="unarmed", malfunction=None)
        firers = (Firer(men.man("ger-lmg")), Firer(unarmed))
    else:
        firers = tuple(Firer(men.man(i)) for i in ("ger-lmg", "ger-assistant", "ger-leader"))
    walked = page6_group_odds(inp, ffs, 2, group, firers)
    assert sum(walked.tally.values()) == 1
    assert dict(walked.tally) == _by_prefix(inp, ffs, group, firers)


def test_a_firepower_attack_goes_through_page_6_on_a_malfunction_card():
    red_6 = next(c for c in DECK.cards if c.rn.red and c.rn.value == 6)
    fire_card = next(c for c in DECK.cards if c.kind == "fire" and c.value <= 4)
    data = {
        "targets": "ger-rifle-1,ger-rifle-2",
        "firers": "us-rifle,us-bar",
        "fire_cards": str(fire_card.number),
    }
    default = FIRE.replay(FIRE.parse(data), [str(red_6.number)])
    assert default.outcome.endswith("attack ended")  # page 3's own reading: END ATTACK
    wired = FIRE.parse({**data, "malfunction": "page6"})
    selection, second = [c for c in DECK.cards if c.number not in (red_6.number, fire_card.number)][
        :2
    ]
    played = FIRE.replay(wired, [str(red_6.number), str(selection.number), str(second.number)])
    shown = [str(e) for e in played.trace]
    assert any(s.startswith("page 6: ") for s in shown)
    assert not played.outcome.endswith("attack ended")  # two armed men: the attack goes on


def test_page6_odds_of_a_fire_attack_differ_from_ending_the_attack_and_sum_to_1():
    fire_card = next(c for c in DECK.cards if c.kind == "fire" and c.value <= 4)
    data = {"targets": "ger-rifle-1,ger-rifle-2", "firers": "us-rifle,us-bar"}
    ended = fire_odds(UpFrontFire(fire_cards=str(fire_card.number), **data))
    wired = fire_odds(UpFrontFire(fire_cards=str(fire_card.number), malfunction="page6", **data))
    assert sum(wired.tally.values()) == 1
    # two armed men: page 6 ends the attack only once a weapon is removed and the other one
    # then malfunctions, page 3's own reading on every malfunction
    assert wired.tally.probability(lambda t: "attack ended" in t.text()) < ended.tally.probability(
        lambda t: "attack ended" in t.text()
    )


def test_the_resolution_procedure_takes_the_page6_reading():
    inp = RESOLUTION.parse(
        {"targets": "ger-rifle-1", "ffs": 3, "firers": "us-rifle,us-bar", "malfunction": "page6"}
    )
    odds = RESOLUTION.odds(inp)
    assert sum(odds.values()) == 1
    assert "attack ended" not in odds


def test_too_many_states_for_the_page6_walk_is_one_line(monkeypatch):
    from firefight.rulesets.upfront import malfunction_walk  # noqa: PLC0415

    monkeypatch.setattr(malfunction_walk, "MAX_PAIRS", 3)
    inp = Readings(targets="ger-rifle-1,ger-rifle-2,us-rifle", malfunction="page6")
    men = inp.men_data()
    firers = tuple(Firer(men.man(i)) for i in ("ger-lmg", "ger-leader"))
    with pytest.raises(RuleError, match="malfunction = page6") as error:
        page6_group_odds(inp, 3, 2, targets(inp, men), firers)
    assert "\n" not in str(error.value)


def test_page6_seeded_resolutions_agree_with_the_exact_odds():
    inp = RESOLUTION.parse(
        {
            "targets": "ger-rifle-1,ger-lmg",
            "ffs": 2,
            "firers": "us-rifle,us-bar",
            "malfunction": "page6",
            "malfunction_check": "any_at_least",
        }
    )
    odds = RESOLUTION.odds(inp)
    samples = 3000
    counts = Counter(sample_many(lambda chance: RESOLUTION.rule(inp, chance), 16, samples))
    assert set(counts) <= set(odds)
    outcomes = list(odds)
    observed = [counts[o] for o in outcomes]
    expected = [float(odds[o]) * samples for o in outcomes]
    assert chisquare(observed, expected).pvalue > 0.001
