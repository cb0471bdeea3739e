"""A chart printed as the rules print it (``firefight table``, ``rulesets --check``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from firefight.cli.common import emit, escape
from firefight.i18n import gettext as _

if TYPE_CHECKING:
    from firefight.core.chart import Chart


def show_chart(chart: Chart, *, as_json: bool = False) -> None:
    """A chart exactly as printed, its legend and notes (or its JSON)."""
    if as_json:
        from firefight.faces import table_json  # noqa: PLC0415

        emit(table_json(chart))
        return
    from firefight.cli.render import chart_table, console  # noqa: PLC0415

    out = console()
    out.print(chart_table(chart, width=out.width))
    if chart.legend:
        out.print(
            "; ".join(
                f"[bold]{escape(code)}[/bold] {escape(_(meaning))}"
                for code, meaning in chart.legend
            )
        )
    for note in chart.notes:
        out.print(f"[dim]- {escape(_(note))}[/dim]")
