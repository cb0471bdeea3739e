"""The sim layer's file formats are registered with :func:`firefight.core.files.loader`: each
example is valid, its loader reads it, and its command exits 0 on it."""

from __future__ import annotations

import pytest

import firefight.cli.engage
import firefight.sim.scenario
import firefight.sim.spec  # noqa: F401 - importing registers the loaders
from firefight.core.files import LOADERS
from tests.helpers import run_cli

NAMES = ("scenario", "engage", "sweep")


@pytest.mark.parametrize("name", NAMES)
def test_the_example_is_read_by_its_loader_and_its_command(name, tmp_path, capsys):
    registered = LOADERS[name]
    path = tmp_path / f"example{registered.suffix}"
    path.write_text(registered.example(), encoding="utf-8")
    assert registered.load(path) is not None
    args = [arg.replace("{path}", str(path)) for arg in registered.command]
    assert "{path}" in registered.command
    code, _, err = run_cli(capsys, *args)
    assert code == 0, err
