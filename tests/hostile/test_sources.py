"""Every text firefight reads from outside goes through ``firefight.core.files``: no module
but that one parses TOML or JSON or inflates zlib itself, except where the text is the
package's own (a shipped data file, a value it has just written), listed below with why."""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import firefight

PACKAGE = Path(firefight.__file__).parent
READER = "core/files.py"

PARSERS = {
    "json": {"load", "loads"},
    "tomllib": {"load", "loads"},
    "zlib": {"decompress", "decompressobj"},
}
"""The calls that parse or inflate, by module."""

OWN_DATA = {
    # the shipped charts of every rule set (package data, checked by the transcription tests)
    "core/chart.py:load_chart",
    # a canonical copy of a body the journal has just built (never a user's text)
    "journal/entry.py:Entry.chained",
    # a seed file firefight wrote in the player's own secrets folder
    "pbem/play.py:load_seed",
    # the file the Dask scheduler this process started writes (its address)
    "sim/cluster.py:local_cluster",
    # the engagement API's own options, dumped by its model, and its own answers (the pool's
    # JSON kept, and read again to word the page's answer)
    "web/engage.py:compute_answer",
    "web/engage.py:_found",
    "web/engage.py:router.page_answer",
}
"""Calls on the package's own data: they stay."""

BOUNDED_HERE = {
    # a map's layer inflated to at most its own width x height tiles, tighter than any limit of
    # firefight.core.files would be
    "board/tiled_reader.py:MapReader._inflate",
    # a text that parse_json has already refused for its syntax, read again only to name the
    # line and column of the error (the bounds held on the first reading)
    "board/tiled_format.py:read_json",
}
"""Calls on a user's text bounded where they are, for a reason given beside each."""


def _aliases(tree: ast.Module) -> tuple[dict[str, str], dict[str, tuple[str, str]]]:
    """Local names of the parser modules (``import json as j``) and of their functions
    (``from json import loads``)."""
    modules: dict[str, str] = {}
    functions: dict[str, tuple[str, str]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in PARSERS:
                    modules[alias.asname or alias.name] = alias.name
        elif isinstance(node, ast.ImportFrom) and node.module in PARSERS:
            for alias in node.names:
                if alias.name in PARSERS[node.module]:
                    functions[alias.asname or alias.name] = (node.module, alias.name)
    return modules, functions


class _Calls(ast.NodeVisitor):
    def __init__(self, tree: ast.Module) -> None:
        self.modules, self.functions = _aliases(tree)
        self.scope: list[str] = []
        self.found: list[tuple[str, str, int]] = []

    def _enter(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> None:
        self.scope.append(node.name)
        self.generic_visit(node)
        self.scope.pop()

    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = _enter  # noqa: N815

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        called = None
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
            module = self.modules.get(func.value.id)
            if module and func.attr in PARSERS[module]:
                called = f"{module}.{func.attr}"
        elif isinstance(func, ast.Name) and func.id in self.functions:
            called = ".".join(self.functions[func.id])
        if called:
            self.found.append((".".join(self.scope) or "<module>", called, node.lineno))
        self.generic_visit(node)


@cache
def parser_calls() -> dict[str, list[str]]:
    """Every parsing call outside the reader, by ``path:function``."""
    calls: dict[str, list[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE).as_posix()
        text = path.read_text(encoding="utf-8")
        if relative == READER or not any(module in text for module in PARSERS):
            continue  # a module that names no parser's module cannot call one
        tree = ast.parse(text)
        visitor = _Calls(tree)
        visitor.visit(tree)
        for scope, called, line in visitor.found:
            calls.setdefault(f"{relative}:{scope}", []).append(f"{called} (line {line})")
    return calls


def test_only_the_reader_parses_what_a_user_sends():
    calls = parser_calls()
    stray = {where: what for where, what in calls.items() if where not in OWN_DATA | BOUNDED_HERE}
    assert not stray, "parse through firefight.core.files instead: " + repr(stray)


def test_every_listed_exception_still_parses():
    """A reader moved onto firefight.core.files leaves its list, so none stays excused."""
    calls = parser_calls()
    stale = sorted((OWN_DATA | BOUNDED_HERE) - set(calls))
    assert not stale, f"no longer parse by themselves, remove them from the lists: {stale}"


def test_the_scan_sees_every_way_of_calling_a_parser():
    source = (
        "import json as j\nfrom tomllib import loads as l\nimport zlib\n"
        "def f(t):\n    j.loads(t)\n    l(t)\n    zlib.decompress(t)\n"
    )
    tree = ast.parse(source)
    visitor = _Calls(tree)
    visitor.visit(tree)
    assert [called for _, called, _ in visitor.found] == [
        "json.loads",
        "tomllib.loads",
        "zlib.decompress",
    ]
