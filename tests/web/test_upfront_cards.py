"""The card table page of Up Front's fire (``/rulesets/upfront/fire/cards``) served without a
browser: the sample hand opens with odds, a card played through the form (``play``) changes
them exactly as the fire procedure's odds do, bad input is one line, and a procedure without a
card view is a 404."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from firefight.rulesets.cardtable import toggled
from firefight.rulesets.upfront.cardview import SAMPLE
from firefight.rulesets.upfront.fire import FIRE
from firefight.rulesets.upfront.firepower import UpFrontFire
from firefight.rulesets.upfront.outcomes import outcome_names
from firefight.web.app import create_app

PAGE = "/rulesets/upfront/fire/cards"
ROW = re.compile(r'<span class="name">([^<]*)</span>.*?<span class="fraction">([^<]*)</span>', re.S)


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app())


def _losses(html: str) -> dict[str, str]:
    part = html[html.index('id="losses"') : html.index("</section>", html.index('id="losses"'))]
    return dict(ROW.findall(part))


def _expected(fire_cards: tuple[int, ...]) -> dict[str, str]:
    data = {**SAMPLE, "rr": int(SAMPLE["rr"]), "fire_cards": fire_cards}
    odds = FIRE.odds(UpFrontFire.model_validate(data))
    return {(outcome_names(o) or (o, ""))[0]: str(p) for o, p in odds.items()}


def test_the_sample_hand_opens_with_its_cards_and_the_groups_odds(client: TestClient):
    page = client.get(PAGE)
    assert page.status_code == 200
    assert page.text.count('class="action-card') == 6
    assert "ILLUSTRATIVE deck" in page.text
    assert _losses(page.text) == _expected((67, 70))
    assert "(str)" not in page.text


def test_a_card_played_through_the_form_gives_the_fire_procedures_odds(client: TestClient):
    query = "&".join(f"{k}={v}" for k, v in SAMPLE.items())
    page = client.get(f"{PAGE}?{query}&play=64")
    assert page.status_code == 200
    assert 'value="67,70,64"' in page.text
    assert _losses(page.text) == _expected((67, 70, 64))


def test_cards_past_the_groups_fp_are_refused_in_one_line_under_the_cards(client: TestClient):
    query = "&".join(
        f"{k}={v}" for k, v in {**SAMPLE, "hand": "72,73", "fire_cards": "72,73"}.items()
    )
    page = client.get(f"{PAGE}?{query}")
    assert page.status_code == 422
    assert "FIRE cards totalling at most the group&#39;s FP (9)" in page.text
    assert page.text.count('class="action-card') == 2


@pytest.mark.parametrize(
    ("query", "status", "words"),
    [
        ("play=x", 422, "&#39;play&#39; must be an inventory number"),
        ("deck=/etc/passwd", 422, "the server reads no file path"),
        ("rr=9", 422, "&#39;rr&#39;"),
    ],
)
def test_bad_input_is_one_line(client: TestClient, query: str, status: int, words: str):
    page = client.get(f"{PAGE}?{query}")
    assert page.status_code == status
    assert words in page.text


def test_a_procedure_without_a_card_view_is_not_found(client: TestClient):
    assert client.get("/rulesets/upfront/range/cards").status_code == 404
    assert client.get("/rulesets/ept/fire/cards").status_code == 404


def test_a_click_plays_a_card_or_takes_it_back():
    assert toggled("67,70", 64) == "67,70,64"
    assert toggled("67, 70,64", 70) == "67,64"
    assert toggled("", 5) == "5"
