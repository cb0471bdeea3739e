"""firefight start-up benchmark: how long a command takes from the shell prompt back to it.

Run with ``make bench`` or ``.venv/bin/python benchmarks/startup.py`` (``--quick``: fewer
runs). Each command runs as players run it, a fresh ``python -m firefight ...`` process (the
interpreter running this script), its output thrown away: ``firefight --version``, ``firefight
--help``, ``firefight rulesets`` and ``firefight odds ept fire ...`` (one EPT fire attack),
against two floors measured in the same run: a bare interpreter (``python -c pass``) and a bare
Typer application of one command (a script written to a temporary folder). The commands run
in turns (one run of each, then again), so that a change in the machine's load falls on all of
them alike; the median of each is reported. Targets: ``odds`` at most 1.5x ``--version`` (a
command loads only the rule set it names), ``--version`` at most 2x the bare Typer app. The
load average before and after is printed: on a busy machine the figures swell, the ratios
less. Then the stages of one ``odds`` run, timed inside it (:data:`STAGES`), each with its share
of the run: what the command adds to the floor of Python, Typer and pydantic. Prints a table
and writes ``benchmarks/results/startup.json``; a missed target prints
MISSED, and the exit code is 0 all the same: benchmarks never fail the build.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from report import environment, fmt_time, print_table, progress, report_missed, row, write_results

HERE = Path(__file__).resolve().parent
DEFAULT_OUTPUT = HERE / "results" / "startup.json"
ODDS = ("odds", "ept", "fire", "--strength", "6", "--range", "adjacent", "--protection", "medium")
ODDS_TARGET = 1.5
"""``firefight odds ept fire ...`` at most this many times ``firefight --version``."""
VERSION_TARGET = 2.0
"""``firefight --version`` at most this many times a bare Typer application's start-up."""
BARE_TYPER = """import typer

app = typer.Typer()


@app.command()
def hello(name: str = "world") -> None:
    typer.echo(f"hello {name}")


if __name__ == "__main__":
    app()
"""

STAGES = """
import sys, time
marks = [("interpreter started", time.perf_counter())]
def mark(name):
    marks.append((name, time.perf_counter()))
import typer
mark("typer imported")
import typer._adapters
mark("what Typer runs a command with (pydantic)")
from firefight.cli import app, main
mark("firefight's application declared")
typer.main.get_command(app)
mark("its click commands built (every command)")
from firefight.rulesets import ruleset
ruleset(sys.argv[1])
mark("the rule set loaded (its input models)")
import firefight.cli.render
mark("Rich's console and tables imported")
built = marks[4][1] - marks[3][1]
code = main(sys.argv[2:])
marks.append(("the odds computed and printed", time.perf_counter() - built))
for (_, before), (name, after) in zip(marks, marks[1:]):
    print(f"{name}\t{after - before}")
sys.exit(code)
"""
"""Times the stages of ``firefight odds ...`` in one fresh interpreter (argv: the rule set's
id, then the command's words), each after the one before: where the start-up goes. ``main``
builds the click commands again; the last stage is its time less that of building them."""


def commands(bare: Path) -> dict[str, list[str]]:
    """Each measured command line, by its name in the table."""
    firefight = [sys.executable, "-m", "firefight"]
    return {
        "python -c pass": [sys.executable, "-c", "pass"],
        "bare Typer app (one command)": [sys.executable, str(bare), "--name", "x"],
        "firefight --version": [*firefight, "--version"],
        "firefight --help": [*firefight, "--help"],
        "firefight rulesets": [*firefight, "rulesets"],
        "firefight odds ept fire ...": [*firefight, *ODDS],
    }


def wall(command: list[str]) -> float:
    """Seconds from start to exit of one run of ``command`` (which must succeed)."""
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def measure(lines: dict[str, list[str]], runs: int) -> dict[str, list[float]]:
    """``runs`` timings of each command, taken in turns after one warm-up run of each (which
    fills the disk cache and writes any bytecode not yet written)."""
    for command in lines.values():
        wall(command)
    timings: dict[str, list[float]] = {name: [] for name in lines}
    for turn in range(runs):
        progress(f"turn {turn + 1} of {runs}")
        for name, command in lines.items():
            timings[name].append(wall(command))
    return timings


def stages(runs: int) -> dict[str, list[float]]:
    """``runs`` timings of each stage of ``firefight odds ept fire ...`` (:data:`STAGES`)."""
    found: dict[str, list[float]] = {}
    for turn in range(runs):
        progress(f"stages, run {turn + 1} of {runs}")
        done = subprocess.run(
            [sys.executable, "-c", STAGES, "ept", *ODDS],
            check=True,
            capture_output=True,
            text=True,
        )
        for line in done.stdout.splitlines():
            if "\t" in line:
                name, seconds = line.rsplit("\t", 1)
                found.setdefault(name, []).append(float(seconds))
    return found


def stage_rows(medians: dict[str, float], start: float) -> list[dict[str, object]]:
    """The stages' rows: each stage's median and its share of the whole run (the interpreter's
    own start, ``python -c pass``, counted first)."""
    total = start + sum(medians.values())
    rows = [row("  stage: python -c pass", fmt_time(start), ratio=start / total)]
    rows.extend(
        row(f"  stage: {name}", fmt_time(seconds), ratio=seconds / total)
        for name, seconds in medians.items()
    )
    return rows


def table(medians: dict[str, float]) -> list[dict[str, object]]:
    """The rows: each command's median, the two targets' ratios."""
    version = medians["firefight --version"]
    bare = medians["bare Typer app (one command)"]
    odds = medians["firefight odds ept fire ..."]
    rows = [
        row("python -c pass (floor)", fmt_time(medians["python -c pass"])),
        row("bare Typer app (one command)", fmt_time(bare)),
        row(
            "firefight --version",
            fmt_time(version),
            baseline=fmt_time(bare),
            ratio=version / bare,
            target=f"<= {VERSION_TARGET:.1f}x bare Typer",
            met=version / bare <= VERSION_TARGET,
        ),
        row(
            "firefight odds ept fire ...",
            fmt_time(odds),
            baseline=fmt_time(version),
            ratio=odds / version,
            target=f"<= {ODDS_TARGET:.1f}x --version",
            met=odds / version <= ODDS_TARGET,
        ),
    ]
    rows.extend(
        row(
            name, fmt_time(medians[name]), baseline=fmt_time(version), ratio=medians[name] / version
        )
        for name in ("firefight rulesets", "firefight --help")
    )
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="5 runs of each instead of 15")
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT, help="JSON results file")
    args = parser.parse_args(argv)
    runs = 5 if args.quick else 15
    print(
        f"firefight start-up benchmark ({'quick' if args.quick else 'full'} run): "
        f"median of {runs} runs of each command, in turns"
    )
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as folder:
        bare = Path(folder) / "bare_typer.py"
        bare.write_text(BARE_TYPER, encoding="utf-8")
        timings = measure(commands(bare), runs)
    staged = stages(runs)
    load_after = os.getloadavg()
    medians = {name: statistics.median(values) for name, values in timings.items()}
    stage_medians = {name: statistics.median(values) for name, values in staged.items()}
    rows = table(medians) + stage_rows(stage_medians, medians["python -c pass"])
    print()
    print_table(rows)
    print(
        f"load average (1, 5, 15 min): before {', '.join(f'{x:.2f}' for x in load_before)}; "
        f"after {', '.join(f'{x:.2f}' for x in load_after)} ({os.cpu_count()} CPUs)"
    )
    missed = report_missed(rows)
    write_results(
        args.output,
        {
            "generated": datetime.now(UTC).isoformat(timespec="seconds"),
            "mode": "quick" if args.quick else "full",
            "runs": runs,
            "environment": environment(load_before=load_before, load_after=load_after),
            "targets": {
                "odds_over_version": ODDS_TARGET,
                "version_over_bare_typer": VERSION_TARGET,
            },
            "results": {"median_s": medians, "timings_s": timings},
            "stages": {"median_s": stage_medians, "timings_s": staged},
            "table": rows,
            "missed": missed,
        },
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
