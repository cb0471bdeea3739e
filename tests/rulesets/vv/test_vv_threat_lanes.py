"""Fire lanes on the V&V threat map (13.9, 13.91): the lanes standing when a side
moves attack a unit entering their hexes; each lane hex's chance joins its firers' chance, and
the picture draws the lanes. The ``after_mg_pinned`` reading of a standing lane (13.9, 14.7)."""

from __future__ import annotations

import ast
import tomllib
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest

from firefight.errors import InputError
from firefight.rulesets.vv.lane_attack import (
    FIRE_LANE_ATTACK,
    MAX_MARKERS,
    VvFireLaneAttack,
    lane_attack_input,
    lane_threat,
)
from firefight.rulesets.vv.lanes import LaneReadings
from firefight.rulesets.vv.lanes_standing import lane_fire, lanes_laid_earlier
from firefight.rulesets.vv.scenario import (
    load_board_scenario as load_scenario,
)
from firefight.rulesets.vv.scenario import (
    sample_board_scenarios as sample_scenarios,
)
from firefight.rulesets.vv.scenario import (
    scenario_from_data,
)
from firefight.rulesets.vv.threat import ThreatTarget, threat_json, threat_map, threat_overlay

ONE = Fraction(1)


@pytest.fixture(scope="module")
def village():
    return load_scenario("village")


@pytest.fixture(scope="module")
def bare(village):
    return threat_map(village, "us")


def _variant(**units: dict[str, object]):
    """The sample with some units changed (by id)."""
    data = tomllib.loads(sample_scenarios()["village"].read_text())
    for unit in data["units"]:
        unit.update(units.get(unit["id"], {}))
    return scenario_from_data(data, "variant.toml")


def _lane_hit(markers: int, least: int = 1) -> Fraction:
    """The lane attack procedure's own odds of at least ``least`` CPs (13.9, 13.91)."""
    odds = FIRE_LANE_ATTACK.odds(VvFireLaneAttack(markers=markers))
    return sum((p for cps, p in odds.items() if cps != "-" and int(cps) >= least), Fraction(0))


def test_a_standing_lane_attacks_a_unit_entering_its_hexes_on_the_threat_map(village, bare):
    lanes = lanes_laid_earlier(village, [("0605", "0305")])
    found = threat_map(village, "us", lanes=lanes)
    here = village.board.hex("0405")
    lane = found.hexes[here].lanes
    assert lane is not None
    assert (lane.mgs, lane.markers, lane.hit) == (("standing lane 1",), 1, Fraction(5, 12))
    # 13.8: the MG that laid the lane (de-sq1's) has fired: its squad is no firer on the map,
    # as in the move (lane_fire); the map of the scenario with its Fire marker, lanes aside
    fired = threat_map(lane_fire(village, lanes), "us")
    assert found.hexes[here].firers == fired.hexes[here].firers != bare.hexes[here].firers
    assert all("de-sq1" not in [u.id for u in f.group.units] for f in found.hexes[here].firers)
    # the lane's roll is independent of the firers': 1 - (1 - p_fire)(1 - p_lane)
    before = fired.hexes[here].pinned_or_worse
    assert found.hexes[here].pinned_or_worse == 1 - (1 - before) * (1 - Fraction(5, 12))
    # a hex off the lane keeps the chance of the firers left
    other = village.board.hex("0406")
    assert found.hexes[other].pinned_or_worse == fired.hexes[other].pinned_or_worse
    assert found.hexes[other].lanes is None


MG34 = {"name": "MG34", "class": "L", "kind": "mg", "apfp": 3, "range": 8}


def test_two_mgs_lanes_in_a_hex_attack_with_the_crossfire_modifier():
    """Two MGs in 0605 (the squad's MG42, the leader's MG34), one lane each along one path."""
    two = _variant(**{"de-ldr": {"support_weapons": [MG34]}})
    lanes = lanes_laid_earlier(two, [("0605", "0305"), ("0605", "0305")])
    assert [lane.unit for lane in lanes] == ["de-sq1", "de-ldr"]
    found = threat_map(two, "us", lanes=lanes)
    lane = found.hexes[two.board.hex("0305")].lanes
    assert lane is not None
    assert lane.markers == 2
    assert lane.hit == _lane_hit(2) == Fraction(7, 12)  # 13.91's example: no effect 5/12


def test_a_lane_hex_no_firer_reaches_is_on_the_map_and_enemy_hexes_are_not(village, bare):
    """A pinned MG team's lane (it laid the lane, then was pinned: it stays, 13.9) into a hex no
    firer reaches; a lane ending in a hex the enemy holds is off the map (6.8)."""
    board = village.board
    quiet = next(
        h
        for h in board.hexes()
        if h not in bare.hexes and not village.units_at(h) and board.terrain_of(h) == "open"
    )
    start = next(n for n in quiet.neighbours() if n in board and not village.units_at(n))
    pinned_mg = _variant(**{"de-mg": {"hex": board.label(start), "state": "pinned"}})
    lanes = lanes_laid_earlier(pinned_mg, [(board.label(start), board.label(quiet))])
    found = threat_map(pinned_mg, "us", lanes=lanes)
    assert found.hexes[quiet].firers == ()
    assert found.hexes[quiet].pinned_or_worse == Fraction(5, 12)
    # a lane into the enemy's own hex: no one of the side enters it (6.8)
    held = _variant(**{"de-hs": {"hex": "0305"}})
    through = threat_map(held, "us", lanes=lanes_laid_earlier(held, [("0605", "0305")]))
    assert board.hex("0305") not in through.hexes
    assert board.hex("0405") in through.hexes


def test_a_valorous_target_needs_two_cps_from_a_lane(village):
    lanes = lanes_laid_earlier(village, [("0605", "0305")])
    target = ThreatTarget("a valorous squad", ignores_first_cp=True)
    found = threat_map(village, "us", lanes=lanes, target=target)
    lane = found.hexes[village.board.hex("0405")].lanes
    assert lane is not None
    assert lane.hit == _lane_hit(1, least=2) == Fraction(10, 36)  # 5, 4, 3, 2 CPs on 2..5


def test_threat_json_lists_the_lanes_and_each_hexs_lane_attack(village):
    lanes = lanes_laid_earlier(village, [("0605", "0305")])
    data = threat_json(threat_map(village, "us", lanes=lanes))
    assert data["lanes"] == [
        {"mg": "standing lane 1", "from": "0605", "to": "0305", "hexes": ["0505", "0405", "0305"]}
    ]
    hexes = data["hexes"]
    assert isinstance(hexes, dict)
    assert hexes["0405"]["lanes"] == [
        {
            "mgs": ["standing lane 1"],
            "from": ["0605"],
            "markers": 1,
            "row": "1-4",
            "dice_modifier": 0,
            "pinned_or_worse": "5/12",
        }
    ]
    assert hexes["0406"]["lanes"] == []


def test_the_threat_pictures_overlay_draws_the_lanes_from_their_mg(village):
    lanes = lanes_laid_earlier(village, [("0605", "0305")])
    overlay = threat_overlay(threat_map(village, "us", lanes=lanes))
    hexes = tuple(village.board.hex(h) for h in ("0605", "0505", "0405", "0305"))
    assert overlay.lanes == (hexes,)


def test_a_standing_lane_of_a_pinned_mg_stays_unless_the_reading_removes_it():
    pinned = _variant(**{"de-sq1": {"state": "pinned"}})
    pairs = [("0605", "0305"), ("0907", "0707")]
    laid = lanes_laid_earlier(pinned, pairs)
    assert [lane.unit for lane in laid] == ["de-sq1", "de-mg"]  # default: stays (13.9)
    removed = lanes_laid_earlier(pinned, pairs, LaneReadings(after_mg_pinned="removed"))
    assert [lane.firer for lane in removed] == [pinned.board.hex("0907")]


def test_the_lanes_of_a_hex_go_to_its_unpinned_mgs_first():
    """0605 with a pinned MG42 squad and an unpinned leader's MG34: one lane is the leader's
    (the unpinned MG may have laid it), and stays under the removed reading; two lanes are one
    each, the squad's removed."""
    both = _variant(**{"de-sq1": {"state": "pinned"}, "de-ldr": {"support_weapons": [MG34]}})
    removed = LaneReadings(after_mg_pinned="removed")
    one = lanes_laid_earlier(both, [("0605", "0305")], removed)
    assert [lane.unit for lane in one] == ["de-ldr"]
    two = lanes_laid_earlier(both, [("0605", "0305"), ("0605", "0405")], removed)
    assert [(lane.unit, lane.mg) for lane in two] == [("de-ldr", "standing lane 1")]


def test_a_standing_lane_needs_an_mg_of_the_side_not_moving_in_its_hex(village):
    """13.9: an MG's opportunity fire lays a lane: from a hex without one, refused in one line
    naming the field, the hexes allowed and the lane given."""
    with pytest.raises(InputError) as error:
        lanes_laid_earlier(village, [("0406", "0506")])
    message = str(error.value)
    assert "'standing_lanes'" in message
    assert "0605, 0907" in message
    assert "0406-0506" in message
    assert "\n" not in message
    # the moving side's own MG (us-sq1's BAR in 0206) lays no lane against it
    with pytest.raises(InputError, match="0206-0306"):
        lanes_laid_earlier(village, [("0206", "0306")], side="us")
    assert lanes_laid_earlier(village, [("0206", "0306")], side="de")[0].unit == "us-sq1"


def test_one_standing_lane_per_mg(village):
    """13.9 Fire Lane Examples: "Each machine gun may only create a single fire lane": 0605
    holds one MG (de-sq1's MG42), so two lanes from it are refused in one line."""
    with pytest.raises(InputError) as error:
        lanes_laid_earlier(village, [("0605", "0305"), ("0907", "0707"), ("0605", "0405")])
    message = str(error.value)
    assert "'standing_lanes'" in message
    assert "at most 1 lane(s) from 0605" in message
    assert "de-sq1" in message
    assert "0605-0305,0605-0405" in message


def test_a_standing_lanes_mg_has_fired(village):
    """13.8: the unit whose MG laid a standing lane carries a Fire marker."""
    lanes = lanes_laid_earlier(village, [("0605", "0305")])
    fired = lane_fire(village, lanes)
    assert fired.unit("de-sq1").fired
    assert not fired.unit("de-ldr").fired
    assert not village.unit("de-sq1").fired  # the scenario given is not changed
    assert lane_fire(village, ()) is village


def test_vv_modules_import_no_private_names_of_other_modules():
    """overrun_move reuses the move's casualty unit and vehicle turning cost by public names."""
    root = Path(__file__).resolve().parents[3] / "src" / "firefight" / "rulesets" / "vv"
    found = []
    for path in sorted(root.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("firefight"):
                found.extend(f"{path.name}: {a.name}" for a in node.names if a.name.startswith("_"))
    assert found == []


def test_more_markers_in_a_hex_than_the_lane_attack_takes_attack_as_its_most(village):
    """Past 12 markers the crossfire changes nothing (13.91): 13 MGs' lanes through one hex are
    a situation, answered, with the odds of 12 (which already equal those of 11)."""
    (lane,) = lanes_laid_earlier(village, [("0605", "0305")])
    many = [replace(lane, mg=f"MG {n}", unit=None) for n in range(13)]
    hit = lane_threat(many)[village.board.hex("0305")]
    assert hit.markers == 13
    most = FIRE_LANE_ATTACK.odds(lane_attack_input(MAX_MARKERS, "none"))
    assert hit.hit == sum((p for cps, p in most.items() if cps != "-"), Fraction(0))
    assert FIRE_LANE_ATTACK.odds(lane_attack_input(MAX_MARKERS - 1, "none")) == most
    assert FIRE_LANE_ATTACK.odds(lane_attack_input(30, "none")) == most
    assert lane_attack_input(30, "none").markers == MAX_MARKERS
