"""Browser tests of the web pages' features, continued (``test_page_features.py``): the board
feeding the forms, phones, the dark theme and no network (axe-core on every page:
``test_procedure_page_walks.py``)."""

from __future__ import annotations

import json
import re
from fractions import Fraction

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import cli_json
from tests.e2e.test_page_features import (
    ATTACK,
    FIRE,
    PHONE,
    odds_of,
    open_page,
    settled,
)

# --- the board feeds the forms ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("board", "firer", "target", "procedure"),
    [
        ("vv_village", "0301", "0606", "/rulesets/vv/ap_attack"),
        ("normandy_bocage", "0405", "0507", "/rulesets/ept/fire"),
    ],
)
def test_the_board_opens_the_fire_procedure_filled_from_the_line(
    context, board, firer, target, procedure
):
    verdict = cli_json("board", "los", board, firer, target)
    data = json.loads(context.request.get(f"/api/boards/{board}").text())
    terrain = data["hexes"].get(target, {"terrain": data["default_terrain"]})["terrain"]
    page = open_page(context, f"/boards/{board}")
    page.locator(f"[data-hex='{firer}']").click()
    expect(page.locator("#los")).to_contain_text("sees")
    page.locator(f"[data-hex='{target}']").click()
    expect(page.locator("#los .status")).to_have_text(verdict["status"])  # type: ignore[index]
    page.locator("#fire-link").click()
    page.wait_for_url(re.compile(re.escape(procedure)))
    settled(page)
    hindrance = sum(h["modifier"] for h in verdict["hindrances"])  # type: ignore[index]
    if board == "vv_village":
        expect(page.locator("[name='hindrance']")).to_have_value(str(hindrance))
        expect(page.locator("[name='target_terrain']")).to_have_value(terrain)
        expect(page.locator("[name='adjacent']")).not_to_be_checked()
    else:
        expect(page.locator("[name='hindrance_hexes']")).to_have_value(str(hindrance))
        expect(page.locator("[name='range']")).to_have_value(
            "adjacent" if verdict["range"] == 1 else "normal"  # type: ignore[index]
        )
        # the target stands in clear terrain behind a hedge the line crosses (TABLE DES
        # TERRAINS: hedge +1, clear none): light protection
        assert terrain == "clear"
        expect(page.locator("[name='protection']")).to_have_value("light")


def test_the_board_draws_terrain_a_legend_and_tells_hexsides_apart(context):
    page = open_page(context, "/boards/normandy_bocage")
    data = json.loads(context.request.get("/api/boards/normandy_bocage").text())
    terrains = {h["terrain"] for h in data["hexes"].values()} | {data["default_terrain"]}
    for terrain in terrains:
        expect(page.locator(f"#legend [data-legend='{terrain}']")).to_have_count(1)
    styles = {}
    for feature in ("hedge", "wall", "bocage"):
        line = page.locator(f"#board .side-{feature}").first
        styles[feature] = line.evaluate(
            "e => { const s = getComputedStyle(e); "
            "return [s.stroke, s.strokeWidth, s.strokeDasharray].join(' ') }"
        )
    assert len(set(styles.values())) == 3, styles
    assert page.locator("#board pattern").count() >= 5
    label = page.locator("#board .labels text").first.bounding_box()
    assert label
    assert label["height"] >= 9, label


def test_board_hexes_are_tap_targets_of_40px_on_a_phone(browser, base_url):
    context = browser.new_context(base_url=base_url, viewport=PHONE, has_touch=True)
    page = context.new_page()
    page.goto("/boards/vv_village")
    box = page.locator("[data-hex='0505']").bounding_box()
    assert box
    assert box["width"] >= 40, box
    assert box["height"] >= 40, box
    page.locator("[data-hex='0301']").tap()
    expect(page.locator("#firer")).to_have_value("0301")
    context.close()


def test_the_board_works_from_the_keyboard(context):
    page = open_page(context, "/boards/vv_village")
    first = page.locator("#board [data-hex]").first
    first.focus()
    start = first.get_attribute("data-hex")
    page.keyboard.press("Enter")
    expect(page.locator("#firer")).to_have_value(start)
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowRight")
    focused = page.evaluate("document.activeElement.dataset.hex")
    assert focused not in (None, start), focused
    page.keyboard.press("Enter")
    expect(page.locator("#target")).to_have_value(focused)
    expect(page.locator("#los .status")).not_to_be_empty()
    # and by typing the hexes
    page.locator("#firer").fill("0301")
    page.locator("#target").fill("0606")
    page.locator("#target").press("Enter")
    expect(page.locator("#fire-link")).to_be_visible()


# --- phones, dark theme, no network, accessibility -------------------------------------------


def test_the_odds_stay_in_view_on_a_phone(browser, base_url):
    context = browser.new_context(base_url=base_url, viewport=PHONE)
    page = context.new_page()
    page.goto("/rulesets/ept/fire?strength=6&range=adjacent&protection=medium")
    settled(page)
    odds = odds_of(ATTACK)
    summary = page.locator("#summary")
    for scroll in (0, 3000):
        page.evaluate(f"window.scrollTo(0, {scroll})")
        box = summary.bounding_box()
        assert box
        assert box["y"] >= 0, box
        assert box["y"] + box["height"] <= PHONE["height"] + 1, box
    percent = f"{float(Fraction(odds['1'])) * 100:.2f}%"
    expect(summary).to_contain_text(percent)
    context.close()


def test_the_theme_follows_prefers_color_scheme(browser, base_url):
    def background(scheme: str) -> int:
        context = browser.new_context(base_url=base_url, color_scheme=scheme)
        page = context.new_page()
        page.goto(FIRE)
        rgb = page.evaluate("getComputedStyle(document.body).backgroundColor")
        context.close()
        return sum(int(x) for x in re.findall(r"\d+", rgb)[:3])

    assert background("dark") < 200 < background("light")


def test_pages_docs_and_assets_need_no_network(browser, base_url):
    context = browser.new_context(base_url=base_url)
    outside: list[str] = []

    def route(r):
        if r.request.url.startswith(base_url):
            r.continue_()
        else:
            outside.append(r.request.url)
            r.abort()

    context.route("**/*", route)
    page = context.new_page()
    failed: list[str] = []
    page.on("requestfailed", lambda request: failed.append(request.url))
    for url in ("/", FIRE, "/boards/vv_village", "/history", "/engage", "/docs"):
        page.goto(url)
        page.wait_for_load_state("networkidle")
    expect(page.locator(".swagger-ui .info")).to_be_visible()
    assert context.request.get("/favicon.ico").ok
    context.close()
    assert not outside, outside
    assert not failed, failed
