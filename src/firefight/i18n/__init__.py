"""French and English: the active language and the translation of a message, under one name.

EPT and Les tirs are French rulebooks whose players read French. Every face translates what a
player reads through this package: the interface, procedure titles, field labels, outcome
meanings and error lines. The messages live in Babel message catalogues
(``firefight/locale/messages.pot`` and ``firefight/locale/fr/LC_MESSAGES/messages.po``); a
catalogue is read with :mod:`babel.messages.pofile` and compiled in memory for the standard
library's :mod:`gettext` the first time a language is used, so neither a build step nor a
compiled ``.mo`` file is needed (``make run`` and a fresh clone work as they are).

The message is the English text itself (gettext's convention): English needs no catalogue, and
a message with no French translation is shown in English (a test fails on any such message).
The active language is a context variable: the CLI sets it once (``--lang fr`` or
``FIREFIGHT_LANG=fr``), the web for each request (``?lang=fr``, a cookie or Accept-Language).
Metadata (procedure titles, field names, outcome meanings) stays English in the rule sets and
is translated where a face shows it (:func:`gettext` with the English text), so the rules never
depend on a language; ``python -m firefight.cli.catalogue`` collects those texts with the
``_()`` calls of the code, the templates and the scripts (docs/languages.md).

The translation itself (:func:`gettext`, the active language) lives in
:mod:`firefight.translation`, below the one-line errors that it words; this package adds what
needs those errors (:func:`checked`, :func:`using`) and the web's share (:func:`negotiate`,
:func:`script_messages`), and gives both under one name.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache

from firefight.errors import InputError, one_of
from firefight.translation import (
    DOMAIN,
    LANGUAGES,
    LOCALE,
    N_,
    SOURCE,
    _,
    catalogue_path,
    choose,
    game_words,
    gettext,
    language,
    ngettext,
    own_words,
    restore,
    restore_game,
    show_game,
    showing,
    shown_game,
    translated,
    translations,
)

__all__ = [
    "DOMAIN",
    "LANGUAGES",
    "LANGUAGE_VARIABLE",
    "LOCALE",
    "N_",
    "OUTCOME_WORDS",
    "SHOWN_BY_SCRIPTS",
    "SOURCE",
    "_",
    "catalogue_path",
    "checked",
    "choose",
    "gettext",
    "language",
    "negotiate",
    "ngettext",
    "restore",
    "restore_game",
    "script_messages",
    "show_game",
    "showing",
    "shown_game",
    "translated",
    "translations",
    "using",
]

LANGUAGE_VARIABLE = "FIREFIGHT_LANG"
"""The environment variable the CLI reads for its language (``--lang`` wins over it)."""


def checked(value: str, field: str = "lang") -> str:
    """``value`` as a language firefight speaks (``fr-FR`` and ``FR`` read as ``fr``), or a
    one-line error naming ``field``, the languages and the value given."""
    code = value.strip().replace("_", "-").split("-")[0].lower()
    if code in LANGUAGES:
        return code
    raise InputError(field, one_of(LANGUAGES), value)


@contextmanager
def using(lang: str) -> Iterator[None]:
    """The block runs with ``lang`` as the active language."""
    token = choose(checked(lang))
    try:
        yield
    finally:
        restore(token)


def negotiate(accept_language: str | None) -> str | None:
    """The language firefight speaks that an ``Accept-Language`` header prefers most
    (``fr-FR,fr;q=0.9,en;q=0.8`` -> ``fr``), or ``None`` when it names none of them."""
    if not accept_language:
        return None
    ranked: list[tuple[float, int, str]] = []
    for position, part in enumerate(accept_language.split(",")):
        tag, _, params = part.strip().partition(";")
        weight = 1.0
        if params.strip().startswith("q="):
            try:
                weight = float(params.strip()[2:])
            except ValueError:
                continue
        code = tag.strip().split("-")[0].lower()
        if code in LANGUAGES and weight > 0:
            ranked.append((-weight, position, code))
    return min(ranked)[2] if ranked else None


def script_messages(lang: str) -> dict[str, str]:
    """The translations of the messages that the web's scripts (``static/*.js``) show, for the
    page to hand them (``tr("…")`` in the scripts looks them up), with the rule sets' own
    words (a designed game's modifier labels, in its file) when it is the game shown: as
    :func:`gettext` words them, the game's words over the catalogue's."""
    own, mine = own_words(lang), game_words(lang)
    if not own and not mine:
        return _catalogue_script_messages(lang)
    return {**own, **_catalogue_script_messages(lang), **mine}


@cache
def _catalogue_script_messages(lang: str) -> dict[str, str]:
    if lang == SOURCE:
        return {}
    from babel.messages.pofile import read_po  # noqa: PLC0415

    with catalogue_path(lang).open("rb") as source:
        catalogue = read_po(source, locale=lang, domain=DOMAIN)
    found: dict[str, str] = {}
    for message in catalogue:
        if not message.id or message.fuzzy or not isinstance(message.id, str):
            continue
        if isinstance(message.string, str) and message.string and _in_script(message):
            found[message.id] = message.string
    return found


OUTCOME_WORDS = "outcome words"
"""The catalogue's comment on the words of an outcome's code (``reduced pinned``), which the
scripts word a code with where the page gave no label for it (an engagement's end states)."""
SHOWN_BY_SCRIPTS = ("modifier label", "fact label", "trace label", OUTCOME_WORDS)
"""Metadata the scripts show (an answer's modifier, fact and trace labels, English in its
JSON, and the words of outcomes' codes): their translations are handed to the scripts with the
scripts' own messages."""


def _in_script(message: object) -> bool:
    if any(what in SHOWN_BY_SCRIPTS for what in getattr(message, "auto_comments", ())):
        return True
    return any(str(path).endswith(".js") for path, _line in getattr(message, "locations", ()))
