"""V&V 14.6 applied by the defending player (``apply_casualties``): the player's own allocation
read from text, checked against 14.61-14.65, its survival rolls' exact odds; the casualty
policy when none is given; and the state a reduced-then-pinned squad ends in."""

from __future__ import annotations

from fractions import Fraction

import pytest

import firefight
from firefight.chance import exact
from firefight.cli import main
from firefight.errors import FirefightError, InputError, RuleError
from firefight.rulesets.vv.casualties import (
    Casualty,
    HexUnits,
    apply_allocation,
    chosen_allocation,
    default_allocation,
    target_hex,
)
from firefight.rulesets.vv.units import Unit

VV = firefight.ruleset("vv")
APPLY = VV.procedure("apply_casualties")
HEX = VV.procedure("ap_attack_hex")
TRUCK_AND_SQUAD = {
    "unit1": "squad",
    "unit2": "unarmoured_vehicle",
    "unit2_casualty_rating": 3,
}


def odds(**fields: object) -> dict[str, Fraction]:
    return dict(APPLY.odds(APPLY.parse(fields)))


def test_a_squad_reduced_then_pinned_is_reduced_and_pinned() -> None:
    squad = HexUnits((Unit("squad", 4, half_squad_rating=2),))
    allocation = (Casualty("reduce_pin", 3),)
    states = exact(lambda chance: apply_allocation(squad, 3, allocation, chance))
    assert dict(states) == {("reduced_pinned",): 1}
    assert odds(cps=3, unit1="squad", allocation="unit1 reduce+pin") == {"unit1 reduced_pinned": 1}
    hex_odds = HEX.odds(HEX.parse({"apfp": 24, "unit1": "squad"}))
    assert "unit1 reduced_pinned" in hex_odds  # 3 CPs: reduce (2) and pin (1), 14.61


def test_the_players_allocation_is_read_and_applied() -> None:
    assert odds(cps=3, allocation="unit1 pin, unit2 survival 2", **TRUCK_AND_SQUAD) == {
        "unit1 pinned, unit2 pinned": Fraction(1, 2),  # 1d6 <= 3 (14.64)
        "unit1 pinned, unit2 eliminated": Fraction(1, 2),
    }
    assert odds(cps=5, allocation="unit1 pin, unit2 destroy", **TRUCK_AND_SQUAD) == {
        "unit1 pinned, unit2 eliminated": 1  # 4 CPs left, more than its rating 3
    }
    assert odds(cps=4, allocation="  unit1   eliminate  ", **TRUCK_AND_SQUAD) == {
        "unit1 eliminated, unit2 unhurt": 1
    }
    inp = APPLY.parse({"cps": 3, "allocation": "unit2 survival 3", **TRUCK_AND_SQUAD})
    assert chosen_allocation(inp) == (Casualty(), Casualty("survival", 3))
    assert dict(APPLY.facts(inp))["allocation"] == "unit2 survival 3 (the player's)"


HEXES = [
    TRUCK_AND_SQUAD,
    {"unit1": "squad", "unit1_valorous": True, "unit2": "leader", "unit2_casualty_rating": 1},
    {"unit1": "gun", "unit1_casualty_rating": 3, "unit1_gun_shield": True, "unit2": "half_squad"},
    {**TRUCK_AND_SQUAD, "unit3": "half_squad", "unit3_passenger": True},
    {"unit1": "squad", "unit1_pinned": True, "unit2": "squad"},
]


@pytest.mark.parametrize("units", HEXES)
def test_the_allocation_shown_can_be_typed_back(units) -> None:
    """The facts (and ap_attack_hex's trace) print an allocation as --allocation reads it."""
    for cps in range(1, 10):
        inp = APPLY.parse({"cps": cps, **units})
        shown = dict(APPLY.facts(inp))["allocation"].rsplit(" (", 1)[0]
        if shown == "nothing":
            continue
        again = APPLY.parse({"cps": cps, "allocation": shown, **units})
        assert chosen_allocation(again) == chosen_allocation(inp), (cps, shown)
        assert APPLY.odds(again) == APPLY.odds(inp)


def test_without_an_allocation_the_policy_chooses_as_ap_attack_hex_does() -> None:
    for cps in range(7):
        inp = APPLY.parse({"cps": cps, **TRUCK_AND_SQUAD})
        hex_units, _ = target_hex(inp)
        assert chosen_allocation(inp) == default_allocation(hex_units, cps)
        assert "least_rating_lost" in dict(APPLY.facts(inp))["allocation"]


def test_valor_and_shields_ignore_the_first_cp_when_named() -> None:
    valorous = {"unit1": "squad", "unit1_valorous": True}
    assert odds(cps=1, allocation="unit1 ignore", **valorous) == {"unit1 unhurt": 1}
    assert odds(cps=2, allocation="unit1 ignore+pin", **valorous) == {"unit1 pinned": 1}
    with pytest.raises(RuleError, match=r"14\.61-14\.65"):
        odds(cps=2, allocation="unit1 ignore+pin")  # no valor: no CP to ignore


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"cps": 3, "allocation": "unit1 pin"}, "the CPs must be fulfilled (14.61)"),
        ({"cps": 1, "allocation": "unit1 pin, unit2 pin"}, "stop once the CPs are fulfilled"),
        ({"cps": 3, "allocation": "unit3 pin"}, "'allocation' must be units of the hex"),
        ({"cps": 3, "allocation": "unit1 fly"}, "(got 'unit1 fly')"),
        ({"cps": 3, "allocation": "squad pin"}, "entries 'unitN ACTION'"),
        ({"cps": 3, "allocation": "unit1"}, "entries 'unitN ACTION'"),
        ({"cps": 2, "allocation": "unit1 pin, unit1 pin"}, "each unit named once"),
        ({"cps": 2, "allocation": "unit1 pin 2"}, "'pin' costs 1 CPs (14.61), not 2"),
        ({"cps": 2, "allocation": "unit2 survival"}, "'survival K', K the CPs"),
        ({"cps": 2, "allocation": "unit1 pin ²"}, "(got 'unit1 pin ²')"),
        ({"cps": 2, "allocation": "unit² pin"}, "(got 'unit² pin')"),
        ({"cps": 3, "allocation": "unit2 survival ³"}, "entries 'unitN ACTION'"),
        ({"cps": 5, "allocation": "unit2 destroy 4"}, "takes the 5 CPs left (14.64), not 4"),
        ({"cps": 3, "allocation": "unit1 reduce, unit2 destroy"}, "more CPs than its rating"),
        ({"cps": 2, "allocation": "unit2 reduce"}, "cannot take 'reduce'"),
    ],
)
def test_an_illegal_allocation_is_one_line_naming_why(fields, message) -> None:
    with pytest.raises(FirefightError) as error:
        APPLY.odds(APPLY.parse({**TRUCK_AND_SQUAD, **fields}))
    assert message in str(error.value)
    assert "\n" not in str(error.value)
    if isinstance(error.value, InputError):
        assert error.value.field == "allocation"


def test_the_cli_reads_the_allocation_and_replays_the_survival_die(capsys) -> None:
    args = ["vv", "apply_casualties", "--cps", "3", "--unit1", "squad", "--unit2"]
    args += ["unarmoured_vehicle", "--unit2-casualty-rating", "3"]
    args += ["--allocation", "unit1 pin, unit2 survival 2"]
    assert main(["resolve", *args, "--roll", "4", "--json"]) == 0
    out = capsys.readouterr().out
    assert '"outcome": "unit1 pinned, unit2 eliminated"' in out
    assert main(["odds", *args[:-1], "unit1 fly"]) == 2
    assert capsys.readouterr().err.startswith("error: '--allocation' must be entries")
