"""Rule lines of the V&V rulebook that an audit found missing or misread:
entrenchments' placement (20.2), the citations of 13.5 and 13.6, support missions and hexside
hindrances (21.5), grenades (12.52), Assault Movement (6.4), mortars (12.61-12.65), bunkers and
ATFP (20.5), natural 2 and 12 (16.2, 17.2), and 14.64's stricter reading."""

from __future__ import annotations

from fractions import Fraction
from itertools import product
from pathlib import Path

import pytest

import firefight
from firefight.board.board import Board, hexside
from firefight.board.hexes import from_offset
from firefight.errors import FirefightError
from firefight.rulesets.vv.ap import VvApAttack, modifiers, with_board
from firefight.rulesets.vv.casualties import VvApAttackHex, VvApplyCasualties
from tests.helpers import run_cli

VV = firefight.ruleset("vv")
AP = VV.procedure("ap_attack")
AP_HEX = VV.procedure("ap_attack_hex")
AT = VV.procedure("at_attack")
APPLY = VV.procedure("apply_casualties")
DOCS = Path(__file__).parents[3] / "docs" / "vv.md"


def refusal(procedure, fields: dict[str, object]) -> str:
    """The one-line error a procedure's odds give for these inputs."""
    with pytest.raises(FirefightError) as error:
        procedure.odds(procedure.parse(fields))
    message = str(error.value)
    assert "\n" not in message
    return message


def rules_of(inp: VvApAttack) -> dict[str, str]:
    return {m.label: m.rule for m in modifiers(inp)}


def total(inp: VvApAttack) -> Fraction:
    return sum((m.value for m in modifiers(inp)), Fraction(0))


# --- 20.2: entrenchments ------------------------------------------------------------------------


@pytest.mark.parametrize("terrain", ["building", "stream", "gully", "wadi"])
@pytest.mark.parametrize("entrenchment", ["foxhole", "trench", "cave"])
def test_an_entrenchment_in_a_building_stream_gully_or_wadi_hex_is_refused(terrain, entrenchment):
    fields = {"apfp": 6, "target_terrain": terrain, "fortification": entrenchment}
    assert "(20.2)" in refusal(AP, fields)
    assert "(20.2)" in refusal(AP_HEX, fields)


def test_an_entrenchment_elsewhere_adds_to_the_hex_terrain():
    inp = VvApAttack(apfp=6, target_terrain="woods", fortification="foxhole")
    assert total(inp) == 3  # woods +2, foxhole +1 (20.9)


def test_the_cli_refuses_a_foxhole_in_a_building_in_one_line(capsys):
    args = ("--apfp", "6", "--target-terrain", "building", "--fortification", "foxhole")
    code, _, err = run_cli(capsys, "odds", "vv", "ap_attack", *args)
    assert code == 2
    assert "foxhole" in err
    assert "20.2" in err
    assert len(err.strip().splitlines()) == 1


def small_board(terrain: dict[str, str], hexsides: dict[tuple[str, str], str] = {}) -> Board:  # noqa: B006 - read only
    def at(label: str):
        return from_offset(int(label[:2]), int(label[2:]))

    return Board(
        "test",
        "vv",
        6,
        6,
        terrain={at(k): v for k, v in terrain.items()},
        hexsides={hexside(at(a), at(b)): f for (a, b), f in hexsides.items()},
        default_terrain="open",
    )


@pytest.mark.parametrize("terrain", ["marsh", "pond", "canal", "building"])
def test_a_board_refuses_an_entrenchment_where_20_2_forbids_it(terrain):
    board = small_board({"0103": terrain})
    inp = VvApAttack(apfp=6, fortification="trench")
    with pytest.raises(FirefightError, match=r"20\.2"):
        with_board(inp, board, from_offset(1, 1), from_offset(1, 3))


@pytest.mark.parametrize("terrain", ["orchard", "crops", "building", "woods", "stream"])
@pytest.mark.parametrize("fortification", ["concrete_bunker", "wood_earth_bunker", "sandbags"])
def test_a_fortification_outside_open_terrain_is_refused(terrain, fortification):
    fields = {"apfp": 6, "target_terrain": terrain, "fortification": fortification}
    assert "open terrain (20.2" in refusal(AP, fields)


@pytest.mark.parametrize("terrain", ["haystack", "palm_grove", "bridge", "river", "ocean"])
def test_a_board_refuses_a_fortification_outside_open_terrain(terrain):
    board = small_board({"0103": terrain})
    inp = VvApAttack(apfp=6, fortification="sandbags")
    with pytest.raises(FirefightError, match=r"open terrain \(20\.2"):
        with_board(inp, board, from_offset(1, 1), from_offset(1, 3))


@pytest.mark.parametrize("terrain", ["open", "road", "field"])
def test_a_fortification_in_open_terrain_adds_its_cover(terrain):
    inp = VvApAttack(apfp=6, target_terrain=terrain, fortification="sandbags")
    assert total(inp) == 2  # sandbags +2 (20.6); open, road and field give no cover


@pytest.mark.parametrize("target", [(1, 1), (1, 2)])
def test_a_mortar_on_a_board_may_not_fire_inside_its_minimum_range(target):
    inp = VvApAttack(apfp=4, attack="mortar")
    with pytest.raises(FirefightError, match=r"minimum range is 2 hexes \(12\.65\)"):
        with_board(inp, small_board({}), from_offset(1, 1), from_offset(*target))
    assert with_board(inp, small_board({}), from_offset(1, 1), from_offset(1, 3)).attack == "mortar"


def test_a_mortar_on_a_board_may_not_fire_from_a_building():
    board = small_board({"0101": "building"})
    with pytest.raises(FirefightError, match=r"building hexes \(12\.61\)"):
        with_board(VvApAttack(apfp=4, attack="mortar"), board, from_offset(1, 1), from_offset(1, 4))
    fire = with_board(VvApAttack(apfp=4), board, from_offset(1, 1), from_offset(1, 4))
    assert fire.target_terrain == "open"


@pytest.mark.parametrize(
    ("terrain", "attack", "expected"),
    [
        ("haystack", "light_barrage", 1),
        ("palm_grove", "mortar", 1),
        ("bridge", "heavy_barrage", 0),
        ("marsh", "mortar", 0),
        ("woods", "mortar", 2),
    ],
)
def test_a_board_hexs_terrain_replaces_the_inputs_target_terrain(terrain, attack, expected):
    board = small_board({"0104": terrain})
    inp = VvApAttack(apfp=4, attack=attack, target_terrain="building")
    found = with_board(inp, board, from_offset(1, 1), from_offset(1, 4))
    assert total(found) == expected  # the hex's row (21.5, 12.63), never the input's building


# --- 13.5 and 13.6: the citations -----------------------------------------------------------------


def test_the_leadership_modifier_is_cited_as_13_6():
    inp = VvApAttack(apfp=6, leadership_modifier=-1)
    assert rules_of(inp)["leadership modifier"].startswith("13.6")
    assert "13.6" in (VvApAttack.model_fields["leadership_modifier"].description or "")
    barrage = {"attack": "light_barrage", "leadership_modifier": -1}
    assert "13.6" in refusal(AP, barrage)


def test_a_moving_gun_has_no_shield_by_13_5():
    for model in (VvApAttackHex, VvApplyCasualties):
        assert "13.5" in (model.model_fields["gun_moving"].description or "")


def test_the_docs_cite_13_6_for_the_leader_and_13_5_for_the_gun_shield():
    text = DOCS.read_text(encoding="utf-8")
    assert "Leadership Modifier (13.5)" not in text
    assert "Leadership Modifier (13.6)" in text


# --- 21.5: support missions read the target hex only ------------------------------------------


@pytest.mark.parametrize("attack", ["fighter_bomber", "light_barrage", "heavy_barrage"])
def test_a_support_mission_refuses_hindrances_as_at_attack_does(attack):
    assert "21.5" in refusal(AP, {"attack": attack, "hindrance": 1})
    strike = {"atfp": "B", "weapon": "artillery_strike", "front_armour": "C", "hindrance": 1}
    assert "21.5" in refusal(AT, strike)


def test_a_support_mission_counts_an_orchard_target_hex_as_its_terrain():
    inp = VvApAttack(attack="light_barrage", target_terrain="orchard")
    assert total(inp) == 1
    assert "21.5" in rules_of(inp)["target in orchard (the target hex's terrain)"]
    fire = VvApAttack(apfp=6, target_terrain="orchard")
    assert total(fire) == 0  # a fire attack counts it in 'hindrance', along its LOS


def test_a_barrage_on_a_board_ignores_the_hedges_around_the_target():
    board = small_board({}, {("0102", "0103"): "hedge"})
    fire = with_board(VvApAttack(apfp=6), board, from_offset(1, 1), from_offset(1, 3))
    assert fire.hindrance == 1
    barrage = VvApAttack(attack="heavy_barrage")
    assert with_board(barrage, board, from_offset(1, 1), from_offset(1, 3)).hindrance == 0


# --- 12.52: grenades ------------------------------------------------------------------------------


def test_grenades_subtract_one_each_from_an_ap_attack_on_an_adjacent_hex():
    inp = VvApAttack(apfp=6, adjacent=True, grenades=2)
    assert rules_of(inp)["grenades (2)"] == "12.52"
    assert total(inp) == -2
    with_grenades = AP.odds(AP.parse({"apfp": 6, "adjacent": True, "grenades": 1}))
    plain = AP.odds(AP.parse({"apfp": 6, "adjacent": True}))
    assert with_grenades["-"] < plain["-"]


def test_grenades_need_an_adjacent_target():
    assert "12.52" in refusal(AP, {"apfp": 6, "grenades": 1})


# --- 6.4: Assault Movement ------------------------------------------------------------------------


def test_assault_movement_is_plus_one_cover_and_cancels_opportunity_fires_minus_one():
    moving = VvApAttack(apfp=6, opportunity_fire=True)
    assert total(moving) == -1
    assaulting = moving.model_copy(update={"target_assault_movement": True})
    assert rules_of(assaulting) == {"target using Assault Movement": "6.4"}
    assert total(assaulting) == 1
    reading = assaulting.model_copy(update={"opportunity_no_cover": "no_positive_cover"})
    assert total(reading) == 1


def test_assault_movement_is_only_seen_by_opportunity_fire():
    assert "6.4" in refusal(AP, {"apfp": 6, "target_assault_movement": True})


# --- 12.61-12.65: mortars -------------------------------------------------------------------------


def test_mortars_make_no_opportunity_fire():
    assert "12.61" in refusal(AP, {"apfp": 2, "attack": "mortar", "opportunity_fire": True})


def test_a_mortar_reads_only_the_target_hex():
    assert "12.63" in refusal(AP, {"apfp": 2, "attack": "mortar", "hindrance": 1})
    inp = VvApAttack(apfp=2, attack="mortar", target_terrain="crops", leadership_modifier=-1)
    assert total(inp) == 0  # crops +1 (the target hex's terrain), leader -1 (12.61)


def test_a_mortars_casualty_points_on_infantry_in_woods_are_doubled():
    woods = AP.odds(AP.parse({"apfp": 4, "attack": "mortar", "target_terrain": "woods"}))
    fire = AP.odds(AP.parse({"apfp": 4, "target_terrain": "woods"}))
    assert woods["2"] == fire["1"]
    assert woods["1"] == 0
    trace = AP.replay(AP.parse({"apfp": 4, "attack": "mortar", "target_terrain": "woods"}), [1, 2])
    assert any(event.label == "12.64 air burst" for event in trace.trace)
    vehicles = {"apfp": 4, "attack": "mortar", "target_terrain": "woods", "target_infantry": False}
    assert AP.odds(AP.parse(vehicles)) == fire


def test_a_mortar_may_not_fire_inside_its_minimum_range():
    assert "12.65" in refusal(AP, {"apfp": 2, "attack": "mortar", "adjacent": True})
    near = {"atfp": "A", "weapon": "on_board_mortar", "target": "unarmoured_vehicle"}
    assert "12.65" in refusal(AT, near)
    assert AT.odds(AT.parse({**near, "range_hexes": 2}))


# --- 20.5: no ATFP on a unit in a bunker ------------------------------------------------------


def test_a_unit_in_a_bunker_cannot_be_targeted_with_atfp():
    shot = {"atfp": "C", "weapon": "gun", "target": "gun", "target_in_bunker": True}
    assert "20.5" in refusal(AT, shot)


# --- 16.2 and 17.2: natural 2 and 12 ----------------------------------------------------------

INFANTRY_ROLLS = [
    (AP, {"apfp": 6}),
    (AP, {"apfp": 2, "attack": "mortar"}),
    (AP_HEX, {"apfp": 6}),
    (AT, {"atfp": "C", "target": "unarmoured_vehicle"}),
]


def labels(procedure, fields: dict[str, object], dice: list[int]) -> list[str]:
    return [event.label for event in procedure.replay(procedure.parse(fields), dice).trace]


@pytest.mark.parametrize(("procedure", "fields"), INFANTRY_ROLLS)
def test_a_natural_twelve_and_a_natural_two_are_shown_in_the_trace(procedure, fields):
    assert "17.2 natural 12" in labels(procedure, fields, [6, 6])
    assert "16.2 natural 2" in labels(procedure, fields, [1, 1])
    quiet = labels(procedure, fields, [3, 4])
    assert "17.2 natural 12" not in quiet
    assert "16.2 natural 2" not in quiet


@pytest.mark.parametrize(("procedure", "fields"), INFANTRY_ROLLS)
def test_the_facts_give_the_chance_of_each_as_the_rolls_do(procedure, fields):
    found = dict(procedure.facts(procedure.parse(fields)))
    counted = {"16.2 natural 2": 0, "17.2 natural 12": 0}
    for first, second in product(range(1, 7), repeat=2):
        for label in labels(procedure, fields, [first, second]):
            if label in counted:
                counted[label] += 1
    assert found["natural 2: valor checks (16.2)"] == str(Fraction(counted["16.2 natural 2"], 36))
    assert found["natural 12: sniper activated (17.2)"] == str(
        Fraction(counted["17.2 natural 12"], 36)
    )
    assert found["natural 12: sniper activated (17.2)"] == "1/36"


def test_a_barrage_or_a_gun_calls_for_no_valor_check_or_sniper():
    assert "17.2 natural 12" not in labels(AP, {"attack": "heavy_barrage"}, [6, 6])
    gun = {"atfp": "C", "weapon": "gun", "target": "unarmoured_vehicle"}
    assert "17.2 natural 12" not in labels(AT, gun, [6, 6])
    assert "natural 12: sniper activated (17.2)" not in dict(AT.facts(AT.parse(gun)))


def test_the_cli_says_a_natural_twelve_activates_a_sniper(capsys):
    code, out, _ = run_cli(capsys, "resolve", "vv", "ap_attack", "--apfp", "6", "--roll", "6,6")
    assert code == 0
    assert "17.2 natural 12" in out
    code, out, _ = run_cli(capsys, "modifiers", "vv", "ap_attack", "--apfp", "6")
    assert "1/36" in out


# --- 14.64: the attack's total CPs, the stricter reading -------------------------------------

TRUCK = {"unit1": "squad", "unit2": "unarmoured_vehicle", "unit2_casualty_rating": 3}


def test_by_default_the_cps_applied_to_a_vehicle_decide_its_survival_roll():
    inp = APPLY.parse({**TRUCK, "cps": 5, "allocation": "unit1 reduce, unit2 survival 3"})
    assert APPLY.odds(inp)["unit1 reduced, unit2 pinned"] == Fraction(1, 2)


def test_the_attack_total_reading_gives_no_survival_roll_when_the_cps_exceed_the_rating():
    strict = {**TRUCK, "cps": 5, "survival_reading": "attack_total"}
    message = refusal(APPLY, {**strict, "allocation": "unit1 reduce, unit2 survival 3"})
    assert "14.64" in message
    assert "attack_total" in message
    outright = APPLY.parse({**strict, "allocation": "unit1 reduce, unit2 destroy"})
    assert APPLY.odds(outright)["unit1 reduced, unit2 eliminated"] == 1
    within = APPLY.parse(
        {**TRUCK, "cps": 3, "survival_reading": "attack_total", "allocation": "unit2 survival 3"}
    )
    assert APPLY.odds(within)["unit1 unhurt, unit2 pinned"] == Fraction(1, 2)
    assert dict(APPLY.facts(within))["survival roll (14.64)"] == "attack_total"


def test_the_attack_total_reading_changes_the_policys_odds_on_a_hex():
    hex_fields = {**TRUCK, "apfp": 24, "unit1_casualty_rating": 4}
    default = AP_HEX.odds(AP_HEX.parse(hex_fields))
    strict = AP_HEX.odds(AP_HEX.parse({**hex_fields, "survival_reading": "attack_total"}))
    assert default != strict
    assert sum(strict.values()) == 1
