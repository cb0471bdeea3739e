"""The short names of Up Front's outcomes: a group's tally read back from its code, named by
its losses with its VP beside, and the CLI's result column giving the name, not the code."""

from __future__ import annotations

from itertools import product

import pytest

from firefight.rulesets.upfront.fire import FIRE, RESOLUTION
from firefight.rulesets.upfront.firepower import UpFrontFire
from firefight.rulesets.upfront.outcomes import outcome_names, read_tally
from firefight.rulesets.upfront.resolution import MAN_RESULTS, Tally
from tests.helpers import run_cli

GROUP = {"fire_cards": (67, 70), "targets": ("us-rifle", "us-bar")}


def test_every_small_tally_reads_back_from_its_text():
    for counts in product(range(3), range(3), range(3), range(2), range(2), range(2)):
        tally = Tally(counts)
        for rout_vp in (0, 1):
            assert read_tally(tally.text(rout_vp)) == (tally, tally.vp_with(rout_vp))


def test_a_group_outcome_is_named_by_its_losses_with_its_vp_beside():
    assert outcome_names(Tally((1, 0, 2, 0, 0, 0)).text()) == (
        "1 KIA, 2 pinned",
        "2 VP to the attacker",
    )
    name, meaning = outcome_names(Tally((0, 0, 0, 0, 0, 1)).text())  # type: ignore[misc]
    assert name == "no losses; attack ended"
    assert meaning.startswith("0 VP to the attacker; a weapon malfunction ended the attack")


def test_one_mans_result_is_its_own_name():
    for result in MAN_RESULTS:
        assert outcome_names(result) is None
        assert FIRE.named(result) is None
        assert result in FIRE.meanings


def test_every_outcome_of_a_group_attack_has_a_short_name_and_a_meaning():
    odds = FIRE.odds(UpFrontFire.model_validate(GROUP))
    assert sum(odds.values()) == 1
    for outcome in odds:
        name, meaning = FIRE.named(outcome) or ("", "")
        assert name
        assert meaning
        assert name != meaning
        assert len(name) < len(outcome)
    assert RESOLUTION.names is FIRE.names


def test_the_clis_result_column_is_the_short_name_and_differs_from_the_meaning(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setenv("COLUMNS", "200")
    code, out, _ = run_cli(
        capsys, "odds", "upfront", "fire", "--fire-cards", "67,70", "--targets", "us-rifle,us-bar"
    )
    assert code == 0, out
    odds = out[out.index("Odds") :]
    rows = [line for line in odds.splitlines() if line.startswith("│ ") and "VP" in line]
    assert rows
    for row in rows:
        result, meaning = (cell.strip() for cell in row.strip("│").split("│")[:2])
        assert result != meaning
        assert "berserk 0" not in result
    assert "│ 2 KIA " in odds


def test_the_json_answers_carry_each_group_outcomes_name_and_meaning():
    """``--json`` and the web API name each group outcome as the CLI's result column does
    (``names``), in the request's language; a procedure whose codes are their names has none."""
    from fastapi.testclient import TestClient  # noqa: PLC0415 - the web only where tested

    from firefight.i18n import using  # noqa: PLC0415
    from firefight.web.app import create_app  # noqa: PLC0415

    client = TestClient(create_app())
    body = {"fire_cards": "67,70", "targets": "us-rifle,us-bar"}
    odds = client.post("/api/rulesets/upfront/fire/odds", json=body).json()
    assert set(odds["names"]) == set(odds["distribution"])
    for code, named in odds["names"].items():
        assert tuple(named) == FIRE.named(code)
    french = client.post("/api/rulesets/upfront/fire/odds?lang=fr", json=body).json()
    with using("fr"):
        assert all(tuple(n) == FIRE.named(c) for c, n in french["names"].items())
    rolled = client.post("/api/rulesets/upfront/fire/resolve", json={"input": body, "seed": 3})
    assert list(rolled.json()["names"]) == [rolled.json()["outcome"]]
    ept = client.post("/api/rulesets/ept/fire/odds", json={"strength": 6}).json()
    assert "names" not in ept
