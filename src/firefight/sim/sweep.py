"""Run a sweep: every cell of a grid, in tasks of several cells, on a backend, written as the
results come so that an interrupted sweep resumes where it stopped.

Reproducibility rests on one rule: **a cell's row depends only on the spec and the cell's
index**. Its seed is drawn from ``SeedSequence(entropy=sweep seed, spawn_key=(index,))``, never
from a generator shared with other cells, so the backend (in-process, local processes, a Dask
cluster), the number of workers, the batch size and the order in which tasks finish change
nothing: the finished file is the same, byte for byte (its rows sorted by cell).
"""

from __future__ import annotations

import json
import math
import multiprocessing
import multiprocessing.connection
import os
import signal
import threading
import time
from collections import Counter
from collections.abc import Callable, Generator, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import closing, contextmanager
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Protocol

import numpy as np

from firefight.chance.distribution import Distribution
from firefight.errors import FirefightError, InputError
from firefight.i18n import gettext as _
from firefight.sim.cells import CellKind, cell_kind
from firefight.sim.grid import axis_text
from firefight.sim.results import ResultsFile
from firefight.sim.spec import SweepSpec
from firefight.translation import N_

Row = list[str]
Results = Generator[list[Row], None, None]
"""Each task's rows as it finishes; closing the generator stops the work."""

TASK_SAMPLES = 10_000
"""A task's size: about this many sampled resolutions (several cells when cells are small)."""
EXACT_CELL_WEIGHT = 50
"""An exact cell counts as this many samples when tasks are sized (EPT fire's odds take about
as long as 3 sampled resolutions, V&V's worst anti-tank odds as 500): 200 exact cells a task."""


SMALL_WORK_S = 2.0
"""Below this much work left (estimated from the first task), local sweeps start no pool."""

CONNECT_TIMEOUT_S = 5.0
"""How long a sweep waits for a Dask scheduler to answer before it says so: a scheduler on the
same network answers in milliseconds, so a few seconds cover a slow link; an address nobody
listens on (a closed port, a typo) is refused after this, not after Dask's own 30 s and its
retries."""
WORKERS_TIMEOUT_S = 30.0
"""How long a sweep waits for a scheduler that answered to have a worker (workers of a cluster
just started take some seconds to join)."""


def cell_seed(sweep_seed: int, index: int) -> int:
    """The seed of cell ``index``: from the sweep seed and the index alone (NumPy's
    ``SeedSequence`` spawn keys keep the cells' streams independent)."""
    sequence = np.random.SeedSequence(entropy=sweep_seed, spawn_key=(index,))
    return int(sequence.generate_state(1, np.uint64)[0])


def header(spec: SweepSpec) -> Row:
    """The results' columns (docs/sweeps.md, "Output columns")."""
    columns = ["cell", *(axis.name for axis in spec.axes), "mode", "samples", "seed", "status"]
    for statistic in spec.statistics:
        columns.append(f"p_{statistic.name}")
        if spec.mode == "exact":
            columns.append(f"exact_{statistic.name}")
        else:
            columns.extend((f"lo_{statistic.name}", f"hi_{statistic.name}"))
    columns.append("distribution")
    return columns


def wilson(hits: int, n: int, z: float) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``hits / n`` at the normal quantile ``z``
    (sound near 0 and 1, where the normal approximation's interval leaves [0, 1])."""
    p = hits / n
    scale = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / scale
    half = z / scale * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    # At 0 or n hits the bound is exactly 0 or 1; the floats would leave a trace of rounding.
    low = 0.0 if hits == 0 else max(0.0, centre - half)
    high = 1.0 if hits == n else min(1.0, centre + half)
    return low, high


_kinds: dict[str, CellKind] = {}


def _kind(spec: SweepSpec) -> CellKind:
    """The spec's cell kind, built once per process (workers rebuild it from pure data)."""
    key = spec.fingerprint()
    if key not in _kinds:
        _kinds[key] = cell_kind(spec.kind, spec.source).build(dict(spec.settings), spec.source)
    return _kinds[key]


def cell_row(spec: SweepSpec, kind: CellKind, index: int) -> Row:
    """One cell's row, every figure written as text (floats by ``repr``: exact round trip)."""
    values = [axis_text(v) for v in spec.values_at(index).values()]
    sampled = spec.mode == "sampled"
    seed = cell_seed(spec.seed, index) if sampled else None
    row = [str(index), *values, spec.mode, str(spec.samples if sampled else 0)]
    row.append("" if seed is None else str(seed))
    width = len(spec.statistics) * (3 if sampled else 2)
    counts: Counter[str] = Counter()
    distribution: Distribution[str] | None = None
    try:
        cell = kind.cell(spec.cell_input(index))
        if sampled:
            assert seed is not None
            counts = kind.sample(cell, spec.samples, seed)
        else:
            distribution = kind.exact(cell)
    except FirefightError as error:  # the rules forbid this cell: say why, go on with the rest
        reason = " ".join(str(error).split())
        return [*row, f"forbidden: {reason}", *([""] * width), ""]
    row.append("ok")
    for statistic in spec.statistics:
        if sampled:
            hits = sum(counts[o] for o in statistic.outcomes)
            low, high = wilson(hits, spec.samples, spec.z)
            row.extend((repr(hits / spec.samples), repr(low), repr(high)))
        else:
            assert distribution is not None
            p = sum((distribution[o] for o in statistic.outcomes), Fraction(0))
            row.extend((repr(float(p)), str(p)))
    shown = distribution.to_json() if distribution is not None else dict(sorted(counts.items()))
    row.append(json.dumps(shown, ensure_ascii=False, separators=(",", ":")))
    return row


def run_task(spec: SweepSpec, indices: Sequence[int]) -> list[Row]:
    """The rows of a task's cells (what a worker runs)."""
    kind = _kind(spec)
    return [cell_row(spec, kind, index) for index in indices]


def default_batch(spec: SweepSpec) -> int:
    """Cells per task: about :data:`TASK_SAMPLES` samples' worth of work."""
    per_cell = spec.samples if spec.mode == "sampled" else EXACT_CELL_WEIGHT
    return max(1, TASK_SAMPLES // per_cell)


# --- backends -------------------------------------------------------------------------------


class Backend(Protocol):
    """Runs tasks and yields each task's rows as it finishes (in any order)."""

    @property
    def description(self) -> str:
        """The backend in words, for the summary."""
        ...

    def map(self, spec: SweepSpec, tasks: Sequence[Sequence[int]]) -> Results:
        """Each task's rows, as tasks finish; closing the iterator stops the work."""
        ...


class InProcess:
    """Every task in this process, one after another (``--workers 1``)."""

    description = "in-process"

    def map(self, spec: SweepSpec, tasks: Sequence[Sequence[int]]) -> Results:
        for task in tasks:
            yield run_task(spec, task)


@contextmanager
def _interrupts_ignored() -> Iterator[None]:
    """Ignore Ctrl-C while worker processes start: a process started with SIGINT ignored
    keeps ignoring it (Python installs its handler only where SIGINT is not ignored), so a
    worker still importing when Ctrl-C comes prints no traceback."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _start_worker() -> None:
    """Set up a pool worker: Ctrl-C reaches the whole process group, and the parent stops the
    pool and reports, so a worker ignores it rather than print a traceback; and a worker whose
    parent dies (killed with SIGKILL) exits at once rather than wait for work forever."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent = multiprocessing.parent_process()
    if parent is not None:
        sentinel = parent.sentinel

        def watch() -> None:
            multiprocessing.connection.wait([sentinel])
            os._exit(1)

        threading.Thread(target=watch, name="firefight-parent-watch", daemon=True).start()


class LocalProcesses:
    """A pool of ``workers`` processes on this machine (started fresh: the *spawn* method,
    safe with the progress bar's thread and the same on every platform).

    Starting the pool costs each worker an import of firefight, so with ``adaptive`` (the
    default) the first task runs here and, if the rest would take less than
    :data:`SMALL_WORK_S` at its pace, they run here too: a small sweep (the ``ept_fire``
    sample's 240 exact cells) is done before a pool would have started. The file is the same.
    """

    def __init__(self, workers: int, *, adaptive: bool = True) -> None:
        self.workers = workers
        self.adaptive = adaptive
        self.description = f"local, {workers} processes"

    def map(self, spec: SweepSpec, tasks: Sequence[Sequence[int]]) -> Results:
        if self.adaptive and tasks:
            started = time.perf_counter()
            yield run_task(spec, tasks[0])
            tasks = tasks[1:]
            if (time.perf_counter() - started) * len(tasks) < SMALL_WORK_S:
                self.description = f"in-process (under {SMALL_WORK_S:g} s of work)"
                yield from InProcess().map(spec, tasks)
                return
        if len(tasks) <= 1:  # starting processes would cost more than the one task
            yield from InProcess().map(spec, tasks)
            return
        context = multiprocessing.get_context("spawn")
        pool = ProcessPoolExecutor(
            max_workers=self.workers, mp_context=context, initializer=_start_worker
        )
        try:
            with _interrupts_ignored():  # the workers start here and inherit the disposition
                pending: set[Future[list[Row]]] = {
                    pool.submit(run_task, spec, tuple(task)) for task in tasks
                }
            while pending:
                finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    yield future.result()
        finally:
            pool.shutdown(wait=True, cancel_futures=True)


class DaskCluster:
    """The tasks sent to a Dask distributed scheduler (``tcp://HOST:PORT``) and its workers,
    which must be able to import firefight (installed, or on their ``PYTHONPATH``)."""

    def __init__(
        self,
        address: str,
        timeout: float = CONNECT_TIMEOUT_S,
        workers_timeout: float = WORKERS_TIMEOUT_S,
    ) -> None:
        self.address = address
        self.timeout = timeout
        self.workers_timeout = workers_timeout
        self.description = f"dask {address}"

    def map(self, spec: SweepSpec, tasks: Sequence[Sequence[int]]) -> Results:
        from distributed import Client, as_completed  # noqa: PLC0415 - only when asked for

        allowed = "the address of a running Dask scheduler with workers, e.g. tcp://HOST:PORT"
        try:
            client = Client(  # type: ignore[no-untyped-call]
                self.address, timeout=self.timeout, set_as_default=False
            )
        except (OSError, TimeoutError, ValueError) as error:
            silent = _("no scheduler answered there within {seconds} s").format(
                seconds=f"{self.timeout:g}"
            )
            raise InputError(
                "scheduler",
                _("{allowed} ({silent})").format(allowed=allowed, silent=silent),
                self.address,
            ) from error
        futures = []
        try:
            try:
                client.wait_for_workers(1, timeout=self.workers_timeout)
            except TimeoutError as error:
                raise InputError(
                    "scheduler",
                    _("{allowed} (it has no worker)").format(allowed=allowed),
                    self.address,
                ) from (error)
            futures = [
                client.submit(run_task, spec, tuple(task), pure=False, key=f"firefight-sweep-{i}")
                for i, task in enumerate(tasks)
            ]
            for future in as_completed(futures, loop=client.loop):  # type: ignore[no-untyped-call]
                yield future.result()
        finally:
            if futures:
                client.cancel(futures)  # type: ignore[no-untyped-call]
            client.close()  # type: ignore[no-untyped-call]


def backend_for(workers: int | None = None, scheduler: str | None = None) -> Backend:
    """``--scheduler`` if given, else ``--workers`` local processes (default: every core, and
    no pool for a sweep under :data:`SMALL_WORK_S`; one worker runs in this process)."""
    if scheduler is not None:
        if workers is not None:
            allowed = N_("omitted with --scheduler (the cluster has its own workers)")
            raise InputError("workers", allowed, workers)
        if not scheduler.startswith(("tcp://", "tls://", "inproc://", "ws://", "wss://")):
            raise InputError("scheduler", "an address such as tcp://HOST:PORT", scheduler)
        return DaskCluster(scheduler)
    count = workers if workers is not None else (os.cpu_count() or 1)
    if count < 1:
        raise InputError("workers", "an integer of at least 1", count)
    if count == 1:
        return InProcess()
    # Workers asked for by name are started; the default (every core) adapts to small sweeps.
    return LocalProcesses(count, adaptive=workers is None)


# --- the sweep ------------------------------------------------------------------------------


@dataclass(frozen=True)
class SweepReport:
    """What a finished sweep did."""

    spec: SweepSpec
    output: Path
    header: Row
    rows: list[Row]
    computed: int
    skipped: int
    tasks: int
    batch: int
    backend: str
    seconds: float

    @property
    def forbidden(self) -> int:
        """Cells the rules forbid (their ``status`` says why)."""
        status = self.header.index("status")
        return sum(1 for row in self.rows if row[status] != "ok")


def run_sweep(
    spec: SweepSpec,
    output: Path,
    backend: Backend,
    *,
    batch: int | None = None,
    restart: bool = False,
    on_start: Callable[[int, int], None] | None = None,
    on_rows: Callable[[int], None] | None = None,
) -> SweepReport:
    """Run ``spec``'s cells not yet in ``output`` on ``backend``; rows are appended (and made
    durable) task by task; at the end the file is rewritten sorted by cell.

    ``on_start(done, total)`` is called once the earlier results are read, ``on_rows(k)`` as
    each task's ``k`` rows are written (a progress bar). An interruption (Ctrl-C) leaves the
    file with every finished task's rows: run the same sweep again to resume.
    """
    started = time.perf_counter()
    columns = header(spec)
    store = ResultsFile(output, spec, columns)
    done = store.open(restart=restart)
    size = batch or spec.batch or default_batch(spec)
    if size < 1:
        raise InputError("batch", "an integer of at least 1", size)
    pending = [index for index in range(spec.cells) if index not in done]
    tasks = [pending[i : i + size] for i in range(0, len(pending), size)]
    if on_start is not None:
        on_start(len(done), spec.cells)
    try:
        with closing(backend.map(spec, tasks)) as results:
            for rows in results:
                store.append(rows)
                if on_rows is not None:
                    on_rows(len(rows))
        rows = store.finish()
    finally:
        store.close()
    return SweepReport(
        spec=spec,
        output=output,
        header=columns,
        rows=rows,
        computed=len(pending),
        skipped=len(done),
        tasks=len(tasks),
        batch=size,
        backend=backend.description,
        seconds=time.perf_counter() - started,
    )
