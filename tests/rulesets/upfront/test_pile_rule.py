"""An omniscient pool needs its draw pile, and an observer knows neither the pile nor the
opponent's hand: one rule, in the input model, so the Python API, the CLI and the web refuse
the same input with the same line."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from pydantic import ValidationError

from firefight.core.inputs import validate
from firefight.errors import InputError
from firefight.rulesets.upfront.fire import FIRE, UpFrontFire
from firefight.web.app import create_app
from tests.helpers import run_cli

EMPTY_PILE = "'pile' must be the draw pile's inventory numbers with pool = omniscient (got '')"


def test_the_python_api_refuses_an_omniscient_pool_without_its_pile() -> None:
    with pytest.raises(ValidationError, match="pool = omniscient"):
        UpFrontFire(pool="omniscient", fire_cards="64")
    with pytest.raises(InputError) as caught:
        validate(UpFrontFire, {"pool": "omniscient", "fire_cards": "64"})
    assert str(caught.value) == EMPTY_PILE


@pytest.mark.parametrize("pile", ["", " , ,", " "])
def test_a_pile_of_commas_and_blanks_is_no_pile(pile: str) -> None:
    with pytest.raises(InputError, match="with pool = omniscient"):
        FIRE.parse({"pool": "omniscient", "pile": pile, "fire_cards": "64"})


@pytest.mark.parametrize("field", ["pile", "opponent_hand"])
def test_an_observer_knows_neither_the_pile_nor_the_opponents_hand(field: str) -> None:
    with pytest.raises(InputError) as caught:
        FIRE.parse({field: "3", "fire_cards": "64"})
    message = f"'{field}' must be empty with pool = observer (omniscient only) (got '3')"
    assert str(caught.value) == message


def test_an_omniscient_pool_with_its_pile_is_accepted() -> None:
    inp = FIRE.parse({"pool": "omniscient", "pile": "1,2,3", "fire_cards": "64"})
    assert inp.pile == (1, 2, 3)


def test_the_web_and_the_cli_refuse_it_with_the_same_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    client = TestClient(create_app())
    body = {"pool": "omniscient", "fire_cards": "64"}
    answer = client.post("/api/rulesets/upfront/fire/odds", json=body)
    assert 400 <= answer.status_code < 500
    assert EMPTY_PILE in answer.text
    code, out, err = run_cli(
        capsys, "odds", "upfront", "fire", "--pool", "omniscient", "--fire-cards", "64"
    )
    assert (code, out) == (2, "")
    assert err.count("\n") == 1
    assert "pool = omniscient" in err
