"""The words the faces build at run time from identifiers (``immobilized_abandoned`` ->
``immobilized abandoned``, a procedure's name, a move's choice) are messages of the catalogue:
the extraction finds them, and every word a page asks the catalogue for while it is drawn is
one the extraction gives (so ``make catalogue`` lists it for translation)."""

from __future__ import annotations

import gettext
import re
from functools import cache

import pytest
from fastapi.testclient import TestClient

from firefight.cli.catalogue import extracted
from firefight.rulesets import rulesets
from firefight.web.app import create_app

WORDS = re.compile(r"[a-z][a-z ,'()-]*")
"""A message that is words (not a code, a number, a sentence the code writes literally)."""
PAGES = [
    *(f"/rulesets/{r.id}/{p.name}" for r in rulesets() for p in r.procedures),
    "/rulesets/vv/scenario",
    "/rulesets/vv/scenario?name=armour",
    "/engage/vv_village",
    "/engage/ept_hedgerow",
    "/rulesets/upfront/fire/cards",
    "/rulesets/upfront/files/deck",
    "/rulesets/upfront/files/men",
]
NOT_WORDS = {"us-rifle"}
"""Values a page words that are a man's id, not words."""


@cache
def catalogue_messages() -> frozenset[str]:
    return frozenset(m.id for m in extracted() if isinstance(m.id, str))


def test_the_extraction_finds_the_words_built_from_identifiers():
    assert {
        "immobilized abandoned",  # an outcome's code that the rules explain
        "ap attack hex",  # a procedure's name (the engagement page's steps)
        "least rating lost",  # a move's casualty policy
        "path end",  # an action field's default
        "reduced pinned",  # a part of a compound outcome
        "column shift",  # a modifier's kind
        "personality file",  # a data file's name
        "exact",  # a script's message inside a template literal
    } <= catalogue_messages()


def test_every_word_a_page_asks_for_is_a_message_of_the_catalogue(
    monkeypatch: pytest.MonkeyPatch,
):
    asked: set[str] = set()
    original = gettext.NullTranslations.gettext

    def recorded(self: gettext.NullTranslations, message: str) -> str:
        asked.add(message)
        return original(self, message)

    monkeypatch.setattr(gettext.NullTranslations, "gettext", recorded)
    client = TestClient(create_app())
    for path in PAGES:
        answer = client.get(path)
        assert answer.status_code == 200, path
    missing = {m for m in asked if WORDS.fullmatch(m)} - catalogue_messages() - NOT_WORDS
    assert missing == set(), "mark them N_() where they are defined (or web/wording.py)"
