"""The V&V scenario page in Chromium: the board with the scenario's counters, the
threat map's shading as the CLI computes it, a stack's path clicked hex by hex with the exact
odds per hex, a seeded roll, and one-line errors."""

from __future__ import annotations

import json
import re
from fractions import Fraction

from playwright.sync_api import Page, expect

from firefight.board.overlay import shade_colour
from tests.e2e.conftest import cli_json


def _percent(fraction: str) -> str:
    return f"{float(Fraction(fraction)) * 100:.2f} %"


STATE_WORDS = {"reduced_pinned": "reduced and pinned"}
"""The end states the page words otherwise than their JSON value."""
HARM = ["unhurt", "pinned", "reduced", "reduced_pinned", "eliminated"]
"""The order the page shows a unit's end states in."""


def _fate(state: str) -> str:
    """An overrun's AFV fate as the page words it (``immobilized_abandoned at approach 1``)."""
    fate, _, stopped = state.partition(" at ")
    word = {"immobilized_abandoned": "immobilized, then abandoned"}.get(fate, fate)
    if stopped == "exit":
        return f"{word}, at the exit hex"
    return f"{word}, at approach hex {stopped.removeprefix('approach ')}"


def _names(page: Page) -> dict[str, str]:
    """Each unit's name by its id, as the page has them (the scenario's ``name``)."""
    found = page.evaluate("() => Object.fromEntries(pageData.units.map((u) => [u.id, u.name]))")
    assert isinstance(found, dict)
    return found


def _named(names: dict[str, str], groups: list[str]) -> str:
    """Fire groups (``de-sq1+de-ldr``) as the page lists them: by their units' names."""
    return ", ".join(" + ".join(names[u] for u in g.split("+")) for g in groups) or "—"


def test_the_threat_map_a_path_its_odds_and_a_roll(page: Page, shot):
    page.goto("/rulesets/vv/scenario")
    board = page.locator("#scenario-board")
    expect(board.locator("g.counter")).to_have_count(6)  # six stacks in the sample
    expect(board.locator('g.counter[data-stack="0206"] text').first).to_have_text("Ldr 1")
    shot("counters")

    threat = cli_json("threat", "village", "--side", "us")
    assert isinstance(threat, dict)
    page.select_option("#side", "us")
    page.click("#threat")
    expect(page.locator("#threat-summary")).to_contain_text(f"{len(threat['hexes'])} hexes")
    expect(board.locator("g.shading polygon")).to_have_count(len(threat["hexes"]))
    expect(page.locator("#legend")).to_be_visible()
    # The page's ramp is the pictures' (firefight.board.overlay.shade_colour).
    fill = board.locator('g.shading polygon[data-shade="0406"]').get_attribute("fill")
    expected_fill = shade_colour(Fraction(threat["hexes"]["0406"]["pinned_or_worse"]))
    assert fill is not None
    for i in (1, 3, 5):
        assert abs(int(fill[i : i + 2], 16) - int(expected_fill[i : i + 2], 16)) <= 1
    page.locator('polygon.hex[data-hex="0406"]').click(force=True)
    expected = _percent(threat["hexes"]["0406"]["pinned_or_worse"])
    expect(page.locator("#hex-threat")).to_have_text(f"pinned or worse on entering: {expected}")
    shot("threat-map")

    page.locator('g.counter[data-stack="0206"]').click()
    expect(page.locator("#move-hint")).to_contain_text("Stack 0206 selected")
    expect(board.locator('g.counter[data-stack="0206"]')).to_have_class("counter selected")
    for label in ("0306", "0406"):
        page.locator(f'polygon.hex[data-hex="{label}"]').click(force=True)
        expect(page.locator("#path-odds tbody tr")).to_have_count(1 if label == "0306" else 2)
    expect(page.locator("#path-line")).to_have_attribute("data-path", "0306,0406")
    scenario = page.locator("#scenario-text").input_value()
    body = {"scenario": scenario, "stack": "0206", "path": ["0306", "0406"]}
    move = page.request.post(
        "/api/vv/move", data=json.dumps(body), headers={"Content-Type": "application/json"}
    ).json()
    first = move["hexes"][0]["first_hit"]["fraction"]
    expect(page.locator('#path-odds tr[data-step="0306"] td.first-hit')).to_have_text(
        _percent(first)
    )
    expect(board.locator("text.path-note")).to_have_count(2)
    shot("path-odds")

    page.fill("#seed", "4")
    page.click("#roll")
    run = page.request.post(
        "/api/vv/move",
        data=json.dumps({**body, "seed": 4}),
        headers={"Content-Type": "application/json"},
    ).json()
    names = _names(page)
    outcome = ", ".join(
        f"{names[u]} {STATE_WORDS.get(o['state'], o['state'])} in {o['hex']}"
        for u, o in run["outcome"].items()
    )
    expect(page.locator("#roll-outcome")).to_have_text(outcome)
    expect(page.locator("#trace > li")).to_have_count(len(run["steps"]))
    shot("roll")

    # A blank seed rolls a random one, shown in the heading; the box stays blank.
    page.fill("#seed", "")
    page.click("#roll")
    expect(page.locator("#scenario-result h2")).to_have_text(re.compile(r"^Roll \(seed \d+\)$"))
    expect(page.locator("#seed")).to_have_value("")

    page.locator('polygon.hex[data-hex="0806"]').click(force=True)  # not adjacent to 0406
    expect(page.locator("#scenario-result p.error")).to_contain_text("'path' must be a hex")
    expect(page.locator("#path-line")).to_have_attribute("data-path", "0306,0406")


def test_a_pasted_scenario_is_loaded_or_refused_in_one_line(page: Page, shot):
    page.goto("/rulesets/vv/scenario")
    page.locator("details > summary", has_text="Scenario file").click()
    text = page.locator("#scenario-text").input_value()
    page.fill("#scenario-text", text.replace('hex = "0108"', 'hex = "0109"'))
    page.click("#load")
    expect(page.locator("#loaded")).to_have_text("Loaded Crossroads at dusk: 9 units.")
    expect(page.locator('g.counter[data-stack="0109"]')).to_have_count(1)
    page.fill("#scenario-text", text.replace('board = "vv_village"', 'board = "/etc/x.toml"'))
    page.click("#load")
    expect(page.locator("#scenario-result p.error")).to_have_text(
        "scenario: 'board' must be a sample board on the web: one of normandy_bocage, "
        'vv_village, vv_village_pointy (got "/etc/x.toml")'
    )
    shot("bad-scenario")


def test_the_defender_chooses_where_each_firer_fires(page: Page, shot):
    page.goto("/rulesets/vv/scenario")
    page.select_option("#policy", "player")
    page.locator('g.counter[data-stack="0206"]').click()
    for label in ("0306", "0406"):
        page.locator(f'polygon.hex[data-hex="{label}"]').click(force=True)
    expect(page.locator("#path-odds tbody tr")).to_have_count(2)
    choice = page.locator('#player-choices select[data-firer="de-sq1+de-ldr"]')
    expect(choice).to_have_value("")
    expect(page.locator('#path-odds tr[data-step="0406"] td.first-hit')).to_have_text("0.00 %")
    choice.select_option("0406")
    expect(page.locator('#path-odds tr[data-step="0406"] td')).to_contain_text(
        ["Grenadier squad + Fw. Brandt"]
    )
    expect(page.locator('#path-odds tr[data-step="0406"] td.first-hit')).not_to_have_text("0.00 %")
    expect(page.locator('#path-odds tr[data-step="0306"] td.first-hit')).to_have_text("0.00 %")
    shot("player-choice")


def _post(page: Page, url: str, body: dict[str, object]) -> dict[str, object]:
    answer = page.request.post(
        url, data=json.dumps(body), headers={"Content-Type": "application/json"}
    ).json()
    assert isinstance(answer, dict)
    return answer


def test_the_moves_fire_lanes_and_the_lane_options(page: Page, shot):
    """The MG42 of 0605 fires at 0306 and lays its lane (13.9): the page draws it from its MG's
    hex with one marker per hex and lists it; 'never' takes it away, as the API answers."""
    page.goto("/rulesets/vv/scenario")
    board = page.locator("#scenario-board")
    page.locator('g.counter[data-stack="0206"]').click()
    for label in ("0306", "0406"):
        page.locator(f'polygon.hex[data-hex="{label}"]').click(force=True)
    expect(page.locator("#path-odds tbody tr")).to_have_count(2)
    scenario = page.locator("#scenario-text").input_value()
    body = {"scenario": scenario, "stack": "0206", "path": ["0306", "0406"]}
    move = _post(page, "/api/vv/move", body)
    lanes = move["lanes"]
    assert isinstance(lanes, list)
    assert lanes[0]["hexes"] == ["0505", "0406", "0306"]
    lane = board.locator("g.lanes polyline.lane")
    expect(lane).to_have_count(1)
    expect(lane).to_have_attribute("data-from", "0605")
    expect(board.locator("g.lanes rect.lane-marker")).to_have_count(3)
    expect(page.locator("#move-lanes li")).to_have_text(
        ["Grenadier squad MG42 from 0605: 0505 0406 0306 (laid at hex 1)"]
    )
    expect(page.locator('#path-odds tr[data-step="0406"] td.lane-markers')).to_have_text("1")
    first = move["hexes"][1]["first_hit"]["fraction"]  # type: ignore[index]
    expect(page.locator('#path-odds tr[data-step="0406"] td.first-hit')).to_have_text(
        _percent(first)
    )
    shot("move-lanes")

    page.select_option("#lanes", "never")
    expect(board.locator("g.lanes polyline.lane")).to_have_count(0)
    expect(page.locator('#path-odds tr[data-step="0406"] td.lane-markers')).to_have_text("0")
    never = _post(page, "/api/vv/move", {**body, "lanes": "never"})
    first = never["hexes"][1]["first_hit"]["fraction"]  # type: ignore[index]
    expect(page.locator('#path-odds tr[data-step="0406"] td.first-hit')).to_have_text(
        _percent(first)
    )

    page.fill("#standing-lanes", "0605")
    page.locator("#standing-lanes").dispatch_event("change")
    expect(page.locator("#scenario-result p.error")).to_contain_text("'standing_lanes' must be")
    expect(page.locator("#path-line")).to_have_attribute("data-path", "0306,0406")


def test_the_threat_map_shows_the_standing_lanes(page: Page, shot):
    page.goto("/rulesets/vv/scenario")
    board = page.locator("#scenario-board")
    page.fill("#standing-lanes", "0605-0305")
    page.select_option("#side", "us")
    page.click("#threat")
    threat = cli_json("threat", "village", "--side", "us", "--standing-lanes", "0605-0305")
    assert isinstance(threat, dict)
    expect(page.locator("#threat-summary")).to_contain_text("1 standing fire lane(s)")
    expect(board.locator("g.lanes polyline.lane")).to_have_count(1)
    expect(board.locator("g.lanes rect.lane-marker")).to_have_count(3)
    page.locator('polygon.hex[data-hex="0405"]').click(force=True)
    expected = _percent(threat["hexes"]["0405"]["pinned_or_worse"])
    expect(page.locator("#hex-threat")).to_have_text(f"pinned or worse on entering: {expected}")
    row = page.locator("#scenario-result tr.lane-attack")
    expect(row).to_have_count(1)
    expect(row.locator("td")).to_have_text(
        ["fire lane: standing lane 1", "0605", "1-4", "0", "41.67 %"]
    )
    shot("threat-lanes")


def test_the_armour_samples_at_firers_fire_on_the_page(page: Page, shot):
    """The page's move names no rating: the file's AT FP and Armor Ratings fire, as the CLI's
    ``firefight move armour`` (13.8, 18), in the path's "fires" column."""
    page.goto("/rulesets/vv/scenario?name=armour")
    board = page.locator("#scenario-board")
    board.locator('g.counter[data-stack="0212"]').click()
    for label in ("0211", "0210"):
        page.locator(f'polygon.hex[data-hex="{label}"]').click(force=True)
    expect(page.locator("#path-odds tbody tr")).to_have_count(2)
    move = cli_json("move", "armour", "--stack", "0212", "--path", "0211,0210")
    assert isinstance(move, dict)
    names = _names(page)
    for step in move["hexes"]:
        row = page.locator(f'#path-odds tr[data-step="{step["hex"]}"] td')
        expect(row.nth(5)).to_have_text(_named(names, step["attacks"] + step["at_attacks"]))
    expect(page.locator('#path-odds tr[data-step="0211"] td').nth(5)).to_contain_text("PaK 40")
    shot("armour-at-fire")


def test_the_move_options_casualties_allocation_and_an_overrun(page: Page, shot):
    """The options generated from the move's input model reach the API as the CLI's: the
    owner's casualty policy and allocation (14.6) in the path's end states; an overrun (19)
    with its riders' APFP from the file (19.4) and its outcomes."""
    page.goto("/rulesets/vv/scenario")
    page.locator("#move-options > summary").click()
    page.select_option("#f-casualty_policy", "in_order")
    page.fill("#f-allocation", "0406=us-sq2/us-sq1")
    page.locator('g.counter[data-stack="0206"]').click()
    for label in ("0306", "0406"):
        page.locator(f'polygon.hex[data-hex="{label}"]').click(force=True)
    expect(page.locator("#path-odds tbody tr")).to_have_count(2)
    scenario = page.locator("#scenario-text").input_value()
    body = {"scenario": scenario, "stack": "0206", "path": ["0306", "0406"]}
    options = {"casualty_policy": "in_order", "allocation": {"0406": ["us-sq2", "us-sq1"]}}
    move = _post(page, "/api/vv/move", {**body, **options})
    outcomes = move["outcomes"]
    assert isinstance(outcomes, dict)
    names = _names(page)
    expect(page.locator("#end-states tbody th")).to_have_text([names[u] for u in outcomes])
    for unit, found in outcomes.items():
        ordered = sorted(found, key=lambda o: (HARM.index(o["state"]), o["hex"]))
        expected = [
            f"{STATE_WORDS.get(o['state'], o['state'])} in {o['hex']} {_percent(o['fraction'])}"
            for o in ordered
        ]
        expect(page.locator(f'#end-states tr[data-unit="{unit}"] li')).to_have_text(expected)
    assert move != _post(page, "/api/vv/move", body)  # the owner's order changes the odds
    shot("casualty-allocation")

    page.fill("#f-allocation", "0406=")
    page.locator("#f-allocation").dispatch_event("change")
    expect(page.locator("#scenario-result p.error")).to_contain_text("'allocation' must be")

    page.goto("/rulesets/vv/scenario?name=armour")
    page.locator("#move-options > summary").click()
    page.check("#f-overrun")
    page.locator('g.counter[data-stack="0212"]').click()
    for label in ("0211", "0210", "0309"):
        page.locator(f'polygon.hex[data-hex="{label}"]').click(force=True)
    expect(page.locator("#overrun-attack")).to_contain_text("23 APFP (7 carried)")
    scenario = page.locator("#scenario-text").input_value()
    overrun = {"scenario": scenario, "stack": "0212", "path": ["0211", "0210", "0309"]}
    odds = _post(page, "/api/vv/move", {**overrun, "overrun": True})
    afv = odds["afv"]
    assert isinstance(afv, list)
    names = _names(page)
    expect(page.locator("#overrun-afv li")).to_have_text(
        [f"{_fate(o['state'])} {_percent(o['fraction'])}" for o in afv]
    )
    for unit, found in odds["defenders"].items():
        words = "; ".join(
            f"{STATE_WORDS.get(o['state'], o['state'])} {_percent(o['fraction'])}" for o in found
        )
        expect(page.locator(f'#overrun-defenders li[data-unit="{unit}"]')).to_have_text(
            f"{names[unit]}: {words}"
        )
    head = page.locator("#scenario-result h2").first
    expect(head).to_contain_text(names["us-sherman"])
    expect(page.locator("#overrun-attack")).to_contain_text(names["de-pak"])
    expect(page.locator("#overrun-attack")).to_contain_text("least rating lost")
    expect(page.locator("#scenario-result")).not_to_contain_text("us-sherman")
    expect(page.locator("#scenario-result")).not_to_contain_text("_")
    page.fill("#f-passenger_apfp", "3")
    page.locator("#f-passenger_apfp").dispatch_event("change")
    expect(page.locator("#scenario-result p.error")).to_contain_text(
        "'passenger_apfp' must be the scenario's passengers' APFP 7"
    )
    page.fill("#f-passenger_apfp", "")
    page.fill("#seed", "1")
    page.click("#roll")
    run = _post(page, "/api/vv/move", {**overrun, "overrun": True, "seed": 1})
    afv_part, _, defender_part = str(run["outcome"]).partition("; ")
    states = defender_part.split(", ") if defender_part != "no attack" else []
    overrun_setup = run["overrun"]
    assert isinstance(overrun_setup, dict)
    outcome = [f"{names[overrun_setup['afv']]}: {_fate(afv_part.removeprefix('afv '))}"]
    for k, unit in enumerate(overrun_setup["defenders"]):
        state = states[k] if k < len(states) else "not attacked"
        outcome.append(f"{names[unit]}: {STATE_WORDS.get(state, state)}")
    expect(page.locator("#roll-outcome")).to_have_text("; ".join(outcome))
    expect(page.locator("#scenario-result")).not_to_contain_text("_")
    shot("overrun")
