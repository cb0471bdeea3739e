"""The active language and the translation of a message: what every layer that words a
message needs, from the one-line errors (:mod:`firefight.errors`) up. It imports nothing of
firefight; :mod:`firefight.i18n` builds the rest of the language support on it (the language a
user asks for, checked; the web's scripts' messages) and gives all of it under one name.

The message is the English text itself (gettext's convention): English needs no catalogue, and
a message with no French translation is shown in English. A catalogue is read with
:mod:`babel.messages.pofile` and compiled in memory for the standard library's :mod:`gettext`
the first time its language is used. The active language is a context variable.
"""

from __future__ import annotations

import gettext as stdlib_gettext
import io
from collections.abc import Mapping
from contextvars import ContextVar, Token
from functools import cache
from pathlib import Path

LANGUAGES = ("en", "fr")
"""The languages firefight speaks; the first is the source language of every message."""
SOURCE = LANGUAGES[0]
LOCALE = Path(__file__).resolve().parent / "locale"
"""Where the catalogues live: ``messages.pot`` and ``<lang>/LC_MESSAGES/messages.po``."""
DOMAIN = "messages"
_current: ContextVar[str] = ContextVar("firefight_language", default=SOURCE)


def language() -> str:
    """The active language (``en`` unless a face chose another)."""
    return _current.get()


def choose(lang: str) -> Token[str]:
    """Make ``lang`` (already :func:`firefight.i18n.checked`) the active language; returns the
    token that :func:`restore` takes."""
    return _current.set(lang)


def restore(token: Token[str]) -> None:
    """Undo :func:`choose`."""
    _current.reset(token)


def catalogue_path(lang: str) -> Path:
    """The ``.po`` catalogue of ``lang``."""
    return LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


@cache
def translations(lang: str) -> stdlib_gettext.NullTranslations:
    """``lang``'s catalogue as gettext translations, compiled in memory once (fuzzy and empty
    entries left out, so they show in English)."""
    if lang == SOURCE:
        return stdlib_gettext.NullTranslations()
    from babel.messages.mofile import write_mo  # noqa: PLC0415 - lazy: fast CLI start-up
    from babel.messages.pofile import read_po  # noqa: PLC0415

    with catalogue_path(lang).open("rb") as source:
        catalogue = read_po(source, locale=lang, domain=DOMAIN)
    compiled = io.BytesIO()
    write_mo(compiled, catalogue)
    compiled.seek(0)
    return stdlib_gettext.GNUTranslations(compiled)


def gettext(message: str) -> str:
    """``message`` (its English text) in the active language; a message the catalogue does
    not translate, in a rule set's own words for it where it gives them (:func:`add_words`)."""
    if not message:
        return message
    lang = language()
    own = _OWN_WORDS.get(lang)
    if own and message in own and message not in _catalogue_messages():
        return own[message]
    return translations(lang).gettext(message)


_ = gettext


def N_(message: str) -> str:  # noqa: N802 - gettext's own name for the marker
    """Mark ``message`` for the catalogue without translating it now: a name kept in English
    in the rules and translated where it is shown (``_(track.name)``)."""
    return message


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form for ``n``, in the active language."""
    return translations(language()).ngettext(singular, plural, n)


_OWN_WORDS: dict[str, dict[str, str]] = {}
"""Words a rule set gives in its own file (a designed game's ``title_fr``), by language, then
by the text the faces show: no catalogue holds them, and the catalogue's own messages win."""


@cache
def _catalogue_messages() -> frozenset[str]:
    """The messages the catalogues hold: a rule set's own words never replace them, in any
    language (a file's field named ``range`` keeps the interface's word for it)."""
    found: set[str] = set()
    for lang in LANGUAGES[1:]:
        catalogue = getattr(translations(lang), "_catalog", {})  # gettext's own table
        found.update(key for key in catalogue if isinstance(key, str) and key)
    return frozenset(found)


def add_words(words: Mapping[str, Mapping[str, str]]) -> None:
    """Add a rule set's own words (language -> text -> its words in that language)."""
    for lang, found in words.items():
        _OWN_WORDS.setdefault(lang, {}).update(found)


def own_words(lang: str) -> dict[str, str]:
    """The rule sets' own words in ``lang`` (:func:`add_words`)."""
    return dict(_OWN_WORDS.get(lang, {}))
