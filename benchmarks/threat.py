"""firefight threat map benchmark: a whole threat map for a 60 x 40 scenario (target <= 1 s).

Run with ``make bench`` or ``.venv/bin/python benchmarks/threat.py`` (``--quick``: fewer
repeats). On the seeded 60 x 40 V&V countryside of ``benchmarks/board.py``, a scenario of
:data:`FIRING_GROUPS` German hexes (a squad with an MG and a leader, or an MG team, placed at
random on hexes a unit may hold) against an American platoon: the whole threat map of the
Americans' move (``rulesets.vv.threat.threat_map``), cold (the board's line templates built
first, as on a scenario's first request) and warm (templates cached, as for every later map on
the same board size), against the baseline measured in the same run: the same map with one
``los.line_of_sight`` per firing hex and board hex (the naive per-hex LOS loop). The two maps
are checked equal. Prints a table and writes ``benchmarks/results/threat.json``; a missed
target prints MISSED, and the exit code is 0 all the same: benchmarks never fail the build.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

from board import COLUMNS, ROWS, board_for
from firefight.board.board import Board
from firefight.board.hexes import Hex
from firefight.board.los import line_of_sight
from firefight.board.visibility import clear_shape_cache
from firefight.rulesets.vv.board import VV_LOS
from firefight.rulesets.vv.scenario import BoardScenario, ScenarioUnit, SupportWeapon, prohibited
from firefight.rulesets.vv.threat import threat_map
from report import environment, fmt_time, print_table, report_missed, row, write_results

HERE = Path(__file__).resolve().parent
DEFAULT_OUTPUT = HERE / "results" / "threat.json"
FIRING_GROUPS = 20
"""German hexes that may fire on opportunity (each a squad with an MG and a leader, or an MG
team): a company's worth on a 60 x 40 board."""
MAP_TARGET_S = 1.0
"""The target: a whole threat map for a 60 x 40 scenario in at most one second."""


def scenario_for(seed: int) -> BoardScenario:
    """The seeded countryside with :data:`FIRING_GROUPS` German hexes and four American
    squads on its western edge."""
    board = board_for("vv", seed)
    rng = random.Random(seed)
    open_hexes = [h for h in board.hexes() if not prohibited("squad", board.terrain_of(h))]
    east = [h for h in open_hexes if board.label(h) >= "2000"]
    west = [h for h in open_hexes if board.label(h) < "0500"]
    mg42 = SupportWeapon("MG42", "L", "mg", 4, 8)
    units: list[ScenarioUnit] = []
    for index, hex_ in enumerate(rng.sample(east, FIRING_GROUPS)):
        if index % 2:
            units.append(ScenarioUnit(f"de-mg{index}", "de", "mg_team", hex_, 5, None, 8, 3))
            continue
        units.append(
            ScenarioUnit(
                f"de-sq{index}", "de", "squad", hex_, 5, None, 5, 4, 2, 2, support_weapons=(mg42,)
            )
        )
        units.append(
            ScenarioUnit(
                f"de-ldr{index}", "de", "leader", hex_, 1, None, 4, 2, leadership_modifier=-1
            )
        )
    for index, hex_ in enumerate(rng.sample(west, 4)):
        units.append(ScenarioUnit(f"us-sq{index}", "us", "squad", hex_, 4, None, 6, 4, 2, 2))
    return BoardScenario("bench", board, {"us": "Americans", "de": "Germans"}, tuple(units))


def by_lines(board: Board, origin: Hex) -> dict[Hex, int]:
    """The baseline: one line of sight per board hex."""
    found = {}
    for h in board.hexes():
        verdict = line_of_sight(board, origin, h, VV_LOS)
        if verdict.visible:
            found[h] = verdict.modifier
    return found


def timed(action) -> tuple[float, object]:
    start = time.perf_counter()
    result = action()
    return time.perf_counter() - start, result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="3 warm repeats instead of 11")
    parser.add_argument("--seed", type=int, default=20240601, help="seed of board and units")
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT, help="JSON results file")
    args = parser.parse_args(argv)
    repeats = 3 if args.quick else 11
    scenario = scenario_for(args.seed)
    print(
        f"firefight threat map benchmark ({'quick' if args.quick else 'full'} run): "
        f"{COLUMNS} x {ROWS} V&V board (seed {args.seed}), {FIRING_GROUPS} firing hexes"
    )
    clear_shape_cache()
    cold, fast = timed(lambda: threat_map(scenario, "us"))
    warm_times = sorted(timed(lambda: threat_map(scenario, "us"))[0] for _ in range(repeats))
    warm = warm_times[len(warm_times) // 2]
    naive, slow = timed(lambda: threat_map(scenario, "us", sight=by_lines))
    same = fast.hexes == slow.hexes  # type: ignore[attr-defined]
    hexes = len(fast.hexes)  # type: ignore[attr-defined]
    rows = [
        row(
            "threat map 60x40, cold (templates built)",
            fmt_time(cold),
            baseline=fmt_time(naive),
            ratio=naive / cold,
            target=f"<= {fmt_time(MAP_TARGET_S)}",
            met=cold <= MAP_TARGET_S,
        ),
        row(
            "threat map 60x40, warm (median)",
            fmt_time(warm),
            baseline=fmt_time(naive),
            ratio=naive / warm,
            target=f"<= {fmt_time(MAP_TARGET_S)}",
            met=warm <= MAP_TARGET_S,
        ),
        row("same map as the per-hex LOS loop", "yes" if same else "NO", met=same),
    ]
    print()
    print_table(rows)
    print(f"{hexes} of {COLUMNS * ROWS} hexes under fire; baseline: line_of_sight per pair.")
    missed = report_missed(rows)
    write_results(
        args.output,
        {
            "generated": datetime.now(UTC).isoformat(timespec="seconds"),
            "mode": "quick" if args.quick else "full",
            "seed": args.seed,
            "environment": environment(),
            "targets": {"map_s": MAP_TARGET_S},
            "results": {
                "cold_s": cold,
                "warm_s": warm,
                "naive_s": naive,
                "hexes_under_fire": hexes,
                "same": same,
            },
            "table": rows,
            "missed": missed,
        },
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
