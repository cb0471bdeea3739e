"""firefight benchmarks: exact-odds latency, Monte Carlo baselines, CLI start-up, peak memory.

Run with ``make bench`` (or ``.venv/bin/python benchmarks/run.py``; ``--quick`` for a short run
that extrapolates the slow Monte Carlo baseline from fewer samples). Prints a table and writes
``benchmarks/results/latest.json``. A missed target is printed as MISSED; the exit code is 0
all the same: benchmarks never fail the build. See ``benchmarks/README.md``.
"""

from __future__ import annotations

import argparse
import importlib
import math
import random
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

import firefight
from firefight.errors import RuleError
from montecarlo import (
    chart_lookup_array,
    clear_cache,
    max_error,
    numpy_monte_carlo,
    peak_memory,
    sampled_monte_carlo,
)
from report import (
    environment,
    fmt_time,
    print_table,
    progress,
    report_missed,
    row,
    write_results,
)

# ``firefight.rulesets.ept`` re-exports the rule function ``fire``, which shadows the submodule
# of the same name as an attribute; import the module itself.
ept_fire = importlib.import_module("firefight.rulesets.ept.fire")

HERE = Path(__file__).resolve().parent
DEFAULT_OUTPUT = HERE / "results" / "latest.json"

Z95 = 1.96
HALF_WIDTH = 0.001  # +-0.1 percentage point
MC_SAMPLES = math.ceil((Z95 * 0.5 / HALF_WIDTH) ** 2)  # worst case p = 0.5: 960,400
QUICK_FRACTION = 20  # --quick draws MC_SAMPLES / 20 sampled resolutions and extrapolates

EXACT_TARGET_S = 0.5e-3
CLI_TARGET_S = 0.4

REFERENCE_ATTACK = {"strength": 6, "range": "adjacent", "protection": "medium"}
STRENGTHS = (1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16, 20, 24, 30, 40, 50)
RANGES = ("adjacent", "normal", "long")
MOVEMENTS = ("none", "tactical", "normal", "force_march")
PROTECTIONS = ("none", "light", "medium", "important")


# --- caches ---------------------------------------------------------------------------------


PER_ATTACK_CACHES = ("fire_sheet", "exact_factor", "dice_modifier")
"""EPT fire's caches keyed by the attack (the chart, loaded once, and the cells it has found
stay warm, as they do in a running program)."""


def cache_policy() -> tuple[str, Callable[[], None] | None]:
    """How exact-odds calls are kept honest about the per-attack lru_caches."""
    clears = {
        name: clear
        for name in PER_ATTACK_CACHES
        if callable(clear := getattr(getattr(ept_fire, name, None), "cache_clear", None))
    }
    if not clears:
        return "no cache to clear found: each attack is distinct and timed on its first call", None

    def clear_all() -> None:
        for clear in clears.values():
            clear()

    return f"{', '.join(f'{n}.cache_clear()' for n in clears)} before every timed call", clear_all


# --- attacks --------------------------------------------------------------------------------


def random_attack_data(
    rng: random.Random, follow_up: str, strengths: tuple[int, ...] = STRENGTHS
) -> dict[str, object]:
    """An EPT fire attack drawn at random (``benchmarks/web_phases.py`` draws its own too)."""
    data: dict[str, object] = {
        "strength": rng.choice(strengths),
        "range": rng.choice(RANGES),
        "moved_and_fired": rng.random() < 0.25,
        "firer_stopped": rng.random() < 0.15,
        "firer_in_smoke": rng.random() < 0.1,
        "target_hidden": rng.random() < 0.25,
        "target_movement": rng.choice(MOVEMENTS),
        "protection": rng.choice(PROTECTIONS),
        "target_in_smoke": rng.random() < 0.15,
        "hindrance_hexes": rng.randint(0, 3),
    }
    if data["range"] == "adjacent":  # no hex between adjacent hexes to hinder (the draw kept)
        data["hindrance_hexes"] = 0
    if follow_up == "morale_test":
        data["follow_up"] = "morale_test"
        data["morale"] = rng.randint(5, 10)
    return data


def attack_set(fire, count: int, seed: int, follow_up: str = "chart") -> list:
    """``count`` distinct attacks the rules allow (a unit that cannot attack is drawn again)."""
    rng = random.Random(seed)
    seen: set[tuple] = set()
    attacks = []
    for _ in range(count * 50):
        if len(attacks) == count:
            break
        data = random_attack_data(rng, follow_up)
        key = tuple(sorted(data.items()))
        if key in seen:
            continue
        seen.add(key)
        attack = fire.parse(data)
        try:
            # Validity only: the line-of-sight and column checks, not the odds themselves.
            ept_fire.check_line_of_sight(attack)
            ept_fire.combat_column(attack)
        except RuleError:
            continue
        attacks.append(attack)
    return attacks


# --- exact odds -----------------------------------------------------------------------------


def time_exact(fire, attacks: list, repeats: int, clear: Callable[[], None] | None) -> list[float]:
    """Seconds per ``fire.odds`` call, every attack ``repeats`` times, caches cleared first."""
    if clear is None:
        repeats = 1  # without a cache to clear only the first call of an attack is honest
    timings = []
    for _ in range(repeats):
        for attack in attacks:
            clear_cache(clear)
            start = time.perf_counter_ns()
            fire.odds(attack)
            timings.append((time.perf_counter_ns() - start) / 1e9)
    return timings


def time_exact_warm(fire, attacks: list, repeats: int) -> list[float]:
    """Seconds per ``fire.odds`` call with the per-attack caches warm (for information)."""
    for attack in attacks:
        fire.odds(attack)
    timings = []
    for _ in range(repeats):
        for attack in attacks:
            start = time.perf_counter_ns()
            fire.odds(attack)
            timings.append((time.perf_counter_ns() - start) / 1e9)
    return timings


def summary(timings: list[float]) -> dict[str, float | int]:
    ordered = sorted(timings)
    return {
        "calls": len(ordered),
        "median_s": statistics.median(ordered),
        "p10_s": ordered[len(ordered) // 10],
        "p90_s": ordered[(len(ordered) * 9) // 10],
        "min_s": ordered[0],
        "max_s": ordered[-1],
    }


# --- CLI start-up ---------------------------------------------------------------------------


def median_run(command: list[str], runs: int) -> tuple[float, list[float]]:
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    timings = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        timings.append(time.perf_counter() - start)
    return statistics.median(timings), timings


def firefight_script() -> str | None:
    beside = Path(sys.executable).parent / "firefight"
    if beside.exists():
        return str(beside)
    return shutil.which("firefight")


# --- formatting -----------------------------------------------------------------------------


def fmt_bytes(size: float) -> str:
    for unit in ("B", "KiB", "MiB"):
        if size < 1024:
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    return f"{size:.2f} GiB"


# --- the run --------------------------------------------------------------------------------


def bench_exact(fire, args, clear) -> dict[str, object]:
    progress(f"exact odds over {args.attacks} varied attacks x {args.repeats}")
    attacks = attack_set(fire, args.attacks, args.seed)
    cold = summary(time_exact(fire, attacks, args.repeats, clear))
    warm = summary(time_exact_warm(fire, attacks, args.repeats))
    morale_attacks = attack_set(fire, max(args.attacks // 4, 1), args.seed + 1, "morale_test")
    morale = summary(time_exact(fire, morale_attacks, args.repeats, clear))
    reference = fire.parse(REFERENCE_ATTACK)
    ref = summary(time_exact(fire, [reference], args.repeats * 20, clear))
    return {
        "attacks": len(attacks),
        "cold": cold,
        "warm": warm,
        "morale_attacks": len(morale_attacks),
        "morale_test": morale,
        "reference": ref,
    }


def bench_monte_carlo(fire, args, clear) -> dict[str, object]:
    reference = fire.parse(REFERENCE_ATTACK)
    clear_cache(clear)
    exact = dict(fire.odds(reference))
    n_sampled = MC_SAMPLES // QUICK_FRACTION if args.quick else MC_SAMPLES
    scale = MC_SAMPLES / n_sampled
    progress(f"sampled Monte Carlo, {n_sampled:,} resolutions (about 20 s per 960,400)")
    sampled_s, sampled_counts = sampled_monte_carlo(fire, reference, n_sampled, args.seed, clear)

    progress(f"numpy Monte Carlo, {MC_SAMPLES:,} 2d6 x {args.numpy_repeats}")
    lut_info = chart_lookup_array()
    numpy_runs = [
        numpy_monte_carlo(reference, MC_SAMPLES, args.seed + i, clear, lut_info)
        for i in range(args.numpy_repeats)
    ]
    numpy_s = statistics.median(t for t, _ in numpy_runs)
    numpy_counts = numpy_runs[0][1]

    progress("peak memory: exact odds call")
    fire.odds(reference)  # warm imports and charts so only the call itself is traced

    def exact_call() -> None:
        clear_cache(clear)
        fire.odds(reference)

    exact_peak = peak_memory(exact_call)
    progress(
        f"peak memory: sampled Monte Carlo, {n_sampled:,} resolutions under tracemalloc "
        f"(about 3x slower than untraced)"
    )
    sampled_peak = peak_memory(
        lambda: sampled_monte_carlo(fire, reference, n_sampled, args.seed, clear)
    )
    numpy_peak = peak_memory(
        lambda: numpy_monte_carlo(reference, MC_SAMPLES, args.seed, clear, lut_info)
    )
    return {
        "attack": REFERENCE_ATTACK,
        "samples_needed": MC_SAMPLES,
        "sampled": {
            "samples_run": n_sampled,
            "extrapolated": scale != 1,
            "seconds_measured": sampled_s,
            "seconds": sampled_s * scale,
            "max_abs_error_pp": 100 * max_error(sampled_counts, n_sampled, exact),
            "peak_bytes_measured": sampled_peak,
            "peak_bytes": sampled_peak * scale,
        },
        "numpy": {
            "samples_run": MC_SAMPLES,
            "runs": args.numpy_repeats,
            "seconds": numpy_s,
            "max_abs_error_pp": 100 * max_error(numpy_counts, MC_SAMPLES, exact),
            "peak_bytes": numpy_peak,
        },
        "exact_peak_bytes": exact_peak,
    }


def bench_cli(args) -> dict[str, object]:
    script = firefight_script()
    progress(f"CLI start-up, {args.cli_runs} runs each")
    python_s, python_runs = median_run([sys.executable, "-c", "pass"], args.cli_runs)
    if script is None:
        return {"skipped": "no firefight script found", "python_median_s": python_s}
    cli_s, cli_runs = median_run([script, "--help"], args.cli_runs)
    return {
        "command": f"{script} --help",
        "baseline_command": f"{sys.executable} -c pass",
        "median_s": cli_s,
        "python_median_s": python_s,
        "runs_s": cli_runs,
        "python_runs_s": python_runs,
    }


def table_rows(exact, mc, cli) -> list[dict[str, object]]:
    cold = exact["cold"]
    ref_s = exact["reference"]["median_s"]
    sampled, vec = mc["sampled"], mc["numpy"]
    extrap = f", extrapolated x{QUICK_FRACTION}" if sampled["extrapolated"] else ""
    rows = [
        row(
            f"exact odds, median per attack ({exact['attacks']} attacks, cold cache)",
            fmt_time(cold["median_s"]),
            target=f"<= {EXACT_TARGET_S * 1e3:g} ms",
            met=cold["median_s"] <= EXACT_TARGET_S,
        ),
        row("exact odds, p90 per attack (cold cache)", fmt_time(cold["p90_s"])),
        row("exact odds, median, per-attack caches warm", fmt_time(exact["warm"]["median_s"])),
        row(
            f"exact odds, median, follow_up=morale_test ({exact['morale_attacks']} attacks)",
            fmt_time(exact["morale_test"]["median_s"]),
        ),
        row(
            f"exact odds vs sampled MC (reference attack{extrap})",
            fmt_time(ref_s),
            baseline=f"{fmt_time(sampled['seconds'])} sample_many x{MC_SAMPLES:,}",
            ratio=sampled["seconds"] / ref_s,
        ),
        row(
            "exact odds vs numpy MC (reference attack)",
            fmt_time(ref_s),
            baseline=f"{fmt_time(vec['seconds'])} numpy x{MC_SAMPLES:,}",
            ratio=vec["seconds"] / ref_s,
        ),
        row(
            f"peak memory, exact odds vs sampled MC (one call{extrap})",
            fmt_bytes(mc["exact_peak_bytes"]),
            baseline=fmt_bytes(sampled["peak_bytes"]),
            ratio=sampled["peak_bytes"] / mc["exact_peak_bytes"],
        ),
        row(
            "peak memory, exact odds vs numpy MC (one call)",
            fmt_bytes(mc["exact_peak_bytes"]),
            baseline=fmt_bytes(vec["peak_bytes"]),
            ratio=vec["peak_bytes"] / mc["exact_peak_bytes"],
        ),
    ]
    if "skipped" in cli:
        rows.append(row("CLI start-up, firefight --help", f"skipped: {cli['skipped']}"))
    else:
        rows.append(
            row(
                "CLI start-up, firefight --help (median)",
                f"{cli['median_s']:.3f} s",
                baseline=f"{cli['python_median_s']:.3f} s python -c pass",
                ratio=cli["median_s"] / cli["python_median_s"],
                target=f"<= {CLI_TARGET_S:g} s",
                met=cli["median_s"] <= CLI_TARGET_S,
            )
        )
    return rows


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--quick",
        action="store_true",
        help=f"run the sampled Monte Carlo on 1/{QUICK_FRACTION} of the samples and "
        "extrapolate linearly (labelled as such)",
    )
    parser.add_argument("--seed", type=int, default=20240601, help="seed of every random draw")
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT, help="JSON results file")
    args = parser.parse_args(argv)
    args.attacks = 200 if args.quick else 400
    args.repeats = 3 if args.quick else 5
    args.numpy_repeats = 3 if args.quick else 5
    args.cli_runs = 5 if args.quick else 11
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    started = time.perf_counter()
    fire = firefight.ruleset("ept").procedure("fire")
    policy, clear = cache_policy()
    print(f"firefight benchmarks ({'quick' if args.quick else 'full'} run), EPT fire")
    print(f"cache policy: {policy}")

    exact = bench_exact(fire, args, clear)
    mc = bench_monte_carlo(fire, args, clear)
    cli = bench_cli(args)
    rows = table_rows(exact, mc, cli)
    elapsed = time.perf_counter() - started

    print()
    print_table(rows)
    print()
    sampled, vec = mc["sampled"], mc["numpy"]
    print(
        f"Monte Carlo: {MC_SAMPLES:,} samples = +-0.1 pp at 95% for every outcome (worst case "
        f"p = 0.5); reference attack {REFERENCE_ATTACK}."
    )
    if sampled["extrapolated"]:
        print(
            f"EXTRAPOLATED: sampled MC time and memory measured on {sampled['samples_run']:,} "
            f"samples ({fmt_time(sampled['seconds_measured'])}, "
            f"{fmt_bytes(sampled['peak_bytes_measured'])}) and scaled x{QUICK_FRACTION}."
        )
    print(
        f"Largest |frequency - exact| seen: sampled MC {sampled['max_abs_error_pp']:.3f} pp "
        f"(on {sampled['samples_run']:,} samples), numpy MC {vec['max_abs_error_pp']:.3f} pp "
        f"(on {MC_SAMPLES:,}); target half-width {100 * HALF_WIDTH:g} pp."
    )
    missed = report_missed(rows)
    print(f"Benchmark run took {elapsed:.1f} s.")

    results = {
        "generated": datetime.now(UTC).isoformat(timespec="seconds"),
        "mode": "quick" if args.quick else "full",
        "seed": args.seed,
        "cache_policy": policy,
        "environment": environment(numpy=np.__version__),
        "targets": {"exact_odds_median_s": EXACT_TARGET_S, "cli_startup_median_s": CLI_TARGET_S},
        "exact_odds": exact,
        "monte_carlo": mc,
        "cli_startup": cli,
        "table": rows,
        "missed": missed,
        "elapsed_s": elapsed,
    }
    write_results(args.output, results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
