"""The board and scenario file formats are registered with the hostile-input run
(``firefight.core.files.loader``): each example loads, and its command reads it with exit 0."""

from __future__ import annotations

from pathlib import Path

import pytest

import firefight.rulesets.boards
import firefight.rulesets.vv.scenario
from firefight.core.files import LOADERS
from tests.helpers import run_cli

NAMES = ("board", "tiled-map", "vv-scenario")


@pytest.mark.parametrize("name", NAMES)
def test_the_example_loads_and_its_command_reads_it(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    registered = LOADERS[name]
    path = tmp_path / f"example{registered.suffix}"
    path.write_text(registered.example(), encoding="utf-8")
    assert registered.load(path) is not None
    argv = [part.replace("{path}", str(path)) for part in registered.command]
    code, out, err = run_cli(capsys, *argv)
    assert code == 0, err
    assert out


def test_the_board_loader_reads_toml_and_the_tiled_one_json(tmp_path: Path) -> None:
    assert LOADERS["board"].load is firefight.rulesets.boards.load_toml_board
    assert LOADERS["tiled-map"].load is firefight.rulesets.boards.load_tiled_map
