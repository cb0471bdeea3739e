"""The command line in an 80-column terminal and in a pipe: every line of every command's help
and of a sample of outputs fits 80 columns, no option's name is broken across lines, and a
procedure's help lists only the options that apply to its rule set."""

from __future__ import annotations

import pytest
import typer.main

import firefight
from firefight.cli.application import full
from firefight.cli.fields import option_name
from tests.helpers import run_cli as run

WIDTHS = ["80", None]
"""A terminal of 80 columns (``COLUMNS=80``), and a pipe (``COLUMNS`` unset: 80)."""


def _columns(monkeypatch: pytest.MonkeyPatch, columns: str | None) -> None:
    if columns is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", columns)


def _command_paths() -> list[tuple[str, ...]]:
    """Every command and subcommand of ``firefight``, the rule sets' actions with them."""
    group = typer.main.get_command(full())
    paths: list[tuple[str, ...]] = [()]
    ctx = group.context_class(group)
    for name in group.list_commands(ctx):
        paths.append((name,))
        command = group.get_command(ctx, name)
        paths.extend((name, sub) for sub in getattr(command, "commands", {}))
    return paths


def _long_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if len(line.rstrip()) > 80]


def _options_of(path: tuple[str, ...]) -> list[str]:
    """The long option names of the command at ``path`` (made as a run makes it)."""
    group = typer.main.get_command(full())
    ctx = group.context_class(group)
    command = group
    for name in path:
        command = command.get_command(ctx, name)  # type: ignore[attr-defined]
    return [o for p in command.params for o in p.opts if o.startswith("--")]


@pytest.mark.parametrize("columns", WIDTHS)
@pytest.mark.parametrize("path", _command_paths(), ids=" ".join)
def test_every_commands_help_fits_80_columns(capsys, monkeypatch, path, columns):
    _columns(monkeypatch, columns)
    code, out, err = run(capsys, *path, "--help")
    assert (code, err) == (0, "")
    assert _long_lines(out) == []
    for option in _options_of(path):
        assert option in out  # whole, on one line
    assert "<bool>" not in out
    assert "<str>" not in out


def _procedures() -> list[tuple[str, str]]:
    return [(r.id, name) for r in firefight.list_rulesets() for name in r.procedure_names]


@pytest.mark.parametrize("columns", WIDTHS)
@pytest.mark.parametrize(("ruleset", "procedure"), _procedures(), ids="/".join)
def test_every_procedures_help_fits_80_columns(capsys, monkeypatch, ruleset, procedure, columns):
    _columns(monkeypatch, columns)
    code, out, err = run(capsys, "resolve", ruleset, procedure, "--help")
    assert (code, err) == (0, "")
    assert _long_lines(out) == []
    model = firefight.ruleset(ruleset).procedure(procedure).input_model
    for field in model.model_fields:
        assert option_name(field) in out.split()  # a word of its own: never broken


def test_the_help_of_a_procedure_is_short_and_lists_no_cards_for_dice(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    code, out, _ = run(capsys, "resolve", "ept", "fire", "--help")
    assert code == 0
    assert "--gun-fired-on-from-front" in out.split()
    assert "--draw" not in out
    assert len(out.splitlines()) < 80  # it ran to about 150 in a table of four columns


SAMPLES = [
    ("odds", "ept", "artillery_mission", "--artillery", "medium", "--terrain-modifiers", "2"),
    ("odds", "ept", "fire", "--strength", "6", "--range", "adjacent"),
    ("resolve", "ept", "fire", "--strength", "6", "--seed", "1"),
    (
        "resolve",
        "vv",
        "at_attack",
        "--atfp",
        "C",
        "--target",
        "afv",
        "--front-armour",
        "B",
        "--seed",
        "1",
    ),
    ("table", "ept", "combat"),
    ("tables", "ept"),
    ("rulesets",),
    ("demo",),
    ("scenario", "show", "vv_crossroads"),
    ("scenario", "show", "vv_armour"),
    ("move", "vv_crossroads", "--stack", "0206", "--path", "0306,0406"),
]


@pytest.mark.parametrize("columns", WIDTHS)
@pytest.mark.parametrize("args", SAMPLES, ids=" ".join)
def test_outputs_fit_80_columns(capsys, monkeypatch, args, columns):
    _columns(monkeypatch, columns)
    code, out, err = run(capsys, *args)
    assert (code, err) == (0, "")
    assert _long_lines(out) == []
    assert "\x1b[" not in out  # plain: no terminal


def test_the_odds_bar_stays_on_its_line(capsys, monkeypatch):
    monkeypatch.delenv("COLUMNS", raising=False)
    code, out, _ = run(capsys, *SAMPLES[0])
    assert code == 0
    bars = [line for line in out.splitlines() if "█" in line]
    assert bars
    assert all(line.lstrip("│ ").startswith(("-", "S", "N", "1", "E")) for line in bars)


def test_the_demo_chart_header_is_whole(capsys, monkeypatch):
    monkeypatch.delenv("COLUMNS", raising=False)
    code, out, _ = run(capsys, "demo")
    assert code == 0
    assert "FINAL ATTACK FACTOR" in out
    assert "ATTAC\n" not in out


def test_a_chart_too_wide_even_compact_folds_its_columns(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "50")
    code, out, _ = run(capsys, "table", "ept", "combat")
    assert code == 0
    assert _long_lines(out) == []
    assert all(len(line.rstrip()) <= 50 for line in out.splitlines())
    for label in ("1", "12", "28", "40"):  # every column, whole, in one of the parts
        assert label in out.split()
    assert out.count("DICE") >= 2  # each part repeats the rows' labels


def test_journal_list_shows_times_to_the_second(capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("COLUMNS", "80")
    db = str(tmp_path / "j.sqlite3")
    for seed in ("1", "2"):
        run(capsys, "resolve", "ept", "fire", "--strength", "6", "--seed", seed, "--db", db)
    code, out, _ = run(capsys, "journal", "list", "--db", db)
    assert code == 0
    assert _long_lines(out) == []
    rows = [line for line in out.splitlines() if line.startswith("│ ")]
    assert len(rows) == 2  # one line an entry: its time does not wrap
    assert all("Z" in row and "." not in row.split("│")[2] for row in rows)


def test_the_rule_sets_listing_never_breaks_a_procedure_name(capsys, monkeypatch):
    _columns(monkeypatch, 80)
    code, out, _ = run(capsys, "rulesets")
    assert code == 0
    assert _long_lines(out) == []
    words = {w.strip(",│ ") for line in out.splitlines() for w in line.split()}
    assert {"panzerfaust_availability", "artillery_placement", "sniper_elimination"} <= words
