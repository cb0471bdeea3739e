"""The results file of a sweep: CSV, one row per cell, written as the results come.

Each task's rows are appended, flushed and ``fsync``-ed, so a sweep killed at any moment loses
at most the tasks still running. Beside the CSV, ``NAME.manifest.json`` records the spec's
fingerprint: a sweep started again with the same spec and output reads the rows already
there (dropping a last line cut short by the kill) and computes only the missing cells; a
different spec is refused rather than mixed in. When every cell is done the file is rewritten
sorted by cell (atomically: a temporary file, then a rename), so the finished file does not
depend on the order in which tasks finished.
"""

from __future__ import annotations

import csv
import io
import json
import os
from pathlib import Path
from typing import IO, TYPE_CHECKING

import firefight
from firefight.core.files import FileError, parse_json, read_text
from firefight.errors import InputError
from firefight.sim.grid import MAX_CELLS
from firefight.translation import gettext as _

if TYPE_CHECKING:
    from firefight.sim.spec import SweepSpec

Row = list[str]


def manifest_path(output: Path) -> Path:
    """The manifest beside a results file (``results.csv.manifest.json``)."""
    return output.with_name(output.name + ".manifest.json")


def _line(row: Row) -> str:
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerow(row)
    return buffer.getvalue()


def _write_whole(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all."""
    temporary = path.with_name(path.name + ".tmp")
    with temporary.open("w", encoding="utf-8", newline="") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, path)


MAX_MANIFEST_BYTES = 32 * 2**20
"""The largest sweep manifest read back when a sweep resumes. The manifest firefight writes
holds the spec with every axis listed: a grid of :data:`~firefight.sim.grid.MAX_CELLS` cells on
one axis is a million values, some 8 MiB written; a larger file beside the results is not one of
firefight's."""

MAX_MANIFEST_VALUES = 2 * MAX_CELLS + 10_000
"""The most values such a manifest may hold: the axes' values, and the spec's settings."""


class ResultsFile:
    """A sweep's CSV and its manifest."""

    def __init__(self, path: Path, spec: SweepSpec, columns: Row) -> None:
        self.path = path
        self.spec = spec
        self.columns = columns
        self.rows: dict[int, Row] = {}
        self._handle: IO[str] | None = None

    def _manifest(self) -> dict[str, object]:
        spec = self.spec
        return {
            "fingerprint": spec.fingerprint(),
            "spec": spec.source,
            "kind": spec.kind,
            **dict(spec.settings),
            "mode": spec.mode,
            "samples": spec.samples if spec.mode == "sampled" else None,
            "seed": spec.seed if spec.mode == "sampled" else None,
            "confidence": spec.confidence if spec.mode == "sampled" else None,
            "inputs": dict(spec.inputs),
            "axes": {axis.name: list(axis.values) for axis in spec.axes},
            "statistics": {s.name: list(s.outcomes) for s in spec.statistics},
            "cells": spec.cells,
            "columns": self.columns,
            "firefight": firefight.__version__,
        }

    def open(self, *, restart: bool) -> set[int]:
        """Start the file, or read the cells an earlier run finished; the indices done."""
        try:
            return self._open(restart=restart)
        except OSError as error:
            reason = error.strerror or type(error).__name__
            allowed = _("a file that can be written ({reason})").format(reason=reason)
            raise InputError("output", allowed, str(self.path)) from None

    def _open(self, *, restart: bool) -> set[int]:
        manifest = manifest_path(self.path)
        if restart:
            self.path.unlink(missing_ok=True)
            manifest.unlink(missing_ok=True)
        if self.path.exists():
            self._resume(manifest)
        else:
            _write_whole(manifest, json.dumps(self._manifest(), indent=2, default=str) + "\n")
            _write_whole(self.path, _line(self.columns))
        self._handle = self.path.open("a", encoding="utf-8", newline="")
        return set(self.rows)

    def _resume(self, manifest: Path) -> None:
        mine = self.spec.fingerprint()
        try:
            text = read_text(manifest, manifest.name, MAX_MANIFEST_BYTES)
            data = parse_json(text, manifest.name, max_values=MAX_MANIFEST_VALUES)
            theirs = data["fingerprint"] if isinstance(data, dict) else None
        except FileError:
            theirs = None
        if theirs is None:
            allowed = _(
                "a new file or the results of this sweep (no sweep manifest {name} beside it; "
                "--restart overwrites it)"
            ).format(name=manifest.name)
            raise InputError("output", allowed, str(self.path)) from None
        if theirs != mine:
            allowed = _(
                "a new file or the results of this spec (fingerprint {mine}; the file holds "
                "another sweep's, {theirs}: choose another --output, or --restart)"
            ).format(mine=mine, theirs=theirs)
            raise InputError("output", allowed, str(self.path))
        data = self.path.read_bytes()
        # A line without its newline was cut short by the kill: drop it.
        complete = data[: data.rfind(b"\n") + 1]
        lines = complete.decode("utf-8").splitlines(keepends=True)
        if not lines or next(csv.reader([lines[0]])) != self.columns:
            # Killed before the header was whole: start the file again.
            _write_whole(self.path, _line(self.columns))
            return
        kept = len(lines[0].encode())
        for text in lines[1:]:
            row = next(csv.reader([text]))
            if len(row) != len(self.columns) or not row[0].isdigit():
                break
            self.rows[int(row[0])] = row
            kept += len(text.encode())
        if kept != len(data):
            with self.path.open("r+b") as handle:
                handle.truncate(kept)
                handle.flush()
                os.fsync(handle.fileno())

    def append(self, rows: list[Row]) -> None:
        """Write a task's rows and make them durable before going on."""
        assert self._handle is not None
        self._handle.write("".join(_line(row) for row in rows))
        self._handle.flush()
        os.fsync(self._handle.fileno())
        for row in rows:
            self.rows[int(row[0])] = row

    def finish(self) -> list[Row]:
        """Rewrite the finished file sorted by cell; its rows."""
        self.close()
        ordered = [self.rows[index] for index in sorted(self.rows)]
        _write_whole(self.path, "".join(_line(row) for row in [self.columns, *ordered]))
        return ordered

    def close(self) -> None:
        """Close the file (the rows written stay)."""
        if self._handle is not None:
            self._handle.close()
            self._handle = None


def write_parquet(path: Path, spec: SweepSpec, columns: Row, rows: list[Row]) -> Path:
    """The same rows as Parquet, typed (integers, floats, text); needs pyarrow."""
    try:
        import pyarrow as pa  # noqa: PLC0415 - optional: only --parquet needs it
        import pyarrow.parquet as pq  # noqa: PLC0415
    except ImportError:
        raise InputError(
            "parquet", "available once pyarrow is installed (pip install 'firefight[parquet]')", 1
        ) from None
    axes = {axis.name: axis for axis in spec.axes}
    arrays = []
    for position, name in enumerate(columns):
        texts = [row[position] for row in rows]
        if name in ("cell", "samples"):
            arrays.append(pa.array([int(t) for t in texts], pa.int64()))
        elif name == "seed":
            arrays.append(pa.array([int(t) if t else None for t in texts], pa.uint64()))
        elif name in axes and all(type(v) is int for v in axes[name].values):
            arrays.append(pa.array([int(t) for t in texts], pa.int64()))
        elif name in axes and all(type(v) is bool for v in axes[name].values):
            arrays.append(pa.array([t == "true" for t in texts], pa.bool_()))
        elif name.startswith(("p_", "lo_", "hi_")) and name not in axes:
            arrays.append(pa.array([float(t) if t else None for t in texts], pa.float64()))
        else:
            arrays.append(pa.array(texts, pa.string()))
    try:
        pq.write_table(pa.Table.from_arrays(arrays, names=columns), path)
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise InputError(
            "parquet", _("a file that can be written ({reason})").format(reason=reason), str(path)
        ) from None
    return path
