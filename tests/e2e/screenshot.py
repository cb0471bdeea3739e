"""Take the docs' pictures of the web pages: ``python tests/e2e/screenshot.py``.

Serves the app on loopback exactly as the browser tests do and opens Debian's Chromium at
1280 px and 390 px (a phone):

* the calculator: EPT fire, strength 6 against an adjacent hex in medium protection, rolled
  with seed 42, then the same attack pinned and compared with the target in the open;
* the board tool: the V&V village, a line of sight from 0301 to 0606 and its fire link;
* the history: three rolls, with the luck line;
* the V&V scenario page: stack 0206 moved to 0306 and 0406, its odds and where each unit ends;
* the deck editor: two Up Front cards typed from the keyboard, a third mistyped.

It writes ``docs/images/web_calculator.png`` (1280 px, the README's picture) and
``web_calculator_390.png``, ``web_board.png``, ``web_board_390.png``, ``web_history.png``,
``web_history_390.png``, ``board-1280.png``, ``board-390.png`` (the scenario page),
``deck-editor-1280.png`` and ``deck-editor-390.png`` (``--out`` for another folder;
``--only scenario`` or ``--only editor`` for one page's alone). ``--only engage`` writes
``engage-1280.png`` and ``engage-390.png`` (the hedgerow engagement's odds), ``--only table``
``table-1280.png`` and ``table-390.png`` (a game at the shared table, a roll declared and
answered, as side A sees it).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from playwright.sync_api import Browser, Page, expect  # noqa: E402

from tests.e2e.conftest import launch_browser, start_server  # noqa: E402

DEFAULT_OUT = ROOT / "docs" / "images"
WIDTHS = {"": {"width": 1280, "height": 1150}, "_390": {"width": 390, "height": 844}}
"""Each picture's suffix and viewport (the editor's pictures: ``-1280``, ``-390``)."""
ATTACK = "/rulesets/ept/fire?strength=6&range=adjacent&protection=medium"


def calculator(page: Page, out: Path) -> None:
    page.goto(ATTACK)
    expect(page.locator('#odds .outcome[data-outcome="1"] .fraction')).to_have_text("1/12")
    page.locator("#pin").click()
    page.locator("select[name='protection']").select_option("none")
    expect(page.locator("#odds .comparison").first).to_be_visible()
    page.locator("#seed").fill("42")
    page.locator("#roll").click()
    expect(page.locator("#trace li")).not_to_have_count(0)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(out))


def board(page: Page, out: Path) -> None:
    page.goto("/boards/vv_village")
    page.locator("[data-hex='0301']").click()
    expect(page.locator("#los")).to_contain_text("sees")
    page.locator("[data-hex='0606']").click()
    expect(page.locator("#fire-link")).to_be_visible()
    page.screenshot(path=str(out), full_page=True)


def history(page: Page, out: Path) -> None:
    page.goto(ATTACK)
    expect(page.locator('#odds .outcome[data-outcome="1"] .fraction')).to_have_text("1/12")
    for seed in ("42", "7", "1944"):
        page.locator("#seed").fill(seed)
        page.locator("#roll").click()
        expect(page.locator("#replay-link")).to_have_attribute("href", re.compile(f"seed={seed}$"))
    page.goto("/history")
    expect(page.locator("#rolls tr.roll")).to_have_count(3)
    page.screenshot(path=str(out), full_page=True)


def scenario(page: Page, out: Path) -> None:
    page.goto("/rulesets/vv/scenario")
    page.locator('g.counter[data-stack="0206"]').click()
    for label in ("0306", "0406"):
        page.locator(f'polygon.hex[data-hex="{label}"]').click(force=True)
    expect(page.locator("#end-states .end-bar")).to_have_count(3)
    expect(page.locator("#scenario-board g.shading polygon")).not_to_have_count(0)
    page.screenshot(path=str(out), full_page=True)


def deck_editor(page: Page, out: Path) -> None:
    from tests.e2e.test_deck_editor import two_cards  # noqa: PLC0415

    two_cards(page)
    page.locator("#f-rn").fill("8x")
    page.locator("#f-rn").dispatch_event("input")
    expect(page.locator("#draft-problems li")).not_to_have_count(0)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(out), full_page=True)


def shoot_widths(
    browser: Browser, url: str, folder: Path, name: str, take: Callable[[Page, Path], None]
) -> list[Path]:
    """``take`` at 1280 px and at 390 px, into ``NAME-1280.png`` and ``NAME-390.png``."""
    written = []
    for width in (1280, 390):
        context = browser.new_context(base_url=url, viewport={"width": width, "height": 900})
        path = folder / f"{name}-{width}.png"
        take(context.new_page(), path)
        context.close()
        written.append(path)
    return written


def shoot_scenario(browser: Browser, url: str, folder: Path) -> list[Path]:
    return shoot_widths(browser, url, folder, "board", scenario)


def shoot_editor(browser: Browser, url: str, folder: Path) -> list[Path]:
    written = []
    for suffix, viewport in WIDTHS.items():
        context = browser.new_context(base_url=url, viewport=viewport)
        path = folder / f"deck-editor{suffix.replace('_', '-') or '-1280'}.png"
        deck_editor(context.new_page(), path)
        context.close()
        written.append(path)
    return written


def engagement(page: Page, out: Path) -> None:
    """An engagement's odds, which the page answers on opening."""
    page.goto("/engage/ept_hedgerow")
    expect(page.locator("#engage-result svg.curve")).to_be_visible()
    page.screenshot(path=str(out), full_page=True)


def shoot_engage(browser: Browser, url: str, folder: Path) -> list[Path]:
    return shoot_widths(browser, url, folder, "engage", engagement)


def shared_table(browser: Browser, url: str, width: int) -> tuple[Page, Page]:
    """A game created at the shared table, A's declaration answered by B: both players'
    pages, each with the roll verified in its journal."""
    viewport = {"width": width, "height": 900}
    alice = browser.new_context(base_url=url, viewport=viewport).new_page()
    alice.goto("/table")
    alice.fill("#scenario", "Hill 112")
    alice.click("#create-game")
    expect(alice.locator("#links")).to_be_visible()
    link_a = alice.locator("#link-a").get_attribute("href") or ""
    link_b = alice.locator("#link-b").get_attribute("href") or ""
    bob = browser.new_context(base_url=url, viewport=viewport).new_page()
    alice.goto(link_a)
    bob.goto(link_b)
    alice.select_option("#ruleset", "ept")
    alice.select_option("#procedure", "fire")
    alice.fill("#input", '{"strength": 6, "range": "adjacent"}')
    alice.click("#declare")
    expect(bob.locator("#answer-box")).to_be_visible()
    bob.click("#answer")
    expect(alice.locator("#rolls li")).to_have_count(1)
    return alice, bob


def shoot_table(browser: Browser, url: str, folder: Path) -> list[Path]:
    import os  # noqa: PLC0415
    import tempfile  # noqa: PLC0415

    written = []
    with tempfile.TemporaryDirectory() as scratch:
        before = os.environ.get("FIREFIGHT_DB")
        os.environ["FIREFIGHT_DB"] = str(Path(scratch) / "table.sqlite3")
        try:
            for width in (1280, 390):
                alice, _bob = shared_table(browser, url, width)
                path = folder / f"table-{width}.png"
                alice.screenshot(path=str(path), full_page=True)
                alice.context.close()
                _bob.context.close()
                written.append(path)
        finally:
            if before is None:
                os.environ.pop("FIREFIGHT_DB", None)
            else:
                os.environ["FIREFIGHT_DB"] = before
    return written


def shoot(browser: Browser, url: str, folder: Path) -> list[Path]:
    written = shoot_scenario(browser, url, folder) + shoot_editor(browser, url, folder)
    for suffix, viewport in WIDTHS.items():
        for name, take in (("calculator", calculator), ("board", board), ("history", history)):
            context = browser.new_context(base_url=url, viewport=viewport)
            page = context.new_page()
            path = folder / f"web_{name}{suffix}.png"
            take(page, path)
            context.close()
            written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="the folder to write to")
    parser.add_argument(
        "--only", choices=["scenario", "editor", "engage", "table"], help="only one page's pictures"
    )
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    take = {"scenario": shoot_scenario, "editor": shoot_editor}.get(args.only, shoot)
    take = {"engage": shoot_engage, "table": shoot_table}.get(args.only, take)
    with start_server() as url, launch_browser() as browser:
        for path in take(browser, url, args.out):
            print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
