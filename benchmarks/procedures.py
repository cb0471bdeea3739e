"""Every procedure of every rule set: the exact odds of inputs sampled from its input model,
cold, against a baseline revision timed on the same inputs in the same run.

For each procedure, inputs are drawn with a seeded generator from the procedure's input model
(a choice of a ``Literal``, a flag, an integer in its bounds, half the time within 12 of its
minimum since some bounds are far; a field with a default left at it 40 % of the time, an
optional one left out a third of the rest; text and lists keep their defaults), until
``--inputs`` (200; 20 with ``--quick``) the procedure accepts. Each input's ``odds`` is timed
cold, in CPU time (on a shared machine a call waits for a core longer than it computes): the
least of 3 calls, each on a freshly parsed object with every bounded
``functools.lru_cache`` of the package cleared first (the per-input caches: a fire sheet, a
hit distribution) and the garbage collector held off, so no answer comes from a cache; the
unbounded ``functools.cache`` of charts and data files read once per process stay, and one
untimed call per procedure loads them first.

The baseline (``--baseline REV``, benchmarks/baseline.py; by default the commit before the
last change of ``src/firefight``) runs the same inputs the same way in a subprocess of its
checkout; the tree measured runs in a subprocess too, so both sides start alike. Both sides'
odds are compared input by input (``ODDS DIFFER`` on any difference). Per procedure it prints
p50, p99 and max, the input of the max, and the baseline's p99 and max with the ratios; the
load average before and after. Targets: p99 <= 2 ms and max <= 20 ms, Up Front's p99 <= 50 ms
and max <= 1 s.

Run with ``.venv/bin/python benchmarks/procedures.py`` (in ``make bench``) or ``--quick``;
``--only ID[.NAME]`` keeps some procedures; ``--no-baseline`` skips the baseline. A missed
target prints MISSED and the exit code is 0 all the same.

``--climb S`` looks past the sample for the next wall: from each procedure's slowest sampled
inputs it changes one field at a time (every choice, both flags, an integer's bounds and a few
values between), keeping what is slower, for at most S CPU seconds a procedure, and prints the
slowest input found (:func:`climb`; the tree measured only, outside the targets, which are the
sample's). Text and lists keep their defaults here too: an Up Front group of many men is
not reached.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import statistics
import sys
import time
import types
from contextlib import suppress
from functools import _lru_cache_wrapper
from pathlib import Path
from typing import Any, Literal, Union, get_args, get_origin

import annotated_types

import baseline
import firefight
from firefight.errors import FirefightError

MEASURED = ("src/firefight",)
TARGETS = {"default": (0.002, 0.020), "upfront": (0.050, 1.0)}
"""(p99, max) in seconds, by rule set id."""
SEED = 20261202
ATTEMPTS = 30
"""Draws tried per input wanted before a procedure is left with fewer inputs."""
DEFAULTS = 0.4
"""The chance an optional field keeps its default (models whose fields constrain each other
refuse most inputs drawn field by field)."""
REPEAT = 3
"""Cold calls an input is timed with (the least counts: the machine is shared)."""
CLIMB_STARTS = 3
"""The slowest sampled inputs a climb starts from (``--climb``)."""


def _bounds(info: Any) -> tuple[int, int]:
    low, high = 0, None
    for meta in info.metadata:
        if isinstance(meta, annotated_types.Ge):
            low = int(meta.ge)
        elif isinstance(meta, annotated_types.Gt):
            low = int(meta.gt) + 1
        elif isinstance(meta, annotated_types.Le):
            high = int(meta.le)
        elif isinstance(meta, annotated_types.Lt):
            high = int(meta.lt) - 1
    return low, low + 15 if high is None else high


def draw_field(info: Any, rng: random.Random) -> tuple[bool, object]:
    """``(keep, value)``: a value of the field drawn from its type, or ``keep=False`` (left
    out: its default) for a field the sampler cannot draw (text, lists) or an optional one."""
    annotation = info.annotation
    if get_origin(annotation) in (Union, types.UnionType):
        if rng.random() < 1 / 3:
            return False, None
        annotation = next(a for a in get_args(annotation) if a is not type(None))
    if get_origin(annotation) is Literal:
        return True, rng.choice(get_args(annotation))
    if annotation is bool:
        return True, rng.random() < 0.5
    if annotation is int:  # half the time near its minimum: bounds can be far (a hindrance)
        low, high = _bounds(info)
        near = rng.random() < 0.5
        return True, rng.randint(low, min(high, low + 12) if near else high)
    return False, None


def draw_input(procedure: Any, rng: random.Random) -> dict[str, object]:
    """One input's fields drawn from the procedure's input model."""
    fields: dict[str, object] = {}
    for name, info in procedure.input_model.model_fields.items():
        if not info.is_required() and rng.random() < DEFAULTS:
            continue
        keep, value = draw_field(info, rng)
        if keep:
            fields[name] = value
    return fields


def field_values(info: Any) -> list[object]:
    """The values a climb tries for a field: every choice of a ``Literal``, both flags, an
    integer's bounds and a few values between; none for a field the sampler cannot draw."""
    annotation = info.annotation
    if get_origin(annotation) in (Union, types.UnionType):
        annotation = next(a for a in get_args(annotation) if a is not type(None))
    if get_origin(annotation) is Literal:
        return list(get_args(annotation))
    if annotation is bool:
        return [False, True]
    if annotation is int:
        low, high = _bounds(info)
        return sorted(
            {low, low + 1, low + 2, min(high, low + 5), (low + high) // 2, high - 1, high}
        )
    return []


def climb(
    procedure: Any, start: dict[str, object], budget_s: float
) -> tuple[float, dict[str, object]]:
    """The slowest input found from ``start`` by changing one field at a time to each of its
    :func:`field_values`, keeping a change that makes the cold odds slower (by more than 15 %,
    above the noise), until a pass changes nothing or ``budget_s`` CPU seconds are spent: a
    wall the sampled inputs did not reach (``--climb``)."""
    best, slowest = dict(start), cold_odds(procedure, start)[0]
    spent_until = time.process_time() + budget_s
    changed = True
    while changed and time.process_time() < spent_until:
        changed = False
        for name, info in procedure.input_model.model_fields.items():
            for value in field_values(info):
                if best.get(name, info.default) == value or time.process_time() > spent_until:
                    continue
                trial = {**best, name: value}
                try:
                    spent = cold_odds(procedure, trial)[0]
                except FirefightError:
                    continue
                if spent > slowest * 1.15:
                    best, slowest, changed = trial, spent, True
    return slowest, best


_CACHES: dict[int, list[_lru_cache_wrapper[Any]]] = {}


def _caches() -> list[_lru_cache_wrapper[Any]]:
    """The package's bounded caches (found again whenever a module was imported since)."""
    known = _CACHES.get(len(sys.modules))
    if known is not None:
        return known
    _CACHES.clear()
    found = _CACHES.setdefault(len(sys.modules), [])
    for name, module in list(sys.modules.items()):
        if not name.startswith("firefight"):
            continue
        for value in vars(module).values():
            if isinstance(value, _lru_cache_wrapper) and value.cache_parameters()["maxsize"]:
                found.append(value)
    return found


def cold_odds(procedure: Any, fields: dict[str, object]) -> tuple[float, dict[str, str]]:
    """The least CPU seconds of :data:`REPEAT` calls of ``odds``, each on a freshly parsed
    input with the bounded caches cleared first (the garbage collector held off while timed).
    CPU time, not wall time: on a shared machine a call of 4 ms waits 20 ms for a core."""
    best = float("inf")
    odds: Any = None
    for _ in range(REPEAT):
        inp = procedure.parse(fields)
        for cache in _caches():
            cache.cache_clear()
        gc.disable()
        try:
            start = time.process_time()
            odds = procedure.odds(inp)
            best = min(best, time.process_time() - start)
        finally:
            gc.enable()
    return best, baseline.odds_json(odds)


def _time_inputs(procedure: Any, inputs: list[dict[str, object]]) -> dict[str, Any]:
    seconds: list[float | None] = []
    odds: list[dict[str, str] | str] = []
    for fields in inputs:
        try:
            spent, found = cold_odds(procedure, fields)
        except FirefightError as error:
            seconds.append(None)
            odds.append(f"{type(error).__name__}: {error}")
            continue
        seconds.append(spent)
        odds.append(found)
    return {"seconds": seconds, "odds": odds}


def _warm(procedure: Any, fields: dict[str, object]) -> None:
    with suppress(FirefightError):
        procedure.odds(procedure.parse(fields))


def measure_one(case: dict[str, Any]) -> dict[str, Any]:
    """Time one procedure's inputs (one untimed call first, on the first input). A case with
    ``wanted`` draws its inputs first: the ones the procedure accepts, timed as they come."""
    procedure = firefight.ruleset(case["ruleset"]).procedure(case["procedure"])
    if "wanted" not in case:
        if case["inputs"]:
            _warm(procedure, case["inputs"][0])
        gc.collect()
        return _time_inputs(procedure, case["inputs"])
    rng = random.Random(f"{SEED}:{case['ruleset']}.{case['procedure']}")
    gc.collect()
    wanted = case["wanted"]
    inputs: list[dict[str, object]] = []
    seconds: list[float] = []
    odds: list[dict[str, str]] = []
    for attempt in range(wanted * ATTEMPTS):
        if len(inputs) >= wanted:
            break
        fields = draw_input(procedure, rng)
        if attempt == 0:
            _warm(procedure, fields)
        try:
            spent, found = cold_odds(procedure, fields)
        except FirefightError:
            continue
        inputs.append(fields)
        seconds.append(spent)
        odds.append(found)
    found_all: dict[str, Any] = {"inputs": inputs, "seconds": seconds, "odds": odds}
    if case.get("climb") and inputs:
        slowest = sorted(range(len(inputs)), key=lambda i: -seconds[i])[:CLIMB_STARTS]
        share = case["climb"] / len(slowest)
        found_all["climbed"] = max(climb(procedure, inputs[i], share) for i in slowest)
    return found_all


def sample_cases(wanted: int, only: list[str], climb_s: float = 0.0) -> list[dict[str, Any]]:
    """One case a procedure (all, or those ``only`` names), its inputs to be drawn."""
    cases = []
    for ruleset in firefight.list_rulesets():
        for procedure in ruleset.procedures:
            key = f"{ruleset.id}.{procedure.name}"
            if only and not any(o in (key, ruleset.id) for o in only):
                continue
            case = {"ruleset": ruleset.id, "procedure": procedure.name, "wanted": wanted}
            cases.append({**case, "climb": climb_s} if climb_s else case)
    return cases


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f}"


def report(case: dict[str, Any], now: dict[str, Any], old: dict[str, Any] | None) -> bool:
    """Print one procedure's line; whether it met its targets."""
    key = f"{case['ruleset']}.{case['procedure']}"
    if "error" in now:
        print(f"{key:34} {now['error']}")
        return False
    times = [s for s in now["seconds"] if s is not None]
    if not times:
        print(f"{key:34} no input accepted")
        return True
    p99_target, max_target = TARGETS.get(case["ruleset"], TARGETS["default"])
    p50, p99, worst = statistics.median(times), quantile(times, 0.99), max(times)
    met = p99 <= p99_target and worst <= max_target
    index = max(range(len(times)), key=lambda i: now["seconds"][i] or 0.0)
    line = f"{key:34} n={len(times):3} p50 {ms(p50):>8} p99 {ms(p99):>8} max {ms(worst):>8}"
    if old is not None and "error" not in old:
        paired = [(n, o) for n, o in zip(now["seconds"], old["seconds"], strict=True) if n and o]
        if paired:
            old_times = [o for _, o in paired]
            old_p99, old_max = quantile(old_times, 0.99), max(old_times)
            line += f" | base p99 {ms(old_p99):>8} max {ms(old_max):>8}"
            line += f" x{old_p99 / p99:.1f} x{old_max / worst:.1f}"
        if any(n != o for n, o in zip(now["odds"], old["odds"], strict=True)):
            line += " ODDS DIFFER"
    elif old is not None:
        line += f" | baseline: {old['error'][:60]}"
    print(line + ("" if met else " MISSED"))
    print(f"{'':34} worst: {json.dumps(case['inputs'][index], sort_keys=True)}")
    if "climbed" in now:
        spent, fields = now["climbed"]
        over = "" if spent <= max_target else " (over the max target)"
        print(f"{'':34} climbed: {ms(spent)} ms{over} {json.dumps(fields, sort_keys=True)}")
    return met


def _by_ruleset(src: Path, cases: list[dict[str, Any]], side: str) -> list[dict[str, Any]]:
    """Each rule set's cases measured in a subprocess of their own (progress on stderr)."""
    found: list[dict[str, Any]] = []
    for ruleset in dict.fromkeys(c["ruleset"] for c in cases):
        mine = [c for c in cases if c["ruleset"] == ruleset]
        started = time.perf_counter()
        found.extend(baseline.measure(src, __file__, mine))
        spent = time.perf_counter() - started
        print(f"  .. {side}: {ruleset} measured in {spent:.0f} s", file=sys.stderr, flush=True)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="20 inputs a procedure, not 200")
    parser.add_argument("--inputs", type=int, help="inputs a procedure (default 200)")
    parser.add_argument("--only", action="append", default=[], help="ID or ID.NAME (repeat)")
    parser.add_argument("--no-baseline", action="store_true", help="skip the baseline")
    parser.add_argument(
        "--climb",
        type=float,
        default=0.0,
        metavar="S",
        help="climb from the slowest inputs to slower ones, S CPU seconds a procedure",
    )
    baseline.add_option(parser, MEASURED)
    args = parser.parse_args()
    wanted = args.inputs or (20 if args.quick else 200)
    print(f"load before {os.getloadavg()}")
    cases = sample_cases(wanted, args.only, args.climb)
    here = Path(__file__).resolve().parent.parent / "src"
    now = _by_ruleset(here, cases, "now")
    cases = [
        {"ruleset": c["ruleset"], "procedure": c["procedure"], "inputs": n.get("inputs", [])}
        for c, n in zip(cases, now, strict=True)
    ]
    old: list[dict[str, Any] | None] = [None] * len(cases)
    if not args.no_baseline:
        commit = baseline.resolve(args.baseline, MEASURED)
        print(baseline.describe(commit, MEASURED))
        with baseline.checkout(commit) as tree:
            try:
                old = list(_by_ruleset(tree / "src", cases, "baseline"))
            except baseline.BaselineError as error:
                old = [{"error": str(error)}] * len(cases)
    print(f"{wanted} inputs a procedure; CPU milliseconds, cold; ratios baseline / now")
    missed = [
        f"{c['ruleset']}.{c['procedure']}"
        for c, n, o in zip(cases, now, old, strict=True)
        if not report(c, n, o)
    ]
    print(f"load after {os.getloadavg()}")
    print("MISSED: " + ", ".join(missed) if missed else "every target met")


if __name__ == "__main__":
    if baseline.child_requested():
        baseline.serve(measure_one)
    else:
        main()
