"""The data file editor in Chromium: Up Front's deck typed card by card from the keyboard,
checked as typed, kept across a reload, downloaded as deck.toml and uploaded again."""

from __future__ import annotations

import tomllib
from pathlib import Path

from playwright.sync_api import BrowserContext, Page, expect

DECK_PAGE = "/rulesets/upfront/files/deck"
MEN_PAGE = "/rulesets/upfront/files/men"
ILLUSTRATIVE = (
    Path(__file__).resolve().parents[2] / "src/firefight/rulesets/upfront/data/illustrative"
)


def type_card(page: Page, rn: str, rpn: str, kind: str, value: str) -> None:
    """One card from the keyboard alone: the RN, Tab, the ten RPNs (Tab after each), the kind
    (its first letters), Tab, the value, Enter."""
    page.locator("#f-rn").focus()
    page.keyboard.type(rn)
    page.keyboard.press("Tab")
    for number in rpn.split():
        page.keyboard.type(number)
        page.keyboard.press("Tab")
    page.keyboard.type(kind)
    page.keyboard.press("Tab")
    page.keyboard.type(value)
    page.keyboard.press("Enter")


def two_cards(page: Page) -> None:
    page.goto(DECK_PAGE)
    expect(page.locator("#f-number")).to_have_value("1")
    type_card(page, "4r", "0 1r 2 3 4 5 6 7r 8 9", "fire", "2")
    expect(page.locator("#entries tr.entry")).to_have_count(1)
    type_card(page, "3", "5 5 5r 5 5 5 5 5 5 5", "terrain", "-1")
    expect(page.locator("#entries tr.entry")).to_have_count(2)


def test_two_cards_typed_are_kept_across_a_reload_and_downloaded(
    context: BrowserContext,
) -> None:
    page = context.new_page()
    two_cards(page)
    expect(page.locator("#f-number")).to_have_value("3")  # the next number, ready to type
    expect(page.locator("#f-kind")).to_have_value("terrain")  # the kind kept for the next
    expect(page.locator("#file-summary")).to_contain_text("fire 1/48")
    page.reload()
    expect(page.locator("#entries tr.entry")).to_have_count(2)
    expect(page.locator("#entries tr.entry").first).to_contain_text("RPN 0b 1r 2b")
    with page.expect_download() as caught:
        page.locator("#download").click()
    download = caught.value
    assert download.suggested_filename == "deck.toml"
    data = tomllib.loads(Path(download.path()).read_text(encoding="utf-8"))
    assert [c["number"] for c in data["card"]] == [1, 2]
    assert data["card"][0]["rn"] == "4r"
    assert data["card"][0]["rpn"][7] == "7r"
    assert data["card"][1] == {
        "number": 2,
        "rn": "3b",
        "rpn": ["5b", "5b", "5r", "5b", "5b", "5b", "5b", "5b", "5b", "5b"],
        "kind": "terrain",
        "value": -1,
    }


def test_a_mistyped_field_is_named_as_typed_and_the_card_is_not_added(page: Page) -> None:
    page.goto(DECK_PAGE)
    page.locator("#f-rn").fill("8r")
    page.locator("#f-rn").dispatch_event("input")
    expect(page.locator("#f-rn")).to_have_attribute("aria-invalid", "false")
    expect(page.locator("#draft-problems")).to_contain_text("card 1: 'rn' must be a number 0 to 6")
    expect(page.locator("#draft-problems")).not_to_contain_text("'rpn' must be given")
    page.locator("#f-rn").press("Enter")
    expect(page.locator("#draft-problems")).to_contain_text("'rpn' must be given")
    expect(page.locator("#entries tr.entry")).to_have_count(0)
    page.locator("#f-rpn-3").fill("4x")
    page.locator("#f-rpn-3").dispatch_event("input")
    expect(page.locator("#f-rpn-3")).to_have_attribute("aria-invalid", "true")


def test_a_number_given_twice_is_refused(page: Page) -> None:
    two_cards(page)
    page.locator("#f-number").fill("2")
    type_card(page, "1", "1 1 1 1 1 1 1 1 1 1", "rally", "")
    expect(page.locator("#draft-problems")).to_contain_text("number 2 is already in the file")
    expect(page.locator("#entries tr.entry")).to_have_count(2)


def test_an_uploaded_deck_replaces_the_cards_and_counts_them(context: BrowserContext) -> None:
    page = context.new_page()
    two_cards(page)
    page.locator("#upload").set_input_files(str(ILLUSTRATIVE / "deck.toml"))
    expect(page.locator("#entries tr.entry")).to_have_count(162)
    expect(page.locator("#file-summary")).to_contain_text("fire 48/48")
    expect(page.locator("#file-problems li")).to_have_count(0)
    page.locator("#entries tr.entry").first.locator("button.remove").click()
    expect(page.locator("#entries tr.entry")).to_have_count(161)
    expect(page.locator("#file-summary")).to_contain_text("terrain 34/35")


def test_personality_cards_are_typed_the_same_way(page: Page) -> None:
    page.goto(MEN_PAGE)
    page.locator("#f-id").fill("sgt-steiner")
    page.locator("#f-nationality").select_option("german")
    page.locator("#f-rank").select_option("leader")
    page.locator("#f-weapon").select_option("mp")
    page.locator("#f-firepower").fill("0 1 2 3 4 5")
    for name, value in (("morale", "5"), ("panic", "6")):
        page.locator(f"#f-{name}").fill(value)
    page.locator("#f-rout").fill("7")
    page.locator("#f-rout").press("Enter")
    expect(page.locator("#entries tr.entry")).to_have_count(1)
    expect(page.locator("#entries tr.entry")).to_contain_text("sgt-steiner")
    expect(page.locator("#f-id")).to_be_focused()
