"""The engagement page's best fire plan in a browser: the optimal value, each policy's loss
and the first turn's plan, for either side and objective."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.cli.test_engage_optimal_cli import SMALL


def test_the_best_fire_plan_shows_the_policies_losses_and_the_first_turn(page: Page, shot):
    page.goto("/engage/ept_hedgerow")
    result = page.locator("#engage-result")
    expect(result.locator("h2").first).to_contain_text("How it ends — exact")
    page.locator("#scenario-box > summary").click()
    page.fill("#scenario", SMALL)
    page.select_option("#optimal-side", "b")
    page.click("#optimal")
    expect(result.locator("h2").first).to_contain_text("Best fire plan for Americans — exact")
    expect(result).to_contain_text("against an optimal opponent (minimax)")
    expect(result.locator("table").first).to_contain_text("best expected effect")
    expect(result.locator("h3").first).to_contain_text("Turn 1: Squad fires at MG")
    shot("engage-optimal")
    page.select_option("#optimal-objective", "losses")
    page.click("#optimal")
    expect(result).to_contain_text("expected enemy losses")


def test_the_best_fire_plan_against_a_named_opponent(page: Page, shot):
    page.goto("/engage/ept_hedgerow")
    result = page.locator("#engage-result")
    expect(result.locator("h2").first).to_contain_text("How it ends — exact")
    page.locator("#scenario-box > summary").click()
    page.fill("#scenario", SMALL)
    expect(page.locator("#optimal-against option")).to_have_count(5)
    page.select_option("#optimal-against", "focus")
    page.click("#optimal")
    expect(result).to_contain_text("against the opponent's focus policy")
    shot("engage-optimal-against-focus")
    page.select_option("#optimal-against", "")
    page.click("#optimal")
    expect(result).to_contain_text("against an optimal opponent (minimax)")
