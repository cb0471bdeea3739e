"""The web calculator's pages: every procedure has a page whose form comes from its
input model; the chart page marks the cell used; the board page draws every hex."""

from __future__ import annotations

import dataclasses
import re

import pytest
from fastapi.testclient import TestClient

from firefight.errors import InputError
from firefight.rulesets import rulesets
from firefight.rulesets.boards import sample_boards
from firefight.rulesets.procedure import FEATURED_DEFAULT
from firefight.web.app import create_app

PROCEDURES = [(r, p) for r in rulesets() for p in r.procedures]


@pytest.fixture(scope="module")
def client():
    return TestClient(create_app())


def test_index_links_every_procedure_and_board(client):
    page = client.get("/").text
    for ruleset, procedure in PROCEDURES:
        assert f'class="procedure-link" href="/rulesets/{ruleset.id}/{procedure.name}"' in page
    for name in sample_boards():
        assert f'class="board-link" href="/boards/{name}"' in page


def test_index_starts_from_the_games_their_featured_procedures_first(client):
    page = client.get("/").text
    for ruleset in rulesets():
        section = page[page.index(f'id="ruleset-{ruleset.id}"') :]
        section = section[: section.index("</section>")]
        featured = [p.name for p in ruleset.featured_procedures()]
        assert featured, ruleset.id
        assert set(featured) <= set(ruleset.procedure_names)
        links = [
            section.index(f'class="featured-link button-link" href="/rulesets/{ruleset.id}/{n}"')
            for n in featured
        ]
        assert links == sorted(links)  # in the order the rule set declares
        assert max(links) < section.index('class="procedure-link"')  # ahead of the full list
    assert page.index('id="tools"') > page.index('class="games"')
    assert 'class="engagement-link" href="/engage/vv_village"' in page


def test_a_rule_set_without_featured_procedures_features_its_first_three():
    ruleset = rulesets()[0]
    plain = dataclasses.replace(ruleset, featured=())
    assert plain.featured_procedures() == ruleset.procedures[:FEATURED_DEFAULT]
    with pytest.raises(InputError, match="procedure"):
        dataclasses.replace(ruleset, featured=("no_such",)).featured_procedures()


@pytest.mark.parametrize(
    ("ruleset", "procedure"), PROCEDURES, ids=[f"{r.id}-{p.name}" for r, p in PROCEDURES]
)
def test_every_procedure_has_a_form_from_its_input_model(client, ruleset, procedure):
    answer = client.get(f"/rulesets/{ruleset.id}/{procedure.name}")
    assert answer.status_code == 200
    page = answer.text
    assert '<form id="inputs"' in page
    for name, info in procedure.input_model.model_fields.items():
        assert f'name="{name}"' in page
        assert f'class="field-error" data-field="{name}"' in page
        if info.description:
            first_words = info.description.split()[0]
            assert first_words.replace("'", "&#39;").replace('"', "&#34;") in page
    for id_ in ('id="odds"', 'id="modifiers"', 'id="facts"', 'id="seed"', 'id="roll"'):
        assert id_ in page
    for id_ in ('id="dice"', 'id="use-dice"', 'id="trace"', 'id="outcome"', 'id="replay-link"'):
        assert id_ in page
    assert ('id="chart-link"' in page) == (procedure.chart is not None)


def test_controls_follow_the_field_types(client):
    page = client.get("/rulesets/ept/fire").text
    assert re.search(r'<select id="f-range" name="range">', page)
    assert re.search(r'<input type="checkbox" id="f-firer_stopped" name="firer_stopped"', page)
    assert re.search(r'<input type="number" id="f-strength" name="strength" step="1" min="1"', page)
    bounded = client.get("/rulesets/ept/activation").text
    assert re.search(r'name="morale" step="1" min="1" max="12"', bounded)


def test_the_query_string_fills_the_form(client):
    page = client.get("/rulesets/ept/fire?strength=9&range=long&firer_stopped=true&seed=5").text
    assert 'name="strength" step="1" min="1" max="99" value="9"' in page
    assert '<option value="long" selected>' in page
    assert 'name="firer_stopped" checked' in page
    assert 'id="seed" min="0" step="1" value="5"' in page


def test_the_chart_page_marks_the_cell_used(client):
    page = client.get("/rulesets/ept/tables/combat", params={"row": "8", "column": "12"}).text
    used = re.findall(r'<td data-row="([^"]*)" data-column="([^"]*)" class="cell-used">', page)
    assert used == [("8", "12")]
    plain = client.get("/rulesets/ept/tables/combat").text
    assert "cell-used" not in plain.replace("td.cell-used", "")


def test_the_board_page_draws_every_hex(client):
    page = client.get("/boards/normandy_bocage").text
    hexes = re.findall(r'data-hex="(\d{4})"', page)
    assert len(hexes) == 16 * 12
    assert 'id="los"' in page


def test_the_pointy_top_sample_has_its_page_in_lettered_rows(client):
    """The pointy-top sample is listed and drawn, its hexes named A12..P1; the page asks for the
    hexes' labels, not numbers, which a lettered map has not."""
    page = client.get("/boards/vv_village_pointy").text
    hexes = re.findall(r'data-hex="([A-P]\d{1,2})"', page)
    assert len(set(hexes)) == 12 * 16
    assert "type their labels below" in page
    assert "type their numbers" not in page
    assert 'class="board-link" href="/boards/vv_village_pointy"' in client.get("/").text


@pytest.mark.parametrize(
    "url", ["/rulesets/nope/fire", "/rulesets/ept/nope", "/rulesets/ept/tables/nope", "/boards/x"]
)
def test_unknown_pages_are_404s(client, url):
    answer = client.get(url)
    assert answer.status_code == 404
    assert "must be one of" in answer.text


def test_the_script_and_styles_are_served(client):
    assert "fetch(" in client.get("/static/app.js").text
    assert ".bar" in client.get("/static/app.css").text
