"""A running server sees the user's folder of game files change: a file added (dropped in, or
by ``rulesets --add``), changed or removed is seen at the first request a second after the
folder was last looked at, in every face (the list, the page, the API, the OpenAPI document),
and in the pool's processes too; a file that breaks is left out, the other games kept; a
folder unchanged is not read again."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from firefight.rulesets import added, infos
from firefight.web.app import create_app
from firefight.web.compute import Calculator
from tests.helpers import run_cli
from tests.web.served import HOST, serving

EXAMPLES = Path(__file__).parents[3] / "examples"
CRT = EXAMPLES / "classic-crt.toml"
FIREPOWER = EXAMPLES / "firepower-2d6.toml"
CRT_INPUT = {"attack_strength": 7, "defense_strength": 3, "terrain": "woods"}
ODDS = "/api/rulesets/classic-crt/attack/odds"


class Clock:
    """The clock the folder's rechecks are timed by, moved by the test."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def tick(self) -> None:
        self.now += added.RECHECK_SECONDS


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    moved = Clock()
    monkeypatch.setattr(added, "clock", moved)
    return moved


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    where = tmp_path / "rulesets"
    where.mkdir()
    shutil.copy(FIREPOWER, where / FIREPOWER.name)
    monkeypatch.setenv(added.FOLDER_VARIABLE, str(where))
    added.forget()
    yield where
    added.forget()


def _ids(client: TestClient) -> set[str]:
    return {r["id"] for r in client.get("/api/rulesets").json() if "left_out" not in r}


def test_a_file_dropped_in_is_served_a_second_later_in_every_face(folder, clock):
    client = TestClient(create_app())
    assert "classic-crt" not in _ids(client)
    shutil.copy(CRT, folder / CRT.name)
    assert "classic-crt" not in _ids(client)  # looked at less than a second ago
    clock.tick()
    assert "classic-crt" in _ids(client)
    assert "Classic Combat Results Table" in client.get("/").text
    assert client.get("/rulesets/classic-crt/attack").status_code == 200
    answer = client.post(ODDS, json=CRT_INPUT)
    assert answer.status_code == 200, answer.text
    document = client.get("/openapi.json").json()
    assert ODDS in document["paths"]
    assert "/api/rulesets/firepower-2d6/fire/odds" in document["paths"]
    schema = document["components"]["schemas"]["classic-crt.attack.input"]
    assert set(schema["properties"]) >= set(CRT_INPUT)


def test_a_file_added_by_the_command_line_is_served(folder, clock, capsys):
    client = TestClient(create_app())
    assert "classic-crt" not in _ids(client)
    assert run_cli(capsys, "rulesets", "--add", str(CRT))[0] == 0
    clock.tick()
    assert client.post(ODDS, json=CRT_INPUT).status_code == 200


def test_a_file_that_breaks_is_left_out_and_one_removed_is_gone(folder, clock):
    shutil.copy(CRT, folder / CRT.name)
    client = TestClient(create_app())
    first = client.post(ODDS, json=CRT_INPUT)
    assert first.status_code == 200
    text = CRT.read_text(encoding="utf-8")
    (folder / CRT.name).write_text(text.replace('"4-1", "5-1"', '"5-1", "4-1"'))
    clock.tick()
    listed = client.get("/api/rulesets")
    assert listed.status_code == 200
    left = {r["id"]: r["left_out"] for r in listed.json() if "left_out" in r}
    assert left["classic-crt"].startswith("left out: classic-crt.toml: column.labels[5]")
    assert "firepower-2d6" in _ids(client)
    assert client.get("/").status_code == 200
    refused = client.post(ODDS, json=CRT_INPUT)  # the cached answer is the old game's
    assert refused.status_code in (404, 422)
    assert "column.labels[5]" in refused.json()["detail"]
    fire = client.post("/api/rulesets/firepower-2d6/fire/odds", json={"firepower": 5})
    assert fire.status_code == 200
    assert ODDS not in client.get("/openapi.json").json()["paths"]
    (folder / CRT.name).write_text(text)  # mended
    clock.tick()
    assert client.post(ODDS, json=CRT_INPUT).json() == first.json()
    (folder / CRT.name).unlink()
    clock.tick()
    assert "classic-crt" not in _ids(client)
    assert not any(r["id"] == "classic-crt" for r in client.get("/api/rulesets").json())
    assert client.post(ODDS, json=CRT_INPUT).status_code == 404
    assert ODDS not in client.get("/openapi.json").json()["paths"]


def test_a_folder_unchanged_is_not_read_again(folder, clock, monkeypatch):
    shutil.copy(CRT, folder / CRT.name)
    read: list[str] = []
    header = added.header
    monkeypatch.setattr(added, "header", lambda path: read.append(path.name) or header(path))
    first = {i.id: i for i in infos()}
    assert sorted(read) == ["classic-crt.toml", "firepower-2d6.toml"]
    first["classic-crt"].load()
    for _ in range(3):
        clock.tick()
        assert infos() == list(first.values())
    assert len(read) == 2
    os.utime(folder / FIREPOWER.name, ns=(1, 1))  # one file changed: that one read again
    clock.tick()
    again = {i.id: i for i in infos()}
    assert read[2:] == ["firepower-2d6.toml"]
    assert again["classic-crt"] is first["classic-crt"]  # its game, loaded, kept


def test_a_pool_process_reads_the_folder_as_its_server_did(folder, clock, monkeypatch):
    infos()
    shutil.copy(CRT, folder / CRT.name)
    added.catch_up(added.seen())  # what this process read: nothing to do
    assert "classic-crt" not in {i.id for i in infos()}
    added.catch_up("another process's reading")
    assert "classic-crt" in {i.id for i in infos()}  # at once, the clock unmoved
    handed: list[str] = []
    monkeypatch.setattr(added, "catch_up", handed.append)
    calculator = Calculator(1, lambda processes, _niced: ThreadPoolExecutor(processes))

    async def both() -> tuple[int, int]:
        return await calculator(len, "ab"), await calculator.quickly(len, "abc")

    try:  # on a thread of its own: a test run before may have left this thread's loop running
        with ThreadPoolExecutor(1) as runner:
            assert runner.submit(asyncio.run, both()).result() == (2, 3)
    finally:
        calculator.close()
    assert handed == [added.seen(), added.seen()]


@pytest.mark.skipif(sys.platform != "linux", reason="a served process, as test_serve_processes")
def test_a_running_server_and_its_pool_see_a_file_dropped_in(tmp_path):
    where = tmp_path / "rulesets"
    where.mkdir()
    env = {added.FOLDER_VARIABLE: str(where), "FIREFIGHT_COMPUTE_PROCESSES": "1"}
    with serving(env=env) as server:
        shutil.copy(CRT, where / CRT.name)
        assert _served(server.port, 200)["distribution"]
        (where / CRT.name).unlink()
        assert _served(server.port, 404)["detail"]


def _served(port: int, status: int, tries: int = 300) -> dict[str, object]:
    """The odds answer of ``status`` the server gives once it has looked at its folder again
    (asked every 0.1 s, at most ``tries`` times: a guard against a hang, nothing timed)."""
    got = 0
    for _ in range(tries):
        request = urllib.request.Request(
            f"http://{HOST}:{port}{ODDS}",
            data=json.dumps(CRT_INPUT).encode(),
            headers={"content-type": "application/json"},
        )
        try:
            with urllib.request.urlopen(request, timeout=60) as answer:
                got, body = answer.status, answer.read()
        except urllib.error.HTTPError as error:
            got, body = error.code, error.read()
        if got == status:
            found: dict[str, object] = json.loads(body)
            return found
        time.sleep(0.1)
    raise AssertionError(f"the server still answers {got}, not {status}")
