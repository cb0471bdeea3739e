"""Up Front benchmark: exact odds of page 8's infiltration attempts with a Hero (up to 10 men
of distinct morale, each at most 1 s, aim 0.1 s), against a baseline revision, in one run.

* **now** (``INFILTRATION.odds``, rulesets/upfront/infiltration_walk.py: the morale checks
  by morale, then the RPNCs' colours, split where the pile runs out). Groups of 1 to 10
  riflemen (ILLUSTRATIVE values) of seven morale classes (morale 0 to 6 in a mixed order: as
  distinct as RN 0-6 can tell), a Hero in play, the count's column 3, over the ILLUSTRATIVE
  deck: the 162-card observer pool, and a 20-card pool (142 cards seen: the pile runs out in
  the middle of the attempts and the discards are reshuffled), and the same with
  reshuffle = end_attack.
* **baseline** (``--baseline REV``, benchmarks/baseline.py; by default the commit before the
  last change of rulesets/upfront): the same ``INFILTRATION.odds`` on the same inputs, checked
  out in a temporary worktree and run in a subprocess, its odds checked equal; on up to
  ``--baseline-men`` men (4: the card by card walk, last current at ``be56593^``, took about
  15 s for 4 men and 186 s for 5).

Run with ``.venv/bin/python benchmarks/infiltration.py`` (in ``make bench``, ~25 s); prints a
table; a missed target prints MISSED and the exit code is 0 all the same.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path
from typing import Any

import baseline

try:  # page 8's infiltration has a module of its own since close combat was split
    from firefight.rulesets.upfront.infiltration import INFILTRATION, UpFrontInfiltration
except ImportError:  # a baseline from before the split
    from firefight.rulesets.upfront.closecombat import (  # type: ignore[no-redef]
        INFILTRATION,
        UpFrontInfiltration,
    )

MEASURED = ("src/firefight/rulesets/upfront",)
TARGET_S = 1.0
AIM_S = 0.1
MORALE = (3, 0, 5, 1, 6, 2, 4, 5, 1, 3)
MAN = """
[[man]]
id = "m{i}"
nationality = "german"
rank = "private"
weapon = "rifle"
firepower = [1, 1, 2, 2, 3, 3]
morale = {morale}
panic = 5
rout = 6
"""
BASELINE_MEN = 4


def attempt(men: Path, count: int, **extra: object) -> dict[str, Any]:
    """The fields of an infiltration attempt by the first ``count`` men with a Hero."""
    ids = ",".join(f"m{i}" for i in range(count))
    return {"men": str(men), "infiltrators": ids, "hero": True, "unpinned_defenders": 3, **extra}


def measure_one(case: dict[str, Any]) -> dict[str, Any]:
    """Time ``INFILTRATION.odds`` on the case's fields (a first call, untimed, loads the
    files and builds the pool; the least of 3 then counts) with the revision on the path."""
    inp = UpFrontInfiltration(**case["fields"])
    seconds, odds = baseline.best_time(lambda: INFILTRATION.odds(inp), repeat=3)
    return {"seconds": seconds, "odds": baseline.odds_json(odds)}


def verdict(seconds: float) -> str:
    if seconds > TARGET_S:
        return "MISSED"
    return "met (aim 0.1 s met)" if seconds <= AIM_S else "met (aim 0.1 s missed)"


def note(now: dict[str, Any], found: dict[str, Any] | None, cap: int) -> str:
    """The verdict on the time, the baseline's time and ratio, and whether the odds agree."""
    text = verdict(now["seconds"])
    if found is None:
        return text + f"; baseline not run past {cap} men (--baseline-men)"
    text += "; " + baseline.ratio_note(now["seconds"], found)
    if "odds" in found:
        text += "" if found["odds"] == now["odds"] else "; ODDS DIFFER"
    return text


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    baseline.add_option(parser, MEASURED)
    parser.add_argument(
        "--baseline-men",
        type=int,
        default=BASELINE_MEN,
        help=f"run the baseline on groups of at most this many men (default {BASELINE_MEN})",
    )
    args = parser.parse_args(argv)
    commit = baseline.resolve(args.baseline, MEASURED)
    with tempfile.TemporaryDirectory() as folder:
        men = Path(folder) / "men.toml"
        text = 'title = "benchmark infiltrators"\nillustrative = true\n'
        text += "".join(MAN.format(i=i, morale=m) for i, m in enumerate(MORALE))
        men.write_text(text, encoding="utf-8")
        small = ",".join(str(n) for n in range(1, 143))  # 20 cards left to draw
        cases = [(f"{n} men, 162-card pool", n, attempt(men, n)) for n in (1, 2, 3, 4, 10)]
        for label, extra in (
            ("20-card pool, reshuffled", {"seen": small}),
            ("20-card pool, end_attack", {"seen": small, "reshuffle": "end_attack"}),
        ):
            cases += [(f"{n} men, {label}", n, attempt(men, n, **extra)) for n in (3, 10)]
        now = [measure_one({"fields": fields}) for _, _, fields in cases]
        compared = [{"fields": f} for _, count, f in cases if count <= args.baseline_men]
        with baseline.checkout(commit) as tree:
            found = iter(baseline.measure(tree / "src", __file__, compared))
    rows = [
        (
            label,
            f"{result['seconds'] * 1000:.1f} ms",
            note(result, next(found) if count <= args.baseline_men else None, args.baseline_men),
        )
        for (label, count, _), result in zip(cases, now, strict=True)
    ]
    width = max(len(r[0]) for r in rows)
    print(
        "Up Front: exact odds of infiltration with a Hero, seven morale classes "
        f"(target {TARGET_S:.0f} s, aim {AIM_S * 1000:.0f} ms)"
    )
    print(f"  {baseline.describe(commit, MEASURED)}")
    for label, value, text in rows:
        print(f"  {label:<{width}}  {value:>10}  {text}")


if __name__ == "__main__":
    if baseline.child_requested():
        baseline.serve(measure_one)
    else:
        main()
