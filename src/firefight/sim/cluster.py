"""A throwaway Dask cluster on this machine: a scheduler and workers on 127.0.0.1, started as
subprocesses with the ``dask`` commands of ``distributed`` and stopped on leaving.

For the tests and the benchmark (and to try ``firefight sweep --scheduler`` without a cluster):
the workers import firefight from the same ``PYTHONPATH`` as this process, so a work tree's
code is the code they run.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import firefight

START_TIMEOUT = 120.0
STOP_TIMEOUT = 20.0


def _environment() -> dict[str, str]:
    source = str(Path(firefight.__file__).resolve().parents[1])
    paths = [source, *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}


def _stop(process: subprocess.Popen[bytes]) -> None:
    """Stop a process started here and everything it started (its own session)."""
    if process.poll() is not None:
        return
    try:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=STOP_TIMEOUT)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=STOP_TIMEOUT)
    except ProcessLookupError:
        pass


@contextmanager
def local_cluster(folder: Path, workers: int = 2) -> Iterator[str]:
    """Start a scheduler and ``workers`` one-thread workers in ``folder``; yield the
    scheduler's address (``tcp://127.0.0.1:PORT``, the port it picked, read from its scheduler
    file) once every worker has joined; stop them all on leaving."""
    from distributed import Client  # noqa: PLC0415 - only when a cluster is started

    folder.mkdir(parents=True, exist_ok=True)
    scheduler_file = folder / "scheduler.json"
    scheduler_file.unlink(missing_ok=True)
    environment = _environment()
    with ExitStack() as stack:

        def start(name: str, *args: str) -> subprocess.Popen[bytes]:
            log = stack.enter_context((folder / f"{name}.log").open("wb"))
            process = subprocess.Popen(
                [sys.executable, "-m", *args],
                env=environment,
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
            )
            stack.callback(_stop, process)
            return process

        scheduler = start(
            "scheduler",
            "distributed.cli.dask_scheduler",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--no-dashboard",
            "--scheduler-file",
            str(scheduler_file),
        )
        deadline = time.monotonic() + START_TIMEOUT
        address = None
        while address is None:
            if scheduler.poll() is not None or time.monotonic() > deadline:
                log = (folder / "scheduler.log").read_text(errors="replace")[-2000:]
                msg = f"the Dask scheduler did not start:\n{log}"
                raise RuntimeError(msg)
            try:
                address = json.loads(scheduler_file.read_text())["address"]
            except (OSError, ValueError, KeyError):
                time.sleep(0.1)
        for index in range(workers):
            start(
                f"worker-{index}",
                "distributed.cli.dask_worker",
                address,
                "--host",
                "127.0.0.1",
                "--nworkers",
                "1",
                "--nthreads",
                "1",
                "--no-dashboard",
                "--local-directory",
                str(folder / f"worker-{index}"),
            )
        client = Client(address, timeout=START_TIMEOUT)  # type: ignore[no-untyped-call]
        try:
            client.wait_for_workers(workers, timeout=START_TIMEOUT)
        finally:
            client.close()  # type: ignore[no-untyped-call]
        yield address
