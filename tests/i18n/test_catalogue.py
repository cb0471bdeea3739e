"""French and English (docs/languages.md): the catalogues are complete and up to date, and the
active language words what a player reads."""

from __future__ import annotations

import json
import re

import pytest
from babel.messages.pofile import read_po

from firefight.cli.catalogue import SOURCES, TEMPLATE, extracted
from firefight.errors import InputError
from firefight.i18n import (
    LANGUAGES,
    SOURCE,
    catalogue_path,
    checked,
    gettext,
    language,
    negotiate,
    using,
)

OTHER_LANGUAGES = [lang for lang in LANGUAGES if lang != SOURCE]
PLACEHOLDER = re.compile(r"\{\w+\}|%\(\w+\)s")


def _read(path):
    with path.open("rb") as source:
        return read_po(source)


def _forms(text):
    """A message's or translation's forms: one, or several for a plural (``ngettext``)."""
    return list(text) if isinstance(text, (tuple, list)) else [text]


@pytest.mark.parametrize("lang", OTHER_LANGUAGES)
def test_every_message_has_a_translation_that_is_not_fuzzy(lang):
    catalogue = _read(catalogue_path(lang))
    missing = [m.id for m in catalogue if m.id and (not all(_forms(m.string)) or m.fuzzy)]
    assert missing == [], f"{len(missing)} messages without a {lang} translation: {missing[:20]}"


@pytest.mark.parametrize("lang", OTHER_LANGUAGES)
def test_every_translation_keeps_the_placeholders_of_its_message(lang):
    wrong = [
        (m.id, m.string)
        for m in _read(catalogue_path(lang))
        if m.id
        for form in _forms(m.string)
        if sorted(set(PLACEHOLDER.findall(_forms(m.id)[-1])))
        != sorted(set(PLACEHOLDER.findall(form)))
    ]
    assert wrong == []


def test_the_catalogues_hold_every_message_of_the_code_templates_scripts_and_metadata():
    wanted = {m.id for m in extracted() if m.id}
    template = {m.id for m in _read(TEMPLATE) if m.id}
    assert wanted - template == set(), "run `make catalogue` and translate the new messages"
    assert template - wanted == set(), "run `make catalogue`: these messages are gone"
    for lang in OTHER_LANGUAGES:
        assert {m.id for m in _read(catalogue_path(lang)) if m.id} == template


def test_the_extraction_finds_titles_labels_choices_meanings_and_the_interface():
    wanted = {m.id for m in extracted() if m.id}
    assert {
        "Fire combat (MODIFICATEURS DE TIR, TABLE DE COMBAT)",  # a procedure title
        "target movement",  # a field label
        "force march",  # a choice label
        "'{field}' must be {allowed} (got {got})",  # the error line
        "Pin these odds to compare",  # a template
        "blocked by {what}",  # a script (app.js)
    } <= wanted


def test_english_is_the_default_language_and_its_own_catalogue():
    assert language() == "en"
    assert gettext("target movement") == "target movement"


def test_french_translates_titles_labels_and_choices():
    with using("fr"):
        assert gettext("target movement") == "mouvement de la cible"
        assert gettext("force march") == "marche forcée"
        assert "TABLE DE COMBAT" in gettext("Fire combat (MODIFICATEURS DE TIR, TABLE DE COMBAT)")
    assert language() == "en"


def test_an_input_error_is_worded_in_the_active_language_with_the_field_and_value_as_given():
    with using("fr"):
        message = str(InputError("strength", "an integer", "x"))
    assert message == "'strength' doit être un entier (reçu 'x')"  # its allowed phrase too


def test_a_language_firefight_does_not_speak_is_a_one_line_error_naming_the_field():
    with pytest.raises(InputError, match=r"^'lang' must be one of en, fr \(got 'de'\)$"):
        checked("de")


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("fr-FR,fr;q=0.9,en;q=0.8", "fr"),
        ("en-GB,fr;q=0.5", "en"),
        ("de, fr;q=0.3", "fr"),
        ("de", None),
        ("fr;q=0, en;q=0.1", "en"),
        ("", None),
        (None, None),
    ],
)
def test_accept_language_gives_the_most_wanted_language_spoken(header, expected):
    assert negotiate(header) == expected


def test_checked_reads_a_region_or_capitals_as_its_language():
    assert checked("fr-FR") == "fr"
    assert checked("FR") == "fr"
    assert checked("en_GB") == "en"


def test_a_rule_error_and_a_model_rule_are_worded_in_the_active_language():
    from firefight.errors import RuleError  # noqa: PLC0415
    from firefight.rulesets import ruleset  # noqa: PLC0415

    fire = ruleset("ept").procedure("fire")
    with using("fr"), pytest.raises(RuleError, match=r"^pas de ligne de vue : 4 hexagones"):
        fire.odds(fire.parse({"strength": 6, "hindrance_hexes": 4}))
    with using("fr"), pytest.raises(InputError, match=r"^'morale' doit être indiqué quand"):
        fire.parse({"strength": 6, "follow_up": "morale_test"})


def test_a_plural_follows_the_count_in_french():
    from firefight.errors import RuleError  # noqa: PLC0415
    from firefight.rulesets import ruleset  # noqa: PLC0415

    portable = ruleset("ept").procedure("portable_at")
    with using("fr"), pytest.raises(RuleError, match=r"sa distance maximale est de 1 hexagone \("):
        portable.odds(portable.parse({"weapon": "panzerfaust", "distance": 2}))


TEMPLATES = sorted((SOURCES / "web" / "templates").glob("*.html"))
NOT_WORDS = {"firefight", "API", "vv"}
"""Names, not words: the program's name, the API's and the rule set id in a crumb."""


def _is_json(text: str) -> bool:
    """An example input (``{"strength": 6}``), not words."""
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def _plain_text(template: str) -> list[str]:
    """The words of a template that no ``_()`` wraps: text between tags and the attributes a
    player reads (placeholder, title, aria-label, alt), outside scripts and SVG patterns."""
    for pattern in (r"\{#.*?#\}", r"<script\b.*?</script>", r"<defs>.*?</defs>"):
        template = re.sub(pattern, "", template, flags=re.S)
    template = re.sub(r"\{\{.*?\}\}|\{%.*?%\}", "", template, flags=re.S)
    found = [
        value
        for value in re.findall(
            r'(?<![:\w-])(?:placeholder|title|aria-label|alt)="([^"]*)"', template
        )
        if re.search(r"[A-Za-z]{2,}", value)
    ]
    text = re.sub(r"<[^>]*>", "\n", template)
    found += [
        chunk.strip()
        for chunk in re.split(r"\n|\s{2,}", text)
        if re.search(r"[A-Za-z]{2,}", chunk)
        and chunk.strip().strip("·").strip() not in NOT_WORDS
        and not _is_json(chunk)
    ]
    return found


@pytest.mark.parametrize("template", TEMPLATES, ids=lambda path: path.name)
def test_every_sentence_of_a_template_goes_through_the_catalogue(template):
    assert _plain_text(template.read_text(encoding="utf-8")) == []
