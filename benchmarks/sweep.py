"""firefight sweep benchmark: throughput in-process, with 1 and 2 local worker processes
(scaling efficiency) and through a local Dask cluster (a scheduler and 2 one-thread workers on
127.0.0.1), all in the same run, and a check that every backend wrote the same file.

Run with ``.venv/bin/python benchmarks/sweep.py`` (``--quick``: a quarter of the work, 48
cells). Prints a table and writes ``benchmarks/results/sweep.json``. See
``benchmarks/README.md``.
"""

from __future__ import annotations

import argparse
import os
import resource
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from firefight.sim import (
    DaskCluster,
    InProcess,
    LocalProcesses,
    find_spec,
    load_spec,
    run_sweep,
)
from firefight.sim.cluster import local_cluster
from firefight.sim.spec import spec_from_data
from report import environment, fmt_time, print_table, progress, row, write_results

HERE = Path(__file__).resolve().parent
DEFAULT_OUTPUT = HERE / "results" / "sweep.json"
EFFICIENCY_TARGET = 0.8


def sampled_spec(quick: bool):
    """EPT fire with the morale tests taken, sampled: strength x protection x morale."""
    strengths = {"from": 1, "to": 6 if quick else 24}
    return spec_from_data(
        {
            "ruleset": "ept",
            "procedure": "fire",
            "mode": "sampled",
            "samples": 2500,
            "seed": 2026,
            "inputs": {"follow_up": "morale_test", "range": "normal"},
            "axes": {
                "strength": strengths,
                "protection": ["none", "light", "medium", "important"],
                "morale": [6, 8],
            },
            "statistics": {"eliminated": ["eliminated"], "no_effect": ["no_effect"]},
        },
        "benchmark (sampled)",
    )


def start_up(workers: int, folder: Path) -> float:
    """Seconds a pool of ``workers`` processes takes to start and answer: a sweep of one tiny
    exact cell per worker (at least two tasks, so that the pool is used)."""
    tiny = spec_from_data(
        {"ruleset": "ept", "procedure": "fire", "axes": {"strength": list(range(1, 3 + workers))}},
        "benchmark (start-up)",
    )
    pool = LocalProcesses(workers, adaptive=False)
    seconds, _, _ = timed(tiny, pool, folder, f"start-{workers}", batch=1)
    return seconds


CPU_TIME: dict[str, float] = {}
"""CPU seconds of the last ``timed`` run: this process and its pool workers (counted once the
pool has shut down); a Dask cluster's workers are not this run's children and not counted."""


def cpu_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def timed(
    spec, backend, folder: Path, name: str, batch: int | None = None
) -> tuple[float, bytes, int]:
    out = folder / f"{name}.csv"
    cpu = cpu_seconds()
    started = time.perf_counter()
    report = run_sweep(spec, out, backend, restart=True, batch=batch)
    CPU_TIME["last"] = cpu_seconds() - cpu
    return time.perf_counter() - started, out.read_bytes(), report.tasks


def measure(sampled, exact, samples: int):
    """Run every backend; the figures, the files they wrote and the exact sweep's times."""
    figures: dict[str, dict[str, float | int]] = {}
    files: dict[str, bytes] = {}
    with tempfile.TemporaryDirectory(prefix="firefight-sweep-bench-") as name:
        folder = Path(name)
        runs = [
            ("in-process", InProcess()),
            ("1 local process", LocalProcesses(1, adaptive=False)),
            ("2 local processes", LocalProcesses(2, adaptive=False)),
        ]
        for label, backend in runs:
            progress(f"sampled sweep, {label}")
            seconds, content, tasks = timed(sampled, backend, folder, label.replace(" ", "-"))
            figures[label] = {
                "seconds": seconds,
                "samples_per_s": samples / seconds,
                "tasks": tasks,
                "cpu_s": CPU_TIME["last"],
            }
            if isinstance(backend, LocalProcesses):
                progress(f"start-up of {label}")
                figures[label]["start_up_s"] = start_up(backend.workers, folder)
            files[label] = content
        progress("starting a local Dask cluster (scheduler + 2 workers)")
        cluster_started = time.perf_counter()
        with local_cluster(folder / "dask", workers=2) as address:
            cluster_seconds = time.perf_counter() - cluster_started
            progress(f"sampled sweep, Dask {address}")
            seconds, content, tasks = timed(sampled, DaskCluster(address), folder, "dask")
            figures["dask, 2 workers"] = {
                "seconds": seconds,
                "samples_per_s": samples / seconds,
                "tasks": tasks,
            }
            files["dask, 2 workers"] = content
            progress("exact sweep, Dask")
            exact_dask, _, _ = timed(exact, DaskCluster(address), folder, "exact-dask")
        progress("exact sweep, in-process and 2 local processes")
        exact_serial, exact_file, _ = timed(exact, InProcess(), folder, "exact-serial")
        pool = LocalProcesses(2, adaptive=False)
        exact_pool, exact_pool_file, _ = timed(exact, pool, folder, "exact-pool")
    timings = {
        "exact_serial": exact_serial,
        "exact_pool": exact_pool,
        "exact_dask": exact_dask,
        "exact_file": exact_file,
        "exact_pool_file": exact_pool_file,
        "cluster": cluster_seconds,
    }
    return figures, files, timings


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a quarter of the work")
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    sampled = sampled_spec(args.quick)
    exact = load_spec(find_spec("ept_fire"))
    samples = sampled.cells * sampled.samples
    print(
        f"firefight sweep benchmark ({'quick' if args.quick else 'full'} run): "
        f"{sampled.cells} sampled cells x {sampled.samples:,} = {samples:,} EPT fire resolutions "
        f"with morale tests; the exact ept_fire sample ({exact.cells} cells); "
        f"{os.cpu_count()} CPUs"
    )
    figures, files, timings = measure(sampled, exact, samples)
    identical = all(content == files["in-process"] for content in files.values())
    identical = identical and timings["exact_file"] == timings["exact_pool_file"]
    exact_serial, exact_pool, exact_dask = (
        timings["exact_serial"],
        timings["exact_pool"],
        timings["exact_dask"],
    )
    cluster_seconds = timings["cluster"]

    base = figures["in-process"]["seconds"]
    one = figures["1 local process"]["seconds"]
    two = figures["2 local processes"]["seconds"]
    efficiency = one / (2 * two)
    one_warm = one - figures["1 local process"]["start_up_s"]
    two_warm = two - figures["2 local processes"]["start_up_s"]
    warm_efficiency = one_warm / (2 * two_warm)
    rows = [
        row(
            "sampled sweep, in-process",
            f"{figures['in-process']['samples_per_s']:,.0f} samples/s ({fmt_time(base)})",
        )
    ]
    for label in ("1 local process", "2 local processes", "dask, 2 workers"):
        seconds = figures[label]["seconds"]
        rows.append(
            row(
                f"sampled sweep, {label}",
                f"{figures[label]['samples_per_s']:,.0f} samples/s ({fmt_time(seconds)})",
                baseline="in-process",
                ratio=base / seconds,
            )
        )
    rows.extend(
        row(
            f"scaling efficiency, 2 processes{suffix}",
            f"{share:.0%}",
            baseline="1 local process",
            ratio=one_s / two_s,
            target=f">= {EFFICIENCY_TARGET:.0%}",
            met=share >= EFFICIENCY_TARGET,
        )
        for suffix, share, one_s, two_s in (
            ("", efficiency, one, two),
            (", start-up taken out", warm_efficiency, one_warm, two_warm),
        )
    )
    rows.extend(
        row(
            f"CPU time, {label}",
            fmt_time(figures[label]["cpu_s"]),
            baseline="in-process",
            ratio=figures[label]["cpu_s"] / figures["in-process"]["cpu_s"],
        )
        for label in ("in-process", "1 local process", "2 local processes")
    )
    rows.extend(
        row(f"start-up, {label}", fmt_time(figures[label]["start_up_s"]))
        for label in ("1 local process", "2 local processes")
    )
    rows.append(row("Dask cluster start (scheduler + 2 workers)", fmt_time(cluster_seconds)))
    for label, seconds in (("2 local processes", exact_pool), ("dask, 2 workers", exact_dask)):
        rows.append(
            row(
                f"exact ept_fire sample (240 cells), {label}",
                fmt_time(seconds),
                baseline=f"in-process {fmt_time(exact_serial)}",
                ratio=exact_serial / seconds,
            )
        )
    same = "yes" if identical else "NO"
    rows.append(row("every backend wrote the same file", same, met=identical))
    elapsed = time.perf_counter() - started
    print()
    print_table(rows)
    print()
    print(
        "Times include starting the worker processes (spawned: each imports firefight; measured "
        "apart as start-up), not the Dask cluster's start. A ratio above 1 is faster than "
        "in-process, except CPU time (the work's CPU seconds, the pool's workers included: its "
        "ratio is the CPU the pool adds). Wall-clock scaling needs idle cores: compare the CPU "
        "time with the wall time to see how much of a core each run got."
    )
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"Benchmark run took {elapsed:.1f} s; load average at the end {load}.")
    import dask  # noqa: PLC0415 - not at the top: spawned workers re-import this script
    import distributed  # noqa: PLC0415

    output = {
        "generated": datetime.now(UTC).isoformat(timespec="seconds"),
        "mode": "quick" if args.quick else "full",
        "environment": environment(
            dask=dask.__version__,
            distributed=distributed.__version__,
            load_average_at_end=os.getloadavg(),
        ),
        "sampled": {"cells": sampled.cells, "samples_per_cell": sampled.samples, **figures},
        "scaling_efficiency_2_processes": efficiency,
        "scaling_efficiency_2_processes_start_up_out": warm_efficiency,
        "dask_cluster_start_s": cluster_seconds,
        "exact": {
            "cells": exact.cells,
            "in_process_s": exact_serial,
            "local_2_s": exact_pool,
            "dask_2_s": exact_dask,
        },
        "identical": identical,
        "table": rows,
    }
    write_results(args.output, output, default=None)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
