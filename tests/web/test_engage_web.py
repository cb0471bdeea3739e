"""Engagements on the web: the pages, and the JSON API giving ``firefight engage --json``'s
shapes, with one-line 422s for bad scenarios."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from fractions import Fraction

import pytest
from fastapi.testclient import TestClient

from firefight.cli import main
from firefight.sim.scenario import sample_scenarios
from firefight.web import engage
from firefight.web.app import create_app


@pytest.fixture(scope="module")
def client():
    return TestClient(create_app())


def test_a_samples_odds_are_the_clis_json(client, capsys):
    response = client.get("/api/engagements/vv_village")
    assert response.status_code == 200
    assert main(["engage", "vv_village", "--json"]) == 0
    assert response.json() == json.loads(capsys.readouterr().out)


def test_the_samples_are_listed_with_their_rule_sets(client):
    listed = client.get("/api/engagements").json()
    assert {s["name"] for s in listed} == set(sample_scenarios())
    assert {s["ruleset"] for s in listed} == {"ept", "vv", "tirs", "percentile"}


def test_a_posted_scenario_gives_exact_odds_and_a_seeded_run_replays(client):
    text = sample_scenarios()["percentile_farm"].read_text(encoding="utf-8")
    odds = client.post("/api/engage", json={"scenario": text})
    assert odds.status_code == 200
    assert odds.json()["exact"] is True
    assert sum(Fraction(p) for p in odds.json()["outcome"].values()) == 1
    run = client.post("/api/engage", json={"scenario": text, "seed": 4, "turns": 2}).json()
    again = client.post(
        "/api/engage", json={"scenario": text, "roll": run["replay"], "turns": 2}
    ).json()
    assert again["final"] == run["final"]
    assert again["turns"] == run["turns"]
    sampled = client.post("/api/engage", json={"scenario": text, "samples": 500}).json()
    assert sampled["label"] == "sampled"


def test_a_bad_scenario_is_a_422_with_the_clis_line(client):
    response = client.post("/api/engage", json={"scenario": 'ruleset = "ept"\n[a]\nunits = []\n'})
    assert response.status_code == 422
    assert response.json()["detail"] == (
        "scenario: a.units: a side needs at least one unit (got none)"
    )
    both = client.post("/api/engage", json={"scenario": "", "seed": 1, "roll": "3"})
    assert both.status_code == 422
    unknown = client.post("/api/engage", json={"scenario": "", "extra": 1})
    assert unknown.status_code == 422


def test_an_unknown_sample_is_a_404_naming_the_samples(client):
    response = client.get("/api/engagements/nowhere")
    assert response.status_code == 404
    assert "ept_hedgerow" in response.json()["detail"]
    assert client.get("/engage/nowhere").status_code == 404


def test_the_engagement_pages_show_the_samples_toml(client):
    page = client.get("/engage/ept_hedgerow")
    assert page.status_code == 200
    assert "ruleset = &#34;ept&#34;" in page.text or 'ruleset = "ept"' in page.text
    assert "/static/engage.js" in page.text
    index = client.get("/engage")
    assert all(f"/engage/{name}" in index.text for name in sample_scenarios())
    assert "/engage" in client.get("/").text


def test_the_answers_kept_are_bounded_and_shared_safely_by_threads(client):
    text = sample_scenarios()["vv_village"].read_text(encoding="utf-8")

    def ask(seed: int) -> int:
        body = {"scenario": text, "seed": seed, "turns": 1}
        return client.post("/api/engage", json=body).status_code

    with ThreadPoolExecutor(8) as pool:
        codes = list(pool.map(ask, range(engage.CACHED + 16)))
    assert codes == [200] * (engage.CACHED + 16)
    assert len(engage._answers) == engage.CACHED


def test_an_engagement_answer_that_takes_too_long_is_a_one_line_422(monkeypatch):
    """The web server's standard on the engagement API: a pasted scenario whose answer would
    hold a pool process for minutes is given up after ENGAGE_SECONDS, with one line."""
    from firefight.web import engage  # noqa: PLC0415

    def forever(*args):
        while True:
            pass

    monkeypatch.setattr(engage, "ENGAGE_SECONDS", 1)
    monkeypatch.setattr(engage, "answer", forever)
    status, body = engage.compute_answer("", "scenario", '{"scenario": ""}')
    assert status == 422
    detail = json.loads(body)["detail"]
    assert detail.startswith("'scenario' must be a scenario whose answer takes at most")
    assert "\n" not in detail


@pytest.mark.parametrize(
    "text", ["not = [toml", 'ruleset = "ept"\n[a]\nunits = []\n', "x = 1\n"], ids=str.split
)
def test_a_bad_scenarios_422_names_the_scenario_field(client, text):
    """A scenario refused (not TOML, a side without units, an unknown key) names the body's
    field that holds it, as the API's other errors name theirs."""
    response = client.post("/api/engage", json={"scenario": text})
    assert response.status_code == 422
    assert response.json()["field"] == "scenario"
