"""Hostile game files (a designer's one-chart TOML): digits that are not ASCII, follow-ups
whose exact odds would take far too many runs, an id a built-in rule set has, a named pipe
where a file is expected. Each is refused in one line, before any work."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from firefight.rulesets.designed import load_game
from tests.helpers import refusal

CRT = (Path(__file__).parents[2] / "examples" / "classic-crt.toml").read_text(encoding="utf-8")
FOLLOW_UP = """
[[follow_ups]]
after = ["AE", "AR", "EX", "DR", "DE"]
label = "test {i}"
rule = "a test"
dice = "{dice}"
target = 50
if_failed = "AR"
if_passed = "DR"
"""


@pytest.mark.parametrize(
    ("old", "new", "place"),
    [
        ('dice = "1d6"', 'dice = "\u0661d\u0666"', "dice: "),
        ('labels = ["1", "2", "3"', 'labels = ["\u0661", "2", "3"', "rows.labels[1]: "),
        ('"1-2", "1-1"', '"\uff11-2", "1-1"', "column.labels[1]: "),
    ],
)
def test_digits_that_are_not_ascii_are_refused(tmp_path, old, new, place):
    assert old in CRT
    assert refusal(tmp_path, CRT.replace(old, new, 1)).startswith(place)


def test_follow_ups_past_the_runs_allowed_are_refused_before_any_work(tmp_path):
    wide = CRT.replace('dice = "1d6"', 'dice = "1d100+1d100"')
    wide = wide.replace(
        'labels = ["1", "2", "3", "4", "5", "6"]', 'labels = ["<=1", "2", "3", "4", "5", "6+"]'
    )
    wide = wide.replace('"1" = [', '"<=1" = [').replace('"6" = [', '"6+" = [')
    text = wide + "".join(FOLLOW_UP.format(i=i, dice="1d100+1d100") for i in range(8))
    message = refusal(tmp_path, text)
    assert message.startswith("follow_ups: expected at most ")
    assert "ways the roll and its follow-ups can fall" in message


def test_follow_ups_within_the_runs_allowed_are_read(tmp_path):
    text = CRT + "".join(FOLLOW_UP.format(i=i, dice="2d6") for i in range(3))
    path = tmp_path / "game.toml"
    path.write_text(text, encoding="utf-8")
    assert load_game(path).id == "classic-crt"


def _cli(*args: str, folder: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "FIREFIGHT_RULESETS": str(folder)}
    return subprocess.run(
        [sys.executable, "-m", "firefight", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )


def test_check_says_an_id_a_built_in_rule_set_has(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text(CRT.replace('id = "classic-crt"', 'id = "vv"'), encoding="utf-8")
    done = _cli("rulesets", "--check", str(path), folder=tmp_path / "folder")
    assert done.returncode == 2, done.stdout
    assert done.stderr.strip().count("\n") == 0
    assert "'vv' is a built-in rule set's" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_named_pipe_is_refused_not_waited_on(tmp_path):
    folder = tmp_path / "folder"
    folder.mkdir()
    os.mkfifo(folder / "pipe.toml")
    done = _cli("rulesets", "--check", str(folder / "pipe.toml"), folder=tmp_path / "none")
    assert done.returncode == 2
    assert "pipe.toml: the file cannot be read (a named pipe, not a file)" in done.stderr
    listed = _cli("rulesets", folder=folder)  # the folder's scan does not wait on it either
    assert listed.returncode == 0
    assert "pipe.toml" in listed.stderr


@pytest.mark.parametrize(
    "path",
    [
        "/api/rulesets/{name}/tables",
        "/api/rulesets/{name}/tables/classic-crt",
        "/api/rulesets/{name}/attack/odds",
    ],
)
def test_the_web_never_reads_a_game_file_a_request_names(tmp_path, monkeypatch, path):
    """A rule set's name ending .toml is a file on the command line alone: a request naming
    one (relative to the server's folder) is a 404 listing the ids, the file never read."""
    from fastapi.testclient import TestClient  # noqa: PLC0415

    from firefight.rulesets import added  # noqa: PLC0415
    from firefight.web.app import create_app  # noqa: PLC0415

    (tmp_path / "secret.toml").write_text(CRT, encoding="utf-8")
    (tmp_path / "broken.toml").write_text('id = "x"\nkey = "a secret value"\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("FIREFIGHT_RULESETS", str(tmp_path / "folder"))
    added.forget()
    client = TestClient(create_app(), raise_server_exceptions=False)
    for name in ("secret.toml", "broken.toml"):
        url = path.format(name=name)
        answer = client.request("POST" if url.endswith("/odds") else "GET", url, json={})
        assert answer.status_code == 404, (url, answer.text[:200])
        assert "secret" not in answer.text.replace(name, "")
        assert "classic-crt" not in answer.text.replace("/classic-crt", "")
    added.forget()


def test_adding_a_file_of_the_folder_itself_adds_it(tmp_path):
    folder = tmp_path / "folder"
    folder.mkdir()
    (folder / "mine.toml").write_text(CRT, encoding="utf-8")
    done = _cli("rulesets", "--add", str(folder / "mine.toml"), folder=folder)
    assert done.returncode == 0, done.stderr
    assert "added classic-crt" in done.stdout
