"""The V&V scenario page and its JSON API: the CLI's JSON shapes, one-line 422s,
boards by sample name only, answers in the pool under a time limit."""

from __future__ import annotations

import json
import time

import pytest
from fastapi.testclient import TestClient

from firefight.cli import main
from firefight.rulesets.vv.scenario import sample_board_scenarios as sample_scenarios
from firefight.web import scenario as web_scenario
from firefight.web.app import create_app

TEXT = sample_scenarios()["village"].read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def client():
    return TestClient(create_app())


def test_the_threat_map_is_the_clis_json(client, capsys):
    response = client.post("/api/vv/threat", json={"scenario": TEXT, "side": "us"})
    assert response.status_code == 200
    assert main(["threat", "village", "--side", "us", "--json"]) == 0
    assert response.json() == json.loads(capsys.readouterr().out)


def test_a_stacks_threat_map_with_assault_movement(client, capsys):
    body = {"scenario": TEXT, "side": "us", "stack": "0206", "assault": True}
    response = client.post("/api/vv/threat", json=body)
    assert response.status_code == 200
    argv = ["threat", "village", "--side", "us", "--stack", "0206", "--assault", "--json"]
    assert main(argv) == 0
    assert response.json() == json.loads(capsys.readouterr().out)


def test_a_moves_odds_and_a_seeded_run_that_its_dice_replay(client):
    body = {"scenario": TEXT, "stack": "0206", "path": ["0306", "0406"]}
    odds = client.post("/api/vv/move", json=body).json()
    assert odds["exact"] is True
    assert [h["hex"] for h in odds["hexes"]] == ["0306", "0406"]
    run = client.post("/api/vv/move", json={**body, "seed": 4}).json()
    dice = ",".join(run["replay"])
    replayed = client.post("/api/vv/move", json={**body, "roll": dice}).json()
    assert replayed["outcome"] == run["outcome"]
    assert replayed["steps"] == run["steps"]


def test_a_runs_replay_list_is_taken_back_as_its_roll(client):
    """The answer's ``replay`` (a list of dice) is a ``roll`` the API takes as it is."""
    body = {"scenario": TEXT, "stack": "0206", "path": ["0306", "0406"]}
    run = client.post("/api/vv/move", json={**body, "seed": 4}).json()
    replayed = client.post("/api/vv/move", json={**body, "roll": run["replay"]})
    assert replayed.status_code == 200, replayed.json()
    assert replayed.json()["steps"] == run["steps"]


@pytest.mark.parametrize(
    ("route", "body", "message"),
    [
        ("threat", {"side": "fr"}, "'side' must be one of us, de (got 'fr')"),
        ("threat", {"side": "us", "stack": "99"}, "'stack' must be"),
        (
            "move",
            {"stack": "0206", "path": ["0306", "0806"]},
            "'path' must be a hex adjacent to 0306",
        ),
        ("move", {"stack": "0206", "path": ["0306"], "policy": "x"}, "'policy' must be one of"),
        ("move", {"stack": "0206", "path": ["0306"], "seed": 1, "roll": "3,4"}, "'seed/roll'"),
    ],
)
def test_bad_input_is_a_one_line_422(client, route, body, message):
    response = client.post(f"/api/vv/{route}", json={"scenario": TEXT, **body})
    assert response.status_code == 422
    detail = response.json()["detail"]
    assert message in detail
    assert "\n" not in detail


def test_a_scenario_names_a_sample_board_never_a_path(client):
    text = TEXT.replace('board = "vv_village"', 'board = "/etc/passwd.toml"')
    response = client.post("/api/vv/threat", json={"scenario": text, "side": "us"})
    assert response.status_code == 422
    assert response.json()["detail"] == (
        "scenario: 'board' must be a sample board on the web: one of normandy_bocage, "
        'vv_village, vv_village_pointy (got "/etc/passwd.toml")'
    )
    broken = client.post("/api/vv/scenario", json={"scenario": "board = ["})
    assert broken.status_code == 422
    assert broken.json()["detail"].startswith("scenario: not TOML (")


def test_a_pasted_scenario_comes_back_with_its_counters_and_board(client):
    found = client.post("/api/vv/scenario", json={"scenario": TEXT}).json()
    assert found["board"] == "vv_village"
    assert len(found["units"]) == 9
    assert found["units"][0] == {
        "id": "us-sq1",
        "name": "1st Rifle squad",
        "side": "us",
        "side_index": 0,
        "kind": "squad",
        "hex": "0206",
        "text": "Sq 4",
        "state": "",
    }
    assert len(found["drawing"]["hexes"]) == 16 * 12


def test_the_index_links_the_scenario_page(client):
    assert 'href="/rulesets/vv/scenario"' in client.get("/").text


def test_the_page_draws_the_board_and_names_the_samples(client):
    page = client.get("/rulesets/vv/scenario")
    assert page.status_code == 200
    assert 'data-hex="0206"' in page.text
    assert "/static/scenario.js" in page.text
    assert client.get("/rulesets/vv/scenario?name=nope").status_code == 404
    assert client.get("/api/vv/scenarios").json() == [
        {"name": "vv_armour", "title": "Armour west of the crossroads", "board": "vv_village"},
        {"name": "vv_crossroads", "title": "Crossroads at dusk", "board": "vv_village"},
    ]


def test_a_sample_loads_by_its_former_name(client):
    for former, name in (("village", "vv_crossroads"), ("armour", "vv_armour")):
        old = client.get(f"/rulesets/vv/scenario?name={former}")
        new = client.get(f"/rulesets/vv/scenario?name={name}")
        assert (old.status_code, new.status_code) == (200, 200)
        assert 'data-hex="0206"' in old.text


def test_a_costly_answer_is_cut_off_in_one_line(monkeypatch):
    monkeypatch.setattr(web_scenario, "SCENARIO_SECONDS", 0.05)

    def stuck(body: str) -> dict[str, object]:
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            pass
        return {}

    monkeypatch.setitem(web_scenario.ANSWERS, "threat", stuck)
    started = time.monotonic()
    status, body = web_scenario.compute_answer("threat", "{}")
    assert time.monotonic() - started < 2
    assert status == 422
    assert "a scenario whose answer takes at most 0.05 s here" in json.loads(body)["detail"]


def test_a_moves_answer_is_the_clis_json_with_its_fire_lanes(client, capsys):
    body = {"scenario": TEXT, "stack": "0206", "path": ["0306", "0406", "0506", "0606"]}
    response = client.post("/api/vv/move", json=body)
    assert response.status_code == 200
    argv = ["move", "village", "--stack", "0206", "--path", "0306,0406,0506,0606", "--json"]
    assert main(argv) == 0
    cli = json.loads(capsys.readouterr().out)
    data = response.json()
    assert data == cli
    assert data["lanes"][0]["hexes"] == ["0505", "0406", "0306"]  # the MG42 of 0605 (13.9)
    assert [h["lane_markers"] for h in data["hexes"]] == [0, 1, 0, 0]


def test_the_moves_lane_options_are_the_clis(client, capsys):
    body = {
        "scenario": TEXT,
        "stack": "0206",
        "path": ["0306", "0406", "0506", "0606"],
        "lanes": "never",
        "standing_lanes": "0605-0305",
        "lane_side": "right",
        "lane_length": "to_mg_range",
        "lane_naturals": "valor_and_sniper",
        "lane_after_mg_pinned": "removed",
        "seed": 3,
    }
    response = client.post("/api/vv/move", json=body)
    assert response.status_code == 200
    argv = ["move", "village", "--stack", "0206", "--path", "0306,0406,0506,0606", "--json"]
    argv += ["--lanes", "never", "--standing-lanes", "0605-0305", "--lane-side", "right"]
    argv += ["--lane-length", "to_mg_range", "--lane-naturals", "valor_and_sniper"]
    argv += ["--lane-after-mg-pinned", "removed", "--seed", "3"]
    assert main(argv) == 0
    assert response.json() == json.loads(capsys.readouterr().out)
    assert [lane["mg"] for lane in response.json()["lanes"]] == ["standing lane 1"]


def test_the_threat_maps_standing_lanes_are_the_clis(client, capsys):
    body = {"scenario": TEXT, "side": "us", "standing_lanes": "0605-0305"}
    response = client.post("/api/vv/threat", json=body)
    assert response.status_code == 200
    argv = ["threat", "village", "--side", "us", "--standing-lanes", "0605-0305", "--json"]
    assert main(argv) == 0
    data = response.json()
    assert data == json.loads(capsys.readouterr().out)
    assert data["lanes"][0]["hexes"] == ["0505", "0405", "0305"]
    assert data["hexes"]["0405"]["lanes"][0]["pinned_or_worse"] == "5/12"


@pytest.mark.parametrize(
    ("route", "body", "message"),
    [
        ("threat", {"side": "us", "standing_lanes": "0605"}, "'standing_lanes' must be FROM-TO"),
        ("threat", {"side": "us", "lane_after_mg_pinned": "x"}, "'after_mg_pinned' must be"),
        ("move", {"stack": "0206", "path": ["0306"], "lanes": "some"}, "'lanes' must be one of"),
        ("move", {"stack": "0206", "path": ["0306"], "lane_side": "up"}, "'first_side' must be"),
        (
            "move",
            {"stack": "0206", "path": ["0306"], "standing_lanes": "0605-0305,0605-0405"},
            "'standing_lanes' must be at most 1 lane(s) from 0605",
        ),
        (
            "threat",
            {"side": "us", "standing_lanes": "0406-0506"},
            "'standing_lanes' must be FROM-TO lanes from a hex holding an MG",
        ),
    ],
)
def test_bad_lane_options_are_a_one_line_422(client, route, body, message):
    response = client.post(f"/api/vv/{route}", json={"scenario": TEXT, **body})
    assert response.status_code == 422
    detail = response.json()["detail"]
    assert message in detail
    assert "\n" not in detail


def test_a_body_of_the_wrong_type_is_one_plain_line(client):
    """A request body's type error reads as every other 422: "'side' must be a valid string
    (got 5)", never pydantic's "must be Input should be ..." (the shared handler)."""
    response = client.post("/api/vv/threat", json={"scenario": TEXT, "side": 5})
    assert response.status_code == 422
    message = response.json()["detail"]
    assert message == "'side' must be a valid string (got 5)"


ARMOUR = sample_scenarios()["armour"].read_text(encoding="utf-8")
"""The armour sample: its AT FP and Armor Ratings and the Sherman's riders are in the file."""


def test_the_web_fires_at_on_opportunity_with_the_files_ratings(client, capsys):
    """The page's body names no AT rating nor armour: the file's letters fire, as the CLI's."""
    body = {"scenario": ARMOUR, "stack": "0212", "path": ["0211", "0210", "0209"]}
    response = client.post("/api/vv/move", json=body)
    assert response.status_code == 200, response.json()
    answer = response.json()
    assert {(a["firer"], a["hex"]) for a in answer["at_fire_plan"]} == {
        ("de-pak", "0211"),
        ("de-schreck", "0210"),
    }
    assert [h["at_attacks"] for h in answer["hexes"]] == [["de-pak"], ["de-schreck"], []]
    argv = ["move", "armour", "--stack", "0212", "--path", "0211,0210,0209", "--json"]
    assert main(argv) == 0
    assert answer == json.loads(capsys.readouterr().out)


def test_the_webs_overrun_adds_the_riders_apfp(client, capsys):
    body = {"scenario": ARMOUR, "stack": "0212", "path": ["0211", "0210", "0309"], "overrun": True}
    response = client.post("/api/vv/move", json=body)
    assert response.status_code == 200, response.json()
    attack = response.json()["overrun"]["attack"]
    assert (attack["apfp"], attack["passenger_apfp"]) == (23, 7)
    argv = ["move", "armour", "--stack", "0212", "--path", "0211,0210,0309", "--overrun", "--json"]
    assert main(argv) == 0
    assert response.json() == json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ({"at": "de-pak=C"}, "'at.de-pak' must be the scenario's AT FP Rating E (or left out)"),
        ({"armour": "E,D"}, "'armour' must be the scenario's Armor Ratings E/C for us-sherman"),
        (
            {"overrun": True, "path": ["0211", "0210", "0309"], "passenger_apfp": 3},
            "'passenger_apfp' must be the scenario's passengers' APFP 7",
        ),
    ],
)
def test_a_value_against_the_files_is_a_one_line_422(client, extra, message):
    body = {"scenario": ARMOUR, "stack": "0212", "path": ["0211"], **extra}
    response = client.post("/api/vv/move", json=body)
    assert response.status_code == 422
    assert message in response.json()["detail"]
    assert "\n" not in response.json()["detail"]


def test_the_page_offers_the_moves_options_generated_from_its_input_model(client):
    """Every option of ``firefight move`` the page does not set itself is a control generated
    from the move's input model: the casualty policy (14.6) a select of its choices, the
    owner's allocation a text written as the CLI's, the overrun's riders' APFP a number."""
    page = client.get("/rulesets/vv/scenario").text
    options = page.split('id="move-options"')[1].split("</details>")[0]
    for name in ("units", "casualty_policy", "allocation", "overrun", "passenger_apfp", "at"):
        assert f'data-field="{name}"' in options
    for name in ("stack", "path", "player", "seed", "policy", "lane_side"):
        assert f'data-field="{name}"' not in options
    assert '<option value="in_order">in order</option>' in options
    assert 'type="number" id="f-passenger_apfp" name="passenger_apfp" step="1" min="0"' in options
    data = json.loads(page.split('id="page-data">')[1].split("</script>")[0])
    assert data["shapes"]["move"]["allocation"] == "orders"
    assert data["shapes"]["move"]["units"] == "list"
    assert "(dict" not in options


def test_the_moves_casualty_policy_and_allocation_are_the_clis(client, capsys):
    body = {
        "scenario": TEXT,
        "stack": "0206",
        "path": ["0306", "0406"],
        "casualty_policy": "in_order",
        "allocation": {"0406": ["us-sq2", "us-sq1"]},
    }
    response = client.post("/api/vv/move", json=body)
    assert response.status_code == 200, response.json()
    assert response.json()["allocation"] == {
        "policy": "in_order",
        "orders": {"0406": ["us-sq2", "us-sq1"]},
    }
    argv = ["move", "village", "--stack", "0206", "--path", "0306,0406", "--json"]
    argv += ["--casualty-policy", "in_order", "--allocation", "0406=us-sq2/us-sq1"]
    assert main(argv) == 0
    assert response.json() == json.loads(capsys.readouterr().out)
    bad = client.post("/api/vv/move", json={**body, "casualty_policy": "random"})
    assert bad.status_code == 422
    assert "'casualty_policy' must be one of least_rating_lost, in_order" in bad.json()["detail"]


@pytest.mark.parametrize("route", ["/api/vv/scenario", "/api/vv/move", "/api/vv/threat"])
@pytest.mark.parametrize(
    "text",
    ["not = [toml", TEXT.replace('board = "vv_village"', 'board = "nope"'), TEXT + "\nx = 1\n"],
    ids=["not TOML", "unknown board", "unknown key"],
)
def test_a_bad_scenarios_422_names_the_scenario_field(client, route, text):
    """A scenario refused names the body's field that holds it, as every other 4xx of the API
    names its own."""
    body = {"scenario": text}
    if route != "/api/vv/scenario":
        body |= {"side": "us"} if route.endswith("threat") else {"stack": "0206", "path": ["0306"]}
    response = client.post(route, json=body)
    assert response.status_code == 422, response.text
    assert response.json()["field"] == "scenario"
