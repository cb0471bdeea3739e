"""Take the README's picture of the web calculator: ``python tests/e2e/screenshot.py``.

Serves the app on loopback exactly as the browser tests do, opens the EPT fire page in
Debian's Chromium, sets strength 6 against an adjacent hex in medium protection, rolls with
seed 42 and saves the page to ``docs/images/web_calculator.png`` (``--out`` to change).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from playwright.sync_api import expect  # noqa: E402

from tests.e2e.conftest import launch_browser, start_server  # noqa: E402

DEFAULT_OUT = ROOT / "docs" / "images" / "web_calculator.png"
# Tall enough for the odds, the modifiers and the roll with its trace beside the form.
VIEWPORT = {"width": 1280, "height": 1150}
ATTACK = {"strength": "6", "range": "adjacent", "protection": "medium"}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="the PNG to write")
    args = parser.parse_args(argv)
    with start_server() as url, launch_browser() as browser:
        page = browser.new_page(viewport=VIEWPORT)
        page.goto(f"{url}/rulesets/ept/fire")
        form = page.locator("form#inputs")
        form.locator("input[name='strength']").fill(ATTACK["strength"])
        form.locator("input[name='strength']").press("Tab")
        form.locator("select[name='range']").select_option(ATTACK["range"])
        form.locator("select[name='protection']").select_option(ATTACK["protection"])
        expect(page.locator('#odds .outcome[data-outcome="1"] .fraction')).to_have_text("1/12")
        page.locator("#seed").fill("42")
        page.locator("#roll").click()
        expect(page.locator("#trace li")).not_to_have_count(0)
        args.out.parent.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(args.out))
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
