"""Pages 2 and 4 on the web: the CLI's odds, and one-line 422s for bad input."""

from __future__ import annotations

from fractions import Fraction

from fastapi.testclient import TestClient

from firefight.rulesets.registry import register
from firefight.rulesets.upfront import RULESET
from firefight.web.app import create_app


def client() -> TestClient:
    register(RULESET)
    return TestClient(create_app())


def test_the_web_gives_ordnance_and_afv_odds_exactly():
    web = client()
    answer = web.post("/api/rulesets/upfront/ordnance/odds", json={"rr": 3})
    assert answer.status_code == 200
    odds = answer.json()["distribution"]
    assert odds["ordnance weapon broken"] == "1/27"
    assert sum(Fraction(p) for p in odds.values()) == 1
    answer = web.post("/api/rulesets/upfront/afv/odds", json={"ffs": 6, "flanked": True})
    assert answer.json()["distribution"]["AFV KIA"] == "58/81"


def test_a_bad_afv_on_the_web_is_a_one_line_422():
    answer = client().post("/api/rulesets/upfront/afv/odds", json={"ffs": 5, "afv": "ger-lmg"})
    assert answer.status_code == 422
    assert "'afv' must be an AFV of men.toml: ger-pz4 (got 'ger-lmg')" in answer.text
