"""The shared table in two browser contexts: one player creates the game, each
opens his own link; the seeds are drawn in the browsers, A declares, B reveals and the roll
shows on both pages; a wrong token reads nothing."""

from __future__ import annotations

from playwright.sync_api import Browser, Page, expect

from firefight.journal import Journal
from firefight.pbem import play
from tests.e2e.conftest import VIEWPORT
from tests.e2e.test_page_features import axe_violations


def _serious_violations(page: Page) -> list[str]:
    found = axe_violations(page)
    return [v["id"] for v in found if v["impact"] in {"serious", "critical"}]


def _player(browser: Browser, base_url: str) -> Page:
    context = browser.new_context(base_url=base_url, viewport=VIEWPORT)
    context.set_default_timeout(15_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors  # type: ignore[attr-defined]
    return page


def test_two_players_play_a_short_game_at_the_shared_table(
    browser, base_url, tmp_path, monkeypatch, artifacts
):
    db = tmp_path / "server.sqlite3"
    monkeypatch.setenv("FIREFIGHT_DB", str(db))
    alice = _player(browser, base_url)
    alice.goto("/table")
    alice.fill("#scenario", "Hill 112")
    alice.click("#create-game")
    expect(alice.locator("#links")).to_be_visible()
    expect(alice.locator("#links button.copy")).to_have_count(2)
    assert _serious_violations(alice) == []
    link_a = alice.locator("#link-a").get_attribute("href") or ""
    link_b = alice.locator("#link-b").get_attribute("href") or ""
    assert link_a != link_b
    assert len(link_a.split("#", 1)[1]) >= 43  # 256 bits in base64url

    bob = _player(browser, base_url)
    alice.goto(link_a)
    bob.goto(link_b)
    expect(alice.locator("#my-side")).to_have_text("A")
    expect(bob.locator("#my-side")).to_have_text("B")
    expect(alice.locator("#declare-box")).to_be_visible()
    expect(bob.locator("#declare-box")).to_be_visible()

    alice.select_option("#ruleset", "ept")
    alice.select_option("#procedure", "fire")
    alice.fill("#input", '{"strength": 6, "range": "adjacent"}')
    alice.click("#declare")
    expect(bob.locator("#answer-box")).to_be_visible()
    declared = bob.locator("#declared")
    expect(declared).to_contain_text("resolution 1: En Pointe Toujours ! (EPT II) — fire; ")
    expect(declared).to_contain_text("range adjacent, strength 6")
    expect(declared).not_to_contain_text("_")  # words, not the inputs' ids
    expect(bob.locator("#status")).to_contain_text("alice (side A) declared resolution 1")
    expect(alice.locator("#status")).to_have_text(
        "Waiting for bob (side B) to reveal their element for resolution 1."
    )
    bob.click("#answer")
    expect(bob.locator("#rolls li")).to_have_count(1)
    expect(alice.locator("#rolls li")).to_have_count(1)  # the new roll reaches A by polling
    roll = alice.locator("#rolls li").inner_text()
    assert roll == bob.locator("#rolls li").inner_text()
    assert roll.startswith(
        "Resolution 1, declared by alice (side A): En Pointe Toujours ! (EPT II) — fire; dice "
    ), roll
    assert roll.endswith("✓ both elements follow their players' commitments"), roll
    journal = alice.locator("#journal").inner_text()
    assert "pbem-" not in journal  # the steps in words, not their kinds' ids
    assert "bob (side B) commits to a secret chain of dice elements" in journal
    assert _serious_violations(alice) == []
    alice.screenshot(path=str(artifacts / "table-alice.png"), full_page=True)
    bob.screenshot(path=str(artifacts / "table-bob.png"), full_page=True)

    alice.click("#end")
    expect(bob.locator("#seed-box")).to_be_visible()
    bob.click("#end")
    expect(alice.locator("#status")).to_contain_text("The game is over: both seeds are revealed")

    name = link_a.split("/")[-1].split("#")[0]
    with Journal.open(str(db), name) as journal:
        verdict = play.verify_entries(
            name, list(journal.entries()), [str(p) for p in journal.verify().problems]
        )
    assert verdict.ok, verdict.problems
    assert verdict.game is not None
    assert verdict.game.resolved == 1

    stranger = _player(browser, base_url)
    stranger.goto(link_a.split("#")[0] + "#" + "x" * 43)
    expect(stranger.locator("#error")).to_have_text("the token is not one of this game's")
    expect(stranger.locator("#journal tbody tr")).to_have_count(0)
    for page in (alice, bob, stranger):
        assert not page.errors, page.errors  # type: ignore[attr-defined]
