"""Every registered file loader, fed the hostile variants of its own example (tests/hostile/
variants.py) through its ``firefight`` command, one subprocess per loader: each case exits 2
with one line and no traceback (0 only for a valid file: the example, which the load function
must read), the process's peak memory stays under :data:`PEAK_MIB`, and every case
finishes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from firefight.core.files import LOADERS
from tests.hostile.modules import every_module

RUNNER = Path(__file__).parent / "runner.py"

EXPECTED = (
    "scenario",
    "engage",
    "sweep",
    "deck",
    "men",
    "board",
    "tiled-map",
    "vv-scenario",
    "pbem-message",
    "journal-import",
    "tirs-data",
    "percentile-capabilities",
    "designed-game",
)
"""The formats firefight reads from a user's path: a loader that stops registering fails."""

PEAK_MIB = 600
"""The most resident memory a loader's process may reach over all its cases. The interpreter
with the CLI imported holds about 150 MiB and a case refused at its cap adds a few MiB; an
unbounded read of the 50 MiB file, a parse of half a million values or the 700 MiB zlib bomb
goes past it."""

PROCESS_SECONDS = 300
"""The hang guard of one loader's process (not a timing assertion)."""

LEGITIMATE = {("journal-import", "empty")}
"""Cases a loader may accept: an empty export imports nothing."""

EXAMPLE_REFUSED: set[str] = set()
"""Formats whose command may refuse (exit 2) their valid example for a reason outside the file
(none): elsewhere the example must run (exit 0), else every hostile case might be refused for
that reason (an option the command lacks) and prove nothing."""

every_module()


def test_every_expected_format_registers():
    missing = [name for name in EXPECTED if name not in LOADERS]
    assert not missing, f"no loader registered for {missing}"


def _problems(name: str, case: dict[str, object]) -> list[str]:
    code = case["code"]
    if case["valid"]:
        if case["loads"] is not True:
            return [f"the load function refuses its own example: {case['loads']!r}"]
        allowed: tuple[int, ...] = (0, 2) if name in EXAMPLE_REFUSED else (0,)
    else:
        allowed = (0, 2) if (name, case["case"]) in LEGITIMATE else (2,)
    found = []
    if code not in allowed:
        found.append(f"exit {code}, not {' or '.join(map(str, allowed))}")
    if code != 0 and case["lines"] != 1:
        found.append(f"{case['lines']} lines of output, not 1")
    if case["traceback"]:
        found.append("a traceback")
    return found


def run_loader(name: str, folder: Path) -> dict[str, object]:
    """Run the loader's cases in a subprocess of their own; its report."""
    results = folder / "results.json"
    work = folder / "work"
    work.mkdir()
    environment = {
        **os.environ,
        "FIREFIGHT_DB": str(folder / "journal.sqlite3"),
        "FIREFIGHT_PBEM_SECRETS": str(folder / "secrets"),
        "FIREFIGHT_LANG": "en",
        "HOME": str(folder),
        "XDG_DATA_HOME": str(folder / "data"),
        "OPENBLAS_NUM_THREADS": "1",
        "PYTHONPATH": os.pathsep.join(sys.path),
    }
    environment.pop("FIREFIGHT_DEBUG", None)
    environment.pop("COLUMNS", None)
    module = LOADERS[name].load.__module__
    done = subprocess.run(
        [sys.executable, str(RUNNER), name, module, str(results), str(work)],
        cwd=work,
        env=environment,
        capture_output=True,
        text=True,
        timeout=PROCESS_SECONDS,
        check=False,
    )
    assert results.exists(), f"the runner wrote nothing (exit {done.returncode}): {done.stderr}"
    report: dict[str, object] = json.loads(results.read_text())
    report["exit"] = done.returncode
    report["stderr"] = done.stderr[-2000:]
    return report


@pytest.mark.parametrize("name", sorted(LOADERS))
def test_a_loader_refuses_hostile_files_in_one_line(name, tmp_path):
    report = run_loader(name, tmp_path)
    cases: list[dict[str, object]] = report["cases"]  # type: ignore[assignment]
    failures = [
        f"{case['case']}: {'; '.join(found)} ({str(case['output']).strip()[:160]!r})"
        for case in cases
        if (found := _problems(name, case))
    ]
    over = [case["case"] for case in cases if int(case["peak_kib"]) > PEAK_MIB * 1024]
    if over:
        failures.append(f"peak memory past {PEAK_MIB} MiB from case {over[0]}")
    assert report["exit"] == 0, f"the runner failed: {report['stderr']}"
    assert not failures, f"{name}: {len(failures)} of {len(cases)} cases fail:\n" + "\n".join(
        failures
    )
