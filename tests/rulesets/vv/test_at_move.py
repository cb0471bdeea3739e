"""AT opportunity fire at a moving stack's AFVs and vehicles (V&V 13.8, 18 in a move): who may
fire AT, the armour met by the firer's position, an immobilized AFV stopping, the stacking
rule, unarmoured vehicles, the fire policy's AT score, exact odds and scripted runs."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from firefight.chance import exact
from firefight.errors import InputError
from firefight.rulesets.vv.at import VvAtAttack, at_attack
from firefight.rulesets.vv.at_move import (
    DEFAULT_AT_THRESHOLD,
    at_options,
    build_at_move,
    stop_chance,
    vehicle_shot,
    vehicle_threat,
)
from firefight.rulesets.vv.move_results import model_odds, model_run
from firefight.rulesets.vv.movement import plan_move
from firefight.rulesets.vv.scenario import load_board_scenario as load_scenario
from tests.rulesets.vv.move_helpers import scenario, squad

ROW = ["0205", "0305", "0405", "0505"]
"""The AFV's path east along row 5 from 0105."""
SCHRECK = {"name": "Panzerschreck", "class": "L", "kind": "anti_tank", "apfp": 0, "range": 3}


def afv(unit_id: str, side: str, hex_: str, **extra: Any) -> dict[str, Any]:
    return {
        "id": unit_id,
        "side": side,
        "type": "afv",
        "hex": hex_,
        "apfp": 6,
        "movement_points": 8,
        "facing": 2,
        **extra,
    }


def gun(unit_id: str, side: str, hex_: str, facing: int, **extra: Any) -> dict[str, Any]:
    return {
        "id": unit_id,
        "side": side,
        "type": "gun",
        "hex": hex_,
        "apfp": 3,
        "casualty_rating": 3,
        "facing": facing,
        **extra,
    }


def truck(unit_id: str, side: str, hex_: str) -> dict[str, Any]:
    return {
        "id": unit_id,
        "side": side,
        "type": "unarmoured_vehicle",
        "hex": hex_,
        "apfp": 2,
        "casualty_rating": 2,
        "movement_points": 8,
        "facing": 2,
    }


def _hit_then(number: int, abandon: Fraction = Fraction(1, 3)) -> Fraction:
    """A gun's hit at 10 hexes or less (2d6 <= 10, 33/36, no cover) then 2d6 < ``number``
    eliminates, = immobilizes and the crew abandons on 1d6 <= 2 (18.3, 18.4, 18.6)."""
    below = Fraction(sum(1 for a in range(1, 7) for b in range(1, 7) if a + b < number), 36)
    equal = Fraction(sum(1 for a in range(1, 7) for b in range(1, 7) if a + b == number), 36)
    return Fraction(33, 36) * (below + equal * abandon)


def test_a_gun_fires_at_a_moving_afv_which_no_longer_passes_unharmed(tmp_path: Path) -> None:
    s = scenario(tmp_path, [afv("t", "us", "0105"), gun("g", "de", "0905", 5)])
    plan = plan_move(s, "0105", ROW)
    move = build_at_move(plan, "first_sight", ratings={"g": "C"}, armour=("E", "C"))
    odds = model_odds(move.lanes.model, "first_sight", move.lanes.options)
    # C against front E: Elimination Number 3 (18.4); the gun fires at the first hex, 0205
    assert odds.units["t"][("eliminated", "0205")] == _hit_then(3)
    assert odds.units["t"][("immobilized", "0205")] == Fraction(33, 36) * Fraction(2, 36) * 2 / 3
    assert sum(odds.units["t"].values()) == 1
    assert odds.first_hit[0] == Fraction(33, 36) * Fraction(3, 36)
    # without a rated firer the AFV passes unharmed (14.1: AP fire has no effect on it)
    quiet = build_at_move(plan, "first_sight", armour=("E", "C"))
    still = model_odds(quiet.lanes.model, "first_sight", quiet.lanes.options)
    assert dict(still.units["t"]) == {("unhurt", "0505"): 1}


def test_the_armour_met_follows_the_firers_position_and_the_afvs_move(tmp_path: Path) -> None:
    # moving east, the gun ahead meets the front armour, the squad behind the rear (18.5)
    s = scenario(
        tmp_path,
        [
            afv("t", "us", "0105"),
            gun("g", "de", "0905", 5),
            squad("b", "de", "0205", support_weapons=[SCHRECK]),
        ],
    )
    plan = plan_move(s, "0105", ["0206", "0306", "0406"])
    found = at_options(plan, {"g": "C", "b": "D"}, ("E", "C"))
    assert {o.targets[0].attack.facing for o in found["g"]} == {"front"}
    behind = [o for o in found["b"] if o.label == "0406"]
    assert behind[0].targets[0].attack.facing == "rear"
    assert behind[0].targets[0].attack.weapon == "at_weapon"


def test_the_rulebooks_anti_tank_example_as_opportunity_fire(tmp_path: Path) -> None:
    """Chapter 18's example: the M4A3E8 in E4 fires ATFP D at the Tiger I entering C1 (woods,
    +2) with its rear to E4: to-hit 10 or less (within 10 hexes); 7 + 2 = 9 hits; D against
    the Tiger's rear D is Elimination Number 7; 6 < 7 destroys it."""
    s = scenario(
        tmp_path,
        [afv("tiger", "de", "0302"), afv("sherman", "us", "0504", facing=6)],
        hexes={"0301": "woods"},
    )
    plan = plan_move(s, "0302", ["0301"])
    move = build_at_move(plan, "first_sight", ratings={"sherman": "D"}, armour=("F", "D"))
    (shot,) = move.at_attacks
    attack = shot.targets[0].attack
    assert (attack.weapon, attack.facing, attack.cover, attack.range_hexes) == ("gun", "rear", 2, 4)
    run = model_run(move.lanes.model, roll=["3+4", "3+3"])
    assert run.outcome() == {"tiger": ("eliminated", "0301")}
    notes = [str(e.value) for e in run.run.trace]
    assert any("AT FP D, armor D -> 7" in n for n in notes)


def test_an_immobilized_afv_stops_where_it_is(tmp_path: Path) -> None:
    s = scenario(tmp_path, [afv("t", "us", "0105"), gun("g", "de", "0905", 5)])
    plan = plan_move(s, "0105", ROW)
    move = build_at_move(plan, "first_sight", ratings={"g": "C"}, armour=("E", "C"))
    # hit (5 <= 10), elimination roll 3 = EN 3: immobilized (18.4); 1d6 = 5, the crew stays
    run = model_run(move.lanes.model, roll=["2+3", "1+2", 5])
    assert run.outcome() == {"t": ("immobilized", "0205")}
    abandoned = model_run(move.lanes.model, roll=["2+3", "1+2", 2])
    assert abandoned.outcome() == {"t": ("eliminated", "0205")}  # 18.6: 1d6 <= 2


def test_an_afv_immobilized_in_a_full_friendly_hex_is_eliminated(tmp_path: Path) -> None:
    friends = [afv(f"f{n}", "us", "0305") for n in range(2)]  # 6.9: two vehicles a hex
    s = scenario(tmp_path, [afv("t", "us", "0105"), *friends, gun("g", "de", "0905", 5)])
    plan = plan_move(s, "0105", ROW, units=["t"])
    move = build_at_move(
        plan, "player", ratings={"g": "C"}, armour=("E", "C"), player={"g": "0305"}
    )
    run = model_run(move.lanes.model, roll=["2+3", "1+2", 5])
    assert run.outcome() == {"t": ("eliminated", "0305")}
    assert any(e.label == "13.8 stacking" and "immobilized" in str(e.value) for e in run.run.trace)


def test_no_at_fire_out_of_los_range_or_arc_or_with_a_fire_marker(tmp_path: Path) -> None:
    s = scenario(
        tmp_path,
        [
            afv("t", "us", "0105"),
            gun("ahead", "de", "0905", 5),
            gun("away", "de", "0903", 2),  # faces north: the path is outside its FFA (7.4)
            gun("fired", "de", "0907", 5, fired=True),  # 13.8: a Fire marker
            gun("pinned", "de", "0807", 5, state="pinned"),  # 14.7
            squad("b", "de", "0805", support_weapons=[SCHRECK]),  # 18.2: range 3
            gun("hidden", "de", "0402", 4),
        ],
        hexes={"0403": "building", "0404": "building"},
    )
    plan = plan_move(s, "0105", ROW)
    rated = dict.fromkeys(("ahead", "away", "fired", "pinned", "b", "hidden"), "C")
    found = at_options(plan, rated, ("E", "C"))
    assert not {"away", "fired", "pinned"} & set(found)
    assert [o.label for o in found["b"]] == ["0505"]  # within the Panzerschreck's 3 hexes
    assert [o.label for o in found["ahead"]] == ROW
    # 13.8: the buildings of 0403 and 0404 break the LOS to 0405, straight ahead in its FFA
    assert [o.label for o in found["hidden"]] == ["0205"]
    open_field = scenario(tmp_path, [afv("t", "us", "0105"), gun("hidden", "de", "0402", 4)])
    seen = at_options(plan_move(open_field, "0105", ROW), {"hidden": "C"}, ("E", "C"))
    assert "0405" in [o.label for o in seen["hidden"]]


def test_a_hit_unarmoured_vehicle_is_eliminated_and_ap_fire_hits_it(tmp_path: Path) -> None:
    s = scenario(
        tmp_path, [truck("v", "us", "0105"), gun("g", "de", "0905", 5), squad("e", "de", "0307")]
    )
    plan = plan_move(s, "0105", ROW)
    found = at_options(plan, {"g": "A"}, None)  # no armour needed: no AFV moves
    attack = found["g"][0].targets[0].attack
    assert attack.target == "unarmoured_vehicle"
    assert stop_chance(attack) == Fraction(33, 36)  # 18.4: a hit eliminates it
    move = build_at_move(plan, "first_sight", ratings={"g": "A"})
    odds = model_odds(move.lanes.model, "first_sight", move.lanes.options)
    assert odds.units["v"][("eliminated", "0205")] > Fraction(33, 36)  # and the squad's CPs
    # 14.1: AP fire affects unarmoured vehicles: the squad's opportunity fire may pin it
    assert move.lanes.options["e"]
    assert any(c == "pinned" for (c, _), p in odds.units["v"].items() if p)


def test_a_unit_firing_at_keeps_its_one_attack_from_the_ap_fire_group(tmp_path: Path) -> None:
    s = scenario(
        tmp_path,
        [
            afv("t", "us", "0105"),
            squad("a", "us", "0105"),
            squad("b", "de", "0406", support_weapons=[SCHRECK]),
            squad("c", "de", "0406"),
        ],
    )
    plan = plan_move(s, "0105", ROW)
    move = build_at_move(plan, "first_sight", ratings={"b": "D"}, armour=("E", "C"))
    assert [a.firer.id for a in move.at_attacks] == ["b"]
    assert [a.firer.id for a in move.lanes.model.attacks] == ["c"]  # 13.8: one Fire marker
    plain = build_at_move(plan, "first_sight", armour=("E", "C"))
    assert [a.firer.id for a in plain.lanes.model.attacks] == ["b+c"]


def test_the_threshold_policy_weighs_the_chance_of_stopping(tmp_path: Path) -> None:
    s = scenario(
        tmp_path, [afv("t", "us", "0105"), squad("b", "de", "0504", support_weapons=[SCHRECK])]
    )
    plan = plan_move(s, "0105", ROW)
    found = at_options(plan, {"b": "D"}, ("F", "A"))
    scores = {o.label: o.score for o in found["b"]}
    # ahead of the AFV it meets the front F (EN 3), then its rear A ('E': eliminated on a hit)
    assert scores["0305"] < DEFAULT_AT_THRESHOLD <= scores["0505"]
    move = build_at_move(plan, "threshold", ratings={"b": "D"}, armour=("F", "A"))
    assert [a.label for a in move.at_attacks] == ["0405"]  # adjacent: always fire (13.8 -2)
    low = build_at_move(
        plan, "threshold", at_threshold=Fraction(0), ratings={"b": "D"}, armour=("F", "A")
    )
    assert [a.label for a in low.at_attacks] == [found["b"][0].label]
    best = build_at_move(plan, "best_shot", ratings={"b": "D"}, armour=("F", "A"))
    assert [a.label for a in best.at_attacks] == ["0505"]
    chosen = build_at_move(
        plan, "player", ratings={"b": "D"}, armour=("F", "A"), player={"b": "0305"}
    )
    assert [a.label for a in chosen.at_attacks] == ["0305"]
    with pytest.raises(InputError, match=r"fire\.b"):
        build_at_move(plan, "player", ratings={"b": "D"}, armour=("F", "A"), player={"b": "0909"})


def test_one_line_errors_for_missing_armour_and_bad_ratings(tmp_path: Path) -> None:
    s = scenario(tmp_path, [afv("t", "us", "0105"), gun("g", "de", "0905", 5)])
    plan = plan_move(s, "0105", ROW)
    with pytest.raises(InputError, match="armour"):
        at_options(plan, {"g": "C"})
    with pytest.raises(InputError, match=r"at\.g.*A-F"):
        at_options(plan, {"g": "Z"}, ("E", "C"))
    with pytest.raises(InputError, match="enemy"):
        at_options(plan, {"t": "C"}, ("E", "C"))
    with pytest.raises(InputError, match="armour"):
        at_options(plan, {"g": "C"}, ("E", "Q"))


def test_an_infantry_at_firers_natural_two_calls_for_valor(tmp_path: Path) -> None:
    s = scenario(
        tmp_path, [afv("t", "us", "0105"), squad("b", "de", "0306", support_weapons=[SCHRECK])]
    )
    plan = plan_move(s, "0105", ROW)
    move = build_at_move(plan, "first_sight", ratings={"b": "D"}, armour=("E", "C"))
    run = model_run(move.lanes.model, roll=["1+1", "3+3", 1, "6+6"])
    labels = [e.label for e in run.run.trace]
    assert "16.2 natural 2" in labels
    assert any("valor" in label for label in labels)
    twelve = model_run(move.lanes.model, roll=["6+6"])  # 17.2: the opposing sniper activates
    assert "17.2 natural 12" in [e.label for e in twelve.run.trace]


def test_the_same_rule_gives_the_odds_and_the_seeded_run(tmp_path: Path) -> None:
    s = scenario(
        tmp_path,
        [
            afv("t", "us", "0105"),
            afv("t2", "us", "0105"),
            gun("g", "de", "0905", 5),
            squad("b", "de", "0306", support_weapons=[SCHRECK]),
        ],
    )
    plan = plan_move(s, "0105", ROW)
    move = build_at_move(plan, "first_sight", ratings={"g": "C", "b": "D"}, armour=("E", "B"))
    model = move.lanes.model
    whole = exact(lambda chance: model.process.run(model.start, chance)[-1])
    assert dict(model.process.after(model.start, len(ROW))) == dict(whole)
    run = model_run(model, seed=11)
    replay = model_run(model, roll=run.run.replay_values())
    assert replay.outcome() == run.outcome()
    assert any(e.label == "13.8 AT opportunity fire" for e in run.run.trace)


def test_an_immobilized_afv_attacked_again_checks_for_abandonment(tmp_path: Path) -> None:
    s = scenario(
        tmp_path, [afv("t", "us", "0105"), gun("g", "de", "0905", 5), gun("h", "de", "0907", 5)]
    )
    plan = plan_move(s, "0105", ROW)
    move = build_at_move(
        plan,
        "player",
        ratings={"g": "C", "h": "C"},
        armour=("E", "C"),
        player={"g": "0205", "h": "0205"},
    )
    # g immobilizes it (crew stays on 5); h misses (12 > 10): it survives, checks again on 1
    run = model_run(move.lanes.model, roll=["2+3", "1+2", 5, "6+6", 1])
    assert run.outcome() == {"t": ("eliminated", "0205")}
    direct = VvAtAttack(weapon="gun", atfp="C", front_armour="E", target_immobilized=True)
    assert exact(lambda chance: at_attack(direct, chance))["abandoned"] > 0


def test_the_armour_sample_as_docs_vv_md_tells_it() -> None:
    """docs/vv.md, "AT opportunity fire in a move": the sample ``armour`` on vv_village."""
    plan = plan_move(load_scenario("armour"), "0212", ["0211", "0210", "0209"])
    at = {"de-schreck": "D", "de-pak": "E"}
    ends = {}
    for policy in ("threshold", "best_shot"):
        move = build_at_move(plan, policy, ratings=at, armour=("E", "C"))
        odds = model_odds(move.lanes.model, policy, move.lanes.options)
        ends[policy] = odds.units["us-sherman"]
        assert {(a.firer.id, a.label) for a in move.at_attacks} >= {("de-pak", "0211")}
    assert ends["threshold"][("eliminated", "0211")] == Fraction(187, 432)
    assert round(float(ends["threshold"][("unhurt", "0209")]), 4) == 0.3719
    assert round(float(ends["best_shot"][("unhurt", "0209")]), 4) == 0.1852
    truck = plan_move(load_scenario("armour"), "0112", ["0111", "0110"])
    move = build_at_move(truck, ratings={"de-pak": "E"})
    odds = model_odds(move.lanes.model, "threshold", move.lanes.options)
    # the file rates the Panzerschreck too (D, 0309, range 2): both fire at 0110, the PaK
    # eliminating with 13/18, the Panzerschreck with 5/12 (a rating-only --at agrees with it)
    spared = (1 - Fraction(13, 18)) * (1 - Fraction(5, 12))
    assert odds.units["us-truck"][("eliminated", "0110")] == 1 - spared == Fraction(181, 216)


def test_the_vehicle_threat_map_agrees_with_the_move(tmp_path: Path) -> None:
    """A hex's AT threat is each rated firer's shot as a move takes it, combined as
    ``1 - prod(1 - p)``; the armour met follows the heading (18.5)."""
    s = scenario(
        tmp_path,
        [
            afv("t", "us", "0105"),
            gun("g", "de", "0905", 5),
            squad("b", "de", "0306", support_weapons=[SCHRECK]),
        ],
    )
    east = vehicle_threat(s, "us", {"g": "C", "b": "D"}, armour=("E", "B"), heading=2)
    plan = plan_move(s, "0105", ROW)
    move = build_at_move(plan, "first_sight", ratings={"g": "C", "b": "D"}, armour=("E", "B"))
    by_firer = {o.firer.id: o for found in move.at_options.values() for o in found if o.index == 1}
    here = east.hexes[s.board.hex("0205")]
    assert {u: p for u, _, p in here.firers} == {k: o.score for k, o in by_firer.items()}
    assert here.stopped == 1 - (1 - by_firer["g"].score) * (1 - by_firer["b"].score)
    west = vehicle_threat(s, "us", {"g": "C"}, armour=("E", "B"), heading=5)
    assert {a.facing for _, a, _ in west.hexes[s.board.hex("0205")].firers} == {"rear"}
    assert s.board.hex("0306") not in east.hexes  # 6.8: an enemy's hex is not entered
    data = east.to_json()
    assert data["hexes"]["0205"]["stopped"] == str(here.stopped)
    with pytest.raises(InputError, match="heading"):
        vehicle_threat(s, "us", {"g": "C"}, armour=("E", "B"))
    truck_map = vehicle_threat(s, "us", {"g": "C"}, vehicle="unarmoured_vehicle")
    assert truck_map.hexes[s.board.hex("0205")].stopped == Fraction(33, 36)


def test_the_vehicle_map_reads_the_same_lines_as_one_line_of_sight_per_hex() -> None:
    """The vectorized visible set gives every hex the attack line_of_sight gives it (the
    village's woods, orchard and buildings included)."""
    s = load_scenario("armour")
    rated = {"de-schreck": "D", "de-pak": "E"}
    found = vehicle_threat(s, "us", rated, armour=("E", "C"), heading=1)
    for hex_ in s.board.hexes():
        if any(u.side == "de" for u in s.units_at(hex_)):
            continue
        one_by_one = [
            (unit_id, attack)
            for unit_id, letter in rated.items()
            if (
                attack := vehicle_shot(
                    s, s.unit(unit_id), letter, "afv", armour=("E", "C"), where=hex_, facing=1
                )
            )
            is not None
        ]
        threat = found.hexes.get(hex_)
        assert one_by_one == ([(u, a) for u, a, _ in threat.firers] if threat else []), hex_


def test_a_moving_gun_is_an_at_target_eliminated_when_hit(tmp_path: Path) -> None:
    """18.1: AT fire may target "AFVs, vehicles or Guns"; 18.4: a Gun hit is eliminated; a Gun
    moves one hex (6.32), without its Gun Shield's +1 (13.5: not while moving)."""
    s = scenario(
        tmp_path,
        [gun("pak", "us", "0105", 2, movement_points=1), gun("g", "de", "0905", 5)],
    )
    plan = plan_move(s, "0105", ["0205"])
    found = at_options(plan, {"g": "C"})
    attack = found["g"][0].targets[0].attack
    assert (attack.target, attack.gun_shield) == ("gun", False)
    move = build_at_move(plan, "first_sight", ratings={"g": "C"})
    odds = model_odds(move.lanes.model, "first_sight", move.lanes.options)
    assert odds.units["pak"][("eliminated", "0205")] == Fraction(33, 36)


def test_each_moving_afv_meets_fire_with_its_own_armour(tmp_path: Path) -> None:
    """18.5: the Elimination Number reads the armour of the AFV hit; two AFVs in one stack may
    differ (armour by AFV id), and the firer takes the one it has the best chance to stop."""
    s = scenario(
        tmp_path,
        [afv("heavy", "us", "0105"), afv("light", "us", "0105"), gun("g", "de", "0905", 5)],
    )
    plan = plan_move(s, "0105", ROW)
    found = at_options(plan, {"g": "C"}, {"heavy": ("F", "E"), "light": ("B", "A")})
    first = found["g"][0]
    assert [plan.stack[t.mover].id for t in first.targets] == ["light", "heavy"]
    assert [t.attack.front_armour for t in first.targets] == ["B", "F"]
    with pytest.raises(InputError, match="none for light"):
        at_options(plan, {"g": "C"}, {"heavy": ("F", "E")})
    with pytest.raises(InputError, match="ids of the moving AFVs"):
        at_options(plan, {"g": "C"}, {"heavy": ("F", "E"), "light": ("B", "A"), "x": ("A", "A")})
