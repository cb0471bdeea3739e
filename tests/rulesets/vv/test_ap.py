"""The AP attack (V&V 14.5): rows, modifiers, clamping, colour rows, valor after a natural 2."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

import firefight
from firefight.errors import FirefightError
from firefight.rulesets.vv.ap import VvApAttack, modifiers, row_label

AP = firefight.ruleset("vv").procedure("ap_attack")


def test_the_rulebook_example_gives_two_casualty_points() -> None:
    # 14 example: APFP 12, roll 5, leader -1, building +3 -> 7 on the 11-18 row: 2 CPs.
    inp = AP.parse({"apfp": 12, "leadership_modifier": -1, "target_terrain": "building"})
    assert AP.replay(inp, [2, 3]).outcome == "2"


def test_the_hedge_example_gives_no_effect() -> None:
    # 14 example: APFP 6, roll 8, leader -1, hedge hindrance +1 -> 8 on the 5-10 row: no effect.
    inp = AP.parse({"apfp": 6, "leadership_modifier": -1, "hindrance": 1})
    assert AP.replay(inp, [4, 4]).outcome == "-"


def test_opportunity_fire_in_the_open_adjacent_is_minus_three() -> None:
    inp = VvApAttack(apfp=4, opportunity_fire=True, adjacent=True)
    assert sum(m.value for m in modifiers(inp)) == -3


def test_opportunity_fire_minus_one_needs_no_cover_and_no_hindrance_by_default() -> None:
    hindered = VvApAttack(apfp=4, opportunity_fire=True, hindrance=1)
    assert [m.value for m in modifiers(hindered)] == [1]
    rulebook = hindered.model_copy(update={"opportunity_no_cover": "no_positive_cover"})
    assert sorted(m.value for m in modifiers(rulebook)) == [-1, 1]
    covered = VvApAttack(apfp=4, opportunity_fire=True, adjacent=True, target_terrain="woods")
    assert sorted(m.value for m in modifiers(covered)) == [-2, 2]


def test_a_roll_below_two_reads_the_two_column() -> None:
    inp = AP.parse({"apfp": 1, "leadership_modifier": -3, "opportunity_fire": True})
    assert AP.odds(inp)["5"] == Fraction(15, 36)  # 2d6 of 2..6 minus 4 reads 2: 5 CPs


@pytest.mark.parametrize(
    ("attack", "row"),
    [("fighter_bomber", "19-28"), ("light_barrage", "29-40"), ("heavy_barrage", "41+")],
)
def test_air_and_artillery_use_the_colour_rows(attack: str, row: str) -> None:
    assert row_label(VvApAttack(attack=attack)) == row  # type: ignore[arg-type]


def test_valor_checks_follow_a_natural_two_only() -> None:
    inp = AP.parse({"apfp": 12, "valor": "with_attacker_valor", "firer1": "squad"})
    odds = AP.odds(inp)
    assert odds["7 valor:firer1"] == Fraction(1, 36) * Fraction(6, 36)  # 2d6 <= 4
    assert odds["7 valor:none"] == Fraction(1, 36) * Fraction(30, 36)
    assert "7" not in odds


def test_artillery_takes_no_leader_modifier() -> None:
    with pytest.raises(FirefightError, match="no leader"):
        AP.odds(AP.parse({"attack": "light_barrage", "leadership_modifier": -1}))


@given(st.integers(1, 60), st.integers(0, 6), st.integers(-3, 0))
def test_more_firepower_never_lowers_the_chance_of_some_cps(apfp, hindrance, lm) -> None:
    def hit(value: int) -> Fraction:
        odds = AP.odds(VvApAttack(apfp=value, hindrance=hindrance, leadership_modifier=lm))
        return 1 - odds["-"]

    assert hit(apfp) <= hit(apfp + 1)


def test_a_barrage_doubles_its_casualty_points_on_infantry_in_woods():
    import firefight  # noqa: PLC0415

    proc = firefight.ruleset("vv").procedure("ap_attack")
    open_ground = proc.odds(proc.parse({"attack": "heavy_barrage", "target_terrain": "open"}))
    woods = proc.odds(proc.parse({"attack": "heavy_barrage", "target_terrain": "woods"}))
    vehicles = proc.odds(
        proc.parse({"attack": "heavy_barrage", "target_terrain": "woods", "target_infantry": False})
    )
    fighters = proc.odds(proc.parse({"attack": "fighter_bomber", "target_terrain": "woods"}))
    # Woods are +2 cover: the heavy barrage's 2d6 + 2 reads 8 CPs at 2 ... 1 at 9, doubled.
    assert woods["16"] == vehicles["8"] == open_ground["10"]
    assert "16" not in vehicles
    assert all(int(k) <= 10 for k in fighters if k != "-")
    resolution = proc.replay(
        proc.parse({"attack": "light_barrage", "target_terrain": "jungle"}), ["1+1"]
    )
    assert any(event.label == "21.6 air burst" for event in resolution.trace)
