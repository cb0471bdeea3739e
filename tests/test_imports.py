"""The import graph of firefight: no circle, no arrow up the layers, no game named outside its
own package (docs/architecture.md, "Layers").

Every module under ``src/firefight`` is read from its syntax tree; nothing is imported. Imports
inside functions and ``if TYPE_CHECKING:`` blocks count as any other, and relative imports are
resolved. ``from a import b`` imports the module ``a.b`` when there is one, else ``a``; importing
``a.b.c`` runs the packages ``a`` and ``a.b`` too (their ``__init__``), so they count as imported,
except the importer's own packages, which Python has run before it.
"""

from __future__ import annotations

import ast
import re
import tomllib
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
SRC = ROOT / "src"
GAMES = tuple(
    sorted(
        tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
            "entry-points"
        ]["firefight.rulesets"]
    )
)
"""The games' ids, as the registry's entry points name them."""
GAME = "firefight.rulesets.<game>"
"""The layer entry that stands for every game's package, ``firefight.rulesets.<id>``."""

LAYERS: list[tuple[str, ...]] = [
    ("firefight.digits",),  # integers as a player types them; imports nothing of firefight
    ("firefight.translation",),  # the active language and the translation of a message
    ("firefight.errors",),  # the one-line user errors, worded in the active language
    ("firefight.i18n",),  # the language a user asks for, checked; the catalogues' messages
    ("firefight.chance",),
    ("firefight.core",),
    ("firefight.board",),
    # the shared rule-set modules (contract, registry), and `firefight/__init__.py`, the
    # package's own door to the registry (`firefight.ruleset("ept")`, `__version__`)
    ("firefight.rulesets", "firefight"),
    ("firefight.api",),  # what a rule set may import (docs/api.md): the layers below re-exported
    (GAME,),
    ("firefight.rulesets.designed",),  # games a designer writes as one TOML file, a game's peer
    ("firefight.sim",),
    ("firefight.faces",),  # the JSON shapes the CLI and the web give (pbem sends them too)
    ("firefight.journal",),
    ("firefight.pbem",),
    ("firefight.cli", "firefight.web", "firefight.__main__"),
]
"""The layers, bottom first: a module imports only from its own layer or those below. An entry
covers a package and every module in it (the most specific entry wins); ``firefight`` stands
for ``firefight/__init__.py`` alone."""

# Today's offenders, which other branches of the "one contract per game" refactor remove: each
# entry must still be found (a stale one fails, so these lists only shrink); the lead empties
# them once the branches are merged.
KNOWN_CYCLES: list[frozenset[str]] = []
KNOWN_UPWARD: set[tuple[str, str]] = set()
KNOWN_GAME_NAMED: set[tuple[str, str]] = set()
"""``(module, game)``: the game's package imported, or its id quoted (``'vv'``) in code."""

EXAMPLE_DATA: set[tuple[str, str]] = {
    # the sample journal of `firefight journal import` (its loader's example): an entry's
    # payload names the game it was played in, as a player's journal does; the journal reads
    # nothing from it. This list stays: an example is no choice of behaviour.
    ("firefight.journal.transfer", "'ept'"),
}
"""Game ids that are data of an example, not a choice made by the code."""


# --- reading the graph ----------------------------------------------------------------------


def module_name(path: Path, src: Path = SRC) -> str:
    parts = list(path.relative_to(src).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def sources(src: Path = SRC) -> dict[str, tuple[str, bool]]:
    """Every module under ``src/firefight``: its source and whether it is a package."""
    return {
        module_name(path, src): (path.read_text(encoding="utf-8"), path.name == "__init__.py")
        for path in sorted((src / "firefight").rglob("*.py"))
    }


def _packages(module: str) -> list[str]:
    """``a.b.c`` -> ``[a, a.b]``."""
    parts = module.split(".")
    return [".".join(parts[:end]) for end in range(1, len(parts))]


def _found(name: str, known: Iterable[str]) -> str | None:
    """The module of ``known`` that ``name`` is or lies in (``a.b.f`` -> ``a.b``)."""
    known = set(known)
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name or None


def imported(
    module: str, source: str, is_package: bool, known: set[str]
) -> Iterator[tuple[int, str]]:
    """``(line, module)`` for every module of ``known`` that ``module`` imports."""
    here = module if is_package else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(source)):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = here.split(".")
                base = ".".join([*parts[: len(parts) - node.level + 1], *filter(None, [base])])
            names = [
                f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base
                for alias in node.names
            ]
        for name in names:
            target = _found(name, known)
            if target is None or target == module:
                continue
            yield node.lineno, target
            own = {module, *_packages(module)}
            yield from ((node.lineno, p) for p in _packages(target) if p not in own and p in known)


def graph(modules: Mapping[str, tuple[str, bool]]) -> dict[str, set[str]]:
    known = set(modules)
    return {
        name: {target for _line, target in imported(name, source, package, known)}
        for name, (source, package) in modules.items()
    }


def cycles(edges: Mapping[str, set[str]]) -> list[frozenset[str]]:
    """The import circles: the strongly connected components of more than one module (Tarjan's
    algorithm, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, targets = work[-1]
            target = next(targets, None)
            if target is not None:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(edges.get(target, ())))))
                elif target in on_stack:
                    low[node] = min(low[node], index[target])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(frozenset(component))
    return found


def circle(component: frozenset[str], edges: Mapping[str, set[str]]) -> list[str]:
    """One circle through a component, as the modules met: ``[a, b, c, a]``."""
    start = min(component)
    paths = {start: [start]}
    queue = [start]
    while queue:
        node = queue.pop(0)
        for target in sorted(edges[node] & component):
            if target == start:
                return [*paths[node], start]
            if target not in paths:
                paths[target] = [*paths[node], target]
                queue.append(target)
    return sorted(component)


def game_of(module: str) -> str | None:
    parts = module.split(".")
    if len(parts) > 2 and parts[1] == "rulesets" and parts[2] in GAMES:
        return parts[2]
    return None


def layer_of(module: str) -> int | None:
    if game_of(module):
        return LAYERS.index((GAME,))
    best: tuple[int, int] | None = None
    for position, entries in enumerate(LAYERS):
        for entry in entries:
            covers = module == entry or (entry != "firefight" and module.startswith(entry + "."))
            if covers and (best is None or len(entry) > best[0]):
                best = (len(entry), position)
    return best[1] if best else None


def upward(edges: Mapping[str, set[str]]) -> set[tuple[str, str]]:
    return {
        (module, target)
        for module, targets in edges.items()
        for target in targets
        if (layer_of(module) or 0) < (layer_of(target) or 0)
    }


def _documentation(tree: ast.AST) -> set[int]:
    """The ``id`` of every string that stands alone as a statement: a docstring, a module's,
    a class's, a function's or an attribute's."""
    return {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    }


def games_named(module: str, source: str, is_package: bool, known: set[str]) -> set[str]:
    """The games a module outside their packages imports (their package's name) or names in
    code: by their id (the id quoted), or a module of theirs by its path (``"...ept:INFO"``)."""
    mine = game_of(module)
    named = set()
    for _line, target in imported(module, source, is_package, known):
        game = game_of(target)
        if game and game != mine:
            named.add(f"firefight.rulesets.{game}")
    tree = ast.parse(source)
    documentation = _documentation(tree)
    for node in ast.walk(tree):
        if (
            not isinstance(node, ast.Constant)
            or not isinstance(node.value, str)
            or id(node) in documentation
        ):
            continue
        if node.value in GAMES and node.value != mine:
            named.add(repr(node.value))
        game = game_of(re.split(r"[:\s]", node.value, maxsplit=1)[0])
        if game and game != mine:  # a game's module named by its path ("...ept:INFO")
            named.add(f"firefight.rulesets.{game}")
    return named


def named_games(modules: Mapping[str, tuple[str, bool]]) -> set[tuple[str, str]]:
    known = set(modules)
    return {
        (module, game)
        for module, (source, package) in modules.items()
        for game in games_named(module, source, package, known)
    }


# --- the standing checks --------------------------------------------------------------------

MODULES = sources()
EDGES = graph(MODULES)


def test_every_module_has_a_layer():
    assert [module for module in MODULES if layer_of(module) is None] == []


def test_no_import_circle():
    found = set(cycles(EDGES))
    new = [" -> ".join(circle(c, EDGES)) for c in found - set(KNOWN_CYCLES)]
    assert new == [], "import circles"
    stale = [sorted(c) for c in KNOWN_CYCLES if c not in found]
    assert stale == [], "KNOWN_CYCLES lists circles that are gone: take them out"


def test_no_arrow_up_the_layers():
    found = upward(EDGES)
    assert sorted(found - KNOWN_UPWARD) == [], "imports from a higher layer"
    stale = sorted(KNOWN_UPWARD - found)
    assert stale == [], "KNOWN_UPWARD lists arrows that are gone: take them out"


def test_no_module_outside_a_game_names_it():
    found = named_games(MODULES)
    allowed = KNOWN_GAME_NAMED | EXAMPLE_DATA
    assert sorted(found - allowed) == [], "games named outside their packages"
    stale = sorted(allowed - found)
    assert stale == [], "KNOWN_GAME_NAMED or EXAMPLE_DATA lists offences that are gone"


def test_the_chance_engine_imports_nothing_of_core_or_above():
    chance = [m for m in MODULES if m == "firefight.chance" or m.startswith("firefight.chance.")]
    above = LAYERS.index(("firefight.core",))
    assert sorted((m, t) for m in chance for t in EDGES[m] if (layer_of(t) or 0) >= above) == []


# --- the checks check -----------------------------------------------------------------------

HIDDEN = {
    "firefight": ("", True),
    "firefight.board": ("", True),
    "firefight.board.hexes": ("", False),
    "firefight.board.los": (
        "from typing import TYPE_CHECKING\n"
        "from . import hexes\n"
        "if TYPE_CHECKING:\n"
        "    from firefight.rulesets.ept.board import EptLosPolicy\n"
        "def f():\n"
        "    import firefight.rulesets.vv.board\n"
        "    from ..rulesets import registry\n"
        "    return {'game': 'vv'}\n",
        False,
    ),
    "firefight.rulesets": ("from firefight.rulesets.registry import ruleset\n", True),
    "firefight.rulesets.registry": ('"""Finds "vv"."""\nfrom firefight.board import los\n', False),
    "firefight.rulesets.ept": ("", True),
    "firefight.rulesets.ept.board": ('EPT = "ept"\n"""The id, "ept"."""\n', False),
    "firefight.rulesets.vv": ("", True),
    "firefight.rulesets.vv.board": ("from firefight.rulesets.ept import board\n", False),
}


def test_the_check_finds_imports_hidden_in_functions_type_checking_blocks_and_relative():
    known = set(HIDDEN)
    source, package = HIDDEN["firefight.board.los"]
    found = sorted(imported("firefight.board.los", source, package, known))
    assert found == [
        (2, "firefight.board.hexes"),
        (4, "firefight.rulesets"),
        (4, "firefight.rulesets.ept"),
        (4, "firefight.rulesets.ept.board"),
        (6, "firefight.rulesets"),
        (6, "firefight.rulesets.vv"),
        (6, "firefight.rulesets.vv.board"),
        (7, "firefight.rulesets"),
        (7, "firefight.rulesets.registry"),
    ]
    edges = graph(HIDDEN)
    assert ("firefight.board.los", "firefight.rulesets.registry") in upward(edges)
    assert ("firefight.board.los", "firefight.rulesets.vv.board") in upward(edges)


def test_the_check_finds_a_circle_and_names_its_modules():
    edges = graph(HIDDEN)
    assert cycles(edges) == [
        frozenset({"firefight.board.los", "firefight.rulesets", "firefight.rulesets.registry"})
    ]
    assert circle(cycles(edges)[0], edges) == [
        "firefight.board.los",
        "firefight.rulesets.registry",
        "firefight.board.los",
    ]


def test_the_check_finds_a_game_imported_or_named_in_code_not_in_a_docstring():
    assert named_games(HIDDEN) == {
        ("firefight.board.los", "firefight.rulesets.ept"),
        ("firefight.board.los", "firefight.rulesets.vv"),
        ("firefight.board.los", "'vv'"),
        ("firefight.rulesets.vv.board", "firefight.rulesets.ept"),
    }


def test_the_check_finds_a_games_module_named_by_its_path():
    source = (
        'TARGETS = ("firefight.rulesets.tirs:INFO", "firefight.rulesets.vv.fire")\n'
        '"""As "firefight.rulesets.ept:INFO" names it."""\n'
        'OWN = "firefight.rulesets.registry"\n'
    )
    found = games_named("firefight.rulesets.registry", source, False, set())
    assert found == {"firefight.rulesets.tirs", "firefight.rulesets.vv"}


@pytest.mark.parametrize(
    ("module", "layer"),
    [
        ("firefight", ("firefight.rulesets", "firefight")),
        ("firefight.rulesets.vv.ap", (GAME,)),
        ("firefight.rulesets.boards", ("firefight.rulesets", "firefight")),
        ("firefight.board.los", ("firefight.board",)),
        ("firefight.api", ("firefight.api",)),
        ("firefight.__main__", ("firefight.cli", "firefight.web", "firefight.__main__")),
    ],
)
def test_a_module_sits_in_its_most_specific_layer(module, layer):
    assert LAYERS[layer_of(module) or 0] == layer
