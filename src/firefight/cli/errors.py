"""How the ``firefight`` command words what goes wrong: a user error is one line on stderr
and exit code 2 (Typer's and Click's refusals worded as firefight's own errors, naming options
as the player typed them); a bug is one line and exit code 70, its traceback only when asked
(``--debug`` or ``FIREFIGHT_DEBUG=1``)."""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Mapping, Sequence
from typing import Any

import typer

from firefight.digits import read_integer
from firefight.errors import FirefightError, InputError, quoted
from firefight.i18n import gettext as _

BUG_EXIT = 70
"""Exit code of a bug in firefight (``EX_SOFTWARE`` in BSD's sysexits.h); a user error is 2."""
DEBUG_VARIABLE = "FIREFIGHT_DEBUG"


def typer_error(error: typer.TyperException, args: Sequence[str]) -> int:
    """Typer's (Click's) refusal as one line; its exit code. A bare ``firefight`` or
    ``firefight board`` has printed its help: no line is added."""
    code = int(getattr(error, "exit_code", 2))
    if type(error).__name__ == "NoArgsIsHelpError":
        return code
    message = error.format_message() if hasattr(error, "format_message") else str(error)
    if isinstance(error, typer.BadParameter):
        message = _bad_parameter(error, args)
    sys.stderr.write(_("error: {message}").format(message=_shorten_quotes(message)) + "\n")
    return code


def invoked(command: object, args: Sequence[str]) -> object:
    """The (sub)command that ``args`` run: ``board los ...`` runs ``board``'s ``los``."""
    current = command
    for arg in args:
        found = getattr(current, "commands", {}).get(arg)
        if found is not None:
            current = found
    return current


def named_as_options(error: FirefightError, options: Mapping[str, object]) -> str:
    """The error's line, naming a command's option as the player typed it: ``'--seed'``, not
    the ``'seed'`` of the JSON field (each part of ``'seed/roll'`` too)."""
    from firefight.cli.fields import renamed  # noqa: PLC0415

    if not isinstance(error, InputError):
        return str(error)
    names = {
        str(getattr(param, "name", "")): opt
        for opt, param in options.items()
        if opt.startswith("--") and opt in getattr(param, "opts", ())
    }
    return str(renamed(error, names))


def _bad_parameter(error: typer.BadParameter, args: Sequence[str]) -> str:
    """Typer's refusal of an option's value, worded as every other error: ``'--seed' must be
    an integer of at least 0 (got 'abc')``."""
    param = error.param
    opts = [opt for opt in getattr(param, "opts", ()) if opt.startswith("--")]
    given = _given(args, getattr(param, "opts", ()))
    allowed = (
        error.message.removeprefix("must be ") if error.message.startswith("must be ") else None
    )
    annotation = getattr(getattr(param, "type_descriptor", None), "annotation", None)
    if annotation is int and allowed is None:
        allowed = _integer_text(getattr(param, "min", None), getattr(param, "max", None))
    if not opts and allowed is not None and hasattr(error, "given"):  # an argument (SEQ)
        return f"'{getattr(param, 'name', '')}' must be {allowed} (got {quoted(error.given)})"
    if not opts or allowed is None or not given:
        return error.format_message() + given
    from firefight.cli.fields import must_be  # noqa: PLC0415

    return must_be(opts[0], allowed) + given


def _integer_text(low: object, high: object) -> str:
    """``an integer from 1 to 9`` (the words of :func:`firefight.core.inputs.allowed_text`)."""
    if low is not None and high is not None:
        return _("an integer from {low} to {high}").format(low=low, high=high)
    if low is not None:
        return _("an integer of at least {low}").format(low=low)
    if high is not None:
        return _("an integer of at most {high}").format(high=high)
    return _("an integer")


def refuse_repeated_options(command: object, args: Sequence[str]) -> None:
    """An option given twice is refused, as a procedure's options are: Click would keep the
    last one silently (``engage S --seed 1 --seed 2``). Options that take a list are exempt."""

    seen: set[str] = set()
    current = command
    options = options_of(current)
    position = 0
    while position < len(args):
        arg = args[position]
        position += 1
        if arg == "--":
            return
        name, _, inline = arg.partition("=")
        option = options.get(name)
        if option is None:
            subcommands = getattr(current, "commands", {})
            if arg in subcommands:
                current = subcommands[arg]
                options = options_of(current)
            continue
        if not option.is_flag and not inline and not option.count:
            position += option.nargs  # its value, which may look like anything
        if option.multiple or option.count:
            continue
        key = f"{id(current)}:{option.name}"
        if key in seen:
            raise InputError(name, "given once", name)
        seen.add(key)


def options_of(command: object) -> dict[str, Any]:
    """A command's options by each of their names (``--out``, ``-o``); Typer's Click objects,
    read by their attributes (Typer carries a Click of its own)."""
    return {
        opt: param
        for param in getattr(command, "params", ())
        if getattr(param, "param_type_name", "") == "option"
        for opt in (*param.opts, *param.secondary_opts)
    }


def debugging(args: Sequence[str]) -> bool:
    """``FIREFIGHT_DEBUG`` is set (to anything but 0), or ``--debug`` comes before the command."""
    if os.environ.get(DEBUG_VARIABLE, "0") not in ("", "0"):
        return True
    for arg in args:
        if arg == "--debug":
            return True
        if not arg.startswith("-"):
            return False
    return False


def bug_line(error: BaseException) -> str:
    """One line: a bug, which exception, and how to see its traceback."""
    detail = " ".join(str(error).split())
    shown = f"{type(error).__name__}: {detail}" if detail else type(error).__name__
    if len(shown) > 120:
        shown = shown[:119] + "…"
    from firefight.rulesets.registry import fault  # noqa: PLC0415 - only for a bug

    theirs = fault(error)
    if theirs is not None:  # a third party's package or a game file: the web's same line
        return f"error: {theirs}"
    return (
        f"error: internal error, a bug in firefight ({shown}); run again with "
        f"{DEBUG_VARIABLE}=1 or 'firefight --debug ...' to see the traceback, and report it"
    )


def _shorten_quotes(message: str) -> str:
    """Click quotes the value given in its messages (``No such command 'x…'``): at most 80
    characters of it, as :class:`~firefight.errors.InputError` quotes."""
    return re.sub(r"'([^']{79,})'", lambda m: quoted(m[1]), message)


def _given(args: Sequence[str], opts: Sequence[str]) -> str:
    """`` (got VALUE)``: what the player typed for an option Typer refused (``--workers 0`` or
    ``--workers=0``; the last, if repeated), written as the rule errors write it; empty if it
    cannot be found."""
    for position in reversed(range(len(args))):  # Click keeps the last of a repeated option
        arg = args[position]
        for opt in opts:
            if arg == opt and position + 1 < len(args):
                value = args[position + 1]
            elif arg.startswith(opt + "="):
                value = arg[len(opt) + 1 :]
            else:
                continue
            number = read_integer(value)
            from firefight.cli.fields import got_marker  # noqa: PLC0415

            return f"{got_marker()}{quoted(value if number is None else number)})"
    return ""
