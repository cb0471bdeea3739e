"""The engagement page's words (``POST /engage/answer``): the API's answer unchanged beside the
words of its unit states, trace notes, results and policies in the request's language, worded
by the functions ``firefight engage`` words them with; the API's JSON keeps its shape."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from firefight.i18n import using
from firefight.sim.engagement_words import note_words, unit_words
from firefight.sim.scenario import sample_scenarios
from firefight.web.app import create_app

ENGLISH = re.compile(r"\bfires at\b|\bfull\b|\bneutralized\b|\bsteps?\b|\bstopped\b|\bpinned\b")
"""The English of a unit's state and of a fire note, none of which the French shows."""


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app())


def _text(name: str) -> str:
    return sample_scenarios()[name].read_text(encoding="utf-8")


def _asked(client: TestClient, lang: str, **body: object) -> tuple[dict, dict[str, str]]:
    response = client.post(f"/engage/answer?lang={lang}", json=body)
    assert response.status_code == 200, response.text
    shown = response.json()
    assert set(shown) == {"answer", "words"}
    api = client.post("/api/engage", json=body)
    assert api.status_code == 200
    assert shown["answer"] == api.json()  # the API's answer, unchanged, beside the words
    assert "words" not in api.json()
    return shown["answer"], shown["words"]


def _lines(state: dict[str, list[str]]) -> list[str]:
    return [*state["a"], *state["b"]]


@pytest.mark.parametrize("name", ["ept_hedgerow", "vv_village"])
def test_a_seeded_runs_states_and_notes_are_french_as_the_cli_words_them(client, name):
    answer, words = _asked(client, "fr", scenario=_text(name), seed=3, turns=3)
    turns = answer["turns"]
    lines = [*_lines(answer["start"]), *(line for t in turns for line in _lines(t["after"]))]
    with using("fr"):
        for line in lines:
            assert words[line] == unit_words(line)
            assert not ENGLISH.search(words[line].partition(": ")[2]), words[line]
    notes = [event for turn in turns for event in turn["trace"]]
    fires = [event["value"] for event in notes if event["label"] == "fire"]
    assert fires
    assert words["fire"] == "tir"
    for fire in fires:
        assert "fires at" in fire  # the API's note, in English
        assert " tire sur " in words[fire]
    effects = [event["value"] for event in notes if event["label"] == "effect"]
    assert effects
    assert words["effect"] == "effet"
    for effect in effects:
        assert not ENGLISH.search(words[effect]), words[effect]


def test_the_hedgerows_french_words_are_the_clis(client):
    answer, words = _asked(client, "fr", scenario=_text("ept_hedgerow"), seed=3, turns=2)
    sides = [
        ("Germans", ["MG 42 team", "Gruppe 1", "Gruppe 2"]),
        ("Americans", ["Squad 1", "Squad 2", "BAR team"]),
    ]
    with using("fr"):
        for event in (event for turn in answer["turns"] for event in turn["trace"]):
            label, value = note_words(sides, event["label"], str(event["value"]))
            assert words[event["label"]] == label
            if "dice" not in event:
                assert words[str(event["value"])] == value
    assert words["Germans MG 42 team fires at Squad 1"] == "Germans MG 42 team tire sur Squad 1"
    assert words["Squad 1: stopped: 2 steps -> 2 steps, stopped"] == (
        "Squad 1: stoppé: 2 pas -> 2 pas, stoppé"
    )
    assert words["Gruppe 2: 2 steps, neutralized"] == "Gruppe 2: 2 pas, neutralisé"
    assert words["neutralization test (2d6)"] == "test de neutralisation (2d6)"
    assert words["a_wins"] == "Germans gagnent"


def test_the_villages_states_are_french_and_english_in_english(client):
    body = {"scenario": _text("vv_village"), "seed": 3, "turns": 2}
    answer, french = _asked(client, "fr", **body)
    assert french["1st squad: full"] == "1st squad: entier"
    assert french["2nd squad: reduced"] == "2nd squad: réduit"
    assert french["Able: unit1 reduced_pinned: full -> reduced, pinned"] == (
        "Able: unité 1 réduit et cloué: entier -> réduit, cloué"
    )
    assert french["undecided"] == "toujours au combat après le dernier tour"
    assert french["Americans: start of fire"] == "Americans : début du tir"
    assert french["Charlie: reduced, pinned -> reduced"] == "Charlie: réduit, cloué -> réduit"
    _, english = _asked(client, "en", **body)
    assert english["1st squad: full"] == "1st squad: full"
    assert english["Germans 1st squad fires at Able"] == "Germans 1st squad fires at Able"
    assert english["undecided"] == "still fighting after the last turn"
    assert english["Americans: start of fire"] == "Americans: start of fire"
    replayed, again = _asked(
        client, "fr", scenario=body["scenario"], roll=answer["replay"], turns=2
    )
    assert replayed["turns"] == answer["turns"]
    assert again == french  # the dice rolled at the table: the same words


def test_the_odds_end_states_and_the_best_fire_plan_are_worded(client):
    odds, words = _asked(client, "fr", scenario=_text("ept_hedgerow"))
    for state in odds["end_states"]:
        assert words[state["result"]] in {
            "Germans gagnent",
            "Americans gagnent",
            "tous deux hors de combat en même temps",
            "toujours au combat après le dernier tour",
        }
        for line in _lines(state):
            assert not ENGLISH.search(words[line].partition(": ")[2]), words[line]
    assert words["BAR team: 1 step, neutralized"] == "BAR team: 1 pas, neutralisé"
    plan, words = _asked(client, "fr", scenario=_text("vv_village"), optimal=True)
    assert words["best_expected_effect"] == "meilleur effet attendu"
    assert words["optimal"] == "optimale"
    for step in plan["plan"]:
        for line in _lines(step["state"]):
            assert words[line] == line.replace(": full", ": entier")


def test_a_refused_scenario_is_the_apis_one_line(client):
    bad = {"scenario": 'ruleset = "ept"\n[a]\nunits = []\n'}
    response = client.post("/engage/answer?lang=en", json=bad)
    assert response.status_code == 422
    assert response.json() == client.post("/api/engage", json=bad).json()
    assert client.post("/engage/answer", json={"scenario": "", "extra": 1}).status_code == 422


def test_the_pages_route_is_not_part_of_the_api(client):
    paths = client.get("/openapi.json").json()["paths"]
    assert "/engage/answer" not in paths
    assert "/api/engage" in paths
