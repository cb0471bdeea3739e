"""A game as a package: ``examples/hedgerow-package`` (Hedgerow Skirmish, an invented game
written against ``firefight.api`` alone), installed into a temporary folder, appears in every
face with no line of firefight written for it.

The install is done once for the module, offline: the package's files and the
``.dist-info`` folder that ``pip install`` lays down (its ``METADATA`` and the
``entry_points.txt`` read from the example's own ``pyproject.toml``) are written into a
temporary folder put on the ``PYTHONPATH`` of the commands run (``pip`` would need a build
backend, ``setuptools>=70.1`` or ``wheel``, which a development environment need not hold).
Every face then runs in a subprocess with that path, as an installed package is found.
"""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Callable, Iterator
from fractions import Fraction
from itertools import product
from pathlib import Path

import pytest

from firefight import api
from firefight.api import load_chart

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "examples" / "hedgerow-package"
SOURCES = PACKAGE / "src" / "hedgerow"

BOARD = """\
name = "Lane"
ruleset = "hedgerow"
columns = 6
rows = 4
offset = "odd-q"
default_terrain = "open"

[hexes]
0202 = "scrub"
0302 = "scrub"
0402 = "woods"

[hexsides]
"0203/0303" = "hedge"
"""


def install(project: Path, site: Path) -> None:
    """What ``pip install --no-deps project`` lays down in ``site``: the packages found under
    ``src`` with their data, and the ``.dist-info`` with the project's entry points."""
    meta = tomllib.loads((project / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    for package in (project / "src").iterdir():
        if (package / "__init__.py").is_file():
            shutil.copytree(package, site / package.name)
    name = meta["name"].replace("-", "_")
    info = site / f"{name}-{meta['version']}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {meta['name']}\nVersion: {meta['version']}\n",
        encoding="utf-8",
    )
    lines = [
        f"[{group}]\n" + "".join(f"{key} = {value}\n" for key, value in points.items())
        for group, points in meta["entry-points"].items()
    ]
    (info / "entry_points.txt").write_text("\n".join(lines), encoding="utf-8")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder the package is installed into, once for the module."""
    found = tmp_path_factory.mktemp("site")
    install(PACKAGE, found)
    return found


@pytest.fixture(scope="module")
def env(site: Path) -> dict[str, str]:
    """The environment of a command that has the package installed."""
    path = os.pathsep.join([str(ROOT / "src"), str(site), os.environ.get("PYTHONPATH", "")])
    return {**os.environ, "PYTHONPATH": path, "FIREFIGHT_LANGUAGE": "en"}


SERVE = """
import contextlib, io, json, os, sys
from firefight.cli import PLUGINS_VARIABLE, main

os.environ.setdefault(PLUGINS_VARIABLE, "__all__")  # as `python -m firefight` sets it
answers = sys.stdout
for line in sys.stdin:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(json.loads(line))
        except SystemExit as done:
            code = done.code
    answers.write(json.dumps([code, out.getvalue(), err.getvalue()]) + "\\n")
    answers.flush()
"""
"""One interpreter with the package installed that runs the ``firefight`` commands it reads
(a JSON list of arguments a line) and answers each with its exit code, standard output and
standard error (a JSON list a line): the commands' faces are the CLI's, not its start-up, so
they share one start-up (``tests/test_startup.py`` is about the start-up)."""


Firefight = Callable[..., subprocess.CompletedProcess[str]]


@pytest.fixture(scope="module")
def firefight(env: dict[str, str]) -> Iterator[Firefight]:
    """``firefight(*args)``: a ``firefight`` command run with the package installed."""
    server = subprocess.Popen(
        [sys.executable, "-c", SERVE],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=env,
        cwd=ROOT,
    )
    assert server.stdin is not None
    assert server.stdout is not None

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        assert server.stdin is not None
        assert server.stdout is not None
        server.stdin.write(json.dumps(list(args)) + "\n")
        server.stdin.flush()
        line = server.stdout.readline()
        assert line, f"the command server stopped at firefight {' '.join(args)}"
        code, out, err = json.loads(line)
        return subprocess.CompletedProcess(list(args), code, out, err)

    try:
        yield run
    finally:
        server.stdin.close()
        server.wait(timeout=60)
        server.stdout.close()


def answer(firefight: Firefight, *args: str) -> object:
    done = firefight(*args, "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_example_imports_of_firefight_only_its_api():
    """Every name the example imports from firefight is in ``firefight.api``: the test fails
    when one of them disappears from it."""
    used: set[str] = set()
    for source in SOURCES.glob("*.py"):
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("firefight"):
                assert node.module == "firefight.api", f"{source.name} imports {node.module}"
                used.update(alias.name for alias in node.names)
            if isinstance(node, ast.Import):
                assert not any(a.name.startswith("firefight") for a in node.names), source.name
    assert used
    assert used <= set(api.__all__), sorted(used - set(api.__all__))
    assert all(hasattr(api, name) for name in used), [n for n in used if not hasattr(api, n)]


def test_the_rule_sets_are_listed_with_it(firefight):
    listed = answer(firefight, "rulesets")
    hedgerow = next(r for r in listed if r["id"] == "hedgerow")
    assert hedgerow["procedures"] == ["fire", "rally"]
    assert {"ept", "vv"} <= {r["id"] for r in listed}
    done = firefight("rulesets")
    assert "Hedgerow Skirmish" in done.stdout


def _brute_force_fire(firepower: int, modifier: int) -> dict[str, Fraction]:
    chart = load_chart(SOURCES / "data" / "fire.toml")
    found: dict[str, Fraction] = {}
    for a, b in product(range(1, 7), repeat=2):
        code = chart.lookup(a + b + modifier, firepower).value
        found[code] = found.get(code, Fraction(0)) + Fraction(1, 36)
    return found


def test_its_exact_odds_are_the_brute_forces(firefight):
    data = answer(firefight, "odds", "hedgerow", "fire", "--firepower", "5", "--cover", "scrub",
                  "--veteran", "--hindrance", "1")  # fmt: skip
    got = {code: Fraction(p) for code, p in data["distribution"].items()}
    assert got == _brute_force_fire(5, -1 + 1 - 1)
    assert sum(got.values()) == 1
    assert [m["rule"] for m in data["modifiers"]] == ["4.3", "4.4", "5.2"]
    rally = answer(firefight, "odds", "hs", "rally", "--morale", "3", "--leader")
    assert rally["distribution"] == {"rallied": "2/3", "pinned": "1/3"}


def test_it_resolves_seeded_and_with_the_tables_dice(firefight):
    seeded = answer(firefight, "resolve", "hedgerow", "fire", "--firepower", "7", "--seed", "3")
    dice = seeded["trace"][0]["dice"]
    replayed = answer(firefight, "resolve", "hedgerow", "fire", "--firepower", "7",
                      "--roll", ",".join(map(str, dice)))  # fmt: skip
    assert replayed["outcome"] == seeded["outcome"]
    sixes = answer(firefight, "resolve", "hedgerow", "fire", "--firepower", "2", "--roll", "6,6")
    assert sixes["outcome"] == "P"


def test_its_chart_is_shown(firefight):
    assert "Fire Chart" in firefight("tables", "hedgerow").stdout
    chart = answer(firefight, "table", "hedgerow", "fire")
    assert chart["columns"] == ["1-2", "3-4", "5-6", "7+"]
    assert chart["rows"][0] == "<=4"


def test_its_engagement_has_exact_odds(firefight):
    data = answer(firefight, "engage", "hedgerow_lane")
    assert data["ruleset"] == "hedgerow"
    assert data["exact"] is True
    assert sum(Fraction(p) for p in data["outcome"].values()) == 1


def test_its_line_of_sight_judges_a_board(firefight, tmp_path):
    board = str(tmp_path / "lane.toml")
    Path(board).write_text(BOARD, encoding="utf-8")
    hindered = answer(firefight, "board", "los", board, "0102", "0402")
    assert (hindered["status"], hindered["modifier"]) == ("hindered", 2)
    assert [h["where"] for h in hindered["hindrances"]] == ["hex 0202", "hex 0302"]
    blocked = answer(firefight, "board", "los", board, "0102", "0602")
    assert blocked["status"] == "blocked"
    assert "woods" in blocked["blocked_by"]
    hedged = answer(firefight, "board", "los", board, "0103", "0403")
    assert hedged["status"] == "blocked"
    assert "hedge" in hedged["blocked_by"]


WEB = """\
import json, sys
from fastapi.testclient import TestClient
from firefight.web.app import create_app

client = TestClient(create_app())
found = {}
found["home"] = "Hedgerow Skirmish" in client.get("/").text
page = client.get("/rulesets/hedgerow/fire")
found["page"] = [page.status_code, "firepower" in page.text, "Fire Chart" in page.text]
found["rulesets"] = [r["id"] for r in client.get("/api/rulesets").json()]
odds = client.post("/api/rulesets/hedgerow/fire/odds", json={"firepower": 5, "cover": "scrub"})
found["odds"] = [odds.status_code, odds.json().get("distribution")]
bad = client.post("/api/rulesets/hedgerow/fire/odds", json={"firepower": 99})
found["bad"] = bad.status_code
paths = client.get("/openapi.json").json()["paths"]
found["openapi"] = sorted(p for p in paths if "/hedgerow/" in p)
json.dump(found, sys.stdout)
"""


def test_the_web_calculator_its_api_and_openapi_have_it(env):
    done = subprocess.run(
        [sys.executable, "-c", WEB],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert found["home"]
    assert found["page"] == [200, True, True]
    assert "hedgerow" in found["rulesets"]
    status, distribution = found["odds"]
    assert status == 200
    assert {k: Fraction(v) for k, v in distribution.items()} == _brute_force_fire(5, -1)
    assert found["bad"] == 422
    assert {
        "/api/rulesets/hedgerow/fire/odds",
        "/api/rulesets/hedgerow/rally/resolve",
    } <= set(found["openapi"])
