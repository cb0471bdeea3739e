"""The command line: help for every command, --version and completion, the terminal's
width, errors that name the option, Les tirs' D10 ``0``, the board's text output, the demo."""

from __future__ import annotations

import fcntl
import json
import os
import pty
import re
import shlex
import struct
import subprocess
import sys
import termios

import pytest

import firefight
from firefight.digits import SEEDS
from tests.helpers import run_cli as run

PROCEDURE_COMMANDS = ["odds", "modifiers", "resolve"]


@pytest.mark.parametrize("command", PROCEDURE_COMMANDS)
def test_command_help_lists_the_rule_sets_then_their_procedures(capsys, command):
    code, out, err = run(capsys, command, "--help")
    assert (code, err) == (0, "")
    assert f"firefight {command}" in out  # the command's own help first
    for rules in firefight.list_rulesets():
        assert rules.id in out
        assert all(name in out for name in rules.procedure_names)
    assert out.index("Rule sets and their procedures") > out.index("Usage")


@pytest.mark.parametrize("command", PROCEDURE_COMMANDS)
def test_rule_set_help_lists_its_procedures(capsys, command):
    code, out, err = run(capsys, command, "ept", "--help")
    assert (code, err) == (0, "")
    assert "Procedures of ept" in out
    ept = firefight.ruleset("ept")
    for name in ept.procedure_names:
        assert name in out
        assert " ".join(ept.procedure(name).title.split()[:2]) in " ".join(out.split())
    assert "ap_attack" not in out  # V&V's, not EPT's


def test_procedure_help_of_resolve_lists_seed_roll_and_json(capsys):
    code, out, err = run(capsys, "resolve", "ept", "fire", "--help")
    assert (code, err) == (0, "")
    for option in ("--strength", "--seed INTEGER", "--roll TEXT", "--json"):
        assert option in out
    assert "--draw" not in out  # a dice game's procedure: no cards to draw


def test_procedure_help_of_a_card_game_lists_draw(capsys):
    code, out, err = run(capsys, "resolve", "upfront", "fire", "--help")
    assert (code, err) == (0, "")
    assert "--draw TEXT" in out


def test_procedure_help_of_odds_lists_json(capsys):
    code, out, _ = run(capsys, "odds", "ept", "fire", "-h")
    assert code == 0
    assert "--json" in out
    assert "--seed" not in out


def test_board_scatter_help_lists_the_scatter_procedures_options(capsys):
    code, out, err = run(capsys, "board", "scatter", "--help")
    assert (code, err) == (0, "")
    scatter = firefight.ruleset("ept").procedure("scatter")
    for field in scatter.input_model.model_fields:
        assert "--" + field.replace("_", "-") in out
    assert "--json" in out


def test_a_bare_firefight_prints_its_help_without_an_empty_error_line(capsys):
    code, out, err = run(capsys)
    assert "Usage: firefight" in out
    assert err == ""
    assert code == 2  # Click's code for a missing command, as `firefight board` gives


def test_a_bare_group_prints_its_help_without_an_empty_error_line(capsys):
    code, out, err = run(capsys, "board")
    assert "Usage: firefight board" in out
    assert (code, err) == (2, "")


def test_version_prints_the_package_version(capsys):
    code, out, err = run(capsys, "--version")
    assert (code, out, err) == (0, f"firefight {firefight.__version__}\n", "")


def test_show_completion_for_bash_prints_a_script(capsys, monkeypatch):
    monkeypatch.setenv("_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION", "1")  # name the shell
    code, out, _ = run(capsys, "--show-completion", "bash")
    assert code == 0
    assert "_FIREFIGHT_COMPLETE=complete_bash" in out
    assert "complete " in out


def test_show_completion_detects_bash_and_prints_its_script():
    """Run from bash (``; true`` keeps bash from exec-ing python, so bash is its parent)."""
    command = f"{shlex.quote(sys.executable)} -m firefight --show-completion; true"
    result = subprocess.run(
        ["bash", "-c", command],
        capture_output=True,
        text=True,
        check=False,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": ":".join(sys.path)},
    )
    assert "_firefight_completion()" in result.stdout
    assert "complete -o default -F _firefight_completion firefight" in result.stdout


def test_completion_completes_command_names(capsys, monkeypatch):
    monkeypatch.setenv("_FIREFIGHT_COMPLETE", "complete_bash")
    monkeypatch.setenv("COMP_WORDS", "firefight od")
    monkeypatch.setenv("COMP_CWORD", "1")
    code, out, _ = run(capsys)
    assert code == 0
    assert "odds" in out.split()


def test_the_help_offers_completion(capsys):
    _, out, _ = run(capsys, "--help")
    assert "--install-completion" in out
    assert "--show-completion" in out


NARROW = [
    ["--help"],
    ["rulesets"],
    ["table", "ept", "combat"],
    ["table", "vv", "ap_combat"],
    ["odds", "ept", "fire", "--strength", "6", "--range", "adjacent"],
    ["odds", "--help"],
    ["odds", "ept", "fire", "--help"],
    ["resolve", "ept", "fire", "--strength", "6", "--seed", "1"],
    ["demo"],
    ["board", "visible", "vv_village", "0310"],
]


@pytest.mark.parametrize("args", NARROW, ids=[" ".join(a) for a in NARROW])
def test_output_fits_an_80_column_terminal(capsys, monkeypatch, args):
    monkeypatch.setenv("COLUMNS", "80")
    code, out, _ = run(capsys, *args)
    assert code == 0
    assert max(len(line) for line in out.splitlines()) <= 80


@pytest.mark.parametrize(
    "args",
    [["rulesets"], ["demo"], ["odds", "vv", "ap_attack_hex", "--apfp", "6"]],
    ids=["rulesets", "demo", "vv ap_attack_hex"],
)
def test_a_narrow_terminal_folds_long_cells_instead_of_cutting_them(capsys, monkeypatch, args):
    monkeypatch.setenv("COLUMNS", "60")
    code, out, _ = run(capsys, *args)
    assert code == 0
    assert "…" not in out
    assert max(len(line) for line in out.splitlines()) <= 60


def test_a_narrow_chart_keeps_every_code_readable(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    _, out, _ = run(capsys, "table", "ept", "combat")
    assert "…" not in out
    chart = firefight.ruleset("ept").chart("combat")
    row = next(line for line in out.splitlines() if line.split()[:1] == ["7"])
    assert row.split() == ["7", *chart.cells[chart.rows.labels.index("7")]]


def test_a_wide_terminal_is_used_whole(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    _, out, _ = run(capsys, "table", "ept", "combat")
    assert "DICE \\ FINAL ATTACK FACTOR" in out  # the header on one line, cells boxed


def _in_a_terminal(columns: int, *args: str) -> str:
    """What ``firefight ARGS`` prints to a terminal (a pseudo-terminal) ``columns`` wide."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": ":".join(sys.path), "TERM": "xterm"}
    process = subprocess.Popen(
        [sys.executable, "-m", "firefight", *args], stdout=slave, stderr=slave, env=env
    )
    os.close(slave)
    printed = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # the terminal closed: the command has ended
            break
        if not chunk:
            break
        printed += chunk
    process.wait()
    os.close(master)
    return printed.decode()


@pytest.mark.parametrize("columns", [70, 150])
def test_output_follows_the_width_of_the_terminal_it_prints_to(columns):
    printed = _in_a_terminal(columns, "table", "ept", "combat")
    plain = re.sub(r"\x1b\[[0-9;?]*[a-zA-Z]", "", printed)
    assert max(len(line.rstrip("\r")) for line in plain.splitlines()) == columns
    assert "\x1b[" in printed  # styled on a terminal, unlike piped output


def test_piped_output_is_plain_text():
    result = subprocess.run(
        [sys.executable, "-m", "firefight", "odds", "ept", "fire", "--strength", "6"],
        capture_output=True,
        text=True,
        check=False,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": ":".join(sys.path), "TERM": "xterm"},
    )
    assert result.returncode == 0
    assert "\x1b" not in result.stdout
    assert max(len(line) for line in result.stdout.splitlines()) <= 80  # COLUMNS unset: 80


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["odds", "ept", "fire", "--strength", "6", "--target-movement", "fast"],
            "error: '--target-movement' must be one of none, tactical, normal, force_march "
            "(got 'fast')\n",
        ),
        (["odds", "ept", "fire"], "error: '--strength' must be given: an integer from 1 to 99"),
        (
            ["odds", "vv", "at_attack", "--atfp", "C", "--target", "afv"],
            "error: '--front-armour' must be given for an afv target (V&V 18.5)\n",
        ),
        (
            ["board", "scatter", "normandy_bocage", "0303", "--observer-distance", "x"],
            "error: '--observer-distance' must be ",
        ),
        (["engage", "ept_hedgerow", "--turns", "0"], "error: '--turns' must be an integer of"),
    ],
)
def test_errors_name_the_option_as_typed(capsys, args, message):
    code, out, err = run(capsys, *args)
    assert (code, out) == (2, "")
    assert err.startswith(message)
    assert err.count("\n") == 1


def test_an_unknown_option_suggests_the_closest(capsys):
    code, _, err = run(capsys, "odds", "ept", "fire", "--strenght", "6")
    assert code == 2
    assert err.startswith("error: 'option' must be one of --strength, ")
    assert err.endswith("(got '--strenght'); did you mean --strength?\n")


def test_an_unknown_option_far_from_any_suggests_nothing(capsys):
    _, _, err = run(capsys, "odds", "ept", "fire", "--zzzzzz", "6")
    assert "did you mean" not in err


def test_choices_are_case_insensitive(capsys):
    base = ["odds", "ept", "fire", "--strength", "6", "--json"]
    _, lower, _ = run(capsys, *base, "--protection", "medium", "--range", "adjacent")
    code, mixed, err = run(capsys, *base, "--protection", "Medium", "--range", "ADJACENT")
    assert (code, err) == (0, "")
    assert json.loads(mixed) == json.loads(lower)


@pytest.mark.parametrize(
    "args",
    [
        ["resolve", "ept", "fire", "--strength", "6", "--seed", "abc"],
        ["engage", "ept_hedgerow", "--seed", "abc"],
    ],
)
def test_a_seed_that_is_not_a_number_gets_the_usual_one_line(capsys, args):
    code, _, err = run(capsys, *args)
    assert code == 2
    assert err == f"error: '--seed' must be {SEEDS} (got 'abc')\n"


TIRS = ["resolve", "tirs", "fire", "--cdt", "2", "--experience", "trained", "--json"]


def test_les_tirs_reads_a_d10_face_0_as_10(capsys):
    code, zero, err = run(capsys, *TIRS, "--roll", "3,0")
    assert (code, err) == (0, "")
    _, ten, _ = run(capsys, *TIRS, "--roll", "3,10")
    assert json.loads(zero)["trace"] == json.loads(ten)["trace"]
    assert json.loads(zero)["outcome"] == json.loads(ten)["outcome"]


def test_a_die_numbered_from_0_keeps_its_0():
    from firefight.chance.evaluate import Scripted  # noqa: PLC0415
    from firefight.rulesets.percentile.fire import TENS  # noqa: PLC0415

    assert Scripted(["0"]).roll(TENS, "tens") == 0


def test_board_visible_prints_every_hex_seen_with_its_modifier(capsys):
    _, data, _ = run(capsys, "board", "visible", "normandy_bocage", "0202", "--json")
    seen = json.loads(data)["visible"]
    code, out, _ = run(capsys, "board", "visible", "normandy_bocage", "0202")
    assert code == 0
    assert out.splitlines()[0].startswith(f"0202 sees {len(seen)} of ")
    shown = " ".join(out.splitlines()[1:])
    for label, modifier in seen.items():
        assert f"{label} {modifier:+d}" in shown
    assert any(modifier for modifier in seen.values())  # hindered hexes are among them


def test_board_los_refuses_a_line_from_a_hex_to_itself(capsys):
    code, out, err = run(capsys, "board", "los", "normandy_bocage", "0202", "0202")
    assert (code, out) == (2, "")
    assert err == "error: 'TO' must be a hex other than FROM (0202) (got '0202')\n"


SEED_WORD = re.compile(r"(?<!--)\bseeds?\b", re.IGNORECASE)


def test_help_texts_speak_of_the_rules_not_of_the_seed():
    """A player reads "seed" as --seed: the procedures' field descriptions, outcome meanings and
    titles say "the chart sheet" or "the rules"."""
    found = []
    for rules in firefight.list_rulesets():
        for name in rules.procedure_names:
            procedure = rules.procedure(name)
            texts = [procedure.title, *procedure.meanings.values()]
            texts += [f.description or "" for f in procedure.input_model.model_fields.values()]
            found += [f"{rules.id} {name}: {t}" for t in texts if SEED_WORD.search(t)]
    assert found == []


def test_help_texts_cite_the_projects_own_docs():
    """A clone has no FACTS.md: the descriptions point at docs/sources.md."""
    cited = []
    for rules in firefight.list_rulesets():
        for name in rules.procedure_names:
            fields = rules.procedure(name).input_model.model_fields
            texts = [f.description or "" for f in fields.values()]
            cited += [t for t in texts if "FACTS.md" in t or "shared/" in t]
    assert cited == []


def _command_lines(out: str) -> list[list[str]]:
    joined = out.replace("\\\n", " ")
    return [shlex.split(line) for line in joined.splitlines() if line.startswith("firefight ")]


def test_demo_situation_has_no_hindrance_hex_next_to_an_adjacent_target(capsys):
    from firefight.rulesets.ept.example import EXAMPLE  # noqa: PLC0415

    assert EXAMPLE["range"] != "adjacent" or EXAMPLE["hindrance_hexes"] == 0
    _, out, _ = run(capsys, "demo")
    assert "adjacent enemy" not in out


def test_demo_replay_lines_carry_the_options_and_give_the_same_result(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")  # the lines are broken with \ to fit
    _, out, _ = run(capsys, "demo")
    result = re.search(r"Result: (\S+)", out)
    assert result is not None
    odds, seeded, rolled = _command_lines(out)
    assert odds[:4] == ["firefight", "odds", "ept", "fire"]
    assert "--hindrance-hexes" in odds
    assert seeded[-2:] == ["--seed", "42"]
    assert rolled[-2] == "--roll"
    for line in (seeded, rolled):
        code, printed, err = run(capsys, *line[1:], "--json")
        assert (code, err) == (0, "")
        assert json.loads(printed)["outcome"] == result[1]
    code, _, _ = run(capsys, *odds[1:])
    assert code == 0


def test_a_rules_own_line_names_options_but_keeps_the_value_given():
    from firefight.cli.fields import renamed  # noqa: PLC0415
    from firefight.errors import InputError  # noqa: PLC0415

    error = InputError("input", "", None)
    error.args = ("'strength' must be below 'range' (got 'range')",)
    options = {"strength": "--strength", "range": "--range"}
    assert str(renamed(error, options, worded=True)) == (
        "'--strength' must be below '--range' (got 'range')"
    )
    assert str(error) == "'strength' must be below 'range' (got 'range')"  # a new error


def test_a_renamed_error_keeps_its_class_and_what_it_carries():
    from firefight.cli.fields import renamed  # noqa: PLC0415
    from firefight.errors import ScriptError  # noqa: PLC0415

    error = ScriptError("roll", "2 dice of 1..6", "9")
    shown = renamed(error, {"roll": "--roll"})
    assert type(shown) is ScriptError
    assert (shown.field, shown.allowed, shown.got) == ("--roll", "2 dice of 1..6", "9")
    assert str(shown) == "'--roll' must be 2 dice of 1..6 (got '9')"
    assert error.field == "roll"


def test_a_commands_own_line_is_left_as_worded():
    """A line not about an option (a spec file's key named like one) is not reworded."""
    from firefight.cli.fields import renamed  # noqa: PLC0415
    from firefight.errors import InputError  # noqa: PLC0415

    error = InputError("spec", "", None)
    error.args = ("my.toml: 'seed' must be an integer",)
    assert str(renamed(error, {"seed": "--seed"})) == "my.toml: 'seed' must be an integer"
