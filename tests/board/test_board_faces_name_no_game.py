"""The shared board code and the board faces name no game: they import no rule set's package
and hold no rule set's id as a value (docstrings aside), so that a rule set is known to them
through the registry and its contract's board hooks only. Every import is read from the
syntax tree, those inside functions and ``if TYPE_CHECKING:`` blocks included."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from firefight.rulesets import rulesets
from tests.board.test_layers import imported

SRC = Path(__file__).parents[2] / "src" / "firefight"
SHARED = sorted(
    [
        *(SRC / "board").glob("*.py"),
        *(
            SRC / "rulesets" / name
            for name in ("boards.py", "board_fire.py", "fire_feed.py", "worked_example.py")
        ),
        SRC / "cli" / "board.py",
        SRC / "cli" / "demo.py",
        SRC / "web" / "boardsvg.py",
    ]
)
TEMPLATES = [SRC / "web" / "templates" / name for name in ("board.html", "index.html")]
GAMES = sorted({r.id for r in rulesets()} | {"ept", "vv", "tirs", "upfront", "percentile"})


def _games_imported(source: str) -> list[tuple[int, str]]:
    return [
        (line, name)
        for line, name in imported(source)
        for game in GAMES
        if name == f"firefight.rulesets.{game}" or name.startswith(f"firefight.rulesets.{game}.")
    ]


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
        else:
            continue
        for i, statement in enumerate(body):  # a docstring, and an attribute's after it
            if (
                isinstance(statement, ast.Expr)
                and isinstance(statement.value, ast.Constant)
                and (i == 0 or isinstance(body[i - 1], ast.Assign | ast.AnnAssign))
            ):
                found.add(id(statement.value))
    return found


def _game_ids(source: str) -> list[tuple[int, str]]:
    tree = ast.parse(source)
    skipped = _docstrings(tree)
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and node.value in GAMES
        and id(node) not in skipped
    ]


@pytest.mark.parametrize("path", SHARED, ids=lambda p: str(p.relative_to(SRC)))
def test_the_shared_board_code_imports_no_game(path: Path) -> None:
    assert _games_imported(path.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize("path", SHARED, ids=lambda p: str(p.relative_to(SRC)))
def test_the_shared_board_code_holds_no_game_id(path: Path) -> None:
    assert _game_ids(path.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize("path", TEMPLATES, ids=lambda p: p.name)
def test_the_board_templates_choose_nothing_by_a_games_id(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert [game for game in GAMES if f'ruleset == "{game}"' in text] == []


def test_the_checks_find_a_game_imported_or_named() -> None:
    hidden = (
        '"""A docstring naming "ept" is fine."""\n'
        "def f(board):\n"
        "    from firefight.rulesets.vv.board import VV_LOS\n"
        '    return board.ruleset == "ept"\n'
    )
    assert _games_imported(hidden) == [
        (3, "firefight.rulesets.vv.board"),
        (3, "firefight.rulesets.vv.board.VV_LOS"),
    ]
    assert _game_ids(hidden) == [(4, "ept")]
