"""The V&V threat map: who could fire on a unit entering each hex (13.8), and the
exact chance of being pinned or worse there, from the AP attack procedure's own odds."""

from __future__ import annotations

import tomllib
from fractions import Fraction

import pytest

from firefight.board.hexes import Hex
from firefight.board.los import line_of_sight
from firefight.errors import InputError
from firefight.rulesets.vv.ap import AP_ATTACK, VvApAttack
from firefight.rulesets.vv.board import VV_LOS
from firefight.rulesets.vv.opportunity import attack_at
from firefight.rulesets.vv.scenario import (
    load_board_scenario as load_scenario,
)
from firefight.rulesets.vv.scenario import (
    sample_board_scenarios as sample_scenarios,
)
from firefight.rulesets.vv.scenario import (
    scenario_from_data,
)
from firefight.rulesets.vv.threat import (
    REFERENCE_TARGET,
    ThreatTarget,
    fire_groups,
    threat_json,
    threat_map,
    threat_overlay,
)


@pytest.fixture(scope="module")
def village():
    return load_scenario("village")


def _variant(**units: dict[str, object]):
    """The sample with some units changed (by id)."""
    data = tomllib.loads(sample_scenarios()["village"].read_text())
    for unit in data["units"]:
        unit.update(units.get(unit["id"], {}))
    return scenario_from_data(data, "variant.toml")


def _pin(**attack: object) -> Fraction:
    """The AP attack procedure's own odds of at least one CP (14.61: one CP pins)."""
    odds = AP_ATTACK.odds(VvApAttack.model_validate({"opportunity_fire": True, **attack}))
    return 1 - odds["-"]


def _by_lines(board, origin: Hex) -> dict[Hex, int]:
    """The brute-force twin of the visible set: one line of sight per hex."""
    found = {}
    for h in board.hexes():
        verdict = line_of_sight(board, origin, h, VV_LOS)
        if verdict.visible:
            found[h] = verdict.modifier
    return found


def test_a_hex_in_the_open_two_hexes_from_a_squad_with_its_leader_and_mg(village):
    found = threat_map(village, "us")
    here = found.hexes[village.board.hex("0406")]
    (firer,) = here.firers
    assert firer.group.id == "de-sq1+de-ldr"
    # 14.2: squad 5 + its MG42 4 + the leader's 1; 13.6 his -1; 13.8 no positive cover -1.
    expected = _pin(apfp=10, leadership_modifier=-1, target_terrain="open")
    assert firer.pinned_or_worse == expected
    assert here.pinned_or_worse == expected
    assert firer.attack.opportunity_fire


def test_several_firers_combine_as_independent_attacks(village):
    found = threat_map(village, "us")
    here = found.hexes[village.board.hex("0505")]
    assert len(here.firers) == 2
    spared = Fraction(1)
    for firer in here.firers:
        spared *= 1 - firer.pinned_or_worse
    assert here.pinned_or_worse == 1 - spared
    assert 0 < here.pinned_or_worse < 1


def test_an_adjacent_hex_takes_the_minus_two(village):
    found = threat_map(village, "us")
    adjacent = found.hexes[village.board.hex("0606")]
    group = next(f for f in adjacent.firers if f.group.id == "de-sq1+de-ldr")
    assert group.attack.adjacent
    terrain = village.board.terrain_of(village.board.hex("0606"))
    assert terrain == "road"
    assert group.pinned_or_worse == _pin(
        apfp=10, leadership_modifier=-1, adjacent=True, target_terrain="road"
    )


def test_each_unit_and_weapon_adds_its_apfp_only_within_its_range(village):
    found = threat_map(village, "us")
    board = village.board

    def apfp(label: str) -> int:
        here = found.hexes[board.hex(label)]
        return next(f.attack.apfp for f in here.firers if f.group.id == "de-sq1+de-ldr")

    # 12.3: the squad 5 + its MG42 4 (range 5 and 8), the leader 1 (range 4).
    assert board.hex("0605").distance(board.hex("0205")) == 4
    assert apfp("0205") == 10
    assert board.hex("0605").distance(board.hex("0105")) == 5
    assert apfp("0105") == 9


def test_mortars_never_fire_on_opportunity(village):
    found = threat_map(village, "us")
    board = village.board
    mortar_group = [f for t in found.hexes.values() for f in t.firers if f.group.id == "de-hs"]
    assert mortar_group
    # 12.61: the half squad's own 2 only, never its 50mm mortar's 4.
    assert {f.attack.apfp for f in mortar_group} == {2}
    assert all(
        board.hex("1104").distance(t) <= 5
        for t in found.hexes
        if any(f.group.id == "de-hs" for f in found.hexes[t].firers)
    )


def test_units_with_a_fire_marker_or_pinned_do_not_fire():
    varied = _variant(**{"de-mg": {"fired": True}, "de-sq2": {"state": "pinned"}})
    ids = [g.id for g in fire_groups(varied, "us")]
    assert "de-mg" not in ids
    assert "de-sq2" not in ids
    assert "de-sq1+de-ldr" in ids


def test_a_hex_no_firer_can_fire_into_is_not_on_the_map(village):
    found = threat_map(village, "us")
    board = village.board
    enemy = {u.hex for u in village.enemies_of("us")}
    for hex_ in board.hexes():
        if hex_ in found.hexes or hex_ in enemy:
            continue
        for group in found.groups:
            if hex_ == group.hex:
                continue
            verdict = line_of_sight(board, group.hex, hex_, VV_LOS)
            assert not verdict.visible or attack_at(village, group, hex_) is None, board.label(hex_)


def test_enemy_held_hexes_are_not_entered(village):
    found = threat_map(village, "us")
    for unit in village.enemies_of("us"):
        assert unit.hex not in found.hexes


def test_the_map_equals_its_line_by_line_twin(village):
    fast = threat_map(village, "us")
    slow = threat_map(village, "us", sight=_by_lines)
    assert fast.hexes == slow.hexes
    other = threat_map(village, "de")
    assert other.hexes == threat_map(village, "de", sight=_by_lines).hexes


def test_a_stack_is_the_target_and_its_own_hex_is_left_off(village):
    stack = village.board.hex("0206")
    found = threat_map(village, "us", stack=stack)
    assert found.target.units == ("us-sq1", "us-sq2", "us-ldr")
    assert stack not in found.hexes
    assert found.target != REFERENCE_TARGET


def test_a_stack_must_be_the_moving_sides(village):
    with pytest.raises(InputError, match="'stack' must be a hex holding us's units"):
        threat_map(village, "us", stack=village.board.hex("0605"))


def test_an_unknown_side_is_one_line(village):
    with pytest.raises(InputError, match=r"'side' must be one of us, de \(got 'fr'\)"):
        threat_map(village, "fr")


def test_the_json_shape(village):
    data = threat_json(threat_map(village, "us"))
    assert data["side"] == "us"
    assert data["board"] == "vv_village"
    here = data["hexes"]["0406"]
    assert set(here) == {"pinned_or_worse", "firers", "lanes"}
    (firer,) = here["firers"]
    assert firer["units"] == ["de-sq1", "de-ldr"]
    assert data["firers"][0] == {"units": ["de-sq1", "de-ldr"], "hex": "0605", "kind": "infantry"}
    assert firer["range"] == 2
    assert firer["dice_modifier"] == -2
    assert {m["rule"] for m in firer["modifiers"]} == {"13.6, 14.2", "13.8"}
    assert Fraction(here["pinned_or_worse"]) == Fraction(firer["pinned_or_worse"])


def test_the_overlay_shades_every_threatened_hex(village):
    found = threat_map(village, "us")
    overlay = threat_overlay(found)
    assert set(overlay.shading) == set(found.hexes)
    assert len(overlay.counters) == len(village.units)
    assert "P(pinned or worse)" in overlay.legend


def test_assault_movement_is_positive_cover_and_a_valorous_target_ignores_one_cp(village):
    hex_ = village.board.hex("0406")
    plain = threat_map(village, "us").hexes[hex_].pinned_or_worse
    assault = ThreatTarget("a squad using Assault Movement", assault_movement=True)
    covered = threat_map(village, "us", target=assault).hexes[hex_]
    # 6.4: +1 cover, and no -1 for opportunity fire without positive cover (13.8).
    assert covered.pinned_or_worse == _pin(
        apfp=10, leadership_modifier=-1, target_assault_movement=True
    )
    assert covered.pinned_or_worse < plain
    valorous = ThreatTarget("a valorous squad", ignores_first_cp=True)
    odds = AP_ATTACK.odds(VvApAttack(apfp=10, leadership_modifier=-1, opportunity_fire=True))
    two_or_more = sum((p for cps, p in odds.items() if cps not in ("-", "1")), Fraction(0))
    assert threat_map(village, "us", target=valorous).hexes[hex_].pinned_or_worse == two_or_more


def test_no_enemy_able_to_fire_gives_an_empty_map():
    fired = {"fired": True}
    varied = _variant(**dict.fromkeys(("de-sq1", "de-ldr", "de-sq2", "de-mg", "de-hs"), fired))
    found = threat_map(varied, "us")
    assert found.groups == ()
    assert found.hexes == {}
    assert threat_json(found)["hexes"] == {}


def test_an_attack_given_the_visible_sets_hindrance_is_the_traced_one(village):
    board = village.board
    for group in fire_groups(village, "us"):
        seen = _by_lines(board, group.hex)
        for hex_ in board.hexes():
            traced = attack_at(village, group, hex_)
            if hex_ not in seen:
                assert traced is None
                continue
            given = attack_at(village, group, hex_, hindrance=seen[hex_])
            assert (given is None) == (traced is None)
            if given is not None and traced is not None:
                assert given.attack == traced.attack
