"""The web in French: a language choice kept in a cookie, Accept-Language as the
default, and the JSON API's messages translated only when asked."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

import firefight.web
from firefight.web.app import create_app

PAGE = "/rulesets/ept/fire"
API = "/api/rulesets/ept/fire/odds"


@pytest.fixture
def client():
    return TestClient(create_app())


def test_lang_fr_gives_the_page_in_french_and_keeps_the_choice_in_a_cookie(client):
    answer = client.get(PAGE, params={"lang": "fr"})
    assert answer.status_code == 200
    page = answer.text
    assert '<html lang="fr">' in page
    assert "Tir (MODIFICATEURS DE TIR, TABLE DE COMBAT)" in page
    assert "mouvement de la cible" in page
    assert ">marche forcée</option>" in page
    assert 'value="force_march"' in page  # the value sent stays the field's own
    assert "Épingler ces probabilités pour comparer" in page
    assert "lang=fr" in answer.headers["set-cookie"]
    again = client.get(PAGE).text  # the cookie keeps the choice
    assert '<html lang="fr">' in again


def test_the_page_offers_the_other_language_as_a_link_keeping_the_query(client):
    page = client.get(PAGE, params={"strength": "7", "lang": "fr"}).text
    assert 'hreflang="en"' in page
    assert "strength=7&amp;lang=en" in page


def test_accept_language_chooses_french_when_nothing_else_does(client):
    page = client.get("/", headers={"Accept-Language": "fr-FR,fr;q=0.9,en;q=0.5"}).text
    assert '<html lang="fr">' in page
    assert "Choisissez un jeu" in page
    assert '<html lang="en">' in client.get("/", headers={"Accept-Language": "de"}).text


def test_the_scripts_get_their_french_messages_from_the_page(client):
    page = client.get("/boards/vv_village", params={"lang": "fr"}).text
    found = re.search(r'<script type="application/json" id="i18n">(.*?)</script>', page)
    handed = json.loads(found[1])
    assert handed["blocked by {what}"] == "bloquée par {what}"
    assert "Rule sets" not in handed  # only the scripts' messages: the templates are rendered


def test_the_api_keeps_english_keys_and_translates_its_messages_only_when_asked(client):
    english = client.post(API, json={"strength": "x"})
    assert english.json()["detail"] == "'strength' must be an integer from 1 to 99 (got 'x')"
    french = client.post(API, params={"lang": "fr"}, json={"strength": "x"})
    assert french.status_code == 422
    assert french.json() == {
        "detail": "'strength' doit être un entier de 1 à 99 (reçu 'x')",
        "field": "strength",
    }
    asked = client.post(API, headers={"Accept-Language": "fr"}, json={"strength": 6})
    plain = client.post(API, json={"strength": 6})
    assert asked.json() == plain.json()  # keys and outcome codes stay English


def test_a_language_not_spoken_is_a_422_naming_the_field(client):
    answer = client.get("/", params={"lang": "de"})
    assert answer.status_code == 422
    assert answer.json() == {"detail": "'lang' must be one of en, fr (got 'de')", "field": "lang"}


def test_a_sync_route_answers_in_the_request_language(client):
    answer = client.get("/api/rulesets/nope/tables", params={"lang": "fr"})
    assert answer.status_code == 404
    assert answer.json()["detail"].startswith("'ruleset' doit être l'une des valeurs")


def test_the_french_rulebooks_fields_are_described_in_french_and_the_others_in_english(client):
    page = client.get(PAGE, params={"lang": "fr"}).text
    assert "Mouvement de la cible : tactical -1, normal -2, marche forcée -3 aux dés." in page
    vv = client.get("/rulesets/vv/ap_attack", params={"lang": "fr"}).text
    assert '<html lang="fr">' in vv
    assert "Casualty Points" in vv or "APFP" in vv  # V&V's rulebook is English: so is its help


def test_a_cached_odds_answer_is_kept_apart_for_each_language(client):
    blocked = {"strength": 6, "hindrance_hexes": 4}  # a rule error, answered and cached
    english = client.post(API, json=blocked)
    french = client.post(API, params={"lang": "fr"}, json=blocked)
    assert english.status_code == french.status_code == 422
    assert english.json()["detail"].startswith("no line of sight: 4 visual hindrance hexes")
    assert french.json()["detail"].startswith("pas de ligne de vue : 4 hexagones")
    assert client.post(API, json=blocked).json() == english.json()


def test_the_query_wins_over_the_cookie_and_the_cookie_over_accept_language(client):
    client.cookies.set("lang", "fr")
    assert '<html lang="fr">' in client.get("/", headers={"Accept-Language": "en"}).text
    assert '<html lang="en">' in client.get("/", params={"lang": "en"}).text


@pytest.mark.parametrize(
    ("path", "french"),
    [
        ("/", "Choisissez un jeu"),
        ("/history", "Vos jets"),
        ("/engage", "Deux camps tirent tour après tour"),
        ("/rulesets/vv/scenario", "Carte des menaces"),
        ("/table", "Une table partagée"),
        ("/boards/vv_village", "Juger la ligne"),
        ("/rulesets/ept/tables/combat", "Légende"),
        ("/rulesets/nope/fire", "Retour aux jeux de règles"),
    ],
)
def test_every_page_speaks_french(client, path, french):
    answer = client.get(path, params={"lang": "fr"})
    assert '<html lang="fr">' in answer.text
    assert french in answer.text


def test_a_computation_in_the_servers_pool_runs_in_the_requests_language():
    import asyncio  # noqa: PLC0415
    from concurrent.futures import ThreadPoolExecutor  # noqa: PLC0415

    from firefight.i18n import language, using  # noqa: PLC0415
    from firefight.web.compute import Calculator  # noqa: PLC0415

    pool = Calculator(processes=1)

    async def asked() -> str:
        with using("fr"):
            return await pool(language)

    try:
        # an event loop of its own, in a thread of its own: a browser test earlier in the same
        # worker may leave this thread's loop marked running (Playwright's sync API)
        with ThreadPoolExecutor(1) as thread:
            assert thread.submit(lambda: asyncio.run(asked())).result() == "fr"
    finally:
        pool.stop()


def test_the_shared_tables_journal_lines_are_handed_in_french_and_shown_through_tr(client):
    page = client.get("/table", params={"lang": "fr"}).text
    found = re.search(r'<script type="application/json" id="i18n">(.*?)</script>', page)
    handed = json.loads(found[1])
    assert handed["{player} (side {side})"] == "{player} (camp {side})"
    assert handed["{a} (side A) against {b} (side B)"] == "{a} (camp A) contre {b} (camp B)"
    script = (Path(firefight.web.__file__).parent / "static" / "table.js").read_text("utf-8")
    assert "`side ${" not in script  # every journal line goes through tr()
    assert 'tr("{who} declares resolution {index}: {procedure}; {input}"' in script


def test_the_modifier_and_fact_labels_are_handed_to_the_scripts_in_french(client):
    page = client.get(PAGE, params={"lang": "fr"}).text
    found = re.search(r'<script type="application/json" id="i18n">(.*?)</script>', page)
    handed = json.loads(found[1])
    assert handed["target in force march"] == "cible en marche forcée"
    assert handed["final attack factor"] == "facteur d'attaque final"
    script = (Path(firefight.web.__file__).parent / "static" / "app.js").read_text("utf-8")
    assert 'el("td", {}, say(m.label))' in script  # say: the handed messages first
    assert handed["combat roll (2d6)"] == "jet de combat (2d6)"
    assert "wordsOf(say(event.label), pageData.labels)" in script
    answer = client.post(
        API, params={"lang": "fr"}, json={"strength": 6, "target_movement": "force_march"}
    )
    assert answer.json()["modifiers"][0]["label"] == "target in force march"
