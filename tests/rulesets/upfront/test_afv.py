"""Page 4: AFV unboxed and boxed resolution, hand-computed over small decks, exact against
seeded sampling, one-line errors and replay by inventory number."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest
from scipy.stats import chisquare

from firefight.errors import InputError
from firefight.rulesets.registry import register
from firefight.rulesets.upfront import RULESET
from firefight.rulesets.upfront.afv import AFV
from firefight.rulesets.upfront.overrun import OVERRUN
from tests.helpers import assert_replay_reproduces, run_cli
from tests.rulesets.upfront.small_files import deck_file, men_file

F = Fraction


def odds(tmp_path, rns, **fields):
    data = {"deck": deck_file(tmp_path, rns), "men": men_file(tmp_path), "afv": "gun", **fields}
    return dict(AFV.odds(AFV.parse(data)))


def test_boxed_resolution_compares_fr_with_the_armour_k_s_i(tmp_path):
    # FFS 5 + RN: FR 10 > k 9 KIA; 8 = s stunned; 7 = i immobilized; 6 no effect
    got = odds(tmp_path, ["5b", "3b", "2r", "1b"], ffs=5)
    assert got == {
        "AFV KIA": F(1, 4),
        "stunned": F(1, 4),
        "immobilized": F(1, 4),
        "no effect": F(1, 4),
    }


@pytest.mark.parametrize("condition", ["flanked", "bogged", "immobilized", "moving_sideways"])
def test_a_flanked_bogged_immobilized_or_sideways_afv_uses_its_flank_values(tmp_path, condition):
    # FFS 1 + RN 6,5,4,0 = FR 7,6,5,1 against FLANK k 7 s 6 i 5
    got = odds(tmp_path, ["6b", "5b", "4b", "0b"], ffs=1, **{condition: True})
    if condition == "immobilized":  # FR = i on an immobilized AFV: stunned
        assert got == {"stunned": F(1, 2), "no effect": F(1, 2)}
    else:
        assert got == {"stunned": F(1, 4), "immobilized": F(1, 4), "no effect": F(1, 2)}
    front = odds(tmp_path, ["6b", "5b", "4b", "0b"], ffs=1)
    assert front == {"immobilized": F(1, 4), "no effect": F(3, 4)}  # FR 7 = ARMOR i 7


def test_fr_equal_to_s_and_i_of_the_same_value_draws_an_rnc_black_stuns(tmp_path):
    # halftrack ARMOR k 7 s 6 i 6; FFS 1: card 5b gives FR 6 = s = i, then a card from 0b,0r,0r
    base = {"afv": "halftrack", "ffs": 1}
    got = odds(tmp_path, ["5b", "0b", "0r", "0r"], **base)
    assert got == {"stunned": F(1, 12), "immobilized": F(1, 6), "no effect": F(3, 4)}
    flipped = odds(tmp_path, ["5b", "0b", "0r", "0r"], tie="red_stuns", **base)
    assert flipped == {"stunned": F(1, 6), "immobilized": F(1, 12), "no effect": F(3, 4)}


def test_an_afv_already_stunned_and_stunned_again_is_kia(tmp_path):
    got = odds(tmp_path, ["3b"], ffs=5, stunned_now=True)  # FR 8 = s
    assert got == {"AFV KIA (stunned twice)": 1}
    over_6 = odds(tmp_path, ["3b"], ffs=5, stunned_now=True, stunned="fr_over_6")  # FR 8 > 6
    assert over_6 == {"AFV KIA (stunned twice)": 1}
    # flank s 6: FR 6 is not over 6
    assert odds(tmp_path, ["3b"], ffs=3, flanked=True, stunned_now=True, stunned="fr_over_6") == {
        "stunned": 1
    }
    assert odds(tmp_path, ["3b"], ffs=5) == {"stunned": 1}


def test_an_immobilizing_hit_on_a_hull_down_afv_also_stuns_it(tmp_path):
    assert odds(tmp_path, ["2b"], ffs=5, hull_down=True) == {"immobilized, stunned": 1}
    assert odds(tmp_path, ["2b"], ffs=5) == {"immobilized": 1}


def test_unboxed_resolution_reads_ce_then_morale(tmp_path):
    # CE 6, MORALE 5; FFS 2 + RN 5,4,3,0 = FR 7,6,5,2
    got = odds(tmp_path, ["5b", "4b", "3r", "0b"], ffs=2, attack="unboxed")
    assert got == {
        "commander KIA, buttoned up": F(1, 4),
        "buttoned up": F(1, 4),
        "no effect": F(1, 2),
    }
    buttoned = odds(tmp_path, ["5b", "4b", "3r", "0b"], ffs=2, attack="firepower", buttoned_up=True)
    assert buttoned == {"no effect": 1}
    at_least = odds(
        tmp_path, ["5b", "4b", "3r", "0b"], ffs=2, attack="unboxed", comparison="at_least"
    )
    assert at_least == {
        "commander KIA, buttoned up": F(1, 2),
        "buttoned up": F(1, 4),
        "no effect": F(1, 4),
    }


def test_a_mortar_with_a_black_to_hit_rnc_may_make_a_critical_hit(tmp_path):
    # cards 1 (6b) and 2 (6r) are To Hit RNCs; card 3 (0b) is the only resolution card
    rns = ["6b", "6r", "0b", "5b"]
    kw = {"ffs": 0, "attack": "mortar"}
    assert odds(tmp_path, rns, to_hit_card=1, seen="2,4", **kw) == {"immobilized": 1}
    red = odds(tmp_path, rns, to_hit_card=2, seen="1,4", **kw)
    assert red == {"no effect": 1}  # a red To Hit RNC: no critical hit
    unboxed = odds(tmp_path, rns, to_hit_card=1, seen="2,4", attack="unboxed", ffs=0)
    assert unboxed == {"no effect": 1}


def test_black_5_kills_an_open_topped_afv_and_ot_can_be_read_as_not_open_topped(tmp_path):
    rns = ["5b", "0b"]
    kw = {"ffs": 0, "attack": "artillery", "to_hit_card": 1}
    assert odds(tmp_path, rns, afv="halftrack", **kw) == {"AFV KIA (critical hit)": 1}
    assert odds(tmp_path, rns, **kw) == {"no effect": 1}  # not open-topped
    assert odds(tmp_path, rns, ot="not_open_topped", **kw) == {"AFV KIA (critical hit)": 1}


def test_after_a_critical_hit_fr_is_still_read_unless_stop(tmp_path):
    rns = ["6b", "6b"]  # To Hit card 1 Black 6; resolution card 2: FR 0 + 6 = 6 > MORALE 5
    kw = {"ffs": 0, "attack": "mortar", "to_hit_card": 1}
    assert odds(tmp_path, rns, **kw) == {"immobilized, buttoned up": 1}
    assert odds(tmp_path, rns, after_critical="stop", **kw) == {"immobilized": 1}


def test_the_critical_hit_may_read_the_resolution_card_instead(tmp_path):
    # To Hit card 1 is black 0 (critical possible); the resolution card is 2 (6b) or 3 (2r)
    rns = ["0b", "6b", "2r"]
    got = odds(tmp_path, rns, ffs=0, attack="mortar", to_hit_card=1, critical_card="resolution")
    assert got == {"immobilized, buttoned up": F(1, 2), "no effect": F(1, 2)}


def test_exact_afv_odds_agree_with_seeded_resolutions_chi_square():
    inp = AFV.parse({"ffs": 4, "attack": "boxed", "flanked": True})
    exact = AFV.odds(inp)
    assert sum(exact.values()) == 1
    n = 3000
    counts = Counter(AFV.resolve(inp, seed).outcome for seed in range(n))
    assert set(counts) <= set(exact)
    observed = [counts[o] for o in exact]
    expected = [float(p) * n for p in exact.values()]
    assert chisquare(observed, expected).pvalue > 1e-3


def test_a_seeded_afv_resolution_replays_from_its_cards():
    assert_replay_reproduces(AFV, {"ffs": 3, "attack": "mortar", "to_hit_card": 5}, 11)


def test_a_target_that_is_not_an_afv_is_one_line(tmp_path):
    with pytest.raises(
        InputError,
        match=r"^'afv' must be an AFV of men.toml: gun, stug, "
        r"halftrack \(got 'rifle'\)$",
    ):
        AFV.odds(AFV.parse({"men": men_file(tmp_path), "afv": "rifle", "ffs": 3}))


def test_a_mortar_without_its_to_hit_card_is_one_line():
    with pytest.raises(InputError, match=r"^'to_hit_card' must be the To Hit RNC"):
        AFV.odds(AFV.parse({"ffs": 3, "attack": "mortar"}))


def test_the_cli_gives_exact_afv_odds_and_exit_2_for_bad_input(capsys):
    register(RULESET)
    code, out, err = run_cli(capsys, "odds", "upfront", "afv", "--ffs", "5", "--json")
    assert code == 0, err
    assert '"AFV KIA"' in out
    code, _, err = run_cli(capsys, "odds", "upfront", "afv", "--ffs", "5", "--afv", "ger-lmg")
    assert code == 2
    assert len(err.strip().splitlines()) == 1
    assert "'--afv' must be an AFV of men.toml" in err
    code, out, err = run_cli(capsys, "resolve", "upfront", "afv", "--ffs", "5", "--draw", "17")
    assert code == 0, err
    assert "resolution card (ger-pz4): card 17" in out


@pytest.mark.parametrize("field", ["deck", "men"])
def test_a_data_file_path_with_a_nul_byte_is_one_line(field):
    from firefight.errors import FirefightError  # noqa: PLC0415 - only this test

    with pytest.raises(FirefightError, match=r"cannot be read \(not a file name\)$"):
        AFV.odds(AFV.parse({"ffs": 3, field: "a\x00b"}))


def test_afv_kia_vp_is_10_plus_the_afv_cards_number_when_given():
    """Page 4's "AFV KIA 10 + # VP": the illustrative Pz IV gives vp = 4 (afv.vp)."""
    from firefight.rulesets.upfront.afv import AfvInput  # noqa: PLC0415
    from firefight.rulesets.upfront.overrun_attack import UpFrontOverrun  # noqa: PLC0415

    facts = dict(AFV.facts(AfvInput(ffs=6)))
    assert facts["AFV KIA"] == "10 + 4 = 14 VP"
    overrun = dict(OVERRUN.facts(UpFrontOverrun()))
    assert overrun["adverse effects"].endswith("AFV KIA is 10 + 4 = 14 VP")
