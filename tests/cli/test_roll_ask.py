"""``--roll ask``: each roll asked for as it comes, one a line through a pipe (typer's
CliRunner with ``input=``), for ``resolve`` (EPT, Up Front's draws), ``move`` and ``engage``;
the early end of the input and a bad entry refused in one line; a terminal asked again; a
choice asked; the journal holding the rolls as given; the web refusing ``ask``."""

from __future__ import annotations

import io
import json
import sys

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from firefight.chance import TWO_D6, Dice, asked, choose, exact, scripted
from firefight.cli import main
from firefight.cli.asking import LineAsk
from firefight.errors import InputError, ScriptError
from firefight.journal import Journal
from firefight.rulesets import registry
from firefight.rulesets.upfront import RULESET as UPFRONT
from firefight.web.app import create_app

FIRE = ["resolve", "ept", "fire", "--strength", "6", "--range", "adjacent"]
MOVE = ["move", "village", "--stack", "0206", "--path", "0306,0406,0506,0606"]
UPFRONT_RESOLUTION = ["resolve", "upfront", "resolution", "--ffs", "3", "--targets", "us-rifle"]


def piped(*args: str, lines: str) -> tuple[int, str, str]:
    """``firefight ARGS`` with ``lines`` on standard input (a pipe, no terminal): the exit
    code, standard output and standard error."""
    with CliRunner().isolation(input=lines) as (out, err, _):
        code = main(list(args))
        sys.stdout.flush()
        sys.stderr.flush()
        return code, out.getvalue().decode(), err.getvalue().decode()


def given_up_front(capsys, *args: str) -> dict:
    assert main(list(args)) == 0
    return json.loads(capsys.readouterr().out)


def test_ept_rolls_asked_through_a_pipe_resolve_as_given_up_front(capsys):
    code, out, err = piped(*FIRE, "--roll", "ask", "--json", lines="4+3\n")
    assert (code, err) == (0, "")  # no prompt written anywhere through a pipe
    assert json.loads(out) == given_up_front(capsys, *FIRE, "--roll", "4+3", "--json")
    code, out, _ = piped(*FIRE, "--roll", "ASK", "--json", lines="7\n")
    assert json.loads(out)["trace"][0] == {"label": "combat roll (2d6)", "value": 7}


def test_the_text_answer_through_a_pipe_has_no_prompt_and_says_how_to_replay(capsys):
    code, out, err = piped(*FIRE, "--roll", "ask", lines="2 5\n")
    assert (code, err) == (0, "")
    assert "replay with: --roll 2+5" in out
    assert "[" not in out.split("\n")[0]  # the first line is the table's, not a question


@pytest.fixture
def upfront_registered(monkeypatch):
    monkeypatch.setitem(registry._registered, "upfront", UPFRONT)


@pytest.mark.parametrize("option", ["--draw", "--roll"])
def test_up_front_cards_asked_one_a_line_resolve_as_drawn_up_front(
    upfront_registered, capsys, option
):
    """Up Front draws cards, not dice: --draw and --roll both read the cards' inventory
    numbers (one option under two names), so both ask for each card as it is drawn."""
    code, out, err = piped(*UPFRONT_RESOLUTION, option, "ask", "--json", lines="3\n")
    assert (code, err) == (0, "")
    assert json.loads(out) == given_up_front(capsys, *UPFRONT_RESOLUTION, "--draw", "3", "--json")


def test_a_move_asked_roll_by_roll_replays_its_seeded_run(capsys):
    """The seeded run's dice, and at each hit the owner choosing the policy's allocation
    (14.6): the same end; the asked run's replay (its choices as ``#N``) repeats it."""
    seeded = given_up_front(capsys, *MOVE, "--seed", "3", "--json")
    code, out, err = piped(*MOVE, "--roll", "ask", "--json", lines=asked_lines(seeded))
    assert (code, err) == (0, "")
    asked_run = json.loads(out)
    assert asked_run == given_up_front(
        capsys, *MOVE, "--roll", ",".join(asked_run["replay"]), "--json"
    )
    assert asked_run["outcome"] == seeded["outcome"]
    assert [v for v in asked_run["replay"] if v.startswith("#")] == ["#1"] * len(
        [v for v in asked_run["replay"] if v.startswith("#")]
    )


def test_an_engagement_asked_roll_by_roll_ends_as_with_its_dice(capsys):
    dice = ["3+4", "5+6", "2", "11", "2+2", "9"]
    engage = ["engage", "ept_hedgerow", "--turns", "2", "--json"]
    code, out, err = piped(*engage, "--roll", "ask", lines="\n".join(dice) + "\n")
    assert (code, err) == (0, "")
    assert json.loads(out) == given_up_front(capsys, *engage, "--roll", ",".join(dice))


def test_the_input_ending_early_is_refused_in_one_line_naming_the_count_and_the_next_roll():
    code, out, err = piped(*MOVE, "--roll", "ask", lines="5+1\n")
    assert (code, out) == (2, "")
    assert err == (
        "error: '--roll' must be one value a line for each roll the run asks for: input ended "
        "after 1 roll, before the choice for '14.6 allocation of 4 CPs in 0306 (us)' "
        "(one of 35 options, by number or words) (got 'end of input')\n"
    )
    code, _, err = piped(*FIRE, "--roll", "ask", lines="")
    assert code == 2
    assert "after 0 rolls, before the roll for 'combat roll (2d6)'" in err


@pytest.mark.parametrize("entry", ["x", "13", "3+4+5", "0"])
def test_a_bad_entry_through_a_pipe_is_refused_in_one_line(entry):
    code, out, err = piped(*FIRE, "--roll", "ask", lines=f"{entry}\n4+3\n")
    assert (code, out) == (2, "")
    assert err.startswith("error: '--roll' must be 2 dice of 1..6 or a total of 2..12 for ")
    assert err.count("\n") == 1


def test_the_rolls_asked_for_are_journaled_as_given(tmp_path):
    db = str(tmp_path / "journal.sqlite3")
    code, _, err = piped(*FIRE, "--roll", "ask", "--db", db, "--json", lines="6\n")
    assert (code, err) == (0, "")
    with Journal.open(db) as journal:
        body = journal.entry(1).body
    assert (body["dice"], body["seed"]) == (["6"], None)


def test_the_web_refuses_ask_in_one_line():
    """Nobody can be asked between two requests: the web takes the dice given up front."""
    answer = TestClient(create_app()).post(
        "/api/rulesets/ept/fire/resolve", json={"input": {"strength": 6}, "roll": "ask"}
    )
    assert answer.status_code == 422
    assert answer.json()["field"] == "roll"
    assert "command line only" in answer.json()["detail"]


def _rule(chance):
    total = chance.roll(TWO_D6, "combat roll")
    pool = chance.count(Dice.d(10, 2), lambda face: face >= 6, "hits")
    return total, pool, choose(chance, "who takes the casualty", ["de-sq1", "de-ldr"], "de-sq1")


def test_at_a_terminal_each_question_is_on_stderr_and_a_bad_entry_asked_again():
    prompts = io.StringIO()
    ask = LineAsk(io.StringIO("13\n3+4\n6\n6 0\nleader\n2\n"), prompts, terminal=True)
    assert asked(_rule, ask).outcome == (7, 2, "de-ldr")
    assert prompts.getvalue().splitlines() == [
        "combat roll [2d6: each die 1..6 joined by +, or the total 2..12]: "
        "not taken: must be 2 dice of 1..6 or a total of 2..12 for 'combat roll' (got '13')",
        "combat roll [2d6: each die 1..6 joined by +, or the total 2..12]: "
        "hits [2d10: each of the 2 dice 1..10, joined by +]: "
        "not taken: must be 2 dice of 1..10 for 'hits' (got '6')",
        "hits [2d10: each of the 2 dice 1..10, joined by +]: "
        "who takes the casualty [1) de-sq1, 2) de-ldr]: "
        "not taken: must be one of de-sq1, de-ldr (or its number) for 'who takes the casualty' "
        "(got 'leader')",
        "who takes the casualty [1) de-sq1, 2) de-ldr]: ",
    ]
    assert ask.read == 3


def test_a_choice_through_a_pipe_is_read_by_name_or_number_and_refused_in_one_line():
    assert asked(_rule, LineAsk(io.StringIO("7\n6+6\nDE-LDR\n"))).outcome == (7, 2, "de-ldr")
    assert asked(_rule, LineAsk(io.StringIO("7\n6+6\n1\n"))).outcome == (7, 2, "de-sq1")
    with pytest.raises(InputError, match=r"one of de-sq1, de-ldr \(or its number\)"):
        asked(_rule, LineAsk(io.StringIO("7\n6+6\n3\n")))
    with pytest.raises(InputError, match="after 2 rolls, before the choice for 'who takes"):
        asked(_rule, LineAsk(io.StringIO("7\n6+6\n")))


def asked_lines(run: dict) -> str:
    """The lines that ask a move again as ``run`` went: each roll's replay value, and at each
    hit the allocation its ``14.61 allocation`` note wrote (the owner's choice, 14.6)."""
    lines = []
    values = iter(run["replay"])
    for step in run["steps"]:
        for event in step["trace"]:
            if event["label"] == "14.61 allocation":
                lines.append(event["value"])
            elif "dice" in event or event["label"].endswith(")"):
                lines.append(next(values))
    return "".join(f"{line}\n" for line in lines)


def test_an_asked_choice_is_traced_and_replayed_as_its_number():
    """The choice is a ``choice`` event (its number kept); the replay gives it as ``#2``, which
    the values given up front read back; without it the default; a number past the options
    refused in one line; exact odds keep the default."""
    answered = asked(_rule, LineAsk(io.StringIO("7\n6+6\nde-ldr\n")))
    assert answered.trace[-1].to_json() == {
        "label": "who takes the casualty",
        "value": "de-ldr",
        "option": 2,
    }
    assert answered.replay_values() == ["7", "6+6", "#2"]
    assert scripted(_rule, answered.replay_values()) == answered
    assert scripted(_rule, ["7", "6+6"]).outcome == (7, 2, "de-sq1")
    with pytest.raises(ScriptError, match=r"#1\.\.#2 for 'who takes the casualty'"):
        scripted(_rule, ["7", "6+6", "#3"])
    assert {outcome[2] for outcome in exact(_rule)} == {"de-sq1"}


def test_a_long_choice_is_listed_one_option_a_line_at_a_terminal():
    """The legal allocations of a hit (14.6) are many: one a line under the question, the
    answer by number; a refusal counts them."""
    options = [f"option {n}" for n in range(1, 8)]
    prompts = io.StringIO()
    ask = LineAsk(io.StringIO("9\n7\n"), prompts, terminal=True)
    assert ask.ask_choice("14.6 allocation", options) == "option 7"
    lines = prompts.getvalue().splitlines()
    assert lines[:3] == ["14.6 allocation:", "  1) option 1", "  2) option 2"]
    assert lines[8].startswith("[1..7]: not taken: must be one of 7 options, by number or words")
    with pytest.raises(InputError, match="one of 7 options, by number or words"):
        LineAsk(io.StringIO("9\n")).ask_choice("14.6 allocation", options)
