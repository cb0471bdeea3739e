"""``--lang fr`` and ``FIREFIGHT_LANG``: the CLI in French, its errors too."""

from __future__ import annotations

import json

from tests.helpers import run_cli as run
from tests.helpers import shown

ODDS = ["odds", "ept", "fire", "--strength", "6", "--target-movement", "force_march"]


def test_lang_fr_prints_the_title_the_table_and_the_meanings_in_french(capsys):
    code, out, _ = run(capsys, "--lang", "fr", *ODDS)
    assert code == 0
    assert "Tir (MODIFICATEURS DE TIR, TABLE DE COMBAT)" in out
    assert "Probabilités" in out
    assert "probabilité" in out


def test_english_stays_the_default(capsys, monkeypatch):
    monkeypatch.delenv("FIREFIGHT_LANG", raising=False)
    code, out, _ = run(capsys, *ODDS)
    assert code == 0
    assert shown("Fire combat (MODIFICATEURS DE TIR, TABLE DE COMBAT)", out)


def test_firefight_lang_chooses_french_and_lang_wins_over_it(capsys, monkeypatch):
    monkeypatch.setenv("FIREFIGHT_LANG", "fr")
    code, out, _ = run(capsys, *ODDS)
    assert code == 0
    assert "Tir (MODIFICATEURS DE TIR" in out
    code, out, _ = run(capsys, "--lang", "en", *ODDS)
    assert "Fire combat (MODIFICATEURS DE TIR" in out


def test_a_user_error_in_french_is_one_line_with_exit_code_2(capsys):
    code, out, err = run(capsys, "--lang=fr", "odds", "ept", "fire", "--strength", "x")
    assert code == 2
    assert out == ""
    assert err == "erreur : '--strength' doit être un entier de 1 à 99 (reçu 'x')\n"


def test_a_language_not_spoken_is_one_line_naming_the_option(capsys, monkeypatch):
    code, _, err = run(capsys, "--lang", "de", *ODDS)
    assert (code, err) == (2, "error: 'lang' must be one of en, fr (got 'de')\n")
    monkeypatch.setenv("FIREFIGHT_LANG", "klingon")
    code, _, err = run(capsys, *ODDS)
    assert (code, err) == (2, "error: 'FIREFIGHT_LANG' must be one of en, fr (got 'klingon')\n")


def test_json_keeps_english_keys_and_outcome_codes_in_french(capsys):
    code, out, _ = run(capsys, "--lang", "fr", *ODDS, "--json")
    assert code == 0
    data = json.loads(out)
    english, _ = run(capsys, *ODDS, "--json")[1], None
    assert data == json.loads(english)


def test_a_procedures_options_are_described_in_french(capsys):
    code, out, _ = run(capsys, "--lang", "fr", "odds", "ept", "fire", "--help")
    assert code == 0
    assert "aux dés" in out
    assert "un entier de 1 à 99" in out


def test_a_rule_across_fields_and_a_refused_option_are_worded_in_french(capsys):
    code, _, err = run(
        capsys,
        "--lang",
        "fr",
        "odds",
        "ept",
        "fire",
        "--strength",
        "6",
        "--follow-up",
        "morale_test",
    )
    assert (code, err) == (
        2,
        "erreur : '--morale' doit être indiqué quand '--follow-up' vaut morale_test (reçu None)\n",
    )
    code, _, err = run(capsys, "--lang", "fr", "odds", "ept", "fire", "--strenght", "6")
    assert code == 2
    assert "vouliez-vous dire --strength ?" in err


def test_lang_fr_gives_the_commands_help_in_french(capsys):
    code, out, _ = run(capsys, "--lang", "fr", "odds", "--help")
    assert code == 0
    assert "Chances exactes de chaque résultat d'une procédure" in out
    assert "Identifiant ou alias de la règle." in out
    code, out, _ = run(capsys, "--lang", "fr", "--help")
    assert "Montre ce message et s'arrête." in out
    assert "Commandes" in out
    assert "Résout une attaque" in out


def test_firefight_lang_gives_the_help_in_french_and_english_stays_english(capsys, monkeypatch):
    monkeypatch.setenv("FIREFIGHT_LANG", "fr")
    code, out, _ = run(capsys, "board", "los", "--help")
    assert code == 0
    assert "La ligne de vue entre deux hexagones" in out
    monkeypatch.delenv("FIREFIGHT_LANG")
    code, out, _ = run(capsys, "odds", "--help")
    assert "Exact odds of every outcome of a procedure" in out
    code, out, _ = run(capsys, "--help")
    assert "Show this message and exit." in out
    assert "Commands" in out


def test_lang_fr_shows_the_modifier_and_fact_labels_in_french_and_json_keeps_them(capsys):
    args = [*ODDS, "--protection", "light"]
    code, out, _ = run(capsys, "--lang", "fr", *args)
    assert code == 0
    assert "cible en marche forcée" in out
    assert "protection légère" in out
    assert "facteur d'attaque final" in out
    code, out, _ = run(capsys, "--lang", "fr", *args, "--json")
    labels = [m["label"] for m in json.loads(out)["modifiers"]]
    assert labels == ["target in force march", "light protection"]


def test_lang_fr_shows_the_trace_labels_of_a_resolution_in_french(capsys):
    args = ["resolve", "ept", "fire", "--strength", "6", "--seed", "1"]
    code, out, _ = run(capsys, "--lang", "fr", *args)
    assert code == 0
    assert "jet de combat (2d6)" in out
    code, out, _ = run(capsys, "--lang", "fr", *args, "--json")
    assert json.loads(out)["trace"][0]["label"] == "combat roll (2d6)"
