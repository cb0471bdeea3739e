"""The French of the advisor's words that the catalogue may not hold yet: the tests of those
faces in French read them through a rule set's own words (``firefight.translation.add_words``),
which the catalogue's own translation replaces as soon as it has one (so a test checks the
words went through ``_()`` / ``tr()``, whichever French the catalogue settles on: it compares
with ``_()`` in French, never with the text below).

``PENDING`` is what ``make catalogue`` lists for translation from these faces; once
``tests/i18n/test_catalogue.py`` passes with them translated, it changes nothing.
"""

from __future__ import annotations

import pytest

from firefight import translation

PENDING = {
    # the safest paths (rulesets/vv/path_answer.py)
    ": the safest paths from {start} to {to} (by {objective}, policy {policy}; exact, "
    "{method}, {count} paths evaluated)": " : les chemins les plus sûrs de {start} à {to} "
    "(selon {objective}, politique {policy} ; exact, {method}, {count} chemins évalués)",
    "No legal path reaches that hex.": "Aucun chemin légal n'atteint cet hexagone.",
    "a hex the stack can reach with its MPs": "un hexagone que la pile peut atteindre avec ses PM",
    # the optimal fire plan's options given without --optimal (sim/optimal.py)
    "{options} apply only with {optimal} (got {given})": "{options} ne s'appliquent qu'avec "
    "{optimal} (reçu {given})",
    "{items} and {last}": "{items} et {last}",
    "Best paths": "Meilleurs chemins",
    "E[CPs]": "E[CP]",
    "#{rank} first pin or worse: {where}": "#{rank} premier clouage ou pire : {where}",
    "mines": "mines",
    "{scenario}: best paths {start} to {to} ({objective})": "{scenario} : meilleurs chemins "
    "de {start} à {to} ({objective})",
    # the optimal defender (rulesets/vv/defender_answer.py)
    ": the defender's best fire on {path} (against {objective}; exact, {count} states)": " : "
    "le meilleur tir du défenseur sur {path} (contre {objective} ; exact, {count} états)",
    ": the best paths to {to} against the optimal defender (by {objective}; exact, {method}, "
    "{count} paths solved)": " : les meilleurs chemins vers {to} contre le défenseur optimal "
    "(selon {objective} ; exact, {method}, {count} chemins résolus)",
    "Defences": "Défenses",
    "The plan, hex by hex (each fire as the state of the move allows):": "Le plan, hex par "
    "hex (chaque tir selon ce que permet l'état du mouvement) :",
    "{hex}: {fire}, chance {chance}": "{hex} : {fire}, chance {chance}",
    "{fire}, laying {count} lane(s)": "{fire}, posant {count} ligne(s) de tir",
    "The defender holds its fire: no shot gains.": "Le défenseur retient son tir : aucun tir "
    "ne lui profite.",
    # the engage page's best fire plan: its opponent
    "against": "contre",
    "the default opponent": "l'adversaire par défaut",
    "optimal opponent (minimax)": "adversaire optimal (minimax)",
    "The opponent: optimal (minimax) by default with alternating fire, the scenario's policy "
    "with simultaneous fire; or a named fire policy.": "L'adversaire : optimal (minimax) par "
    "défaut avec le tir alterné, la politique du scénario avec le tir simultané ; ou une "
    "politique de tir nommée.",
    "best expected effect": "meilleur effet attendu",
    "focus": "concentration",
    "spread": "répartition",
}
"""Each new message and its French (the report's list for the catalogue)."""


@pytest.fixture
def pending_french(monkeypatch: pytest.MonkeyPatch) -> None:
    """The French of :data:`PENDING` where the catalogue has none, for one test."""
    own = {lang: dict(words) for lang, words in translation._OWN_WORDS.items()}
    own.setdefault("fr", {}).update(PENDING)
    monkeypatch.setattr(translation, "_OWN_WORDS", own)
