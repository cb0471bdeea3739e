"""The board layer points one way: chance -> core -> board -> rulesets/<game> -> faces.

Line-of-sight rules live in their rule sets (issue 15); the board knows only the interfaces
(:class:`firefight.board.los.LosPolicy`, :class:`firefight.board.visibility.SightRule`).
Every import in every board module is read from its syntax tree, those inside functions and
``if TYPE_CHECKING:`` blocks included.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

BOARD = Path(__file__).parents[2] / "src" / "firefight" / "board"
ABOVE = ("firefight.rulesets", "firefight.cli", "firefight.web", "firefight.sim")


def imported(source: str) -> list[tuple[int, str]]:
    """Every module a source imports, with its line (relative imports resolved from the
    board package)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                module = ".".join(["firefight", "board", *filter(None, [module])])
            found.append((node.lineno, module))
            found += [(node.lineno, f"{module}.{alias.name}") for alias in node.names]
    return found


def upward(source: str) -> list[tuple[int, str]]:
    return [
        (line, name)
        for line, name in imported(source)
        if any(name == above or name.startswith(above + ".") for above in ABOVE)
    ]


@pytest.mark.parametrize("path", sorted(BOARD.glob("*.py")), ids=lambda p: p.name)
def test_no_board_module_imports_a_rule_set_or_a_face(path):
    assert upward(path.read_text(encoding="utf-8")) == []


def test_the_check_finds_imports_hidden_in_functions_and_type_checking_blocks():
    hidden = (
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from firefight.rulesets.ept.board import EptLosPolicy\n"
        "def f():\n"
        "    import firefight.rulesets.vv.board\n"
        "    from firefight import rulesets\n"
    )
    assert sorted({line for line, _ in upward(hidden)}) == [3, 5, 6]
