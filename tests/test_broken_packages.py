"""A broken third party's rule set package is left out and reported in one line naming the
package, and the other games keep working: an entry point that fails to import, a chart that
does not load, a procedure that raises.

Each package is written into a temporary folder put on ``sys.path``, and its entry point added
to the real ones (``importlib.metadata.entry_points`` as the registry reads it).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from firefight.errors import FirefightError
from firefight.rulesets import registry
from firefight.web.app import create_app
from tests.helpers import run_cli

LIGHT = """\
from firefight.api import ProcedureInfo, RuleSetInfo
PROCEDURES = (ProcedureInfo("shot", "One shot", "{name}.shot:SHOT"),)
INFO = RuleSetInfo.declare(PROCEDURES, id="{name}", title="Broken {name}", source="a test",
                           target="{name}.ruleset:RULESET")
"""

RULESET = """\
from pathlib import Path
from firefight.api import Procedures, RuleSet
from {name} import PROCEDURES
RULESET = RuleSet(id="{name}", title="Broken {name}", source="a test",
                  procedures=Procedures(*PROCEDURES), data=Path(__file__).parent)
"""

SHOT = """\
from pathlib import Path
from firefight.api import D6, Procedure, RuleInput, load_chart
{chart}
class Shot(RuleInput):
    \"\"\"A shot.\"\"\"
def rule(inp, chance):
    return str(chance.roll(D6, "shot") // {divisor})
SHOT = Procedure("shot", "One shot", Shot, rule, lambda inp: [])
"""

BAD_CHART = 'CHART = load_chart(Path(__file__).parent / "shots.toml")'


def write(folder: Path, name: str, *, chart: bool = False, divisor: int = 1) -> None:
    """A third party's package ``name``: a chart that does not load (``chart``), a rule that
    divides by ``divisor``."""
    package = folder / name
    package.mkdir()
    (package / "__init__.py").write_text(LIGHT.format(name=name), encoding="utf-8")
    (package / "ruleset.py").write_text(RULESET.format(name=name), encoding="utf-8")
    shot = SHOT.format(chart=BAD_CHART if chart else "", divisor=divisor)
    (package / "shot.py").write_text(shot, encoding="utf-8")
    if chart:
        (package / "shots.toml").write_text('id = "shots"\n[rows]\n', encoding="utf-8")


@pytest.fixture
def packages(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Three broken packages installed beside the built-in games: ``missing`` (its entry
    point names no module), ``badchart`` (its chart does not load), ``raiser`` (its rule
    divides by zero)."""
    write(tmp_path, "badchart", chart=True)
    write(tmp_path, "raiser", divisor=0)
    monkeypatch.syspath_prepend(str(tmp_path))
    real = registry.entry_points
    points = [
        EntryPoint(name=name, value=value, group=registry.GROUP)
        for name, value in [
            ("missing", "missing_package:INFO"),
            ("badchart", "badchart:INFO"),
            ("raiser", "raiser:INFO"),
        ]
    ]
    monkeypatch.setattr(registry, "entry_points", lambda group: [*real(group=group), *points])
    monkeypatch.setattr(registry, "_registered", {})  # rule sets other tests registered
    registry._installed.cache_clear()
    yield
    registry._installed.cache_clear()


def test_an_entry_point_that_fails_to_import_is_one_line_and_the_rest_is_listed(
    packages, capsys, caplog
):
    caplog.set_level(logging.WARNING, logger=registry.__name__)
    ids = [info.id for info in registry.infos()]
    assert "missing" not in ids
    assert {"ept", "vv", "badchart", "raiser"} <= set(ids)
    (line,) = [p for p in registry.problems() if "missing" in p]
    assert line.startswith("rule set package 'missing_package' left out: entry point 'missing'")
    assert "ModuleNotFoundError" in line
    assert "\n" not in line
    assert line in caplog.messages
    with pytest.raises(FirefightError, match="rule set package 'missing_package' left out"):
        registry.ruleset("missing")
    code, out, err = run_cli(capsys, "rulesets")
    assert code == 0, err
    assert "ept" in out


def test_a_chart_that_does_not_load_leaves_its_package_out_of_every_face(packages, capsys):
    ids = [found.id for found in registry.rulesets()]
    assert "badchart" not in ids
    assert {"ept", "raiser"} <= set(ids)
    (line,) = [p for p in registry.problems() if "badchart" in p]
    assert line.startswith("rule set package 'badchart' left out: rule set 'badchart'")
    assert "shots.toml" in line
    client = TestClient(create_app())
    assert client.get("/").status_code == 200
    assert client.post("/api/rulesets/ept/fire/odds", json={"strength": 6}).status_code == 200
    assert "/api/rulesets/badchart/shot/odds" not in client.get("/openapi.json").json()["paths"]
    code, _, err = run_cli(capsys, "odds", "badchart", "shot")
    assert code == 2
    assert err.count("\n") == 1
    assert "shots.toml" in err


def test_a_procedure_that_raises_names_its_package(packages, capsys):
    registry.infos()
    code, _, err = run_cli(capsys, "odds", "raiser", "shot")
    assert code == 70
    assert err.count("\n") == 1
    line = "internal error in rule set package 'raiser' (rule set raiser, procedure shot): "
    assert err.startswith("error: " + line)
    assert "ZeroDivisionError" in err
    answer = TestClient(create_app()).post("/api/rulesets/raiser/shot/odds", json={})
    assert answer.status_code == 500
    assert answer.json() == {"detail": err.strip().removeprefix("error: "), "field": None}
    code, out, err = run_cli(capsys, "odds", "ept", "fire", "--strength", "6", "--json")
    assert code == 0, err
    assert "distribution" in out


def test_the_packages_left_out_are_said_by_rulesets_and_carried_by_its_json_and_the_api(
    packages, capsys
):
    code, out, err = run_cli(capsys, "rulesets")
    assert code == 0, err
    lines = err.splitlines()
    (said,) = [line for line in lines if "missing_package" in line]  # once, not logged too
    assert said.startswith("rule set package 'missing_package' left out: entry point 'missing'")
    assert "missing_package" not in out
    code, out, err = run_cli(capsys, "rulesets", "--json")
    assert code == 0, err
    assert err == ""  # the lines are in the list, once
    listed = json.loads(out)
    (missing,) = [r for r in listed if r.get("left_out")]
    assert missing["id"] == "missing"
    assert missing["procedures"] == []
    assert missing["left_out"].startswith("rule set package 'missing_package' left out")
    assert next(r for r in listed if r["id"] == "ept").get("left_out") is None
    api = TestClient(create_app()).get("/api/rulesets").json()
    left = {r["id"]: r["left_out"] for r in api if r.get("left_out")}
    assert set(left) == {"missing", "badchart"}  # the API loads each: a chart that does not load
    assert "shots.toml" in left["badchart"]
    with pytest.raises(FirefightError, match="left out"):
        registry.ruleset(missing["id"])  # asked for by that name: that line
