"""``firefight sweep SPEC``: a grid of cells, exact or sampled, on this machine's cores or a
Dask cluster; results in a resumable CSV (and Parquet), a heatmap picture. docs/sweeps.md."""

from __future__ import annotations

import json
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from firefight.cli.integers import ascii_integer

if TYPE_CHECKING:
    from rich.progress import Progress

    from firefight.sim import SweepReport, SweepSpec
    from firefight.sim.sweep import Backend

JsonOption = Annotated[bool, typer.Option("--json", help="Print a machine-readable summary.")]
INTERRUPTED = 130
"""The exit code of a sweep stopped by Ctrl-C (128 + SIGINT, as shells report it)."""
TERMINATED = 143
"""The exit code of a sweep stopped by ``kill`` (128 + SIGTERM)."""
MAX_WORKERS = 256
"""The most local worker processes a sweep starts (far more than a machine's cores)."""
MAX_BATCH = 1_000_000
"""The most cells in one task (a sweep has at most this many cells in all)."""


def _at(pairs: list[str]) -> dict[str, str]:
    from firefight.errors import InputError  # noqa: PLC0415 - lazy: fast start-up

    held = {}
    for pair in pairs:
        name, equals, value = pair.partition("=")
        if not equals or not name.strip():
            raise InputError("at", "AXIS=VALUE", pair)
        held[name.strip()] = value.strip()
    return held


def sweep(  # noqa: PLR0917 - Typer passes each option as a parameter
    spec: Annotated[
        str, typer.Argument(help="A sweep specification (.toml) or a sample's name: ept_fire.")
    ],
    output: Annotated[
        Path | None,
        typer.Option(
            "--output",
            "-o",
            help="Results CSV (default: the spec's name .csv, here). Resumed "
            "if it holds this sweep's earlier rows.",
        ),
    ] = None,
    workers: Annotated[
        int | None,
        typer.Option(
            parser=ascii_integer(1, MAX_WORKERS),
            help="Local worker processes (default: every core; 1: in-process).",
        ),
    ] = None,
    scheduler: Annotated[
        str | None,
        typer.Option(help="Run on a Dask cluster instead: its scheduler, tcp://HOST:PORT."),
    ] = None,
    batch: Annotated[
        int | None,
        typer.Option(
            parser=ascii_integer(1, MAX_BATCH),
            help="Cells per task (default: about 10,000 samples' worth).",
        ),
    ] = None,
    restart: Annotated[
        bool, typer.Option("--restart", help="Discard earlier results in --output.")
    ] = False,
    parquet: Annotated[
        bool, typer.Option("--parquet", help="Also write the rows as Parquet (needs pyarrow).")
    ] = False,
    out: Annotated[
        Path | None, typer.Option("--out", help="Draw a heatmap to this .png or .svg file.")
    ] = None,
    x: Annotated[str | None, typer.Option("--x", help="The heatmap's horizontal axis.")] = None,
    y: Annotated[str | None, typer.Option("--y", help="The heatmap's vertical axis.")] = None,
    value: Annotated[
        str | None, typer.Option("--value", help="The statistic the heatmap shows.")
    ] = None,
    at: Annotated[
        list[str] | None,
        typer.Option("--at", help="AXIS=VALUE: hold an axis not drawn at a value (repeatable)."),
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """Run a sweep: every cell of a grid of inputs, exact or sampled; resumable."""
    from firefight.sim import (  # noqa: PLC0415 - lazy: fast start-up
        backend_for,
        find_spec,
        load_spec,
        write_parquet,
    )

    path = find_spec(spec)
    loaded = load_spec(path)
    held = _at(at or [])
    if out is not None:
        _check_picture(loaded, out, x=x, y=y, value=value, held=held)
    target = output if output is not None else Path(path.stem + ".csv")
    backend = backend_for(workers, scheduler)
    report = _run(loaded, target, backend, batch, restart)
    parquet_path = None
    if parquet:
        parquet_path = write_parquet(
            target.with_suffix(".parquet"), loaded, report.header, report.rows
        )
    picture = _heatmap(loaded, report, out, x=x, y=y, value=value, held=held)
    if as_json:
        sys.stdout.write(json.dumps(summary(report, parquet_path, picture), indent=2) + "\n")
        return
    _print(report, parquet_path, picture)


def _check_picture(
    loaded: SweepSpec,
    out: Path,
    *,
    x: str | None,
    y: str | None,
    value: str | None,
    held: dict[str, str],
) -> None:
    """The heatmap ``--out`` asks for can be drawn: a .png or .svg file in an existing
    folder, its axes and statistic the spec's (a user error before any work)."""
    from firefight.errors import InputError  # noqa: PLC0415 - lazy: fast start-up
    from firefight.sim.heatmap import heatmap_choice  # noqa: PLC0415

    if out.suffix.lower() not in (".png", ".svg"):
        raise InputError("out", "a file name ending in .png or .svg", str(out))
    if not out.parent.is_dir():
        raise InputError("out", "a file in an existing folder", str(out))
    heatmap_choice(loaded, x, y, value, held)  # a wrong axis is an error before any work


def _heatmap(
    loaded: SweepSpec,
    report: SweepReport,
    out: Path | None,
    *,
    x: str | None,
    y: str | None,
    value: str | None,
    held: dict[str, str],
) -> Path | None:
    """The heatmap ``--out`` asks for, drawn from the sweep's rows (none without ``--out``)."""
    from firefight.sim import draw_heatmap  # noqa: PLC0415 - lazy: fast start-up

    if out is None:
        return None
    return draw_heatmap(loaded, report.header, report.rows, out, x=x, y=y, value=value, at=held)


def _progress() -> Progress:
    """The progress bar on standard error (none when it is not a terminal)."""
    from rich.console import Console  # noqa: PLC0415 - lazy: fast start-up
    from rich.progress import (  # noqa: PLC0415
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    stderr = Console(stderr=True)
    return Progress(
        TextColumn("[bold]sweep[/bold]"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("cells"),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=stderr,
        disable=not stderr.is_terminal,
        transient=True,
    )


def _run(
    loaded: SweepSpec, target: Path, backend: Backend, batch: int | None, restart: bool
) -> SweepReport:
    """The sweep run with its progress shown; stopped by Ctrl-C or ``kill``, the rows written
    so far stay, the resume is told, and the exit is :data:`INTERRUPTED` or
    :data:`TERMINATED`."""
    from firefight.sim import run_sweep  # noqa: PLC0415 - lazy: fast start-up

    progress = _progress()
    task = progress.add_task("cells", total=loaded.cells)
    written = [0, loaded.cells]

    def started(done: int, total: int) -> None:
        written[0] = done
        # Resumed cells are not counted as speed, so the ETA reflects this run's pace.
        progress.update(task, total=total - done)

    def advance(count: int) -> None:
        written[0] += count
        progress.advance(task, count)

    code = [INTERRUPTED]

    def terminated(signum: int, frame: object) -> None:
        # `kill PID` stops the sweep as Ctrl-C does: the pool is shut down, the rows stay.
        code[0] = TERMINATED
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, terminated)
    try:
        with progress:
            return run_sweep(
                loaded,
                target,
                backend,
                batch=batch,
                restart=restart,
                on_start=started,
                on_rows=advance,
            )
    except KeyboardInterrupt:
        sys.stderr.write(
            f"interrupted: {written[0]} of {written[1]} cells written to {target}; run the same "
            "command again to resume\n"
        )
        raise typer.Exit(code[0]) from None
    finally:
        signal.signal(signal.SIGTERM, previous)


def summary(report: SweepReport, parquet: Path | None, picture: Path | None) -> dict[str, object]:
    """The ``--json`` summary (docs/sweeps.md)."""
    from firefight.sim.results import manifest_path  # noqa: PLC0415

    spec = report.spec
    sampled = spec.mode == "sampled"
    return {
        "spec": spec.source,
        "kind": spec.kind,
        **dict(spec.settings),
        "mode": spec.mode,
        "samples": spec.samples if sampled else None,
        "seed": spec.seed if sampled else None,
        "confidence": spec.confidence if sampled else None,
        "axes": {axis.name: list(axis.values) for axis in spec.axes},
        "statistics": [s.name for s in spec.statistics],
        "cells": spec.cells,
        "computed": report.computed,
        "skipped": report.skipped,
        "forbidden": report.forbidden,
        "tasks": report.tasks,
        "batch": report.batch,
        "backend": report.backend,
        "seconds": round(report.seconds, 3),
        "fingerprint": spec.fingerprint(),
        "output": str(report.output),
        "manifest": str(manifest_path(report.output)),
        "parquet": None if parquet is None else str(parquet),
        "picture": None if picture is None else str(picture),
    }


def _print(report: SweepReport, parquet: Path | None, picture: Path | None) -> None:
    spec = report.spec
    what = " ".join(str(v) for _, v in spec.settings)
    how = "exact" if spec.mode == "exact" else f"sampled, {spec.samples:,} per cell"
    typer.echo(
        f"{what} ({how}): {spec.cells:,} cells, {report.computed:,} computed and "
        f"{report.skipped:,} from an earlier run, in {report.seconds:.2f} s ({report.backend}, "
        f"{report.tasks:,} tasks of up to {report.batch:,} cell{'' if report.batch == 1 else 's'})"
    )
    if report.forbidden:
        typer.echo(f"{report.forbidden:,} cells forbidden by the rules (their status says why)")
    typer.echo(f"results: {report.output}")
    if parquet is not None:
        typer.echo(f"parquet: {parquet}")
    if picture is not None:
        typer.echo(f"heatmap: {picture}")
