"""The web's language (docs/languages.md): French or English for each request, and the
translated templates.

A request's language is, first found: ``?lang=fr`` (a page given it also sets the ``lang``
cookie, so the choice follows the player from page to page), the ``lang`` cookie, the
browser's ``Accept-Language``, else English. The JSON API keeps its field names and outcome
keys in English (they are the stable shapes of DESIGN.md); only its messages (the ``detail``
of an error) are translated, when a request asks by ``?lang``, the cookie or Accept-Language.
"""

from __future__ import annotations

from functools import lru_cache
from http.cookies import CookieError, SimpleCookie
from pathlib import Path
from urllib.parse import urlencode

from fastapi.templating import Jinja2Templates
from starlette.datastructures import QueryParams
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from firefight.errors import FirefightError
from firefight.i18n import (
    LANGUAGES,
    SOURCE,
    checked,
    choose,
    gettext,
    language,
    negotiate,
    ngettext,
    restore,
    restore_game,
    script_messages,
    show_game,
    translated,
)
from firefight.web.wording import cited, readable, worded

COOKIE = "lang"
COOKIE_AGE = 365 * 24 * 3600
NAMES = {"en": "English", "fr": "Français"}
"""Each language as its speakers name it (the page's language choice)."""


def requested(scope: Scope) -> str:
    """The language a request asks for (see the module); a ``?lang`` firefight does not
    speak is a user error naming the field, the languages and the value given. Cheap on the
    odds route's hot path: nothing is parsed unless it names a language."""
    query: bytes = scope.get("query_string", b"")
    if b"lang=" in query:
        given = QueryParams(query.decode("latin-1")).get("lang")
        if given is not None:
            return checked(given)
    cookie = accept = None
    for key, value in scope.get("headers", ()):  # ASGI header names are lower-case bytes
        if key == b"cookie":
            cookie = value
        elif key == b"accept-language":
            accept = value
    if cookie is not None and b"lang=" in cookie:
        chosen = _cookie_language(cookie)
        if chosen is not None:
            return chosen
    return (negotiated(accept) if accept else None) or SOURCE


def _cookie_language(header: bytes) -> str | None:
    jar: SimpleCookie = SimpleCookie()
    try:
        jar.load(header.decode("latin-1"))
    except CookieError:  # a malformed cookie header is no choice at all
        return None
    if COOKIE in jar and jar[COOKIE].value in LANGUAGES:
        return jar[COOKIE].value
    return None


@lru_cache(maxsize=256)
def negotiated(accept_language: bytes) -> str | None:
    """:func:`~firefight.i18n.negotiate` of a header, remembered: a browser sends the same one
    with every request."""
    return negotiate(accept_language.decode("latin-1"))


class Language:
    """ASGI middleware: each request runs in its language (:func:`requested`), showing no
    game's own words until it names a game (:func:`firefight.web.lookup.ruleset`); a page
    asked for by ``?lang=`` sets the ``lang`` cookie."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Run the request with its language chosen."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        try:
            lang = requested(scope)
        except FirefightError as error:
            response = JSONResponse({"detail": str(error), "field": "lang"}, status_code=422)
            await response(scope, receive, send)
            return
        chosen = b"lang=" in scope.get("query_string", b"") and not scope["path"].startswith(
            "/api/"
        )

        async def remember(message: Message) -> None:
            if chosen and message["type"] == "http.response.start":
                cookie = f"{COOKIE}={lang}; Path=/; Max-Age={COOKIE_AGE}; SameSite=Lax"
                message = {**message, "headers": [*message.get("headers", [])]}
                message["headers"].append((b"set-cookie", cookie.encode("latin-1")))
            await send(message)

        token = choose(lang)
        game = show_game(None)  # the game a request shows is the one it names (lookup)
        try:
            await self.app(scope, receive, remember)
        finally:
            restore_game(game)
            restore(token)


def language_link(request: Request, lang: str) -> str:
    """This page's address (path and query, no host) in ``lang``: the other inputs kept."""
    query = [(key, value) for key, value in request.query_params.multi_items() if key != "lang"]
    return request.url.path + "?" + urlencode([*query, ("lang", lang)])


def templates(directory: Path) -> Jinja2Templates:
    """The pages' templates, with ``_()`` / ``ngettext()`` in the request's language, the
    ``translated`` filter for metadata (a procedure's title: its English text is the message),
    ``language()``, the other languages to offer and the scripts' translated messages."""
    found = Jinja2Templates(directory=directory)
    environment = found.env
    environment.add_extension("jinja2.ext.i18n")
    environment.install_gettext_callables(  # type: ignore[attr-defined]
        gettext, ngettext, newstyle=True
    )
    environment.filters["translated"] = translated  # ``|translated(rs.id)``: in its words
    environment.filters["worded"] = worded
    environment.filters["cited"] = cited
    environment.filters["readable"] = readable
    environment.globals["language"] = language
    environment.globals["language_names"] = NAMES
    environment.globals["language_link"] = language_link
    environment.globals["script_messages"] = lambda: script_messages(language())
    return found
