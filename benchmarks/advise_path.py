"""firefight safest-path benchmark: ``move --to`` on the ``village`` sample and a 10 x 8 check.

Run with ``.venv/bin/python benchmarks/advise_path.py`` (``--quick``: three destinations
instead of every one). Two measurements:

* the ``village`` sample (an alias of ``vv_crossroads``): the platoon in 0206 (two squads and
  Lt. Hale, 6 MPs), the safest path (P(all unpinned)) to every hex within 6 it may stand in, one
  search each (target: each <= 2 s; the best 3 paths' worst is shown too); the baseline
  measured in the same run is the same search evaluating every legal path (``exhaustive``,
  within :data:`BASELINE_RADIUS` hexes, where the paths fit the budget), the best paths
  checked equal;
* a seeded 10 x 8 countryside (``benchmarks/board.py``) with a squad and leader on its west
  edge and two German groups east: every reachable destination, the branch and bound's best
  path against every legal path evaluated (must be identical).

CPU time (``time.process_time``) is reported beside the wall time, and the load average: the
machine is shared, so read the ratios and the CPU. Writes ``benchmarks/results/advise_path.json``;
a missed target prints MISSED, and the exit code is 0 all the same.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from datetime import UTC, datetime
from fractions import Fraction
from pathlib import Path

from board import board_for
from firefight.board.hexes import Hex
from firefight.errors import InputError
from firefight.rulesets.vv.action_inputs import MoveInput
from firefight.rulesets.vv.path_action import builder
from firefight.rulesets.vv.path_search import PathSearch, search_paths
from firefight.rulesets.vv.scenario import (
    BoardScenario,
    ScenarioUnit,
    SupportWeapon,
    load_board_scenario,
    prohibited,
)
from report import environment, fmt_time, print_table, report_missed, row, write_results

HERE = Path(__file__).resolve().parent
DEFAULT_OUTPUT = HERE / "results" / "advise_path.json"
BASELINE_RADIUS = 3
"""The village's baseline (every path evaluated) is measured for the destinations this near:
farther, the paths of a 6-MP platoon pass the search's budget."""
SEARCH_TARGET_S = 2.0
"""The target: the safest paths from 0206 to any reachable destination in at most 2 s."""


def search(
    scenario: BoardScenario, start: str, to: Hex, *, exhaustive: bool, top: int = 1
) -> PathSearch:
    inp = MoveInput(stack=start, to=scenario.board.label(to))
    build, _side = builder(scenario, inp, Fraction(1), Fraction(1, 3))
    return search_paths(
        scenario,
        scenario.board.hex(start),
        to,
        build,
        policy="threshold",
        top=top,
        exhaustive=exhaustive,
    )


def reachable(scenario: BoardScenario, start: str, radius: int) -> list[Hex]:
    """The hexes within ``radius`` of the start that a stack may stand in (no enemy)."""
    origin = scenario.board.hex(start)
    side = scenario.units_at(origin)[0].side
    return [
        h
        for h in scenario.board.hexes()
        if 0 < origin.distance(h) <= radius
        and not any(u.side != side for u in scenario.units_at(h))
        and not prohibited("squad", scenario.board.terrain_of(h))
    ]


def timed(action):
    wall, cpu = time.perf_counter(), time.process_time()
    result = action()
    return time.perf_counter() - wall, time.process_time() - cpu, result


def best(found: PathSearch) -> tuple[object, ...] | None:
    return found.paths[0].key("unpinned") if found.paths else None


def small_scenario(seed: int) -> BoardScenario:
    """A seeded 10 x 8 V&V countryside: a squad and a leader west, two German groups east."""
    board = board_for("vv", seed, columns=10, rows=8)
    rng = random.Random(seed)
    open_hexes = [h for h in board.hexes() if not prohibited("squad", board.terrain_of(h))]
    west = [h for h in open_hexes if board.label(h) < "0300"]
    east = [h for h in open_hexes if board.label(h) >= "0700"]
    mg42 = SupportWeapon("MG42", "L", "mg", 4, 8)
    start = rng.choice(west)
    units = [
        ScenarioUnit("us-sq", "us", "squad", start, 4, None, 6, 4, 2, 2),
        ScenarioUnit("us-ldr", "us", "leader", start, 1, None, 4, 2, leadership_modifier=-1),
    ]
    for index, hex_ in enumerate(rng.sample(east, 2)):
        units.append(
            ScenarioUnit(
                f"de-sq{index}", "de", "squad", hex_, 5, None, 5, 4, 2, 2, support_weapons=(mg42,)
            )
        )
    return BoardScenario("bench 10x8", board, {"us": "Americans", "de": "Germans"}, tuple(units))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="three destinations per board")
    parser.add_argument("--seed", type=int, default=20240601, help="seed of the 10 x 8 board")
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT, help="JSON results file")
    args = parser.parse_args(argv)
    load = os.getloadavg()
    print(f"firefight safest-path benchmark; load average {load[0]:.1f} {load[1]:.1f}")
    village = load_board_scenario("village")
    targets = reachable(village, "0206", 6)
    if args.quick:
        targets = [village.board.hex(h) for h in ("0406", "0606", "0208")]
    worst = (0.0, 0.0, "")
    worst_cpu = (0.0, "")
    worst3 = (0.0, 0.0, "")
    total_cpu = base_cpu = fast_cpu = 0.0
    refused = 0
    same = True
    origin = village.board.hex("0206")
    for to in targets:
        wall, cpu, found = timed(lambda to=to: search(village, "0206", to, exhaustive=False))
        if wall > worst[0]:
            worst = (wall, cpu, village.board.label(to))
        worst_cpu = max(worst_cpu, (cpu, village.board.label(to)))
        total_cpu += cpu
        wall3, cpu3, _found = timed(
            lambda to=to: search(village, "0206", to, exhaustive=False, top=3)
        )
        if wall3 > worst3[0]:
            worst3 = (wall3, cpu3, village.board.label(to))
        if origin.distance(to) > BASELINE_RADIUS:
            continue
        try:
            _w, bcpu, slow = timed(lambda to=to: search(village, "0206", to, exhaustive=True))
        except InputError:
            refused += 1  # more paths than the budget: the baseline cannot be measured there
            continue
        base_cpu += bcpu
        fast_cpu += cpu
        same = same and best(found) == best(slow)
    small = small_scenario(args.seed)
    start = small.board.label(small.units[0].hex)
    checked = identical = 0
    for to in reachable(small, start, 6)[: 3 if args.quick else None]:
        fast = search(small, start, to, exhaustive=False)
        slow = search(small, start, to, exhaustive=True)
        checked += 1
        identical += best(fast) == best(slow)
    rows = [
        row(
            f"village 0206, worst of {len(targets)} destinations ({worst[2]})",
            fmt_time(worst[0]),
            target=f"<= {fmt_time(SEARCH_TARGET_S)}",
            met=worst[0] <= SEARCH_TARGET_S,
        ),
        row(
            f"village 0206, the most CPU of one search ({worst_cpu[1]})",
            fmt_time(worst_cpu[0]),
            target=f"<= {fmt_time(SEARCH_TARGET_S)}",
            met=worst_cpu[0] <= SEARCH_TARGET_S,
        ),
        row(
            f"village 0206, the best 3 paths, worst ({worst3[2]}; CPU {fmt_time(worst3[1])})",
            fmt_time(worst3[0]),
        ),
        row(
            f"village 0206, CPU of all {len(targets)} searches",
            fmt_time(total_cpu),
        ),
        row(
            f"village 0206, CPU within {BASELINE_RADIUS} hexes, every path in the budget",
            fmt_time(fast_cpu),
            baseline=fmt_time(base_cpu),
            ratio=base_cpu / fast_cpu if fast_cpu else None,
        ),
        row("village: best path as every path evaluated", "yes" if same else "NO", met=same),
        row(
            f"10x8: best path identical ({checked} destinations)",
            f"{identical}/{checked}",
            met=identical == checked,
        ),
    ]
    print()
    print_table(rows)
    print("baseline: every legal path evaluated exactly (exhaustive), in the same run.")
    missed = report_missed(rows)
    write_results(
        args.output,
        {
            "generated": datetime.now(UTC).isoformat(timespec="seconds"),
            "mode": "quick" if args.quick else "full",
            "seed": args.seed,
            "load": load,
            "environment": environment(),
            "targets": {"search_s": SEARCH_TARGET_S},
            "results": {
                "worst_s": worst[0],
                "worst_cpu_s": worst[1],
                "most_cpu_s": worst_cpu[0],
                "most_cpu_to": worst_cpu[1],
                "worst_to": worst[2],
                "worst_top3_s": worst3[0],
                "worst_top3_cpu_s": worst3[1],
                "cpu_s": total_cpu,
                "compared_cpu_s": fast_cpu,
                "baseline_refused": refused,
                "exhaustive_cpu_s": base_cpu,
                "same": same,
                "small_checked": checked,
                "small_identical": identical,
            },
            "table": rows,
            "missed": missed,
        },
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
