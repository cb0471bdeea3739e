"""The engagement page in a browser: a sample's odds as the CLI gives them, a seeded run
turn by turn, and a bad scenario's one-line error."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.e2e.conftest import cli_json


def test_a_samples_page_shows_its_odds_a_roll_and_errors(page: Page, shot):
    page.goto("/engage/vv_village")
    result = page.locator("#engage-result")
    expect(result.locator("h2").first).to_contain_text("How it ends — exact")
    data = cli_json("engage", "vv_village")
    assert isinstance(data, dict)
    numerator, denominator = data["outcome"]["a_wins"].split("/")
    shown = f"{100 * int(numerator) / int(denominator):.2f} %"
    expect(result).to_contain_text(f"Germans win{shown}")
    expect(result.locator("svg.curve polyline")).to_have_count(2)
    shot("engage-odds")

    page.fill("#seed", "4")
    page.fill("#turns", "1")
    page.click("#roll-seed")
    expect(result.locator("h3")).to_have_text(["Turn 1"])
    expect(result).to_contain_text("Germans 1st squad fires at")
    shot("engage-roll")

    page.fill("#scenario", 'ruleset = "ept"\n[a]\nunits = []\n')
    page.click("#odds")
    expect(result.locator("p.error")).to_have_text(
        "scenario: a.units: a side needs at least one unit (got none)"
    )
