"""OBSERVATION (Day/other) against the seed's text, and its readings."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

import firefight
from firefight.cli import main
from firefight.rulesets.ept.observation import observation_table

SEED_TEXT = "OBSERVATION (Day/other) Protection +1 +2 +3 Distance 16/8 8/4 4/2"
PROC = firefight.ruleset("ept").procedure("observation")


def transcribe(text: str) -> dict[str, str]:
    words = text.split("Protection")[1].split()
    columns, cells = words[:3], words[4:7]
    assert words[3] == "Distance"
    return dict(zip(columns, cells, strict=True))


def test_every_cell_matches_the_seed():
    table = observation_table()
    seed = transcribe(SEED_TEXT)
    assert list(table.columns.labels) == list(seed)
    assert {c: table.cell_at("Distance", c).value for c in seed} == seed


@pytest.mark.parametrize(
    ("protection", "time", "limit"),
    [
        ("light", "day", 16),
        ("light", "other", 8),
        ("medium", "day", 8),
        ("medium", "other", 4),
        ("important", "day", 4),
        ("important", "other", 2),
    ],
)
def test_camouflage_is_lost_within_the_distance_and_kept_beyond(protection, time, limit):
    within = PROC.parse({"protection": protection, "time": time, "distance": limit})
    beyond = PROC.parse({"protection": protection, "time": time, "distance": limit + 1})
    assert dict(PROC.odds(within)) == {"loses_camouflage": 1}
    assert dict(PROC.odds(beyond)) == {"keeps_camouflage": 1}


def test_readings_for_normal_movement_and_no_protection():
    moving = {"protection": "important", "distance": 30, "infantry_in_normal_movement": True}
    assert PROC.resolve(PROC.parse(moving), 1).outcome == "loses_camouflage"
    never = {**moving, "normal_movement_reading": "never_observed"}
    assert PROC.resolve(PROC.parse(never), 1).outcome == "keeps_camouflage"
    bare = {"protection": "none", "distance": 30}
    assert PROC.resolve(PROC.parse(bare), 1).outcome == "loses_camouflage"


@given(
    st.sampled_from(["light", "medium", "important"]),
    st.sampled_from(["day", "other"]),
    st.integers(1, 40),
)
def test_more_protection_never_makes_a_unit_easier_to_observe(protection, time, distance):
    order = ["light", "medium", "important"]
    lost = [
        PROC.odds(PROC.parse({"protection": p, "time": time, "distance": distance}))[
            "loses_camouflage"
        ]
        for p in order
    ]
    assert lost == sorted(lost, reverse=True)


def test_cli(capsys):
    args = [
        "odds",
        "ept",
        "observation",
        "--protection",
        "medium",
        "--distance",
        "6",
        "--time",
        "other",
        "--json",
    ]
    assert main(args) == 0
    assert json.loads(capsys.readouterr().out)["distribution"] == {"keeps_camouflage": "1"}
