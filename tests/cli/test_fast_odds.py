"""The fast dispatch of ``firefight odds GAME PROCEDURE --field value ...`` (no Typer) and the
Typer command are twins: for every procedure of every built-in game, argument lists drawn from
its input model, valid and not, give the same standard output, standard error and exit code
byte for byte; the valid plain ones are answered by the fast dispatch itself, and nothing it
leaves to the Typer command has printed anything."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import firefight
from firefight.cli import main
from firefight.cli.fast import dispatched, plain
from firefight.cli.running import main as typer_main
from tests.rulesets.test_every_procedure import inputs

GAMES = ("ept", "percentile", "tirs", "upfront", "vv")
PROCEDURES = [(r, p) for r in firefight.list_rulesets() if r.id in GAMES for p in r.procedures]
TWISTS = (
    "none",
    "unknown option",
    "bad value",
    "value missing",
    "json twice",
    "help",
    "inline value",
    "short option",
    "dash dash",
    "alias",
    "repeated option",
)
"""How an argument list drawn from the input model is bent (``none``: left as drawn)."""


def _word(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _options(data: dict[str, object]) -> list[str]:
    """``--name value`` for each value drawn (a typed list left to its default)."""
    words: list[str] = []
    for name, value in data.items():
        if value is None or isinstance(value, tuple):
            continue
        words += ["--" + name.replace("_", "-"), _word(value)]
    return words


def _twisted(words: list[str], twist: str, ruleset_id: str) -> list[str]:
    bent = {
        "unknown option": [*words, "--no-such-option", "1"],
        "bad value": [*words[:-1], "no-such-value"] if words else ["--x"],
        "value missing": words[:-1],
        "json twice": [*words, "--json", "--json"],
        "help": [*words, "--help"],
        "inline value": [f"{words[0]}={words[1]}", *words[2:]] if words else [],
        "short option": ["-h", *words],
        "dash dash": ["--", *words],
        "alias": words,
        "repeated option": words + words[:2],
    }
    return bent.get(twist, words)


def _run(run, args: list[str], capsys) -> tuple[int, str, str]:
    code = run(args)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    ("ruleset", "procedure"), PROCEDURES, ids=[f"{r.id}.{p.name}" for r, p in PROCEDURES]
)
@settings(
    max_examples=12,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    deadline=None,
)
@given(data=st.data())
def test_the_fast_dispatch_answers_as_the_typer_command(ruleset, procedure, data, capsys):
    drawn = data.draw(inputs(procedure))
    twist = data.draw(st.sampled_from(TWISTS))
    as_json = data.draw(st.booleans())
    game = ruleset.aliases[0] if twist == "alias" and ruleset.aliases else ruleset.id
    words = _twisted(_options(drawn), twist, ruleset.id)
    args = ["odds", game, procedure.name, *words, *(["--json"] if as_json else [])]
    code, out, err = _run(dispatched, args, capsys)
    typed = _run(typer_main, args, capsys)
    if code is None:  # left to the Typer command: nothing printed yet
        assert (out, err) == ("", ""), args
        assert _run(main, args, capsys) == typed, args
    else:
        assert (code, out, err) == typed, args
    values = words[1::2] if twist in {"none", "alias"} else []
    if typed[0] == 0 and not any(v.startswith("-") for v in values) and twist in {"none", "alias"}:
        assert code == 0, args  # a plain valid list is the fast dispatch's own


@pytest.mark.parametrize(
    ("ruleset", "procedure"), PROCEDURES, ids=[f"{r.id}.{p.name}" for r, p in PROCEDURES]
)
@pytest.mark.parametrize("as_json", [False, True])
def test_a_procedures_defaults_are_answered_by_the_fast_dispatch(
    ruleset, procedure, as_json, capsys
):
    """Each procedure with its defaults (the required fields their first allowed value, where
    that is valid) is worked out by the fast dispatch, as the Typer command prints it."""
    args = ["odds", ruleset.id, procedure.name, *(["--json"] if as_json else [])]
    typed = _run(typer_main, args, capsys)
    code = dispatched(args)
    out, err = capsys.readouterr()
    if typed[0] == 0:
        assert (code, out, err) == typed
    else:  # a required input missing: left to the Typer command, nothing printed
        assert (code, out, err) == (None, "", "")


@pytest.mark.parametrize(
    "args",
    [
        ["odds"],
        ["odds", "ept"],
        ["odds", "--help"],
        ["odds", "ept", "fire", "--help"],
        ["odds", "ept", "fire", "-h"],
        ["odds", "ept", "fire", "--json", "--json"],
        ["odds", "ept", "fire", "--json=1"],
        ["odds", "ept", "fire", "--"],
        ["odds", "ept", "fire", "--strength", "-1"],
        ["--lang", "fr", "odds", "ept", "fire"],
        ["odds", "--json", "ept", "fire"],
        ["modifiers", "ept", "fire"],
        ["--version"],
    ],
)
def test_what_the_fast_dispatch_leaves_to_the_typer_command(args):
    assert plain(args) is None


def test_shell_completion_is_left_to_the_typer_command(monkeypatch):
    monkeypatch.setenv("_FIREFIGHT_COMPLETE", "complete_bash")
    assert plain(["odds", "ept", "fire"]) is None


def test_the_language_asked_for_is_the_fast_dispatchs_too(monkeypatch, capsys):
    monkeypatch.setenv("FIREFIGHT_LANG", "fr")
    args = ["odds", "ept", "fire", "--strength", "6", "--range", "adjacent"]
    typed = _run(typer_main, args, capsys)
    assert _run(dispatched, args, capsys) == typed
    assert typed[0] == 0
