"""Pages 7 and 8's procedures are registered in the rule set and behave as every procedure
must: odds summing to exactly 1, a seeded resolution replayed by its own cards, and every
resolved outcome possible; the documented CLI examples run."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from firefight.cli import main
from firefight.rulesets.registry import register
from firefight.rulesets.upfront import RULESET

NAMES = ["overrun", "infiltration", "close_combat", "close_combat_afv", "morale_check"]
DOC = Path(__file__).resolve().parents[3] / "docs" / "upfront.md"


@pytest.mark.parametrize("name", NAMES)
def test_each_page_7_and_8_procedure_is_registered_and_replays_its_own_cards(name):
    procedure = RULESET.procedure(name)
    inp = procedure.parse({})
    odds = procedure.odds(inp)
    assert sum(odds.values()) == 1
    for seed in range(5):
        resolution = procedure.resolve(inp, seed)
        assert odds[resolution.outcome] > 0
        cards = [e.value for e in resolution.trace if e.kind == "draw"]
        assert procedure.replay(inp, cards).outcome == resolution.outcome


def _examples() -> list[list[str]]:
    text = DOC.read_text(encoding="utf-8")
    start = text.index("## Page 7")
    blocks = re.findall(r"```sh\n(.*?)```", text[start:], re.S)
    return [shlex.split(line)[1:] for block in blocks for line in block.splitlines() if line]


@pytest.mark.parametrize("args", _examples(), ids=lambda a: " ".join(a[:3]))
def test_the_documented_cli_examples_run(args, capsys):
    register(RULESET)
    code = main(args)
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert "ILLUSTRATIVE" in captured.out
