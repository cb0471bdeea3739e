"""Page 7, Overrun Attacks: requirements, OVR x1/2 and x1/4, the bog check, OVR + RNC over
the unseen cards, page 3 on each man (Hero FFS -1), the adverse effects and the TMM attack."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import chisquare

from firefight.chance import exact
from firefight.errors import InputError
from firefight.rulesets.upfront.cards import Card, Number
from firefight.rulesets.upfront.overrun import OVERRUN, _overrun_rule, overrun_odds
from firefight.rulesets.upfront.overrun_attack import (
    UpFrontOverrun,
    adverse_effect,
    overrun_ovr,
    tmm_result,
)
from firefight.rulesets.upfront.overrun_walk import ahead
from firefight.rulesets.upfront.resolution import man_result, targets


def _card(rn: int, colour: str = "red", column2: str = "black", band: int = 3) -> Card:
    rpn = [Number(0, "black")] * 10
    rpn[0] = Number(band, "black")
    rpn[2] = Number(1, column2)  # type: ignore[arg-type]
    return Card(1, "fire", Number(rn, colour), tuple(rpn))  # type: ignore[arg-type]


def test_ovr_is_halved_for_a_malfunctioned_mg_or_gun_and_quartered_for_a_ft_rounding_down():
    assert overrun_ovr(8, "none") == 8
    assert overrun_ovr(7, "mg") == 3
    assert overrun_ovr(7, "gun") == 3
    assert overrun_ovr(7, "ft") == 1
    assert overrun_ovr(8, "ft") == 2


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"rr": 4}, "'rr' must be 5 .* \\(got 4\\)"),
        ({"afv_state": "bogged"}, "'afv_state' .* \\(got 'bogged'\\)"),
        ({"afv_state": "stunned"}, "'afv_state' .* \\(got 'stunned'\\)"),
        ({"defender_terrain": "marsh"}, "'defender_terrain' .* \\(got 'marsh'\\)"),
        ({"defender_terrain": "pillbox"}, "'defender_terrain' .* \\(got 'pillbox'\\)"),
        ({"functioning": "none"}, "'functioning' must be mg or ft"),
    ],
)
def test_an_overrun_the_page_forbids_is_refused_in_one_line(data, words):
    with pytest.raises(InputError, match=words) as error:
        OVERRUN.odds(OVERRUN.parse(data))
    assert "\n" not in str(error.value)


def test_bad_ids_are_one_line_input_errors():
    with pytest.raises(InputError, match="afv"):
        OVERRUN.odds(OVERRUN.parse({"afv": "us-rifle"}))
    with pytest.raises(InputError, match="targets"):  # past 10 men: test_full_group_caps.py
        OVERRUN.odds(OVERRUN.parse({"targets": "us-rifle,nobody"}))
    with pytest.raises(InputError, match="tmm"):
        OVERRUN.odds(OVERRUN.parse({"tmm": "ger-rifle-1"}))


def test_a_failed_bog_check_in_woods_or_wire_ends_the_attack_before_any_card():
    for data in ({"defender_terrain": "woods"}, {"defender_wire": True}):
        odds = OVERRUN.odds(OVERRUN.parse({**data, "bog_check": "bogged"}))
        assert dict(odds) == {"AFV bogged: attack ends": 1}
    # open ground: no bog check, the result of the check is not read
    odds = OVERRUN.odds(OVERRUN.parse({"bog_check": "bogged"}))
    assert "AFV bogged: attack ends" not in odds


def test_red_6_immobilizes_the_afv_and_a_heroic_man_immobilizes_it_on_red_5_too():
    # page 4's parallel box: "This RNC Black 6? -> AFV Immobilized" (page 7's first box)
    inp = UpFrontOverrun()
    assert adverse_effect(_card(6), False, False, inp) == "AFV immobilized"
    assert adverse_effect(_card(6, "black"), False, False, inp) == ""
    assert adverse_effect(_card(5), True, False, inp) == "AFV immobilized"
    assert adverse_effect(_card(5), False, False, inp) == ""


def test_red_5_kills_an_open_topped_afv_and_red_4_does_for_a_heroic_man():
    # page 4's parallel box: "This RNC Black 5 & OT AFV? -> AFV KIA" (page 7's second box)
    inp = UpFrontOverrun()
    assert adverse_effect(_card(5), False, True, inp) == "AFV KIA"
    assert adverse_effect(_card(4), True, True, inp) == "AFV KIA"
    assert adverse_effect(_card(4), False, True, inp) == ""
    # a heroic man's Red 5 meets the first box ("Red 5 or 6") before the second
    assert adverse_effect(_card(5), True, True, inp) == "AFV immobilized"
    other = UpFrontOverrun(ot_reading="not_open_topped")
    assert adverse_effect(_card(5), False, False, other) == "AFV KIA"
    assert adverse_effect(_card(5), False, True, other) == ""


def test_the_earlier_reading_red_6_kills_is_kept_as_a_named_alternative():
    inp = UpFrontOverrun(adverse_reading="red6_kills")
    assert adverse_effect(_card(6), False, False, inp) == "AFV KIA"
    assert adverse_effect(_card(5), True, False, inp) == "AFV KIA"
    assert adverse_effect(_card(5), False, True, inp) == "AFV immobilized"
    assert adverse_effect(_card(4), True, True, inp) == "AFV immobilized"
    assert adverse_effect(_card(5), False, False, inp) == ""


def test_the_tmm_card_reads_its_column_colour_then_column_0r_bands():
    assert tmm_result(_card(0, column2="black", band=3), 2) == ""
    assert tmm_result(_card(0, column2="red", band=1), 2) == "AFV immobilized"
    assert tmm_result(_card(0, column2="red", band=5), 2) == "AFV immobilized"
    assert tmm_result(_card(0, column2="red", band=6), 2) == "AFV KIA"
    assert tmm_result(_card(0, column2="red", band=0), 2) == "AFV KIA"


def test_exact_odds_on_a_pile_of_three_are_the_hand_enumerated_orders():
    pile = (1, 2, 3)
    inp = OVERRUN.parse({"pool": "omniscient", "pile": "1,2,3", "malfunction": "continue"})
    deck = inp.deck_data()
    man = targets(inp, inp.men_data())[0]
    expected: Counter[str] = Counter()
    for first, second, _ in permutations(pile):
        ffs = 8 + deck.card(first).rn.value
        expected[man_result(man, ffs, 5, deck.card(second), inp)] += 1
    odds = OVERRUN.odds(inp)
    assert sum(odds.values()) == 1
    assert dict(odds) == {k: Fraction(v, 6) for k, v in expected.items()}


def test_a_heroic_defender_is_resolved_at_ffs_minus_1_on_the_players_cards():
    plain = OVERRUN.replay(OVERRUN.parse({}), ["5", "7"])
    hero = OVERRUN.replay(OVERRUN.parse({"heroic": "us-rifle"}), ["5", "7"])
    shown = [str(e) for e in plain.trace]
    assert "FFS: OVR 8 + RN 6 +0 = 14" in shown
    assert any("FFS 14, FR" in s for s in shown)
    assert any("FFS 13, FR" in s for s in [str(e) for e in hero.trace])
    assert shown[1].startswith("fire strength RNC: card 5: RN 6")


def test_the_attack_ends_on_the_adverse_effect_and_later_men_are_unaffected():
    inp = UpFrontOverrun(
        targets="us-rifle,us-bar",
        defender_terrain="brush",
        concealment=9,
        defender_tem=-9,
        malfunction="continue",
    )
    deck = inp.deck_data()
    red6 = next(c.number for c in deck.cards if c.rn.red and c.rn.value == 6)
    low = next(c.number for c in deck.cards if c.rn.value == 0 and not c.rn.red)
    resolution = OVERRUN.replay(inp, [str(low), str(red6)])
    assert resolution.outcome == (
        "KIA 0, wounded 0, pinned 0, routed 0, berserk 0 (VP 0); AFV immobilized: attack ends"
    )
    assert sum(1 for e in resolution.trace if e.kind == "draw") == 2  # man 2 draws no card


def test_seeded_resolutions_follow_the_exact_odds():
    inp = OVERRUN.parse({"defender_tem": -6, "concealment": 3})
    odds = OVERRUN.odds(inp)
    n = 1500
    seen = Counter(OVERRUN.resolve(inp, seed).outcome for seed in range(n))
    outcomes = sorted(odds, key=str)
    assert set(seen) <= set(outcomes)
    observed = [seen.get(o, 0) for o in outcomes]
    expected = [float(odds[o]) * n for o in outcomes]
    assert chisquare(observed, expected).pvalue > 1e-3


@pytest.mark.parametrize(
    "data",
    [
        {"targets": "us-rifle,us-bar", "defender_terrain": "brush", "smoke": -2},
        {
            "targets": "us-rifle,us-bar",
            "defender_terrain": "woods",
            "tmm": "us-bar",
            "heroic": "us-rifle",
        },
        {"targets": "us-rifle,jap-rifle", "tmm": "us-rifle,jap-rifle", "malfunction": "continue"},
        {"targets": "us-rifle,us-bar", "malfunctioned": "gun", "pinned_targets": "us-bar"},
        {
            "targets": "us-rifle,us-bar",
            "reshuffle": "end_attack",
            "unpinned_when": "before",
            "defender_terrain": "buildings",
        },
        {"targets": "us-rifle,us-bar", "ot_reading": "not_open_topped", "defender_terrain": "wall"},
    ],
)
def test_the_state_walk_gives_the_odds_of_replaying_the_rule_itself(data):
    inp = OVERRUN.parse({**data, "pool": "omniscient", "pile": ",".join(map(str, range(1, 13)))})
    walked = overrun_odds(inp)
    replayed = exact(lambda chance: _overrun_rule(inp, chance))
    assert dict(walked) == dict(replayed)
    assert sum(walked.values()) == 1


def test_the_pile_running_out_with_end_attack_leaves_the_later_men_unaffected():
    inp = OVERRUN.parse(
        {
            "targets": "us-rifle,us-bar",
            "pool": "omniscient",
            "pile": "1,2",
            "reshuffle": "end_attack",
            "malfunction": "continue",
        }
    )
    for text in OVERRUN.odds(inp):
        assert text.startswith("KIA") or "pinned" in text or "no effect" in text
    resolution = OVERRUN.replay(inp, ["1", "2"])
    assert any("ran out" in str(e) for e in resolution.trace)


def test_page6_on_an_overrun_ends_the_attack_as_the_only_armed_man_with_exact_odds():
    """Page 3: "Malfunction only on Firepower or Overrun attack"; with malfunction = page6
    the AFV is page 6's only armed man: malfunction that weapon, END ATTACK. The walk's odds
    are the rule's own, equal to end_attack's and not to continue's."""
    pile = ",".join(map(str, range(1, 41)))
    base = {"targets": "us-rifle,us-bar", "pool": "omniscient", "pile": pile}
    page6 = OVERRUN.parse({**base, "malfunction": "page6"})
    walked = overrun_odds(page6)
    assert dict(walked) == dict(exact(lambda chance: _overrun_rule(page6, chance)))
    assert sum(walked.values()) == 1
    ended = overrun_odds(OVERRUN.parse({**base, "malfunction": "end_attack"}))
    going = overrun_odds(OVERRUN.parse({**base, "malfunction": "continue"}))
    assert dict(walked) == dict(ended)
    assert dict(walked) != dict(going)


def test_page6_on_an_overrun_notes_page_6s_box_and_the_weapons_fate():
    afv = OVERRUN.parse({}).men_data().man("ger-pz4")
    from firefight.rulesets.upfront.overrun import page6_outcome  # noqa: PLC0415
    from firefight.rulesets.upfront.overrun_attack import overrun_attack  # noqa: PLC0415

    inp = OVERRUN.parse({"malfunction": "page6"})
    attack = overrun_attack(inp)
    assert attack.afv == afv
    text = page6_outcome(attack, _card(6), 9, inp)
    assert (
        text
        == "only one armed man: malfunction that weapon: the mg broken (X6), removed; END ATTACK"
    )


_MEN = ("us-rifle", "us-bar", "jap-rifle", "brit-rifle", "ita-rifle", "ger-rifle-1")


@st.composite
def _small_overruns(draw: st.DrawFn) -> dict[str, object]:
    """An overrun of 1 to 4 men over a small omniscient pile (a reshuffle or an empty pile
    reached on some paths; the opponent holds every other card but up to 3, so a reshuffle
    brings back a small pile), with TMMs, heroes, smoke, terrain and every reading drawn."""
    men = draw(st.lists(st.sampled_from(_MEN), min_size=1, max_size=4, unique=True))
    cards = draw(st.lists(st.integers(1, 162), min_size=2, max_size=10, unique=True))
    size = draw(st.integers(2, min(len(cards), 8)))
    pile, back = cards[:size], set(cards)
    return {
        "opponent_hand": ",".join(str(n) for n in range(1, 163) if n not in back),
        "targets": ",".join(men),
        "tmm": ",".join(draw(st.lists(st.sampled_from(men), max_size=len(men), unique=True))),
        "heroic": ",".join(draw(st.lists(st.sampled_from(men), max_size=2, unique=True))),
        "pinned_targets": ",".join(draw(st.lists(st.sampled_from(men), max_size=1))),
        "pool": "omniscient",
        "pile": ",".join(map(str, pile)),
        "defender_terrain": draw(st.sampled_from(["open", "woods", "brush", "buildings"])),
        "defender_tem": draw(st.integers(-4, 2)),
        "smoke": draw(st.sampled_from([0, 0, -2])),
        "malfunction": draw(st.sampled_from(["end_attack", "continue", "page6"])),
        "reshuffle": draw(st.sampled_from(["discards", "end_attack"])),
        "unpinned_when": draw(st.sampled_from(["after", "before"])),
        "ot_reading": draw(st.sampled_from(["open_topped", "not_open_topped"])),
        "crew": draw(st.sampled_from(["buttoned_up", "crew_exposed"])),
    }


@settings(derandomize=True, deadline=None, max_examples=30)
@given(_small_overruns())
def test_the_compiled_walk_equals_prefix_replay_with_tmm_cards_and_reshuffles(data):
    inp = OVERRUN.parse(data)
    walked = overrun_odds(inp)
    assert dict(walked) == dict(exact(lambda chance: _overrun_rule(inp, chance)))
    assert sum(walked.values()) == 1


@pytest.mark.parametrize(
    "data",
    [
        {"targets": "us-rifle,us-bar,jap-rifle", "tmm": "jap-rifle", "defender_terrain": "woods"},
        {
            "targets": "us-rifle,us-bar,jap-rifle,brit-rifle",
            "tmm": "brit-rifle",
            "smoke": -2,
            "heroic": "brit-rifle",
            "crew": "crew_exposed",
        },
    ],
)
def test_a_tmm_card_drawn_ahead_gives_the_odds_of_drawing_it_after_its_man(data):
    # one man with a TMM, third or later, and a pile that cannot run out: the walk draws his
    # TMM card first (any card unseen is as likely there), the rule after his own card
    pile = "3,9,14,22,31,40,57,77,101"
    inp = OVERRUN.parse(
        {**data, "pool": "omniscient", "pile": pile, "defender_tem": -6, "concealment": 3}
    )
    assert ahead(tuple(t in data["tmm"] for t in data["targets"].split(","))) != ()
    walked = overrun_odds(inp)
    assert dict(walked) == dict(exact(lambda chance: _overrun_rule(inp, chance)))
    assert any("AFV" in outcome for outcome in walked)  # the TMM card hit on some paths


OT_MEN = """
title = "page 7 order of checks"
[[man]]
id = "ot"
nationality = "german"
rank = "vehicle"
weapon = "gun"
firepower = [1, 1, 1, 1, 1, 1]
morale = 4
panic = 5
rout = 9
malfunction = 5
[man.afv]
armour = { k = 7, s = 6, i = 6 }
flank = { k = 5, s = 4, i = 4 }
ce = 5
ovr = 2
turret = false
open_topped = true
boxed = false

[[man]]
id = "rifle"
nationality = "american"
rank = "private"
weapon = "rifle"
firepower = [1, 1, 2, 2, 3, 3]
morale = 4
panic = 5
rout = 6
kia = 8
"""


def _ot_overrun(tmp_path, rns, **fields):
    from tests.rulesets.upfront.small_files import deck_file  # noqa: PLC0415

    men = tmp_path / "ot.toml"
    men.write_text(OT_MEN, encoding="utf-8")
    data = {"deck": deck_file(tmp_path, rns), "men": str(men), "afv": "ot", "targets": "rifle"}
    return OVERRUN.parse({**data, "defender_terrain": "brush", **fields})


def test_a_red_6_that_malfunctions_the_afv_still_immobilizes_it_after_the_man():
    # The Pz IV's malfunction number is 6: every red 6 malfunctions its weapon (page 3's check,
    # first on the man's card), which ends the attack; page 7 then checks the adverse effects
    # after the man, on the same card: Red 6 immobilizes the AFV. (Before, END ATTACK came
    # first and the Red 6 box could never be reached on an AFV of malfunction number 6.)
    inp = UpFrontOverrun(targets="us-rifle", defender_terrain="brush")
    deck = inp.deck_data()
    red6 = next(c.number for c in deck.cards if c.rn.red and c.rn.value == 6)
    low = next(c.number for c in deck.cards if c.rn.value == 0 and not c.rn.red)
    resolution = OVERRUN.replay(inp, [str(low), str(red6)])
    assert resolution.outcome == "attack ended; AFV immobilized: attack ends"
    shown = [str(e) for e in resolution.trace]
    assert shown.index(next(s for s in shown if s.startswith("malfunction"))) < shown.index(
        next(s for s in shown if s.startswith("adverse effect"))
    )
    skipped = inp.model_copy(update={"adverse_on_malfunction": "skipped"})
    assert OVERRUN.replay(skipped, [str(low), str(red6)]).outcome == "attack ended"
    odds = OVERRUN.odds(inp)
    assert odds["attack ended; AFV immobilized: attack ends"] > 0
    assert "attack ended; AFV immobilized: attack ends" not in OVERRUN.odds(skipped)


def test_a_red_5_that_malfunctions_an_open_topped_afv_still_kills_it(tmp_path):
    # OVR 2 + RN 0 = FFS 2; the man's card Red 5 reaches the AFV's malfunction number 5 (END
    # ATTACK), then page 7's "Red 5 & OT AFV" on the same card: AFV KIA. A pinned man does not
    # fight back.
    inp = _ot_overrun(tmp_path, ["0b", "5r"], pool="omniscient", pile="1,2")
    assert OVERRUN.replay(inp, ["1", "2"]).outcome == "attack ended; AFV KIA"
    assert dict(OVERRUN.odds(inp)) == {
        "attack ended; AFV KIA": Fraction(1, 2),  # 0b then 5r
        "pinned": Fraction(1, 2),  # 5r (FFS 7) then 0b: FR 7 > morale 4, pinned: no fight back
    }
    pinned = _ot_overrun(tmp_path, ["0b", "5r"], pinned_targets="rifle")
    assert OVERRUN.replay(pinned, ["1", "2"]).outcome == "attack ended"


@pytest.mark.parametrize(
    "data",
    [
        {"targets": "us-rifle,us-bar", "defender_terrain": "woods", "heroic": "us-bar"},
        {"targets": "us-rifle,us-bar", "defender_terrain": "brush", "tmm": "us-rifle"},
        {"targets": "us-rifle,us-bar", "smoke": -1, "adverse_reading": "red6_kills"},
        {"targets": "us-rifle,us-bar", "defender_terrain": "wall", "unpinned_when": "before",
         "pinned_targets": "us-bar", "malfunction": "page6"},
        {"targets": "us-rifle", "defender_terrain": "brush", "adverse_on_malfunction": "skipped"},
    ],
)  # fmt: skip
def test_the_walk_reads_the_adverse_effects_after_a_malfunction_as_the_rule_does(data):
    deck = UpFrontOverrun().deck_data()
    red = [c.number for c in deck.cards if c.rn.red and c.rn.value >= 4][:6]
    black = [c.number for c in deck.cards if not c.rn.red][:5]
    pile = ",".join(map(str, red + black))
    inp = OVERRUN.parse({**data, "pool": "omniscient", "pile": pile})
    walked = overrun_odds(inp)
    assert dict(walked) == dict(exact(lambda chance: _overrun_rule(inp, chance)))
    assert sum(walked.values()) == 1
