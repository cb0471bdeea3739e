"""The ``firefight`` command (Typer + Rich).

Every command takes ``--json`` (shapes in DESIGN.md, "Machine-readable output"). A user error
is one line on stderr and exit code 2. Anything else that goes wrong is a bug in firefight: one
line saying so and exit code 70 (``EX_SOFTWARE``); ``FIREFIGHT_DEBUG=1`` or ``firefight
--debug ...`` shows its traceback instead. Heavy imports wait until a command needs them, so
that ``firefight --help`` starts fast.

The application and its wiring are in :mod:`.application`, the procedure commands in :mod:`.odds`,
the listings in :mod:`.listing`, ``serve`` in :mod:`.serve`, the help's translation in
:mod:`.help` and the wording of errors in :mod:`.errors`; :func:`main` runs them.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

import typer

from firefight.cli.application import NAMES, application, full
from firefight.cli.commands import make_invoked, narrowed
from firefight.cli.errors import (
    BUG_EXIT,
    bug_line,
    debugging,
    invoked,
    named_as_options,
    options_of,
    refuse_repeated_options,
    typer_error,
)
from firefight.cli.help import (
    HELP_CHROME,
    help_texts,
    language_of,
    print_help,
    tidy_help,
    translate_help,
)
from firefight.errors import FirefightError
from firefight.i18n import choose, restore
from firefight.i18n import gettext as _


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; user errors are one line on stderr and exit code 2, a bug one line and
    exit code 70 (its traceback with ``--debug`` or ``FIREFIGHT_DEBUG=1``)."""
    args = list(sys.argv[1:] if argv is None else argv)
    only = narrowed(args, NAMES)  # the command run's alone, when a word names it
    command = typer.main.get_command(full() if only is None else application(only))
    language = None
    try:
        language = choose(language_of(args))
        make_invoked(command, args)
        translate_help(command)
        tidy_help(command)
        refuse_repeated_options(command, args)
        result = command.main(args=args, prog_name="firefight", standalone_mode=False)
    except FirefightError as error:
        shown = named_as_options(error, options_of(invoked(command, args)))
        sys.stderr.write(_("error: {message}").format(message=shown) + "\n")
        return 2
    except typer.TyperException as error:
        return typer_error(error, args)
    except typer.Abort:
        sys.stderr.write("aborted\n")
        return 1
    except SystemExit as done:  # --show-completion and --install-completion end so
        return done.code if isinstance(done.code, int) else 0
    except Exception as error:  # a bug in firefight, not bad input: say so in one line
        if debugging(args):
            raise
        sys.stderr.write(bug_line(error) + "\n")
        return BUG_EXIT
    finally:
        if language is not None:
            restore(language)
    return result if isinstance(result, int) else 0


if TYPE_CHECKING:
    app: typer.Typer
    """The application with every command (:func:`~firefight.cli.application.full`)."""


def __getattr__(name: str) -> typer.Typer:
    """``app``: the whole application, made when first asked for (a run makes the command it
    runs alone)."""
    if name == "app":
        return full()
    msg = f"module {__name__!r} has no attribute {name!r}"
    raise AttributeError(msg)


def run() -> None:
    """Console-script entry point."""
    sys.exit(main())


__all__ = ["BUG_EXIT", "HELP_CHROME", "app", "help_texts", "main", "print_help", "run"]
