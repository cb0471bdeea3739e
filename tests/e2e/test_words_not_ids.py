"""Every page reachable from the home page, in English and in French, shows words, not
identifiers: no word with an underscore, no ``None``, and on a French page no English string
the catalogue translates.

The walk follows the links of each page from ``/`` (same site, not the API, the static files
or the API's own reference at ``/docs``), once per path, and reads each page's visible text
(``innerText``) once its scripts have filled in the odds.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from urllib.parse import urlsplit

from babel.messages.pofile import read_po
from playwright.sync_api import Page

from firefight.translation import catalogue_path

EXEMPT: dict[str, str] = {}
"""Pages left out for now, each with why."""

SKIPPED_PREFIXES = ("/api/", "/static/", "/docs", "/openapi", "/redoc")
"""Links that are not players' pages: the JSON API, files, the API's reference."""

IDENTIFIER = re.compile(r"\b\w*[A-Za-z0-9]_\w*\b|\bNone\b")
"""A word with an underscore between letters or digits, or Python's ``None`` (where it does
not begin a sentence, as the English word does)."""

WAIT_S = 10_000


@cache
def french_catalogue() -> dict[str, str]:
    """The catalogue's English messages and their French, where the French is given and
    differs (a message the same in both languages is no sign of an untranslated page)."""
    with catalogue_path("fr").open("rb") as handle:
        catalogue = read_po(handle)
    found: dict[str, str] = {}
    for message in catalogue:
        if not message.id or message.fuzzy or isinstance(message.id, tuple):
            continue
        french = message.string
        if isinstance(french, str) and french and french != message.id:
            found[message.id] = french
    return found


def english_only(texts: list[str]) -> list[str]:
    """The text nodes that are a whole English message the catalogue translates (so a French
    word that merely contains an English one is not flagged)."""
    known = french_catalogue()
    return sorted({t for t in texts if len(t) > 1 and t in known})


QUIET_MS = 100
"""How long after the last of a page's requests ends, with none under way, its scripts are
taken to have filled it in (Playwright's ``networkidle`` waits 500 ms of no traffic at all,
which made the walk's waits most of its time; the page's requests are counted instead)."""

COUNT_REQUESTS = """(() => {
  const seen = {inflight: 0, last: performance.now()};
  window.__walkRequests = seen;
  const fetch = window.fetch;
  window.fetch = function (...args) {
    seen.inflight += 1;
    return fetch.apply(this, args).finally(() => {
      seen.inflight -= 1;
      seen.last = performance.now();
    });
  };
})();"""
"""Counts the page's ``fetch`` calls under way, and when the last one ended: given to a
context (``add_init_script``, as :func:`tabs` does) before its pages load, so that it runs
before the pages' own scripts; :func:`settle` waits on it."""

QUIET = f"""() => {{
  const seen = window.__walkRequests;
  return seen && seen.inflight === 0 && performance.now() - seen.last > {QUIET_MS};
}}"""


ENGAGE_ANSWERED = f"""() => ({QUIET})()
  && document.querySelector("#engage-result > h2, #engage-result > p.error")"""
"""The engagement page has answered the button pressed: its requests are over and the answer
is drawn (engage.js: a heading, or the error), not the "Working…" the press put in its
place."""


def settle(page: Page) -> None:
    """Wait for the page's scripts: loaded, none of its requests under way for
    :data:`QUIET_MS`, and on a procedure's page the odds."""
    page.wait_for_load_state("load", timeout=WAIT_S)
    page.wait_for_function(QUIET, timeout=WAIT_S, polling=20)
    if page.locator("#odds.outcome, div#odds").count():
        shown = page.locator("#odds .outcome, #odds-wait:visible, .field-error:visible")
        shown.first.wait_for(timeout=WAIT_S)


def results(page: Page) -> Iterator[None]:
    """What the page shows when asked: the odds, then a seeded roll (yields after each)."""
    yield
    if page.locator("div#odds").count() and page.locator("#roll").is_enabled():
        page.fill("#seed", "7")
        page.click("#roll")
        shown = page.locator("#result:not([hidden]), .field-error:visible")
        shown.first.wait_for(timeout=WAIT_S)
        yield
    if page.locator("#engage-result").count():
        for button in ("#odds", "#roll-seed"):
            if button == "#roll-seed":
                page.fill("#seed", "7")
            page.click(button)  # its "Working…" replaces the answer shown before
            page.wait_for_function(ENGAGE_ANSWERED, timeout=WAIT_S, polling=20)
            yield


def page_text(page: Page) -> tuple[str, list[str]]:
    """The page's visible text and those of its text nodes in the page's language (not in a
    part marked ``lang="en"``, a document written in English only), each trimmed; text marked
    as code (a command line to type, a file's name in a citation) is not a player's words and
    is left out."""
    nodes = page.evaluate(
        """() => {
          const out = [];
          const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
          while (walk.nextNode()) {
            const n = walk.currentNode, el = n.parentElement;
            if (!el || el.closest('script, style, template, [hidden], code, pre')) continue;
            if (!el.checkVisibility || !el.checkVisibility()) continue;
            const t = n.textContent.trim();
            if (t === 'None' && el.closest('table.chart td')) continue;  // the chart's own word
            const marked = el.closest('[lang]');
            if (t) out.push([t, marked ? marked.lang : '']);
          }
          return out;
        }"""
    )
    lang = page.evaluate("document.documentElement.lang")
    return "\n".join(t for t, _ in nodes), [t for t, marked in nodes if marked == lang]


def links(page: Page) -> list[str]:
    hrefs = page.eval_on_selector_all("a[href]", "els => els.map(e => e.href)")
    return [h for h in hrefs if isinstance(h, str)]


TABS = 1
"""Pages of the walk open at once: each page waits for its own network to go quiet after
loading, so the waits of the pages of a batch overlap rather than add up. One: on two cores
shared with the other test worker, four pages at once made the walk slower (124-134 s a
language against 88 s, the two languages side by side): the pages' rendering, not the
waits, is what the walk waits for."""


@contextmanager
def tabs(page: Page, count: int = TABS) -> Iterator[list[Page]]:
    """``page`` and ``count - 1`` more pages of its context (its cookies, so its language); a
    script error on one of the others fails the test as one on ``page`` does."""
    errors: list[str] = []
    page.context.add_init_script(COUNT_REQUESTS)
    more = [page.context.new_page() for _ in range(count - 1)]
    for tab in more:
        tab.on("pageerror", lambda error: errors.append(str(error)))
    try:
        yield [page, *more]
    finally:
        for tab in more:
            tab.close()
    assert not errors, f"script errors on the page: {errors}"


def walk(pages: list[Page], base_url: str) -> Iterator[tuple[Page, str]]:
    """The paths reachable from ``/``, each with the page it is open on when yielded: a batch
    of paths from the front of the queue is opened, one a page, before the first is read."""
    origin = urlsplit(base_url).netloc
    queue = ["/"]
    seen = {"/"}
    while queue:
        batch = list(zip(pages, queue, strict=False))
        del queue[: len(batch)]
        for page, path in batch:
            page.goto(path)
        for page, path in batch:
            settle(page)
            yield page, path
            for href in links(page):
                parts = urlsplit(href)
                if parts.netloc != origin or parts.path.startswith(SKIPPED_PREFIXES):
                    continue
                if parts.path in seen:
                    continue
                seen.add(parts.path)
                queue.append(parts.path + (f"?{parts.query}" if parts.query else ""))


def identifiers(text: str) -> list[str]:
    """The identifiers in ``text`` (:data:`IDENTIFIER`), each once."""
    found = set()
    for match in IDENTIFIER.finditer(text):
        before = text[: match.start()].rstrip(" ")
        if match.group(0) == "None" and (not before or before[-1] in "\n.:;!?"):
            continue  # the English word, beginning a sentence
        found.add(match.group(0))
    return sorted(found)


def check_every_page(page: Page, base_url: str, lang: str) -> None:
    """Walk every page from ``/`` in ``lang`` and fail on any identifier (and, in French, any
    English message the catalogue translates) the page shows."""
    page.goto(f"/?lang={lang}")  # sets the cookie: every later page is in this language
    found: dict[str, list[str]] = {}
    walked = 0
    with tabs(page) as pages:
        for tab, path in walk(pages, base_url):
            walked += 1
            if urlsplit(path).path in EXEMPT:
                continue
            bad: set[str] = set()
            for _ in results(tab):
                text, nodes = page_text(tab)
                bad.update(identifiers(text))
                if lang == "fr":
                    bad.update(f"English: {t!r}" for t in english_only(nodes))
            if bad:
                found[path] = sorted(bad)
    assert walked > 20, f"only {walked} pages reached from the home page"
    report = "\n".join(f"{path}: {', '.join(bad)}" for path, bad in sorted(found.items()))
    assert not found, f"identifiers or untranslated English on {len(found)} pages:\n{report}"


def test_every_page_shows_words_not_identifiers(page: Page, base_url: str):
    """In English (the French walk is ``test_words_not_ids_french.py``, a file of its own so
    that the two walks run side by side)."""
    check_every_page(page, base_url, "en")
