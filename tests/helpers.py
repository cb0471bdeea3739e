"""Helpers shared by the test modules."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import pytest
from scipy.stats import chisquare

from firefight.api import FirefightError
from firefight.chance import sample_many
from firefight.cli import main

if TYPE_CHECKING:
    from pathlib import Path


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Run ``firefight ARGS`` in-process: its exit code, standard output and standard error."""
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def refusal(tmp_path: Path, text: str) -> str:
    """The one-line error loading ``text`` as a game file gives, its ``game.toml: `` prefix
    (the file's name) checked and taken off."""
    # Imported here: loading the designed-game package registers its file loader, which no
    # other user of these helpers should find registered for it.
    from firefight.rulesets.designed import load_game  # noqa: PLC0415

    path = tmp_path / "game.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(FirefightError) as raised:
        load_game(path)
    message = str(raised.value)
    assert "\n" not in message
    assert message.startswith("game.toml: ")
    return message.removeprefix("game.toml: ")


def assert_replay_reproduces(procedure: Any, data: dict[str, object], seed: int) -> None:
    """A seeded resolution, replayed with its own dice, gives the same trace and outcome, and
    that outcome has a probability."""
    inp = procedure.parse(data)
    sampled = procedure.resolve(inp, seed)
    replayed = procedure.replay(inp, sampled.replay_values())
    assert replayed.trace == sampled.trace
    assert replayed.outcome == sampled.outcome
    assert sampled.outcome in procedure.odds(inp)


POWER_SHIFT = Fraction(1, 36)
"""The error every sampled-vs-exact test must be able to see: one 2d6 combination (2.8
percentage points) moved from the likeliest outcome to the next likeliest, the pair where a
shift is hardest to see (non-centrality ``n * shift**2 * (1/p1 + 1/p2)`` is smallest there)."""


def assert_counts_agree_with_odds(
    counts: Mapping[str, int], odds: Mapping[str, Fraction], n: int
) -> None:
    """``n`` draws counted by outcome: every outcome drawn has a probability, and a chi-square
    goodness-of-fit test does not reject the exact odds (p > 0.001), but does reject the same
    odds with :data:`POWER_SHIFT` moved between their two likeliest outcomes (p < 0.001): the
    sample is large enough to see an error of that size."""
    assert set(counts) <= set(odds)
    observed = [counts.get(o, 0) for o in odds]
    expected = [float(p) * n for p in odds.values()]
    assert chisquare(observed, expected).pvalue > 0.001
    if len(odds) > 1:
        first, second = sorted(odds, key=odds.__getitem__, reverse=True)[:2]
        moved = min(POWER_SHIFT, odds[first] / 2)
        wrong = {**odds, first: odds[first] - moved, second: odds[second] + moved}
        shifted = [float(wrong[o]) * n for o in odds]
        assert chisquare(observed, shifted).pvalue < 0.001, "too few samples to see the shift"


def assert_samples_agree_with_odds(procedure: Any, inp: Any, n: int, seed: int = 20261129) -> None:
    """``n`` seeded resolutions through the procedure's own rule agree with its exact odds."""
    counts = Counter(sample_many(lambda chance: procedure.rule(inp, chance), seed, n))
    assert_counts_agree_with_odds(counts, procedure.odds(inp), n)


def assert_odds_json_sums_to_1(
    capsys: pytest.CaptureFixture[str], ruleset: str, args: Sequence[str]
) -> None:
    """``firefight odds RULESET ARGS --json`` names the procedure and sums to exactly 1."""
    code, out, err = run_cli(capsys, "odds", ruleset, *args, "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["procedure"] == args[0]
    assert sum(Fraction(p) for p in data["distribution"].values()) == 1


def table_cells(out: str) -> list[list[str]]:
    """The rows of the Rich tables in ``out``, each cell's text whole: a cell wrapped onto
    several lines of an 80-column terminal is joined back with spaces. A row starts on a line
    whose first cell is filled (the tables' first column names the row)."""
    rows: list[list[str]] = []
    for line in out.splitlines():
        if not line.startswith("│"):
            continue
        cells = [cell.strip() for cell in line.strip().strip("│").split("│")]
        if cells[0] or not rows or len(rows[-1]) != len(cells):
            rows.append(cells)
            continue
        rows[-1] = [" ".join(p for p in (a, b) if p) for a, b in zip(rows[-1], cells, strict=True)]
    return rows


def cell_texts(out: str) -> list[str]:
    """Every cell of :func:`table_cells`, and every line of text outside the tables joined
    into one paragraph, whitespace collapsed: what an assertion reads whatever the width."""
    prose = " ".join(" ".join(line.split()) for line in out.splitlines() if line[:1] not in "│┃┏┡└")
    return [cell for row in table_cells(out) for cell in row] + [prose]


def shown(text: str, out: str) -> bool:
    """``text`` is in a cell of ``out`` (or in its text outside the tables), whatever the
    terminal's width wrapped."""
    return any(text in cell for cell in cell_texts(out))
