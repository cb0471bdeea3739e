"""The V&V scenario page uses the screen, in Chromium at 1280 px and 390 px: the board beside
the controls and results and at least 60 % of the window wide on a desktop; on a phone every
column of the board within reach by scrolling its frame and the whole board one button away,
the chosen stack kept in view as it zooms, a mouse drag panning and Ctrl + wheel zooming; the
path's table with no hex number and no word broken over two lines; where each unit ends as a
stacked bar a unit, by the units' names."""

from __future__ import annotations

import json
from collections.abc import Iterator
from fractions import Fraction

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.test_page_features import DESKTOP, PHONE

# Every word of the results' tables that the browser laid out over more than one line (a word
# broken inside it), and every hex cell whose number does not sit on one line.
BROKEN = """() => {
  const found = [];
  const lines = (node, start, end) => {
    const range = document.createRange();
    range.setStart(node, start);
    range.setEnd(node, end);
    const boxes = [...range.getClientRects()].filter((r) => r.width > 0);
    return new Set(boxes.map((r) => Math.round(r.top))).size;
  };
  for (const cell of document.querySelectorAll("#scenario-result td, #scenario-result th")) {
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const word of node.textContent.matchAll(/\\S+/g)) {
        if (lines(node, word.index, word.index + word[0].length) > 1) found.push(word[0]);
      }
    }
    if (cell.classList.contains("hex")) {
      const text = cell.firstChild;
      const one = text && lines(text, 0, text.textContent.length) === 1;
      if (!one) found.push(`hex ${cell.textContent}`);
    }
  }
  return found;
}"""

STACK_NAMES = ["1st Rifle squad", "2nd Rifle squad", "Lt. Hale"]
UNIT_IDS = ["us-sq1", "us-sq2", "us-ldr", "de-sq1", "de-ldr"]


@pytest.fixture(params=[PHONE, DESKTOP], ids=["390px", "1280px"])
def sized(request: pytest.FixtureRequest, browser: Browser, base_url: str) -> Iterator[Page]:
    """A page at 390 px or 1280 px; a script error on it fails the test."""
    context = browser.new_context(base_url=base_url, viewport=request.param)
    context.set_default_timeout(15_000)
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    yield opened
    context.close()
    assert not errors, f"script errors on the page: {errors}"


def _path(page: Page) -> dict[str, object]:
    """Stack 0206 moved to 0306 then 0406 on the sample; the API's answer for the same move."""
    page.goto("/rulesets/vv/scenario")
    page.locator('g.counter[data-stack="0206"]').click()
    for rows, label in enumerate(("0306", "0406"), start=1):
        page.locator(f'polygon.hex[data-hex="{label}"]').click(force=True)
        # each hex's odds in before the next click (a loaded machine answers late)
        expect(page.locator("#path-odds tbody tr")).to_have_count(rows, timeout=20_000)
    body = {
        "scenario": page.locator("#scenario-text").input_value(),
        "stack": "0206",
        "path": ["0306", "0406"],
    }
    answer = page.request.post(
        "/api/vv/move", data=json.dumps(body), headers={"Content-Type": "application/json"}
    ).json()
    assert isinstance(answer, dict)
    return answer


def _box(page: Page, selector: str) -> dict[str, float]:
    found = page.locator(selector).bounding_box()
    assert found is not None, selector
    return found


def _across(inner: dict[str, float], left: float, right: float) -> None:
    """``inner`` lies between ``left`` and ``right`` (a pixel's slack)."""
    assert inner["x"] >= left - 1, (inner, left)
    assert inner["x"] + inner["width"] <= right + 1, (inner, right)


def test_the_board_takes_the_width_beside_the_controls_at_1280(browser: Browser, base_url):
    context = browser.new_context(base_url=base_url, viewport=DESKTOP)
    page = context.new_page()
    _path(page)
    board = _box(page, "#scenario-board")
    panel = _box(page, "#scenario-panel")
    assert board["width"] >= 0.6 * DESKTOP["width"], board
    assert panel["x"] >= board["x"] + board["width"]  # beside it, not under it
    assert panel["y"] < board["y"] + board["height"]
    # the whole board shows: no column of it is off the frame
    assert page.evaluate(
        "() => { const w = document.getElementById('scenario-board-wrap');"
        " return w.scrollWidth <= w.clientWidth + 1; }"
    )
    context.close()


def test_no_hex_number_or_word_breaks_in_the_results(sized: Page):
    _path(sized)
    expect(sized.locator("#path-odds td.hex")).to_have_text(["0306", "0406"])
    assert sized.evaluate(BROKEN) == []
    sized.click("#clear-path")
    sized.select_option("#side", "us")
    sized.click("#threat")
    expect(sized.locator("#threat-summary")).to_be_visible()
    sized.locator('polygon.hex[data-hex="0406"]').click(force=True)
    expect(sized.locator("#hex-firers tbody tr")).not_to_have_count(0)
    expect(sized.locator("#hex-firers tbody td").first).to_have_text("Grenadier squad + Fw. Brandt")
    assert sized.evaluate(BROKEN) == []


def test_each_unit_ends_as_a_stacked_bar_by_its_name(sized: Page):
    move = _path(sized)
    outcomes = move["outcomes"]
    assert isinstance(outcomes, dict)
    rows = sized.locator("#end-states tbody tr")
    expect(rows.locator("th")).to_have_text(STACK_NAMES)
    for unit, found in outcomes.items():
        row = sized.locator(f'#end-states tr[data-unit="{unit}"]')
        segments = row.locator(".end-bar > span")
        expect(segments).to_have_count(len(found))
        expect(row.locator("ul.end-list li")).to_have_count(len(found))
        bar = row.locator(".end-bar").bounding_box()
        assert bar is not None
        widths = [box["width"] for box in (s.bounding_box() for s in segments.all()) if box]
        assert abs(sum(widths) - bar["width"]) <= 2
        assert sum(Fraction(o["fraction"]) for o in found) == 1
        for outcome in found:
            shown = row.locator(
                f'.end-bar > span[data-state="{outcome["state"]}"][data-hex="{outcome["hex"]}"]'
            )
            expect(shown).to_have_count(1)
    # the path's table and the end states name units, never their ids
    for selector in ("#path-odds", "#end-states"):
        text = sized.locator(selector).inner_text()
        assert not [i for i in UNIT_IDS if i in text], text
    expect(sized.locator('#path-odds tr[data-step="0306"] td').nth(4)).to_have_text(
        "Grenadier squad + Fw. Brandt"
    )


def test_every_board_column_is_within_reach_at_390(browser: Browser, base_url):
    context = browser.new_context(base_url=base_url, viewport=PHONE)
    page = context.new_page()
    page.goto("/rulesets/vv/scenario")
    expect(page.locator("#scenario-board g.counter")).to_have_count(6)
    wrap = "#scenario-board-wrap"
    assert float(page.locator(wrap).get_attribute("data-zoom") or 0) > 1  # opens zoomed in
    columns = sorted(
        {
            int(c)
            for c in page.eval_on_selector_all(
                "#scenario-board polygon.hex", "hexes => hexes.map((h) => h.dataset.column)"
            )
        }
    )
    assert len(columns) == 16
    for column in columns:
        hex_ = page.locator(f'#scenario-board polygon.hex[data-column="{column}"]').first
        hex_.scroll_into_view_if_needed()
        box, frame = hex_.bounding_box(), _box(page, wrap)
        assert box is not None
        _across(box, frame["x"], frame["x"] + frame["width"])
        _across(box, 0, PHONE["width"])
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth + 1")

    # The whole board in the frame at one press; zooming in keeps the chosen stack in view.
    page.click('[data-zoom="fit"]')
    expect(page.locator(wrap)).to_have_attribute("data-zoom", "1.00")
    frame = _box(page, wrap)
    assert page.evaluate(
        """(right) => [...document.querySelectorAll('#scenario-board polygon.hex')]
             .every((h) => h.getBoundingClientRect().right <= right + 1)""",
        frame["x"] + frame["width"],
    )
    page.select_option("#side", "de")
    page.locator('g.counter[data-stack="0605"]').click()
    expect(page.locator("#move-hint")).to_contain_text("Stack 0605 selected")
    for _ in range(4):
        page.click('[data-zoom="in"]')
    assert float(page.locator(wrap).get_attribute("data-zoom") or 0) > 2
    counter = _box(page, 'g.counter[data-stack="0605"]')
    frame = _box(page, wrap)
    _across(counter, frame["x"], frame["x"] + frame["width"])
    context.close()


def test_a_mouse_drags_the_board_and_ctrl_wheel_zooms_it_at_390(browser: Browser, base_url):
    context = browser.new_context(base_url=base_url, viewport=PHONE)
    page = context.new_page()
    page.goto("/rulesets/vv/scenario")
    expect(page.locator("#scenario-board g.counter")).to_have_count(6)
    wrap = page.locator("#scenario-board-wrap")
    frame = _box(page, "#scenario-board-wrap")
    x, y = frame["x"] + frame["width"] * 0.7, frame["y"] + frame["height"] * 0.5
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x - 120, y, steps=6)
    page.mouse.up()
    assert wrap.evaluate("(w) => w.scrollLeft") > 100  # the board moved under the pointer
    expect(page.locator("#scenario-result h2")).to_have_count(0)  # a drag chooses no hex
    before = float(wrap.get_attribute("data-zoom") or 0)
    page.keyboard.down("Control")
    page.mouse.wheel(0, -200)
    page.keyboard.up("Control")
    expect(wrap).not_to_have_attribute("data-zoom", f"{before:.2f}")
    assert float(wrap.get_attribute("data-zoom") or 0) > before
    context.close()
