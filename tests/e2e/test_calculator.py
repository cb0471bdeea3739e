"""End-to-end tests of the web calculator in headless Debian Chromium.

Every expected value comes from the CLI (``firefight ... --json``) in the same run, never from
a hard-coded guess: the pages must show what the CLI says. Screenshots of each step go to the
artifacts folder (see ``conftest.py``).
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from urllib.parse import parse_qs, urlsplit

from playwright.sync_api import Locator, Page, expect

from tests.e2e.conftest import cli_error, cli_json

FIRE = "/rulesets/ept/fire"
ATTACK = {"strength": "6", "range": "adjacent", "protection": "medium"}
BOARD = "vv_village"
LOOKER, TARGET = "0806", "1203"


def cli_args(inputs: dict[str, str]) -> list[str]:
    args: list[str] = []
    for name, value in inputs.items():
        args += [f"--{name.replace('_', '-')}", value]
    return args


def odds_of(inputs: dict[str, str]) -> dict[str, str]:
    found = cli_json("odds", "ept", "fire", *cli_args(inputs))
    assert isinstance(found, dict)
    return found["distribution"]


def resolve_of(inputs: dict[str, str], *how: str) -> dict:
    found = cli_json("resolve", "ept", "fire", *cli_args(inputs), *how)
    assert isinstance(found, dict)
    return found


def set_field(page: Page, name: str, value: str) -> None:
    """Set one control of ``form#inputs`` as a player would (then leave it)."""
    control = page.locator(f"form#inputs [name='{name}']")
    tag = control.evaluate("element => element.tagName.toLowerCase()")
    if tag == "select":
        control.select_option(value)
    else:
        control.fill(value)
        control.press("Tab")


def row(page: Page, code: str) -> Locator:
    return page.locator(f'#odds .outcome[data-outcome="{code}"]')


def expect_odds(page: Page, distribution: dict[str, str]) -> None:
    for code, fraction in distribution.items():
        expect(row(page, code).locator(".fraction")).to_have_text(fraction)


def bar_width(page: Page, code: str) -> float:
    box = row(page, code).locator(".bar").bounding_box()
    assert box is not None, f"the bar of {code!r} is not drawn"
    return box["width"]


def trace_texts(page: Page) -> list[str]:
    return [text.strip() for text in page.locator("#trace li").all_inner_texts()]


def expect_resolution(page: Page, resolution: dict) -> None:
    """``#outcome`` and ``#trace`` show the CLI's resolution: one ``li`` per trace event."""
    expect(page.locator("#outcome")).to_contain_text(resolution["outcome"])
    events = resolution["trace"]
    expect(page.locator("#trace li")).to_have_count(len(events))
    for text, event in zip(trace_texts(page), events, strict=True):
        assert event["label"] in text, (event, text)
        if "dice" in event:
            shown = " + ".join(str(die) for die in event["dice"])
        else:
            shown = str(event["value"])
        assert shown in text, (event, text)


def query(url: str) -> dict[str, list[str]]:
    return parse_qs(urlsplit(url).query)


def test_index_lists_every_procedure_and_board(page: Page, shot):
    page.goto("/")
    shot("index")
    hrefs = {
        urlsplit(href).path
        for href in page.locator("a.procedure-link").evaluate_all(
            "links => links.map(link => link.getAttribute('href'))"
        )
    }
    rulesets = cli_json("rulesets")
    assert isinstance(rulesets, list)
    expected = {f"/rulesets/{rs['id']}/{p}" for rs in rulesets for p in rs["procedures"]}
    assert expected <= hrefs, sorted(expected - hrefs)
    boards = cli_json("board", "list")
    assert isinstance(boards, list)
    for board in boards:
        expect(page.locator(f"a.board-link[href$='/boards/{board['name']}']")).to_have_count(1)

    page.locator(f"a.featured-link[href$='{FIRE}']").click()
    expect(page).to_have_url(re.compile(re.escape(FIRE) + r"(\?.*)?$"))
    expect(page.locator("form#inputs")).to_be_visible()
    shot("procedure")


class _Ids(HTMLParser):
    """The tag of each element with an ``id`` in a page's HTML, by id (each id once)."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: dict[str, list[str]] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs).get("id")
        if found:
            self.tags.setdefault(found, []).append(tag)


def test_every_procedure_has_a_working_page(page: Page):
    """Every procedure's page is served with its form, its odds and its roll, each once (read
    from the HTML sent: the pages as the browser draws them, their odds and errors, are
    test_procedure_page_walks')."""
    rulesets = cli_json("rulesets")
    assert isinstance(rulesets, list)
    for ruleset in rulesets:
        for procedure in ruleset["procedures"]:
            response = page.request.get(f"/rulesets/{ruleset['id']}/{procedure}")
            assert response.status == 200, (ruleset["id"], procedure, response.status)
            ids = _Ids()
            ids.feed(response.text())
            assert ids.tags.get("inputs") == ["form"], (ruleset["id"], procedure)
            assert len(ids.tags.get("odds", [])) == 1, (ruleset["id"], procedure)
            assert len(ids.tags.get("roll", [])) == 1, (ruleset["id"], procedure)


def test_form_is_generated_from_the_input_model(page: Page, shot):
    page.goto(FIRE)
    form = page.locator("form#inputs")
    strength = form.locator("input[name='strength']")
    expect(strength).to_have_attribute("type", "number")
    expect(strength).to_have_attribute("min", "1")
    expect(form.locator("select[name='range']")).to_have_count(1)
    expect(form.locator("select[name='protection']")).to_have_count(1)
    expect(form.locator("input[type='checkbox'][name='target_hidden']")).to_have_count(1)
    expect(form.locator("label")).not_to_have_count(0)
    for field in ("strength", "range", "protection", "target_hidden"):
        expect(page.locator(f".field-error[data-field='{field}']")).to_have_count(1)
    expect(page.locator("#modifiers")).to_have_count(1)
    expect(page.locator("#facts")).to_have_count(1)
    shot("form")


def test_odds_follow_the_inputs(page: Page, shot):
    page.goto(FIRE)
    for name, value in ATTACK.items():
        set_field(page, name, value)
    medium = odds_of(ATTACK)
    expect(row(page, "1").locator(".fraction")).to_have_text("1/12")
    expect_odds(page, medium)
    expect(row(page, "1").locator(".percent")).to_contain_text("8.33")
    # The bars are drawn to scale: "-" (5/18) against "1" (1/12) is 10/3.
    ratio = bar_width(page, "-") / bar_width(page, "1")
    assert abs(ratio - 10 / 3) < 0.35, ratio
    expect(page.locator("#modifiers")).to_contain_text("medium protection")
    expect(page.locator("#modifiers")).to_contain_text("MODIFICATEURS DE TIR")
    shot("medium-protection")

    in_the_open = {**ATTACK, "protection": "none"}
    changed = odds_of(in_the_open)
    assert changed != medium
    set_field(page, "protection", "none")
    expect_odds(page, changed)
    expect(page.locator("#modifiers")).not_to_contain_text("medium protection")
    shot("no-protection")


def test_bad_value_shows_the_one_line_error(page: Page, shot):
    page.goto(FIRE)
    for name, value in ATTACK.items():
        set_field(page, name, value)
    expect(row(page, "1").locator(".fraction")).to_have_text("1/12")

    message = cli_error("odds", "ept", "fire", *cli_args({**ATTACK, "strength": "0"}))
    set_field(page, "strength", "0")
    error = page.locator(".field-error[data-field='strength']")
    # The CLI quotes the text it was given ("got '0'"); the page may send the number. The CLI
    # names its option ('--strength'), the page the JSON field ('strength').
    expect(error).to_contain_text(message.split(" (got")[0].replace("'--strength'", "'strength'"))
    assert "\n" not in error.inner_text().strip()
    shot("bad-strength")

    set_field(page, "strength", "6")
    expect(error).to_have_text(re.compile(r"^\s*$"))
    expect(row(page, "1").locator(".fraction")).to_have_text("1/12")
    shot("fixed-strength")


def test_seeded_roll_replays_and_cites_the_chart(page: Page, shot):
    page.goto(FIRE)
    for name, value in ATTACK.items():
        set_field(page, name, value)
    expected = resolve_of(ATTACK, "--seed", "42")
    assert expected["trace"][0]["dice"] == [1, 5], expected["trace"][0]

    page.locator("#seed").fill("42")
    page.locator("#roll").click()
    expect_resolution(page, expected)
    assert "1 + 5" in trace_texts(page)[0]
    shot("roll-seed-42")

    replay = page.locator("a#replay-link")
    href = replay.get_attribute("href")
    assert href is not None
    assert query(href).get("seed") == ["42"], href
    chart_href = page.locator("a#chart-link").get_attribute("href")

    replay.click()
    expect(page.locator("input[name='strength']")).to_have_value("6")
    expect(page.locator("select[name='range']")).to_have_value("adjacent")
    expect(page.locator("select[name='protection']")).to_have_value("medium")
    expect(page.locator("#seed")).to_have_value("42")
    expect_resolution(page, expected)  # the replay link rolls again on load
    shot("replayed")

    assert chart_href is not None, "no a#chart-link on the fire page"
    page.goto(chart_href)
    used = page.locator(".cell-used")
    expect(used).not_to_have_count(0)
    expect(used.first).to_contain_text(expected["outcome"])
    shot("chart-cell-used")


def test_dice_rolled_at_the_table(page: Page, shot):
    page.goto(FIRE)
    for name, value in ATTACK.items():
        set_field(page, name, value)
    expected = resolve_of(ATTACK, "--roll", "3,4")
    page.locator("#dice").fill("3,4")
    page.locator("#use-dice").click()
    expect_resolution(page, expected)
    assert "3 + 4" in trace_texts(page)[0]
    shot("dice-3-4")


def test_blank_seed_rolls_a_shown_seed_and_a_new_one_each_time(page: Page, shot):
    page.goto(FIRE)
    for name, value in ATTACK.items():
        set_field(page, name, value)
    page.locator("#seed").fill("")
    page.locator("#roll").click()
    expect(page.locator("#trace li")).not_to_have_count(0)
    href = page.locator("a#replay-link").get_attribute("href")
    assert href is not None
    seeds = query(href).get("seed", [])
    assert len(seeds) == 1, href
    assert seeds[0].isdigit(), href
    expect(page.locator("#roll-how")).to_have_text(f"seed {seeds[0]}")
    expect_resolution(page, resolve_of(ATTACK, "--seed", seeds[0]))
    shot("random-seed")
    # The box stays blank: the next roll draws another seed, not the same dice again.
    expect(page.locator("#seed")).to_have_value("")
    page.locator("#roll").click()
    expect(page.locator("a#replay-link")).not_to_have_attribute("href", href)


def test_board_visibility_and_line_of_sight(page: Page, shot):
    page.goto(f"/boards/{BOARD}")
    shown = page.locator("svg [data-hex]")
    labels = set(shown.evaluate_all("hexes => hexes.map(hex => hex.getAttribute('data-hex'))"))
    board = cli_json("board", "show", BOARD)
    assert isinstance(board, dict)
    assert len(labels) == board["columns"] * board["rows"]
    shot("board")

    seen = cli_json("board", "visible", BOARD, LOOKER)
    assert isinstance(seen, dict)
    hidden = labels - set(seen["visible"])
    page.locator(f'[data-hex="{LOOKER}"]').first.click()
    not_visible = page.locator("svg .not-visible")
    expect(not_visible).not_to_have_count(0)
    shaded = set(
        not_visible.evaluate_all("hexes => hexes.map(hex => hex.getAttribute('data-hex'))")
    )
    assert shaded == hidden, (sorted(shaded - hidden), sorted(hidden - shaded))
    shot("visible-from-0806")

    verdict = cli_json("board", "los", BOARD, LOOKER, TARGET)
    assert isinstance(verdict, dict)
    page.locator(f'[data-hex="{TARGET}"]').first.click()
    los = page.locator("#los")
    expect(los).to_contain_text(verdict["status"])
    if verdict["blocked_by"]:
        expect(los).to_contain_text(verdict["blocked_by"])
    for hindrance in verdict["hindrances"]:
        expect(los).to_contain_text(hindrance["where"])
    shot("los-0806-1203")
