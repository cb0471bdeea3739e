"""Every page reachable from the home page, in French, shows words, not identifiers, and no
English string the catalogue translates (:func:`tests.e2e.test_words_not_ids.check_every_page`;
a file of its own so that ``--dist loadfile`` runs it beside the English walk)."""

from __future__ import annotations

from playwright.sync_api import Page

from tests.e2e.test_words_not_ids import check_every_page


def test_every_french_page_shows_words_not_identifiers(page: Page, base_url: str):
    check_every_page(page, base_url, "fr")
