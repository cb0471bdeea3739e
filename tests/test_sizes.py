"""The size rule of firefight's sources (docs/architecture.md, "Layers"): no module over
:data:`MODULE_LINES` lines and no function over :data:`FUNCTION_LINES` lines unless its
docstring says why, in a sentence that starts with :data:`MARKER`.

Every module under ``src/firefight`` is read from its syntax tree; nothing is imported. A
module's length is its count of lines; a function's (a method's, a nested function's) runs from
its ``def`` line to its last line, its decorators left out. A long module gives its reason in the
module's docstring, a long function in its own.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

SRC = Path(__file__).parents[1] / "src"
MODULE_LINES = 500
"""The most lines a module has without a reason given."""
FUNCTION_LINES = 80
"""The most lines a function has without a reason given."""
MARKER = "Long because"
"""How a docstring starts the sentence that gives the reason for a long module or function."""

UNMARKED: frozenset[tuple[str, str]] = frozenset()
"""Long functions let through without the marker, by (module path under ``src``, name). Only
the upfront rule set's numba kernels may stand here."""


def marked(docstring: str | None) -> bool:
    """Whether a docstring gives the reason for its length: a sentence (at its start, or after
    a full stop, a blank line or a line break) starting with :data:`MARKER`."""
    if not docstring:
        return False
    text = " ".join(docstring.split())
    return text.startswith(MARKER) or f". {MARKER}" in text or f": {MARKER}" in text


def _functions(tree: ast.AST) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef]:
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield node


def oversized(root: Path) -> Iterator[str]:
    """Each module and function under ``root`` over its limit without a reason given, as
    ``path: what, N lines``."""
    for path in sorted(root.rglob("*.py")):
        name = path.relative_to(root).as_posix()
        text = path.read_text(encoding="utf-8")
        tree = ast.parse(text, filename=name)
        lines = len(text.splitlines())
        if lines > MODULE_LINES and not marked(ast.get_docstring(tree)):
            yield f"{name}: module, {lines} lines"
        for node in _functions(tree):
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            if length <= FUNCTION_LINES or marked(ast.get_docstring(node)):
                continue
            if (name, node.name) in UNMARKED:
                continue
            yield f"{name}:{node.lineno}: {node.name}, {length} lines"


def test_no_long_module_or_function_without_its_reason() -> None:
    found = list(oversized(SRC))
    assert not found, (
        f"over {MODULE_LINES} lines a module, or {FUNCTION_LINES} a function, without a "
        f"docstring sentence starting {MARKER!r}: split it, or say why it is one piece: "
        + "; ".join(found)
    )


def test_the_allowed_are_upfront_kernels_only() -> None:
    for path, _name in UNMARKED:
        assert path.startswith("firefight/rulesets/upfront/"), path


@pytest.mark.parametrize(
    ("docstring", "expected"),
    [
        ("Long because it is one table.", True),
        ("Build the walk. Long because numba compiles it whole.", True),
        ("Build the walk.\n\n    Long because\n    numba compiles it whole.", True),
        ("Build the walk (not long because of anything).", False),
        ("Build the walk.", False),
        (None, False),
    ],
)
def test_marker(docstring: str | None, expected: bool) -> None:
    assert marked(docstring) is expected


def test_a_long_function_without_its_reason_is_found(tmp_path: Path) -> None:
    body = "\n".join(f"    x{i} = {i}" for i in range(FUNCTION_LINES))
    package = tmp_path / "firefight"
    package.mkdir()
    (package / "long.py").write_text(
        f'"""A module."""\n\n\ndef f() -> None:\n    """Do it."""\n{body}\n', encoding="utf-8"
    )
    (package / "reason.py").write_text(
        f'"""A module."""\n\n\ndef g() -> None:\n    """Do it. Long because a table."""\n{body}\n',
        encoding="utf-8",
    )
    (package / "big.py").write_text("x = 1\n" * (MODULE_LINES + 1), encoding="utf-8")
    assert list(oversized(tmp_path)) == [
        "firefight/big.py: module, 501 lines",
        f"firefight/long.py:4: f, {FUNCTION_LINES + 2} lines",
    ]
