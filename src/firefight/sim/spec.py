"""A sweep's specification: a TOML file naming what to compute at each cell of a grid.

```toml
ruleset = "ept"            # the cell kind's own keys (kind = "procedure", the default)
procedure = "fire"
mode = "exact"             # or "sampled", with `samples` per cell
seed = 2026                # the sweep seed (sampled cells' seeds derive from it)

[inputs]                   # fixed inputs of every cell
target_movement = "none"

[axes]                     # the grid, in this order (the last axis varies fastest)
strength = { from = 1, to = 20 }
protection = ["none", "light", "medium", "important"]

[statistics]               # columns: the probability of each set of outcomes
neutralized_or_worse = ["N", "N1", "N2", "N3", "1", "E"]
```

Every problem is one line naming the file and the place in it (``axes.strength``), as
:class:`SpecError`. The grid is checked before it is built: each axis's first and last values
against the cell kind's own bounds (a procedure's input model), and the product of the axes'
lengths (computed, not listed) against :data:`MAX_CELLS`. See docs/sweeps.md.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from statistics import NormalDist
from typing import Literal

from firefight.core.files import FileError, loader, parse_toml, read_text
from firefight.errors import InputError, quoted
from firefight.sim import grid
from firefight.sim.cells import cell_kind
from firefight.sim.grid import axis_text
from firefight.sim.kind import CellKind, Scalar, SpecError
from firefight.translation import gettext as _

Mode = Literal["exact", "sampled"]

FORMAT = 1
"""The version of the results' layout, part of the fingerprint: a new layout never resumes an
old file."""
DEFAULT_SAMPLES = 10_000
DEFAULT_CONFIDENCE = 0.95
RESERVED_COLUMNS = ("cell", "mode", "samples", "seed", "status", "distribution")
GENERIC_KEYS = (
    "kind",
    "mode",
    "samples",
    "seed",
    "confidence",
    "batch",
    "inputs",
    "axes",
    "statistics",
    "heatmap",
)
SAMPLES_DIR = "samples"
MAX_SPEC_BYTES = 2**20
"""The largest specification file read: 1 MiB. The shipped samples take under 1 KiB; a span
(``{ from = 1, to = 99 }``) writes an axis of any length in one line, so only an axis listed
value by value grows a file, and 1 MiB lists some 100,000 values: a tenth of
:data:`MAX_CELLS` on one axis."""
MAX_SAMPLES = 10_000_000
"""The most samples one answer draws: a sampled sweep's ``samples`` per cell, and ``firefight
engage --samples``. A sample takes some tens of microseconds (EPT fire with its tests about 80,
the 3-against-3 ``ept_hedgerow`` engagement about 100), so a cell at this limit is a quarter of
an hour's work; more than any interval needs (at 10 million samples a proportion's 95 %
interval is within 0.0004 of it)."""


Fail = Callable[[str, str], SpecError]


@dataclass(frozen=True)
class Axis:
    """One dimension of the grid: an input field and the values it takes, in order."""

    name: str
    values: tuple[Scalar, ...]


@dataclass(frozen=True)
class Statistic:
    """A column: the probability that a cell's outcome is one of ``outcomes``."""

    name: str
    outcomes: tuple[str, ...]


@dataclass(frozen=True)
class Heatmap:
    """The picture's defaults: the two axes drawn, the statistic shown, the other axes' values."""

    x: str | None = None
    y: str | None = None
    value: str | None = None
    at: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class SweepSpec:
    """A validated sweep. Pure data (it travels to the workers, local or on a Dask cluster),
    from which every cell's input and seed follow."""

    source: str
    kind: str
    settings: tuple[tuple[str, Scalar], ...]
    """The cell kind's own keys (``ruleset``, ``procedure``)."""
    inputs: tuple[tuple[str, object], ...]
    axes: tuple[Axis, ...]
    mode: Mode
    samples: int
    seed: int
    confidence: float
    z: float
    """The normal quantile of ``confidence``, computed once here so that every worker, on any
    machine, uses the same float (its interval then needs only IEEE arithmetic and sqrt)."""
    statistics: tuple[Statistic, ...]
    batch: int | None
    heatmap: Heatmap

    @property
    def cells(self) -> int:
        """The number of cells in the grid."""
        return math.prod(len(axis.values) for axis in self.axes)

    def values_at(self, index: int) -> dict[str, Scalar]:
        """The axis values of cell ``index`` (row-major: the last axis varies fastest)."""
        values: dict[str, Scalar] = {}
        for axis in reversed(self.axes):
            index, position = divmod(index, len(axis.values))
            values[axis.name] = axis.values[position]
        return {axis.name: values[axis.name] for axis in self.axes}

    def cell_input(self, index: int) -> dict[str, object]:
        """The raw input of cell ``index``: the fixed inputs and the cell's axis values."""
        return {**dict(self.inputs), **self.values_at(index)}

    def fingerprint(self) -> str:
        """A hash of everything that decides the results (not the file's name, the backend or
        the batch size, which never change them)."""
        identity = {
            "format": FORMAT,
            "kind": self.kind,
            "settings": list(self.settings),
            "inputs": list(self.inputs),
            "axes": [[a.name, list(a.values)] for a in self.axes],
            "mode": self.mode,
            "samples": self.samples if self.mode == "sampled" else 0,
            "seed": self.seed if self.mode == "sampled" else 0,
            "z": self.z if self.mode == "sampled" else 0,
            "statistics": [[s.name, list(s.outcomes)] for s in self.statistics],
        }
        text = json.dumps(identity, sort_keys=True, separators=(",", ":"), default=str)
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def setting(self, key: str) -> Scalar:
        """One of the cell kind's own keys."""
        return dict(self.settings)[key]


def sample_specs() -> dict[str, Path]:
    """The sample specifications shipped with firefight, by name."""
    folder = files("firefight.sim") / SAMPLES_DIR
    return {
        Path(entry.name).stem: Path(str(entry))
        for entry in folder.iterdir()
        if entry.name.endswith(".toml")
    }


def find_spec(name: str) -> Path:
    """A specification file, or a shipped sample's name (``ept_fire``)."""
    path = Path(name)
    if path.is_file():
        return path
    samples = sample_specs()
    if name in samples:
        return samples[name]
    allowed = _("an existing .toml file or a sample: {values}").format(
        values=", ".join(sorted(samples))
    )
    raise InputError("spec", allowed, name)


def _example() -> str:
    """The first shipped sample's text, by name (a valid specification)."""
    samples = sample_specs()
    return samples[min(samples)].read_text(encoding="utf-8")


@loader(
    "sweep",
    ".toml",
    _example,
    ("sweep", "{path}", "--workers", "1", "--output", "{path}.csv", "--json"),
)
def load_spec(path: Path) -> SweepSpec:
    """Read and validate a specification (at most :data:`MAX_SPEC_BYTES`, its nesting bounded);
    the cell kind checks its own keys and every cell."""
    source = str(path)
    try:
        data = parse_toml(read_text(path, source, MAX_SPEC_BYTES), source)
    except FileError as error:
        raise SpecError(source, "", error.problem) from None
    return spec_from_data(data, source)


def spec_from_data(data: Mapping[str, object], source: str) -> SweepSpec:
    """Validate a specification already read (``source`` names it in errors)."""

    def fail(place: str, problem: str) -> SpecError:
        return SpecError(source, place, problem)

    kind_name = data.get("kind", "procedure")
    factory = cell_kind(kind_name, source)
    allowed_keys = (*GENERIC_KEYS, *factory.keys)
    for key in data:
        if key not in allowed_keys:
            raise fail(key, f"unknown key; allowed: {', '.join(allowed_keys)}")
    settings: list[tuple[str, Scalar]] = []
    for key in factory.keys:
        if key not in data:
            raise fail(key, f"missing: the {kind_name} kind needs {', '.join(factory.keys)}")
        settings.append((key, grid.scalar(data[key], key, fail)))

    mode, samples, seed, confidence, batch = _run_settings(data, fail)
    inputs = grid.read_table(data.get("inputs", {}), "inputs", fail)
    given = grid.read_axes(data.get("axes"), fail)
    for name in given:
        if name in inputs:
            raise fail(f"axes.{name}", "is also a fixed input in [inputs]; give it once")
        if name in RESERVED_COLUMNS:
            allowed = ", ".join(RESERVED_COLUMNS)
            raise fail(f"axes.{name}", f"is a results column's name ({allowed})")

    kind = factory.build(dict(settings), source)
    grid.check_ends(kind, inputs, given, fail)  # a span past its field's bounds, before its length
    grid.check_size(given, fail)
    axes = tuple(Axis(name, grid.listed(values)) for name, values in given.items())
    statistics = _statistics(data.get("statistics"), kind.outcomes(), fail)
    heatmap = _heatmap(data.get("heatmap", {}), axes, statistics, fail)
    spec = SweepSpec(
        source=source,
        kind=str(kind_name),
        settings=tuple(settings),
        inputs=tuple(inputs.items()),
        axes=axes,
        mode=mode,
        samples=samples,
        seed=seed,
        confidence=confidence,
        z=NormalDist().inv_cdf(0.5 + confidence / 2),
        statistics=statistics,
        batch=batch,
        heatmap=heatmap,
    )
    _check_cells(spec, kind, fail)
    return spec


def _run_settings(
    data: Mapping[str, object], fail: Fail
) -> tuple[Mode, int, int, float, int | None]:
    mode = data.get("mode", "exact")
    if mode not in ("exact", "sampled"):
        raise fail("mode", f"must be exact or sampled (got {quoted(mode)})")
    samples = grid.integer(data.get("samples", DEFAULT_SAMPLES), "samples", 1, fail, MAX_SAMPLES)
    seed = grid.integer(data.get("seed", 0), "seed", 0, fail)
    confidence = data.get("confidence", DEFAULT_CONFIDENCE)
    if (
        isinstance(confidence, bool)
        or not isinstance(confidence, float | int)
        or not 0 < confidence < 1
    ):
        raise fail("confidence", f"must be a number between 0 and 1 (got {quoted(confidence)})")
    batch_raw = data.get("batch")
    batch = None if batch_raw is None else grid.integer(batch_raw, "batch", 1, fail)
    return mode, samples, seed, float(confidence), batch


def _check_cells(spec: SweepSpec, kind: CellKind, fail: Fail) -> None:
    """Every cell's input is validated before any work starts (about 20 microseconds a cell)."""
    for index in range(spec.cells):
        grid.check_cell(kind, dict(spec.inputs), spec.values_at(index), index, fail)


def _statistics(value: object, declared: Sequence[str], fail: Fail) -> tuple[Statistic, ...]:
    if value is None:
        if not declared:
            raise fail("statistics", "missing: this procedure declares no outcomes; name them")
        if len(declared) > MAX_DEFAULT_STATISTICS:
            raise fail(
                "statistics",
                f"missing: this procedure has {len(declared)} outcomes, more than "
                f"{MAX_DEFAULT_STATISTICS} columns; name the outcomes to keep",
            )
        return tuple(Statistic(outcome, (outcome,)) for outcome in declared)
    table = grid.read_table(value, "statistics", fail)
    if not table:
        raise fail("statistics", "needs at least one statistic")
    statistics = []
    for name, given in table.items():
        place = f"statistics.{name}"
        if name in RESERVED_COLUMNS:
            raise fail(place, f"is a results column's name ({', '.join(RESERVED_COLUMNS)})")
        outcomes = [given] if isinstance(given, str) else given
        if not isinstance(outcomes, list) or not outcomes:
            raise fail(place, f"must be an outcome or a list of outcomes (got {quoted(given)})")
        for outcome in outcomes:
            if not isinstance(outcome, str) or (declared and outcome not in declared):
                allowed = ", ".join(declared) if declared else "outcome names (strings)"
                raise fail(place, f"outcomes must be among {allowed} (got {quoted(outcome)})")
        statistics.append(Statistic(name, tuple(outcomes)))
    return tuple(statistics)


MAX_DEFAULT_STATISTICS = 40


def _heatmap(
    value: object, axes: Sequence[Axis], statistics: Sequence[Statistic], fail: Fail
) -> Heatmap:
    table = grid.read_table(value, "heatmap", fail)
    names = [a.name for a in axes]
    for key, given in table.items():
        place = f"heatmap.{key}"
        if key in ("x", "y") and given not in names:
            raise fail(place, f"must be one of the axes {', '.join(names)} (got {quoted(given)})")
        if key == "value" and given not in [s.name for s in statistics]:
            stats = ", ".join(s.name for s in statistics)
            raise fail(place, f"must be one of the statistics {stats} (got {quoted(given)})")
        if key not in ("x", "y", "value", "at"):
            raise fail(place, "unknown key; allowed: x, y, value, at")
    at_table = grid.read_table(table.get("at", {}), "heatmap.at", fail)
    at = []
    for name, given in at_table.items():
        axis = next((a for a in axes if a.name == name), None)
        texts = [axis_text(v) for v in axis.values] if axis else []
        if axis is None or axis_text(given) not in texts:
            allowed = ", ".join(texts) if axis else "an axis: " + ", ".join(names)
            raise fail(f"heatmap.at.{name}", f"must be one of {allowed} (got {quoted(given)})")
        at.append((name, axis_text(given)))
    return Heatmap(
        x=_optional_text(table.get("x")),
        y=_optional_text(table.get("y")),
        value=_optional_text(table.get("value")),
        at=tuple(at),
    )


def _optional_text(value: object) -> str | None:
    return None if value is None else str(value)
