"""Rich renderings of charts, modifiers, odds and resolutions (the CLI's "stringifiers")."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from rich import box
from rich.console import Console, Group
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from firefight.i18n import gettext as _

if TYPE_CHECKING:  # read in annotations only: listing the rule sets imports no chance engine
    from firefight.chance import Resolution
    from firefight.chance.distribution import Distribution
    from firefight.core.chart import Chart
    from firefight.core.modifier import Modifier

Named = Callable[[str], "tuple[str, str] | None"]
"""A procedure's short name and meaning of an outcome, where it has one."""
BAR_WIDTH = 30
MIN_BAR_WIDTH = 8
"""The shortest bar of a certain outcome: below it the meanings wrap instead."""


def chart_table(
    chart: Chart, highlight: tuple[str, str] | None = None, width: int | None = None
) -> Table | Group:
    """A chart as printed, optionally with one cell highlighted. When its boxed layout would not
    fit in ``width`` columns (EPT's 18-column Combat Table in an 80-column terminal), it is drawn
    without cell borders and padding, the headers of its rows and columns said above it; when
    even so it is too wide, its columns are folded into several tables, one below the other,
    each with the rows' labels: a cell or a header is never broken inside."""
    if width is None or _boxed_width(chart) <= width:
        return _chart_part(chart, list(range(len(chart.columns.labels))), highlight, compact=False)
    label_width = max(len(chart.rows.header), *(len(label) for label in chart.rows.labels))
    parts: list[list[int]] = [[]]
    used = label_width + 2  # the table's edges, a space each
    for i, label in enumerate(chart.columns.labels):
        # the cell, a space before it and the space between columns
        cell = 2 + max(len(label), *(len(row[i]) for row in chart.cells))
        cell += 2 if highlight is not None and highlight[1] == label else 0
        if parts[-1] and used + cell > width:
            parts.append([])
            used = label_width + 2
        parts[-1].append(i)
        used += cell
    tables = [
        _chart_part(chart, part, highlight, compact=True, titled=n == 0)
        for n, part in enumerate(parts)
    ]
    return tables[0] if len(tables) == 1 else Group(*tables)


def _chart_part(
    chart: Chart,
    columns: list[int],
    highlight: tuple[str, str] | None,
    *,
    compact: bool,
    titled: bool = True,
) -> Table:
    """The chart's rows over the columns numbered ``columns``: boxed, or ``compact`` (no
    borders nor padding, the headers in the title)."""
    down, across = _(chart.rows.header), _(chart.columns.header)  # as the chart page words them
    title = f"{escape(_(chart.title))}\n[dim]{escape(chart.source)}[/dim]"
    if compact:
        title += f"\n{escape(down)} \\ {escape(across)}"
    table = Table(
        title=title if titled else None,
        box=box.SIMPLE_HEAD if compact else box.HEAVY_HEAD,
        padding=(0, 0) if compact else (0, 1),
        pad_edge=not compact,
    )
    gap = " " if compact else ""
    first = down if compact else f"{down} \\ {across}"
    table.add_column(escape(first), style="bold", no_wrap=compact, overflow="fold")
    labels = [chart.columns.labels[i] for i in columns]
    for label in labels:
        table.add_column(gap + escape(label), justify="center", no_wrap=compact, overflow="fold")
    for label, row in zip(chart.rows.labels, chart.cells, strict=True):
        cells = []
        for column, value in zip(labels, (row[i] for i in columns), strict=True):
            hit = highlight == (label, column)
            text = Text(gap + (f"[{value}]" if hit else value))
            if hit:
                text.stylize("reverse bold", len(gap))
            cells.append(text)
        table.add_row(escape(label), *cells)
    return table


def _boxed_width(chart: Chart) -> int:
    """The columns the chart takes with borders and padding: each column its widest cell plus
    three (two spaces of padding and a border), plus the closing border."""
    header = len(f"{chart.rows.header} \\ {chart.columns.header}")
    first = max(header, *(len(label) for label in chart.rows.labels))
    widths = [
        max(len(label), *(len(row[i]) for row in chart.cells))
        for i, label in enumerate(chart.columns.labels)
    ]
    return sum(w + 3 for w in (first, *widths)) + 1


def modifier_table(modifiers: Sequence[Modifier], facts: Sequence[tuple[str, str]]) -> Table:
    """The itemized modifiers and the values they lead to."""
    table = Table(title=_("Modifiers"), show_edge=True)
    table.add_column(_("modifier"))
    table.add_column(_("value"), justify="right")
    table.add_column(_("kind"))
    table.add_column(_("rule"), style="dim")
    for modifier in modifiers:
        table.add_row(
            escape(_(modifier.label)),
            modifier.display(),
            escape(_(modifier.kind.value.replace("_", " "))),
            escape(modifier.rule),
        )
    if not modifiers:
        table.add_row(f"[dim]{_('none')}[/dim]", "", "", "")
    for label, value in facts:
        table.add_row(f"[bold]{escape(_(label))}[/bold]", f"[bold]{escape(value)}[/bold]", "", "")
    return table


def _named(outcome: str, meanings: dict[str, str], names: Named | None) -> tuple[str, str]:
    """An outcome's short name and meaning: the procedure's ``names`` where it gives one (a
    group's tally), else the code and its meaning."""
    found = names(outcome) if names is not None else None
    if found is not None:
        return found
    return outcome, meanings.get(outcome) or _(outcome.replace("_", " "))


def odds_table(
    distribution: Distribution[str],
    meanings: dict[str, str],
    names: Named | None = None,
    width: int | None = None,
) -> Table:
    """The exact odds as fractions, percentages and bars; each outcome by its short name
    (``names``: a procedure's :meth:`~firefight.rulesets.procedure.Procedure.named`). A
    certain outcome's bar is as long as :data:`BAR_WIDTH`, or shorter so that the table fits
    ``width`` columns with its other columns whole (a bar never wraps)."""
    rows = []
    for outcome, probability in distribution.items():
        name, meaning = _named(outcome, meanings, names)
        rows.append(
            (escape(name), escape(meaning), str(probability), f"{float(probability) * 100:.2f}")
        )
    headers = (_("result"), _("meaning"), _("probability"), "%")
    natural = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(headers)]
    bar = BAR_WIDTH
    if width is not None:
        bar = max(MIN_BAR_WIDTH, min(BAR_WIDTH, width - sum(natural) - 3 * 5 - 1))
    table = Table(title=_("Odds"))
    table.add_column(_("result"), style="bold")
    table.add_column(_("meaning"))
    table.add_column(_("probability"), justify="right")
    table.add_column("%", justify="right")
    table.add_column("", no_wrap=True, min_width=bar)
    for row, (_outcome, probability) in zip(rows, distribution.items(), strict=True):
        length = round(float(probability) * bar)
        table.add_row(*row, "█" * length if length else ("▏" if probability > Fraction(0) else ""))
    return table


def resolution_view(
    resolution: Resolution[str], meanings: dict[str, str], names: Named | None = None
) -> Group:
    """A resolution: every event of the trace, then the outcome."""
    table = Table(
        title=_("Resolution (seed {seed})").format(seed=resolution.seed)
        if resolution.seed is not None
        else _("Resolution (your dice)")
    )
    table.add_column(_("step"))
    table.add_column(_("value"))
    for event in resolution.trace:
        value = str(event)[len(event.label) + 2 :]
        table.add_row(escape(_(event.label)), escape(value))
    name, meaning = _named(resolution.outcome, meanings, names)
    result = _("Result: {outcome} ({meaning})").format(outcome=name, meaning=meaning)
    return Group(table, Text(result, style="bold"))


UNBOUNDED_WIDTH = 80
"""The width of output that goes to no terminal (a file, a pipe to ``less`` or a program) when
``COLUMNS`` does not say: that of the usual terminal, so that a pipe to a pager does not wrap
(``COLUMNS=200`` asks for wider)."""


def terminal_width(descriptor: int = 1) -> int | None:
    """The columns to print in: ``COLUMNS`` if set, else the width of the terminal that the
    output (standard output, or the ``descriptor`` given) is, else ``None``: output to a file or
    a pipe has no width of its own (and tests run the same in any terminal)."""
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns) > 0:
        return int(columns)
    try:
        size = os.get_terminal_size(descriptor).columns
    except (OSError, ValueError):
        return None
    return size if size > 0 else None  # a terminal that reports no size (a bare pty)


class FoldingConsole(Console):
    """A console whose tables fold a cell too long for its column onto the next line instead
    of cutting it with "…" (Rich's default): in a narrow terminal a procedure's name, an
    outcome's meaning or a bar stays whole."""

    def print(self, *objects: Any, **options: Any) -> None:  # noqa: ANN401 - as Console.print
        for item in objects:
            _fold(item)
        super().print(*objects, **options)


def _fold(item: object) -> None:
    if isinstance(item, Table):
        for column in item.columns:
            if column.overflow == "ellipsis":
                column.overflow = "fold"
    for inner in getattr(item, "renderables", ()):
        _fold(inner)


def console(stderr: bool = False) -> Console:
    """The console the CLI prints to: the terminal's width (tables wrap their cells to fit it,
    an 80-column terminal included), :data:`UNBOUNDED_WIDTH` when there is no terminal. Colour
    and styles only on a terminal: piped output is plain text (Rich's own detection; ``NO_COLOR``
    is honoured)."""
    width = terminal_width(2 if stderr else 1)
    return FoldingConsole(
        stderr=stderr,
        width=UNBOUNDED_WIDTH if width is None else width,
        emoji=False,  # a rule's text is never an emoji code (nor Rich's table of them loaded)
    )
