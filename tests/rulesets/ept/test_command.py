"""EPT command: activation, adjuncts and rate of fire against the seed's text; twins; properties.

The text below is pasted verbatim from seed 000 (000_7e545a6d88e32420.txt), re-wrapped only.
It is parsed here, independently of firefight's chart loader, and compared line by line with
``data/activation_modifiers.toml``, ``adjuncts*.toml`` and ``rate_of_fire.toml``; the odds are
recomputed from it by brute force over the dice.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from fractions import Fraction
from itertools import pairwise, product
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import firefight
from firefight.core.chart import Chart, load_chart
from firefight.errors import ChartError, InputError
from firefight.rulesets.ept.command import DATA, chart, printed_modifier
from tests.helpers import assert_odds_json_sums_to_1
from tests.helpers import run_cli as run

SEED_ACTIVATION_TEXT = """
MODIFICATEURS D’ACTIVATION = Modifiers to Activation PC not in command: M -1 -- Formation
hesitant: M -1 -- PC stopped: M -1 -- PC neutralized: M -2 -- PC destroyed: M -3 Unit not in
command/isolated: M -1 [does not apply to PCs (6.3)] -- If stopped: M -1 If hesitant: M -1
These modifiers are cumulative (exception: not in command/isolated)."""

SEED_ADJUNCTS_TEXT = """
ADJOINTS = Adjuncts [PC Replacement] Die Bonus 0 +1 1 0 2 0 3 -1 4 -1 5 -1 6 -2 7 -2
Modifiers (die) Shock: -1 Recruit: +1"""

SEED_RATE_OF_FIRE_TEXT = """
Tests of Rate of Fire Unit stopped or hesitant: +1 (cumulative)"""


def flat(text: str) -> str:
    return " ".join(text.split())


def transcribe_activation(text: str) -> dict[str, str]:
    """'label: M -n [note]' lines, with or without the '--' between them."""
    body = flat(text).split("Modifiers to Activation", 1)[1].split("These modifiers", 1)[0]
    body = body.replace("-- ", "")
    return {
        label.strip(): printed
        for label, printed in re.findall(r"(.+?): (M [+-]\d+(?: \[[^\]]*\])?)", body)
    }


def transcribe_adjuncts(text: str) -> tuple[dict[str, str], dict[str, str]]:
    """(die -> bonus, troop type -> die modifier)."""
    table, modifiers = flat(text).split("Die Bonus", 1)[1].split("Modifiers (die)")
    tokens = table.split()
    bonus = dict(zip(tokens[::2], tokens[1::2], strict=True))
    return bonus, dict(re.findall(r"(\w+): ([+-]\d+)", modifiers))


SEED_ACTIVATION = transcribe_activation(SEED_ACTIVATION_TEXT)
SEED_BONUS, SEED_ADJUNCT_MODIFIERS = transcribe_adjuncts(SEED_ADJUNCTS_TEXT)
SEED_RATE_OF_FIRE = dict(
    [flat(SEED_RATE_OF_FIRE_TEXT).removeprefix("Tests of Rate of Fire ").split(": ")]
)


def number(printed: str) -> int:
    """'M -1 [does not apply to PCs (6.3)]' -> -1, '+1 (cumulative)' -> 1."""
    return int(re.search(r"[+-]\d+", printed)[0])


# --- transcription --------------------------------------------------------------------------


def test_the_seed_text_has_every_line():
    assert len(SEED_ACTIVATION) == 8
    assert SEED_ACTIVATION["Unit not in command/isolated"] == ("M -1 [does not apply to PCs (6.3)]")
    assert list(SEED_BONUS) == [str(n) for n in range(8)]
    assert SEED_ADJUNCT_MODIFIERS == {"Shock": "-1", "Recruit": "+1"}
    assert SEED_RATE_OF_FIRE == {"Unit stopped or hesitant": "+1 (cumulative)"}


def differences(table: Chart, seed: dict[str, str], column: str) -> list[str]:
    found = []
    if list(table.rows.labels) != list(seed):
        found.append(f"lines: data {list(table.rows.labels)}, seed {list(seed)}")
    for label, expected in seed.items():
        actual = table.cell_at(label, column).value
        if actual != expected:
            found.append(f"{label}: data {actual!r}, seed {expected!r}")
    return found


SEED_CHARTS = {
    "activation_modifiers": (SEED_ACTIVATION, "Modifier"),
    "adjuncts": (SEED_BONUS, "Bonus"),
    "adjuncts_modifiers": (SEED_ADJUNCT_MODIFIERS, "Modifier"),
    "rate_of_fire": (SEED_RATE_OF_FIRE, "Modifier"),
}


@pytest.mark.parametrize("chart_id", sorted(SEED_CHARTS))
def test_chart_matches_the_seed(chart_id):
    seed, column = SEED_CHARTS[chart_id]
    assert differences(chart(chart_id), seed, column) == []


@pytest.mark.parametrize("die", sorted(SEED_BONUS))
def test_adjuncts_cell_matches_the_seed(die):
    assert chart("adjuncts").cell_at(die, "Bonus").value == SEED_BONUS[die]


def test_a_typo_in_the_data_files_is_caught(tmp_path: Path):
    text = (DATA / "adjuncts.toml").read_text(encoding="utf-8")
    bad = tmp_path / "adjuncts.toml"
    bad.write_text(text.replace('"5" = ["-1"]', '"5" = ["-2"]'), encoding="utf-8")
    assert differences(load_chart(bad), SEED_BONUS, "Bonus") == ["5: data '-2', seed '-1'"]
    text = (DATA / "activation_modifiers.toml").read_text(encoding="utf-8")
    bad = tmp_path / "activation_modifiers.toml"
    bad.write_text(text.replace('"PC destroyed" = ["M -3"]', '"PC destroyed" = ["M -2"]'), "utf-8")
    assert differences(load_chart(bad), SEED_ACTIVATION, "Modifier") == [
        "PC destroyed: data 'M -2', seed 'M -3'"
    ]


def test_a_cell_that_is_not_a_modifier_is_a_chart_error(tmp_path: Path):
    text = (DATA / "rate_of_fire.toml").read_text(encoding="utf-8")
    bad = tmp_path / "rate_of_fire.toml"
    bad.write_text(text.replace('["+1 (cumulative)"]', '["one"]'), encoding="utf-8")
    with pytest.raises(ChartError, match="prints 'one', not a signed modifier"):
        printed_modifier(load_chart(bad), "Unit stopped or hesitant")


def test_every_chart_is_listed_by_the_rule_set():
    assert set(SEED_CHARTS) <= {c.id for c in firefight.ruleset("ept").charts()}


# --- activation -----------------------------------------------------------------------------

ACTIVATION = firefight.ruleset("ept").procedure("activation")
ACTIVATION_FLAGS = (
    "pc_not_in_command",
    "formation_hesitant",
    "unit_not_in_command",
    "unit_isolated",
    "stopped",
    "hesitant",
)
PC_STATUSES = ("normal", "stopped", "neutralized", "destroyed")  # best to worst


@st.composite
def activation_inputs(draw: st.DrawFn) -> dict[str, object]:
    data: dict[str, object] = {name: draw(st.booleans()) for name in ACTIVATION_FLAGS}
    data["morale"] = draw(st.integers(1, 12))
    data["is_pc"] = draw(st.booleans())
    data["pc_status"] = draw(st.sampled_from(PC_STATUSES))
    data["not_in_command_exception"] = draw(
        st.sampled_from(("counts_once", "replaces_pc_modifiers"))
    )
    return data


def twin_modified_morale(data: dict) -> int:
    """From the seed text: M plus the cumulative lines, with the exception as chosen."""
    line = {k: number(v) for k, v in SEED_ACTIVATION.items()}
    unit_out = (data.get("unit_not_in_command") or data.get("unit_isolated")) and not data.get(
        "is_pc"
    )
    replaced = unit_out and data.get("not_in_command_exception") == "replaces_pc_modifiers"
    morale = data["morale"]
    if data.get("pc_not_in_command") and not replaced:
        morale += line["PC not in command"]
    if data.get("formation_hesitant"):
        morale += line["Formation hesitant"]
    status = data.get("pc_status", "normal")
    if status != "normal" and not replaced:
        morale += line[f"PC {status}"]
    if unit_out:
        morale += line["Unit not in command/isolated"]  # once, whichever reading
    morale += line["If stopped"] if data.get("stopped") else 0
    morale += line["If hesitant"] if data.get("hesitant") else 0
    return morale


def twin_activation_odds(data: dict) -> dict[str, Fraction]:
    target = twin_modified_morale(data)
    passing = sum(1 for a, b in product(range(1, 7), repeat=2) if a + b <= target)
    odds = {"activated": Fraction(passing, 36), "failed": Fraction(36 - passing, 36)}
    return {k: p for k, p in odds.items() if p}


def test_activation_worked_example():
    a = ACTIVATION.parse(
        {
            "morale": 8,
            "formation_hesitant": True,
            "pc_status": "neutralized",
            "unit_not_in_command": True,
            "unit_isolated": True,
        }
    )
    assert [(m.label, m.display()) for m in ACTIVATION.modifiers(a)] == [
        ("Formation hesitant", "-1"),
        ("PC neutralized", "-2"),
        ("unit not in command and isolated (counted once: exception)", "-1"),
    ]
    assert dict(ACTIVATION.facts(a)) == {"modified morale": "8 -4 = 4"}
    assert dict(ACTIVATION.odds(a)) == {"activated": Fraction(6, 36), "failed": Fraction(30, 36)}
    resolution = ACTIVATION.replay(a, ["1", "3"])
    assert resolution.outcome == "activated"
    assert str(resolution.trace[-1]) == "activation test: 4 <= modified morale 4: activated"
    assert ACTIVATION.replay(a, ["2", "3"]).outcome == "failed"


def test_the_other_reading_of_the_exception_drops_the_pc_lines():
    data = {"morale": 8, "pc_not_in_command": True, "pc_status": "destroyed"}
    data |= {"unit_not_in_command": True, "not_in_command_exception": "replaces_pc_modifiers"}
    a = ACTIVATION.parse(data)
    assert [(m.label, m.display()) for m in ACTIVATION.modifiers(a)] == [
        ("unit not in command (replaces the PC lines: exception)", "-1"),
    ]
    counted = ACTIVATION.parse({**data, "not_in_command_exception": "counts_once"})
    assert dict(ACTIVATION.facts(counted)) == {"modified morale": "8 -5 = 3"}


def test_not_in_command_or_isolated_does_not_apply_to_pcs():
    a = ACTIVATION.parse({"morale": 7, "is_pc": True, "unit_isolated": True})
    assert [(m.label, m.display()) for m in ACTIVATION.modifiers(a)] == [
        ("unit isolated: does not apply to PCs (6.3)", "+0"),
    ]
    assert dict(ACTIVATION.facts(a)) == {"modified morale": "7 +0 = 7"}


def test_activation_bad_input_names_the_field():
    with pytest.raises(InputError, match="'morale' must be an integer from 1 to 12"):
        ACTIVATION.parse({"morale": 13})
    with pytest.raises(InputError, match="'pc_status' must be one of normal, stopped"):
        ACTIVATION.parse({"morale": 7, "pc_status": "dead"})


@given(activation_inputs())
def test_activation_odds_equal_the_twin(data):
    odds = ACTIVATION.odds(ACTIVATION.parse(data))
    assert dict(odds) == twin_activation_odds(data)
    assert sum(odds.values()) == 1


def activation_chance(data: dict) -> Fraction:
    return ACTIVATION.odds(ACTIVATION.parse(data))["activated"]


@given(activation_inputs(), st.sampled_from(ACTIVATION_FLAGS), st.integers(0, 2))
def test_worse_activation_modifiers_never_make_activation_likelier(data, flag, step):
    replacing = data["not_in_command_exception"] == "replaces_pc_modifiers"
    # Under the reading not taken, the unit's -1 replaces the PC lines: see the test below.
    if not data[flag] and not (replacing and flag.startswith("unit_")):
        assert activation_chance({**data, flag: True}) <= activation_chance(data)
    better = {**data, "pc_status": PC_STATUSES[step]}
    worse = {**data, "pc_status": PC_STATUSES[step + 1]}
    assert activation_chance(worse) <= activation_chance(better)
    if data["morale"] < 12:
        assert activation_chance({**data, "morale": data["morale"] + 1}) >= activation_chance(data)


def test_under_the_reading_not_taken_losing_command_can_help():
    # PC destroyed: M -3; a unit not in command takes M -1 instead of it. This oddity is one
    # reason the default reading is counts_once.
    data = {
        "morale": 7,
        "pc_status": "destroyed",
        "not_in_command_exception": "replaces_pc_modifiers",
    }
    assert activation_chance({**data, "unit_not_in_command": True}) > activation_chance(data)
    default = {**data, "not_in_command_exception": "counts_once"}
    assert activation_chance({**default, "unit_not_in_command": True}) < activation_chance(default)


@given(activation_inputs(), st.integers(0, 2**32))
def test_scripted_rolls_reproduce_the_sampled_activation(data, seed):
    a = ACTIVATION.parse(data)
    sampled = ACTIVATION.resolve(a, seed)
    replayed = ACTIVATION.replay(a, sampled.replay_values())
    assert (replayed.outcome, replayed.trace) == (sampled.outcome, sampled.trace)


# --- adjuncts -------------------------------------------------------------------------------

ADJUNCT = firefight.ruleset("ept").procedure("adjunct")
TROOP_TYPES = ("shock", "veteran", "line", "recruit")


def twin_adjunct_odds(troop_type: str) -> dict[str, Fraction]:
    modifier = int(SEED_ADJUNCT_MODIFIERS.get(troop_type.capitalize(), "0"))
    counts = Counter(SEED_BONUS[str(die + modifier)] for die in range(1, 7))
    return {bonus: Fraction(n, 6) for bonus, n in counts.items()}


@pytest.mark.parametrize("troop_type", TROOP_TYPES)
def test_adjunct_odds_equal_the_twin(troop_type):
    odds = ADJUNCT.odds(ADJUNCT.parse({"troop_type": troop_type}))
    assert dict(odds) == twin_adjunct_odds(troop_type)
    assert sum(odds.values()) == 1


def test_the_die_with_its_modifiers_covers_exactly_the_printed_rows():
    reachable = {
        die + int(SEED_ADJUNCT_MODIFIERS.get(t.capitalize(), "0"))
        for t in TROOP_TYPES
        for die in range(1, 7)
    }
    assert sorted(reachable) == [int(d) for d in SEED_BONUS]  # the clamp never acts


def test_adjunct_worked_example():
    a = ADJUNCT.parse({"troop_type": "recruit"})
    assert [(m.label, m.display()) for m in ADJUNCT.modifiers(a)] == [("recruit", "+1")]
    assert dict(ADJUNCT.odds(a)) == {
        "0": Fraction(1, 6),
        "-1": Fraction(3, 6),
        "-2": Fraction(2, 6),
    }
    resolution = ADJUNCT.replay(a, ["6"])
    assert resolution.outcome == "-2"
    assert str(resolution.trace[-1]) == (
        "ADJOINTS (Adjuncts) [PC Replacement]: 6 +1 = 7: Die 7 -> -2"
    )
    assert ADJUNCT.modifiers(ADJUNCT.parse({"troop_type": "veteran"})) == []


def test_a_better_troop_type_never_gives_a_worse_adjunct():
    order = ["-2", "-1", "0", "+1"]

    def at_least(troop_type: str) -> list[Fraction]:
        odds = ADJUNCT.odds(ADJUNCT.parse({"troop_type": troop_type}))
        return [sum((odds[b] for b in order[i:]), Fraction(0)) for i in range(len(order))]

    ranked = [at_least(t) for t in ("recruit", "line", "veteran", "shock")]
    for worse, better in pairwise(ranked):
        assert all(b >= w for b, w in zip(better, worse, strict=True))


# --- rate of fire ---------------------------------------------------------------------------

RATE = firefight.ruleset("ept").procedure("rate_of_fire")


@st.composite
def rate_inputs(draw: st.DrawFn) -> dict[str, object]:
    return {
        "rate_of_fire": draw(st.integers(0, 12)),
        "stopped": draw(st.booleans()),
        "hesitant": draw(st.booleans()),
        "dice": draw(st.sampled_from(("1d6", "2d6"))),
    }


def twin_rate_odds(data: dict) -> dict[str, Fraction]:
    step = number(SEED_RATE_OF_FIRE["Unit stopped or hesitant"])
    modifier = step * (bool(data.get("stopped")) + bool(data.get("hesitant")))
    dice = 1 if data.get("dice", "1d6") == "1d6" else 2
    rolls = [sum(faces) for faces in product(range(1, 7), repeat=dice)]
    passing = sum(1 for roll in rolls if roll + modifier <= data["rate_of_fire"])
    odds = {
        "passed": Fraction(passing, len(rolls)),
        "failed": Fraction(len(rolls) - passing, len(rolls)),
    }
    return {k: p for k, p in odds.items() if p}


def test_rate_of_fire_worked_example():
    a = RATE.parse({"rate_of_fire": 4, "stopped": True, "hesitant": True})
    assert [(m.label, m.display()) for m in RATE.modifiers(a)] == [
        ("unit stopped", "+1"),
        ("unit hesitant", "+1"),
    ]
    assert dict(RATE.odds(a)) == {"passed": Fraction(1, 3), "failed": Fraction(2, 3)}
    resolution = RATE.replay(a, ["2"])
    assert resolution.outcome == "passed"
    assert str(resolution.trace[-1]) == ("test of rate of fire: 2 +2 = 4 <= rate of fire 4: passed")
    assert RATE.replay(a, ["3"]).outcome == "failed"


@given(rate_inputs())
def test_rate_of_fire_odds_equal_the_twin(data):
    odds = RATE.odds(RATE.parse(data))
    assert dict(odds) == twin_rate_odds(data)
    assert sum(odds.values()) == 1


@given(rate_inputs())
def test_a_higher_rate_of_fire_never_makes_the_test_harder(data):
    def passing(d: dict) -> Fraction:
        return RATE.odds(RATE.parse(d))["passed"]

    if data["rate_of_fire"] < 12:
        assert passing({**data, "rate_of_fire": data["rate_of_fire"] + 1}) >= passing(data)
    for state in ("stopped", "hesitant"):
        if not data[state]:
            assert passing({**data, state: True}) <= passing(data)


@given(rate_inputs(), st.integers(0, 2**32))
def test_scripted_rolls_reproduce_the_sampled_rate_of_fire(data, seed):
    a = RATE.parse(data)
    sampled = RATE.resolve(a, seed)
    replayed = RATE.replay(a, sampled.replay_values())
    assert (replayed.outcome, replayed.trace) == (sampled.outcome, sampled.trace)


# --- the CLI --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["activation", "--morale", "7", "--pc-status", "stopped", "--unit-isolated"],
        ["adjunct", "--troop-type", "shock"],
        ["rate_of_fire", "--rate-of-fire", "4", "--stopped", "--dice", "2d6"],
    ],
)
def test_cli_odds_json_sums_to_1(capsys, args):
    assert_odds_json_sums_to_1(capsys, "ept", args)


def test_cli_resolve_with_the_players_dice(capsys):
    code, out, _ = run(
        capsys, "resolve", "ept", "activation", "--morale", "7", "--roll", "3,4", "--json"
    )
    assert code == 0
    data = json.loads(out)
    assert data["outcome"] == "activated"
    assert data["trace"][0] == {"label": "activation roll (2d6)", "value": 7, "dice": [3, 4]}
    code, out, _ = run(capsys, "resolve", "ept", "adjunct", "--roll", "1", "--json")
    assert code == 0
    assert json.loads(out)["outcome"] == "0"
    code, out, _ = run(
        capsys, "resolve", "ept", "rate_of_fire", "--rate-of-fire", "3", "--seed", "5", "--json"
    )
    assert code == 0
    assert json.loads(out)["outcome"] in {"passed", "failed"}


def test_cli_table_prints_the_adjuncts_as_printed(capsys):
    code, out, _ = run(capsys, "table", "ept", "adjuncts", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["rows"] == list(SEED_BONUS)
    assert [row[0] for row in data["cells"]] == list(SEED_BONUS.values())


def test_cli_bad_input_is_one_line_and_exit_2(capsys):
    code, out, err = run(capsys, "odds", "ept", "activation", "--morale", "13")
    assert code == 2
    assert out == ""
    assert err == "error: '--morale' must be an integer from 1 to 12 (got 13)\n"
