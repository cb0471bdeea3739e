"""firefight visibility benchmarks: the engine against a baseline revision's, same run.

Run with ``make bench`` or ``.venv/bin/python benchmarks/visibility.py`` (``--quick``: a
120 x 120 board instead of 200 x 200, fewer repeats). Every measurement runs in a fresh
subprocess (cold caches, a clean memory peak) of ``firefight.board.visibility``, once with
this tree's ``src`` on the path and once with the baseline's (``--baseline REV``,
benchmarks/baseline.py: by default the commit before the last change of board/; the engine
of dense line templates, five 4-byte arrays a step for every offset of a board size, was last
current at ``eaf0c2f``):

* one visible set from the centre of a seeded 200 x 200 countryside board (``board.py``'s
  countryside, as many patches per hex as its 60 x 40 board): the first call for a board size
  (preparing the board and building line templates) and warm calls (median), in CPU seconds
  (``time.process_time``; wall seconds are recorded too: on a shared machine they swing with
  its load), and the peak of memory traced by ``tracemalloc`` over preparing the board and the
  first call;
* a threat map on the 60 x 40 board of ``board.py``: visible sets from 20 firer hexes (a
  seeded sample) to every hex, and the whole 2,400 x 2,400 matrix (on 4 seeded boards, 2
  with ``--quick``: the slowest is reported, with its seed);
* whether both engines give the same answers (a digest of the visible and modifier arrays).

Targets: a visible set on 200 x 200 <= 50 ms and <= 200 MB; a threat map of a
60 x 40 scenario <= 1 s. Prints a table and writes ``benchmarks/results/visibility.json``; a
missed target prints MISSED, and the exit code is 0 all the same.
"""

from __future__ import annotations

import os

for _variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

import argparse  # noqa: E402
import hashlib  # noqa: E402
import json  # noqa: E402
import random  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
import tracemalloc  # noqa: E402
from datetime import UTC, datetime  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import numpy as np  # noqa: E402

import baseline  # noqa: E402
from board import board_for  # noqa: E402
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
DEFAULT_OUTPUT = HERE / "results" / "visibility.json"
MEASURED = ("src/firefight/board",)
POLICIES = {"ept": EPT_LOS, "vv": VV_LOS}
VISIBLE_SET_TARGET_S = 0.05
VISIBLE_SET_TARGET_MB = 200
THREAT_MAP_TARGET_S = 1.0
FIRERS = 20
SEED = 20240601


def _digest(*arrays: np.ndarray) -> str:
    found = hashlib.sha256()
    for values in arrays:
        found.update(np.ascontiguousarray(values).tobytes())
    return found.hexdigest()[:16]


def _clock() -> tuple[float, float]:
    return time.process_time(), time.perf_counter()


def _since(start: tuple[float, float]) -> tuple[float, float]:
    cpu, wall = _clock()
    return cpu - start[0], wall - start[1]


def child_visible(engine: Any, ruleset: str, side: int, repeats: int) -> dict[str, object]:
    """One visible set from the centre of a side x side board."""
    board = board_for(ruleset, SEED, side, side)
    hexes = list(board.hexes())
    centre = hexes[len(hexes) // 2 + side // 2]
    tracemalloc.start()
    start = _clock()
    tool = engine.LosTool(board, POLICIES[ruleset])
    prepare = _since(start)
    visible, modifier = tool.row(centre)
    first = _since(start)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    runs = []
    for _ in range(repeats):
        start = _clock()
        tool.row(centre)
        runs.append(_since(start))
    return {
        "prepare_cpu_s": prepare[0],
        "first_cpu_s": first[0],
        "first_wall_s": first[1],
        "warm_cpu_s": statistics.median(cpu for cpu, _ in runs),
        "warm_wall_s": statistics.median(wall for _, wall in runs),
        "peak_mb": peak / 2**20,
        "visible_hexes": int(visible.sum()),
        "digest": _digest(visible, modifier),
    }


def child_threat(engine: Any, ruleset: str, repeats: int, boards: int) -> dict[str, object]:
    """A threat map on the 60 x 40 board: 20 firers to every hex, and the whole matrix (on
    ``boards`` seeded boards: the slowest is reported, with its seed)."""
    board = board_for(ruleset, SEED)
    hexes = list(board.hexes())
    tool = engine.LosTool(board, POLICIES[ruleset])
    firers = np.array(sorted(random.Random(SEED).sample(range(len(hexes)), FIRERS)), np.int32)
    tool.rows(firers)  # warm: the size's templates
    runs = []
    for _ in range(repeats):
        start = _clock()
        visible, modifier = tool.rows(firers)
        runs.append(_since(start))
    start = _clock()
    matrix = tool.matrix()
    whole = _since(start)
    digests, worst = [_digest(matrix.visible, matrix.modifier)], (whole, SEED)
    for seed in range(SEED + 1, SEED + boards):
        other = engine.LosTool(board_for(ruleset, seed), POLICIES[ruleset])
        other.rows(firers)  # the same size: its templates are built
        start = _clock()
        found = other.matrix()
        worst = max(worst, (_since(start), seed))
        digests.append(_digest(found.visible, found.modifier))
    whole = worst[0]
    return {
        "firers_cpu_s": statistics.median(cpu for cpu, _ in runs),
        "firers_wall_s": statistics.median(wall for _, wall in runs),
        "firers_digest": _digest(visible, modifier),
        "matrix_cpu_s": whole[0],
        "matrix_wall_s": whole[1],
        "matrix_digest": ",".join(digests),
        "matrix_worst_seed": worst[1],
        "matrix_boards": boards,
    }


def child(spec: dict[str, Any]) -> dict[str, object]:
    from firefight.board import visibility as engine  # noqa: PLC0415 - from the tree measured

    if spec["kind"] == "visible":
        return child_visible(engine, spec["ruleset"], spec["side"], spec["repeats"])
    return child_threat(engine, spec["ruleset"], spec["repeats"], spec["boards"])


def measure(src: Path, **spec: object) -> dict[str, Any]:
    """Run one measurement in a fresh Python process with ``src`` first on the path."""
    progress(", ".join(f"{k} {v}" for k, v in spec.items()))
    done = subprocess.run(
        [sys.executable, __file__, "--child", json.dumps(spec)],
        check=True,
        capture_output=True,
        text=True,
        env=os.environ | {"PYTHONPATH": os.pathsep.join([str(src), str(HERE)])},
    )
    found: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return found


def table(name: str, side: int, found: dict[str, dict[str, dict]]) -> list[dict]:
    size = f"{side} x {side}"
    now, before = found["now"]["visible"], found["baseline"]["visible"]
    threat, was = found["now"]["threat"], found["baseline"]["threat"]
    equal = now["digest"] == before["digest"] and all(
        threat[k] == was[k] for k in ("firers_digest", "matrix_digest")
    )
    return [
        row(
            f"{name} visible set on {size}, warm (CPU, median)",
            fmt_time(now["warm_cpu_s"]),
            baseline=fmt_time(before["warm_cpu_s"]),
            ratio=before["warm_cpu_s"] / now["warm_cpu_s"],
            target=f"<= {VISIBLE_SET_TARGET_S * 1e3:g} ms",
            met=now["warm_cpu_s"] <= VISIBLE_SET_TARGET_S,
        ),
        row(
            f"{name} visible set on {size}, warm (wall, median)",
            fmt_time(now["warm_wall_s"]),
            baseline=fmt_time(before["warm_wall_s"]),
            ratio=before["warm_wall_s"] / now["warm_wall_s"],
        ),
        row(
            f"{name} first visible set of the size: prepare + templates (CPU)",
            fmt_time(now["first_cpu_s"]),
            baseline=fmt_time(before["first_cpu_s"]),
            ratio=before["first_cpu_s"] / now["first_cpu_s"],
        ),
        row(
            f"{name} peak memory: prepare + first visible set (tracemalloc)",
            f"{now['peak_mb']:.0f} MB",
            baseline=f"{before['peak_mb']:.0f} MB",
            ratio=before["peak_mb"] / now["peak_mb"],
            target=f"<= {VISIBLE_SET_TARGET_MB} MB",
            met=now["peak_mb"] <= VISIBLE_SET_TARGET_MB,
        ),
        row(
            f"{name} threat map 60 x 40: {FIRERS} firers to every hex (CPU)",
            fmt_time(threat["firers_cpu_s"]),
            baseline=fmt_time(was["firers_cpu_s"]),
            ratio=was["firers_cpu_s"] / threat["firers_cpu_s"],
            target=f"<= {THREAT_MAP_TARGET_S:g} s",
            met=threat["firers_cpu_s"] <= THREAT_MAP_TARGET_S,
        ),
        row(
            f"{name} threat map 60 x 40: every hex to every hex (CPU, slowest of"
            f" {threat['matrix_boards']} boards: seed {threat['matrix_worst_seed']}"
            f", baseline's {was['matrix_worst_seed']})",
            fmt_time(threat["matrix_cpu_s"]),
            baseline=fmt_time(was["matrix_cpu_s"]),
            ratio=was["matrix_cpu_s"] / threat["matrix_cpu_s"],
            target=f"<= {THREAT_MAP_TARGET_S:g} s",
            met=threat["matrix_cpu_s"] <= THREAT_MAP_TARGET_S,
        ),
        row(f"{name} same answers as the baseline", "yes" if equal else "NO", met=equal),
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="120 x 120, fewer repeats")
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT, help="JSON results")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    baseline.add_option(parser, MEASURED)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(child(json.loads(args.child))))
        return 0
    side, repeats, boards = (120, 3, 2) if args.quick else (200, 7, 4)
    commit = baseline.resolve(args.baseline, MEASURED)
    started = time.perf_counter()
    print(f"firefight visibility benchmarks ({'quick' if args.quick else 'full'} run)")
    print(baseline.describe(commit, MEASURED))
    print(f"Load average at the start: {os.getloadavg()[0]:.1f}.")
    results: dict[str, dict[str, object]] = {}
    rows = []
    with baseline.checkout(commit) as tree:
        trees = {"now": HERE.parent / "src", "baseline": tree / "src"}
        for ruleset, name in (("ept", "EPT"), ("vv", "V&V")):
            found = {
                engine: {
                    "visible": measure(
                        src, kind="visible", ruleset=ruleset, side=side, repeats=repeats
                    ),
                    "threat": measure(
                        src, kind="threat", ruleset=ruleset, repeats=repeats, boards=boards
                    ),
                }
                for engine, src in trees.items()
            }
            results[ruleset] = found
            rows += table(name, side, found)
    elapsed = time.perf_counter() - started
    print()
    print_table(rows)
    print()
    print(f"Load average at the end: {os.getloadavg()[0]:.1f} (CPU times are the measure).")
    missed = report_missed(rows)
    print(f"Benchmark run took {elapsed:.1f} s.")
    write_results(
        args.output,
        {
            "generated": datetime.now(UTC).isoformat(timespec="seconds"),
            "mode": "quick" if args.quick else "full",
            "side": side,
            "baseline": commit,
            "environment": environment(numpy=np.__version__, load=os.getloadavg()),
            "results": results,
            "table": rows,
            "missed": missed,
            "elapsed_s": elapsed,
        },
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
