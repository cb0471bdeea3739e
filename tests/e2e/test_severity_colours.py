"""The odds bars are coloured by how bad each outcome is (the rule set's severity), with a
legend in words, and a pinned attack is drawn over the same bars."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

import firefight

FIRE = "/rulesets/ept/fire?strength=12"


def test_every_bar_carries_its_outcomes_severity_class(page: Page, shot):
    page.goto(FIRE)
    rows = page.locator("#odds .outcome")
    expect(rows.first).to_be_visible()
    severity = firefight.ruleset("ept").outcome_severity("fire")
    assert severity is not None
    grades = {}
    for i in range(rows.count()):
        row = rows.nth(i)
        code = row.get_attribute("data-outcome")
        assert code is not None
        grades[code] = severity.grade(code)
        expect(row).to_have_class(re.compile(rf"\bseverity-{grades[code]}\b"))
    assert grades["-"] == 0
    worst = max(grades, key=lambda code: grades[code] or 0)
    assert grades[worst] >= 3
    colour = "el => getComputedStyle(el).backgroundColor"
    green = page.locator('#odds .outcome[data-outcome="-"] .bar').evaluate(colour)
    red = page.locator(f'#odds .outcome[data-outcome="{worst}"] .bar').evaluate(colour)
    assert green != red
    legend = page.locator("#severity-legend")
    expect(legend).to_contain_text("no effect")
    expect(legend).to_contain_text("the worst (eliminated)")
    shot("fire-colours")


def test_a_value_not_an_effect_is_uncoloured(page: Page):
    page.goto("/rulesets/ept/scatter")
    rows = page.locator("#odds .outcome")
    expect(rows.first).to_be_visible()
    expect(rows.first).to_have_class(re.compile(r"\bseverity-none\b"))


def test_the_pinned_attack_is_drawn_over_the_same_bars(page: Page, shot):
    page.goto(FIRE)
    expect(page.locator("#odds .outcome").first).to_be_visible()
    page.click("#pin")
    page.fill("#f-strength", "3")
    expect(page.locator("#pinned-note")).to_be_visible()
    row = page.locator('#odds .outcome[data-outcome="-"]')
    expect(row.locator(".pin-bar")).to_be_visible()
    track = row.locator(".track").bounding_box()
    pinned = row.locator(".pin-bar").bounding_box()
    assert track is not None
    assert pinned is not None
    assert track["y"] <= pinned["y"]
    assert pinned["y"] + pinned["height"] <= track["y"] + track["height"]
    shot("fire-compared")
