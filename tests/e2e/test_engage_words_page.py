"""The engagement page in a browser, in French and in English: a seeded run, its replay with
the dice, the odds' end states and the best fire plan show each unit's state and each note of
the trace in the page's words (as ``firefight engage`` words them), never the API's English,
and fit a phone's width."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page, expect

ENGLISH = re.compile(r"\bfires at\b|\bfull\b|\bneutralized\b|\b\d steps?\b|\bstopped\b|\bpinned\b")
"""The English of a unit's state and of a fire note, none of which the French page shows."""

PHONE = {"width": 390, "height": 844}


def _roll(page: Page, seed: str, turns: str) -> str:
    """The page's run with ``seed`` for ``turns`` turns, as text."""
    result = page.locator("#engage-result")
    page.fill("#seed", seed)
    page.fill("#turns", turns)
    page.click("#roll-seed")
    expect(result.locator("h3")).to_have_count(int(turns))
    return result.inner_text()


def test_a_french_run_and_its_replay_word_states_and_notes(page: Page, shot):
    page.goto("/engage/ept_hedgerow?lang=fr")
    result = page.locator("#engage-result")
    expect(result.locator("h2").first).to_contain_text("Comment cela finit")
    run = _roll(page, "3", "2")
    shot("french-run")
    for french in (
        "Graine 3 : Germans gagnent",
        "départ : MG 42 team: 2 pas; Gruppe 1: 2 pas; Gruppe 2: 2 pas",
        "Germans MG 42 team tire sur Squad 1",
        "test de neutralisation (2d6)",
        "Squad 1: stoppé: 2 pas -> 2 pas, stoppé",
        "Gruppe 2: 2 pas, neutralisé",
    ):
        assert french in run, french
    assert not ENGLISH.search(run), ENGLISH.search(run)
    replay = result.locator("p.replay code").inner_text()
    page.fill("#seed", "")
    page.fill("#dice", replay)
    page.click("#roll-dice")
    expect(result.locator("h2").first).to_contain_text("Vos dés")
    replayed = result.inner_text()
    assert replayed.split("\n", 1)[1] == run.split("\n", 1)[1]  # the same words, turn by turn
    assert not ENGLISH.search(replayed)


def test_the_french_villages_states_odds_and_best_fire_plan(page: Page, shot):
    page.goto("/engage/vv_village?lang=fr")
    result = page.locator("#engage-result")
    expect(result.locator("#end-states")).to_contain_text("entier")
    odds = result.locator("#end-states").inner_text()
    assert not ENGLISH.search(odds), ENGLISH.search(odds)
    run = _roll(page, "3", "2")
    for french in (
        "toujours au combat après le dernier tour",
        "Germans 1st squad tire sur Able",
        "Able: unité 1 réduit et cloué: entier -> réduit, cloué",
        "Americans : début du tir",
        "Charlie: réduit, cloué -> réduit",
    ):
        assert french in run, french
    assert not ENGLISH.search(run), ENGLISH.search(run)
    page.click("#optimal")
    expect(result.locator("h2").first).to_contain_text("Meilleur plan de tir pour Germans")
    plan = result.inner_text()
    shot("french-plan")
    for french in ("meilleur effet attendu", "Tour 1 : 1st squad tire sur Able", "entier"):
        assert french in plan, french
    assert "dans l'état qu'elle rencontre le plus souvent" in plan
    assert not ENGLISH.search(plan), ENGLISH.search(plan)


def test_the_english_page_keeps_its_english_words(page: Page):
    page.goto("/engage/vv_village?lang=en")
    result = page.locator("#engage-result")
    expect(result.locator("#end-states")).to_contain_text("full")
    run = _roll(page, "3", "2")
    for english in (
        "Seed 3: still fighting after the last turn",
        "start: 1st squad: full",
        "Germans 1st squad fires at Able",
        "Able: unit1 reduced pinned: full -> reduced, pinned",
        "Americans: start of fire",
    ):
        assert english in run, english
    page.click("#optimal")
    expect(result.locator("h2").first).to_contain_text("Best fire plan for Germans")
    plan = result.inner_text()
    assert "best expected effect" in plan
    assert "Turn 1: 1st squad fires at Able" in plan
    assert "in the state it meets most often" in plan


def test_the_french_run_fits_a_phone(browser: Browser, base_url: str):
    context = browser.new_context(base_url=base_url, viewport=PHONE)
    try:
        page = context.new_page()
        page.goto("/engage/vv_village?lang=fr")
        _roll(page, "3", "3")
        wider = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert wider <= 0, f"the run is {wider} px wider than the phone"
    finally:
        context.close()
