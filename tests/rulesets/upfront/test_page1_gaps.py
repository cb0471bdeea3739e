"""Page 1's gaps closed: the British option to lower FP by one (FACTS.md), FIRE values on
split-action cards, and the Hero on an LMG/MMG read both ways (docs/upfront.md, Readings)."""

from __future__ import annotations

import pytest

from firefight.errors import InputError
from firefight.rulesets.upfront.fire import UpFrontFire, fire_strength


def _fp(**fields) -> dict[str, int]:
    return {man_id: fp for man_id, fp, _ in fire_strength(UpFrontFire(**fields)).firers}


def test_british_lower_fp_takes_one_off_each_firer():
    # brit-rifle at RR 3 fires 3; lowered, 2
    assert _fp(firers="brit-rifle", fire_cards="64", rr=3) == {"brit-rifle": 3}
    assert _fp(firers="brit-rifle", fire_cards="64", rr=3, british_lower_fp=True) == {
        "brit-rifle": 2
    }


def test_british_lower_fp_never_below_one():
    # brit-rifle at RR 0 fires 1: stays 1
    assert _fp(firers="brit-rifle", fire_cards="62", rr=0, british_lower_fp=True) == {
        "brit-rifle": 1
    }


def test_british_lower_fp_narrows_the_fire_cards_allowed():
    fire_strength(UpFrontFire(firers="brit-rifle", fire_cards="67", rr=3))
    with pytest.raises(InputError, match=r"'fire_cards' must be FIRE cards totalling at most"):
        fire_strength(
            UpFrontFire(firers="brit-rifle", fire_cards="67", rr=3, british_lower_fp=True)
        )


def test_british_lower_fp_is_refused_for_other_nationalities():
    with pytest.raises(
        InputError,
        match=r"^'british_lower_fp' must be true only for British firers \(got '?german'?\)$",
    ):
        fire_strength(UpFrontFire(fire_cards="67", british_lower_fp=True))


def test_a_split_action_card_fires_for_the_nationality_whose_half_is_fire():
    # card 156: german = fire, value 2 (the illustrative deck)
    strength = fire_strength(UpFrontFire(fire_cards="156"))
    assert strength.cards == (156,)
    assert strength.base == 2


def test_a_split_action_card_is_refused_for_another_nationality_or_without_a_value():
    with pytest.raises(InputError, match=r"split-action cards FIRE for german\) \(got 157\)"):
        fire_strength(UpFrontFire(fire_cards="157"))  # british = fire
    with pytest.raises(InputError, match=r"split-action cards FIRE for japanese"):
        # card 158: japanese = fire, but no value in the deck file
        fire_strength(UpFrontFire(firers="jap-rifle", fire_cards="158", rr=5))


def test_hero_on_a_machine_gun_is_doubled_bracketed_or_bracketed():
    # ger-lmg at RR 3: firepower 5, bracketed 3: x2 bracketed 6 by default; bracketed 3 is
    # below his own 5, and a Hero never lowers FP
    assert _fp(fire_cards="67", hero="ger-lmg")["ger-lmg"] == 6
    assert _fp(fire_cards="67", hero="ger-lmg", hero_on_mg="doubled_bracketed")["ger-lmg"] == 6
    assert _fp(fire_cards="67", hero="ger-lmg", hero_on_mg="bracketed")["ger-lmg"] == 5


def test_a_non_firing_infiltrator_or_flamethrower_fires_zero():
    """Page 1's 0 FP "Non-firing infiltrator/flamethrower" (the transcription's reading,
    matching page 6's "Non-firing FT/IF")."""
    assert _fp(fire_cards="64", rr=3)["ger-rifle-1"] > 0
    strength = fire_strength(UpFrontFire(fire_cards="64", rr=3, not_firing="ger-rifle-1"))
    row = next(r for r in strength.firers if r[0] == "ger-rifle-1")
    assert row[1:] == (0, "0: non-firing infiltrator/flamethrower")


def test_a_non_firing_man_is_refused_as_a_firing_infiltrator_too():
    with pytest.raises(
        InputError,
        match=r"^'not_firing' must be men not also named firing infiltrators \(got '?ger-lmg'?\)$",
    ):
        fire_strength(UpFrontFire(fire_cards="64", not_firing="ger-lmg", infiltrators="ger-lmg"))


def test_a_non_firing_mans_weapon_is_not_checked_for_malfunction():
    """Page 6: a non-firing FT/IF is no effect; page 3 checks only the weapons firing."""
    from firefight.rulesets.upfront.fire import fire_odds  # noqa: PLC0415

    firing = fire_odds(UpFrontFire(firers="ger-lmg,ger-rifle-1", fire_cards="64", rr=3))
    quiet = fire_odds(
        UpFrontFire(firers="ger-lmg,ger-rifle-1", fire_cards="64", rr=3, not_firing="ger-lmg")
    )
    alone = fire_odds(UpFrontFire(firers="ger-rifle-1", fire_cards="64", rr=3))
    ended = "attack ended"
    assert quiet.outcomes(single=True)[ended] == alone.outcomes(single=True)[ended]
    assert quiet.outcomes(single=True)[ended] < firing.outcomes(single=True)[ended]
