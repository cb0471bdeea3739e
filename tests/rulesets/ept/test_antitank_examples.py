"""EPT antitank fire: worked examples and readings of the charts, and the CLI."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from firefight.errors import InputError, RuleError
from tests.helpers import run_cli as run
from tests.rulesets.ept.antitank_seed import (
    AT_FIRE,
    AT_SHOT,
    PF_AVAILABILITY,
    PORTABLE,
    TO_HIT,
    TWO_DICE,
)

# --- worked examples and readings -----------------------------------------------------------


def test_to_hit_modifiers_are_itemized_in_the_charts_order():
    shot = TO_HIT.parse(
        {
            "distance": 22,
            "gun_length": "small",
            "target_moving": True,
            "firer_moving": True,
            "firer_quality": "recruit",
            "target_size": "very_small",
            "turret_penalty": 1,
            "protection": "light",
            "target_in_smoke": True,
            "hindrance_hexes": 3,
        }
    )
    assert [(m.label, m.display()) for m in TO_HIT.modifiers(shot)] == [
        ("moving target", "+2"),
        ("moving firer", "+2"),
        ("recruit", "+1"),
        ("very small target", "+2"),
        ("fire to the flank or rear (turret speed)", "+1"),
        ("light protection", "+1"),
        ("target in smoke", "+1"),
        ("visual hindrance (3 hex, max. +3)", "+3"),
        ("gun function: Small gun, > 20 hex.", "+2"),
    ]
    assert all(m.rule.startswith("TABLE DE TOUCHER ANTICHAR") for m in TO_HIT.modifiers(shot))
    # 2d6 + 15 is never <= 6.
    assert dict(TO_HIT.odds(shot)) == {"miss": Fraction(1)}


@pytest.mark.parametrize(
    ("distance", "number"), [(1, 8), (10, 8), (11, 7), (20, 7), (21, 6), (99, 6)]
)
def test_the_to_hit_number_falls_with_distance(distance, number):
    shot = TO_HIT.parse({"distance": distance, "gun_length": "long"})
    # Long guns have no gun-function modifier: 2d6 <= number.
    hits = sum(1 for a, b in TWO_DICE if a + b <= number)
    assert TO_HIT.odds(shot)["hit"] == Fraction(hits, 36)
    assert dict(TO_HIT.facts(shot))["to-hit number"].startswith(f"{number} ")


def test_a_hit_is_a_roll_at_most_the_number():
    shot = TO_HIT.parse({"distance": 5, "gun_length": "medium", "target_moving": True})
    assert TO_HIT.replay(shot, ["3", "3"]).outcome == "hit"  # 6 + 2 = 8 <= 8
    assert TO_HIT.replay(shot, ["3", "4"]).outcome == "miss"  # 7 + 2 = 9 > 8
    assert TO_HIT.replay(shot, ["6", "6"]).outcome == "miss"


def test_shock_troops_are_a_documented_reading():
    shock = {"distance": 5, "gun_length": "long", "firer_quality": "shock"}
    assert TO_HIT.modifiers(TO_HIT.parse(shock)) == []
    veteran = TO_HIT.modifiers(TO_HIT.parse({**shock, "shock_quality": "as_veteran"}))
    assert [(m.label, m.display()) for m in veteran] == [("shock (read as veteran)", "-1")]


def test_visual_hindrance_above_3_blocks_the_line_of_sight():
    with pytest.raises(RuleError, match="no line of sight: 4 visual hindrance hexes"):
        TO_HIT.odds(TO_HIT.parse({"distance": 5, "gun_length": "long", "hindrance_hexes": 4}))
    blocked = {"distance": 5, "gun_length": "long", "hindrance_hexes": 3}
    assert TO_HIT.odds(TO_HIT.parse(blocked))
    with pytest.raises(RuleError, match="hindrance_blocking=from_3"):
        TO_HIT.odds(TO_HIT.parse({**blocked, "hindrance_blocking": "from_3"}))


def test_the_differential_beyond_the_chart_moves_the_dice():
    base = {"distance": 3, "gun_length": "long", "front_armour": 10, "side_armour": 6}
    weak = AT_FIRE.parse({**base, "at_value": 7})  # differential -3: column <=0, +3
    assert [(m.label, m.display()) for m in AT_FIRE.modifiers(weak)] == [
        ("differential -3: 3 columns below 0", "+3"),
    ]
    assert AT_FIRE.replay(weak, ["1", "1"]).outcome == "S"  # 2 + 3 = 5: row 5, column <=0
    strong = AT_FIRE.parse({**base, "at_value": 19})  # differential 9: column >=7, -2
    assert [(m.label, m.display()) for m in AT_FIRE.modifiers(strong)] == [
        ("differential 9: 2 columns above 7", "-2"),
    ]
    resolution = AT_FIRE.replay(strong, ["5", "6"])  # 11 - 2 = 9, column >=7 -> D
    assert resolution.outcome == "D"
    assert str(resolution.trace[-1]).endswith("11 -2 = 9: row 9, column >=7 -> D")


def test_a_natural_12_misses_whatever_the_modifiers():
    shot = AT_FIRE.parse(
        {"distance": 1, "gun_length": "long", "at_value": 30, "front_armour": 1, "side_armour": 1}
    )
    assert AT_FIRE.replay(shot, ["6", "6"]).outcome == "miss"
    assert dict(AT_FIRE.odds(shot)) == {"D": Fraction(35, 36), "miss": Fraction(1, 36)}


def test_fire_to_the_rear_uses_side_armour_minus_one():
    shot = AT_FIRE.parse(
        {
            "distance": 12,
            "gun_length": "small",
            "at_value": 6,
            "front_armour": 9,
            "side_armour": 4,
            "facing": "rear",
        }
    )
    facts = dict(AT_FIRE.facts(shot))
    assert facts["armour hit"] == "side 4 - 1 (fire to the rear) = 3"
    assert facts["differential"] == "AT value 6 - armour 3 = 3"
    assert facts["Antitank Fire column"] == "3"
    assert [(m.label, m.display(), m.kind.value) for m in AT_FIRE.modifiers(shot)] == [
        (
            "fire to the rear: -1 to the value of side armour (differential +1)",
            "-1",
            "value",
        ),
        ("gun function: Small gun, >10 hex.", "+2", "dice"),
    ]


def test_one_shot_chains_the_two_rolls():
    data = {
        "distance": 12,
        "gun_length": "long",
        "at_value": 10,
        "front_armour": 8,
        "side_armour": 4,
    }
    shot = AT_SHOT.parse(data)
    resolution = AT_SHOT.replay(shot, ["3", "4", "2", "2"])  # 7 <= 7 hits; 4, column 2 -> I
    assert resolution.outcome == "immobilized"
    assert [e.label for e in resolution.trace] == [
        "to-hit roll (2d6)",
        "TABLE DE TOUCHER ANTICHAR (Antitank To Hit Table)",
        "antitank fire roll (2d6)",
        "TIRS ANTICHARS (Antitank Fire)",
    ]
    assert AT_SHOT.replay(shot, ["4+4"]).outcome == "miss"  # 8 > 7: no second roll
    assert AT_SHOT.replay(shot, ["1", "1", "6", "6"]).outcome == "miss"  # natural 12
    odds = AT_SHOT.odds(shot)
    # Hit on 2d6 <= 7 (21 in 36); differential 2: D on 2-3 (3 in 36), I on 4-5 (7 in 36).
    assert odds["destroyed"] == Fraction(21, 36) * Fraction(3, 36)
    assert odds["immobilized"] == Fraction(21, 36) * Fraction(7, 36)
    assert odds["miss"] == Fraction(15, 36) + Fraction(21, 36) * Fraction(1, 36)


def test_portable_weapons_destroy_below_and_immobilize_on_their_number():
    piat = PORTABLE.parse({"weapon": "piat", "distance": 2, "target_size": "large"})
    # 5 with -1 (large) +1 (at 2 hexes): 2d6 < 5 destroys, = 5 immobilizes.
    assert dict(PORTABLE.odds(piat)) == {
        "destroyed": Fraction(6, 36),
        "immobilized": Fraction(4, 36),
        "no_effect": Fraction(26, 36),
    }
    assert PORTABLE.replay(piat, ["2", "3"]).outcome == "immobilized"
    assert PORTABLE.replay(piat, ["1", "3"]).outcome == "destroyed"
    assert [(m.label, m.display()) for m in PORTABLE.modifiers(piat)] == [
        ("large target", "-1"),
        ("at 2 hexes", "+1"),
    ]


def test_every_portable_modifier_is_itemized():
    shot = PORTABLE.parse(
        {
            "weapon": "panzerschreck",
            "distance": 2,
            "target_size": "small",
            "firer_movement_marker": True,
            "target_movement_marker": True,
            "firer_quality": "veteran",
            "schurzen_on_side": True,
        }
    )
    assert [(m.label, m.display()) for m in PORTABLE.modifiers(shot)] == [
        ("small target", "+1"),
        ("firer with movement marker", "+2"),
        ("target with movement marker", "+2"),
        ("veteran", "-1"),
        ("Schurzen (on side)", "+1"),
        ("at 2 hexes", "+1"),
    ]


def test_beyond_the_maximum_distance_a_portable_weapon_cannot_fire():
    with pytest.raises(RuleError, match="cannot fire at 2 hexes"):
        PORTABLE.odds(PORTABLE.parse({"weapon": "panzerfaust", "distance": 2}))


@pytest.mark.parametrize("weapon", ["panzerschreck", "piat"])
def test_beyond_the_charts_maximum_distance_the_input_is_refused(weapon):
    """'Maximum Distance: 2 hexagons' is the distance field's bound."""
    with pytest.raises(InputError, match=r"'distance' must be an integer from 1 to 2 \(got 3\)"):
        PORTABLE.parse({"weapon": weapon, "distance": 3})


def test_the_panzerfaust_check_can_ride_on_the_shot():
    separate = PORTABLE.parse(
        {"weapon": "panzerfaust", "distance": 1, "panzerfaust_check": "separate_die"}
    )
    assert PORTABLE.replay(separate, ["3"]).outcome == "not_available"
    assert PORTABLE.replay(separate, ["2", "2", "2"]).outcome == "destroyed"
    same_roll = PORTABLE.parse(
        {"weapon": "panzerfaust", "distance": 1, "panzerfaust_check": "attack_roll"}
    )
    assert PORTABLE.replay(same_roll, ["1", "4"]).outcome == "not_available"  # coloured 4 > 2
    assert PORTABLE.replay(same_roll, ["4", "2"]).outcome == "immobilized"  # 6 = 6
    assert PORTABLE.odds(same_roll)["not_available"] == Fraction(2, 3)
    with pytest.raises(InputError, match="'panzerfaust_check' applies to the panzerfaust only"):
        PORTABLE.parse({"weapon": "bazooka", "distance": 1, "panzerfaust_check": "attack_roll"})


def test_bad_input_names_the_field():
    with pytest.raises(InputError, match="'gun_length' must be given: one of small, medium, long"):
        TO_HIT.parse({"distance": 3})
    with pytest.raises(InputError, match="'distance' must be an integer from 1 to 99"):
        AT_FIRE.parse(
            {
                "distance": 0,
                "gun_length": "long",
                "at_value": 5,
                "front_armour": 5,
                "side_armour": 5,
            }
        )
    with pytest.raises(InputError, match="'availability' must be an integer from 0 to 6"):
        PF_AVAILABILITY.parse({"availability": 7})


# --- the CLI --------------------------------------------------------------------------------


SHOT_ARGS = [
    "--distance",
    "12",
    "--gun-length",
    "long",
    "--at-value",
    "10",
    "--front-armour",
    "8",
    "--side-armour",
    "4",
]


@pytest.mark.parametrize(
    ("procedure", "args"),
    [
        ("at_to_hit", ["--distance", "12", "--gun-length", "small", "--target-moving"]),
        ("at_fire", [*SHOT_ARGS, "--facing", "rear"]),
        ("at_shot", SHOT_ARGS),
        ("portable_at", ["--weapon", "piat", "--distance", "2", "--target-size", "large"]),
        ("panzerfaust_availability", ["--availability", "3"]),
    ],
)
def test_odds_json_is_exact_and_sums_to_1(capsys, procedure, args):
    code, out, _ = run(capsys, "odds", "ept", procedure, *args, "--json")
    assert code == 0
    data = json.loads(out)
    assert data["procedure"] == procedure
    assert sum(Fraction(p) for p in data["distribution"].values()) == 1


def test_resolve_json_with_the_players_dice(capsys):
    code, out, _ = run(
        capsys, "resolve", "ept", "at_shot", *SHOT_ARGS, "--roll", "3,4,2,2", "--json"
    )
    assert code == 0
    data = json.loads(out)
    assert data["outcome"] == "immobilized"
    assert [e["value"] for e in data["trace"] if "dice" in e] == [7, 4]


def test_resolve_with_a_seed_is_replayable(capsys):
    args = ["resolve", "ept", "portable_at", "--weapon", "bazooka", "--distance", "1"]
    code, out, _ = run(capsys, *args, "--seed", "7", "--json")
    assert code == 0
    first = json.loads(out)
    dice = [str(d) for e in first["trace"] for d in e.get("dice", [])]
    code, out, _ = run(capsys, *args, "--roll", ",".join(dice), "--json")
    assert code == 0
    assert json.loads(out)["outcome"] == first["outcome"]


def test_table_json_prints_the_antitank_fire_chart_as_printed(capsys):
    code, out, _ = run(capsys, "table", "ept", "at_fire", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["columns"] == ["<=0", "1", "2", "3", "4", "5", "6", ">=7"]
    assert data["rows"] == [str(n) for n in range(2, 13)]
    assert data["cells"][2] == ["S", "I", "I", "D", "D", "D", "D", "D"]


def test_tables_lists_every_antitank_chart(capsys):
    code, out, _ = run(capsys, "tables", "ept", "--json")
    assert code == 0
    ids = {chart["id"] for chart in json.loads(out)}
    assert {"at_to_hit", "at_to_hit_gun", "at_fire", "at_fire_gun", "portable_at"} <= ids


def test_a_panzerfaust_at_2_hexes_is_one_line_and_exit_2(capsys):
    code, out, err = run(
        capsys, "odds", "ept", "portable_at", "--weapon", "panzerfaust", "--distance", "2"
    )
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1
    assert err.startswith("error: the Panzerfaust cannot fire at 2 hexes")


def test_a_bad_facing_is_one_line_and_exit_2(capsys):
    code, _, err = run(capsys, "odds", "ept", "at_fire", *SHOT_ARGS, "--facing", "top")
    assert code == 2
    assert err == "error: '--facing' must be one of front, side, rear (got 'top')\n"
