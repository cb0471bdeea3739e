"""The web in French in a browser: the scripts speak the page's language too."""

from __future__ import annotations

from playwright.sync_api import Page, expect

BOARD = "vv_village"
LOOKER = "0806"


def test_the_procedure_page_in_french_shows_french_odds_and_errors(page: Page, shot):
    page.goto("/rulesets/ept/fire?lang=fr&strength=6")
    expect(page.locator("h1")).to_have_text("Tir (MODIFICATEURS DE TIR, TABLE DE COMBAT)")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.locator("#odds .outcome").first).to_be_visible()
    shot("fire-fr")
    page.fill("#f-strength", "0")
    error = page.locator('.field-error[data-field="strength"]')
    expect(error).to_contain_text("doit être un entier de 1 à 99")
    page.goto("/history")  # the cookie keeps the choice
    expect(page.locator("h1")).to_have_text("Vos jets")


def test_the_board_script_writes_french(page: Page, shot):
    page.goto(f"/boards/{BOARD}?lang=fr")
    page.locator(f'[data-hex="{LOOKER}"]').first.click()
    expect(page.locator("#los")).to_contain_text(f"{LOOKER} voit")
    expect(page.locator("#los")).to_contain_text("Choisissez l'hexagone cible.")
    shot("board-fr")
