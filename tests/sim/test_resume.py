"""Resumption: rows are written as they come; a sweep killed or interrupted and started again
computes only the missing cells and ends with the file an uninterrupted run writes."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from firefight.errors import InputError
from firefight.sim import InProcess, load_spec, run_sweep
from tests.helpers import run_cli
from tests.sim.conftest import write_spec

SRC = Path(__file__).resolve().parents[2] / "src"

SLOW_SAMPLED = """
ruleset = "ept"
procedure = "fire"
mode = "sampled"
samples = 5000
seed = 5

[inputs]
follow_up = "morale_test"
morale = 7

[axes]
strength = { from = 1, to = 30 }

[statistics]
no_effect = ["no_effect"]
eliminated = ["eliminated"]
"""


def data_rows(path: Path) -> int:
    return max(0, path.read_bytes().count(b"\n") - 1)


def start(spec: Path, out: Path, *extra: str) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")]),
    }
    return subprocess.Popen(
        [sys.executable, "-m", "firefight", "sweep", str(spec), "--output", str(out), *extra],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )


def wait_for_rows(process: subprocess.Popen[bytes], out: Path, rows: int) -> None:
    deadline = time.monotonic() + 120
    while not (out.exists() and data_rows(out) >= rows):
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "no rows written in 120 s"
        time.sleep(0.01)


@pytest.fixture
def slow_spec(tmp_path: Path) -> Path:
    return write_spec(tmp_path, SLOW_SAMPLED, "slow.toml")


@pytest.fixture
def uninterrupted(slow_spec: Path, tmp_path: Path) -> bytes:
    out = tmp_path / "whole.csv"
    run_sweep(load_spec(slow_spec), out, InProcess())
    return out.read_bytes()


def test_a_killed_sweep_resumes_and_ends_as_an_uninterrupted_one(
    slow_spec, tmp_path, uninterrupted, capsys
):
    out = tmp_path / "killed.csv"
    process = start(slow_spec, out, "--workers", "1", "--batch", "1")
    wait_for_rows(process, out, 2)
    os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=30)
    left = data_rows(out)
    assert 2 <= left < 30
    code, printed, err = run_cli(
        capsys, "sweep", str(slow_spec), "--output", str(out), "--workers", "1", "--json"
    )
    assert code == 0, err
    summary = json.loads(printed)
    assert summary["skipped"] >= left - 1  # a last line cut short by the kill is dropped
    assert summary["skipped"] + summary["computed"] == 30
    assert out.read_bytes() == uninterrupted


def test_ctrl_c_stops_the_workers_says_how_to_resume_and_keeps_the_rows(
    slow_spec, tmp_path, uninterrupted, capsys
):
    out = tmp_path / "interrupted.csv"
    process = start(slow_spec, out, "--workers", "2", "--batch", "1")
    wait_for_rows(process, out, 2)
    os.killpg(process.pid, signal.SIGINT)  # what Ctrl-C sends: the whole process group
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130
    message = err.decode()
    assert "interrupted: " in message
    assert "run the same command again to resume" in message
    assert "Traceback" not in message
    assert 2 <= data_rows(out) < 30
    code, _, err = run_cli(capsys, "sweep", str(slow_spec), "--output", str(out), "--workers", "1")
    assert code == 0, err
    assert out.read_bytes() == uninterrupted


def test_a_line_cut_short_is_dropped_and_recomputed(exact_spec, tmp_path):
    spec = load_spec(exact_spec)
    whole = tmp_path / "whole.csv"
    run_sweep(spec, whole, InProcess())
    cut = tmp_path / "cut.csv"
    run_sweep(spec, cut, InProcess())
    lines = whole.read_bytes().splitlines(keepends=True)
    cut.write_bytes(b"".join(lines[:5]) + lines[5][:20])  # killed in the middle of a row
    report = run_sweep(spec, cut, InProcess())
    assert report.skipped == 4
    assert report.computed == spec.cells - 4
    assert cut.read_bytes() == whole.read_bytes()


def test_an_interrupted_run_keeps_every_finished_task(exact_spec, tmp_path):
    spec = load_spec(exact_spec)

    class StopsAfterTwoTasks(InProcess):
        def map(self, spec, tasks):
            for number, rows in enumerate(super().map(spec, tasks)):
                if number == 2:
                    raise KeyboardInterrupt
                yield rows

    out = tmp_path / "out.csv"
    with pytest.raises(KeyboardInterrupt):
        run_sweep(spec, out, StopsAfterTwoTasks(), batch=3)
    assert data_rows(out) == 6
    report = run_sweep(spec, out, InProcess(), batch=5)
    assert (report.skipped, report.computed) == (6, spec.cells - 6)


def test_a_finished_sweep_run_again_computes_nothing(exact_spec, tmp_path):
    spec = load_spec(exact_spec)
    out = tmp_path / "out.csv"
    run_sweep(spec, out, InProcess())
    again = run_sweep(spec, out, InProcess())
    assert (again.skipped, again.computed, again.tasks) == (spec.cells, 0, 0)


def test_another_specs_results_are_not_mixed_in(exact_spec, tmp_path):
    out = tmp_path / "out.csv"
    run_sweep(load_spec(exact_spec), out, InProcess())
    other = write_spec(tmp_path, exact_spec.read_text().replace("to = 6", "to = 5"), "o.toml")
    with pytest.raises(InputError) as raised:
        run_sweep(load_spec(other), out, InProcess())
    assert str(raised.value).startswith("'output' must be a new file or the results of this spec")
    restarted = run_sweep(load_spec(other), out, InProcess(), restart=True)
    assert restarted.skipped == 0


def test_a_file_that_is_no_sweeps_results_is_not_overwritten(exact_spec, tmp_path, capsys):
    out = tmp_path / "notes.csv"
    out.write_text("my notes\n")
    code, _, err = run_cli(capsys, "sweep", str(exact_spec), "--output", str(out))
    assert code == 2
    assert err.startswith("error: '--output' must be a new file or the results of this sweep")
    assert out.read_text() == "my notes\n"


def pool_workers(process: subprocess.Popen[bytes]) -> list[psutil.Process]:
    deadline = time.monotonic() + 60
    while True:
        workers = [
            child
            for child in psutil.Process(process.pid).children()
            if "spawn_main" in " ".join(child.cmdline())
        ]
        if len(workers) == 2:
            return workers
        assert time.monotonic() < deadline, "the pool's two workers never started"
        time.sleep(0.05)


def test_kill_stops_the_sweep_as_ctrl_c_does(slow_spec, tmp_path, uninterrupted, capsys):
    out = tmp_path / "terminated.csv"
    process = start(slow_spec, out, "--workers", "2", "--batch", "1")
    wait_for_rows(process, out, 2)
    workers = pool_workers(process)
    process.terminate()  # `kill PID`: SIGTERM to the sweep alone
    _, err = process.communicate(timeout=60)
    assert process.returncode == 143
    assert "interrupted: " in err.decode()
    assert "Traceback" not in err.decode()
    _, alive = psutil.wait_procs(workers, timeout=30)
    assert not alive
    code, _, err = run_cli(capsys, "sweep", str(slow_spec), "--output", str(out), "--workers", "1")
    assert code == 0, err
    assert out.read_bytes() == uninterrupted


def test_the_workers_of_a_sweep_killed_outright_exit_too(slow_spec, tmp_path):
    out = tmp_path / "killed.csv"
    process = start(slow_spec, out, "--workers", "2", "--batch", "1")
    wait_for_rows(process, out, 1)
    workers = pool_workers(process)
    process.kill()  # SIGKILL to the sweep alone: it cannot stop its pool
    process.wait(timeout=30)
    _, alive = psutil.wait_procs(workers, timeout=30)
    for orphan in alive:  # leave nothing running, whatever the outcome
        orphan.kill()
    assert not alive


@pytest.mark.parametrize(
    "manifest",
    ["[" * 100_000 + "]" * 100_000, '{"fingerprint": ' + "9" * 5000 + "}", "\xff", "[1]"],
    ids=["nested", "long-number", "not-utf8", "no-fingerprint"],
)
def test_a_hostile_manifest_beside_the_results_is_one_line(exact_spec, tmp_path, manifest):
    spec = load_spec(exact_spec)
    out = tmp_path / "out.csv"
    run_sweep(spec, out, InProcess())
    written = next(p for p in tmp_path.iterdir() if p.name not in {out.name, exact_spec.name})
    written.write_bytes(manifest.encode("latin-1") if manifest == "\xff" else manifest.encode())
    with pytest.raises(InputError) as raised:
        run_sweep(spec, out, InProcess())
    assert str(raised.value).startswith("'output' must be a new file or the results of this sweep")
