"""A scenario's board is a sample board's name or a board file in the scenario's own folder
(or one below it), never a file elsewhere: no absolute path, no '..', no link leading out."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from firefight.rulesets.boards import sample_boards
from firefight.rulesets.vv.scenario import (
    SCENARIOS,
)
from firefight.rulesets.vv.scenario import (
    BoardScenarioError as ScenarioError,
)
from firefight.rulesets.vv.scenario import (
    load_board_scenario as load_scenario,
)
from tests.helpers import run_cli

VILLAGE = sample_boards()["vv_village"]


def scenario_naming(folder: Path, board: str) -> Path:
    """The village sample written into ``folder`` with its board line replaced."""
    text = (SCENARIOS / "vv_crossroads.toml").read_text(encoding="utf-8")
    lines = [
        f"board = {json.dumps(board)}" if ln.startswith("board =") else ln
        for ln in text.splitlines()
    ]
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "scenario.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture
def secret(tmp_path: Path) -> Path:
    """A valid V&V board outside the scenario's folder: reading it would succeed."""
    path = tmp_path / "x" / "secret.toml"
    path.parent.mkdir()
    shutil.copy(VILLAGE, path)
    return path


def test_a_board_up_through_dot_dot_is_refused_on_one_line(tmp_path: Path, secret: Path) -> None:
    path = scenario_naming(tmp_path / "a" / "b", "../../x/secret.toml")
    with pytest.raises(ScenarioError) as caught:
        load_scenario(path)
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith("scenario.toml: 'board' must be a board file (.toml, or a Tiled")
    assert "no absolute path, no '..'" in message
    assert "(got '../../x/secret.toml')" in message


def test_an_absolute_board_path_is_refused(tmp_path: Path, secret: Path) -> None:
    path = scenario_naming(tmp_path / "a", str(secret))
    with pytest.raises(ScenarioError, match="no absolute path"):
        load_scenario(path)


def test_a_link_leading_out_of_the_folder_is_refused(tmp_path: Path, secret: Path) -> None:
    folder = tmp_path / "a"
    path = scenario_naming(folder, "link.toml")
    (folder / "link.toml").symlink_to(secret)
    with pytest.raises(ScenarioError, match="a link that leads out of it"):
        load_scenario(path)


def test_a_board_beside_the_scenario_or_below_it_loads(tmp_path: Path) -> None:
    folder = tmp_path / "a"
    (folder / "maps").mkdir(parents=True)
    shutil.copy(VILLAGE, folder / "maps" / "village.toml")
    assert load_scenario(scenario_naming(folder, "maps/village.toml")).board.columns > 0
    shutil.copy(VILLAGE, folder / "here.toml")
    assert load_scenario(scenario_naming(folder, "here.toml")).board_name == "here.toml"
    assert load_scenario(scenario_naming(folder, "vv_village")).board_name == "vv_village"


def test_a_text_without_a_folder_names_a_sample_board_only(secret: Path) -> None:
    from firefight.rulesets.boards import board_named_in  # noqa: PLC0415

    with pytest.raises(Exception, match="names a sample board only"):
        board_named_in(str(secret), None, "pasted")
    assert board_named_in("vv_village", None, "pasted") == VILLAGE


def test_a_missing_or_foreign_file_is_refused(tmp_path: Path) -> None:
    from firefight.rulesets.boards import board_named_in  # noqa: PLC0415

    (tmp_path / "notes.txt").write_text("x")
    with pytest.raises(Exception, match=r"its suffix must be \.toml"):
        board_named_in("notes.txt", tmp_path, "s.toml")
    with pytest.raises(Exception, match="no such file"):
        board_named_in("gone.toml", tmp_path, "s.toml")


def test_threat_refuses_the_path_and_never_opens_the_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, secret: Path
) -> None:
    path = scenario_naming(tmp_path / "a" / "b", "../../x/secret.toml")
    code, out, err = run_cli(capsys, "threat", str(path), "--side", "us")
    assert (code, out) == (2, "")
    assert err.count("\n") == 1
    assert "'board' must be a board file" in err
    assert "(got '../../x/secret.toml')" in err
