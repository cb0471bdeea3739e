"""Run one registered loader's hostile cases in this process and write what each did as JSON.

``python runner.py NAME MODULE RESULTS FOLDER``: imports ``MODULE`` (which registers the loader
``NAME``), writes each case of :func:`variants.cases` into ``FOLDER`` and runs the loader's
``firefight`` command on it in-process (``firefight.cli.main``, which turns a user error into
exit 2 and a bug into exit 70, as the console script does), output captured. A loader with no
command (read from Python only) is called directly, its errors mapped as the CLI maps them.
``RESULTS`` receives, per case, its exit code, its output (cut short), whether it could be
valid (and for the valid example, whether the load function itself reads it), and this
process's peak resident memory so far.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import json
import resource
import shutil
import signal
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from variants import Case, cases

CASE_SECONDS = 120
"""A hang guard per case (not a timing assertion): a case still running then is a failure."""

ADDRESS_SPACE = 6 * 2**30
"""The process's address space cap: a loader that builds a huge value fails with a
MemoryError (exit 70, a failure) instead of taking the machine's memory."""


class Hang(BaseException):
    """Raised by the alarm: a BaseException, so the CLI's own handler does not catch it."""


def _alarm(signum: int, frame: object) -> None:
    raise Hang


def _call(command: tuple[str, ...], load: object, path: Path) -> int:
    from firefight.cli import BUG_EXIT, main  # noqa: PLC0415
    from firefight.errors import FirefightError  # noqa: PLC0415

    if command:
        return main([part.replace("{path}", str(path)) for part in command])
    try:
        load(path)  # type: ignore[operator]
    except FirefightError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except Exception as error:  # a bug, in one line as the CLI says it
        print(f"bug: {type(error).__name__}", file=sys.stderr)
        return BUG_EXIT
    return 0


def run_case(case: Case, path: Path, command: tuple[str, ...], load: object) -> dict[str, object]:
    """One case's exit code, output and peak memory so far."""
    case.write(path)
    out = io.StringIO()
    started = time.monotonic()
    signal.alarm(CASE_SECONDS)
    loads = None
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            if case.valid:  # the example must load, whatever the command then makes of it
                loads = _call((), load, path) == 0 or out.getvalue()[:300]
            code: object = _call(command, load, path)
    except Hang:
        code = "hang"
    except MemoryError:
        code = "MemoryError"
    finally:
        signal.alarm(0)
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        else:
            path.unlink(missing_ok=True)
    text = out.getvalue()
    return {
        "case": case.name,
        "valid": case.valid,
        "loads": loads,
        "code": code,
        "lines": len(text.strip().splitlines()),
        "traceback": "Traceback" in text,
        "output": text[:300],
        "seconds": round(time.monotonic() - started, 3),
        "peak_kib": peak_kib(),
    }


def peak_kib() -> int:
    """This process's peak resident memory (KiB): ``VmHWM``, the high-water mark of its own
    memory since it started. Not ``ru_maxrss``, which Linux carries over an exec from the image
    the process was forked from (a pytest worker of 2 GB makes every child report 2 GB)."""
    with open("/proc/self/status", encoding="ascii") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))


def _build_the_command_once() -> None:
    """``firefight.cli.main`` builds the Click command from the Typer app on every call (a
    tenth of a second); the runner calls it for each case, so it is built once here."""
    import typer.main  # noqa: PLC0415

    build = typer.main.get_command
    built: dict[int, object] = {}

    def once(app: object) -> object:
        if id(app) not in built:
            built[id(app)] = build(app)  # type: ignore[arg-type]
        return built[id(app)]

    typer.main.get_command = once  # type: ignore[assignment]


def main(name: str, module: str, results: Path, folder: Path) -> None:
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))
    signal.signal(signal.SIGALRM, _alarm)
    importlib.import_module("firefight.cli")
    _build_the_command_once()
    importlib.import_module(module)
    from firefight.core.files import LOADERS  # noqa: PLC0415

    if name not in LOADERS:  # registered by a module other than its load function's
        from modules import every_module  # noqa: PLC0415

        every_module()
    loader = LOADERS[name]
    done: list[dict[str, object]] = []
    started = peak_kib()
    for number, case in enumerate(cases(name, loader.example(), loader.suffix)):
        path = folder / f"{number:02d}-{case.name}{loader.suffix}"
        done.append(run_case(case, path, loader.command, loader.load))
        results.write_text(json.dumps({"start_kib": started, "cases": done}))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], Path(sys.argv[3]), Path(sys.argv[4]))
