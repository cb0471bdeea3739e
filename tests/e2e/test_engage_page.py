"""The engagement page in a browser: a sample's odds as the CLI gives them, a seeded run
turn by turn, and a bad scenario's one-line error."""

from __future__ import annotations

import re

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

    page.locator("#scenario-box > summary").click()
    page.fill("#scenario", 'ruleset = "ept"\n[a]\nunits = []\n')
    page.click("#odds")
    expect(result.locator("p.error")).to_have_text(
        "scenario: a.units: a side needs at least one unit (got none)"
    )


def test_the_index_opens_on_a_sample_and_blank_seeds_roll_anew(page: Page, shot):
    page.goto("/engage")
    result = page.locator("#engage-result")
    expect(result.locator("h2").first).to_contain_text("How it ends — exact")
    first = page.locator("#sample").input_value()
    expect(page.locator("#scenario")).to_be_hidden()
    page.select_option("#sample", "vv_village")
    expect(page).to_have_url(re.compile(r"/engage/vv_village$"))
    chosen = page.locator("#sample option:checked")
    expect(chosen).to_have_text("V&V: the village edge (3 against 3)")
    assert first != "vv_village"
    page.fill("#turns", "1")
    seeds = set()
    for _ in range(2):
        page.click("#roll-seed")
        heading = result.locator("h2").first
        expect(heading).to_contain_text("Seed ")
        seeds.add(heading.inner_text())
        expect(page.locator("#seed")).to_have_value("")
    assert len(seeds) == 2, seeds
    shot("engage-index")
