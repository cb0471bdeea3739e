"""The V&V scenario page's safest paths in Chromium: click a stack, "Safest paths", then a
destination: the best paths drawn on the board with their exact odds, as ``move --to``
computes them."""

from __future__ import annotations

from fractions import Fraction

import pytest
from playwright.sync_api import Page, expect

from firefight.i18n import gettext as _
from firefight.i18n import using
from tests.e2e.conftest import cli_json
from tests.i18n.advice_words import pending_french  # noqa: F401 - a fixture


def _percent(fraction: str) -> str:
    return f"{float(Fraction(fraction)) * 100:.2f} %"


def test_a_stack_then_a_destination_draws_the_best_paths_with_their_odds(page: Page, shot):
    found = cli_json("move", "village", "--stack", "0206", "--to", "0406")
    assert isinstance(found, dict)
    page.goto("/rulesets/vv/scenario")
    board = page.locator("#scenario-board")
    page.select_option("#side", "us")
    page.locator('g.counter[data-stack="0206"]').click()
    expect(page.locator("#move-hint")).to_contain_text("Stack 0206 selected")
    page.click("#safest-paths")
    expect(page.locator("#paths-hint")).to_contain_text("0206")
    page.locator('polygon.hex[data-hex="0406"]').click(force=True)
    rows = page.locator("#best-paths tbody tr")
    expect(rows).to_have_count(len(found["paths"]))
    lines = board.locator("polyline.best-path")
    expect(lines).to_have_count(len(found["paths"]))
    for entry in found["paths"]:
        rank = entry["rank"]
        expect(board.locator(f'polyline.best-path[data-rank="{rank}"]')).to_have_attribute(
            "data-path", ",".join(entry["path"])
        )
        row = page.locator(f'#best-paths tr[data-rank="{rank}"]')
        expect(row).to_contain_text(_percent(entry["unpinned"]["fraction"]))
        expect(row).to_contain_text(" ".join(entry["path"]))
    # what makes the best worse is said with the firers' names, not their ids
    expect(page.locator('#best-paths tr[data-rank="1"]')).to_contain_text("Fw. Brandt")
    shot("safest-paths")
    # the best path's odds hex by hex, as a path clicked
    page.click('#best-paths button[data-use="1"]')
    expect(page.locator("#path-odds tbody tr")).to_have_count(len(found["paths"][0]["path"]))
    expect(page.locator("#path-line")).to_have_attribute(
        "data-path", ",".join(found["paths"][0]["path"])
    )


@pytest.mark.usefixtures("pending_french")
@pytest.mark.parametrize("policy", ["threshold", "optimal"])
def test_the_safest_paths_in_french(page: Page, shot, policy):
    page.goto("/rulesets/vv/scenario?lang=fr")
    page.select_option("#side", "us")
    page.select_option("#policy", policy)
    said = page.locator(f'#policy option[value="{policy}"]').text_content()
    page.locator('g.counter[data-stack="0206"]').click()
    page.click("#safest-paths")
    page.locator('polygon.hex[data-hex="0406"]').click(force=True)
    heading = page.locator("#scenario-result h2").first
    with using("fr"):
        expected = _("Safest paths: stack {stack} → {hex} ({policy}, exact)").format(
            stack="0206", hex="0406", policy=said
        )
        header = [_(w) for w in ("path", "all unpinned", "first pin or worse")]
    expect(heading).to_have_text(expected)
    for word in header:
        expect(page.locator("#best-paths thead")).to_contain_text(word)
    expect(page.locator("#best-paths")).not_to_contain_text("first pin")
    shot(f"safest-paths-fr-{policy}")
