"""The pages of the two example games of ``examples/`` (games written as one TOML file), in
English and in French: words, not identifiers, and on a French page the file's own French.

Their words are the file's, which no catalogue holds: the untranslated-text check
(:func:`tests.e2e.test_words_not_ids.english_only`) flags only the catalogue's own messages, so
a word a file gives in one language only is shown as given and not flagged."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from firefight.rulesets import added
from tests.e2e.conftest import VIEWPORT, start_server
from tests.e2e.test_words_not_ids import (
    COUNT_REQUESTS,
    english_only,
    identifiers,
    page_text,
    results,
    settle,
)

EXAMPLES = Path(__file__).parents[2] / "examples"
PAGES = {
    "/rulesets/classic-crt/attack": {
        "fr": [
            "Attaque (table de résultats des combats)",
            "force d'attaque",
            "derrière une rivière",
        ]
    },
    "/rulesets/classic-crt/tables/classic-crt": {
        "fr": ["Table de résultats des combats classique"]
    },
    "/rulesets/firepower-2d6/fire": {
        "fr": ["Tir (table de tir par puissance de feu)", "tireur cloué"]
    },
}


@pytest.fixture(scope="module")
def designed_url() -> Iterator[str]:
    """The app, built with the examples as the folder of added rule sets."""
    patch = pytest.MonkeyPatch()
    patch.setenv(added.FOLDER_VARIABLE, str(EXAMPLES))
    added.forget()
    try:
        with start_server() as url:
            yield url
    finally:
        patch.undo()
        added.forget()


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_designed_games_pages_show_words_in_the_files_languages(
    browser: Browser, designed_url: str, lang: str
):
    context = browser.new_context(base_url=designed_url, viewport=VIEWPORT)
    context.add_init_script(COUNT_REQUESTS)  # what settle() waits on
    page = context.new_page()
    try:
        found: dict[str, list[str]] = {}
        for path, expected in PAGES.items():
            page.goto(f"{path}?lang={lang}")
            settle(page)
            bad: set[str] = set()
            for _ in results(page):
                text, nodes = page_text(page)
                bad.update(identifiers(text))
                if lang == "fr":
                    bad.update(f"English: {t!r}" for t in english_only(nodes))
                bad.update(f"missing {w!r}" for w in expected.get(lang, []) if w not in text)
            if bad:
                found[path] = sorted(bad)
        assert not found, found
    finally:
        context.close()
