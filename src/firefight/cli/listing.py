"""The commands that list what a rule set holds: ``rulesets`` (read from each rule set's
metadata, no game's procedures imported), ``tables`` and ``table`` (a rule set's charts)."""

from __future__ import annotations

from typing import Annotated

import typer

from firefight.cli.common import JsonOption, complete_ruleset, emit, escape
from firefight.i18n import gettext as _
from firefight.i18n import translated


def rulesets(
    as_json: JsonOption = False,
    add: Annotated[
        str | None,
        typer.Option(
            "--add",
            metavar="FILE",
            help="Check a game's TOML file and copy it into your folder of rule sets "
            "(docs/writing-a-rule-set.md).",
        ),
    ] = None,
    check: Annotated[
        str | None,
        typer.Option(
            "--check", metavar="FILE", help="Check a game's TOML file and print its chart."
        ),
    ] = None,
) -> None:
    """List the rule sets and their procedures."""
    if add is not None or check is not None:
        from firefight.cli.added import add_or_check  # noqa: PLC0415

        add_or_check(add, check, as_json=as_json)
        return
    from firefight.rulesets import infos  # noqa: PLC0415 - lazy: fast start-up

    found = infos()  # metadata only: no game's procedures are imported
    from firefight.cli.added import say_problems  # noqa: PLC0415

    if as_json:  # the lines left out in a field of the list, as the API gives them
        from firefight.faces import rulesets_json  # noqa: PLC0415
        from firefight.rulesets.registry import left_out  # noqa: PLC0415

        emit(rulesets_json(found, left_out()))
        return
    say_problems()
    from rich.table import Table  # noqa: PLC0415

    from firefight.cli.render import console  # noqa: PLC0415

    # The title over its source in one column, so that the procedures' column can be as wide
    # as the longest name and its comma: a name is never broken, even at 80 columns.
    longest = max((len(p) for r in found for p in r.procedures), default=0) + 1
    table = Table(title=_("Rule sets"))
    table.add_column("id", no_wrap=True)
    table.add_column(_("title"))
    table.add_column(_("procedures"), min_width=longest)
    for r in found:
        source = _("source") + ": " + escape(r.source)
        named = f"{escape(translated(r.title, r.id))}\n[dim]{source}[/dim]"
        table.add_row(r.id, named, ", ".join(r.procedures))
    console().print(table)


def tables(
    ruleset: Annotated[
        str, typer.Argument(help="Rule set id or alias.", autocompletion=complete_ruleset)
    ],
    as_json: JsonOption = False,
) -> None:
    """List the charts of a rule set."""
    from firefight.cli.worked import shown_ruleset  # noqa: PLC0415 - lazy: fast start-up

    charts = shown_ruleset(ruleset).charts()
    if as_json:
        from firefight.faces import tables_json  # noqa: PLC0415

        emit(tables_json(charts))
        return
    from rich.table import Table  # noqa: PLC0415

    from firefight.cli.render import console  # noqa: PLC0415

    table = Table(title=_("Charts of {ruleset}").format(ruleset=ruleset))
    for column in ("id", _("title"), _("source")):
        table.add_column(column)
    for c in charts:
        table.add_row(c.id, escape(c.title), escape(c.source))
    console().print(table)


def table(
    ruleset: Annotated[
        str, typer.Argument(help="Rule set id or alias.", autocompletion=complete_ruleset)
    ],
    table_id: Annotated[
        str, typer.Argument(metavar="TABLE", help="Chart id (see `firefight tables`).")
    ],
    as_json: JsonOption = False,
) -> None:
    """Print a chart exactly as printed in the rules."""
    from firefight.cli.chart_text import show_chart  # noqa: PLC0415
    from firefight.cli.worked import shown_ruleset  # noqa: PLC0415 - lazy: fast start-up

    show_chart(shown_ruleset(ruleset).chart(table_id), as_json=as_json)
