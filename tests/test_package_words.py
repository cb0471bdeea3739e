"""A third party's package's words reach the terminal as ``firefight rulesets`` prints them:
a rule set whose title (id, source, procedures' titles...) holds a terminal's escape or a line
break is left out, in one line naming it, the field and the words escaped; and the line of a
package that does not load shows its error's words escaped, never raw."""

from __future__ import annotations

import json
from collections.abc import Iterator
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from firefight.rulesets import registry
from firefight.web.app import create_app
from tests.helpers import run_cli

ESCAPED = """\
from firefight.api import ProcedureInfo, RuleSetInfo
PROCEDURES = (ProcedureInfo("shot", "One shot\\x1b]0;owned\\x07", "escaped.shot:SHOT"),)
INFO = RuleSetInfo.declare(PROCEDURES, id="escaped", title="Escaped", source="a test",
                           target="escaped.ruleset:RULESET")
"""
RAISING = 'raise ImportError("cannot load \\x1b[2J this")\n'


@pytest.fixture
def packages(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """``escaped`` (a procedure's title holds a terminal's escape) and ``raising`` (its import
    fails with an escape in its error), beside the built-in games."""
    (tmp_path / "escaped.py").write_text(ESCAPED, encoding="utf-8")
    (tmp_path / "raising.py").write_text(RAISING, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    real = registry.entry_points
    points = [
        EntryPoint(name="escaped", value="escaped:INFO", group=registry.GROUP),
        EntryPoint(name="raising", value="raising:INFO", group=registry.GROUP),
    ]
    monkeypatch.setattr(registry, "entry_points", lambda group: [*real(group=group), *points])
    monkeypatch.setattr(registry, "_registered", {})
    registry._installed.cache_clear()
    yield
    registry._installed.cache_clear()


def test_words_that_cannot_be_printed_leave_the_package_out(packages, capsys):
    assert "escaped" not in {info.id for info in registry.infos()}
    (line,) = [p for p in registry.problems() if "'escaped'" in p]
    assert line.startswith(
        "rule set package 'escaped' left out: rule set 'escaped' has words that cannot be "
        "printed (procedure_titles: 'One shot\\x1b]0;owned\\x07')"
    )
    code, out, err = run_cli(capsys, "rulesets")
    assert code == 0, err
    assert "\x1b" not in out + err
    assert "\\x1b]0;owned" in err
    code, out, err = run_cli(capsys, "rulesets", "--json")
    assert "\x1b" not in json.loads(out)[-1]["left_out"] + err
    listed = TestClient(create_app()).get("/api/rulesets").json()
    assert all("\x1b" not in r.get("left_out", "") for r in listed)


def test_an_error_that_holds_an_escape_is_said_escaped(packages):
    registry.infos()
    (line,) = [p for p in registry.problems() if "raising" in p]
    assert line.startswith("rule set package 'raising' left out: entry point 'raising'")
    assert "\x1b" not in line
    assert "cannot load \\x1b[2J this" in line
