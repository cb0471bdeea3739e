"""Each game file's own words are its game's alone: two files wording the same English text
otherwise (or one giving none) each show theirs, on the command line (``odds``, ``table``)
and on the web's pages and answers, in French; a word the interface's catalogue translates
is the file's where the file words it, for its own game only."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from firefight.i18n import gettext, using
from firefight.rulesets import added
from firefight.web.app import create_app
from tests.helpers import run_cli, shown

GAME = """\
id = "{id}"
title = "Skirmish Fire Table"
{title_fr}
source = "My Skirmish Game, rule 7"
procedure = "fire"
procedure_title = "Fire (Skirmish Fire Table)"
dice = "1d6"

[[fields]]
name = "fire_factor"
type = "integer"
min = 1
max = 12
default = 2

[[fields]]
name = "target_in_cover"
type = "flag"

[[modifiers]]
label = "target behind a wall"
{label_fr}
rule = "7.3"
when = {{ target_in_cover = true }}
dice = -1

[column]
by = "strength"
strength = "fire_factor"
header = "fire factor"
labels = ["1", "2-3", "4-6", "7+"]

[rows]
header = "die"
labels = ["<=1", "2", "3", "4", "5", "6"]

[cells]
"<=1" = ["-", "-", "-", "S"]
"2"   = ["-", "-", "S", "S"]
"3"   = ["-", "S", "S", "K"]
"4"   = ["S", "S", "K", "K"]
"5"   = ["S", "K", "K", "K"]
"6"   = ["K", "K", "K", "K"]

[[results]]
code = "-"
meaning = "no effect"

[[results]]
code = "S"
meaning = "suppressed"
{suppressed_fr}

[[results]]
code = "K"
meaning = "knocked out"
meaning_fr = "{knocked_out_fr}"
"""
ALPHA = GAME.format(
    id="alpha",
    title_fr='title_fr = "Table de tir d\'escarmouche"',
    label_fr='label_fr = "cible derrière un mur"',
    suppressed_fr='meaning_fr = "neutralisée"',
    knocked_out_fr="mise hors de combat",
)
BRAVO = GAME.format(
    id="bravo", title_fr="", label_fr="", suppressed_fr="", knocked_out_fr="hors de combat"
)
OPTIONS = ["--fire-factor", "5", "--target-in-cover", "true"]


def interface(text: str) -> str:
    """The interface's own French for ``text`` (its catalogue's), no game shown."""
    with using("fr"):
        return gettext(text)


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A folder of added rule sets holding the two games, read afresh."""
    where = tmp_path / "rulesets"
    where.mkdir()
    (where / "alpha.toml").write_text(ALPHA, encoding="utf-8")
    (where / "bravo.toml").write_text(BRAVO, encoding="utf-8")
    monkeypatch.setenv(added.FOLDER_VARIABLE, str(where))
    monkeypatch.setenv("COLUMNS", "160")
    added.forget()
    yield where
    added.forget()


def test_the_catalogue_words_suppressed_otherwise_than_the_first_file():
    assert interface("suppressed") not in ("suppressed", "neutralisée")
    assert interface("knocked out") == "knocked out"  # no catalogue's word: the files' own


@pytest.mark.parametrize("order", [("alpha", "bravo"), ("bravo", "alpha")])
def test_odds_in_french_show_each_files_own_words_whichever_was_read_last(folder, capsys, order):
    for game in (*order, *order):  # each read, then each shown after the other was read
        code, out, err = run_cli(capsys, "--lang", "fr", "odds", game, "fire", *OPTIONS)
        assert code == 0, err
        if game == "alpha":
            assert shown("neutralisée", out), out
            assert shown("mise hors de combat", out), out
            assert shown("cible derrière un mur", out), out
            assert "Table de tir d'escarmouche" in out
        else:
            assert shown(interface("suppressed"), out), out
            assert "neutralisée" not in out
            assert shown("hors de combat", out), out
            assert "mise hors de combat" not in out, out
            assert shown("target behind a wall", out), out
            assert "cible derrière un mur" not in out, out
            assert "Skirmish Fire Table" in out
            assert "escarmouche" not in out


def test_a_chart_in_french_shows_its_files_own_words(folder, capsys):
    for game in ("alpha", "bravo", "alpha"):
        code, out, err = run_cli(capsys, "--lang", "fr", "table", game, game)
        assert code == 0, err
        if game == "alpha":
            assert "S neutralisée" in out, out
            assert "K mise hors de combat" in out, out
        else:
            assert f"S {interface('suppressed')};" in out, out
            assert "K hors de combat" in out, out
            assert "neutralisée" not in out, out
            assert "mise" not in out, out


def test_a_games_words_leave_the_interface_and_the_commands_after_it_as_they_were(folder, capsys):
    assert run_cli(capsys, "--lang", "fr", "odds", "alpha", "fire", *OPTIONS)[0] == 0
    assert interface("suppressed") != "neutralisée"  # the command's game is shown no more
    code, out, _err = run_cli(capsys, "--lang", "fr", "table", "bravo", "bravo")
    assert code == 0
    assert "neutralisée" not in out


def _section(page: str, game: str) -> str:
    found = re.search(rf'<section class="ruleset" id="ruleset-{game}">(.*?)</section>', page, re.S)
    assert found is not None, game
    return found.group(1)


def test_the_web_pages_in_french_show_each_games_own_words(folder):
    client = TestClient(create_app())
    for game in ("alpha", "bravo", "alpha"):
        page = client.get(f"/rulesets/{game}/fire?lang=fr")
        chart = client.get(f"/rulesets/{game}/tables/{game}?lang=fr")
        assert page.status_code == chart.status_code == 200
        if game == "alpha":
            assert "neutralisée" in chart.text
            assert "mise hors de combat" in chart.text
            assert "Table de tir d&#39;escarmouche" in page.text
            assert json.dumps("cible derrière un mur") in page.text  # the scripts' words
        else:
            assert interface("suppressed") in chart.text
            assert "hors de combat" in chart.text
            assert "neutralisée" not in chart.text
            assert "mise hors" not in chart.text
            assert "neutralisée" not in page.text
            assert json.dumps("cible derrière un mur") not in page.text
            assert "escarmouche" not in page.text
    home = client.get("/?lang=fr").text
    assert "Table de tir d&#39;escarmouche" in _section(home, "alpha")
    assert "Skirmish Fire Table" in _section(home, "bravo")
    assert "escarmouche" not in _section(home, "bravo")


def test_the_api_in_french_answers_each_game_and_leaves_the_next_request_its_own(folder):
    """The API's answers keep their labels in English (the stable shapes): a request for one
    game, its words shown in its context alone, leaves the next request's page its own."""
    client = TestClient(create_app())
    for game in ("alpha", "bravo", "alpha"):
        answer = client.post(f"/api/rulesets/{game}/fire/odds?lang=fr", json={"fire_factor": 5})
        assert answer.status_code == 200, answer.text
        assert answer.json()["distribution"] == {"-": "1/6", "S": "1/3", "K": "1/2"}
        rolled = client.post(
            f"/api/rulesets/{game}/fire/resolve?lang=fr",
            json={"input": {"fire_factor": 5, "target_in_cover": True}, "seed": 1},
        )
        assert rolled.json()["modifiers"][0]["label"] == "target behind a wall"
        refused = client.post(f"/api/rulesets/{game}/fire/odds?lang=fr", json={"fire_factor": 99})
        assert refused.status_code == 422
        assert refused.json()["detail"] == "'fire_factor' doit être un entier de 1 à 12 (reçu 99)"
        other = "bravo" if game == "alpha" else "alpha"
        chart = client.get(f"/rulesets/{other}/tables/{other}?lang=fr").text
        assert ("neutralisée" in chart) == (other == "alpha")
        assert ("mise hors de combat" in chart) == (other == "alpha")
