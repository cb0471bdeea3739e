"""A game file's refusal in French: its frame and what was expected in French, the file's
names, the place in it and the value given as written."""

from __future__ import annotations

from pathlib import Path

import pytest

from firefight import translation
from firefight.i18n import gettext as _
from firefight.i18n import using
from tests.helpers import refusal, run_cli
from tests.rulesets.designed.test_own_words import ALPHA

PENDING = {
    "a table": "une table",
    "one of the keys {keys}": "l'une des clés {keys}",
    "a text (it is missing)": "un texte (il manque)",
    "a text of 1 to {most} characters": "un texte de 1 à {most} caractères",
    "an integer (it is missing)": "un entier (il manque)",
    'a factor above 0: an integer, or a fraction written "1/2"': "un facteur supérieur à 0 : "
    'un entier, ou une fraction écrite "1/2"',
    "a list of 1 to {most} texts of at most {longest} characters": "une liste de 1 à {most} "
    "textes d'au plus {longest} caractères",
    "an array of 1 to {most} tables ([[{key}]])": "un tableau de 1 à {most} tables ([[{key}]])",
    "dice written NdS (1d6, 2d6, 1d10), or up to {terms} such terms added or taken away "
    "(1d6+1d6, 1d6-1d6), N at most {dice}, S from 2 to {sides}": "des dés écrits NdS (1d6, "
    "2d6, 1d10), ou jusqu'à {terms} tels termes ajoutés ou retranchés (1d6+1d6, 1d6-1d6), "
    "N au plus {dice}, S de 2 à {sides}",
    "at most {totals} totals over the terms' dice": "au plus {totals} totaux sur les dés des "
    "termes",
    "labels given once each": "des libellés donnés une fois chacun",
    "an odds ratio written a-b, one side 1 (1-2, 1-1, 3-1)": "un rapport écrit a-b, l'un des "
    "côtés valant 1 (1-2, 1-1, 3-1)",
    "a band: a number, 'a-b' (a up to b), 'n+' or '<=n'": "une tranche : un nombre, 'a-b' "
    "(de a à b), 'n+' ou '<=n'",
    "an open band ('<=n', 'n+') only at an end": "une tranche ouverte ('<=n', 'n+') seulement "
    "à une extrémité",
    "each column one step of odds above the one before (… 1-2, 1-1, 2-1 …): a gap between "
    "{first} and {second}": "chaque colonne un cran de rapport au-dessus de la précédente "
    "(… 1-2, 1-1, 2-1 …) : un trou entre {first} et {second}",
    "each column one step of odds above the one before (… 1-2, 1-1, 2-1 …): an overlap "
    "between {first} and {second}": "chaque colonne un cran de rapport au-dessus de la "
    "précédente (… 1-2, 1-1, 2-1 …) : un chevauchement entre {first} et {second}",
    "each band to begin just after the one before: a gap between {first} and {second}": "chaque "
    "tranche commençant juste après la précédente : un trou entre {first} et {second}",
    "each band to begin just after the one before: an overlap between {first} and {second}": (
        "chaque tranche commençant juste après la précédente : un chevauchement entre {first} "
        "et {second}"
    ),
    "an id of lower-case letters, digits and '-', beginning with a letter": "un id de lettres "
    "minuscules, de chiffres et de '-', commençant par une lettre",
    "a name of lower-case letters, digits and '_', beginning with a letter": "un nom de lettres "
    "minuscules, de chiffres et de '_', commençant par une lettre",
    "at most {most} ways the roll and its follow-ups can fall (the roll's totals times each "
    "follow-up's)": "au plus {most} façons dont le jet et ses suites peuvent tomber (les "
    "totaux du jet multipliés par ceux de chaque suite)",
    "{count} texts, one per note": "{count} textes, un par note",
    "a name of lower-case letters, digits and '_', beginning with a letter, and none of "
    "{reserved}": "un nom de lettres minuscules, de chiffres et de '_', commençant par une "
    "lettre, et aucun de {reserved}",
    "a name no other field has": "un nom qu'aucun autre champ n'a",
    "a bound of at least min ({low})": "une borne d'au moins min ({low})",
    "a choice of lower-case letters, digits and '_'": "un choix de lettres minuscules, de "
    "chiffres et de '_'",
    "choices given once each": "des choix donnés une fois chacun",
    "{count} texts, one per choice": "{count} textes, un par choix",
    "a code of at most {most} characters": "un code d'au plus {most} caractères",
    "a code no other result has": "un code qu'aucun autre résultat n'a",
    "the name of a field of type {kinds}: one of {fields}": "le nom d'un champ de type "
    "{kinds} : l'un de {fields}",
    "the choices of {field}, in their order: {choices}": "les choix de {field}, dans leur "
    "ordre : {choices}",
    "the name of a field: {fields}": "le nom d'un champ : {fields}",
    "one of {values}, or a list of them": "l'une des valeurs {values}, ou une liste d'entre elles",
    "at_least, at_most or both": "at_least, at_most ou les deux",
    "an integer, a list of them, or {bounds}": "un entier, une liste d'entiers, ou {bounds}",
    "a table of fields and their values": "une table des champs et de leurs valeurs",
    "exactly one of dice, column_shift, factor": "exactement l'un de dice, column_shift, factor",
    "the strength the factor multiplies: one of {strengths}": "la force que le facteur "
    "multiplie : l'une de {strengths}",
    "(none: the column is read by a choice)": "(aucune : la colonne est lue par un choix)",
    "a table [cells] of the rows' labels": "une table [cells] des libellés des lignes",
    "a row among rows.labels: {labels}": "une ligne parmi rows.labels : {labels}",
    "{count} result codes, one per column": "{count} codes de résultat, un par colonne",
    "a code of [[results]]: {codes}": "un code de [[results]] : {codes}",
}
"""Each new message of a game file's refusals and its French (the report's list for the
catalogue), where the catalogue has none yet: the tests compare with ``_()`` in French."""


@pytest.fixture
def pending_french(monkeypatch: pytest.MonkeyPatch) -> None:
    """The French of :data:`PENDING` where the catalogue has none, for one test."""
    own = {lang: dict(words) for lang, words in translation._OWN_WORDS.items()}
    own.setdefault("fr", {}).update(PENDING)
    monkeypatch.setattr(translation, "_OWN_WORDS", own)


def french(text: str, **parts: object) -> str:
    """``text`` in French (the catalogue's, else :data:`PENDING`'s), its parts put in."""
    with using("fr"):
        return _(text).format(**parts)


def framed(where: str, expected: str, got: str) -> str:
    return french(
        "{where}: expected {expected} (got {got})", where=where, expected=expected, got=got
    )


def test_a_refusal_on_the_command_line_in_french_says_what_was_expected_in_french(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    bad = tmp_path / "bad.toml"
    bad.write_text(ALPHA.replace("default = 2", "default = 99"), encoding="utf-8")
    code, _out, err = run_cli(capsys, "--lang", "fr", "rulesets", "--check", str(bad))
    assert code == 2
    expected = french("an integer from {low} to {high}", low=1, high=12)
    line = framed("bad.toml: fields[1] 'fire_factor'.default", expected, "99")
    assert err == french("error: {message}", message=line) + "\n", err
    assert "an integer" not in err


@pytest.mark.parametrize(
    ("old", "new", "where", "expected", "parts", "got"),
    [
        (
            'type = "flag"',
            'type = "flag"\ndefault = 3',
            "fields[2] 'target_in_cover'.default",
            "true or false",
            {},
            "3",
        ),
        (
            'labels = ["1", "2-3", "4-6", "7+"]',
            'labels = ["1", "2-3", "5-6", "7+"]',
            "column.labels[3]",
            "each band to begin just after the one before: a gap between {first} and {second}",
            {"first": "'2-3'", "second": "'5-6'"},
            "'5-6'",
        ),
        (
            'code = "K"',
            'code = "K"\nmeaning_de = "vernichtet"',
            "results[3].meaning_de",
            "one of the keys {keys}",
            {"keys": "code, meaning"},
            "'meaning_de'",
        ),
        (
            '"6"   = ["K", "K", "K", "K"]',
            '"6"   = ["K", "K", "K", "X"]',
            'cells."6"[4]',
            "a code of [[results]]: {codes}",
            {"codes": "-, S, K"},
            "'X'",
        ),
    ],
)
def test_a_files_refusals_in_french(  # noqa: PLR0917 - one case's parts
    tmp_path, pending_french, old, new, where, expected, parts, got
):
    assert old in ALPHA
    with using("fr"):
        line = refusal(tmp_path, ALPHA.replace(old, new, 1))
    assert line == framed(where, french(expected, **parts), got)
