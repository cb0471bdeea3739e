"""Rule set and procedure names are choices too (choices are case-insensitive):
``firefight odds EPT Fire`` is ``firefight odds ept fire``; an unknown name is still refused."""

from __future__ import annotations

import json

import pytest

from tests.helpers import run_cli as run


def test_rule_set_and_procedure_names_are_read_in_any_case(capsys: pytest.CaptureFixture[str]):
    code, lower, _ = run(capsys, "odds", "ept", "fire", "--strength", "6", "--json")
    assert code == 0
    code, upper, err = run(capsys, "odds", "EPT", "Fire", "--strength", "6", "--json")
    assert (code, err) == (0, "")
    assert json.loads(upper) == json.loads(lower)


def test_an_unknown_rule_set_in_capitals_is_still_refused(capsys: pytest.CaptureFixture[str]):
    code, _, err = run(capsys, "odds", "EPX", "fire")
    assert code == 2
    assert err.strip() == (
        "error: 'ruleset' must be one of ept, percentile, tirs, upfront, vv (got 'EPX'); "
        "did you mean 'ept'?"
    )
