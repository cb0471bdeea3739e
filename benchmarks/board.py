"""firefight board benchmarks: the vectorized LOS tool against the per-pair pure-Python loop.

Run with ``make bench`` (after ``benchmarks/run.py``) or ``.venv/bin/python benchmarks/board.py``
(``--quick``: fewer repeats and sampled rows). On a seeded 60 x 40 board with realistic terrain,
for the EPT and the V&V policy: one visible set from a central hex, vectorized
(``visibility.visible_set``) against ``los.visible_from``, and the whole 2,400 x 2,400
visibility matrix (``visibility.visibility_matrix``, one core) against ``los.visible_from`` run
on a seeded sample of rows and extrapolated linearly (labelled so). The vectorized answers are
checked against the per-pair ones on every row the naive loop ran. Prints a table and writes
``benchmarks/results/board.json``; a missed target prints MISSED, and the exit code is 0 all
the same: benchmarks never fail the build.
"""

from __future__ import annotations

import os

# One core: numpy's elementwise work is single-threaded anyway; keep BLAS from spreading out.
for _variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

import argparse  # noqa: E402
import random  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections import Counter  # noqa: E402
from collections.abc import Callable  # noqa: E402
from datetime import UTC, datetime  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

from firefight.board.board import Board, hexside  # noqa: E402
from firefight.board.hexes import Hex  # noqa: E402
from firefight.board.los import LosPolicy, visible_from  # noqa: E402
from firefight.board.visibility import (  # noqa: E402
    LosTool,
    clear_shape_cache,
    visibility_matrix,
    visible_set,
)
from firefight.rulesets.ept.board import EPT_LOS  # noqa: E402
from firefight.rulesets.vv.board import VV_LOS  # noqa: E402
from report import (  # noqa: E402
    environment,
    fmt_time,
    print_table,
    progress,
    report_missed,
    row,
    write_results,
)

HERE = Path(__file__).resolve().parent
DEFAULT_OUTPUT = HERE / "results" / "board.json"

COLUMNS, ROWS = 60, 40
CENTRE = "3020"
VISIBLE_SET_TARGET_S = 5e-3
MATRIX_TARGET_S = 10.0
SPEEDUP_TARGET = 20.0

# The same countryside read in each rule set's vocabulary.
TERRAIN = {
    "ept": {
        "open": "clear",
        "woods": "forest",
        "village": "stone_building",
        "farm": "wood_building",
        "orchard": "orchard",
        "field": "field",
        "scrub": "brush",
        "marsh": "marsh",
        "road": "road",
    },
    "vv": {
        "open": "open",
        "woods": "woods",
        "village": "building",
        "farm": "building",
        "orchard": "orchard",
        "field": "crops",
        "scrub": "haystack",
        "marsh": "marsh",
        "road": "road",
    },
}
HEXSIDES = {
    "ept": {"hedge": "hedge", "wall": "wall", "bank": "bocage"},
    "vv": {"hedge": "hedge", "wall": "wall", "bank": "hedgerow"},
}


# --- the board ------------------------------------------------------------------------------


def blob(rng: random.Random, start: Hex, size: int, inside: set[Hex]) -> set[Hex]:
    """A patch of about ``size`` hexes grown at random from ``start``."""
    patch, frontier = {start}, [start]
    while frontier and len(patch) < size:
        here = frontier[rng.randrange(len(frontier))]
        step = here.neighbour(rng.randint(1, 6))
        if step in inside and step not in patch:
            patch.add(step)
            frontier.append(step)
        elif rng.random() < 0.2:
            frontier.remove(here)
    return patch


def countryside(
    seed: int, columns: int = COLUMNS, rows: int = ROWS
) -> tuple[dict[Hex, str], dict[Hex, int], dict[tuple[Hex, Hex], str]]:
    """Seeded countryside on a board (60 x 40 by default): hills, woods, villages, farms,
    orchards, fields lined with hedges and banks, scrub, marsh and a road; as neutral kinds.
    A larger board gets as many patches per hex as the 60 x 40 one."""
    rng = random.Random(seed)
    shell = Board("shape", "ept", columns, rows)
    scale = max(1, round(columns * rows / (COLUMNS * ROWS)))
    hexes = list(shell.hexes())
    inside = set(hexes)
    kind: dict[Hex, str] = {}
    elevation: dict[Hex, int] = {}
    for _ in range(7 * scale):  # hills: a level-1 skirt round a level-2 top
        top = rng.choice(hexes)
        for h in blob(rng, top, rng.randint(25, 70), inside):
            elevation[h] = 1
        for h in blob(rng, top, rng.randint(5, 20), inside):
            elevation[h] = 2
    for name, patches, low, high in (
        ("woods", 14, 10, 45),
        ("field", 26, 6, 20),
        ("orchard", 10, 3, 8),
        ("scrub", 10, 2, 6),
        ("marsh", 3, 4, 12),
        ("village", 5, 6, 14),
        ("farm", 10, 1, 3),
    ):
        for _ in range(patches * scale):
            for h in blob(rng, rng.choice(hexes), rng.randint(low, high), inside):
                kind[h] = name
    here = Hex(1, rng.randint(5, 30))  # a road across the board, west to east
    while here in inside:
        kind[here] = "road"
        here = here.neighbour(rng.choice((2, 3, 3)))
    sides: dict[tuple[Hex, Hex], str] = {}
    for h in hexes:
        for n in h.neighbours():
            if n not in inside or kind.get(h) == kind.get(n):
                continue
            edge = {kind.get(h), kind.get(n)}
            if "field" in edge and rng.random() < 0.6:
                sides[hexside(h, n)] = "bank" if rng.random() < 0.35 else "hedge"
            elif edge & {"village", "farm"} and rng.random() < 0.3:
                sides[hexside(h, n)] = "wall"
    return kind, elevation, sides


def board_for(ruleset: str, seed: int, columns: int = COLUMNS, rows: int = ROWS) -> Board:
    kind, elevation, sides = countryside(seed, columns, rows)
    terrain_names, side_names = TERRAIN[ruleset], HEXSIDES[ruleset]
    return Board(
        f"bench-{ruleset}",
        ruleset,
        columns,
        rows,
        "odd-q",
        terrain_names["open"],
        {h: terrain_names[k] for h, k in kind.items()},
        elevation,
        {side: side_names[k] for side, k in sides.items()},
    )


def describe(board: Board) -> dict[str, object]:
    hexes = list(board.hexes())
    return {
        "columns": board.columns,
        "rows": board.rows,
        "hexes": len(hexes),
        "terrain": dict(Counter(board.terrain_of(h) for h in hexes).most_common()),
        "levels": dict(sorted(Counter(board.elevation_of(h) for h in hexes).items())),
        "hexsides": dict(Counter(board.hexsides.values()).most_common()),
    }


# --- timing ---------------------------------------------------------------------------------


def timed(action: Callable[[], object]) -> tuple[float, object]:
    start = time.perf_counter()
    result = action()
    return time.perf_counter() - start, result


def median_time(action: Callable[[], object], repeats: int) -> tuple[float, list[float]]:
    action()  # warm up
    timings = [timed(action)[0] for _ in range(repeats)]
    return statistics.median(timings), timings


def naive_row(board: Board, a: Hex, policy: LosPolicy) -> tuple[float, dict[Hex, int]]:
    seconds, found = timed(lambda: visible_from(board, a, policy))
    assert isinstance(found, dict)
    return seconds, {b: verdict.modifier for b, verdict in found.items()}


def bench_policy(name: str, policy: LosPolicy, args: argparse.Namespace) -> dict[str, object]:
    board = board_for(policy.ruleset, args.seed)
    centre = board.hex(CENTRE)
    hexes = list(board.hexes())

    progress(f"{name}: first visible set on a new board size (builds the line templates)")
    clear_shape_cache()
    first_s, _ = timed(lambda: visible_set(board, centre, policy))

    progress(f"{name}: visible set from {CENTRE}, vectorized x{args.repeats}")
    fast_s, fast_runs = median_time(lambda: visible_set(board, centre, policy), args.repeats)
    tool = LosTool(board, policy)
    prepared_s, _ = median_time(lambda: tool.visible_set(centre), args.repeats)
    prepare_s, _ = median_time(lambda: LosTool(board, policy), args.repeats)
    fast = visible_set(board, centre, policy)

    progress(f"{name}: visible set from {CENTRE}, naive visible_from x{args.naive_repeats}")
    naive_runs = [naive_row(board, centre, policy) for _ in range(args.naive_repeats)]
    naive_s = statistics.median(t for t, _ in naive_runs)
    centre_equal = fast == naive_runs[0][1]

    progress(f"{name}: whole matrix {len(hexes):,} x {len(hexes):,}, vectorized")
    matrix_s, matrix = timed(lambda: visibility_matrix(board, policy))
    assert hasattr(matrix, "visible_from")

    sample = sorted(random.Random(args.seed).sample(range(len(hexes)), args.sample_rows))
    progress(f"{name}: naive visible_from on {len(sample)} sampled rows")
    row_times, mismatched = [], []
    for index in sample:
        seconds, expected = naive_row(board, hexes[index], policy)
        row_times.append(seconds)
        if matrix.visible_from(hexes[index]) != expected:
            mismatched.append(board.label(hexes[index]))
    naive_matrix_s = statistics.fmean(row_times) * len(hexes)
    visible = matrix.visible
    return {
        "policy": repr(policy),
        "board": describe(board),
        "centre": CENTRE,
        "visible_set": {
            "seconds": fast_s,
            "runs": len(fast_runs),
            "p90_s": sorted(fast_runs)[(len(fast_runs) * 9) // 10],
            "prepared_seconds": prepared_s,
            "prepare_seconds": prepare_s,
            "first_call_seconds": first_s,
            "visible_hexes": len(fast),
            "naive_seconds": naive_s,
            "naive_runs": len(naive_runs),
            "speedup": naive_s / fast_s,
            "equal_to_naive": centre_equal,
        },
        "matrix": {
            "seconds": matrix_s,
            "pairs": len(hexes) ** 2,
            "visible_pairs": int(visible.sum()),
            "symmetric_visible": bool((visible == visible.T).all()),
            "naive_rows_timed": [board.label(hexes[i]) for i in sample],
            "naive_row_seconds": row_times,
            "naive_seconds_extrapolated": naive_matrix_s,
            "extrapolation_factor": len(hexes) / len(sample),
            "speedup": naive_matrix_s / matrix_s,
            "rows_checked": len(sample),
            "rows_mismatched": mismatched,
        },
    }


# --- the table ------------------------------------------------------------------------------


def table_rows(name: str, result: dict[str, object], args: argparse.Namespace) -> list[dict]:
    one, whole = result["visible_set"], result["matrix"]
    assert isinstance(one, dict)
    assert isinstance(whole, dict)
    naive_one = f"{fmt_time(one['naive_seconds'])} visible_from"
    extrapolated = (
        f"{fmt_time(whole['naive_seconds_extrapolated'])} visible_from, "
        f"extrapolated x{whole['extrapolation_factor']:g}"
    )
    checked = whole["rows_checked"] + 1
    equal = one["equal_to_naive"] and not whole["rows_mismatched"]
    return [
        row(
            f"{name} visible set from {CENTRE}, visible_set() (median of {one['runs']})",
            fmt_time(one["seconds"]),
            target=f"<= {VISIBLE_SET_TARGET_S * 1e3:g} ms",
            met=one["seconds"] <= VISIBLE_SET_TARGET_S,
        ),
        row(
            f"{name} visible set, vectorized vs naive loop (median of {one['naive_runs']})",
            fmt_time(one["seconds"]),
            baseline=naive_one,
            ratio=one["speedup"],
            target=f">= {SPEEDUP_TARGET:g}x",
            met=one["speedup"] >= SPEEDUP_TARGET,
        ),
        row(
            f"{name} visible set, LosTool prepared once (median of {one['runs']})",
            fmt_time(one["prepared_seconds"]),
        ),
        row(
            f"{name} visible set, first call for a board size (builds line templates)",
            fmt_time(one["first_call_seconds"]),
        ),
        row(
            f"{name} matrix {whole['pairs']:,} pairs, vectorized, one core",
            fmt_time(whole["seconds"]),
            target=f"<= {MATRIX_TARGET_S:g} s",
            met=whole["seconds"] <= MATRIX_TARGET_S,
        ),
        row(
            f"{name} matrix, vectorized vs naive loop ({whole['rows_checked']} rows, extrapolated)",
            fmt_time(whole["seconds"]),
            baseline=extrapolated,
            ratio=whole["speedup"],
            target=f">= {SPEEDUP_TARGET:g}x",
            met=whole["speedup"] >= SPEEDUP_TARGET,
        ),
        row(
            f"{name} vectorized = per-pair on the {checked} rows the naive loop ran",
            "yes" if equal else f"NO: {', '.join(whole['rows_mismatched']) or CENTRE}",
            met=equal,
        ),
    ]


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--quick",
        action="store_true",
        help="fewer repeats, and the naive loop on 5 sampled rows instead of 20",
    )
    parser.add_argument("--seed", type=int, default=20240601, help="seed of the board and sample")
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT, help="JSON results file")
    args = parser.parse_args(argv)
    args.repeats = 11 if args.quick else 31
    args.naive_repeats = 1 if args.quick else 3
    args.sample_rows = 5 if args.quick else 20
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    started = time.perf_counter()
    print(
        f"firefight board benchmarks ({'quick' if args.quick else 'full'} run): line of sight "
        f"on a {COLUMNS} x {ROWS} board (seed {args.seed})"
    )
    results, rows = {}, []
    for name, policy in (("EPT", EPT_LOS), ("V&V", VV_LOS)):
        results[policy.ruleset] = bench_policy(name, policy, args)
        rows += table_rows(name, results[policy.ruleset], args)
    elapsed = time.perf_counter() - started

    print()
    print_table(rows)
    print()
    for ruleset, result in results.items():
        whole = result["matrix"]
        print(
            f"{ruleset}: {whole['visible_pairs']:,} of {whole['pairs']:,} pairs visible; "
            f"naive rows timed: {', '.join(whole['naive_rows_timed'])}."
        )
    print(
        "EXTRAPOLATED: the naive matrix time is the mean time of visible_from on the sampled "
        "rows times the 2,400 rows."
    )
    missed = report_missed(rows)
    print(f"Benchmark run took {elapsed:.1f} s.")

    output = {
        "generated": datetime.now(UTC).isoformat(timespec="seconds"),
        "mode": "quick" if args.quick else "full",
        "seed": args.seed,
        "environment": environment(
            numpy=np.__version__,
            threads={v: os.environ.get(v) for v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS")},
        ),
        "targets": {
            "visible_set_s": VISIBLE_SET_TARGET_S,
            "matrix_s": MATRIX_TARGET_S,
            "speedup": SPEEDUP_TARGET,
        },
        "results": results,
        "table": rows,
        "missed": missed,
        "elapsed_s": elapsed,
    }
    write_results(args.output, output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
