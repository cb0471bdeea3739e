"""The help of a procedure command, laid out to fit any terminal: the rule sets and their
procedures (``odds --help``), a procedure's inputs and the command's own options
(``resolve ept fire --help``).

A table of four columns in 80 columns wraps each description to a third of the line and cuts
the longer option names in two (``--gun-fired-on-fro|m-front``). A list reads better: each
option on a line of its own, whole, with what it allows and its default after it, and its
description below it, indented, as wide as the terminal lets it be. Rich wraps text at
spaces, so an option name is never broken where it fits the line."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from firefight.cli.common import escape
from firefight.i18n import gettext as _
from firefight.i18n import translated

if TYPE_CHECKING:
    from rich.console import RenderableType
    from rich.table import Table

    from firefight.rulesets.info import RuleSetInfo

INDENT = 4
"""How far a description stands in from its option."""


def option_entries(
    rows: Iterable[tuple[str, str, str, str]],
) -> list[tuple[str, str, str]]:
    """``(option, what it allows and its default, description)`` from the rows of
    :func:`firefight.cli.fields.option_help`: a flag says its default only when it is on
    (``true or false``, off unless given, goes without saying)."""
    entries = []
    for option, allowed, default, description in rows:
        if " " not in option:  # a flag: --name alone
            detail = _("default: {value}").format(value=default) if default == "true" else ""
        elif default == "required":
            detail = f"{allowed}; {_('required')}"
        elif default:
            detail = f"{allowed}; {_('default: {value}').format(value=default)}"
        else:
            detail = allowed
        entries.append((option, detail, description))
    return entries


def option_block(
    heading: str, entries: Sequence[tuple[str, str, str]], width: int
) -> list[RenderableType]:
    """A heading, then each option: its name and details on one line (the details below it
    when both do not fit ``width`` columns), its description below."""
    from rich.padding import Padding  # noqa: PLC0415 - lazy: fast start-up
    from rich.text import Text  # noqa: PLC0415

    shown: list[RenderableType] = [Text(heading, style="bold underline")]
    for option, detail, description in entries:
        line = Text(" ")
        line.append(option, style="bold cyan")
        below = [description] if description else []
        if detail and 1 + len(option) + 2 + len(detail) <= width:
            line.append("  " + detail)
        elif detail:
            below.insert(0, detail)
        shown.append(line)
        shown.extend(Padding(Text(text), (0, 0, 0, INDENT + 1), expand=False) for text in below)
    return shown


def procedure_grid(found: Sequence[RuleSetInfo], title: str, caption: str) -> list[RenderableType]:
    """The rule sets, each as a heading, with its procedures and their titles below it: the
    procedure's name whole in its own column, its title wrapped beside it."""
    from rich.text import Text  # noqa: PLC0415

    shown: list[RenderableType] = [Text(title, style="bold underline")]
    for rules in found:
        shown.append(Text(""))
        shown.append(Text(f"{rules.id}: {translated(rules.title, rules.id)}", style="bold"))
        shown.append(
            _grid(
                (name, translated(t, rules.id))
                for name, t in zip(rules.procedures, rules.titles(), strict=True)
            )
        )
    shown.append(Text(""))
    shown.append(Text(caption, style="dim"))
    return shown


def _grid(rows: Iterable[tuple[str, str]]) -> Table:
    """Two columns without borders: a name that never wraps, and text that does."""
    from rich.table import Table  # noqa: PLC0415

    grid = Table.grid(padding=(0, 2), pad_edge=True)
    grid.add_column(no_wrap=True, style="cyan")
    grid.add_column(overflow="fold")
    for name, text in rows:
        grid.add_row(" " + escape(name), escape(text))
    return grid
