"""V&V 17.5-17.6 chained on a hex (``sniper_attack_hex``): the sniper's die, its CPs applied as
in 14.61, then the elimination check only while a targeted unit is left unpinned."""

from __future__ import annotations

from fractions import Fraction

import pytest

import firefight
from firefight.cli import main
from firefight.errors import InputError

VV = firefight.ruleset("vv")
HEX = VV.procedure("sniper_attack_hex")


def odds(**fields: object) -> dict[str, Fraction]:
    return dict(HEX.odds(HEX.parse(fields)))


def test_a_squad_against_a_sniper_worked_by_hand() -> None:
    # cover 1: die 1 no CPs; 2 -> 1 CP pin; 3 -> 2 CPs reduce (4 - 2); 4 -> 3 CPs reduce+pin;
    # 5 and 6 -> 4+ CPs eliminate. The check (die > 2: 4 in 6) only while the squad is unpinned.
    assert odds(target_cover=1, sniper_cover=2, unit1="squad") == {
        "unit1 unhurt; sniper_eliminated": Fraction(1, 9),
        "unit1 unhurt; sniper_survives": Fraction(1, 18),
        "unit1 pinned; no_check": Fraction(1, 6),
        "unit1 reduced; sniper_eliminated": Fraction(1, 9),
        "unit1 reduced; sniper_survives": Fraction(1, 18),
        "unit1 reduced_pinned; no_check": Fraction(1, 6),
        "unit1 eliminated; no_check": Fraction(1, 3),
    }


def test_the_rulebook_example_in_woods(capsys) -> None:
    # 17.5: "attacking units in a woods hex generate a sniper. The sniper player rolls a 5, thus
    # inflicting 3 Casualty Points". A lone squad takes them as reduce+pin: no check is left.
    args = ["resolve", "vv", "sniper_attack_hex", "--target-cover", "2", "--unit1", "squad"]
    assert main([*args, "--roll", "5", "--json"]) == 0
    out = capsys.readouterr().out
    assert '"outcome": "unit1 reduced_pinned; no_check"' in out
    assert "5 - cover 2 = 3 CP" in out


def test_an_already_pinned_hex_makes_no_check_and_a_leader_keeps_it_possible() -> None:
    pinned = odds(target_cover=5, unit1="squad", unit1_pinned=True)
    assert pinned == {
        "unit1 pinned; no_check": Fraction(5, 6),
        "unit1 eliminated; no_check": Fraction(1, 6),
    }
    two = odds(target_cover=5, sniper_cover=1, unit1="squad", unit2="leader")
    # Die 1-5: no CPs; die 6: 1 CP pins one of the two and the other is left unpinned. Either
    # way a check is made: die > 1, 5 in 6.
    eliminated = sum(p for outcome, p in two.items() if outcome.endswith("sniper_eliminated"))
    assert eliminated == Fraction(5, 6)
    assert all(not o.endswith("no_check") for o in two)


def test_units_its_ap_attack_cannot_reach_make_no_check() -> None:
    # 14.1: AP fire has no effect on an AFV, 14.65 nor on its passengers: they were not
    # targeted, so a pinned squad beside an AFV leaves no unit to make the check.
    assert odds(target_cover=0, unit1="squad", unit1_pinned=True, unit2="armoured_vehicle") == {
        "unit1 eliminated, unit2 unhurt; no_check": 1
    }


@pytest.mark.parametrize("name", ["sniper_attack_hex", "ap_attack_hex"])
def test_a_mistake_in_the_hex_is_named_before_the_dice(name) -> None:
    procedure = VV.procedure(name)
    inp = procedure.parse({"unit1": "none", **({"apfp": 5} if name == "ap_attack_hex" else {})})
    with pytest.raises(InputError) as error:
        procedure.replay(inp, ["13"])  # a bad die too: the hex is the first thing wrong
    assert error.value.field == "unit1"
