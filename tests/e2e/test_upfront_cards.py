"""The Up Front fire attack as a card table, in Debian's Chromium at 390 px and 1280 px: the
sample hand's cards and odds at once, a click on a card changing the odds, the page short
enough to read, no type names for labels, nothing wider than its box; with scripts off, a
card clicked still plays it through the form. The screenshots go to docs/images when
``FIREFIGHT_DOC_SHOTS`` is set (``upfront-cards-390.png``, ``upfront-cards-1280.png``)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.e2e.conftest import cli_json
from tests.e2e.test_page_features import DESKTOP, OVERFLOWS, PHONE

PAGE = "/rulesets/upfront/fire/cards"
IMAGES = Path(__file__).resolve().parents[2] / "docs" / "images"
TALLEST_AT_1280 = 2650  # the hand, both groups, the odds and the Advise button


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["390px", "1280px"])
def test_a_card_clicked_changes_the_odds(browser: Browser, base_url: str, viewport, artifacts):
    context = browser.new_context(base_url=base_url, viewport=viewport)
    context.set_default_timeout(15_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(PAGE)
    cards = page.locator("#hand button.action-card")
    expect(cards).to_have_count(6)
    expect(page.locator("#hand .action-card.played")).to_have_count(2)
    expect(page.locator("#losses .outcome-row").first).to_be_visible()
    expect(page.locator(".person-card")).to_have_count(6)
    assert "(str)" not in page.locator("main").inner_text()
    assert page.evaluate(OVERFLOWS) == []
    before = page.locator("#losses").inner_text()
    width = viewport["width"]
    if os.environ.get("FIREFIGHT_DOC_SHOTS"):
        page.screenshot(path=str(IMAGES / f"upfront-cards-{width}.png"), full_page=True)
    page.screenshot(path=str(artifacts / f"upfront-cards-{width}-opened.png"), full_page=True)
    page.locator('#hand .action-card[data-card="64"]').click()
    expect(page.locator('#hand .action-card[data-card="64"]')).to_have_class("action-card played")
    expect(page.locator("#f-fire_cards")).to_have_value("67,70,64")
    expect(page.locator("#losses")).not_to_have_text(before)
    assert "fire_cards=67%2C70%2C64" in page.url
    page.locator('#hand .action-card[data-card="70"]').click()
    expect(page.locator("#f-fire_cards")).to_have_value("67,64")
    expect(page.locator("#hand .action-card.played")).to_have_count(2)
    page.screenshot(path=str(artifacts / f"upfront-cards-{width}-played.png"), full_page=True)
    height = page.evaluate("document.documentElement.scrollHeight")
    if width == DESKTOP["width"]:
        assert height < TALLEST_AT_1280, height
    context.close()
    assert not errors


def test_without_scripts_a_card_is_played_through_the_form(browser: Browser, base_url: str):
    context = browser.new_context(base_url=base_url, viewport=DESKTOP, java_script_enabled=False)
    page = context.new_page()
    page.goto(PAGE)
    before = page.locator("#losses").inner_text()
    page.locator('#hand .action-card[data-card="64"]').click()
    expect(page.locator("#f-fire_cards")).to_have_value("67,70,64")
    assert page.locator("#losses").inner_text() != before
    page.locator('#hand .action-card[data-card="64"]').click()
    expect(page.locator("#f-fire_cards")).to_have_value("67,70")
    assert page.locator("#losses").inner_text() == before
    context.close()


def test_the_fire_page_names_a_groups_outcomes_as_the_cli_does(page) -> None:
    """The classic fire page (the procedure's form) lists a group's outcomes by their short
    names with the meaning beside, as the card table and the CLI's result column, not by their
    codes; a roll's outcome likewise."""
    inputs = ["--fire-cards", "67,70", "--targets", "us-rifle,us-bar"]
    odds = cli_json("odds", "upfront", "fire", *inputs)
    assert isinstance(odds, dict)
    names = odds["names"]
    page.goto("/rulesets/upfront/fire?fire_cards=67%2C70&targets=us-rifle%2Cus-bar")
    rows = page.locator("#odds .outcome")
    expect(rows).to_have_count(len(odds["distribution"]))
    for code in odds["distribution"]:
        found = page.locator(f'#odds .outcome[data-outcome="{code}"]')
        expect(found.locator(".code")).to_have_text(names[code][0])
        expect(found.locator(".meaning")).to_have_text(names[code][1])
    rolled = cli_json("resolve", "upfront", "fire", *inputs, "--seed", "3")
    assert isinstance(rolled, dict)
    page.fill("#seed", "3")
    page.click("#roll")
    name, meaning = rolled["names"][rolled["outcome"]]
    expect(page.locator("#outcome")).to_have_text(name)
    expect(page.locator("#outcome-meaning")).to_have_text(meaning)


# Every word or number of the advice's text drawn on more than one line (a card number, a
# percentage, a list's item broken inside): a table wider than its frame scrolls instead.
SPLIT_TOKENS = """(root) => {
  const found = [];
  const walker = document.createTreeWalker(document.querySelector(root), NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const token of node.textContent.matchAll(/[\\p{L}\\p{N}]+(?:\\.\\p{N}+)?%?/gu)) {
      const range = document.createRange();
      range.setStart(node, token.index);
      range.setEnd(node, token.index + token[0].length);
      const lines = [...range.getClientRects()].filter((r) => r.width > 0);
      if (new Set(lines.map((r) => Math.round(r.top))).size > 1) found.push(token[0]);
    }
  }
  return found;
}"""


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["390px", "1280px"])
def test_the_best_play_table_never_breaks_a_number(
    browser: Browser, base_url: str, viewport, artifacts
):
    """The Advise answer's table of plays: no card number, percentage or word broken across
    lines; at 390 px it scrolls in its own frame, the page does not."""
    context = browser.new_context(base_url=base_url, viewport=viewport)
    context.set_default_timeout(30_000)
    page = context.new_page()
    page.goto(PAGE)
    expect(page.locator("#losses .outcome-row").first).to_be_visible()
    page.click("#action-advise")
    expect(page.locator("#action-answer .action-table tbody tr")).not_to_have_count(0)
    shown = page.locator("#action-answer")
    shown.screenshot(path=str(artifacts / f"upfront-best-play-{viewport['width']}.png"))
    assert page.evaluate(SPLIT_TOKENS, "#action-answer") == []
    assert page.evaluate(OVERFLOWS) == []
    context.close()
