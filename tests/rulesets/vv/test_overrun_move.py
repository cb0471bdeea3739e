"""An overrun in a scenario (V&V 19 on the board): the chapter 19 Armor Overrun Example played
on a board with the AFV's route, its opportunity AT fire, the attack and Final Opportunity Fire,
exact odds and a scripted run."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from firefight.board.board import Board
from firefight.board.hexes import from_offset
from firefight.chance import exact
from firefight.errors import FirefightError
from firefight.rulesets.vv.overrun import OVERRUN_ATTACK, VvOverrunAttack
from firefight.rulesets.vv.overrun_move import build_overrun, overrun_odds, resolve_overrun_move
from firefight.rulesets.vv.scenario import (
    BoardScenario as Scenario,
)
from firefight.rulesets.vv.scenario import (
    Fortification,
    ScenarioUnit,
    SupportWeapon,
)

PANZERFAUST = SupportWeapon("Panzerfaust", "X", "anti_tank", 0, 1)
SCHRECK = SupportWeapon("Panzerschreck", "L", "anti_tank", 0, 3)


def d(row: int):
    return from_offset(4, row)


def example(*, weapon: SupportWeapon = PANZERFAUST) -> Scenario:
    """Chapter 19's example: the M4A3E8 (APFP 19, 10 MPs) in D5 facing D4; two German squads
    and Schmidt (-1) in foxholes in the woods of D2, one squad with a Panzerfaust."""
    board = Board("example", "vv", 8, 8, terrain={d(2): "woods"}, default_terrain="open")
    units = (
        ScenarioUnit(
            "sherman",
            "us",
            "afv",
            d(5),
            apfp=19,
            movement_points=10,
            facing=1,
        ),
        ScenarioUnit(
            "de-sq1",
            "de",
            "squad",
            d(2),
            apfp=5,
            range=5,
            casualty_rating=5,
            half_squad_rating=3,
            support_weapons=(weapon,),
        ),
        ScenarioUnit(
            "de-sq2", "de", "squad", d(2), apfp=5, range=5, casualty_rating=5, half_squad_rating=3
        ),
        ScenarioUnit(
            "schmidt",
            "de",
            "leader",
            d(2),
            apfp=1,
            range=4,
            casualty_rating=2,
            leadership_modifier=-1,
        ),
    )
    return Scenario(
        "overrun",
        board,
        {"us": "Americans", "de": "Germans"},
        units,
        fortifications=(Fortification(d(2), "foxhole"),),
    )


PATH = ["0404", "0403", "0402"]


def setup(**kwargs):
    return build_overrun(
        example(**kwargs), "0405", PATH, armour=("E", "C"), at_ratings={"de-sq1": "D"}
    )


def test_the_example_route_fire_and_attack_are_read_from_the_board() -> None:
    """7 MPs, exit D1; the Panzerfaust (range 1, 12.51) fires first at D3 with Schmidt's -1;
    the overrun attack is 38 APFP (29-40) with woods +2 and foxholes +1."""
    plan = setup()
    data = plan.to_json()
    assert data["movement_points"] == 7
    assert data["exit"] == "0401"
    assert [(s["firer"], s["hex"], s["facing"]) for s in data["at_fire"]] == [
        ("de-sq1", "0403", "front")
    ]
    assert data["at_fire"][0]["modifiers"] == [
        {"label": "leadership modifier", "value": -1, "rule": "V&V 13.6"}
    ]
    assert data["attack"]["apfp"] == 38
    assert data["attack"]["row"] == "29-40"
    assert [m["value"] for m in data["attack"]["modifiers"]] == [2, 1]
    assert data["final_fire"] == []  # 12.5: the Panzerfaust is spent


def test_the_example_played_with_its_dice() -> None:
    """Panzerfaust 7 -1 = 6, a hit; 11 > 5, no effect; the overrun rolls 2 (+3 = 5): 6 CPs."""
    run = resolve_overrun_move(setup(), roll=[3, 4, 5, 6, 1, 1])
    notes = [(e.label, str(e.value)) for e in run.trace]
    assert (
        "19.4 overrun",
        "APFP 38 (29-40), modified roll 5: ap_combat: row 29-40, column 5 -> 6",
    ) in [(label, value.replace("  ", " ")) for label, value in notes] or any(
        "modified roll 5" in value and "6" in value for _, value in notes
    )
    assert run.outcome.afv == "unhurt"
    assert run.outcome.stopped == "exit"
    lost = sum(1 for state in run.outcome.defenders if state == "eliminated")
    assert lost >= 1


def test_overrun_odds_are_exact_and_consistent_with_the_attack() -> None:
    """The outcome distribution sums to 1; the chance the defenders are untouched is the
    Panzerfaust's failing to stop the AFV times the overrun's no effect."""
    plan = setup()
    odds = overrun_odds(plan)
    assert sum(odds.outcomes.values()) == 1
    no_effect = OVERRUN_ATTACK.odds(
        VvOverrunAttack(afv_apfp=19, target_terrain="woods", fortification="foxhole")
    )["-"]
    stopped = sum((p for k, p in odds.afv.items() if k.endswith("approach 2")), Fraction(0))
    untouched = sum(
        (p for k, p in odds.outcomes.items() if k.endswith("; unhurt, unhurt, unhurt")),
        Fraction(0),
    )
    assert untouched == (1 - stopped) * no_effect
    assert odds.defenders["de-sq2"]["not attacked"] == stopped
    replayed = exact(plan.run)  # the whole rule replayed per prefix: the same odds
    assert {str(k): p for k, p in replayed.items()} == dict(odds.outcomes.items())
    assert odds.to_json()["exact"] is True


def test_a_reusable_at_weapon_in_the_hex_fires_final_opportunity_fire_at_the_rear() -> None:
    """19.2: with a Panzerschreck (L, range 3) the squad fires on the approach at D4 and again,
    Fire marker or not, at the rear armour as the AFV exits."""
    plan = setup(weapon=SCHRECK)
    data = plan.to_json()
    assert [(s["hex"], s["moment"]) for s in data["at_fire"]] == [("0404", "enters")]
    assert data["final_fire"] == ["de-sq1"]
    assert plan.final[0].rear_armour == "C"
    assert plan.final[0].leader_modifier == -1
    odds = overrun_odds(plan)
    assert any(k.startswith("eliminated at exit") for k in odds.afv)


def test_overrun_refusals_are_one_line() -> None:
    with pytest.raises(FirefightError, match="Armor Ratings"):
        build_overrun(example(), "0405", PATH, armour=("E", "Z"))
    with pytest.raises(FirefightError, match="AT FP Rating"):
        build_overrun(example(), "0405", PATH, armour=("E", "C"), at_ratings={"de-sq1": "Q"})
    scenario = example()
    short = Scenario(
        scenario.name,
        scenario.board,
        scenario.sides,
        (
            ScenarioUnit(
                "sherman",
                "us",
                "afv",
                d(5),
                apfp=19,
                movement_points=6,
                facing=1,
            ),
            *scenario.units[1:],
        ),
        fortifications=scenario.fortifications,
    )
    with pytest.raises(FirefightError, match="costs 7"):
        build_overrun(short, "0405", PATH, armour=("E", "C"))


def with_unit(unit: ScenarioUnit, *, forts: tuple[Fortification, ...] = ()) -> Scenario:
    base = example()
    return Scenario(
        base.name,
        base.board,
        base.sides,
        (*base.units, unit),
        fortifications=(*base.fortifications, *forts),
    )


def test_no_overrun_through_enemy_units_or_a_bunker_nor_into_a_full_exit_hex() -> None:
    """6.8: enemy units only in the target hex; 19.1: no bunker on the way; 6.7/6.9: the
    AFV must be able to end its move in the exit hex."""
    enemy = ScenarioUnit(
        "de-sq3", "de", "squad", d(3), apfp=5, range=5, casualty_rating=5, half_squad_rating=3
    )
    with pytest.raises(FirefightError, match="holds enemy units"):
        build_overrun(with_unit(enemy), "0405", PATH, armour=("E", "C"))
    bunker = with_unit(
        ScenarioUnit(
            "us-sq", "us", "squad", d(6), apfp=4, range=6, casualty_rating=4, half_squad_rating=2
        ),
        forts=(Fortification(d(4), "concrete_bunker"),),
    )
    with pytest.raises(FirefightError, match="bunker"):
        build_overrun(bunker, "0405", PATH, armour=("E", "C"))
    gun = ScenarioUnit("us-gun", "us", "gun", d(1), apfp=2, casualty_rating=3, facing=1)
    other = ScenarioUnit("us-gun2", "us", "gun", d(1), apfp=2, casualty_rating=3, facing=1)
    full = with_unit(gun)
    full = Scenario(
        full.name, full.board, full.sides, (*full.units, other), fortifications=full.fortifications
    )
    with pytest.raises(FirefightError, match="exit hex 0401"):
        build_overrun(full, "0405", PATH, armour=("E", "C"))


@pytest.mark.parametrize(
    ("marker", "message"),
    [("fired", r"Fire marker.*5\.33"), ("moved", r"Move marker")],
)
def test_an_afv_with_a_fire_or_move_marker_may_not_overrun(marker: str, message: str) -> None:
    """5.33: units marked with a Fire marker may not move, and a unit that moved is marked
    with a Move marker; an overrun is the AFV's move (19.3, 19.4)."""
    base = example()
    afv = replace(base.units[0], **{marker: True})
    marked = replace(base, units=(afv, *base.units[1:]))
    with pytest.raises(FirefightError, match=message):
        build_overrun(marked, "0405", PATH, armour=("E", "C"))
