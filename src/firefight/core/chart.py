"""Charts as data: row and column labels as printed, bands, clamping and a traced lookup.

A chart is a TOML file in a rule set's ``data/`` folder. Its labels are kept exactly as printed
on the chart (``"15+"``, ``"<=0"``, ``"1-4"``); each label is read as a band of values, and a
value selects the last band whose lower bound it reaches. What happens beyond the first or last
band is declared by the file (``below``/``above`` = ``clamp`` or ``error``), never left to an
index error.
"""

from __future__ import annotations

import math
import re
import tomllib
from bisect import bisect_right
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from itertools import pairwise
from pathlib import Path
from typing import Literal

from firefight.errors import ChartError, RuleError
from firefight.translation import gettext

Number = int | Fraction
LOOKUPS_KEPT = 4096
"""How many looked-up cells a chart keeps (the arguments are players' numbers: bounded)."""
Policy = Literal["clamp", "error"]

_BAND = re.compile(
    r"^(?:(?P<le><=\s*)(?P<le_v>-?\d+)"
    r"|(?P<ge>>=\s*)(?P<ge_v>-?\d+)"
    r"|(?P<plus_v>-?\d+)\+"
    r"|(?P<lo>-?\d+)-(?P<hi>-?\d+)"
    r"|(?P<point>-?\d+))$"
)


def parse_band(label: str) -> tuple[float, float]:
    """The closed interval of values a printed label stands for.

    >>> parse_band("15+"), parse_band("<=0"), parse_band("1-4"), parse_band("7")
    ((15, inf), (-inf, 0), (1, 4), (7, 7))
    """
    match = _BAND.match(label.strip())
    if match is None:
        msg = gettext("label {label!r} is not a number, a band 'a-b', 'n+', '<=n' or '>=n'").format(
            label=label
        )
        raise ChartError(msg)
    groups = match.groupdict()
    if groups["le"] is not None:
        return (-math.inf, int(groups["le_v"]))
    if groups["ge"] is not None:
        return (int(groups["ge_v"]), math.inf)
    if groups["plus_v"] is not None:
        return (int(groups["plus_v"]), math.inf)
    if groups["lo"] is not None:
        return (int(groups["lo"]), int(groups["hi"]))
    value = int(groups["point"])
    return (value, value)


AxisKind = Literal["bands", "labels"]


@dataclass(frozen=True, slots=True)
class Axis:
    """The rows or the columns of a chart.

    ``kind = "bands"``: printed labels read as ordered numeric bands (``"15+"``, ``"1-4"``), so a
    value can be looked up. ``kind = "labels"``: names (``"Shock"``, ``"Light"``), looked up by
    label only.
    """

    header: str
    labels: tuple[str, ...]
    below: Policy = "error"
    above: Policy = "clamp"
    kind: AxisKind = "bands"
    bands: tuple[tuple[float, float], ...] = field(init=False, repr=False)
    lows: tuple[float, ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if not self.labels:
            msg = gettext("axis {header!r} has no labels").format(header=self.header)
            raise ChartError(msg)
        if len(set(self.labels)) != len(self.labels):
            msg = gettext("axis {header!r} repeats a label").format(header=self.header)
            raise ChartError(msg)
        if self.kind == "labels":
            object.__setattr__(self, "bands", ())
            object.__setattr__(self, "lows", ())
            return
        bands = tuple(parse_band(label) for label in self.labels)
        for (lo, _), (next_lo, _) in pairwise(bands):
            if next_lo <= lo:
                msg = gettext("axis {header!r}: labels are not in increasing order").format(
                    header=self.header
                )
                raise ChartError(msg)
        object.__setattr__(self, "bands", bands)
        object.__setattr__(self, "lows", tuple(lo for lo, _ in bands))

    def index(self, value: Number) -> int:
        """The index of the band that ``value`` falls in, after this axis's clamping."""
        if self.kind == "labels":
            msg = gettext("{header} is read by label ({values}), not by value").format(
                header=self.header, values=", ".join(self.labels)
            )
            raise RuleError(msg)
        found = bisect_right(self.lows, value) - 1
        if found < 0:
            if self.below == "clamp":
                return 0
            msg = gettext("{header} {value} is below the chart's lowest, {lowest}").format(
                header=self.header, value=value, lowest=self.labels[0]
            )
            raise RuleError(msg)
        if value > self.bands[found][1]:
            is_last = found == len(self.bands) - 1
            if is_last and self.above == "error":
                msg = gettext("{header} {value} is above the chart's highest, {highest}").format(
                    header=self.header, value=value, highest=self.labels[-1]
                )
                raise RuleError(msg)
        return found

    def label_index(self, label: str) -> int:
        """The index of a printed label (``"15+"``)."""
        try:
            return self.labels.index(label)
        except ValueError:
            allowed = ", ".join(self.labels)
            msg = gettext("{header} must be one of {allowed} (got {label!r})").format(
                header=self.header, allowed=allowed, label=label
            )
            raise RuleError(msg) from None


@dataclass(frozen=True, slots=True)
class Cell:
    """The chart cell a lookup used, as printed."""

    chart: str
    row: str
    column: str
    value: str

    def __str__(self) -> str:
        return f"{self.chart}: row {self.row}, column {self.column} -> {self.value}"


@dataclass(frozen=True, slots=True)
class Chart:
    """A two-way chart: cells by row and column, exactly as printed."""

    id: str
    title: str
    source: str
    rows: Axis
    columns: Axis
    cells: tuple[tuple[str, ...], ...]
    legend: tuple[tuple[str, str], ...] = ()
    notes: tuple[str, ...] = ()
    _looked_up: dict[tuple[Number, Number, int], Cell] = field(
        default_factory=dict, init=False, repr=False, compare=False, hash=False
    )
    """Cells already found, by lookup arguments: exact odds look the same cell up once per
    branch of the dice. A chart never changes, so neither does a cell once found."""

    def __post_init__(self) -> None:
        if len(self.cells) != len(self.rows.labels):
            labels = len(self.rows.labels)
            msg = gettext("chart {id!r}: {count} rows of cells for {labels} labels").format(
                id=self.id, count=len(self.cells), labels=labels
            )
            raise ChartError(msg)
        codes = {code for code, _ in self.legend}
        for label, row in zip(self.rows.labels, self.cells, strict=True):
            if len(row) != len(self.columns.labels):
                msg = gettext(
                    "chart {id!r}: row {label!r} has {count} cells, expected {expected}"
                ).format(id=self.id, label=label, count=len(row), expected=len(self.columns.labels))
                raise ChartError(msg)
            unknown = [cell for cell in row if codes and cell not in codes]
            if unknown:
                msg = gettext(
                    "chart {id!r}: row {label!r} has codes not in its legend: {unknown}"
                ).format(id=self.id, label=label, unknown=unknown)
                raise ChartError(msg)

    def lookup(self, row_value: Number, column_value: Number, column_shift: int = 0) -> Cell:
        """The cell for a row value and a column value, after clamping and a column shift."""
        key = (row_value, column_value, column_shift)
        found = self._looked_up.get(key)
        if found is None:
            found = self._lookup(row_value, column_value, column_shift)
            if len(self._looked_up) >= LOOKUPS_KEPT:
                self._looked_up.clear()
            self._looked_up[key] = found
        return found

    def _lookup(self, row_value: Number, column_value: Number, column_shift: int) -> Cell:
        row = self.rows.index(row_value)
        column = self.columns.index(column_value) + column_shift
        column = min(max(column, 0), len(self.columns.labels) - 1)
        return self.cell(row, column)

    def cell(self, row: int, column: int) -> Cell:
        """The cell at a row and column index."""
        return Cell(
            self.id, self.rows.labels[row], self.columns.labels[column], self.cells[row][column]
        )

    def lookup_label(self, row_label: str, column_value: Number) -> Cell:
        """The cell in a named row at a column value (``lookup_label("Medium", 2)``)."""
        return self.cell(self.rows.label_index(row_label), self.columns.index(column_value))

    def cell_at(self, row_label: str, column_label: str) -> Cell:
        """The cell at printed labels (``cell_at("15+", "40")``)."""
        return self.cell(self.rows.label_index(row_label), self.columns.label_index(column_label))

    def meaning(self, code: str) -> str:
        """What a result code means, from the chart's legend."""
        return dict(self.legend).get(code, code)

    def to_json(self) -> dict[str, object]:
        """The stable JSON shape: ``{"id", "title", "source", "rows", "columns", "cells",
        "notes"}``; the notes are those the text rendering prints under the chart (``[]``
        when it has none)."""
        return {
            "id": self.id,
            "title": self.title,
            "source": self.source,
            "rows": list(self.rows.labels),
            "columns": list(self.columns.labels),
            "cells": [list(row) for row in self.cells],
            "notes": list(self.notes),
        }


def _axis(data: object, name: str, path: Path) -> Axis:
    if not isinstance(data, dict):
        msg = gettext("{file}: [{table}] is missing").format(file=path.name, table=name)
        raise ChartError(msg)
    labels = data.get("labels")
    if not isinstance(labels, list) or not all(isinstance(x, str) for x in labels):
        msg = gettext("{file}: [{table}].labels must be a list of strings").format(
            file=path.name, table=name
        )
        raise ChartError(msg)
    kind = data.get("kind", "bands")
    if kind not in ("bands", "labels"):
        msg = gettext("{file}: [{table}].kind must be one of bands, labels (got {kind!r})").format(
            file=path.name, table=name, kind=kind
        )
        raise ChartError(msg)
    policies = {}
    for key in ("below", "above"):
        value = data.get(key, "error" if key == "below" else "clamp")
        if value not in ("clamp", "error"):
            msg = gettext(
                "{file}: [{table}].{key} must be one of clamp, error (got {value!r})"
            ).format(file=path.name, table=name, key=key, value=value)
            raise ChartError(msg)
        policies[key] = value
    return Axis(
        str(data.get("header", name)), tuple(labels), policies["below"], policies["above"], kind
    )


@cache
def chart_file(path: Path) -> Chart:
    """The chart of a game's data file, parsed and validated once for the whole process
    (:func:`load_chart` the first time): the procedure reading it and its rule set's listing of
    its charts share one parse."""
    return load_chart(path)


def load_chart(path: Path) -> Chart:
    """Load and validate a chart from its TOML file."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        msg = gettext("{name}: {error}").format(name=path.name, error=error)
        raise ChartError(msg) from None
    for key in ("id", "title", "source"):
        if not isinstance(data.get(key), str):
            msg = gettext("{name}: '{key}' must be a string").format(name=path.name, key=key)
            raise ChartError(msg)
    rows = _axis(data.get("rows"), "rows", path)
    columns = _axis(data.get("columns"), "columns", path)
    cells_data = data.get("cells")
    if not isinstance(cells_data, dict):
        msg = gettext("{name}: [cells] is missing").format(name=path.name)
        raise ChartError(msg)
    extra = set(cells_data) - set(rows.labels)
    if extra:
        msg = gettext("{name}: [cells] has rows not among the row labels: {sorted}").format(
            name=path.name, sorted=sorted(extra)
        )
        raise ChartError(msg)
    cells = []
    for label in rows.labels:
        row = cells_data.get(label)
        if not isinstance(row, list) or not all(isinstance(x, str) for x in row):
            msg = gettext("{name}: [cells] row {label!r} must be a list of strings").format(
                name=path.name, label=label
            )
            raise ChartError(msg)
        cells.append(tuple(row))
    legend_data = data.get("legend", {})
    if not isinstance(legend_data, dict):
        msg = gettext("{name}: [legend] must be a table").format(name=path.name)
        raise ChartError(msg)
    legend = tuple((str(k), str(v)) for k, v in legend_data.items())
    notes = data.get("notes", [])
    if not isinstance(notes, list) or not all(isinstance(x, str) for x in notes):
        msg = gettext("{name}: 'notes' must be a list of strings").format(name=path.name)
        raise ChartError(msg)
    return Chart(
        data["id"], data["title"], data["source"], rows, columns, tuple(cells), legend, tuple(notes)
    )
