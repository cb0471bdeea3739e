"""French and English (issue 16): the active language and the translation of a message.

EPT and Les tirs are French rulebooks whose players read French. Every face translates what a
player reads through this module: the interface, procedure titles, field labels, outcome
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
depend on a language; ``python -m firefight.i18n.catalogue`` collects those texts with the
``_()`` calls of the code, the templates and the scripts.
"""

from __future__ import annotations

import gettext as stdlib_gettext
import io
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar, Token
from functools import cache
from pathlib import Path

LANGUAGES = ("en", "fr")
"""The languages firefight speaks; the first is the source language of every message."""
SOURCE = LANGUAGES[0]
LOCALE = Path(__file__).resolve().parent.parent / "locale"
"""Where the catalogues live: ``messages.pot`` and ``<lang>/LC_MESSAGES/messages.po``."""
DOMAIN = "messages"
LANGUAGE_VARIABLE = "FIREFIGHT_LANG"
"""The environment variable the CLI reads for its language (``--lang`` wins over it)."""

_current: ContextVar[str] = ContextVar("firefight_language", default=SOURCE)


def language() -> str:
    """The active language (``en`` unless a face chose another)."""
    return _current.get()


def checked(value: str, field: str = "lang") -> str:
    """``value`` as a language firefight speaks (``fr-FR`` and ``FR`` read as ``fr``), or a
    one-line error naming ``field``, the languages and the value given."""
    code = value.strip().replace("_", "-").split("-")[0].lower()
    if code in LANGUAGES:
        return code
    from firefight.errors import InputError, one_of  # noqa: PLC0415 - errors translate through us

    raise InputError(field, one_of(LANGUAGES), value)


def choose(lang: str) -> Token[str]:
    """Make ``lang`` (already :func:`checked`) the active language; returns the token that
    :func:`restore` takes."""
    return _current.set(lang)


def restore(token: Token[str]) -> None:
    """Undo :func:`choose`."""
    _current.reset(token)


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
    """``message`` (its English text) in the active language."""
    if not message:
        return message
    return translations(language()).gettext(message)


_ = gettext


def N_(message: str) -> str:  # noqa: N802 - gettext's own name for the marker
    """Mark ``message`` for the catalogue without translating it now: a name kept in English
    in the rules and translated where it is shown (``_(track.name)``)."""
    return message


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form for ``n``, in the active language."""
    return translations(language()).ngettext(singular, plural, n)


@cache
def script_messages(lang: str) -> dict[str, str]:
    """The translations of the messages that the web's scripts (``static/*.js``) show, for the
    page to hand them (``tr("…")`` in the scripts looks them up)."""
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


SHOWN_BY_SCRIPTS = ("modifier label", "fact label", "trace label")
"""Metadata the scripts show (an answer's modifier, fact and trace labels, English in its
JSON): their translations are handed to the scripts with the scripts' own messages."""


def _in_script(message: object) -> bool:
    if any(what in SHOWN_BY_SCRIPTS for what in getattr(message, "auto_comments", ())):
        return True
    return any(str(path).endswith(".js") for path, _line in getattr(message, "locations", ()))
