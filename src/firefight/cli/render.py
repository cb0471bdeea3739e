"""Rich renderings of charts, modifiers, odds and resolutions (the CLI's "stringifiers")."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from rich.console import Console, Group
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from firefight.chance import Resolution
from firefight.core.chart import Chart
from firefight.core.distribution import Distribution
from firefight.core.modifier import Modifier
from firefight.i18n import gettext as _

BAR_WIDTH = 30


def chart_table(chart: Chart, highlight: tuple[str, str] | None = None) -> Table:
    """A chart as printed, optionally with one cell highlighted."""
    table = Table(title=f"{escape(chart.title)}\n[dim]{escape(chart.source)}[/dim]")
    table.add_column(escape(f"{chart.rows.header} \\ {chart.columns.header}"), style="bold")
    for label in chart.columns.labels:
        table.add_column(escape(label), justify="center")
    for label, row in zip(chart.rows.labels, chart.cells, strict=True):
        cells = []
        for column, value in zip(chart.columns.labels, row, strict=True):
            hit = highlight == (label, column)
            cells.append(Text(f"[{value}]", style="reverse bold") if hit else Text(value))
        table.add_row(escape(label), *cells)
    return table


def modifier_table(modifiers: Sequence[Modifier], facts: Sequence[tuple[str, str]]) -> Table:
    """The itemized modifiers and the values they lead to."""
    table = Table(title=_("Modifiers"), show_edge=True)
    table.add_column(_("modifier"))
    table.add_column(_("value"), justify="right")
    table.add_column(_("kind"))
    table.add_column(_("rule"), style="dim")
    for modifier in modifiers:
        table.add_row(
            escape(modifier.label), modifier.display(), modifier.kind.value, escape(modifier.rule)
        )
    if not modifiers:
        table.add_row(f"[dim]{_('none')}[/dim]", "", "", "")
    for label, value in facts:
        table.add_row(f"[bold]{escape(label)}[/bold]", f"[bold]{escape(value)}[/bold]", "", "")
    return table


def odds_table(distribution: Distribution[str], meanings: dict[str, str]) -> Table:
    """The exact odds as fractions, percentages and bars."""
    table = Table(title=_("Odds"))
    table.add_column(_("result"), style="bold")
    table.add_column(_("meaning"))
    table.add_column(_("probability"), justify="right")
    table.add_column("%", justify="right")
    table.add_column("")
    for outcome, probability in distribution.items():
        width = round(float(probability) * BAR_WIDTH)
        table.add_row(
            escape(outcome),
            escape(meanings.get(outcome) or _(outcome.replace("_", " "))),
            str(probability),
            f"{float(probability) * 100:.2f}",
            "█" * width if width else ("▏" if probability > Fraction(0) else ""),
        )
    return table


def resolution_view(resolution: Resolution[str], meanings: dict[str, str]) -> Group:
    """A resolution: every event of the trace, then the outcome."""
    table = Table(
        title=_("Resolution (seed {seed})").format(seed=resolution.seed)
        if resolution.seed is not None
        else _("Resolution (your dice)")
    )
    table.add_column(_("step"))
    table.add_column("value")
    for event in resolution.trace:
        value = str(event)[len(event.label) + 2 :]
        table.add_row(escape(event.label), escape(value))
    meaning = meanings.get(resolution.outcome) or _(resolution.outcome.replace("_", " "))
    result = _("Result: {outcome} ({meaning})").format(outcome=resolution.outcome, meaning=meaning)
    return Group(table, Text(result, style="bold"))


def console(stderr: bool = False) -> Console:
    """The console the CLI prints to (wide enough for the Combat Table)."""
    return Console(stderr=stderr, width=None if stderr else max(Console().width, 120))
