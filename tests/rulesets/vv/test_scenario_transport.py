"""V&V scenario files carry what a counter has (14.3, 18.1, 18.4, 18.5, 19.4): AT FP and Armor
Ratings as the rulebook's letters, passengers on their transport; the AT move and the overrun
read them, the command line giving what the file does not say and never disagreeing."""

from __future__ import annotations

import tomllib
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from firefight.errors import FirefightError, InputError
from firefight.rulesets.vv.at_move import at_options, build_at_move
from firefight.rulesets.vv.movement import plan_move
from firefight.rulesets.vv.opportunity import firers
from firefight.rulesets.vv.overrun_move import build_overrun
from firefight.rulesets.vv.scenario import (
    BoardScenario,
    BoardScenarioError,
    SupportWeapon,
    load_board_scenario,
    passenger_overrun_apfp,
    sample_board_scenarios,
    scenario_from_data,
)
from firefight.rulesets.vv.scenario_ratings import carried_apfp, scenario_at_ratings
from tests.rulesets.vv.move_helpers import leader, scenario, squad

ARMOUR = sample_board_scenarios()["armour"]
OVERRUN = ["0211", "0210", "0309"]
"""The Sherman's overrun of the Panzerschreck squad in 0309, into 0409."""


def _data() -> dict[str, Any]:
    return tomllib.loads(ARMOUR.read_text(encoding="utf-8"))


def _unit(data: dict[str, Any], unit_id: str) -> dict[str, Any]:
    return next(u for u in data["units"] if u["id"] == unit_id)


def _error(data: dict[str, Any]) -> str:
    with pytest.raises(BoardScenarioError) as caught:
        scenario_from_data(data, "bad.toml")
    text = str(caught.value)
    assert "\n" not in text
    return text


def _changed(unit_id: str, **changes: Any) -> dict[str, Any]:
    data = _data()
    unit = _unit(data, unit_id)
    unit.update(changes)
    for key in [k for k, v in changes.items() if v is None]:
        del unit[key]
    return data


def test_the_armour_sample_carries_ratings_armour_and_passengers() -> None:
    s = load_board_scenario("armour")
    assert s.unit("us-sherman").armour == ("E", "C")
    assert s.unit("de-pak").at_rating == "E"
    assert s.unit("de-schreck").at_rating == "D"  # its Panzerschreck's (18.1)
    assert [u.id for u in s.passengers_of("us-sherman")] == ["us-riders", "us-riders-ldr"]
    assert scenario_at_ratings(s, "us") == {"de-schreck": "D", "de-pak": "E"}
    shown = {u["id"]: u for u in s.to_json()["units"]}  # type: ignore[attr-defined]
    assert shown["us-sherman"]["armour"] == ["E", "C"]
    assert shown["de-schreck"]["atfp"] == "D"
    assert shown["us-riders"]["carried_by"] == "us-sherman"


@pytest.mark.parametrize(
    ("unit_id", "changes", "message"),
    [
        (
            "de-pak",
            {"atfp": 10},
            "unit 'de-pak': 'atfp' must be an AT FP Rating, a letter A-F (18.4) (got 10)",
        ),
        ("de-pak", {"atfp": "G"}, "'atfp' must be an AT FP Rating, a letter A-F (18.4) (got 'G')"),
        (
            "us-sherman",
            {"armour": [9, 6, 4]},
            '\'armour\' must be an Armor Rating A-F ("E") or [front, rear] ratings (["E", "C"]; '
            "18.5) (got [9, 6, 4])",
        ),
        ("us-sherman", {"armour": ["E", "C", "B"]}, "'armour' must be an Armor Rating A-F"),
        ("de-pak", {"armour": "E"}, "'armour' must be left out for a unit that is not an AFV"),
        ("de-schreck", {"atfp": "D"}, "'atfp' must be left out for infantry (18.1"),
        (
            "de-schreck",
            {
                "support_weapons": [
                    {"name": "MG", "class": "L", "kind": "mg", "apfp": 2, "atfp": "B"}
                ]
            },
            "support_weapons[0]: 'atfp' must be left out for a weapon not of kind anti_tank",
        ),
    ],
)
def test_bad_ratings_are_one_line_naming_the_field(unit_id, changes, message) -> None:
    assert message in _error(_changed(unit_id, **changes))


def test_ratings_are_read_in_any_case_and_one_armor_rating_serves_both_facings() -> None:
    s = scenario_from_data(_changed("us-sherman", armour="d", atfp="c"), "ok.toml")
    assert s.unit("us-sherman").armour == ("D", "D")
    assert s.unit("us-sherman").atfp == "C"
    s = scenario_from_data(_changed("us-sherman", armour=["f"]), "ok.toml")
    assert s.unit("us-sherman").armour == ("F", "F")


@pytest.mark.parametrize(
    ("unit_id", "changes", "message"),
    [
        (
            "us-riders",
            {"carried_by": "us-nobody"},
            "'carried_by' must be the id of an AFV or vehicle of its side: us-sherman, us-truck "
            "(got 'us-nobody')",
        ),
        ("us-riders", {"carried_by": "de-pak"}, "'carried_by' must be the id of an AFV or vehicle"),
        ("us-riders", {"carried_by": "us-riders-ldr"}, "'carried_by' must be the id of an AFV"),
        (
            "us-riders",
            {"carried_by": "us-truck"},
            "a vehicle of its side in its hex (us-truck is not)",
        ),
        ("us-truck", {"carried_by": "us-sherman", "hex": "0212"}, "left out for a vehicle (14.3"),
        (
            "us-sherman",
            {"state": "pinned"},
            "a transport it is pinned with (14.7: us-sherman is pinned",
        ),
    ],
)
def test_a_bad_transport_is_one_line(unit_id, changes, message) -> None:
    text = _error(_changed(unit_id, **changes))
    assert message in text
    assert "'carried_by'" in text


def test_a_vehicle_carries_two_infantry_units_and_only_it_stacks(tmp_path: Path) -> None:
    """6.9: "Only the transport vehicle counts against the stacking limit"; the limit of
    passengers is :data:`PASSENGER_LIMIT` (two)."""
    data = _data()
    extra = squad("us-sq", "us", "0212")
    data["units"].append(extra)  # the Sherman, its two riders and two more squads: 1 + 2
    data["units"].append({**extra, "id": "us-sq2"})
    s = scenario_from_data(data, "ok.toml")
    assert len(s.units_at(s.board.hex("0212"))) == 5
    data["units"].append({**extra, "id": "us-sq3"})
    assert "over the stacking limit (6.9)" in _error(data)
    data = _data()
    data["units"].append({**extra, "id": "us-sq4", "carried_by": "us-sherman"})
    assert "at most 2 infantry units or one Gun (6.9; us-sherman carries 3)" in _error(data)


def test_the_move_and_the_overrun_read_the_files_ratings_and_armour() -> None:
    s = load_board_scenario("armour")
    plan = plan_move(s, "0212", ["0211", "0210", "0209"])
    assert [u.id for u in plan.stack] == ["us-sherman"]  # the riders ride (14.3)
    from_file = build_at_move(plan, "threshold")
    given = build_at_move(plan, "threshold", ratings={"de-pak": "e"}, armour=("E", "C"))
    assert from_file.at_attacks == given.at_attacks
    assert {a.firer.id for a in from_file.at_attacks} == {"de-pak", "de-schreck"}
    overrun = build_overrun(s, "0212", OVERRUN)
    assert overrun.attack.passenger_apfp == 7  # riders 4 + BAR 2, Sgt. Kowalski 1 (19.4)
    assert overrun.to_json()["attack"]["apfp"] == 2 * 8 + 7  # type: ignore[index]


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda p: at_options(p, {"de-pak": "C"}),
            "'at.de-pak' must be the scenario's AT FP Rating E (or left out) (got 'C')",
        ),
        (
            lambda p: at_options(p, {}, ("E", "D")),
            "'armour' must be the scenario's Armor Ratings E/C for us-sherman (or left out) "
            "(got 'E/D')",
        ),
        (
            lambda p: at_options(p, {}, {"us-sherman": ("B", "B")}),
            "Armor Ratings E/C for us-sherman",
        ),
    ],
)
def test_the_command_line_never_disagrees_with_the_file(call, message) -> None:
    plan = plan_move(load_board_scenario("armour"), "0212", ["0211"])
    with pytest.raises(InputError) as caught:
        call(plan)
    assert message in str(caught.value)


def test_the_command_line_gives_what_the_file_does_not_say() -> None:
    data = _changed("de-pak", atfp=None)
    _unit(data, "us-sherman").pop("armour")
    s = scenario_from_data(data, "bare.toml")
    plan = plan_move(s, "0212", ["0211"])
    with pytest.raises(InputError, match="'armour' must be the moving AFVs' Armor Ratings"):
        at_options(plan, {})
    found = at_options(plan, {"de-pak": "E"}, ("E", "C"))
    assert set(found) == {"de-pak", "de-schreck"}
    with pytest.raises(InputError, match="'armour' must be the AFV's Armor Ratings"):
        build_overrun(s, "0212", OVERRUN)
    assert build_overrun(s, "0212", OVERRUN, armour=("E", "C")).attack.passenger_apfp == 7


def test_the_overruns_passenger_apfp_comes_from_the_file_or_the_option() -> None:
    s = load_board_scenario("armour")
    assert build_overrun(s, "0212", OVERRUN, passenger_apfp=7).attack.passenger_apfp == 7
    with pytest.raises(InputError) as caught:
        build_overrun(s, "0212", OVERRUN, passenger_apfp=3)
    assert str(caught.value) == (
        "'passenger_apfp' must be the scenario's passengers' APFP 7 (us-riders, us-riders-ldr; "
        "or left out) (got 3)"
    )
    data = _data()
    data["units"] = [u for u in data["units"] if "carried_by" not in u]
    alone = scenario_from_data(data, "alone.toml")
    assert build_overrun(alone, "0212", OVERRUN).attack.passenger_apfp == 0
    assert build_overrun(alone, "0212", OVERRUN, passenger_apfp=5).attack.passenger_apfp == 5


def test_what_a_passenger_adds_to_an_overrun() -> None:
    """19.4 with 14.3's weapons: L MGs or one satchel charge, grenades besides; pinned
    passengers add nothing (14.7); a reduced squad adds its half squad's APFP."""
    s = load_board_scenario("armour")
    riders = s.unit("us-riders")
    assert passenger_overrun_apfp(riders) == 6
    assert passenger_overrun_apfp(replace(riders, state="reduced")) == 2 + 2
    assert passenger_overrun_apfp(replace(riders, state="pinned")) == 0
    satchel = SupportWeapon("satchel", "X", "satchel", 4, 1)
    grenades = SupportWeapon("grenades", "X", "grenades", 1, 1)
    heavy = SupportWeapon("M1919", "H", "mg", 5, 8)
    assert (
        passenger_overrun_apfp(replace(riders, support_weapons=(heavy, satchel, grenades)))
        == 4 + 4 + 1
    )
    assert carried_apfp(s, s.unit("us-sherman")) == 7


def test_an_afv_towing_a_gun_may_not_overrun(tmp_path: Path) -> None:
    data = _data()
    data["units"] = [u for u in data["units"] if "carried_by" not in u]
    data["units"].append(
        {
            "id": "us-57",
            "side": "us",
            "type": "gun",
            "hex": "0212",
            "apfp": 2,
            "casualty_rating": 2,
            "facing": 1,
            "carried_by": "us-sherman",
        }
    )
    s = scenario_from_data(data, "towing.toml")
    with pytest.raises(
        FirefightError, match=r"towing\) a Gun may not make an overrun attack \(19.1\)"
    ):
        build_overrun(s, "0212", OVERRUN)


def test_passengers_neither_move_alone_nor_fire_on_opportunity_nor_fire_at() -> None:
    s = load_board_scenario("armour")
    with pytest.raises(InputError, match="'units' must be units not carried by a vehicle"):
        plan_move(s, "0212", ["0211"], units=["us-riders"])
    assert all("us-riders" not in f.id for f in firers(s, "de"))  # 14.3 fire group not modelled
    bazooka = {"name": "Bazooka", "class": "L", "kind": "anti_tank", "range": 3, "atfp": "C"}
    armed = scenario_from_data(_changed("us-riders", support_weapons=[bazooka]), "bazooka.toml")
    assert armed.unit("us-riders").at_rating is None  # 18.1: transported infantry fire no AT
    assert "us-riders" not in scenario_at_ratings(armed, "de")
    with pytest.raises(InputError, match="passengers make no AT attack"):
        at_options(plan_move(armed, "0309", ["0308"]), {"us-riders": "C"})


def test_an_overrun_target_hexs_passengers_ride_their_vehicle(tmp_path: Path) -> None:
    """14.65: infantry carried by an unarmoured vehicle in the target hex take CPs only as
    collateral damage of their vehicle: they are not defenders of their own."""
    truck = {
        "id": "de-truck",
        "side": "de",
        "type": "unarmoured_vehicle",
        "hex": "0405",
        "apfp": 2,
        "casualty_rating": 2,
        "movement_points": 12,
        "facing": 1,
    }
    tank = {
        "id": "us-t",
        "side": "us",
        "type": "afv",
        "hex": "0105",
        "apfp": 6,
        "armour": "C",
        "movement_points": 10,
        "facing": 1,
    }
    s: BoardScenario = scenario(
        tmp_path,
        [
            tank,
            truck,
            squad("de-sq", "de", "0405", carried_by="de-truck"),
            leader("de-ldr", "de", "0405", carried_by="de-truck"),
        ],
    )
    setup = build_overrun(s, "0105", ["0205", "0305", "0405"])
    assert [u.id for u in setup.defenders] == ["de-truck"]
    (vehicle,) = setup.hex_units
    assert [p.name for p in vehicle.passengers] == ["de-sq", "de-ldr"]
