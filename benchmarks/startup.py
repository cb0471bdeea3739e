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
less. ``--version`` and ``odds`` run on a baseline revision too (``--baseline REV``, checked out
to a temporary worktree: :mod:`baseline`), in the same turns. Then the stages of one ``odds``
run, timed inside it (:data:`STAGES`), on the tree and on the baseline, each with its share
of the run: what the command adds to the floor of Python, Typer and pydantic. The children
write bytecode as an installed package has it (``PYTHONDONTWRITEBYTECODE`` is dropped).
Prints a table and writes ``benchmarks/results/startup.json``; a missed target prints MISSED,
and the exit code is 0 all the same: benchmarks never fail the build.
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

import baseline
from report import environment, fmt_time, print_table, progress, report_missed, row, write_results

HERE = Path(__file__).resolve().parent
PATHS = ("src",)
"""What the baseline (``--baseline REV``) differs by: the package itself."""
BASELINE = " (baseline)"
"""The suffix of a command measured on the baseline revision."""
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
import os
os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")  # as the console script runs
try:
    from firefight.cli.plugins import install
    install()  # pydantic's plugin loader unread, as the console script leaves it
except ImportError:  # a revision without it
    pass
import typer
mark("typer imported")
import typer._adapters
mark("what Typer runs a command with (pydantic)")
from firefight.cli import main
mark("firefight's application declared")
try:
    from firefight.cli.application import NAMES, application
    from firefight.cli.commands import narrowed
    only = narrowed(sys.argv[2:], NAMES)
    typer.main.get_command(application(only))
except ImportError:  # a revision that builds every command
    from firefight.cli import app
    typer.main.get_command(app)
mark("its click command built (the one run: its module imported)")
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
id, then the command's words), each after the one before: where the start-up goes. It sets
pydantic up as the console script does (``firefight.cli.run``: plugins off, the plugin loader
unread where the revision has it), before the first stage's mark. ``main``
builds the click command again; the last stage is its time less that of building it."""

Line = tuple[list[str], Path | None]
"""A command line and the ``src`` it runs (``None``: the tree's own)."""


def commands(bare: Path, base: Path | None) -> dict[str, Line]:
    """Each measured command line, by its name in the table; with a baseline's ``src``, the
    ``--version`` and ``odds`` lines again on it."""
    firefight = [sys.executable, "-m", "firefight"]
    lines: dict[str, Line] = {
        "python -c pass": ([sys.executable, "-c", "pass"], None),
        "bare Typer app (one command)": ([sys.executable, str(bare), "--name", "x"], None),
        "firefight --version": ([*firefight, "--version"], None),
        "firefight --help": ([*firefight, "--help"], None),
        "firefight rulesets": ([*firefight, "rulesets"], None),
        "firefight odds ept fire ...": ([*firefight, *ODDS], None),
    }
    if base is not None:
        for name in ("firefight --version", "firefight odds ept fire ..."):
            lines[name + BASELINE] = (lines[name][0], base)
    return lines


def _env(src: Path | None) -> dict[str, str]:
    """The children's environment: bytecode written (a player's installed package has it;
    ``PYTHONDONTWRITEBYTECODE`` would time the compiling of every module on each run), and
    ``src`` first on ``PYTHONPATH`` for a baseline's line."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    if src is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(src), env.get("PYTHONPATH", "")])
    return env


def wall(line: Line) -> float:
    """Seconds from start to exit of one run of the line's command (which must succeed)."""
    command, src = line
    env = _env(src)
    start = time.perf_counter()
    subprocess.run(
        command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env
    )
    return time.perf_counter() - start


def measure(lines: dict[str, Line], runs: int) -> dict[str, list[float]]:
    """``runs`` timings of each command, taken in turns after one warm-up run of each (which
    fills the disk cache and writes any bytecode not yet written)."""
    for line in lines.values():
        wall(line)
    timings: dict[str, list[float]] = {name: [] for name in lines}
    for turn in range(runs):
        progress(f"turn {turn + 1} of {runs}")
        for name, line in lines.items():
            timings[name].append(wall(line))
    return timings


def stages(runs: int, src: Path | None = None) -> dict[str, list[float]]:
    """``runs`` timings of each stage of ``firefight odds ept fire ...`` (:data:`STAGES`), on
    the tree's ``src`` or a baseline's."""
    found: dict[str, list[float]] = {}
    for turn in range(runs):
        progress(f"stages, run {turn + 1} of {runs}")
        done = subprocess.run(
            [sys.executable, "-c", STAGES, "ept", *ODDS],
            check=True,
            capture_output=True,
            text=True,
            env=_env(src),
        )
        for line in done.stdout.splitlines():
            if "\t" in line:
                name, seconds = line.rsplit("\t", 1)
                found.setdefault(name, []).append(float(seconds))
    return found


def stage_rows(
    medians: dict[str, float], start: float, suffix: str = ""
) -> list[dict[str, object]]:
    """The stages' rows: each stage's median and its share of the whole run (the interpreter's
    own start, ``python -c pass``, counted first); ``suffix`` names the baseline's."""
    total = start + sum(medians.values())
    rows = [row(f"  stage{suffix}: python -c pass", fmt_time(start), ratio=start / total)]
    rows.extend(
        row(f"  stage{suffix}: {name}", fmt_time(seconds), ratio=seconds / total)
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
    rows.extend(_baseline_rows(medians))
    return rows


def _baseline_rows(medians: dict[str, float]) -> list[dict[str, object]]:
    """The baseline's ``--version`` and ``odds`` (measured in the same turns), each against
    the tree's, and the baseline's own ratio of the two."""
    version = medians.get("firefight --version" + BASELINE)
    odds = medians.get("firefight odds ept fire ..." + BASELINE)
    if version is None or odds is None:
        return []
    now_version = medians["firefight --version"]
    now_odds = medians["firefight odds ept fire ..."]
    return [
        row(
            "firefight --version" + BASELINE,
            fmt_time(version),
            baseline=fmt_time(now_version),
            ratio=version / now_version,
        ),
        row(
            "firefight odds ept fire ..." + BASELINE,
            fmt_time(odds),
            baseline=fmt_time(now_odds),
            ratio=odds / now_odds,
        ),
        row(
            "  baseline: odds / its --version",
            fmt_time(odds),
            baseline=fmt_time(version),
            ratio=odds / version,
        ),
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="5 runs of each instead of 15")
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT, help="JSON results file")
    baseline.add_option(parser, PATHS)
    args = parser.parse_args(argv)
    runs = 5 if args.quick else 15
    commit = baseline.resolve(args.baseline, PATHS)
    print(
        f"firefight start-up benchmark ({'quick' if args.quick else 'full'} run): "
        f"median of {runs} runs of each command, in turns"
    )
    print(baseline.describe(commit, PATHS))
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as folder, baseline.checkout(commit) as tree:
        bare = Path(folder) / "bare_typer.py"
        bare.write_text(BARE_TYPER, encoding="utf-8")
        timings = measure(commands(bare, tree / "src"), runs)
        staged = stages(runs)
        staged_before = stages(runs, tree / "src")
    load_after = os.getloadavg()
    medians = {name: statistics.median(values) for name, values in timings.items()}
    stage_medians = {name: statistics.median(values) for name, values in staged.items()}
    stage_before = {name: statistics.median(values) for name, values in staged_before.items()}
    rows = (
        table(medians)
        + stage_rows(stage_medians, medians["python -c pass"])
        + stage_rows(stage_before, medians["python -c pass"], BASELINE)
    )
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
            "baseline": commit,
            "stages": {"median_s": stage_medians, "timings_s": staged},
            "stages_baseline": {"median_s": stage_before, "timings_s": staged_before},
            "table": rows,
            "missed": missed,
        },
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
