"""A sweep's heatmap: one statistic over two axes, the other axes held at one value each."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from firefight.errors import InputError, one_of
from firefight.sim.grid import axis_text
from firefight.sim.spec import SweepSpec
from firefight.translation import gettext

if TYPE_CHECKING:
    import numpy as np

Row = list[str]
ANNOTATE_LIMIT = 30
"""Cells are labelled with their percentage when neither axis has more values than this."""


def heatmap_choice(
    spec: SweepSpec,
    x: str | None,
    y: str | None,
    value: str | None,
    at: Mapping[str, str],
) -> tuple[str, str | None, str, dict[str, str]]:
    """The axes drawn (``--x``, ``--y``, else the spec's ``[heatmap]``, else the first two),
    the statistic (else the first) and the value held by every other axis (``--at``, else the
    spec's, else its first value)."""
    names = [axis.name for axis in spec.axes]
    stats = [s.name for s in spec.statistics]
    x = x or spec.heatmap.x or names[0]
    others = [n for n in names if n != x]
    y = y or spec.heatmap.y or (others[0] if others else None)
    value = value or spec.heatmap.value or stats[0]
    for field, given in (("x", x), ("y", y)):
        if given is not None and given not in names:
            raise InputError(
                field, gettext("one of the axes {names}").format(names=", ".join(names)), given
            )
    if x == y:
        raise InputError("y", gettext("an axis other than --x {x}").format(x=x), y)
    if value not in stats:
        raise InputError(
            "value", gettext("one of the statistics {stats}").format(stats=", ".join(stats)), value
        )
    held = {**dict(spec.heatmap.at), **at}
    chosen: dict[str, str] = {}
    for axis in spec.axes:
        texts = [axis_text(v) for v in axis.values]
        if axis.name in held and axis.name not in (x, y):
            if held[axis.name] not in texts:
                raise InputError(f"at {axis.name}", one_of(texts), held[axis.name])
            chosen[axis.name] = held[axis.name]
        elif axis.name not in (x, y):
            chosen[axis.name] = texts[0]
    for name in at:
        if name not in names or name in (x, y):
            free = [n for n in names if n not in (x, y)]
            allowed = "one of the axes not drawn: " + ", ".join(free) if free else "no axis"
            raise InputError("at", allowed, name)
    return x, y, value, chosen


def _grid(
    columns: Sequence[str],
    rows: Sequence[Row],
    axes: Mapping[str, list[str]],
    *,
    x: str,
    y: str | None,
    value: str,
    held: Mapping[str, str],
) -> np.ndarray:
    """The statistic's values over the two axes drawn (NaN where a cell is forbidden)."""
    import numpy as np  # noqa: PLC0415

    xs = axes[x]
    ys = axes[y] if y is not None else [""]
    grid = np.full((len(ys), len(xs)), np.nan)
    where = {name: columns.index(name) for name in axes}
    column = columns.index(f"p_{value}")
    for row in rows:
        if any(row[where[name]] != text for name, text in held.items()):
            continue
        if row[column] == "":
            continue
        i = ys.index(row[where[y]]) if y is not None else 0
        grid[i, xs.index(row[where[x]])] = float(row[column])
    return grid


def draw_heatmap(
    spec: SweepSpec,
    columns: Sequence[str],
    rows: Sequence[Row],
    path: Path,
    *,
    x: str | None = None,
    y: str | None = None,
    value: str | None = None,
    at: Mapping[str, str] | None = None,
    title: str = "",
) -> Path:
    """Draw ``value`` (a probability) over axes ``x`` and ``y`` to a .png or .svg file; cells
    the rules forbid are left blank. The file is written whole or not at all."""
    kind = path.suffix.lower().lstrip(".")
    if kind not in ("png", "svg"):
        raise InputError("out", "a file name ending in .png or .svg", str(path))
    x, y, value, held = heatmap_choice(spec, x, y, value, at or {})
    import matplotlib as mpl  # noqa: PLC0415 - matplotlib is slow to import
    import numpy as np  # noqa: PLC0415
    from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: PLC0415
    from matplotlib.figure import Figure  # noqa: PLC0415

    axes = {axis.name: [axis_text(v) for v in axis.values] for axis in spec.axes}
    xs = axes[x]
    ys = axes[y] if y is not None else [""]
    grid = _grid(columns, rows, axes, x=x, y=y, value=value, held=held)

    with mpl.rc_context(
        {"svg.hashsalt": "firefight", "font.family": "DejaVu Sans", "font.size": 8}
    ):
        width = min(16.0, 2.5 + 0.55 * len(xs))
        height = min(12.0, 2.2 + 0.45 * len(ys))
        figure = Figure(figsize=(width, height), dpi=110, facecolor="white")
        FigureCanvasAgg(figure)
        plot = figure.add_subplot()
        image = plot.imshow(grid, cmap="viridis", vmin=0.0, vmax=1.0, aspect="auto")
        plot.set_xticks(range(len(xs)), xs, rotation=90 if max(map(len, xs)) > 3 else 0)
        plot.set_yticks(range(len(ys)), ys)
        plot.set_xlabel(x)
        if y is not None:
            plot.set_ylabel(y)
        if len(xs) <= ANNOTATE_LIMIT and len(ys) <= ANNOTATE_LIMIT:
            for (i, j), cell in np.ndenumerate(grid):
                if not np.isnan(cell):
                    colour = "black" if cell > 0.6 else "white"
                    plot.text(j, i, f"{cell * 100:.0f}", ha="center", va="center", color=colour)
        figure.colorbar(image, ax=plot, label=f"P({value})")
        label = "exact" if spec.mode == "exact" else f"sampled, n = {spec.samples} per cell"
        what = " ".join(str(v) for _, v in spec.settings)
        lines = [title or f"{what}: P({value})", label]
        if held:
            lines.append(", ".join(f"{k} = {v}" for k, v in held.items()))
        plot.set_title("\n".join(lines), fontsize=10)
        figure.tight_layout()
        temporary = path.with_name(path.name + ".tmp")
        try:
            figure.savefig(temporary, format=kind)
            temporary.replace(path)
        except OSError as error:
            reason = error.strerror or type(error).__name__
            raise InputError(
                "out",
                gettext("a file that can be written ({reason})").format(reason=reason),
                str(path),
            ) from None
    return path
