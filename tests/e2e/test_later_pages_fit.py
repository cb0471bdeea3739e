"""The width and accessibility checks on the later pages: the V&V scenario page and the
shared table, at 390 px and 1280 px, in every state a
player reaches (the threat map with its legend, a path with its odds and a roll, the safest
paths, which fit their panel; a created game with its links, a declared resolution awaiting
the answer, a roll in the journal).

Each state passes the overflow check of ``test_page_features`` (no text wider than its box, no
sideways scrolling) and axe-core reports no serious or critical violation."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.test_deck_editor import type_card
from tests.e2e.test_page_features import AXE, DESKTOP, OVERFLOWS, PHONE, axe_violations
from tests.e2e.test_words_not_ids import COUNT_REQUESTS, settle

# Every element of a results panel that reaches past the panel's sides (a table wider than
# it, though its frame would scroll): the results fit their column.
BEYOND_PANEL = """(panel) => {
  const box = document.querySelector(panel).getBoundingClientRect();
  return [...document.querySelectorAll(`${panel} *`)]
    .filter((node) => {
      const own = node.getBoundingClientRect();
      return own.width > 0 && (own.right > box.right + 1 || own.left < box.left - 1);
    })
    .map((node) => `${node.tagName.toLowerCase()}#${node.id}.${node.className} past the panel`)
    .slice(0, 5);
}"""


def _problems(page: Page) -> list[str]:
    found: list[str] = page.evaluate(OVERFLOWS)
    violations = axe_violations(page)
    found += [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:3]}"
        for v in violations
        if v["impact"] in ("serious", "critical")
    ]
    return found


def _checked_page(browser: Browser, base_url: str, viewport: dict[str, int]) -> Page:
    """A page in a new context at ``viewport``, axe-core loaded with each page it opens."""
    context = browser.new_context(base_url=base_url, viewport=viewport)
    context.add_init_script(path=str(AXE))
    context.set_default_timeout(15_000)
    return context.new_page()


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["390px", "1280px"])
def test_the_scenario_page_fits_and_passes_axe_in_every_state(browser: Browser, base_url, viewport):
    page = _checked_page(browser, base_url, viewport)
    found: dict[str, list[str]] = {}
    page.goto("/rulesets/vv/scenario")
    expect(page.locator("#scenario-board g.counter")).to_have_count(6)
    found["opened"] = _problems(page)
    page.select_option("#side", "us")
    page.click("#threat")
    expect(page.locator("#legend")).to_be_visible()
    found["threat map"] = _problems(page)
    page.locator('g.counter[data-stack="0206"]').click()
    for rows, label in enumerate(("0306", "0406"), start=1):
        # Each hex's odds are drawn before the next click: the table they fill moves the board.
        page.locator(f'polygon.hex[data-hex="{label}"]').click(force=True)
        expect(page.locator("#path-odds tbody tr")).to_have_count(rows, timeout=20_000)
    page.fill("#seed", "4")
    page.click("#roll")
    expect(page.locator("#trace > li")).not_to_have_count(0)
    found["path rolled"] = _problems(page)
    page.goto("/rulesets/vv/scenario?name=armour")
    page.locator("#move-options > summary").click()
    page.check("#f-overrun")
    page.locator('g.counter[data-stack="0212"]').click()
    for label in ("0211", "0210", "0309"):
        page.locator(f'polygon.hex[data-hex="{label}"]').click(force=True)
    expect(page.locator("#overrun-afv li")).not_to_have_count(0)
    found["move options, overrun"] = _problems(page)
    page.goto("/rulesets/vv/scenario")
    page.select_option("#side", "us")
    page.locator('g.counter[data-stack="0206"]').click()
    page.click("#safest-paths")
    page.locator('polygon.hex[data-hex="0406"]').click(force=True)
    expect(page.locator("#best-paths tbody tr")).not_to_have_count(0, timeout=20_000)
    found["safest paths"] = _problems(page) + page.evaluate(BEYOND_PANEL, "#scenario-result")
    page.context.close()
    assert not {state: bad for state, bad in found.items() if bad}


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["390px", "1280px"])
def test_the_table_pages_fit_and_pass_axe_in_every_state(
    browser: Browser, base_url, viewport, tmp_path, monkeypatch
):
    monkeypatch.setenv("FIREFIGHT_DB", str(tmp_path / "server.sqlite3"))
    alice = _checked_page(browser, base_url, viewport)
    found: dict[str, list[str]] = {}
    alice.goto("/table")
    found["new game"] = _problems(alice)
    alice.fill("#scenario", "Hill 112")
    alice.click("#create-game")
    expect(alice.locator("#links")).to_be_visible()
    found["links"] = _problems(alice)
    link_a = alice.locator("#link-a").get_attribute("href") or ""
    link_b = alice.locator("#link-b").get_attribute("href") or ""
    bob = alice.context.new_page()
    bob.goto(link_b)
    alice.goto(link_a)
    expect(alice.locator("#declare-box")).to_be_visible()
    found["declaring"] = _problems(alice)
    alice.select_option("#ruleset", "ept")
    alice.select_option("#procedure", "fire")
    alice.fill("#input", '{"strength": 6, "range": "adjacent"}')
    alice.click("#declare")
    expect(bob.locator("#answer-box")).to_be_visible()
    found["answering"] = _problems(bob)
    bob.click("#answer")
    expect(alice.locator("#rolls li")).to_have_count(1)
    found["rolled"] = _problems(alice)
    alice.context.close()
    assert not {state: bad for state, bad in found.items() if bad}


DARK_PAGES = [
    "/",
    "/history",
    "/engage",
    "/boards/vv_village",
    "/rulesets/ept/fire?strength=6",
    "/rulesets/vv/at_attack",
    "/rulesets/ept/tables/combat?row=8&column=6",
    "/rulesets/vv/scenario",
    "/table",
]


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["390px", "1280px"])
def test_axe_finds_no_serious_or_critical_violation_in_the_dark_theme(
    browser: Browser, base_url, viewport
):
    context = browser.new_context(base_url=base_url, viewport=viewport, color_scheme="dark")
    context.add_init_script(path=str(AXE))
    context.add_init_script(COUNT_REQUESTS)
    context.set_default_timeout(15_000)
    page = context.new_page()
    found: dict[str, list[str]] = {}
    for url in DARK_PAGES:
        page.goto(url)
        settle(page)  # its requests over 100 ms (networkidle waited 500 ms of no traffic)
        found[url] = _problems(page)
    page.context.close()
    assert not {url: bad for url, bad in found.items() if bad}


def test_the_scenario_board_hexes_are_tap_targets_of_40px_on_a_phone(browser: Browser, base_url):
    context = browser.new_context(base_url=base_url, viewport=PHONE, has_touch=True)
    context.set_default_timeout(15_000)
    page = context.new_page()
    page.goto("/rulesets/vv/scenario")
    box = page.locator('polygon.hex[data-hex="0406"]').bounding_box()
    assert box
    assert box["width"] >= 40, box
    assert box["height"] >= 40, box
    page.locator('g.counter[data-stack="0206"]').tap()
    expect(page.locator("#move-hint")).to_contain_text("Stack 0206 selected")
    page.locator('polygon.hex[data-hex="0306"]').tap(force=True)
    expect(page.locator("#path-odds tbody tr")).to_have_count(1)
    page.locator("details > summary", has_text="Scenario file").tap()
    expect(page.locator("#scenario-text")).to_be_visible()
    assert page.evaluate(OVERFLOWS) == []
    page.context.close()


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["390px", "1280px"])
def test_the_card_table_and_the_deck_editors_fit_and_pass_axe(browser: Browser, base_url, viewport):
    """Up Front's card table (opened, a card played) and the deck and personality editors
    (opened, a card typed, a field mistyped): no overflow, no serious or critical violation."""
    page = _checked_page(browser, base_url, viewport)
    found: dict[str, list[str]] = {}
    page.goto("/rulesets/upfront/fire/cards")
    expect(page.locator("#losses .outcome-row").first).to_be_visible()
    found["card table"] = _problems(page)
    page.locator('#hand .action-card[data-card="64"]').click()
    expect(page.locator("#f-fire_cards")).to_have_value("67,70,64")
    expect(page.locator("#card-odds.stale")).to_have_count(0)  # the new odds in, not faded
    found["card table, a card played"] = _problems(page)
    page.goto("/rulesets/upfront/files/deck")
    expect(page.locator("#f-number")).to_have_value("1")
    found["deck editor"] = _problems(page)
    type_card(page, "4r", "0 1r 2 3 4 5 6 7r 8 9", "fire", "2")
    expect(page.locator("#entries tr.entry")).to_have_count(1)
    page.locator("#f-rn").fill("99")
    page.locator("#f-rn").press("Enter")
    found["deck editor, a card typed and one mistyped"] = _problems(page)
    page.goto("/rulesets/upfront/files/men")
    expect(page.locator("#f-id")).to_be_visible()
    found["personality editor"] = _problems(page)
    page.context.close()
    assert not {state: bad for state, bad in found.items() if bad}
