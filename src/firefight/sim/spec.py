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
:class:`SpecError`. See docs/sweeps.md.
"""

from __future__ import annotations

import hashlib
import json
import math
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from statistics import NormalDist
from typing import TYPE_CHECKING, Literal

from firefight.errors import FirefightError, InputError

if TYPE_CHECKING:
    from firefight.sim.cells import CellKind

Mode = Literal["exact", "sampled"]
Scalar = str | int | float | bool

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


class SpecError(FirefightError):
    """A sweep specification cannot be used: one line naming the file and the place."""

    def __init__(self, source: str, place: str, problem: str) -> None:
        self.source = source
        self.place = place
        super().__init__(f"{source}: {place}: {problem}" if place else f"{source}: {problem}")


_Fail = Callable[[str, str], SpecError]


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


def axis_text(value: object) -> str:
    """An axis value as written in the results and matched by ``--at`` (``true``, ``12``)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


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
    allowed = "an existing .toml file or a sample: " + ", ".join(sorted(samples))
    raise InputError("spec", allowed, name)


def load_spec(path: Path) -> SweepSpec:
    """Read and validate a specification; the cell kind checks its own keys and every cell."""
    source = str(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise SpecError(source, "", str(error)) from None
    return spec_from_data(data, source)


def spec_from_data(data: Mapping[str, object], source: str) -> SweepSpec:
    """Validate a specification already read (``source`` names it in errors)."""
    from firefight.sim.cells import cell_kind  # noqa: PLC0415 - cells imports this module

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
        settings.append((key, _scalar(data[key], key, fail)))

    mode, samples, seed, confidence, batch = _run_settings(data, fail)
    inputs = _table(data.get("inputs", {}), "inputs", fail)
    axes = _axes(data.get("axes"), fail)
    for axis in axes:
        if axis.name in inputs:
            raise fail(f"axes.{axis.name}", "is also a fixed input in [inputs]; give it once")
        if axis.name in RESERVED_COLUMNS:
            allowed = ", ".join(RESERVED_COLUMNS)
            raise fail(f"axes.{axis.name}", f"is a results column's name ({allowed})")

    kind = factory.build(dict(settings), source)
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
    data: Mapping[str, object], fail: _Fail
) -> tuple[Mode, int, int, float, int | None]:
    mode = data.get("mode", "exact")
    if mode not in ("exact", "sampled"):
        raise fail("mode", f"must be exact or sampled (got {mode!r})")
    samples = _integer(data.get("samples", DEFAULT_SAMPLES), "samples", 1, fail)
    seed = _integer(data.get("seed", 0), "seed", 0, fail)
    confidence = data.get("confidence", DEFAULT_CONFIDENCE)
    if (
        isinstance(confidence, bool)
        or not isinstance(confidence, float | int)
        or not 0 < confidence < 1
    ):
        raise fail("confidence", f"must be a number between 0 and 1 (got {confidence!r})")
    batch_raw = data.get("batch")
    batch = None if batch_raw is None else _integer(batch_raw, "batch", 1, fail)
    return mode, samples, seed, float(confidence), batch


def _check_cells(spec: SweepSpec, kind: CellKind, fail: _Fail) -> None:
    """Every cell's input is validated before any work starts (about 20 microseconds a cell)."""
    inputs = dict(spec.inputs)
    for index in range(spec.cells):
        try:
            kind.cell(spec.cell_input(index))
        except InputError as error:
            where = "inputs"
            if error.field in {a.name for a in spec.axes}:
                where = f"axes.{error.field}"
            elif error.field in inputs:
                where = f"inputs.{error.field}"
            shown = ", ".join(f"{k}={axis_text(v)}" for k, v in spec.values_at(index).items())
            raise fail(where, f"{error} (in cell {index}: {shown})") from None


def _scalar(value: object, place: str, fail: _Fail) -> Scalar:
    if isinstance(value, str | int | float | bool):
        return value
    raise fail(place, f"must be a string, a number or true/false (got {value!r})")


def _integer(value: object, place: str, low: int, fail: _Fail) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise fail(place, f"must be an integer of at least {low} (got {value!r})")
    return value


def _table(value: object, place: str, fail: _Fail) -> dict[str, object]:
    if not isinstance(value, dict):
        raise fail(place, f"must be a table ([{place}]) (got {value!r})")
    return dict(value)


def _axes(value: object, fail: _Fail) -> tuple[Axis, ...]:
    if value is None:
        raise fail("axes", "missing: a [axes] table with at least one axis")
    table = _table(value, "axes", fail)
    if not table:
        raise fail("axes", "needs at least one axis")
    axes = []
    for name, given in table.items():
        place = f"axes.{name}"
        values: tuple[Scalar, ...]
        if isinstance(given, dict):
            values = _span(given, place, fail)
        elif isinstance(given, list):
            values = tuple(_scalar(v, place, fail) for v in given)
        else:
            raise fail(place, f"must be a list of values or {{ from = A, to = B }} (got {given!r})")
        if not values:
            raise fail(place, "needs at least one value")
        if len(set(map(axis_text, values))) != len(values):
            raise fail(place, f"repeats a value (got {list(values)!r})")
        axes.append(Axis(name, values))
    return tuple(axes)


def _span(given: Mapping[str, object], place: str, fail: _Fail) -> tuple[int, ...]:
    for key in given:
        if key not in ("from", "to", "step"):
            raise fail(f"{place}.{key}", "unknown key; allowed: from, to, step")
    if "from" not in given or "to" not in given:
        raise fail(place, "a span needs from and to: { from = 1, to = 20 }")
    start = _whole(given["from"], f"{place}.from", fail)
    stop = _whole(given["to"], f"{place}.to", fail)
    step = _integer(given.get("step", 1), f"{place}.step", 1, fail)
    if stop < start:
        raise fail(f"{place}.to", f"must be at least from ({start}) (got {stop})")
    return tuple(range(start, stop + 1, step))


def _whole(value: object, place: str, fail: _Fail) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise fail(place, f"must be an integer (got {value!r})")
    return value


def _statistics(value: object, declared: Sequence[str], fail: _Fail) -> tuple[Statistic, ...]:
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
    table = _table(value, "statistics", fail)
    if not table:
        raise fail("statistics", "needs at least one statistic")
    statistics = []
    for name, given in table.items():
        place = f"statistics.{name}"
        if name in RESERVED_COLUMNS:
            raise fail(place, f"is a results column's name ({', '.join(RESERVED_COLUMNS)})")
        outcomes = [given] if isinstance(given, str) else given
        if not isinstance(outcomes, list) or not outcomes:
            raise fail(place, f"must be an outcome or a list of outcomes (got {given!r})")
        for outcome in outcomes:
            if not isinstance(outcome, str) or (declared and outcome not in declared):
                allowed = ", ".join(declared) if declared else "outcome names (strings)"
                raise fail(place, f"outcomes must be among {allowed} (got {outcome!r})")
        statistics.append(Statistic(name, tuple(outcomes)))
    return tuple(statistics)


MAX_DEFAULT_STATISTICS = 40


def _heatmap(
    value: object, axes: Sequence[Axis], statistics: Sequence[Statistic], fail: _Fail
) -> Heatmap:
    table = _table(value, "heatmap", fail)
    names = [a.name for a in axes]
    for key, given in table.items():
        place = f"heatmap.{key}"
        if key in ("x", "y") and given not in names:
            raise fail(place, f"must be one of the axes {', '.join(names)} (got {given!r})")
        if key == "value" and given not in [s.name for s in statistics]:
            stats = ", ".join(s.name for s in statistics)
            raise fail(place, f"must be one of the statistics {stats} (got {given!r})")
        if key not in ("x", "y", "value", "at"):
            raise fail(place, "unknown key; allowed: x, y, value, at")
    at_table = _table(table.get("at", {}), "heatmap.at", fail)
    at = []
    for name, given in at_table.items():
        axis = next((a for a in axes if a.name == name), None)
        texts = [axis_text(v) for v in axis.values] if axis else []
        if axis is None or axis_text(given) not in texts:
            allowed = ", ".join(texts) if axis else "an axis: " + ", ".join(names)
            raise fail(f"heatmap.at.{name}", f"must be one of {allowed} (got {given!r})")
        at.append((name, axis_text(given)))
    return Heatmap(
        x=_optional_text(table.get("x")),
        y=_optional_text(table.get("y")),
        value=_optional_text(table.get("value")),
        at=tuple(at),
    )


def _optional_text(value: object) -> str | None:
    return None if value is None else str(value)
