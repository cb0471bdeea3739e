"""Browser tests of the web pages' features, in headless Debian Chromium (see ``conftest.py``).

Expected values come from the CLI (``firefight ... --json``) or the JSON API in the same run,
never from a hard-coded guess. Each test is named for the behaviour it checks.
"""

from __future__ import annotations

import csv
import io
import json
from fractions import Fraction
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from playwright.sync_api import BrowserContext, Page, expect

from firefight.rulesets import rulesets
from firefight.web.wording import outcome_label
from tests.e2e.conftest import cli_json

PROCEDURES = [f"/rulesets/{r.id}/{p.name}" for r in rulesets() for p in r.procedures]
FIRE = "/rulesets/ept/fire"
ATTACK = {"strength": "6", "range": "adjacent", "protection": "medium"}
AXE = Path(__file__).parent / "vendor" / "axe-4.14.1.min.js"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
ATTACK_ARGS = [x for name, value in ATTACK.items() for x in (f"--{name}", value)]

# Every text element whose content is wider than its box (clipped or running over its
# neighbours), and a page that scrolls sideways.
OVERFLOWS = """() => {
  const found = [];
  for (const node of document.querySelectorAll("main *")) {
    if (node.closest("svg, select, option, .chart-wrap, .table-wrap")) continue;
    const style = getComputedStyle(node);
    if (style.display === "inline" || style.display === "none" || !node.offsetParent) continue;
    const own = [...node.childNodes].some((c) => c.nodeType === 3 && c.textContent.trim());
    if (own && node.scrollWidth > node.clientWidth + 1) {
      const text = node.textContent.trim().slice(0, 50);
      found.push(`${node.tagName.toLowerCase()}.${node.className}: ${text}`);
    }
  }
  if (document.documentElement.scrollWidth > window.innerWidth + 1) {
    found.push("the page scrolls sideways");
  }
  return found;
}"""


def axe_violations(page: Page) -> list[dict]:
    """axe-core's violations on the page as it is now. A context given the script once
    (``context.add_init_script(path=str(AXE))``) has it parsed with each page it loads, a
    quarter quicker than sending its 600 kB over on each check; elsewhere it is added here."""
    if not page.evaluate("() => typeof axe === 'object'"):
        page.add_script_tag(path=str(AXE))
    return page.evaluate("async () => (await axe.run(document)).violations")


def open_page(context: BrowserContext, url: str) -> Page:
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url)
    page.wait_for_function("() => window.Alpine !== undefined || !document.querySelector('#odds')")
    page.errors = errors  # type: ignore[attr-defined]
    return page


def settled(page: Page) -> None:
    """The odds have answered: rows drawn, a quiet 'fill in', or an error shown."""
    page.wait_for_function(
        """() => document.querySelector('#odds .outcome')
          || getComputedStyle(document.querySelector('#odds-wait')).display !== 'none'
          || [...document.querySelectorAll('.field-error')].some((e) => e.textContent.trim())"""
    )


def set_field(page: Page, name: str, value: str) -> None:
    control = page.locator(f"form#inputs [name='{name}']")
    if control.evaluate("e => e.tagName") == "SELECT":
        control.select_option(value)
    else:
        control.fill(value)
        control.press("Tab")


def row(page: Page, code: str):
    return page.locator(f'#odds .outcome[data-outcome="{code}"]')


def odds_of(inputs: dict[str, str]) -> dict[str, str]:
    args = [x for name, value in inputs.items() for x in (f"--{name.replace('_', '-')}", value)]
    found = cli_json("odds", "ept", "fire", *args)
    assert isinstance(found, dict)
    return found["distribution"]


# --- outcomes and a field waited for (every procedure's page, opened, checked for overflows
# and by axe-core: test_procedure_page_walks.py) ----------------------------------------------


def test_outcomes_show_their_full_name_and_meaning(context):
    page = open_page(context, "/rulesets/vv/close_assault")
    settled(page)
    codes = page.locator("#odds .outcome").evaluate_all(
        "rows => rows.map((r) => [r.dataset.outcome, r.querySelector('.code').innerText])"
    )
    assert codes
    assert all(outcome_label(code) == shown for code, shown in codes), codes  # whole, in words
    assert len({shown for _, shown in codes}) == len(codes)
    page = open_page(context, "/rulesets/ept/at_shot")
    settled(page)
    meaning = row(page, "immobilized").locator(".meaning")
    expect(meaning).not_to_be_empty()
    box = row(page, "immobilized").locator(".code").bounding_box()
    assert box
    assert box["width"] > 0


def test_a_filled_in_field_gives_the_odds(context):
    page = open_page(context, "/rulesets/vv/at_attack")
    settled(page)
    expect(page.locator("#odds-wait")).to_contain_text("front armour")
    set_field(page, "front_armour", "C")
    expect(page.locator("#odds .outcome")).not_to_have_count(0)
    expect(page.locator("#odds-wait")).to_be_hidden()


# --- situation and readings apart ------------------------------------------------------------


def test_readings_are_folded_apart_with_their_defaults(context):
    page = open_page(context, FIRE)
    readings = page.locator("details#readings")
    expect(readings).to_have_count(1)
    assert readings.get_attribute("open") is None  # folded
    for name in ("factor_rounding", "hindrance_blocking", "test_digit"):
        expect(readings.locator(f"[name='{name}']")).to_have_count(1)
        expect(page.locator(f"form#inputs > .field [name='{name}']")).to_have_count(0)
    expect(readings.locator(".field[data-field='factor_rounding'] .default")).to_have_text(
        "Default: down."
    )
    expect(page.locator("form#inputs > .field [name='strength']")).to_have_count(1)


def test_choices_read_as_words_and_checkboxes_carry_no_true_or_false(context):
    page = open_page(context, FIRE)
    movement = page.locator("select[name='target_movement'] option[value='force_march']")
    expect(movement).to_have_text("force march")
    expect(page.locator("select[name='hindrance_blocking'] option[value='above_3']")).to_have_text(
        "above 3"
    )
    expect(page.locator("form#inputs")).not_to_contain_text("true or false")


def test_modifiers_show_a_factor_as_x2_and_a_dice_modifier_as_plus_2(context):
    page = open_page(context, "/rulesets/ept/fire?strength=6&range=adjacent&protection=medium")
    settled(page)
    cli = cli_json(
        "modifiers",
        "ept",
        "fire",
        "--strength",
        "6",
        "--range",
        "adjacent",
        "--protection",
        "medium",
    )
    values = page.locator("#modifiers td.value").all_inner_texts()
    expected = [
        f"x{m['value']}" if m["kind"] == "factor" else f"{int(m['value']):+d}"
        for m in cli["modifiers"]  # type: ignore[index]
    ]
    assert values == expected == ["x2", "+2"], values


# --- share a situation ------------------------------------------------------------------------


def test_the_address_follows_the_form_and_opening_it_restores_the_situation(context):
    page = open_page(context, FIRE)
    settled(page)
    for name, value in ATTACK.items():
        set_field(page, name, value)
    expected = odds_of(ATTACK)
    expect(row(page, "1").locator(".fraction")).to_have_text(expected["1"])
    page.wait_for_function("() => location.search.includes('protection=medium')")
    address = page.url
    path = urlsplit(address).path + "?" + urlsplit(address).query
    assert {k: v[0] for k, v in parse_qs(urlsplit(address).query).items()} == ATTACK
    assert len(path) <= 80, path  # short enough to paste in a chat
    again = open_page(context, path)
    settled(again)
    for name, value in ATTACK.items():
        expect(again.locator(f"[name='{name}']")).to_have_value(value)
    for code, fraction in expected.items():
        expect(row(again, code).locator(".fraction")).to_have_text(fraction)


# --- history ---------------------------------------------------------------------------------


def test_history_lists_the_rolls_exports_them_and_weighs_the_luck(context):
    page = open_page(context, "/rulesets/ept/fire?strength=6&range=adjacent&protection=medium")
    settled(page)
    page.locator("#seed").fill("42")
    page.locator("#roll").click()
    expect(page.locator("#trace li")).not_to_have_count(0)
    page.locator("#dice").fill("3,4")
    page.locator("#use-dice").click()
    expect(page.locator("#outcome")).to_have_text(
        cli_json("resolve", "ept", "fire", *ATTACK_ARGS, "--roll", "3,4")["outcome"]  # type: ignore[index]
    )
    seeded = cli_json("resolve", "ept", "fire", *ATTACK_ARGS, "--seed", "42")
    table = cli_json("resolve", "ept", "fire", *ATTACK_ARGS, "--roll", "3,4")
    history = open_page(context, "/history")
    rolls = history.locator("#rolls tr.roll")
    expect(rolls).to_have_count(2)
    expect(rolls.nth(0).locator(".outcome")).to_have_text(table["outcome"])  # newest first
    expect(rolls.nth(0).locator(".dice")).to_have_text("3+4")
    expect(rolls.nth(1).locator(".outcome")).to_have_text(seeded["outcome"])
    # luck: outcomes obtained against expected, the expected from the CLI's exact odds
    odds = odds_of(ATTACK)
    for code, fraction in odds.items():
        tally = history.locator(f".luck-outcome[data-outcome='{code}']")
        obtained = [seeded["outcome"], table["outcome"]].count(code)
        expect(tally.locator(".obtained")).to_have_text(str(obtained))
        expect(tally.locator(".expected")).to_have_text(f"{float(2 * Fraction(fraction)):.2f}")
    # the replay link rolls the same again (a replay is not a new roll: not listed again)
    replay = rolls.nth(1).locator("a.replay").get_attribute("href")
    again = open_page(context, replay)
    expect(again.locator("#outcome")).to_have_text(seeded["outcome"])
    again.wait_for_timeout(300)
    # exports
    with history.expect_download() as done:
        history.locator("#export-csv").click()
    lines = list(csv.DictReader(io.StringIO(Path(done.value.path()).read_text())))
    assert [r["outcome"] for r in lines] == [seeded["outcome"], table["outcome"]]
    assert lines[1]["dice"] == "3+4"
    assert lines[1]["replay"].startswith("http")
    with history.expect_download() as done:
        history.locator("#export-json").click()
    kept = json.loads(Path(done.value.path()).read_text())
    assert [r["outcome"] for r in kept] == [seeded["outcome"], table["outcome"]]
    assert kept[0]["odds"] == odds
    # kept in the browser: a new page of the same browser still lists them
    expect(open_page(context, "/history").locator("#rolls tr.roll")).to_have_count(2)


# --- compare and cumulative ------------------------------------------------------------------


def test_a_pinned_attack_is_compared_outcome_by_outcome(context):
    page = open_page(context, "/rulesets/ept/fire?strength=6&range=adjacent&protection=medium")
    settled(page)
    before = odds_of(ATTACK)
    expect(row(page, "1").locator(".fraction")).to_have_text(before["1"])
    page.locator("#pin").click()
    set_field(page, "protection", "none")
    after = odds_of({**ATTACK, "protection": "none"})
    expect(row(page, "1").locator(".fraction")).to_have_text(after["1"])
    for code in set(before) | set(after):
        change = Fraction(after.get(code, "0")) - Fraction(before.get(code, "0"))
        text = str(change) if change <= 0 else f"+{change}"
        expect(row(page, code).locator(".pinned-fraction")).to_have_text(before.get(code, "0"))
        expect(row(page, code).locator(".difference")).to_have_text(text)
    page.locator("#unpin").click()
    expect(page.locator("#odds .comparison:visible")).to_have_count(0)


def test_the_cumulative_view_shows_at_least_and_at_most(context):
    page = open_page(context, "/rulesets/ept/fire?strength=6&range=adjacent&protection=medium")
    settled(page)
    odds = odds_of(ATTACK)
    order = page.locator("#odds .outcome").evaluate_all(
        "rows => rows.map((r) => r.dataset.outcome)"
    )
    values = [Fraction(odds[c]) for c in order]
    page.locator("input[name='odds-view'][value='at_least']").check()
    for i, code in enumerate(order):
        expect(row(page, code).locator(".fraction")).to_have_text(str(sum(values[i:], Fraction(0))))
    page.locator("input[name='odds-view'][value='at_most']").check()
    for i, code in enumerate(order):
        expect(row(page, code).locator(".fraction")).to_have_text(
            str(sum(values[: i + 1], Fraction(0)))
        )
    expect(row(page, order[-1]).locator(".fraction")).to_have_text("1")
