"""The ``firefight`` command run by its Typer application: the command the words name built
alone where they name one, its help translated, and errors turned into one line."""

from __future__ import annotations

import sys
from collections.abc import Sequence

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
from firefight.cli.help import tidy_help, translate_help
from firefight.cli.language import language_of
from firefight.errors import FirefightError
from firefight.i18n import choose, restore, restore_game, show_game
from firefight.i18n import gettext as _


def main(args: Sequence[str]) -> int:
    """Run the Typer application on ``args``; user errors are one line on stderr and exit
    code 2, a bug one line and exit code 70 (its traceback with ``--debug`` or
    ``FIREFIGHT_DEBUG=1``)."""
    args = list(args)
    only = narrowed(args, NAMES)  # the command run's alone, when a word names it
    command = typer.main.get_command(full() if only is None else application(only))
    language = None
    game = show_game(None)  # the game a command shows is its own: none before it, none after
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
        restore_game(game)
    return result if isinstance(result, int) else 0
