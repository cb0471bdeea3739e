"""Helpers shared by the test modules."""

from __future__ import annotations

import json
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import pytest

from firefight.cli import main


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Run ``firefight ARGS`` in-process: its exit code, standard output and standard error."""
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def assert_replay_reproduces(procedure: Any, data: dict[str, object], seed: int) -> None:
    """A seeded resolution, replayed with its own dice, gives the same trace and outcome, and
    that outcome has a probability."""
    inp = procedure.parse(data)
    sampled = procedure.resolve(inp, seed)
    replayed = procedure.replay(inp, sampled.replay_values())
    assert replayed.trace == sampled.trace
    assert replayed.outcome == sampled.outcome
    assert sampled.outcome in procedure.odds(inp)


def assert_odds_json_sums_to_1(
    capsys: pytest.CaptureFixture[str], ruleset: str, args: Sequence[str]
) -> None:
    """``firefight odds RULESET ARGS --json`` names the procedure and sums to exactly 1."""
    code, out, err = run_cli(capsys, "odds", ruleset, *args, "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["procedure"] == args[0]
    assert sum(Fraction(p) for p in data["distribution"].values()) == 1
