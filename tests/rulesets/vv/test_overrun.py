"""V&V 19 Armor Overruns: requirements (19.1), route and cost (19.3), the attack (19.4), where
opportunity fire may meet the AFV and Final Opportunity Fire at its rear armour (19.2), with the
rulebook's Armor Overrun Example."""

from __future__ import annotations

from fractions import Fraction

import pytest

import firefight
from firefight.board.board import Board
from firefight.board.hexes import Hex, from_offset
from firefight.chance import exact, scripted
from firefight.errors import FirefightError, RuleError
from firefight.rulesets.vv.at import VvAtAttack, at_attack
from firefight.rulesets.vv.overrun import (
    FirePoint,
    OverrunTarget,
    VvFinalOpportunityFire,
    VvOverrunAttack,
    exit_hex,
    may_fire_final,
    overrun_attack,
    plan_overrun,
    resolve_overrun,
)
from firefight.rulesets.vv.units import HexUnits, Unit

VV = firefight.ruleset("vv")
OVERRUN = VV.procedure("overrun_attack")
FINAL = VV.procedure("final_opportunity_fire")
AT = VV.procedure("at_attack")
COSTS = {"open": 1, "road": 1, "woods": 2, "stream": 3, "building": None, "pond": None}


def d(row: int) -> Hex:
    """Hex D<row> of the example (column D = 4)."""
    return from_offset(4, row)


def example_board() -> Board:
    return Board("example", "vv", 6, 6, terrain={d(2): "woods"}, default_terrain="open")


def cost_on(board: Board):
    def entry_cost(_a: Hex, b: Hex) -> int | None:
        return COSTS[board.terrain_of(b)]

    return entry_cost


SQUADS = OverrunTarget(("squad", "squad", "leader"))


def test_armor_overrun_example_route_costs_seven_and_exits_into_d1() -> None:
    """Chapter 19 example: D4 (1) + D3 (1) + D2 woods (2) + overrun (2) + D1 (1) = 7 of the
    M4A3E8's 10 MPs; the exit hex is D1, directly opposite D3."""
    board = example_board()
    plan = plan_overrun(
        board, [d(5), d(4), d(3), d(2)], SQUADS, entry_cost=cost_on(board), movement_points=10
    )
    assert plan.exit == d(1) == exit_hex(d(3), d(2))
    assert plan.movement_points == 7
    assert plan.fire_points == (
        FirePoint(d(4), "enters"),
        FirePoint(d(3), "enters"),
        FirePoint(d(1), "exits"),
    )  # 19.2: not as it enters the target hex D2
    assert plan.to_json(board)["exit"] == board.label(d(1))


def test_armor_overrun_example_panzerfaust_hits_and_fails_to_eliminate() -> None:
    """Example: Panzerfaust at D3, needs 8 or less, rolls 7 -1 (Schmidt) = 6, a hit; AT D vs
    front armour E: Elimination Number 5; rolls 11: no effect."""
    shot = VvAtAttack(weapon="at_weapon", atfp="D", front_armour="E", leader_modifier=-1)
    result = scripted(lambda c: at_attack(shot, c), [3, 4, 5, 6])
    assert result.outcome == "no_effect"
    assert dict(AT.facts(shot))["front armor EN"] == "5"


def test_armor_overrun_example_attack_38_apfp_roll_2_plus_3_gives_6_cps() -> None:
    """Example: APFP 19 doubled to 38 (29-40 row); 2 + 2 woods + 1 foxholes = 5: 6 CPs."""
    inp = VvOverrunAttack(afv_apfp=19, target_terrain="woods", fortification="foxhole")
    facts = dict(OVERRUN.facts(inp))
    assert facts["AP Combat Table row"] == "29-40"
    assert facts["overrun APFP (19.4)"] == "2 x 19 + 0 = 38"
    assert scripted(lambda c: overrun_attack(inp, c), [1, 1]).outcome == "6"
    assert [(m.rule, int(m.value)) for m in OVERRUN.modifiers(inp)] == [
        ("19.4, 13.4", 2),
        ("19.4, 20", 1),
    ]
    assert OVERRUN.odds(inp)["6"] == Fraction(1, 36)


def test_passengers_apfp_is_added_not_doubled() -> None:
    """19.4: 'Passenger APFP ratings are not doubled'."""
    inp = VvOverrunAttack(afv_apfp=5, passenger_apfp=5)
    assert dict(OVERRUN.facts(inp))["overrun APFP (19.4)"] == "2 x 5 + 5 = 15"
    assert dict(OVERRUN.facts(inp))["AP Combat Table row"] == "11-18"


def test_overrun_rolls_call_no_valor_or_sniper() -> None:
    """16.1, 17.2: valor and snipers follow infantry rolls; the overrun is the AFV's."""
    result = scripted(lambda c: overrun_attack(VvOverrunAttack(afv_apfp=4), c), [6, 6])
    assert not any(e.label.startswith(("16.2", "17.2")) for e in result.trace)


@pytest.mark.parametrize(
    ("kwargs", "target", "message"),
    [
        ({"afv_kind": "unarmoured_vehicle"}, SQUADS, "only AFVs"),
        ({"towing_gun": True}, SQUADS, "towing"),
        ({}, OverrunTarget(("armoured_vehicle", "squad")), "enemy AFV"),
        ({}, OverrunTarget(("squad",), bunker=True), "bunker"),
        ({}, OverrunTarget(("armoured_vehicle",)), "enemy AFV"),
    ],
)
def test_overrun_requirements(
    kwargs: dict[str, object], target: OverrunTarget, message: str
) -> None:
    """19.1: only AFVs, not towing a Gun, not into a bunker or a hex with an enemy AFV."""
    board = example_board()
    with pytest.raises(RuleError, match=message):
        plan_overrun(
            board,
            [d(4), d(3), d(2)],
            target,
            entry_cost=cost_on(board),
            movement_points=10,
            **kwargs,  # type: ignore[arg-type]
        )


def test_no_overrun_into_a_building_or_through_prohibited_terrain_or_short_of_mps() -> None:
    """19.1 building and prohibited hexes (the exit hex included); 19.3 the cost."""
    building = Board("b", "vv", 6, 6, terrain={d(2): "building"}, default_terrain="open")
    with pytest.raises(RuleError, match="building"):
        plan_overrun(
            building, [d(3), d(2)], SQUADS, entry_cost=cost_on(building), movement_points=9
        )
    pond = Board("p", "vv", 6, 6, terrain={d(1): "pond"}, default_terrain="open")
    with pytest.raises(RuleError, match="may not enter"):
        plan_overrun(pond, [d(3), d(2)], SQUADS, entry_cost=cost_on(pond), movement_points=9)
    board = example_board()
    with pytest.raises(RuleError, match="costs 7 Movement Points"):
        plan_overrun(
            board, [d(5), d(4), d(3), d(2)], SQUADS, entry_cost=cost_on(board), movement_points=6
        )
    with pytest.raises(RuleError, match="off the board"):
        plan_overrun(board, [d(2), d(1)], SQUADS, entry_cost=cost_on(board), movement_points=9)


def test_overrun_attack_refuses_a_bunker_or_building_in_one_line() -> None:
    for fields in (
        {"afv_apfp": 4, "fortification": "concrete_bunker"},
        {"afv_apfp": 4, "target_terrain": "building"},
    ):
        with pytest.raises(FirefightError) as error:
            OVERRUN.parse(fields)
        assert "19.1" in str(error.value)
        assert "\n" not in str(error.value)


def test_final_opportunity_fire_hits_the_rear_armour() -> None:
    """19.2: the AFV's rear armour; a leader modifies it even if marked with a Fire marker."""
    inp = VvFinalOpportunityFire(atfp="D", rear_armour="C", leader_modifier=-1)
    facts = dict(FINAL.facts(inp))
    assert facts["rear armor EN"] == facts["front armor EN"]
    rear = VvAtAttack(
        atfp="D", front_armour="E", rear_armour="C", facing="rear", leader_modifier=-1
    )
    assert FINAL.odds(inp) == AT.odds(rear)
    assert [m.rule for m in FINAL.modifiers(inp)] == ["V&V 13.6"]


def test_only_surviving_unpinned_units_with_at_capability_fire_final() -> None:
    """19.2 'a surviving unit ... capable of making an AT attack'; 14.7 pinned units act not."""
    assert may_fire_final("squad", pinned=False, eliminated=False, has_at_weapon=True)
    assert may_fire_final("gun", pinned=False, eliminated=False, has_at_weapon=False)
    assert not may_fire_final("squad", pinned=False, eliminated=False, has_at_weapon=False)
    assert not may_fire_final("squad", pinned=True, eliminated=False, has_at_weapon=True)
    assert not may_fire_final("gun", pinned=False, eliminated=True, has_at_weapon=False)


def squad_with_panzerfaust() -> HexUnits:
    return HexUnits((Unit("squad", 4, name="sq", half_squad_rating=2),))


def test_whole_overrun_exact_odds_chain_attack_casualties_and_final_fire() -> None:
    """19.2-19.4 as one exact distribution: the overrun attack's CPs (policy 14.6), then the
    squad fires its Panzerfaust at the rear armour if it is neither eliminated nor pinned."""
    attack = VvOverrunAttack(afv_apfp=4)  # 8 APFP: the 5-10 row in the open
    fof = VvFinalOpportunityFire(atfp="D", rear_armour="C")
    odds = exact(
        lambda c: str(resolve_overrun(attack, squad_with_panzerfaust(), (), (), {0: fof}, c))
    )
    assert sum(odds.values()) == 1
    untouched = OVERRUN.odds(attack)["-"]
    kill = FINAL.odds(fof)["eliminated"]
    assert odds["afv eliminated at exit; unhurt"] == untouched * kill
    assert not any(k.startswith("afv eliminated") and "pinned" in k for k in odds)


def test_an_approach_hit_that_immobilizes_stops_the_overrun_before_its_attack() -> None:
    """13.8, 19.2: immobilized on the way, the AFV stops and never attacks the hex."""
    shot = VvAtAttack(atfp="D", front_armour="E")
    outcome = scripted(
        lambda c: str(
            resolve_overrun(
                VvOverrunAttack(afv_apfp=4), squad_with_panzerfaust(), [[shot]], (), {}, c
            )
        ),
        [2, 3, 2, 3, 4],  # to-hit 5 <= 8; EN 5: 5 = immobilized; abandonment 4 > 2
    )
    assert outcome.outcome == "afv immobilized at approach 1; no attack"
