"""The ``firefight`` Typer application: its global options and every command, wired in the
order ``firefight --help`` lists them. The commands' modules import what is heavy only when a
command runs, so that building the application (``--help``, ``--version``) stays light."""

from __future__ import annotations

from typing import Annotated

import typer

from firefight.cli.board import board_app
from firefight.cli.commands import FirefightGroup
from firefight.cli.engage import engage
from firefight.cli.errors import DEBUG_VARIABLE
from firefight.cli.journal import journal_app
from firefight.cli.listing import rulesets, table, tables
from firefight.cli.odds import PROCEDURE_CONTEXT, PROCEDURE_HELP, modifiers, odds, resolve
from firefight.cli.pbem import pbem_app
from firefight.cli.serve import serve
from firefight.cli.sweep import sweep
from firefight.i18n import LANGUAGE_VARIABLE

app = typer.Typer(
    name="firefight",
    help="Exact odds and replayable resolution of fire combat in tactical WWII wargames.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    cls=FirefightGroup,
)


def _show_version(value: bool) -> None:
    if value:
        from firefight import __version__  # noqa: PLC0415

        typer.echo(f"firefight {__version__}")
        raise typer.Exit


@app.callback()
def _options(
    debug: Annotated[  # read by main(), which must know before a command runs
        bool,
        typer.Option(
            "--debug",
            help=f"Show the traceback of an internal error (a bug), as {DEBUG_VARIABLE}=1 does.",
        ),
    ] = False,
    lang: Annotated[  # read by main(), which sets it before any command or error runs
        str | None,
        typer.Option(
            "--lang",
            help=f"Output and errors in en or fr (else ${LANGUAGE_VARIABLE}, else en).",
        ),
    ] = None,
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_show_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    pass


def demo() -> None:
    """A worked example: one EPT fire attack, its modifiers, exact odds and a seeded roll."""
    from firefight.cli.demo import show  # noqa: PLC0415 - lazy: fast start-up

    show()


_procedure_command = app.command(
    context_settings=PROCEDURE_CONTEXT, add_help_option=False, epilog=PROCEDURE_HELP
)

app.add_typer(board_app, name="board")
app.add_typer(journal_app, name="journal")
app.add_typer(pbem_app, name="pbem")
app.command("engage")(engage)
app.command("sweep")(sweep)
app.command()(rulesets)
app.command()(tables)
app.command()(table)
_procedure_command(odds)
_procedure_command(modifiers)
_procedure_command(resolve)
app.command()(serve)
app.command()(demo)
