"""``firefight --lang fr move --to`` and ``--policy optimal``: the safest paths and the optimal
defender's answers in French, every sentence, title and column of them (the ids, hexes,
fractions and choice values as typed)."""

from __future__ import annotations

import re

import pytest

from firefight.i18n import gettext as _
from firefight.i18n import using
from tests.helpers import run_cli
from tests.i18n.advice_words import pending_french  # noqa: F401 - a fixture

PLACEHOLDER = re.compile(r"\{[a-z_]+\}")
MOVE = ["move", "village", "--stack", "0206"]


def _pieces(message: str) -> list[str]:
    """The words of a message between its placeholders (spaces evened out)."""
    return [" ".join(p.split()) for p in PLACEHOLDER.split(message) if p.strip(" :;,.()")]


def _french(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    code, out, err = run_cli(capsys, "--lang", "fr", *args)
    assert code == 0, err
    return " ".join(out.split())


def _worded(out: str, *messages: str) -> None:
    """Each message's French words are printed and its English ones are not."""
    for message in messages:
        with using("fr"):
            french = _(message)
        assert french != message or message in ("exact", "mines"), message
        for piece in _pieces(french):
            assert piece in out, (message, piece)
        for piece in _pieces(message):
            if len(piece) > 8 and piece not in _pieces(french):  # "to" is in "toutes"
                assert piece not in out, (message, piece)


@pytest.fixture(autouse=True)
def _wide(monkeypatch):
    monkeypatch.setenv("COLUMNS", "400")  # one line per sentence, one per table row


@pytest.mark.usefixtures("pending_french")
def test_the_safest_paths_are_french(capsys):
    out = _french(capsys, *MOVE, "--to", "0406", "--top", "3")
    _worded(
        out,
        ": the safest paths from {start} to {to} (by {objective}, policy {policy}; exact, "
        "{method}, {count} paths evaluated)",
        "Best paths",
        "path",
        "assault",
        "all unpinned",
        "none eliminated",
        "E[CPs]",
        "#{rank} first pin or worse: {where}",
        "{firer} from {hex}",
        "{count} lane marker(s)",
    )
    with using("fr"):
        assert f"{_('yes')} " in out
    assert "(by unpinned, policy threshold;" not in out


@pytest.mark.usefixtures("pending_french")
@pytest.mark.parametrize("policy", ["threshold", "optimal"])
def test_no_path_is_said_in_french(capsys, policy):
    # 1001 is beyond the stack's movement points
    code, out, err = run_cli(capsys, "--lang", "fr", *MOVE, "--to", "1001", "--policy", policy)
    assert (code, out) == (2, "")
    with using("fr"):
        allowed = _("a hex the stack can reach with its MPs")
        line = _("'{field}' must be {allowed} (got {got})")
    assert allowed != "a hex the stack can reach with its MPs"
    assert line.format(field="--to", allowed=allowed, got="'1001'") in err


@pytest.mark.usefixtures("pending_french")
def test_the_optimal_defence_of_a_path_is_french(capsys):
    out = _french(capsys, *MOVE, "--path", "0305,0406", "--assault", "--policy", "optimal")
    _worded(
        out,
        ": the defender's best fire on {path} (against {objective}; exact, {count} states)",
        "Defences",
        "defender",
        "The plan, hex by hex (each fire as the state of the move allows):",
        "{hex}: {fire}, chance {chance}",
        "{fire}, laying {count} lane(s)",
    )


@pytest.mark.usefixtures("pending_french")
def test_the_best_paths_against_the_optimal_defender_are_french(capsys):
    out = _french(capsys, *MOVE, "--to", "0406", "--policy", "optimal", "--top", "2")
    _worded(
        out,
        ": the best paths to {to} against the optimal defender (by {objective}; exact, "
        "{method}, {count} paths solved)",
        "Assault Movement",
        "defender",
    )


def test_english_stays_english(capsys):
    code, out, _err = run_cli(capsys, *MOVE, "--to", "0406", "--policy", "optimal", "--top", "1")
    assert code == 0
    assert "against the optimal defender" in " ".join(out.split())
