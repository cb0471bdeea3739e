"""The layers of engagements and sweeps: the simulation and its faces import no game's package
(they find games through the registry), and the simulation's modules import one another one
way (no cycle, counting imports inside functions and for type checking too)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src"
PACKAGE = SRC / "firefight"
SIM = PACKAGE / "sim"
GAMES = sorted(
    p.name for p in (PACKAGE / "rulesets").iterdir() if p.is_dir() and (p / "__init__.py").exists()
)
FACES = [PACKAGE / "cli" / "engage.py", PACKAGE / "cli" / "sweep.py", PACKAGE / "web" / "engage.py"]


def _module(path: Path) -> str:
    parts = path.relative_to(SRC).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    """Every module ``path`` imports, wherever the import is (``from a import b`` gives ``a.b``
    when ``b`` is a module, else ``a``)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                candidate = SRC.joinpath(*node.module.split("."), alias.name)
                is_module = candidate.with_suffix(".py").exists() or candidate.is_dir()
                found.add(f"{node.module}.{alias.name}" if is_module else node.module)
    return found


def test_there_are_games_to_look_for():
    assert {"ept", "vv"} <= set(GAMES)


@pytest.mark.parametrize(
    "path", [*sorted(SIM.glob("*.py")), *FACES], ids=lambda p: str(p.relative_to(PACKAGE))
)
def test_the_simulation_and_its_faces_import_no_games_package(path):
    games = [
        name
        for name in _imports(path)
        for game in GAMES
        if name == f"firefight.rulesets.{game}" or name.startswith(f"firefight.rulesets.{game}.")
    ]
    assert games == []


def test_the_simulations_modules_import_one_another_without_a_cycle():
    graph = {
        _module(path): {name for name in _imports(path) if name.startswith("firefight.sim")}
        for path in SIM.glob("*.py")
    }
    done: set[str] = set()

    def visit(node: str, path: tuple[str, ...]) -> None:
        assert node not in path, " -> ".join((*path[path.index(node) :], node))
        if node in done:
            return
        for child in sorted(graph.get(node, ())):
            visit(child, (*path, node))
        done.add(node)

    for module in sorted(graph):
        visit(module, ())
