"""The board pages choose nothing by a game's id: what a board's page says of its rule set
(the fire procedure a line opens, its help) comes from the contract's board hooks. The Python
modules are held to the same by tests/test_imports.py (no module outside a game's package
imports it or names its id in code)."""

from __future__ import annotations

from pathlib import Path

import pytest

from firefight.rulesets import infos

SRC = Path(__file__).parents[2] / "src" / "firefight"
TEMPLATES = [SRC / "web" / "templates" / name for name in ("board.html", "index.html")]
GAMES = sorted(info.id for info in infos())


def chosen_by_game(text: str) -> list[str]:
    """The games a template compares a rule set's id with."""
    return [game for game in GAMES if f'ruleset == "{game}"' in text]


@pytest.mark.parametrize("path", TEMPLATES, ids=lambda p: p.name)
def test_the_board_templates_choose_nothing_by_a_games_id(path: Path) -> None:
    assert chosen_by_game(path.read_text(encoding="utf-8")) == []


def test_the_check_finds_a_choice_by_a_games_id() -> None:
    assert chosen_by_game('{% if board.ruleset == "ept" %}') == ["ept"]
