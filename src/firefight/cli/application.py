"""The ``firefight`` Typer application: its global options and every command, declared in
:data:`COMMANDS` by name and module in the order ``firefight --help`` lists them.

:func:`application` makes it with every command, or with the one a run names alone: a run
imports that command's module and builds its click command, none of the others'
(:func:`firefight.cli.main`). The commands' modules import what is heavy only when a command
runs, so that even the whole application (``--help``) stays light."""

from __future__ import annotations

from functools import cache
from importlib import import_module
from typing import Annotated, Literal

import typer

from firefight.cli.commands import FirefightGroup
from firefight.cli.errors import DEBUG_VARIABLE
from firefight.i18n import LANGUAGE_VARIABLE

Kind = Literal["command", "procedure", "group"]
"""A command of its own, a procedure command (``odds``: its inputs read from the words after
the procedure's name) or a group of commands (``board``: a Typer application of its own)."""

COMMANDS: tuple[tuple[str, str, str, Kind], ...] = (
    ("engage", "firefight.cli.engage", "engage", "command"),
    ("sweep", "firefight.cli.sweep", "sweep", "command"),
    ("rulesets", "firefight.cli.listing", "rulesets", "command"),
    ("tables", "firefight.cli.listing", "tables", "command"),
    ("table", "firefight.cli.listing", "table", "command"),
    ("odds", "firefight.cli.odds", "odds", "procedure"),
    ("modifiers", "firefight.cli.odds", "modifiers", "procedure"),
    ("resolve", "firefight.cli.odds", "resolve", "procedure"),
    ("serve", "firefight.cli.serve", "serve", "command"),
    ("demo", "firefight.cli.application", "demo", "command"),
    ("board", "firefight.cli.board", "board_app", "group"),
    ("scenario", "firefight.cli.scenario", "scenario_app", "group"),
    ("journal", "firefight.cli.journal", "journal_app", "group"),
    ("pbem", "firefight.cli.pbem", "pbem_app", "group"),
    ("deck", "firefight.cli.deck", "deck_app", "group"),
)
"""Each command's name, the module and attribute of its function (or Typer application) and
its kind, in the order of ``firefight --help`` (Typer lists the groups after the commands)."""

NAMES = frozenset(name for name, *_ in COMMANDS)


def _show_version(value: bool) -> None:
    if value:
        from firefight import __version__  # noqa: PLC0415

        typer.echo(f"firefight {__version__}")
        raise typer.Exit


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


def application(only: str | None = None) -> typer.Typer:
    """The application with every command of :data:`COMMANDS`, or with the one named ``only``
    alone (only its module imported)."""
    made = typer.Typer(
        name="firefight",
        help="Exact odds and replayable resolution of fire combat in tactical WWII wargames.",
        no_args_is_help=True,
        pretty_exceptions_enable=False,
        cls=FirefightGroup,
    )
    made.callback()(_options)
    for name, module, attribute, kind in COMMANDS:
        if only is not None and name != only:
            continue
        found = getattr(import_module(module), attribute)
        if kind == "group":
            made.add_typer(found, name=name)
        elif kind == "procedure":
            from firefight.cli.odds import PROCEDURE_CONTEXT, PROCEDURE_HELP  # noqa: PLC0415

            made.command(
                name,
                context_settings=PROCEDURE_CONTEXT,
                add_help_option=False,
                epilog=PROCEDURE_HELP,
            )(found)
        else:
            made.command(name)(found)
    return made


@cache
def full() -> typer.Typer:
    """The application with every command (made once): ``firefight.cli.app``."""
    return application()
