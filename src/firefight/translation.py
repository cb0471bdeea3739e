"""The active language and the translation of a message: what every layer that words a
message needs, from the one-line errors (:mod:`firefight.errors`) up. It imports nothing of
firefight; :mod:`firefight.i18n` builds the rest of the language support on it (the language a
user asks for, checked; the web's scripts' messages) and gives all of it under one name.

The message is the English text itself (gettext's convention): English needs no catalogue, and
a message with no French translation is shown in English. A catalogue is read with
:mod:`babel.messages.pofile` and compiled in memory for the standard library's :mod:`gettext`
the first time its language is used. The active language is a context variable, and so is
the game shown: a game file's own words (``title_fr``) are its game's, keyed by its id, and
shown where a face shows that game (:func:`show_game`: a command, a web request naming it).
"""

from __future__ import annotations

import gettext as stdlib_gettext
import io
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
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
    """``message`` (its English text) in the active language, in the words of the game shown
    (:func:`show_game`) where its file gives them, else the catalogue's (:func:`translated`)."""
    return translated(message)


def translated(message: str, game: str | None = None) -> str:
    """``message`` in the active language, as ``game`` words it (the game shown when none is
    named): its file's own words for it first (:func:`add_words`), then the catalogue's, then
    the words given for no game in particular where the catalogue has none."""
    if not message:
        return message
    lang = language()
    mine = _GAME_WORDS.get(game or _game.get() or "", {}).get(lang)
    if mine and message in mine:
        return mine[message]
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
"""Words given for no game in particular, by language, then by the text the faces show (the
tests' French of messages the catalogue does not hold yet): the catalogue's own messages win."""
_GAME_WORDS: dict[str, dict[str, dict[str, str]]] = {}
"""Each game's own words (a designed game's ``title_fr``), by the game's id, then language,
then the text the faces show: a game's words are shown for that game alone, so that two files
wording one English text otherwise each keep theirs, and neither changes a third game's."""
_game: ContextVar[str | None] = ContextVar("firefight_game", default=None)


def show_game(game: str | None) -> Token[str | None]:
    """Make ``game`` (a rule set's id; ``None``: none) the game whose words the faces show, for
    what is worded next in this context (a command, a web request); returns the token that
    :func:`restore_game` takes."""
    return _game.set(game)


def restore_game(token: Token[str | None]) -> None:
    """Undo :func:`show_game`: the game shown before it (the sets since are undone too)."""
    _game.reset(token)


def shown_game() -> str | None:
    """The game whose words the faces show (:func:`show_game`), ``None`` when none is."""
    return _game.get()


@contextmanager
def showing(game: str | None) -> Iterator[None]:
    """The block runs with ``game`` shown (:func:`show_game`), the game shown before after it."""
    token = show_game(game)
    try:
        yield
    finally:
        restore_game(token)


@cache
def _catalogue_messages() -> frozenset[str]:
    """The messages the catalogues hold: words given for no game never replace them."""
    found: set[str] = set()
    for lang in LANGUAGES[1:]:
        catalogue = getattr(translations(lang), "_catalog", {})  # gettext's own table
        found.update(key for key in catalogue if isinstance(key, str) and key)
    return frozenset(found)


def add_words(game: str, words: Mapping[str, Mapping[str, str]]) -> None:
    """Set a game's own words (language -> text -> its words in that language), in place of
    any it had (its file read again)."""
    _GAME_WORDS[game] = {lang: dict(found) for lang, found in words.items()}


def own_words(lang: str) -> dict[str, str]:
    """The words in ``lang`` given for no game in particular (which the catalogue's win over)."""
    return dict(_OWN_WORDS.get(lang, {}))


def game_words(lang: str, game: str | None = None) -> dict[str, str]:
    """A game's own words in ``lang`` (the game shown when none is named; none when none is
    shown), which win over the catalogue's for that game (:func:`translated`)."""
    return dict(_GAME_WORDS.get(game or _game.get() or "", {}).get(lang, {}))


def phrase(text: str) -> str:
    """A phrase given to a refusal (what a field allows, what a limit counts) in the active
    language: a message of the catalogue, translated, or a phrase already worded (built with
    ``_(...).format(...)``), which is its own words. English is the messages' own language, so
    a phrase is asked of the catalogue only in another language, or where the game shown
    words English its own way (:func:`translated`)."""
    if language() == SOURCE and not _GAME_WORDS.get(_game.get() or "", {}).get(SOURCE):
        return text
    return translated(text)


def thousands(number: int) -> str:
    """``number`` written the active language's way, its thousands grouped: ``20,000`` in
    English, ``20 000`` in French (the separator Babel's CLDR data gives the language)."""
    from babel.numbers import format_decimal  # noqa: PLC0415 - lazy: fast CLI start-up

    return format_decimal(number, locale=language())
