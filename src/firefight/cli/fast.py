"""The fast dispatch of ``firefight odds GAME PROCEDURE --field value ... [--json]``: the
odds worked out and printed with no Typer (nor Click) imported, as the ``odds`` command
prints them (:func:`firefight.cli.worked.odds_shown`), the options read by the same reader
from the procedure's input model (:func:`firefight.cli.fields.parse_options`).

It takes only the plain form: the command word first, the rule set and procedure next, then
options and their values, ``--json`` at most once; no help, no shell completion, no global
option, no short option, no ``--``. Anything else, and any error met while reading the input
or working out the odds, is left to the Typer application (:func:`dispatched` gives back
``None`` before printing anything), which runs the whole command again and words the error as
it always does: the answer is the Typer command's, byte for byte, only sooner."""

from __future__ import annotations

import os
from collections.abc import Sequence

COMMAND = "odds"
JSON_FLAG = "--json"
_REFUSED = ("--help", "-h", "--")
"""Words the Typer command reads itself wherever they stand."""


def plain(args: Sequence[str]) -> tuple[str, str, list[str], bool] | None:
    """``(rule set, procedure, the procedure's options, --json given)`` where ``args`` are
    the plain form the fast dispatch takes, else ``None``."""
    if len(args) < 3 or args[0] != COMMAND or any(k.endswith("_COMPLETE") for k in os.environ):
        return None
    ruleset_id, procedure_name, *rest = args[1:]
    if ruleset_id.startswith("-") or procedure_name.startswith("-"):
        return None
    options = [word for word in rest if word != JSON_FLAG]
    if len(rest) - len(options) > 1:  # --json twice: the Typer command refuses it
        return None
    for word in options:
        if word in _REFUSED or word.startswith(JSON_FLAG):
            return None
        if word.startswith("-") and not word.startswith("--"):  # Click reads short options
            return None
    return ruleset_id, procedure_name, options, len(options) < len(rest)


def dispatched(args: Sequence[str]) -> int | None:
    """Run ``args`` when they are the plain form of ``odds`` (:func:`plain`) and their odds
    are worked out without error: the exit code. ``None`` (nothing printed) otherwise."""
    words = plain(args)
    if words is None:
        return None
    ruleset_id, procedure_name, options, as_json = words
    from firefight.cli.language import language_of  # noqa: PLC0415 - lazy: --version
    from firefight.cli.worked import (  # noqa: PLC0415
        find_procedure,
        odds_shown,
        options_named,
        procedure_input,
    )
    from firefight.i18n import choose, restore, restore_game, show_game  # noqa: PLC0415

    try:
        language = choose(language_of(args))
    except Exception:
        return None
    game = show_game(None)
    try:
        try:
            found, proc = find_procedure(ruleset_id, procedure_name)
            with options_named(proc):
                inp = procedure_input(proc, options)
                show = odds_shown(found, proc, inp, proc.odds(inp), as_json=as_json)
        except Exception:
            return None
        try:
            show()
        except Exception as error:  # a bug in firefight: said as the Typer command says it
            from firefight.cli.errors import BUG_EXIT, bug_line, debugging  # noqa: PLC0415

            if debugging(args):
                raise
            import sys  # noqa: PLC0415

            sys.stderr.write(bug_line(error) + "\n")
            return BUG_EXIT
        return 0
    finally:
        restore_game(game)
        restore(language)
