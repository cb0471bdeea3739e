"""Page 1's "Target is AFV? -> AFV Unboxed Resolution (P4)": a firepower attack on an AFV is
resolved by page 4's own rule (:mod:`firefight.rulesets.upfront.afv`), exactly over the
cards the FIRE cards left, in the CLI and on the web."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest
from fastapi.testclient import TestClient

from firefight.chance import exact
from firefight.errors import InputError
from firefight.rulesets.registry import register
from firefight.rulesets.upfront import RULESET
from firefight.rulesets.upfront.afv import AFV
from firefight.rulesets.upfront.fire import FIRE, UpFrontFire, fire_strength
from firefight.web.app import create_app
from tests.helpers import assert_replay_reproduces, run_cli

PILE = "1,2,3,4,5,6,7,8,9,10,11,12,13,14"


def _fire(**fields: object) -> UpFrontFire:
    return FIRE.parse({"targets": "ger-pz4", "fire_cards": "67", **fields})


def _by_hand(inp: UpFrontFire, pile: list[int]) -> dict[str, Fraction]:
    """Page 4 unboxed, counted card by card: FR = FFS + RN against CE 6 then MORALE 5 (the
    illustrative Pz IV), each card of the pile equally likely."""
    deck = inp.deck_data()
    ffs = fire_strength(inp).ffs
    counts: Counter[str] = Counter()
    for number in pile:
        fr = ffs + deck.card(number).rn.value
        counts[
            "commander KIA, buttoned up" if fr > 6 else "buttoned up" if fr > 5 else "no effect"
        ] += 1
    return {k: Fraction(v, len(pile)) for k, v in counts.items()}


def test_fire_at_an_afv_is_page_4_unboxed_counted_card_by_card():
    inp = _fire(pool="omniscient", pile=PILE)
    got = dict(FIRE.odds(inp))
    assert got == _by_hand(inp, [int(n) for n in PILE.split(",")])
    assert set(got) == {"commander KIA, buttoned up", "buttoned up", "no effect"}


def test_fire_at_an_afv_equals_the_afv_procedure_at_the_fires_ffs():
    """The FIRE cards leave the pool: the afv procedure with them seen gives the same odds."""
    inp = _fire(rr=3)
    ffs = fire_strength(inp).ffs
    page4 = AFV.odds(AFV.parse({"afv": "ger-pz4", "ffs": ffs, "attack": "firepower", "seen": "67"}))
    assert dict(FIRE.odds(inp)) == dict(page4)
    assert dict(FIRE.odds(inp)) == dict(exact(lambda chance: FIRE.rule(inp, chance)))
    assert sum(FIRE.odds(inp).values()) == 1


def test_a_pinned_afv_is_buttoned_up_and_page_4_changes_nothing():
    assert dict(FIRE.odds(_fire(pinned_targets="ger-pz4"))) == {"no effect": 1}


def test_fire_at_an_afv_replays_and_samples():
    assert_replay_reproduces(FIRE, {"targets": "ger-pz4", "fire_cards": "67"}, seed=5)
    replay = FIRE.replay(_fire(), ["1"])
    assert any("AFV Unboxed Resolution (page 4)" in str(e) for e in replay.trace)


def test_an_afv_is_fired_at_alone_and_page_3_readings_keep_their_defaults():
    with pytest.raises(InputError, match=r"^'targets' must be men, or one AFV alone"):
        FIRE.odds(_fire(targets="ger-pz4,us-rifle"))
    with pytest.raises(
        InputError, match=r"^'panic' must be panic_column when the target is an AFV"
    ):
        FIRE.odds(_fire(panic="rout_check"))
    with pytest.raises(InputError, match=r"^'malfunction' must be end_attack when the target"):
        FIRE.odds(_fire(malfunction="page6"))


def test_the_cli_fires_at_an_afv(capsys):
    register(RULESET)
    code, out, err = run_cli(
        capsys, "odds", "upfront", "fire", "--targets", "ger-pz4", "--fire-cards", "67", "--json"
    )
    assert code == 0, err
    assert "not implemented" not in out + err
    assert "buttoned up" in out


def test_the_web_fires_at_an_afv():
    register(RULESET)
    web = TestClient(create_app())
    answer = web.post(
        "/api/rulesets/upfront/fire/odds", json={"targets": "ger-pz4", "fire_cards": "67"}
    )
    assert answer.status_code == 200, answer.text
    odds = {k: Fraction(v) for k, v in answer.json()["distribution"].items()}
    assert odds == dict(FIRE.odds(_fire()))
    bad = web.post(
        "/api/rulesets/upfront/fire/odds",
        json={"targets": "ger-pz4", "fire_cards": "67", "banzai": True},
    )
    assert bad.status_code == 422
    assert "'banzai' must be false when the target is an AFV" in bad.text
