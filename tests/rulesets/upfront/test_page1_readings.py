"""Page 1's two added readings: a Hero on an uncrewable LMG (the RNC page 1
requires, with no test printed) and FACTS.md's bolt-action halving (page 1 prints no line
for it); docs/upfront.md, Readings."""

from __future__ import annotations

from pathlib import Path

from firefight.rulesets.upfront.fire import UpFrontFire, fire_strength

UNCREWABLE = """
title = "test personalities"
[[man]]
id = "lmg-alone"
nationality = "german"
rank = "private"
weapon = "lmg"
firepower = [3, 4, 4, 5, 5, 6]
bracketed = [2, 2, 3, 3, 4, 4]
morale = 4
panic = 5
rout = 6
malfunction = 5
kia = 8
"""


def _fp(**fields: object) -> dict[str, tuple[int, str]]:
    strength = fire_strength(UpFrontFire(**fields))  # type: ignore[arg-type]
    return {man_id: (fp, why) for man_id, fp, why in strength.firers}


def test_bolt_action_rifles_fire_as_printed_by_default():
    # brit-rifle (bolt_rifle) at RR 3: firepower 3
    assert _fp(firers="brit-rifle", fire_cards="64", rr=3)["brit-rifle"][0] == 3


def test_bolt_action_half_halves_a_bolt_rifle_rounding_down():
    fp, why = _fp(firers="brit-rifle", fire_cards="62", rr=3, bolt_action="half")["brit-rifle"]
    assert (fp, why) == (1, "3 x1/2 bolt-action rifle = 1")


def test_bolt_action_half_leaves_other_rifles_alone():
    assert (
        _fp(firers="ger-rifle-1", fire_cards="62", rr=3, bolt_action="half")["ger-rifle-1"][0]
        == _fp(firers="ger-rifle-1", fire_cards="62", rr=3)["ger-rifle-1"][0]
    )


def _men(tmp_path: Path) -> str:
    path = tmp_path / "men.toml"
    path.write_text(UNCREWABLE, encoding="utf-8")
    return str(path)


def test_a_hero_on_an_uncrewable_lmg_is_taken_as_given_by_default(tmp_path: Path):
    men = _men(tmp_path)
    fp, _ = _fp(men=men, firers="lmg-alone", fire_cards="62", rr=3, hero="lmg-alone")["lmg-alone"]
    assert fp == 6  # x2 his bracketed FP 3 at RR 3 (hero_on_mg = doubled_bracketed)


def test_no_bonus_fires_an_uncrewable_lmgs_hero_without_the_heros_fp(tmp_path: Path):
    men = _men(tmp_path)
    fp, why = _fp(
        men=men,
        firers="lmg-alone",
        fire_cards="62",
        rr=3,
        hero="lmg-alone",
        hero_uncrewable_lmg="no_bonus",
        mg_fully_crewed=True,
    )["lmg-alone"]
    assert fp == 5
    assert "uncrewable LMG: no bonus" in why


def test_no_bonus_leaves_a_hero_on_a_crewed_lmg_alone():
    # ger-lmg is a gunner (crewable): his Hero fires bracketed either way
    given = _fp(fire_cards="67", rr=3, hero="ger-lmg")["ger-lmg"][0]
    assert (
        _fp(fire_cards="67", rr=3, hero="ger-lmg", hero_uncrewable_lmg="no_bonus")["ger-lmg"][0]
        == given
    )
