"""A benchmark's baseline measured from a git revision, not from old code kept in the tree.

A benchmark that compares the code with the code before a change names the paths it measures
and calls :func:`checkout` on the revision to compare with: the revision is checked out into a
temporary ``git worktree`` (removed afterwards, on an error or an interrupt too) and the same
measurement runs there in a subprocess, the benchmark script itself run with that tree's
``src`` on ``PYTHONPATH`` (:func:`measure`), so that both sides time the same inputs in the
same run: their ratio is the figure (the machine is shared and noisy; absolute times swing with
its load). Where the benchmark checks that both give equal odds, the odds come back as JSON
(:func:`odds_json`: outcome -> ``"p/q"``).

``--baseline REV`` (:func:`add_option`) picks the revision; by default (:func:`default_revision`)
it is the commit before the last change of the measured paths: ``HEAD`` while they have
uncommitted changes, else the parent of the last commit that touched them. That is the change
a benchmark is run for; ``HEAD~1`` would often be an unrelated commit or a merge, and compare
the code with itself. The revision measured is printed (:func:`describe`), and whether its
measured paths differ from the tree's at all.

The old algorithms these benchmarks were written against are in the history; to reproduce
those comparisons pass the revision where each was last current (benchmarks/README.md lists
them). The measurement calls the package's public entry points only, so it runs on any
revision that has them; a case the revision cannot run comes back as its error.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from fractions import Fraction
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
MEASURE_FLAG = "--measure"
"""The script's option that reads cases (JSON) on standard input and writes their results."""


class BaselineError(RuntimeError):
    """The baseline could not be checked out or measured."""


def git(*args: str) -> str:
    """``git args`` in the repository; its standard output, stripped."""
    done = subprocess.run(
        ["git", "-C", str(REPO), *args], capture_output=True, text=True, check=False
    )
    if done.returncode:
        raise BaselineError(f"git {' '.join(args)}: {done.stderr.strip()}")
    return done.stdout.strip()


def default_revision(paths: Sequence[str]) -> str:
    """The commit before the last change of ``paths``: ``HEAD`` while they have uncommitted
    changes, else the parent of the last commit that touched them."""
    if git("status", "--porcelain", "--", *paths):
        return "HEAD"
    last = git("log", "-1", "--format=%H", "--", *paths)
    if not last:
        raise BaselineError(f"no commit touches {', '.join(paths)}")
    return f"{last}^"


def add_option(parser: argparse.ArgumentParser, paths: Sequence[str]) -> None:
    """Add ``--baseline REV`` (default: :func:`default_revision` of ``paths``)."""
    parser.add_argument(
        "--baseline",
        metavar="REV",
        help=(
            "git revision measured as the baseline (default: the commit before the last "
            f"change of {', '.join(paths)}; see benchmarks/README.md for the historic ones)"
        ),
    )


def resolve(revision: str | None, paths: Sequence[str]) -> str:
    """The full commit id of ``revision`` (or of the default one)."""
    name = revision or default_revision(paths)
    try:
        return git("rev-parse", "--verify", "--quiet", f"{name}^{{commit}}")
    except BaselineError:
        print(f"--baseline: {name!r} is not a commit of {REPO} (a sha, HEAD~1, a branch)")
        raise SystemExit(2) from None


def describe(commit: str, paths: Sequence[str]) -> str:
    """One line naming the revision measured and whether ``paths`` differ there from the tree
    measured (the working tree)."""
    line = git("log", "-1", "--date=short", "--format=%h %ad %s", commit)
    if len(line) > 90:
        line = line[:87] + "..."
    same = subprocess.run(
        ["git", "-C", str(REPO), "diff", "--quiet", commit, "--", *paths], check=False
    )
    differs = "differ" if same.returncode else "are the same (ratios near 1 expected)"
    return f"baseline {line}; {', '.join(paths)} {differs} in the tree measured"


def _interrupted(signum: int, _frame: object) -> None:
    raise KeyboardInterrupt(f"signal {signum}")


@contextmanager
def checkout(commit: str) -> Iterator[Path]:
    """``commit`` checked out (detached) in a temporary worktree, removed on leaving, also on
    an error, Ctrl-C or SIGTERM (turned into KeyboardInterrupt meanwhile)."""
    folder = Path(tempfile.mkdtemp(prefix="firefight-baseline-"))
    previous = signal.signal(signal.SIGTERM, _interrupted)
    try:
        git("worktree", "add", "--detach", "--quiet", str(folder), commit)
        yield folder
    finally:
        with suppress(BaselineError):
            git("worktree", "remove", "--force", str(folder))
        shutil.rmtree(folder, ignore_errors=True)
        git("worktree", "prune")
        signal.signal(signal.SIGTERM, previous)


def measure(
    src: Path, script: str | Path, cases: Sequence[Mapping[str, Any]], timeout: float | None = None
) -> list[dict[str, Any]]:
    """Run ``script --measure`` with ``src`` first on ``PYTHONPATH`` on ``cases`` (one result a
    case, in order; a case that failed there is ``{"error": ...}``)."""
    path = os.pathsep.join([str(src), str(HERE)])
    done = subprocess.run(
        [sys.executable, str(script), MEASURE_FLAG],
        input=json.dumps(list(cases)),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
        env=os.environ | {"PYTHONPATH": path},
    )
    lines = done.stdout.strip().splitlines()
    if done.returncode or not lines:
        tail = "\n".join(done.stderr.strip().splitlines()[-5:])
        raise BaselineError(f"measuring with {src} failed (exit {done.returncode}):\n{tail}")
    found: list[dict[str, Any]] = json.loads(lines[-1])
    return found


def alternated(
    trees: Sequence[Path],
    script: str | Path,
    pairs: Sequence[Sequence[Mapping[str, Any] | None]],
    rounds: int = 2,
    timeout: float | None = None,
) -> list[list[list[dict[str, Any]]]]:
    """Each of ``pairs`` (one case a tree of ``trees``, ``None`` where that tree does not run
    it) measured alternately, A B A B ... ``rounds`` times, each measurement in a fresh
    subprocess (:func:`measure` with that tree's ``src``): timed one after the other, a load
    that shifts during the run would be read as a ratio; alternated, both sides see it. Per
    pair, per tree, its results in round order (empty where it did not run)."""
    found: list[list[list[dict[str, Any]]]] = []
    for cases in pairs:
        results: list[list[dict[str, Any]]] = [[] for _ in trees]
        for _ in range(max(rounds, 1)):
            for n, (tree, case) in enumerate(zip(trees, cases, strict=True)):
                if case is not None:
                    results[n] += measure(tree / "src", script, [case], timeout=timeout)
        found.append(results)
    return found


def median_of(results: Sequence[Mapping[str, Any]], field: str) -> float | None:
    """The median of ``field`` over ``results`` (rounds of one case), ``None`` if any failed."""
    if not results or any("error" in r for r in results):
        return None
    values = sorted(float(r[field]) for r in results)
    middle = len(values) // 2
    return values[middle] if len(values) % 2 else (values[middle - 1] + values[middle]) / 2


def serve(measure_one: Callable[[dict[str, Any]], dict[str, Any]]) -> None:
    """The child's side of :func:`measure`: read the cases on standard input, print their
    results as one JSON line (a case's exception becomes ``{"error": "Type: message"}``)."""
    results: list[dict[str, Any]] = []
    for case in json.load(sys.stdin):
        try:
            results.append(measure_one(case))
        except Exception as error:  # the revision may lack what a case needs
            results.append({"error": f"{type(error).__name__}: {error}"})
    print(json.dumps(results))


def child_requested(argv: Sequence[str] | None = None) -> bool:
    """Whether the script was started by :func:`measure`."""
    return MEASURE_FLAG in (sys.argv[1:] if argv is None else argv)


def odds_json(odds: Mapping[Any, Any]) -> dict[str, str]:
    """A distribution as JSON: outcome -> its exact probability as ``"p/q"``."""
    return {str(outcome): str(Fraction(p)) for outcome, p in odds.items()}


def best_time(action: Callable[[], Any], repeat: int, budget_s: float = 5.0) -> tuple[float, Any]:
    """The least seconds of up to ``repeat`` calls of ``action`` after one untimed call (it
    loads the files, builds the pool, compiles the kernels) and that call's result; no further
    call once ``budget_s`` is spent (a slow baseline runs twice, not ``repeat + 1`` times)."""
    result = action()
    times: list[float] = []
    while len(times) < max(repeat, 1) and sum(times) < budget_s:
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return min(times), result


def ratio_note(now: float, found: Mapping[str, Any], label: str = "baseline") -> str:
    """``"baseline 1.23 s, x4.5"`` (baseline seconds over ``now``), or the baseline's error."""
    if "error" in found:
        return f"{label}: {found['error']}"
    seconds = float(found["seconds"])
    shown = f"{seconds:.2f} s" if seconds >= 1 else f"{seconds * 1000:.1f} ms"
    return f"{label} {shown}, x{seconds / now:.1f}"
