"""Every procedure's page (and, for axe-core, the other pages a player opens first), walked once
a viewport, each page loaded once and given every check made on it there:

* at 1280 px, it opens with odds or a quiet "fill in" and no error shown;
* at both widths, axe-core finds no serious or critical violation on it (on the page as it
  opens: at 390 px on the pages of :data:`PHONE_AXE_PAGES` only);
* at both widths, no text runs over its box and the page does not scroll sideways, once the
  field it waits for, if any, is filled in so that the odds are drawn too.

Each check is its own test, reading what the walk found (a module's fixture: ``--dist
loadfile`` runs a file's tests in one worker, so each viewport's walk is made once, where
three walks at 1280 px loaded the same pages three times) and failing with the pages the check
found wrong. The 390 px walk's tests are in ``test_procedure_page_walks_phone.py``, a file of
their own, so that the two walks may run on two workers.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.test_page_features import (
    AXE,
    DESKTOP,
    FIRE,
    OVERFLOWS,
    PHONE,
    PROCEDURES,
    axe_violations,
    settled,
)

AXE_PAGES = [
    "/",
    "/history",
    "/engage",
    "/boards/vv_village",
    "/boards/normandy_bocage",
    "/rulesets/ept/tables/combat",
    *PROCEDURES,
]
"""The pages axe-core checks at 1280 px."""

PHONE_AXE_PAGES = [
    "/",
    "/history",
    "/engage",
    "/boards/vv_village",
    "/rulesets/ept/tables/combat",
    FIRE,
    "/rulesets/vv/at_attack",
]
"""The pages axe-core checks at 390 px."""

VIEWPORTS = {"1280px": (DESKTOP, AXE_PAGES, True), "390px": (PHONE, PHONE_AXE_PAGES, False)}
"""By the tests' id: the viewport, the pages axe-core checks, whether the pages' opening
state (odds or a quiet fill-in) is checked there."""


@dataclass
class Walk:
    """What one viewport's walk found: what each check found wrong, by page (a page with
    nothing wrong is not listed), and the pages that opened quietly waiting for a field."""

    opens: dict[str, list[str]] = field(default_factory=dict)
    quiet: list[str] = field(default_factory=list)
    axe: dict[str, list[str]] = field(default_factory=dict)
    overflows: dict[str, list[str]] = field(default_factory=dict)


def opening_problems(page: Page) -> list[str]:
    """A procedure's page as it opens: no error shown, and odds drawn or else a quiet "fill
    in" waiting for one field."""
    errors = [t for t in page.locator(".field-error").all_inner_texts() if t.strip()]
    if errors:
        return [f"errors shown: {errors}"]
    if page.locator("#odds .outcome").count():
        return []
    wait = page.locator("#odds-wait")
    try:
        expect(wait).to_be_visible()
        expect(wait).to_contain_text("Fill in")
        expect(page.locator(".field.wanted")).to_have_count(1)
    except AssertionError as error:
        return [f"no odds, and not a quiet fill-in: {str(error).splitlines()[0]}"]
    return []


WATCH_ANSWER = """(control) => {
  window.__walkAnswered = false;
  new MutationObserver((records, observer) => {
    window.__walkAnswered = true;
    observer.disconnect();
  }).observe(control.closest(".field"), {attributes: true, attributeFilter: ["class"]});
}"""
"""Watches the waited-for field's box for the page's answer to a value given it: the page
takes the ``wanted`` mark off every field when the odds answer (app.js, ``updateOdds``), and
nothing else changes the box's classes."""

ANSWERED = """() => window.__walkAnswered && (
  document.querySelector("#odds .outcome")
  || document.querySelector(".field.wanted")
  || [...document.querySelectorAll(".field-error")].some((e) => e.textContent.trim()))"""
"""The answer is in and shown: odds drawn, another field waited for, or an error."""


def fill_in_what_is_waited_for(page: Page) -> None:
    """A page waiting for a field (``.field.wanted``): give it its lowest value or first
    choice until the odds are drawn, so that the outcomes are checked too; each value given,
    the page's answer to it is waited for (:data:`WATCH_ANSWER`)."""
    for _ in range(4):
        wanted = page.locator(".field.wanted [name]")
        if page.locator("#odds .outcome").count() or not wanted.count():
            return
        control = wanted.first
        if control.evaluate("e => e.tagName") == "SELECT":
            control.evaluate(WATCH_ANSWER)
            control.select_option(index=1)
        elif control.get_attribute("type") == "number":
            control.evaluate(WATCH_ANSWER)
            control.fill(control.get_attribute("min") or "1")
        else:
            return  # a text field (Up Front's cards): the quiet state is what is checked
        page.wait_for_function(ANSWERED, polling=20)


def serious_violations(page: Page) -> list[str]:
    return [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:3]}"
        for v in axe_violations(page)
        if v["impact"] in ("serious", "critical")
    ]


def overflow_problems(page: Page) -> list[str]:
    """The overflows once what the page waits for is filled in (and none drawn: said so)."""
    fill_in_what_is_waited_for(page)
    bad: list[str] = page.evaluate(OVERFLOWS)
    waits_for_text = page.locator(".field.wanted input[type='text']").count()
    if not page.locator("#odds .outcome").count() and not waits_for_text:
        bad.append("no odds drawn to check")
    return bad


def walk(browser: Browser, base_url: str, name: str) -> Walk:
    """Each page of the viewport ``name`` loaded once, its checks made in the order of the
    states they read (as it opens, then filled in)."""
    viewport, axe_pages, check_opening = VIEWPORTS[name]
    context = browser.new_context(base_url=base_url, viewport=viewport)
    if set(PROCEDURES) <= set(axe_pages):  # axe-core on every page: parsed with each load
        context.add_init_script(path=str(AXE))
    page = context.new_page()
    found = Walk()
    urls = [u for u in axe_pages if u not in PROCEDURES] + PROCEDURES
    try:
        for url in urls:
            procedure = url in PROCEDURES
            step = "opening"
            try:
                page.goto(url)
                if procedure:
                    settled(page)
                if procedure and check_opening:
                    step = "the opening check"
                    if bad := opening_problems(page):
                        found.opens[url] = bad
                    elif not page.locator("#odds .outcome").count():
                        found.quiet.append(url)
                if url in axe_pages:
                    step = "axe-core"
                    if bad := serious_violations(page):
                        found.axe[url] = bad
                if procedure:
                    step = "the overflow check"
                    if bad := overflow_problems(page):
                        found.overflows[url] = bad
            except Exception as error:
                raise RuntimeError(f"the {name} walk stopped on {url}, at {step}") from error
    finally:
        context.close()
    return found


@pytest.fixture(scope="module")
def walked(browser: Browser, base_url: str) -> Callable[[str], Walk]:
    """``walked("1280px")``: that viewport's walk, made on the first test that asks for it (a
    walk that failed fails each test that asks for it again, without walking again)."""
    done: dict[str, Walk | Exception] = {}

    def get(name: str) -> Walk:
        if name not in done:
            try:
                done[name] = walk(browser, base_url, name)
            except Exception as error:
                done[name] = error
        result = done[name]
        if isinstance(result, Exception):
            raise result
        return result

    return get


def report(found: dict[str, list[str]]) -> str:
    return "\n".join(f"{url}: {bad}" for url, bad in found.items())


def test_every_procedure_page_opens_with_odds_or_a_quiet_fill_in(walked):
    found = walked("1280px")
    assert not found.opens, f"procedures' pages opened wrong at 1280px:\n{report(found.opens)}"
    # A page with a field its rule needs: waited for, without an error.
    assert "/rulesets/vv/at_attack" in found.quiet, found.quiet


def test_axe_finds_no_serious_or_critical_violation_on_any_page(walked):
    found = walked("1280px").axe
    assert not found, f"axe-core's serious or critical violations at 1280px:\n{report(found)}"


def test_no_text_overflows_its_box_on_any_procedure_page(walked):
    found = walked("1280px").overflows
    assert not found, f"text over its box, or sideways scrolling, at 1280px:\n{report(found)}"
