"""A sweep's limits, decided before any work: the grid checked against its fields' bounds and
:data:`MAX_CELLS` before it is listed, the spec's size and nesting, the samples per cell, and
a scheduler that does not answer."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import firefight
from firefight.sim import SpecError, grid, load_spec
from firefight.sim.grid import MAX_CELLS
from firefight.sim.spec import MAX_SAMPLES, MAX_SPEC_BYTES
from firefight.sim.sweep import CONNECT_TIMEOUT_S
from tests.helpers import run_cli
from tests.sim.conftest import SMALL_EXACT, write_spec

RUN_TIMEOUT = 300
"""A generous guard against a hang (never a measure of speed)."""
MAX_RSS_KB = 600_000
"""A refused spec's process stays near the import cost of the rule sets (about 200 MB): the
20,000,000-value span took 2.6 GB before it was checked."""

MEASURED = textwrap.dedent(
    """
    import json, sys
    from firefight.cli import main
    code = main(sys.argv[2:])
    # VmHWM, not ru_maxrss: Linux carries ru_maxrss over an exec from the forked pytest worker
    with open("/proc/self/status", encoding="ascii") as status:
        peak = next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
    with open(sys.argv[1], "w") as handle:
        json.dump({"code": code, "peak_kb": peak}, handle)
    """
)

HEAD = """\
ruleset = "ept"
procedure = "fire"

[inputs]
target_movement = "none"

[axes]
"""


def _environment() -> dict[str, str]:
    """This process's environment, with this work tree's firefight first on the path (the
    child runs in another folder, where a relative PYTHONPATH would find nothing)."""
    source = str(Path(firefight.__file__).resolve().parents[1])
    return {**os.environ, "PYTHONPATH": os.pathsep.join([source, os.environ.get("PYTHONPATH", "")])}


def _measured(tmp_path: Path, *args: str) -> tuple[dict[str, int], str]:
    """Run ``firefight ARGS`` in a child process: its exit code, peak RSS (KB) and stderr."""
    report = tmp_path / "measured.json"
    done = subprocess.run(
        [sys.executable, "-c", MEASURED, str(report), *args],
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT,
        check=False,
        cwd=tmp_path,
        env=_environment(),
    )
    return json.loads(report.read_text()), done.stderr


@pytest.mark.parametrize("to", [20_000_000, 1_000_000_000_000])
def test_a_span_past_its_fields_bounds_is_refused_before_it_is_listed(tmp_path, to):
    """Before: ``to = 20000000`` took 2.6 GB and 17 s, ``to = 1000000000000`` a MemoryError."""
    path = write_spec(tmp_path, HEAD + f"strength = {{ from = 1, to = {to} }}\n")
    measured, err = _measured(tmp_path, "sweep", str(path), "--workers", "1")
    assert measured["code"] == 2
    assert err.count("\n") == 1
    assert err == (
        f"error: {path}: axes.strength: 'strength' must be an integer from 1 to 99 (got {to}) "
        f"(in cell {to - 1}: strength={to})\n"
    )
    assert measured["peak_kb"] < MAX_RSS_KB


def test_a_grid_of_more_than_max_cells_is_refused_before_it_is_listed(tmp_path):
    """Each axis within its field's bounds, their product past the limit."""
    axes = (
        "strength = { from = 1, to = 99 }\nhindrance_hexes = { from = 0, to = 99 }\n"
        'range = ["normal", "long"]\n'
        'protection = ["none", "light", "medium", "important"]\n'
        "target_hidden = [false, true]\nfirer_in_smoke = [false, true]\n"
        "moved_and_fired = [false, true]\nfirer_stopped = [false, true]\n"
    )
    path = write_spec(tmp_path, HEAD + axes)
    measured, err = _measured(tmp_path, "sweep", str(path), "--workers", "1")
    assert measured["code"] == 2
    assert err == (
        f"error: {path}: axes: the grid must have at most {MAX_CELLS:,} cells (got 1,267,200: "
        "strength 99 x hindrance_hexes 100 x range 2 x protection 4 x target_hidden 2 x "
        "firer_in_smoke 2 x moved_and_fired 2 x firer_stopped 2)\n"
    )
    assert measured["peak_kb"] < MAX_RSS_KB


def test_the_cell_limit_counts_every_axis(tmp_path, monkeypatch):
    monkeypatch.setattr(grid, "MAX_CELLS", 23)
    with pytest.raises(SpecError) as raised:
        load_spec(write_spec(tmp_path, SMALL_EXACT))
    assert str(raised.value) == (
        f"{tmp_path / 'spec.toml'}: axes: the grid must have at most 23 cells (got 24: "
        "strength 6 x protection 2 x range 2)"
    )


def test_a_spec_of_more_than_max_spec_bytes_is_refused_unread(tmp_path, capsys):
    """Before: a 300 MB spec was read whole (645 MB). A sparse file costs no disk here."""
    path = tmp_path / "huge.toml"
    with path.open("wb") as handle:
        handle.truncate(300 * 2**20)
    code, _, err = run_cli(
        capsys, "sweep", str(path), "--workers", "1", "-o", str(tmp_path / "r.csv")
    )
    assert code == 2
    assert err == f"error: {path}: the file must be at most 1 MiB\n"


def test_a_spec_at_max_spec_bytes_is_read(tmp_path):
    text = textwrap.dedent(SMALL_EXACT)
    padding = MAX_SPEC_BYTES - len(text.encode()) - 1
    path = tmp_path / "padded.toml"
    path.write_text(text + "#" * padding + "\n", encoding="utf-8")
    assert path.stat().st_size == MAX_SPEC_BYTES
    assert load_spec(path).cells == 24


def test_a_spec_nested_3000_deep_is_one_line(tmp_path, capsys):
    """Before: a RecursionError (exit 70)."""
    path = write_spec(tmp_path, SMALL_EXACT + "\nx = " + "[" * 3000 + "]" * 3000 + "\n")
    code, _, err = run_cli(
        capsys, "sweep", str(path), "--workers", "1", "-o", str(tmp_path / "r.csv")
    )
    assert code == 2
    assert err == f"error: {path}: arrays and tables nested more than 64 levels deep\n"


def test_a_spec_of_more_samples_than_max_samples_is_refused(tmp_path, capsys):
    """Before: ``samples = 999999999999999`` ran (for ever)."""
    text = HEAD.replace("[inputs]", 'mode = "sampled"\nsamples = 999999999999999\n\n[inputs]')
    path = write_spec(tmp_path, text + "strength = [1]\n")
    code, _, err = run_cli(
        capsys, "sweep", str(path), "--workers", "1", "-o", str(tmp_path / "r.csv")
    )
    assert code == 2
    assert err == (
        f"error: {path}: samples: must be an integer from 1 to {MAX_SAMPLES:,} "
        "(got 999999999999999)\n"
    )


def _closed_port() -> int:
    """A port on 127.0.0.1 that nothing listens on (bound, then let go)."""
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        return int(held.getsockname()[1])


def test_a_scheduler_on_a_closed_port_is_refused_after_the_connect_timeout(tmp_path):
    """Before: 32 s of Dask's own retries before the error."""
    path = write_spec(tmp_path, SMALL_EXACT)
    address = f"tcp://127.0.0.1:{_closed_port()}"
    done = subprocess.run(
        [sys.executable, "-m", "firefight", "sweep", str(path), "--scheduler", address],
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT,
        check=False,
        cwd=tmp_path,
        env=_environment(),
    )
    assert done.returncode == 2
    assert done.stderr == (
        "error: '--scheduler' must be the address of a running Dask scheduler with workers, "
        f"e.g. tcp://HOST:PORT (no scheduler answered there within {CONNECT_TIMEOUT_S:g} s) "
        f"(got '{address}')\n"
    )
