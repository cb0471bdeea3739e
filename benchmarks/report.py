"""What the benchmark scripts share: the figures' formats and the results table.

Every script prints one table (measurement, value, baseline, ratio, target, met) and a missed
target reads ``MISSED``. The scripts run as ``python benchmarks/NAME.py``, so this module is
imported from beside them.
"""

from __future__ import annotations

import json
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import firefight

T = TypeVar("T")

HEADERS = ("measurement", "value", "baseline", "ratio", "target", "met")


def progress(message: str) -> None:
    """A step of the run, on standard error (the table goes to standard output)."""
    print(f"  .. {message}", file=sys.stderr, flush=True)


def environment(**extra: object) -> dict[str, object]:
    """Where the figures were measured: Python, the platform, the CPUs, firefight, and
    ``extra`` (library versions, thread settings)."""
    return {
        "python": sys.version.split()[0],
        "executable": sys.executable,
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
        "firefight": firefight.__version__,
        **extra,
    }


def timed(action: Callable[[], T], repeats: int = 1) -> tuple[float, T | None]:
    """The median seconds of ``repeats`` runs and the last result."""
    timings: list[float] = []
    result: T | None = None
    for _ in range(repeats):
        start = time.perf_counter()
        result = action()
        timings.append(time.perf_counter() - start)
    return statistics.median(timings), result


def fmt_time(seconds: float) -> str:
    """Seconds as ``1,234.50 s``, or ``12.345 ms`` below one second."""
    if seconds >= 1:
        return f"{seconds:,.2f} s"
    return f"{seconds * 1e3:.3f} ms"


def fmt_ratio(ratio: float | None) -> str:
    """A ratio as ``1,234x`` from 100 up, ``12.34x`` below, ``-`` when there is none."""
    if ratio is None:
        return "-"
    return f"{ratio:,.0f}x" if ratio >= 100 else f"{ratio:.2f}x"


def row(
    measurement: str,
    value: str,
    *,
    baseline: str = "-",
    ratio: float | None = None,
    target: str = "-",
    met: bool | None = None,
) -> dict[str, object]:
    """One line of the table (and of the JSON results: ``ratio_value`` keeps the number)."""
    return {
        "measurement": measurement,
        "value": value,
        "baseline": baseline,
        "ratio": fmt_ratio(ratio),
        "ratio_value": ratio,
        "target": target,
        "met": "-" if met is None else ("yes" if met else "MISSED"),
    }


def print_table(rows: list[dict[str, object]]) -> None:
    """The rows in aligned columns under their headers."""
    widths = [max(len(h), *(len(str(r[h])) for r in rows)) for h in HEADERS]
    print("  ".join(h.ljust(w) for h, w in zip(HEADERS, widths, strict=True)).rstrip())
    print("  ".join("-" * w for w in widths))
    for r in rows:
        cells = (str(r[h]).ljust(w) for h, w in zip(HEADERS, widths, strict=True))
        print("  ".join(cells).rstrip())


def report_missed(rows: list[dict[str, object]]) -> list[str]:
    """Print a ``MISSED target`` line for each missed row (or ``All targets met.``) and return
    the missed measurements (the JSON results' ``missed``)."""
    missed = [str(r["measurement"]) for r in rows if r["met"] == "MISSED"]
    for name in missed:
        print(f"MISSED target: {name}")
    if not missed:
        print("All targets met.")
    return missed


def write_results(
    path: Path, results: dict[str, Any], *, default: Callable[[Any], Any] | None = str
) -> None:
    """Write the JSON results to ``path`` (its folder made if need be) and say where.

    ``default`` turns what JSON cannot hold into text (``None``: such a value is an error)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(results, indent=2, default=default) + "\n", encoding="utf-8")
    print(f"Results written to {path}")
