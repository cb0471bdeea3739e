"""firefight advisor benchmark, engagements: the optimal fire policy, exact.

Run with ``.venv/bin/python benchmarks/advise_engage.py``. Measurement, with its baseline
timed in the same run:

* **the optimal policy of ``ept_hedgerow`` to its horizon** (3 against 3, 10 turns,
  alternating fire, both sides optimal by backward induction, the Germans advised, P(win)),
  cold: target <= 10 s, exact. The baseline is the engagement's own exact answer under the
  scenario's policy (``Engagement.odds_over_turns``), cold, in the same run: the ratio is what
  weighing every allocation at every state costs over following one policy. The check: the
  solver's value with the scenario's policy on both sides equals the baseline's P(a wins),
  Fraction for Fraction, and the optimal value is at least every heuristic's.

The target is read on CPU seconds (the machine is shared: its wall seconds grow with the
load, printed beside). Prints the wall and CPU seconds of each, the machine's load before and
after, and writes
``benchmarks/results/advise_engage.json``; a missed target prints MISSED, and the exit code
is 0 all the same: benchmarks never fail the build.
"""

from __future__ import annotations

import argparse
import gc
import os
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from firefight.sim.engagement import Engagement
from firefight.sim.optimal import OPTIMAL, solve
from firefight.sim.scenario import POLICIES, load_scenario
from report import environment, fmt_time, print_table, report_missed, row, write_results

HERE = Path(__file__).resolve().parent
DEFAULT_OUTPUT = HERE / "results" / "advise_engage.json"
SCENARIO = "ept_hedgerow"
TARGET_SECONDS = 10.0


def _timed(action: Any) -> tuple[float, float, Any]:
    gc.collect()
    wall, cpu = time.perf_counter(), time.process_time()
    result = action()
    return time.perf_counter() - wall, time.process_time() - cpu, result


def measure() -> dict[str, Any]:
    """The optimal policy and its baseline, cold, in this run."""
    scenario = load_scenario(SCENARIO)
    base_wall, base_cpu, odds = _timed(lambda: Engagement(scenario).odds_over_turns())
    wall, cpu, solution = _timed(lambda: solve(scenario, "a"))
    best = solution.value((OPTIMAL, OPTIMAL))
    heuristics = {p: solution.value((p, OPTIMAL)) for p in POLICIES}
    both = solution.value((scenario.policy, scenario.policy))
    return {
        "scenario": SCENARIO,
        "turns": scenario.turns,
        "wall_s": wall,
        "cpu_s": cpu,
        "baseline_wall_s": base_wall,
        "baseline_cpu_s": base_cpu,
        "nodes": solution.game.explored,
        "optimal": str(best),
        "optimal_float": float(best),
        "heuristics": {p: float(v) for p, v in heuristics.items()},
        "both_scenario_policy": float(both),
        "checked_equal": both == odds.outcome["a_wins"].value
        and all(best >= v for v in heuristics.values()),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT)
    args = parser.parse_args(argv)
    print("firefight advisor benchmark: engagements")
    load_before = os.getloadavg()
    print(f"  machine load (1, 5, 15 min): {load_before}")
    found = measure()
    load_after = os.getloadavg()
    rows = [
        row(
            f"optimal policy, {SCENARIO} ({found['turns']} turns, {found['nodes']:,} nodes), "
            f"cold, CPU (wall {fmt_time(found['wall_s'])})",
            fmt_time(found["cpu_s"]),
            baseline=f"{fmt_time(found['baseline_cpu_s'])} one policy's exact answer, CPU",
            ratio=found["baseline_cpu_s"] / found["cpu_s"],
            target=f"<= {TARGET_SECONDS:g} s CPU, exact",
            met=found["cpu_s"] <= TARGET_SECONDS and found["checked_equal"],
        )
    ]
    print()
    print_table(rows)
    print()
    print(f"  machine load after (1, 5, 15 min): {load_after}")
    print(
        f"  P(Germans win): optimal {found['optimal_float']:.6f}; "
        + ", ".join(f"{p} {v:.6f}" for p, v in found["heuristics"].items())
        + f" (against an optimal opponent); both sides' scenario policy "
        f"{found['both_scenario_policy']:.6f}; checked: {found['checked_equal']}"
    )
    report_missed(rows)
    write_results(
        args.output,
        {
            "when": datetime.now(UTC).isoformat(timespec="seconds"),
            "environment": environment(load_before=load_before, load_after=load_after),
            "optimal": found,
            "rows": rows,
        },
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
