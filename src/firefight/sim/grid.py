"""A sweep's grid: its axes as a specification gives them (listed, or spans whose length is
computed, never counted), checked before they are listed: each axis's first and last values
against the cell kind's own bounds, then the product of the axes' lengths against
:data:`MAX_CELLS`. docs/sweeps.md, "Limits".
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from firefight.errors import InputError, quoted
from firefight.i18n import gettext as _
from firefight.sim.kind import CellKind, Scalar

Fail = Callable[[str, str], Exception]
"""How a check refuses: ``fail(place, problem)`` is the error to raise (a spec's own)."""

MAX_CELLS = 1_000_000
"""The most cells in one sweep. Every cell's input is checked before any work and the
finished rows are held in memory to be written sorted (about 3 KB a row: some 3 GB at this
limit), so the checks and the rows bound a sweep before its cells' work does. A larger grid is
several sweeps (one per value of an axis)."""


def axis_text(value: object) -> str:
    """An axis value as written in the results and matched by ``--at`` (``true``, ``12``)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def check_cell(
    kind: CellKind,
    inputs: Mapping[str, object],
    values: Mapping[str, Scalar],
    index: int,
    fail: Fail,
) -> None:
    """One cell's input (``values`` on the axes, cell number ``index``), or its error naming
    the axis or the fixed input at fault and the cell."""
    try:
        kind.cell({**inputs, **values})
    except InputError as error:
        where = "inputs"
        if error.field in values:
            where = f"axes.{error.field}"
        elif error.field in inputs:
            where = f"inputs.{error.field}"
        shown = ", ".join(f"{k}={axis_text(v)}" for k, v in values.items())
        raise fail(where, f"{error} (in cell {index}: {shown})") from None


def check_ends(
    kind: CellKind, inputs: Mapping[str, object], given: Mapping[str, Values], fail: Fail
) -> None:
    """Each axis's first and last values, the other axes at their first: a span past its
    field's bounds (``strength`` to 20,000,000) is refused by the kind's own check before its
    length counts, with the error and the cell number the full check would give."""
    counts = [length(values) for values in given.values()]
    first = {name: value_at(values, 0) for name, values in given.items()}
    stride = math.prod(counts)
    for (name, values), count in zip(given.items(), counts, strict=True):
        stride //= count
        for position in dict.fromkeys((0, count - 1)):
            check_cell(
                kind, inputs, {**first, name: value_at(values, position)}, position * stride, fail
            )


def check_size(given: Mapping[str, Values], fail: Fail) -> None:
    """The grid's cells (the product of the axes' lengths, each computed, none listed) at most
    :data:`MAX_CELLS`."""
    counts = {name: length(values) for name, values in given.items()}
    cells = math.prod(counts.values())
    if cells > MAX_CELLS:
        shown = " x ".join(f"{name} {count:,}" for name, count in counts.items())
        raise fail(
            "axes",
            _("the grid must have at most {most} cells (got {cells}: {shown})").format(
                most=f"{MAX_CELLS:,}", cells=f"{cells:,}", shown=shown
            ),
        )


def scalar(value: object, place: str, fail: Fail) -> Scalar:
    """A string, a number or true/false (an axis value, a cell kind's key)."""
    if isinstance(value, str | int | float | bool):
        return value
    raise fail(place, f"must be a string, a number or true/false (got {quoted(value)})")


def integer(value: object, place: str, low: int, fail: Fail, high: int | None = None) -> int:
    """An integer of at least ``low`` (and at most ``high`` if given)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        if high is not None:
            raise fail(place, range_problem(low, high, value))
        raise fail(place, f"must be an integer of at least {low} (got {quoted(value)})")
    if high is not None and value > high:
        raise fail(place, range_problem(low, high, value))
    return value


def range_problem(low: int, high: int, value: object) -> str:
    """``must be an integer from LOW to HIGH (got VALUE)``."""
    return _("must be an integer from {low} to {high} (got {got})").format(
        low=f"{low:,}", high=f"{high:,}", got=quoted(value)
    )


def read_table(value: object, place: str, fail: Fail) -> dict[str, object]:
    """A TOML table (``[place]``) as a dict."""
    if not isinstance(value, dict):
        raise fail(place, f"must be a table ([{place}]) (got {quoted(value)})")
    return dict(value)


@dataclass(frozen=True)
class Span:
    """An axis given as ``{ from, to, step }``, not listed: its length is arithmetic."""

    start: int
    step: int
    length: int


Values = tuple[Scalar, ...] | Span
"""An axis's values as given: listed, or a span."""


def length(values: Values) -> int:
    """How many values an axis has (a span's counted arithmetically)."""
    return values.length if isinstance(values, Span) else len(values)


def value_at(values: Values, position: int) -> Scalar:
    """An axis's value at ``position`` (from 0), without listing a span."""
    if isinstance(values, Span):
        return values.start + position * values.step
    return values[position]


def listed(values: Values) -> tuple[Scalar, ...]:
    """The values, listed (once the grid's size is known to be within :data:`MAX_CELLS`)."""
    if isinstance(values, Span):
        return tuple(range(values.start, values.start + values.length * values.step, values.step))
    return values


def read_axes(value: object, fail: Fail) -> dict[str, Values]:
    """The ``[axes]`` table: each axis a list of distinct values or a span, none listed yet."""
    if value is None:
        raise fail("axes", "missing: a [axes] table with at least one axis")
    table = read_table(value, "axes", fail)
    if not table:
        raise fail("axes", "needs at least one axis")
    axes: dict[str, Values] = {}
    for name, given in table.items():
        place = f"axes.{name}"
        if isinstance(given, dict):
            axes[name] = span(given, place, fail)
            continue
        if not isinstance(given, list):
            raise fail(
                place, f"must be a list of values or {{ from = A, to = B }} (got {quoted(given)})"
            )
        values = tuple(scalar(v, place, fail) for v in given)
        if not values:
            raise fail(place, "needs at least one value")
        if len(set(map(axis_text, values))) != len(values):
            raise fail(place, f"repeats a value (got {quoted(list(values))})")
        axes[name] = values
    return axes


def span(given: Mapping[str, object], place: str, fail: Fail) -> Span:
    """``{ from = A, to = B, step = N }`` as a :class:`Span` (its length computed)."""
    for key in given:
        if key not in ("from", "to", "step"):
            raise fail(f"{place}.{key}", "unknown key; allowed: from, to, step")
    if "from" not in given or "to" not in given:
        raise fail(place, "a span needs from and to: { from = 1, to = 20 }")
    start = whole(given["from"], f"{place}.from", fail)
    stop = whole(given["to"], f"{place}.to", fail)
    step = integer(given.get("step", 1), f"{place}.step", 1, fail)
    if stop < start:
        raise fail(f"{place}.to", f"must be at least from ({start}) (got {stop})")
    return Span(start, step, (stop - start) // step + 1)


def whole(value: object, place: str, fail: Fail) -> int:
    """Any integer (a span's ends)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise fail(place, f"must be an integer (got {quoted(value)})")
    return value
