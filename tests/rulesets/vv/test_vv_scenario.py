"""V&V scenarios: the sample loads; a bad file is one line naming file, unit, field."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from firefight.rulesets.vv.scenario import (
    BoardScenarioError as ScenarioError,
)
from firefight.rulesets.vv.scenario import (
    ffa_contains,
    scenario_from_data,
    stacking_problem,
)
from firefight.rulesets.vv.scenario import (
    load_board_scenario as load_scenario,
)
from firefight.rulesets.vv.scenario import (
    sample_board_scenarios as sample_scenarios,
)

SAMPLE = sample_scenarios()["village"]


def _data() -> dict[str, object]:
    return tomllib.loads(SAMPLE.read_text())


def _with_unit(**changes: object) -> dict[str, object]:
    data = _data()
    units = data["units"]
    assert isinstance(units, list)
    units[0] = {**units[0], **changes}
    return data


def _error(data: dict[str, object]) -> str:
    with pytest.raises(ScenarioError) as caught:
        scenario_from_data(data, "bad.toml")
    text = str(caught.value)
    assert "\n" not in text
    return text


def test_the_sample_scenario_puts_units_on_the_village_board() -> None:
    scenario = load_scenario("village")
    board = scenario.board
    assert scenario.board_name == "vv_village"
    assert {u.id for u in scenario.units_at(board.hex("0206"))} == {"us-sq1", "us-sq2", "us-ldr"}
    assert scenario.unit("de-sq1").support_weapons[0].kind == "mg"
    assert scenario.fortification_at(board.hex("0504")).kind == "barbed_wire"  # type: ignore[union-attr]
    assert scenario.snipers[0].side == "de"


def test_a_unit_off_the_board_names_the_file_unit_and_field() -> None:
    text = _error(_with_unit(hex="2020"))
    assert text.startswith("bad.toml: unit 'us-sq1': 'hex' must be a hex of board")
    assert "(got '2020')" in text


def test_a_missing_printed_value_names_the_value_its_type_needs() -> None:
    data = _with_unit()
    del data["units"][0]["half_squad_rating"]  # type: ignore[index]
    text = _error(data)
    assert text.startswith("bad.toml: unit 'us-sq1': 'half_squad_rating' is missing")
    assert "14.61" in text


def test_a_leader_without_a_leadership_modifier_is_refused() -> None:
    data = _data()
    del data["units"][2]["leadership_modifier"]  # type: ignore[index]
    assert "unit 'us-ldr': 'leadership_modifier' is missing" in _error(data)


def test_over_the_stacking_limit_names_the_hex_and_the_limit() -> None:
    data = _data()
    units = data["units"]
    assert isinstance(units, list)
    units.extend({**units[1], "id": f"extra{n}"} for n in range(2))
    text = _error(data)
    assert "unit 'extra1': 'hex' 0206 is over the stacking limit (6.9): 5 infantry units" in text


def test_prohibited_terrain_is_refused() -> None:
    data = _data()
    data["units"].append(  # type: ignore[union-attr]
        {
            "id": "jeep",
            "side": "us",
            "type": "unarmoured_vehicle",
            "hex": "0605",
            "apfp": 2,
            "casualty_rating": 2,
            "movement_points": 8,
            "facing": 3,
        }
    )
    data["units"] = [u for u in data["units"] if u["hex"] != "0605" or u["id"] == "jeep"]  # type: ignore[union-attr,index]
    text = _error(data)
    assert (
        "unit 'jeep': 'hex' must be a hex a unarmoured vehicle may stand in (not building" in text
    )


def test_a_bad_value_names_the_allowed_values() -> None:
    assert "'type' must be one of squad, half_squad, leader" in _error(_with_unit(type="tank"))
    assert "'state' must be one of full, reduced, pinned" in _error(_with_unit(state="broken"))
    assert "'side' must be one of us, de (got 'ru')" in _error(_with_unit(side="ru"))
    assert "'field' must be one of id" in _error(_with_unit(colour="red"))


def test_enemy_units_may_not_share_a_hex() -> None:
    assert "must not hold enemy units (6.8" in _error(_with_unit(hex="0605"))


def test_a_fortification_where_20_2_forbids_it_is_refused() -> None:
    data = _data()
    data["fortifications"] = [{"hex": "0605", "kind": "barbed_wire"}]
    assert "fortifications[0]: 'hex' must be an open terrain hex" in _error(data)


def test_a_bad_board_or_file_is_one_line(tmp_path: Path) -> None:
    data = _data()
    data["board"] = "nowhere"
    assert "'board' must be" in _error(data)
    bad = tmp_path / "broken.toml"
    bad.write_text("board = [")
    with pytest.raises(ScenarioError, match=r"^broken.toml: "):
        load_scenario(bad)


def test_stacking_limits_follow_6_9() -> None:
    assert stacking_problem(["squad"] * 4) is None
    assert stacking_problem(["afv", "squad", "leader"]) is None
    assert stacking_problem(["afv", "gun"]) is None
    assert stacking_problem(["afv", "squad", "leader", "squad"]) is not None
    assert stacking_problem(["afv", "gun", "squad"]) is not None


def test_the_forward_firing_arc_takes_the_diagram_s_edge_hexes() -> None:
    scenario = load_scenario("village")
    gun = scenario.unit("de-sq1").__class__(
        id="g", side="de", type="gun", hex=scenario.board.hex("0806"), facing=1
    )
    here = gun.hex
    assert ffa_contains(gun, here.neighbour(1))
    assert ffa_contains(gun, here.neighbour(2))  # on the arc's edge: inside (7.4 diagram)
    assert ffa_contains(gun, here.neighbour(6))
    assert not ffa_contains(gun, here.neighbour(3))
    assert not ffa_contains(gun, here.neighbour(4))
