"""V&V opportunity fire on a moving stack (V&V 13.8, 12.3, 12.61, 14.2, 16.2, 17.2,
17.4, 20.7, 6.31): who may fire where, the policies, and the exact odds along the path.

Chapter 13 of the research folder has no worked opportunity fire example with numbers (its
only examples are the fire lanes of 13.9); each statement of 13.8 is a test below, named for it.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from firefight.board.los import line_of_sight
from firefight.chance import exact
from firefight.errors import InputError
from firefight.rulesets.vv.ap import ap_combat_table, modifiers, row_label
from firefight.rulesets.vv.board import VV_LOS
from firefight.rulesets.vv.fire_policies import fire_plan, fire_policy
from firefight.rulesets.vv.move_results import (
    build_move,
    model_odds,
    model_run,
    move_odds,
    resolve_move,
)
from firefight.rulesets.vv.move_steps import (
    Mover,
    MoveState,
    apply_cps,
    move_process,
    targets_in_hex,
)
from firefight.rulesets.vv.movement import plan_move
from firefight.rulesets.vv.opportunity import attacks_on, opportunities
from firefight.rulesets.vv.scenario import (
    BoardScenario as Scenario,
)
from firefight.rulesets.vv.scenario import (
    load_board_scenario as load_scenario,
)

from .move_helpers import leader, scenario, squad

ROW = ["0303", "0403", "0503", "0603"]


def _labels(options: list[Any]) -> list[str]:
    return [o.label for o in options]


def _mods(option: Any) -> dict[str, int]:
    """The modifiers' sum by the rule each cites."""
    found: dict[str, int] = {}
    for m in modifiers(option.attack):
        found[m.rule] = found.get(m.rule, 0) + int(m.value)
    return found


def _roll_for(option: Any, cps: str) -> str:
    """Dice (``a+b``) that give ``cps`` on the AP Combat Table for this attack."""
    total = sum(int(m.value) for m in modifiers(option.attack))
    for natural in range(3, 12):
        if ap_combat_table().lookup_label(row_label(option.attack), natural + total).value == cps:
            first = min(6, natural - 1)
            return f"{first}+{natural - first}"
    raise AssertionError(cps)


def test_entering_a_hex_out_of_los_gives_no_attack(tmp_path: Path) -> None:
    s = scenario(
        tmp_path, [squad("a", "us", "0203"), squad("e", "de", "0601")], hexes={"0502": "building"}
    )
    plan = plan_move(s, "0203", ROW[:4])
    board = s.board
    seen = [
        step.label
        for step in plan.steps
        if line_of_sight(board, board.hex("0601"), step.hex, VV_LOS).visible
    ]
    assert seen
    assert len(seen) < len(plan.steps)
    assert _labels(opportunities(plan)["e"]) == seen  # 13.8: no attack where LOS is lost


def test_opportunity_modifiers_are_read_from_the_board(tmp_path: Path) -> None:
    s = scenario(
        tmp_path,
        [squad("a", "us", "0203"), leader("l", "us", "0203"), squad("e", "de", "0602")],
        hexes={"0403": "orchard", "0303": "woods"},
    )
    options = {o.label: o for o in opportunities(plan_move(s, "0203", ROW))["e"]}
    assert _mods(options["0603"]) == {"13.8": -3}  # -1 no positive cover and -2 adjacent
    assert [m.label for m in modifiers(options["0603"].attack)] == [
        "opportunity fire, no cover",
        "opportunity fire, adjacent hex",
    ]
    assert _mods(options["0403"]) == {"9.3, 13.4": 1}  # a hindrance: no -1 (default reading)
    # woods cover (positive: no -1) and the orchard 0403 on the line (9.3)
    assert _mods(options["0303"]) == {"13.4": 2, "9.3, 13.4": 1}
    assault = opportunities(plan_move(s, "0203", ROW[:2], assault=True))["e"]
    # into the orchard with Assault Movement: +1 cover (6.4), so no -1 (13.8)
    assert _mods(assault[-1]) == {"9.3, 13.4": 1, "6.4": 1}


def test_a_fire_group_combines_apfp_with_its_support_weapons_and_best_leader(
    tmp_path: Path,
) -> None:
    mg = {"name": "MG42", "class": "L", "kind": "mg", "apfp": 4, "range": 8}
    s = scenario(
        tmp_path,
        [
            squad("a", "us", "0203"),
            squad("e1", "de", "0601", support_weapons=[mg]),
            squad("e2", "de", "0601"),
            leader("el", "de", "0601", leadership_modifier=-2, range=2),
        ],
    )
    options = opportunities(plan_move(s, "0203", ROW))["e1+e2+el"]
    near = {o.label: o.attack for o in options}
    assert near["0603"].apfp == 4 + 4 + 4 + 1  # 14.2, 12.3: squad + L weapon, squad, leader
    assert near["0603"].leadership_modifier == -2  # 13.6: the best modifier
    assert near["0303"].apfp == 4 + 4 + 4  # 4 hexes: out of the leader's range 2 (13.3)


def test_support_weapons_follow_12_3_and_mortars_never_fire_on_opportunity(
    tmp_path: Path,
) -> None:
    mortar = {"name": "mortar", "class": "H", "kind": "mortar", "apfp": 4, "range": 12}
    heavy = {"name": "MMG", "class": "H", "kind": "mg", "apfp": 5, "range": 10}
    half = {"id": "h", "side": "de", "type": "half_squad", "range": 1, "casualty_rating": 2}
    s = scenario(
        tmp_path,
        [
            squad("a", "us", "0203"),
            {**half, "hex": "0601", "apfp": 2, "support_weapons": [mortar]},
            {**half, "id": "m", "hex": "0608", "apfp": 2, "support_weapons": [heavy]},
        ],
    )
    found = opportunities(plan_move(s, "0203", ROW))
    assert "h" not in found  # 12.61: out of its own range, and the mortar may not fire
    assert {o.attack.apfp for o in found["m"]} == {5}  # 12.3: a half squad's H weapon alone


def test_units_with_a_fire_marker_or_pinned_may_not_fire(tmp_path: Path) -> None:
    s = scenario(
        tmp_path,
        [
            squad("a", "us", "0203"),
            squad("f", "de", "0601", fired=True),
            squad("p", "de", "0608", state="pinned"),
        ],
    )
    assert opportunities(plan_move(s, "0203", ROW)) == {}


def _one_firer(tmp_path: Path, **hexes: Any) -> Scenario:
    return scenario(
        tmp_path,
        [squad("a", "us", "0203"), squad("b", "us", "0203"), squad("e", "de", "0602")],
        hexes=hexes,
    )


def test_policies_choose_the_hex_each_firer_fires_at(tmp_path: Path) -> None:
    plan = plan_move(_one_firer(tmp_path), "0203", ROW)
    options = opportunities(plan)

    def chosen(name: str, **kw: Any) -> list[str]:
        return [a.label for a in fire_plan(plan, fire_policy(name, **kw), options)]

    expected = {o.label: o.expected_cps for o in options["e"]}
    assert chosen("first_sight") == ["0303"]
    assert chosen("best_shot") == [max(expected, key=lambda h: expected[h])]
    high = Fraction(10)
    assert chosen("threshold", threshold=high) == ["0603"]  # always the first adjacent hex
    first_over = next(h for h, e in expected.items() if e >= 1)
    assert chosen("threshold") == [first_over]
    assert chosen("player", player={"e": "0403"}) == ["0403"]
    assert chosen("player", player={}) == []


def test_the_player_policy_refuses_an_unknown_firer_or_hex(tmp_path: Path) -> None:
    plan = plan_move(_one_firer(tmp_path), "0203", ROW)
    options = opportunities(plan)
    with pytest.raises(InputError, match=r"^'fire' must be a firer with a shot on this path: e"):
        fire_plan(plan, fire_policy("player", player={"x": "0403"}), options)
    with pytest.raises(InputError, match=r"^'fire.e' must be a hex it may fire at on this path"):
        fire_plan(plan, fire_policy("player", player={"e": "0101"}), options)
    with pytest.raises(InputError, match=r"^'policy' must be one of threshold, first_sight"):
        fire_policy("random")


def test_exact_path_odds_equal_enumerating_whole_runs(tmp_path: Path) -> None:
    s = scenario(
        tmp_path,
        [
            squad("a", "us", "0203"),
            leader("l", "us", "0203"),
            squad("e", "de", "0602"),
            squad("g", "de", "0608"),
        ],
    )
    plan = plan_move(s, "0203", ROW)
    model, _ = build_move(plan, "first_sight")
    assert len(model.attacks) == 2
    by_process = model.process.after(model.start, len(ROW))
    whole = exact(lambda chance: model.process.run(model.start, chance)[-1])
    assert dict(by_process) == dict(whole)


def test_first_pin_per_hex_sums_to_the_chance_of_any_pin(tmp_path: Path) -> None:
    plan = plan_move(_one_firer(tmp_path), "0203", ROW)
    odds = move_odds(plan, "best_shot")
    for unit_odds in odds.units.values():
        assert sum(unit_odds.values()) == 1
    hurt = odds.units["a"]
    any_pin_a = sum(p for (condition, _), p in hurt.items() if condition != "unhurt")
    assert sum(odds.unit_first_hit["a"]) == any_pin_a
    assert sum(odds.first_hit) <= 1
    assert odds.to_json()["exact"] is True


def test_a_pinned_unit_stops_and_the_others_go_on(tmp_path: Path) -> None:
    plan = plan_move(_one_firer(tmp_path), "0203", ROW)
    model, _ = build_move(plan, "player", player={"e": "0303"})
    attack = model.attacks[0]
    run = resolve_move(plan, "player", player={"e": "0303"}, roll=[_roll_for(attack, "1")])
    # 1 CP: one squad pinned where it stands (14.61), the other goes on to the end (13.8)
    assert sorted(run.outcome().values()) == [("pinned", "0303"), ("unhurt", "0603")]


def test_a_unit_pinned_in_a_friendly_hex_at_its_limit_is_eliminated(tmp_path: Path) -> None:
    friends = [squad(f"f{n}", "us", "0403") for n in range(4)]
    s = scenario(tmp_path, [squad("a", "us", "0203"), *friends, squad("e", "de", "0602")])
    plan = plan_move(s, "0203", ROW[:3])
    model, _ = build_move(plan, "player", player={"e": "0403"})
    run = resolve_move(
        plan, "player", player={"e": "0403"}, roll=[_roll_for(model.attacks[0], "1")]
    )
    assert run.outcome() == {"a": ("eliminated", "0403")}
    assert any(e.label == "13.8 stacking" for e in run.run.trace)
    # only the moving unit is affected (13.8): the four squads there are not in the outcome


def test_the_leader_pinned_on_the_way_takes_the_bonus_with_him(tmp_path: Path) -> None:
    s = scenario(
        tmp_path, [squad("a", "us", "0103"), leader("l", "us", "0103"), squad("e", "de", "1208")]
    )
    plan = plan_move(s, "0103", ["0203", *ROW, "0703"])
    assert plan.allowance["a"] == 6
    model = move_process(plan, ())
    pinned_leader = MoveState(1, (Mover(), Mover(pinned=True, stopped_at=1)), bonus=True)
    final = model.process.after(pinned_leader, 6)
    (state,) = final  # no fire: one outcome
    assert state.movers[0].stopped_at == 4  # 6.31: stops once its normal 4 MPs are spent
    full = model.process.after(model.start, 6)
    assert next(iter(full)).movers[0].stopped_at == 6


def test_a_minefield_attacks_each_unit_entering(tmp_path: Path) -> None:
    s = scenario(
        tmp_path,
        [squad("a", "us", "0203"), squad("b", "us", "0203"), squad("e", "de", "1208")],
        fortifications=[{"hex": "0403", "kind": "minefield"}],
    )
    odds = move_odds(plan_move(s, "0203", ROW[:3]))
    assert odds.units["a"][("eliminated", "0403")] == Fraction(1, 2)  # 20.7: 1d6 <= 3
    assert odds.first_hit[1] == Fraction(3, 4)


def test_natural_rolls_call_for_valor_and_the_sniper(tmp_path: Path) -> None:
    plan = plan_move(_one_firer(tmp_path), "0203", ROW)
    two = resolve_move(plan, "player", player={"e": "0303"}, roll=["1+1", "3+3"])
    labels = [e.label for e in two.run.trace]
    assert "16.2 natural 2" in labels
    assert "valor check, e (2d6)" in labels
    sniper = resolve_move(plan, "player", player={"e": "0303"}, roll=["6+6"])
    assert "17.2 natural 12" in [e.label for e in sniper.run.trace]


def test_a_sniper_fires_once_within_six_hexes_at_infantry(tmp_path: Path) -> None:
    s = scenario(
        tmp_path,
        [squad("a", "us", "0203"), squad("e", "de", "1208")],
        hexes={"0601": "woods"},
        snipers=[{"side": "de", "hex": "0601"}],
    )
    plan = plan_move(s, "0203", ROW)
    options = opportunities(plan)["sniper-de"]
    assert all(s.board.hex("0601").distance(o.hex) <= 6 for o in options)
    chosen = fire_plan(plan, fire_policy("first_sight"), {"sniper-de": options})
    assert len(chosen) == 1  # 17.4: one attack a turn
    run = resolve_move(plan, "first_sight", roll=["2", "6"])
    labels = [e.label for e in run.run.trace]
    assert "17.4 sniper opportunity fire" in labels
    assert "sniper elimination check (1d6)" in labels or any("17.6" in x for x in labels)
    far = scenario(
        tmp_path,
        [squad("a", "us", "0203"), squad("e", "de", "1208")],
        snipers=[{"side": "de", "hex": "1201"}],
    )
    assert "sniper-de" not in opportunities(plan_move(far, "0203", ROW[:1]))


def test_the_sample_scenario_moves_under_fire() -> None:
    plan = plan_move(load_scenario("village"), "0206", ["0306", "0406", "0506", "0606"])
    odds = move_odds(plan)
    data = odds.to_json()
    assert [a["firer"] for a in data["fire_plan"]] == ["de-sq1+de-ldr", "de-mg"]
    assert sum(Fraction(str(h["first_hit"]["fraction"])) for h in data["hexes"]) <= 1


def test_attacks_on_a_hex_are_the_threat_without_a_path(tmp_path: Path) -> None:
    s = scenario(
        tmp_path,
        [squad("a", "us", "0203"), squad("e", "de", "0602")],
        snipers=[{"side": "de", "hex": "0601"}],
    )
    plan = plan_move(s, "0203", ROW)
    along = opportunities(plan)
    for step in plan.steps:
        here = {o.firer.id: o.expected_cps for o in attacks_on(s, "us", step.hex)}
        assert here == {
            firer: o.expected_cps for firer, os in along.items() for o in os if o.hex == step.hex
        }
    # a German entering 0303 would be under the American squad's fire (adjacent), no sniper's
    assert [o.firer.id for o in attacks_on(s, "de", s.board.hex("0303"))] == ["a"]


def test_a_fortification_covers_a_mover_only_where_its_path_ends(tmp_path: Path) -> None:
    s = scenario(
        tmp_path,
        [squad("a", "us", "0203"), squad("e", "de", "0602")],
        fortifications=[{"hex": "0403", "kind": "foxhole"}],
    )
    through = {o.label: o for o in opportunities(plan_move(s, "0203", ROW[:3]))["e"]}
    ending = {o.label: o for o in opportunities(plan_move(s, "0203", ROW[:2]))["e"]}
    always = opportunities(plan_move(s, "0203", ROW[:3]), fortification_cover="always")
    assert "13.4, 20" not in _mods(through["0403"])  # passing through: not in the position
    assert _mods(ending["0403"])["13.4, 20"] > 0  # 20.3: ending there, it enters the foxhole
    assert "13.4, 20" in _mods(next(o for o in always["e"] if o.label == "0403"))


def test_afvs_take_no_ap_fire_and_vehicles_fire_in_their_arc(tmp_path: Path) -> None:
    tank = {
        "id": "t",
        "side": "us",
        "type": "afv",
        "hex": "0203",
        "apfp": 4,
        "movement_points": 6,
        "facing": 3,
    }
    truck = {
        "id": "v",
        "side": "de",
        "type": "unarmoured_vehicle",
        "hex": "0602",
        "apfp": 3,
        "casualty_rating": 2,
        "movement_points": 8,
        "facing": 1,
    }
    s = scenario(tmp_path, [tank, squad("e", "de", "0608"), truck])
    plan = plan_move(s, "0203", ["0303"])
    assert opportunities(plan) == {}  # 14.1: AP fire has no effect on an AFV
    s2 = scenario(tmp_path, [squad("a", "us", "0203"), truck])
    found = opportunities(plan_move(s2, "0203", ROW))
    board = s2.board
    facing_north = board.hex("0602").neighbour(1)
    assert all(o.hex != facing_north for o in found.get("v", []))
    assert {o.label for o in found.get("v", [])} <= {"0303", "0403", "0503", "0603"}
    assert not any(o.label == "0603" for o in found.get("v", []))  # behind it: out of its FFA


def test_infantry_firing_from_barbed_wire_add_one(tmp_path: Path) -> None:
    s = scenario(
        tmp_path,
        [squad("a", "us", "0203"), squad("e", "de", "0602")],
        fortifications=[{"hex": "0602", "kind": "barbed_wire"}],
    )
    option = opportunities(plan_move(s, "0203", ROW))["e"][-1]
    assert _mods(option)["20.8"] == 1


def test_extra_phases_plug_into_the_move_and_see_who_fired(tmp_path: Path) -> None:
    plan = plan_move(_one_firer(tmp_path), "0203", ROW)
    model, options = build_move(plan, "player", player={"e": "0303"})

    def one_cp_in_0503(state: MoveState, chance: Any) -> MoveState:
        if state.at != 3 or state.halted:
            return state
        assert "fired:e" in state.marks
        for target in targets_in_hex(plan, state):
            state = apply_cps(plan, state, [target], 1, chance)  # 1 CP: pinned (14.61)
        return state

    extended = move_process(plan, model.attacks, on_entry=[one_cp_in_0503])
    odds = model_odds(extended, "player", options)
    base = move_odds(plan, "player", player={"e": "0303"})
    # whoever reaches 0503 unpinned takes one more CP there: pinned in 0503, never in 0603
    assert all(where != "0603" for (_, where) in odds.units["a"])
    assert any(where == "0603" for (_, where) in base.units["a"])
    assert sum(odds.units["a"].values()) == 1
    run = model_run(extended, seed=2)
    assert run.model is extended
