"""The web pages' features that need no browser: readings marked and folded, readable choices, the
board feeding the fire procedure, the history page and the vendored front-end library."""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from fastapi.testclient import TestClient

from firefight.core.inputs import RuleInput, is_reading
from firefight.rulesets import rulesets
from firefight.rulesets.ept.fire import EptFire
from firefight.web.app import create_app

STATIC = Path(__file__).parents[2] / "src" / "firefight" / "web" / "static"


@pytest.fixture(scope="module")
def client():
    return TestClient(create_app())


def page_data(html: str) -> dict:
    found = re.search(r'<script type="application/json" id="page-data">(.*?)</script>', html, re.S)
    assert found
    return json.loads(found.group(1))


def test_every_reading_names_a_field_of_its_model():
    marked = 0
    for found in rulesets():
        for procedure in found.procedures:
            model = procedure.input_model
            assert model.readings <= set(model.model_fields), (model, model.readings)
            marked += bool(model.readings)
    assert marked >= 20
    assert not RuleInput.readings


def test_is_reading_reads_the_marker():
    assert is_reading(EptFire, "factor_rounding")
    assert not is_reading(EptFire, "strength")


def test_the_readings_are_folded_apart_with_their_defaults(client):
    html = client.get("/rulesets/ept/fire").text
    folded = html.split('<details class="readings" id="readings">', 1)
    assert len(folded) == 2, "no Readings section"
    situation, readings = folded
    assert 'name="factor_rounding"' in readings
    assert 'name="factor_rounding"' not in situation
    assert 'name="strength"' in situation
    assert 'name="strength"' not in readings
    assert "Default: down." in readings


def test_choices_show_readable_labels_and_send_the_fields_values(client):
    html = client.get("/rulesets/ept/fire").text
    assert '<option value="force_march">force march</option>' in html
    assert re.search(r'<option value="above_3"( selected)?>above 3</option>', html)
    assert "(true or false)" not in html


def test_page_data_gives_each_fields_opening_value(client):
    data = page_data(client.get("/rulesets/ept/fire?strength=6&range=adjacent").text)
    assert data["fields"]["strength"]["initial"] == "1"
    assert data["fields"]["range"]["initial"] == "normal"
    assert data["fields"]["target_hidden"]["initial"] == "false"
    assert data["fields"]["factor_rounding"]["label"] == "factor rounding"


def test_the_board_opens_vv_ap_attack_with_the_lines_hindrance_and_terrain(client):
    answer = client.get(
        "/boards/vv_village/fire", params={"from": "0301", "to": "0606"}, follow_redirects=False
    )
    assert answer.status_code == 303
    where = urlsplit(answer.headers["location"])
    assert where.path == "/rulesets/vv/ap_attack"
    los = client.get("/api/boards/vv_village/los", params={"from": "0301", "to": "0606"}).json()
    board = client.get("/api/boards/vv_village").json()
    terrain = board["hexes"].get("0606", {"terrain": board["default_terrain"]})["terrain"]
    assert parse_qs(where.query) == {
        "target_terrain": [terrain],
        "hindrance": [str(los["modifier"])],
        "adjacent": ["false"],
    }
    assert client.get(answer.headers["location"]).status_code == 200


@pytest.mark.parametrize(("cover", "protection"), [("crossed", "light"), ("hex_only", "none")])
def test_ept_hexside_cover_reading_gives_the_hedge_crossed_into_the_target(
    client, cover, protection
):
    answer = client.get(
        "/boards/normandy_bocage/fire",
        params={"from": "0405", "to": "0507", "hexside_cover": cover},
        follow_redirects=False,
    )
    assert answer.status_code == 303
    query = parse_qs(urlsplit(answer.headers["location"]).query)
    assert query["protection"] == [protection]
    assert query["range"] == ["normal"]


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"from": "0101", "to": "0305"}, "'to' must be a hex 0101 can see"),
        ({"from": "0301", "to": "0301"}, "'to' must be a hex other than the firer's 0301"),
        ({"from": "9999", "to": "0301"}, "'from' must be"),
        ({"from": "0301", "to": "0606", "hexside_cover": "both"}, "'hexside_cover' must be one"),
    ],
)
def test_the_board_fire_link_refuses_bad_lines_in_one_line(client, params, field):
    answer = client.get("/boards/vv_village/fire", params=params, follow_redirects=False)
    assert answer.status_code == 422
    message = re.search(r'<p class="error" id="error">(.*?)</p>', answer.text, re.S)
    assert message
    assert message.group(1).startswith(field.replace("'", "&#39;")), message


def test_the_history_page_and_the_vendored_library_are_served(client):
    assert client.get("/history").status_code == 200
    alpine = client.get("/static/vendor/alpine-3.17.5.min.js")
    assert alpine.status_code == 200
    assert "window.Alpine" in alpine.text
    assert "MIT License" in (STATIC / "vendor" / "LICENSE-alpinejs.txt").read_text()
    assert (
        '<script src="/static/vendor/alpine-3.17.5.min.js" defer>'
        in client.get("/rulesets/ept/fire").text
    )


def test_the_board_page_draws_symbols_a_legend_and_keyboard_focus(client):
    html = client.get("/boards/normandy_bocage").text
    assert '<pattern id="sym-trees"' in html
    assert 'data-legend="bocage"' in html
    assert 'data-legend="hedge"' in html
    assert 'data-legend="wall"' in html
    assert html.count('tabindex="0"') == 1  # one hex in the tab order, the arrows move
    assert 'id="fire-link"' in html
