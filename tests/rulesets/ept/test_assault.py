"""EPT assault (ASSAUT): every chart line against the seed's text, twins of the odds, properties.

The text below is pasted verbatim from seed 000 (000_7e545a6d88e32420.txt), re-wrapped only.
It is parsed here, independently of firefight's chart loader, and compared line by line with
``data/assault*.toml``; the odds are recomputed from it by brute force over the dice.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from fractions import Fraction
from itertools import product
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import firefight
from firefight.core.chart import Chart, load_chart
from firefight.errors import InputError
from firefight.rulesets.ept.command import DATA, chart
from tests.helpers import assert_odds_json_sums_to_1
from tests.helpers import run_cli as run

SEED_TEXT = """
ASSAUT Modifiers to the test of initiative (cumulative): -- Attacker: +1 (1st phase only.)
-- Unit stopped: -1 -- Unit neutralized: -2 -- Formation hesitant: -1 -- Unit hidden: +2 --
Parachute unit: -2 Type Step loss Elim. Veh. [Eliminated] Shock 9 6 7 Veteran 8 5 6 Line 7 4
5 Recruit 6 3 4 Roll with 2d6 less or equal to the figure indicated. [but see 17.2]
Modifiers to the dice (cumulative): -- subordinates without PC: +2 -- stopped: +1 --
hesitant: +1 -- neutralized: +3 -- step loss: +1 -- coming from a lower level: +1 -- coming
from a higher level: -1 -- Defender in important protection: +1 -- against parachute unit:
-1 -- target infantry with movement marker: -1 Against vehicle: -- Assaulting armor: +2 --
Panzerfaust: -2 -- German: -1 -- against an open-topped or non-armored vehicle: -2 --
against a vehicle immobilized or shut down: -2"""

TEXT = " ".join(SEED_TEXT.split())


def modifier_lines(text: str) -> dict[str, str]:
    """'-- label: value' lines -> {label: value as printed}."""
    lines = {}
    for part in text.split("--"):
        if part.strip():
            label, _, value = part.partition(":")
            lines[label.strip()] = value.strip()
    return lines


def between(start: str, end: str | None) -> str:
    body = TEXT.split(start, 1)[1]
    return body.split(end, 1)[0] if end else body


SEED_INITIATIVE = modifier_lines(
    between("Modifiers to the test of initiative (cumulative):", "Type Step loss")
)
SEED_DICE = modifier_lines(between("Modifiers to the dice (cumulative):", "Against vehicle:"))
SEED_VEHICLE = modifier_lines(between("Against vehicle:", None))
SEED_COLUMNS = ("Step loss", "Elim.", "Veh. [Eliminated]")
SEED_TABLE = {
    (m[1], column): figure
    for m in re.finditer(r"(Shock|Veteran|Line|Recruit) (\d+) (\d+) (\d+)", TEXT)
    for column, figure in zip(SEED_COLUMNS, m.groups()[1:], strict=True)
}
SEED_LISTS = {
    "assault_initiative": SEED_INITIATIVE,
    "assault_dice_modifiers": SEED_DICE,
    "assault_vehicle_modifiers": SEED_VEHICLE,
}


def value(printed: str) -> int:
    """'+1 (1st phase only.)' -> 1."""
    return int(printed.split(maxsplit=1)[0])


# --- transcription --------------------------------------------------------------------------


def test_the_seed_text_has_every_line():
    assert len(SEED_TABLE) == 12
    assert (len(SEED_INITIATIVE), len(SEED_DICE), len(SEED_VEHICLE)) == (6, 10, 5)
    assert SEED_INITIATIVE["Attacker"] == "+1 (1st phase only.)"


def table_differences(table: Chart) -> list[str]:
    found = []
    for (row, column), expected in SEED_TABLE.items():
        actual = table.cell_at(row, column).value
        if actual != expected:
            found.append(f"{row}, {column}: data {actual!r}, seed {expected!r}")
    return found


def list_differences(table: Chart, seed: dict[str, str]) -> list[str]:
    found = []
    if list(table.rows.labels) != list(seed):
        found.append(f"lines: data {list(table.rows.labels)}, seed {list(seed)}")
    for label, expected in seed.items():
        actual = table.cell_at(label, "Modifier").value
        if actual != expected:
            found.append(f"{label}: data {actual!r}, seed {expected!r}")
    return found


@pytest.mark.parametrize(("row", "column"), sorted(SEED_TABLE))
def test_result_table_cell_matches_the_seed(row, column):
    assert chart("assault").cell_at(row, column).value == SEED_TABLE[row, column]


def test_result_table_has_the_seed_rows_and_columns():
    table = chart("assault")
    assert table.rows.labels == ("Shock", "Veteran", "Line", "Recruit")
    assert table.columns.labels == SEED_COLUMNS
    assert table_differences(table) == []


@pytest.mark.parametrize("chart_id", sorted(SEED_LISTS))
def test_modifier_lists_match_the_seed(chart_id):
    assert list_differences(chart(chart_id), SEED_LISTS[chart_id]) == []


def test_a_typo_in_the_data_files_is_caught(tmp_path: Path):
    text = (DATA / "assault.toml").read_text(encoding="utf-8")
    bad = tmp_path / "assault.toml"
    bad.write_text(text.replace('"Veteran" = ["8",', '"Veteran" = ["9",'), encoding="utf-8")
    assert table_differences(load_chart(bad)) == ["Veteran, Step loss: data '9', seed '8'"]
    text = (DATA / "assault_dice_modifiers.toml").read_text(encoding="utf-8")
    bad = tmp_path / "assault_dice_modifiers.toml"
    bad.write_text(text.replace('"neutralized" = ["+3"]', '"neutralized" = ["+2"]'), "utf-8")
    assert list_differences(load_chart(bad), SEED_DICE) == ["neutralized: data '+2', seed '+3'"]


def test_every_chart_is_listed_by_the_rule_set():
    ids = {c.id for c in firefight.ruleset("ept").charts()}
    assert {"assault", *SEED_LISTS} <= ids


# --- the assault roll -----------------------------------------------------------------------

ASSAULT = firefight.ruleset("ept").procedure("assault")
TROOP_TYPES = ("recruit", "line", "veteran", "shock")  # worst to best
FLAG_LINES = {
    "subordinates_without_pc": "subordinates without PC",
    "stopped": "stopped",
    "hesitant": "hesitant",
    "neutralized": "neutralized",
    "step_loss": "step loss",
    "defender_in_important_protection": "Defender in important protection",
}
INFANTRY_LINES = {
    "against_parachute_unit": "against parachute unit",
    "target_with_movement_marker": "target infantry with movement marker",
}
VEHICLE_LINES = {
    "assaulting_armour": "Assaulting armor",
    "panzerfaust": "Panzerfaust",
    "german": "German",
    "open_topped_or_non_armoured": "against an open-topped or non-armored vehicle",
    "immobilized_or_shut_down": "against a vehicle immobilized or shut down",
}
ADDING = (*FLAG_LINES, "assaulting_armour")
SUBTRACTING = (*INFANTRY_LINES, *(n for n in VEHICLE_LINES if n != "assaulting_armour"))
LEVEL_LINES = {
    "from_lower": "coming from a lower level",
    "from_higher": "coming from a higher level",
}


@st.composite
def assault_inputs(draw: st.DrawFn) -> dict[str, object]:
    target = draw(st.sampled_from(("infantry", "vehicle")))
    flags = {**FLAG_LINES, **(INFANTRY_LINES if target == "infantry" else VEHICLE_LINES)}
    data: dict[str, object] = {
        "troop_type": draw(st.sampled_from(TROOP_TYPES)),
        "target": target,
        "level": draw(st.sampled_from(("same", *LEVEL_LINES))),
    }
    data.update({name: draw(st.booleans()) for name in flags})
    return data


def twin_assault_odds(data: dict) -> dict[str, Fraction]:
    """From the seed text alone: 2d6 + the cumulative modifiers <= the figure."""
    modifier = sum(value(SEED_DICE[line]) for name, line in FLAG_LINES.items() if data.get(name))
    modifier += sum(
        value(SEED_DICE[line]) for name, line in INFANTRY_LINES.items() if data.get(name)
    )
    modifier += sum(
        value(SEED_VEHICLE[line]) for name, line in VEHICLE_LINES.items() if data.get(name)
    )
    if data.get("level", "same") != "same":
        modifier += value(SEED_DICE[LEVEL_LINES[data["level"]]])
    row = data["troop_type"].capitalize()
    counts: Counter = Counter()
    for a, b in product(range(1, 7), repeat=2):
        total = a + b + modifier
        if data.get("target", "infantry") == "vehicle":
            kill = total <= int(SEED_TABLE[row, "Veh. [Eliminated]"])
            counts["eliminated" if kill else "no_effect"] += 1
        elif total <= int(SEED_TABLE[row, "Elim."]):
            counts["eliminated"] += 1
        elif total <= int(SEED_TABLE[row, "Step loss"]):
            counts["step_loss"] += 1
        else:
            counts["no_effect"] += 1
    return {outcome: Fraction(n, 36) for outcome, n in counts.items()}


def kill_chances(data: dict) -> tuple[Fraction, Fraction]:
    """(eliminated, step loss or worse)."""
    odds = ASSAULT.odds(ASSAULT.parse(data))
    return odds["eliminated"], odds["eliminated"] + odds["step_loss"]


def test_worked_example_veteran_stopped_against_infantry():
    a = ASSAULT.parse({"troop_type": "veteran", "stopped": True})
    assert [(m.label, m.display()) for m in ASSAULT.modifiers(a)] == [("stopped", "+1")]
    assert dict(ASSAULT.facts(a)) == {
        "Veteran figures": "Elim. 5, Step loss 8",
        "dice modifier": "+1",
    }
    # 2d6 + 1 <= 5 (rolls 2-4: 6/36) eliminates; <= 8 (rolls 5-7: 15/36) costs a step.
    assert dict(ASSAULT.odds(a)) == {
        "no_effect": Fraction(15, 36),
        "step_loss": Fraction(15, 36),
        "eliminated": Fraction(6, 36),
    }
    assert ASSAULT.replay(a, ["2", "2"]).outcome == "eliminated"
    assert ASSAULT.replay(a, ["3", "2"]).outcome == "step_loss"
    assert ASSAULT.replay(a, ["4", "4"]).outcome == "no_effect"


def test_against_a_vehicle_only_the_vehicle_figure_is_read():
    a = ASSAULT.parse(
        {"troop_type": "shock", "target": "vehicle", "panzerfaust": True, "german": True}
    )
    assert [(m.label, m.display()) for m in ASSAULT.modifiers(a)] == [
        ("Panzerfaust", "-2"),
        ("German", "-1"),
    ]
    # 2d6 - 3 <= 7: all but a roll of 11 or 12.
    assert dict(ASSAULT.odds(a)) == {"no_effect": Fraction(3, 36), "eliminated": Fraction(33, 36)}
    resolution = ASSAULT.replay(a, ["6", "5"])
    assert resolution.outcome == "no_effect"
    assert "11 -3 = 8 above Veh. [Eliminated] 7 (Shock)" in str(resolution.trace[-1])


def test_every_modifier_is_itemized_in_the_charts_order():
    a = ASSAULT.parse(
        {
            "troop_type": "line",
            "target": "infantry",
            **dict.fromkeys((*FLAG_LINES, *INFANTRY_LINES), True),
            "level": "from_higher",
        }
    )
    assert [(m.label, m.display()) for m in ASSAULT.modifiers(a)] == [
        ("subordinates without PC", "+2"),
        ("stopped", "+1"),
        ("hesitant", "+1"),
        ("neutralized", "+3"),
        ("step loss", "+1"),
        ("coming from a higher level", "-1"),
        ("Defender in important protection", "+1"),
        ("against parachute unit", "-1"),
        ("target infantry with movement marker", "-1"),
    ]
    assert all(m.rule.startswith("ASSAUT: Modifiers to the dice") for m in ASSAULT.modifiers(a))


def test_modifiers_must_fit_the_target():
    with pytest.raises(InputError, match="'german' applies only against a vehicle"):
        ASSAULT.parse({"troop_type": "line", "german": True})
    with pytest.raises(InputError, match="'against_parachute_unit' applies only against infantry"):
        ASSAULT.parse({"troop_type": "line", "target": "vehicle", "against_parachute_unit": True})
    with pytest.raises(InputError, match="'troop_type' must be one of shock, veteran, line"):
        ASSAULT.parse({"troop_type": "elite"})


@given(assault_inputs())
def test_assault_odds_equal_the_twin_from_the_seed_text(data):
    odds = ASSAULT.odds(ASSAULT.parse(data))
    assert dict(odds) == twin_assault_odds(data)
    assert sum(odds.values()) == 1


@settings(max_examples=60)
@given(assault_inputs(), st.data())
def test_a_dice_adding_modifier_never_makes_a_kill_likelier(data, draw):
    adding = [n for n in ADDING if n in data and not data[n]]
    subtracting = [n for n in SUBTRACTING if n in data and not data[n]]
    if adding:
        name = draw.draw(st.sampled_from(adding))
        before, after = kill_chances(data), kill_chances({**data, name: True})
        assert all(a <= b for a, b in zip(after, before, strict=True))
    if subtracting:
        name = draw.draw(st.sampled_from(subtracting))
        before, after = kill_chances(data), kill_chances({**data, name: True})
        assert all(a >= b for a, b in zip(after, before, strict=True))
    lower = kill_chances({**data, "level": "from_lower"})
    same = kill_chances({**data, "level": "same"})
    higher = kill_chances({**data, "level": "from_higher"})
    assert all(lo <= s <= hi for lo, s, hi in zip(lower, same, higher, strict=True))


@settings(max_examples=60)
@given(assault_inputs(), st.integers(0, 2))
def test_a_better_troop_type_never_makes_a_kill_less_likely(data, step):
    worse = kill_chances({**data, "troop_type": TROOP_TYPES[step]})
    better = kill_chances({**data, "troop_type": TROOP_TYPES[step + 1]})
    assert all(b >= w for b, w in zip(better, worse, strict=True))


@settings(max_examples=50)
@given(assault_inputs(), st.integers(0, 2**32))
def test_scripted_rolls_reproduce_the_sampled_assault(data, seed):
    a = ASSAULT.parse(data)
    sampled = ASSAULT.resolve(a, seed)
    replayed = ASSAULT.replay(a, sampled.replay_values())
    assert replayed.trace == sampled.trace
    assert replayed.outcome == sampled.outcome
    assert sampled.outcome in ASSAULT.odds(a)


# --- the test of initiative -----------------------------------------------------------------

INITIATIVE = firefight.ruleset("ept").procedure("assault_initiative")
SIDE_LINES = {
    "stopped": "Unit stopped",
    "neutralized": "Unit neutralized",
    "formation_hesitant": "Formation hesitant",
    "hidden": "Unit hidden",
    "parachute": "Parachute unit",
}


@st.composite
def initiative_inputs(draw: st.DrawFn) -> dict[str, object]:
    data: dict[str, object] = {
        f"{side}_{name}": draw(st.booleans())
        for side in ("attacker", "defender")
        for name in SIDE_LINES
    }
    data["first_phase"] = draw(st.booleans())
    data["initiative_dice"] = draw(st.sampled_from(("1d6", "2d6")))
    data["tie"] = draw(st.sampled_from(("tie", "attacker", "defender")))
    return data


def twin_initiative_odds(data: dict) -> dict[str, Fraction]:
    """From the seed text: each side's dice + its modifiers, the higher total wins."""

    def side(name: str) -> int:
        total = sum(
            value(SEED_INITIATIVE[line])
            for field, line in SIDE_LINES.items()
            if data.get(f"{name}_{field}")
        )
        if name == "attacker" and data.get("first_phase", True):
            total += value(SEED_INITIATIVE["Attacker"])
        return total

    dice = 1 if data.get("initiative_dice", "1d6") == "1d6" else 2
    totals = [sum(faces) for faces in product(range(1, 7), repeat=dice)]
    counts: Counter = Counter()
    for a, d in product(totals, repeat=2):
        at, dt = a + side("attacker"), d + side("defender")
        counts["attacker" if at > dt else "defender" if dt > at else data.get("tie", "tie")] += 1
    return {k: Fraction(n, len(totals) ** 2) for k, n in counts.items()}


def test_initiative_worked_example_defender_hidden():
    a = INITIATIVE.parse({"defender_hidden": True})
    assert [(m.label, m.display()) for m in INITIATIVE.modifiers(a)] == [
        ("Attacker, 1st phase (attacker's roll)", "+1"),
        ("Unit hidden (defender's roll)", "+2"),
    ]
    # 1d6 + 1 against 1d6 + 2: the attacker wins when his die beats the defender's by 2+.
    assert dict(INITIATIVE.odds(a)) == {
        "attacker": Fraction(10, 36),
        "tie": Fraction(5, 36),
        "defender": Fraction(21, 36),
    }
    resolution = INITIATIVE.replay(a, ["5", "3"])
    assert resolution.outcome == "attacker"
    assert str(resolution.trace[-1]) == (
        "test of initiative: attacker 5 +1 = 6, defender 3 +2 = 5: attacker"
    )
    assert INITIATIVE.replay(a, ["4", "3"]).outcome == "tie"


def test_initiative_attacker_bonus_is_for_the_first_phase_only():
    a = INITIATIVE.parse({"first_phase": False})
    assert INITIATIVE.modifiers(a) == []
    assert INITIATIVE.odds(a)["attacker"] == INITIATIVE.odds(a)["defender"] == Fraction(15, 36)
    assert INITIATIVE.replay(a, ["4", "4"]).outcome == "tie"
    tie_to_defender = INITIATIVE.parse({"first_phase": False, "tie": "defender"})
    assert INITIATIVE.odds(tie_to_defender)["defender"] == Fraction(21, 36)


@settings(max_examples=40)
@given(initiative_inputs())
def test_initiative_odds_equal_the_twin(data):
    odds = INITIATIVE.odds(INITIATIVE.parse(data))
    assert dict(odds) == twin_initiative_odds(data)
    assert sum(odds.values()) == 1


@settings(max_examples=30)
@given(initiative_inputs(), st.sampled_from(("stopped", "neutralized", "formation_hesitant")))
def test_a_worse_state_never_helps_a_side_win_the_initiative(data, state):
    for side, other in (("attacker", "defender"), ("defender", "attacker")):
        field = f"{side}_{state}"
        if data[field]:
            continue
        before = INITIATIVE.odds(INITIATIVE.parse(data))
        after = INITIATIVE.odds(INITIATIVE.parse({**data, field: True}))
        assert after[side] <= before[side]
        assert after[other] >= before[other]


@settings(max_examples=40)
@given(initiative_inputs(), st.integers(0, 2**32))
def test_scripted_rolls_reproduce_the_sampled_initiative(data, seed):
    a = INITIATIVE.parse(data)
    sampled = INITIATIVE.resolve(a, seed)
    replayed = INITIATIVE.replay(a, sampled.replay_values())
    assert (replayed.outcome, replayed.trace) == (sampled.outcome, sampled.trace)


# --- the CLI --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["assault", "--troop-type", "veteran", "--stopped"],
        ["assault", "--troop-type", "shock", "--target", "vehicle", "--panzerfaust"],
        ["assault_initiative", "--defender-hidden", "--initiative-dice", "2d6"],
    ],
)
def test_cli_odds_json_sums_to_1(capsys, args):
    assert_odds_json_sums_to_1(capsys, "ept", args)


def test_cli_resolve_with_the_players_dice(capsys):
    code, out, _ = run(
        capsys, "resolve", "ept", "assault", "--troop-type", "line", "--roll", "3,4", "--json"
    )
    assert code == 0
    data = json.loads(out)
    assert data["outcome"] == "step_loss"
    assert data["trace"][0] == {"label": "assault roll (2d6)", "value": 7, "dice": [3, 4]}
    code, out, _ = run(capsys, "resolve", "ept", "assault_initiative", "--seed", "7", "--json")
    assert code == 0
    assert json.loads(out)["outcome"] in {"attacker", "defender", "tie"}


def test_cli_table_prints_the_chart_as_printed(capsys):
    code, out, _ = run(capsys, "table", "ept", "assault", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["columns"] == list(SEED_COLUMNS)
    assert data["cells"][0] == ["9", "6", "7"]


def test_cli_bad_input_is_one_line_and_exit_2(capsys):
    code, out, err = run(capsys, "odds", "ept", "assault", "--troop-type", "line", "--german")
    assert code == 2
    assert out == ""
    assert err == "error: '--german' applies only against a vehicle (target is infantry)\n"
