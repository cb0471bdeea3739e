"""V&V 18 AT combat: the two charts against second transcriptions, the chain against a twin."""

from __future__ import annotations

import json
import shutil
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given
from hypothesis import strategies as st

import firefight
from firefight.board.hexes import DIRECTIONS, Hex
from firefight.cli import main
from firefight.core.chart import load_chart
from firefight.errors import InputError
from firefight.rulesets.vv.at import (
    armor_elimination_table,
    armor_facing,
    at_to_hit_table,
    elimination_number,
    to_hit_number,
)

AT = firefight.ruleset("vv").procedure("at_attack")
RATINGS = "ABCDEF"

# Typed from anti_tank_to_hit_numbers.png, line by line as printed.
TO_HIT_TEXT = """
10 or less • Guns at 10 hexes or less
8 or less • AT Weapons, Guns at 11-19 hexes, Arty & Air Strikes
6 or less • Guns at 20 hexes or more, On-board mortars
"""

# Pasted from shared/research/FACTS.md (V&V section), the Armor Elimination Table.
FACTS_TEXT = """
| ATFP \\ Armor | A | B | C | D | E | F |
|---|---|---|---|---|---|---|
| A | 7 | 5 | 3 | - | - | - |
| B | 9 | 7 | 5 | 3 | - | - |
| C | 11 | 9 | 7 | 5 | 3 | - |
| D | E | 11 | 9 | 7 | 5 | 3 |
| E | E | E | 11 | 9 | 7 | 5 |
| F | E | E | E | 11 | 9 | 7 |
"""


def to_hit_transcription() -> dict[str, str]:
    found = {}
    for line in TO_HIT_TEXT.strip().splitlines():
        number, attackers = line.split(" • ")
        for attacker in attackers.split(", "):
            found[attacker] = number
    return found


def facts_transcription() -> dict[tuple[str, str], str]:
    lines = [line for line in FACTS_TEXT.strip().splitlines() if not line.startswith("|---")]
    columns = [c.strip() for c in lines[0].strip("|").split("|")][1:]
    found = {}
    for line in lines[1:]:
        row, *cells = (c.strip() for c in line.strip("|").split("|"))
        for column, cell in zip(columns, cells, strict=True):
            found[row, column] = cell
    return found


TO_HIT = to_hit_transcription()
ELIMINATION = facts_transcription()


def test_the_transcriptions_are_complete():
    assert len(TO_HIT) == 6
    assert len(ELIMINATION) == 36


@pytest.mark.parametrize("attacker", sorted(TO_HIT))
def test_to_hit_cell_matches_the_image(attacker):
    assert at_to_hit_table().cell_at(attacker, "To-hit number").value == TO_HIT[attacker]


def test_to_hit_rows_are_in_the_printed_order():
    assert list(at_to_hit_table().rows.labels) == list(TO_HIT)


@pytest.mark.parametrize(("atfp", "armor"), sorted(ELIMINATION))
def test_elimination_cell_matches_facts(atfp, armor):
    assert armor_elimination_table().cell_at(atfp, armor).value == ELIMINATION[atfp, armor]


def test_a_typo_in_the_elimination_table_is_caught(tmp_path):
    source = armor_elimination_table
    original = (
        firefight.ruleset("vv").data / "armor_elimination.toml"  # type: ignore[operator]
    )
    copy = tmp_path / "armor_elimination.toml"
    shutil.copy(original, copy)
    copy.write_text(
        copy.read_text().replace('D = ["E", "11", "9", "7"', 'D = ["E", "11", "9", "9"')
    )
    typo = load_chart(copy)
    wrong = [k for k, v in ELIMINATION.items() if typo.cell_at(*k).value != v]
    assert wrong == [("D", "D")]
    assert source().cell_at("D", "D").value == "7"


@pytest.mark.parametrize(
    ("weapon", "range_hexes", "number"),
    [
        ("gun", 1, 10),
        ("gun", 10, 10),
        ("gun", 11, 8),
        ("gun", 19, 8),
        ("gun", 20, 6),
        ("gun", 60, 6),
        ("at_weapon", 15, 8),
        ("artillery_strike", 1, 8),
        ("air_strike", 1, 8),
        ("on_board_mortar", 5, 6),
    ],
)
def test_to_hit_number_by_weapon_and_range(weapon, range_hexes, number):
    assert to_hit_number(weapon, range_hexes)[1] == number


def dice(n: int) -> list[int]:
    return [sum(faces) for faces in product(range(1, 7), repeat=n)]


def twin(
    number: int, modifier: int, target: str, en: str, rear_en: str | None = None
) -> dict[str, Fraction]:
    """Brute force over every die of the chain, from 18.3-18.6 read independently."""
    found: dict[str, Fraction] = {}

    def add(key: str, p: Fraction) -> None:
        found[key] = found.get(key, Fraction(0)) + p

    for hit_roll in dice(2):
        p = Fraction(1, 36)
        if hit_roll + modifier > number:
            add("miss", p)
            continue
        if target != "afv":
            add("eliminated", p)
            continue
        cells = [en] if rear_en is None else [en] * 3 + [rear_en] * 3
        for cell in cells:
            q = p / len(cells)
            if cell == "E":
                add("eliminated", q)
            elif cell == "-":
                add("no_effect", q)
            else:
                for roll in dice(2):
                    r = q / 36
                    if roll < int(cell):
                        add("eliminated", r)
                    elif roll > int(cell):
                        add("no_effect", r)
                    else:
                        add("immobilized_abandoned", r * Fraction(2, 6))
                        add("immobilized", r * Fraction(4, 6))
    return found


def odds(**fields: object) -> dict[str, Fraction]:
    return dict(AT.odds(AT.parse(fields)))


def test_the_rulebook_example_tiger_from_the_rear():
    # 18 example: ATFP D within 10 hexes, woods +2, rear armour D: EN 7, rolls 7 then 6.
    inp = AT.parse(
        {
            "weapon": "gun",
            "range_hexes": 6,
            "atfp": "D",
            "front_armour": "E",
            "rear_armour": "D",
            "facing": "rear",
            "cover": 2,
        }
    )
    assert AT.replay(inp, [7, 6]).outcome == "eliminated"
    assert dict(AT.odds(inp)) == twin(10, 2, "afv", "7")


@given(
    atfp=st.sampled_from(RATINGS),
    armor=st.sampled_from(RATINGS),
    cover=st.integers(0, 5),
    range_hexes=st.integers(1, 25),
)
def test_gun_against_an_afv_matches_the_twin(atfp, armor, cover, range_hexes):
    number = 10 if range_hexes <= 10 else 8 if range_hexes <= 19 else 6
    found = odds(weapon="gun", range_hexes=range_hexes, atfp=atfp, front_armour=armor, cover=cover)
    expected = twin(number, cover, "afv", ELIMINATION[atfp, armor])
    assert found == {k: v for k, v in expected.items() if v}


def test_along_the_hexside_a_die_chooses_front_or_rear():
    found = odds(atfp="D", front_armour="E", rear_armour="B", facing="along_front_rear_hexside")
    assert found == twin(8, 0, "afv", "5", "11")


def test_a_single_armor_rating_serves_every_facing():
    front = odds(atfp="C", front_armour="C", facing="front")
    assert odds(atfp="C", front_armour="C", facing="along_front_rear_hexside") == front
    assert odds(atfp="C", front_armour="C", facing="rear") == front


@pytest.mark.parametrize("target", ["unarmoured_vehicle", "gun"])
def test_an_unarmoured_target_hit_is_eliminated(target):
    assert odds(atfp="A", target=target, cover=1) == twin(8, 1, target, "")


def test_a_gun_shield_adds_one_to_cover():
    assert odds(atfp="A", target="gun", cover=1, gun_shield=True) == twin(8, 2, "gun", "")


def test_leader_and_valor_lower_the_to_hit_roll():
    found = odds(atfp="A", target="gun", cover=3, leader_modifier=-2, firer_valorous=True)
    assert found == twin(8, 0, "gun", "")


def test_strikes_read_the_rear_armor_and_eliminate_at_most_the_number():
    found = odds(weapon="air_strike", atfp="D", front_armour="F", rear_armour="C", facing="front")
    hit = Fraction(26, 36)  # 2d6 <= 8
    assert found == {"miss": 1 - hit, "eliminated": hit * Fraction(30, 36), "no_effect": hit / 6}


def test_dash_means_no_effect_and_e_means_eliminated():
    assert set(odds(atfp="A", front_armour="F")) == {"miss", "no_effect"}
    assert set(odds(atfp="F", front_armour="A")) == {"miss", "eliminated"}


def test_an_immobilized_afv_that_survives_checks_abandonment():
    found = odds(atfp="A", front_armour="F", target_immobilized=True)
    assert found["abandoned"] == Fraction(1, 3)
    assert found["miss"] + found["no_effect"] == Fraction(2, 3)


def test_valor_check_on_a_natural_two():
    found = odds(
        atfp="A", target="gun", check_valor=True, firer_unit="squad", firer_casualty_rating=4
    )
    assert found["eliminated;valorous"] == Fraction(1, 36) * Fraction(6, 36)
    assert found["eliminated;not_valorous"] == Fraction(1, 36) * Fraction(30, 36)
    assert found["eliminated"] == Fraction(25, 36)
    assert sum(found.values()) == 1


def test_a_gun_does_not_check_valor():
    found = odds(weapon="gun", atfp="A", target="gun", check_valor=True)
    assert all(";" not in key for key in found)


@pytest.mark.parametrize(
    "fields",
    [
        {"atfp": "A"},
        {"atfp": "A", "target": "gun", "front_armour": "B"},
        {"atfp": "A", "weapon": "air_strike", "target": "gun"},
        {"atfp": "A", "weapon": "on_board_mortar", "target": "gun"},
        {"atfp": "A", "target": "unarmoured_vehicle", "gun_shield": True},
        {"atfp": "A", "weapon": "artillery_strike", "front_armour": "A", "hindrance": 1},
        {"atfp": "A", "weapon": "gun", "target": "gun", "leader_modifier": -1},
        {"atfp": "A", "target": "gun", "target_immobilized": True},
        {"atfp": "A", "target": "gun", "check_valor": True},
        {"atfp": "A", "target": "gun", "range_hexes": 5, "weapon_range": 4},
        {"atfp": "A", "target": "gun", "weapon": "gun", "weapon_range": 4},
    ],
)
def test_inconsistent_inputs_are_one_line_errors(fields):
    with pytest.raises(InputError):
        AT.parse(fields)


def test_an_at_weapon_fires_within_the_range_printed_on_its_counter():
    within = AT.parse({"atfp": "C", "target": "gun", "range_hexes": 4, "weapon_range": 4})
    unlimited = AT.parse({"atfp": "C", "target": "gun", "range_hexes": 4})
    assert AT.odds(within) == AT.odds(unlimited)
    with pytest.raises(InputError) as beyond:
        AT.parse({"atfp": "C", "target": "gun", "range_hexes": 5, "weapon_range": 4})
    assert str(beyond.value) == (
        "'range_hexes' must be at most the weapon's printed range, 4 (V&V 18.2) (got 5)"
    )
    with pytest.raises(InputError, match=r"weapon at_weapon only .* \(got weapon 'gun'\)"):
        AT.parse({"atfp": "C", "target": "gun", "weapon": "gun", "weapon_range": 4})


def kill(procedure_odds: dict[str, Fraction]) -> Fraction:
    return procedure_odds.get("eliminated", Fraction(0)) + procedure_odds.get(
        "immobilized_abandoned", Fraction(0)
    )


@given(st.sampled_from(RATINGS[:-1]), st.sampled_from(RATINGS), st.integers(0, 4))
def test_more_atfp_never_lowers_the_kill_chance(atfp, armor, cover):
    better = RATINGS[RATINGS.index(atfp) + 1]
    low = kill(odds(atfp=atfp, front_armour=armor, cover=cover))
    assert kill(odds(atfp=better, front_armour=armor, cover=cover)) >= low


@given(st.sampled_from(RATINGS), st.sampled_from(RATINGS[:-1]), st.integers(0, 4))
def test_more_armor_never_raises_the_kill_chance(atfp, armor, cover):
    thicker = RATINGS[RATINGS.index(armor) + 1]
    low = kill(odds(atfp=atfp, front_armour=thicker, cover=cover))
    assert kill(odds(atfp=atfp, front_armour=armor, cover=cover)) >= low


@given(st.integers(1, 40), st.integers(0, 5))
def test_a_longer_range_never_raises_a_guns_to_hit(range_hexes, cover):
    def hit(r: int) -> Fraction:
        return 1 - odds(weapon="gun", range_hexes=r, atfp="C", target="gun", cover=cover)["miss"]

    assert hit(range_hexes + 1) <= hit(range_hexes)


def test_elimination_number_reads_the_chart():
    assert [elimination_number("C", a) for a in RATINGS] == ["11", "9", "7", "5", "3", "-"]


@pytest.mark.parametrize("facing", sorted(DIRECTIONS))
def test_armor_facing_follows_the_diagram(facing):
    target = Hex(3, 3)
    front = {facing, facing % 6 + 1, (facing - 2) % 6 + 1}
    for direction in DIRECTIONS:
        expected = "front" if direction in front else "rear"
        assert armor_facing(target.neighbour(direction), target, facing) == expected
    # Two hexes out along the line through the side vertices: the diagram's die case.
    left = target.neighbour((facing - 2) % 6 + 1).neighbour((facing - 3) % 6 + 1)
    assert armor_facing(left, target, facing) == "along_front_rear_hexside"


def test_armor_facing_far_away():
    target = Hex(0, 0)
    assert armor_facing(target.step(1, 7), target, 1) == "front"
    assert armor_facing(target.step(4, 7), target, 1) == "rear"
    assert armor_facing(Hex(4, -2), target, 1) == "along_front_rear_hexside"
    with pytest.raises(InputError):
        armor_facing(target, target, 1)
    with pytest.raises(InputError):
        armor_facing(Hex(1, 0), target, 7)


def test_cli_odds_and_scripted_resolution(capsys):
    args = ["vv", "at_attack", "--weapon", "gun", "--atfp", "D", "--front-armor", "E"]
    args += ["--rear-armor", "D", "--facing", "rear", "--cover", "2"]
    assert main(["odds", *args, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert sum(Fraction(p) for p in data["distribution"].values()) == 1
    assert [m["rule"] for m in data["modifiers"]] == ["V&V 13.4, 18.3"]
    assert main(["resolve", *args, "--roll", "7,6", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["outcome"] == "eliminated"
