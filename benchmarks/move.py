"""V&V move benchmark: a stack's exact odds along a 6-hex path under 64 firers (target <= 1 s),
against a baseline revision, in one run.

* **now**: ``firefight move``'s exact odds (``rulesets.vv.actions.move``, the default
  threshold policy, fire lanes laid by the MGs that fire) on the seeded 60 x 40 V&V
  countryside of ``benchmarks/board.py``: two American squads and a leader move 6 open hexes
  east; :data:`FIRERS` German hexes that see the path within 8 hexes (a squad with an MG42,
  every other one with a leader, or an MG team) may fire on them. The **AT** case puts an AFV
  in the stack (with one squad and the leader) and a Panzerschreck in every fourth German
  squad (AT FP D): AT fire as well. Each case on ``--seeds`` boards (a seed places the path
  and the firers); the first call of a seed is untimed (it builds the board's line
  templates), then the least of up to 3, in wall and in CPU seconds.
* **baseline** (``--baseline REV``, benchmarks/baseline.py; by default the commit before the
  last change of src/firefight/rulesets/vv): the same inputs in a temporary worktree of that
  revision, in a subprocess; the answers' JSON (every unit's odds, Fraction for Fraction, the
  fire plan, the lanes) checked equal (``ODDS DIFFER`` otherwise).

Prints each case's median and worst seed (its time, the path and the shots fired), the ratio to
the baseline and the load average (``os.getloadavg``) before and after. Run with
``.venv/bin/python benchmarks/move.py`` (``--quick``: one seed a case); the exit code is 0
whatever the times: benchmarks never fail the build.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time
from typing import Any

import baseline
from board import board_for
from firefight.board.board import Board
from firefight.board.hexes import Hex
from firefight.board.los import line_of_sight
from firefight.rulesets.vv.action_inputs import MoveInput
from firefight.rulesets.vv.actions import move
from firefight.rulesets.vv.board import VV_LOS
from firefight.rulesets.vv.scenario import BoardScenario, ScenarioUnit, SupportWeapon, prohibited

MEASURED = ("src/firefight/rulesets/vv",)
TARGET_S = 1.0
FIRERS = 64
PATH_HEXES = 6
REACH = 8
"""The firers stand within 8 hexes of the path (an MG42's range) and see one of its hexes."""
MG42 = SupportWeapon("MG42", "L", "mg", 4, 8)
SCHRECK = SupportWeapon("Panzerschreck", "L", "anti_tank", 0, 3)
REPEATS = 3
BUDGET_S = 5.0
"""Timed calls after the untimed one: up to 3, none once 5 s are spent (a slow baseline runs
twice)."""
CASES = ("move, 64 firers, 6-hex path", "move, 64 firers, 6-hex path, AFV and AT fire")


def _path(board: Board, rng: random.Random) -> list[Hex]:
    """A start hex and 6 open hexes east of it, level, no hexside crossed (6 MPs: a squad
    moving with a leader, 6.31)."""
    starts = [h for h in board.hexes() if board.terrain_of(h) == "open"]
    rng.shuffle(starts)
    for start in starts:
        path = [start]
        for i in range(PATH_HEXES):
            here = path[-1]
            nxt = [
                n
                for n in (here.neighbour(2), here.neighbour(3))
                if n in board
                and board.terrain_of(n) == "open"
                and board.hexside_of(here, n) is None
                and board.elevation_of(n) == board.elevation_of(start)
            ]
            if not nxt:
                break
            path.append(nxt[i % len(nxt)])
        if len(path) == PATH_HEXES + 1:
            return path
    raise SystemExit("no open path on the board")


def scenario_for(seed: int, *, at: bool) -> tuple[BoardScenario, list[str], str]:
    """The seeded board, its path (labels, the start first) and the ``at`` ratings."""
    board = board_for("vv", seed)
    rng = random.Random(seed)
    path = _path(board, rng)
    entered = path[1:]
    near = [
        h
        for h in board.hexes()
        if h not in path
        and not prohibited("squad", board.terrain_of(h))
        and 2 <= min(h.distance(p) for p in entered) <= REACH
    ]
    rng.shuffle(near)
    firing: list[Hex] = []
    for h in near:
        if any(
            h.distance(p) <= REACH and line_of_sight(board, h, p, VV_LOS).visible for p in entered
        ):
            firing.append(h)
        if len(firing) == FIRERS:
            break
    units: list[ScenarioUnit] = []
    ratings: list[str] = []
    for i, h in enumerate(firing):
        if i % 2:
            units.append(ScenarioUnit(f"de-mg{i}", "de", "mg_team", h, 5, None, 8, 3))
            continue
        weapons = (MG42, SCHRECK) if at and i % 4 == 0 else (MG42,)
        units.append(
            ScenarioUnit(
                f"de-sq{i}", "de", "squad", h, 5, None, 5, 4, 2, 2, support_weapons=weapons
            )
        )
        if len(weapons) > 1:
            ratings.append(f"de-sq{i}=D")
        if i % 4 == 2:
            units.append(
                ScenarioUnit(f"de-ldr{i}", "de", "leader", h, 1, None, 4, 2, leadership_modifier=-1)
            )
    start = path[0]
    movers = [
        ScenarioUnit("us-sq1", "us", "squad", start, 4, None, 6, 4, 2, 2),
        ScenarioUnit("us-ldr", "us", "leader", start, 1, None, 4, 2, leadership_modifier=-1),
    ]
    if at:
        movers.append(
            ScenarioUnit("us-t1", "us", "afv", start, 6, None, None, 0, movement_points=8, facing=2)
        )
    else:
        movers.append(ScenarioUnit("us-sq2", "us", "squad", start, 4, None, 6, 4, 2, 2))
    scenario = BoardScenario(
        f"move bench {seed}",
        board,
        {"us": "Americans", "de": "Germans"},
        (*units, *movers),
    )
    return scenario, [board.label(h) for h in path], ",".join(ratings)


def measure_one(case: dict[str, Any]) -> dict[str, Any]:
    """Time the move's exact odds for the case (its seed and kind) with the revision on the
    path; the answer's JSON comes back to be compared."""
    at = bool(case["at"])
    scenario, path, ratings = scenario_for(int(case["seed"]), at=at)
    fields: dict[str, Any] = {"stack": path[0], "path": path[1:]}
    if at:
        fields |= {"at": ratings, "armour": "E,C"}
    inp = MoveInput(**fields)
    answer = move(scenario, inp)  # untimed: the board's line templates, the charts
    walls: list[float] = []
    cpus: list[float] = []
    while len(walls) < REPEATS and sum(walls) < BUDGET_S:
        wall, cpu = time.perf_counter(), time.process_time()
        move(scenario, inp)
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    data = answer.to_json()
    shots = len(data.get("fire_plan", [])) + len(data.get("at_fire_plan", []))
    return {
        "seconds": min(walls),
        "cpu_seconds": min(cpus),
        "shots": shots,
        "path": "-".join(path),
        "answer": json.dumps(data, sort_keys=True, default=str),
    }


def load() -> str:
    return "load " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def report(
    label: str, now: list[dict[str, Any]], old: list[dict[str, Any]], seeds: list[int]
) -> None:
    """One case: median and worst seed, wall and CPU seconds (the machine is shared: the
    wall time counts the others' work too), ratios to the baseline, whether the answers
    agree."""
    times = [r["seconds"] for r in now]
    cpus = [r["cpu_seconds"] for r in now]
    worst = max(range(len(now)), key=lambda k: times[k])
    met = "met" if max(times) <= TARGET_S else "MISSED"
    cpu_met = "met" if max(cpus) <= TARGET_S else "MISSED"
    print(
        f"  {label}: median {statistics.median(times) * 1000:.0f} ms wall "
        f"({statistics.median(cpus) * 1000:.0f} ms CPU), worst {times[worst] * 1000:.0f} ms "
        f"wall ({met}), {max(cpus) * 1000:.0f} ms CPU ({cpu_met})"
    )
    for k, (mine, theirs) in enumerate(zip(now, old, strict=True)):
        text = baseline.ratio_note(mine["seconds"], theirs)
        if "cpu_seconds" in theirs:
            cpu = float(theirs["cpu_seconds"])
            text += f", CPU {cpu:.2f} s x{cpu / mine['cpu_seconds']:.1f}"
        if "answer" in theirs:
            text += "" if theirs["answer"] == mine["answer"] else "; ODDS DIFFER"
        mark = "  <- worst" if k == worst else ""
        print(
            f"    seed {seeds[k]}: {mine['seconds'] * 1000:.0f} ms wall, "
            f"{mine['cpu_seconds'] * 1000:.0f} ms CPU, {mine['shots']} shots, "
            f"path {mine['path']}; {text}{mark}"
        )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    baseline.add_option(parser, MEASURED)
    parser.add_argument("--quick", action="store_true", help="one seed a case")
    parser.add_argument("--seeds", type=int, default=3, help="boards per case (default 3)")
    args = parser.parse_args(argv)
    seeds = [20240601 + k for k in range(1 if args.quick else args.seeds)]
    commit = baseline.resolve(args.baseline, MEASURED)
    before = load()
    cases = [{"seed": s, "at": at} for at in (False, True) for s in seeds]
    now = [measure_one(case) for case in cases]
    with baseline.checkout(commit) as tree:
        old = baseline.measure(tree / "src", __file__, cases)
    print(f"V&V move: exact odds under opportunity fire (target {TARGET_S:.0f} s)")
    print(f"  {baseline.describe(commit, MEASURED)}")
    print(f"  {before} (start), {load()} (end)")
    for k, label in enumerate(CASES):
        part = slice(k * len(seeds), (k + 1) * len(seeds))
        report(label, now[part], old[part], seeds)


if __name__ == "__main__":
    if baseline.child_requested():
        baseline.serve(measure_one)
    else:
        main()
