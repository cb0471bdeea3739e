"""The help of the ``firefight`` command in the player's language: Typer builds every help text
in English when the commands are declared, before ``--lang`` is read, so :func:`translate_help`
sets them (and Typer's own words around them) once the language is known."""

from __future__ import annotations

import inspect
import sys
from collections.abc import Callable, Iterator
from pathlib import PurePath
from typing import get_args, get_origin

import typer

from firefight.i18n import SOURCE, language
from firefight.i18n import gettext as _

HELP_CHROME = ("Arguments", "Options", "Commands", "[default: {}]", "[required]")
"""Typer's own words around the help (its panels' titles, a default, a required option), kept
as module constants of ``typer.rich_utils``: set in the active language for each run."""
_CHROME_NAMES = (
    "ARGUMENTS_PANEL_TITLE",
    "OPTIONS_PANEL_TITLE",
    "COMMANDS_PANEL_TITLE",
    "DEFAULT_STRING",
    "REQUIRED_LONG_STRING",
)


def help_texts(command: object) -> Iterator[tuple[object, str, str]]:
    """``(owner, attribute, text)`` for every help text of ``command`` and its subcommands:
    a command's ``help``, ``short_help`` and ``epilog``, each argument's and option's ``help``,
    the ``--help`` option's own. ``make catalogue`` collects these texts;
    :func:`firefight.cli.main` translates them (Typer builds them in English before ``--lang``
    is read)."""
    for attribute in ("help", "short_help", "epilog"):
        text = getattr(command, attribute, None)
        if text:
            yield command, attribute, text
    context_class: Callable[[object], object] = getattr(command, "context_class")  # noqa: B009
    help_option = getattr(command, "get_help_option")(context_class(command))  # noqa: B009
    params: list[object] = [*getattr(command, "params", ()), help_option]
    for param in params:
        text = getattr(param, "help", None)
        if text:
            yield param, "help", text
    for sub in getattr(command, "commands", {}).values():
        yield from help_texts(sub)


def translate_help(command: object) -> None:
    """The help of ``command`` (and Typer's own words around it) in the active language.

    Typer's help renderer is imported for it only in another language than English: until
    it is imported, its words are Typer's own, which are English (once imported, they are set
    on each run, as a run in another language may have changed them)."""
    english = language() == SOURCE
    if not english or "typer.rich_utils" in sys.modules:
        import typer.rich_utils as rich_help  # noqa: PLC0415 - typer's help renderer

        for name, text in zip(_CHROME_NAMES, HELP_CHROME, strict=True):
            setattr(rich_help, name, _(text))
    if english:
        return
    for owner, attribute, text in help_texts(command):
        setattr(owner, attribute, _(text))


HELP_FLAGS = ("--help", "-h")


def print_help(ctx: typer.Context) -> None:
    """The command's help: Typer's Rich formatter prints it as it renders it and gives back an
    empty string; Click's plain one gives back the text."""
    text = ctx.get_help()
    if text:
        typer.echo(text)


def tidy_help(command: object) -> None:
    """The help of ``command`` and its subcommands as a terminal of any width shows it: each
    paragraph of a command's help one line of text (a docstring's line breaks are not the
    terminal's, and Typer's Rich help keeps them, breaking a sentence in the command lists),
    a flag shown without a type, an option's value and an argument by a word in capitals
    (``--db TEXT``, ``RULESET``) rather than Python's types (``<bool>``, ``<str>``)."""
    for attribute in ("help", "short_help"):
        text = getattr(command, attribute, None)
        if text:
            setattr(command, attribute, reflowed(text))
    params = list(getattr(command, "params", ()))
    context_class = getattr(command, "context_class", None)
    if context_class is not None:  # the --help option, made for a context
        params.append(getattr(command, "get_help_option")(context_class(command)))  # noqa: B009
    for param in params:
        _name_value(param)
    for sub in getattr(command, "commands", {}).values():
        tidy_help(sub)


def reflowed(text: str) -> str:
    """``text`` with its paragraphs (split by a blank line) each on one line; a paragraph
    that opens with ``\\b`` (Click's mark of a paragraph kept as written) is kept."""
    paragraphs = inspect.cleandoc(text).split("\n\n")
    return "\n\n".join(
        part if part.startswith("\b") else " ".join(part.split()) for part in paragraphs
    )


_VALUE_NAMES = {int: "INTEGER", float: "NUMBER", str: "TEXT"}
"""How an option's value is named, by its type, in the help (Click's own words)."""


def _name_value(param: object) -> None:
    kind = getattr(param, "param_type_name", "")
    if kind == "argument":
        name = getattr(param, "name", None) or ""
        if getattr(param, "metavar", None) is None:
            setattr(param, "metavar", name.upper())  # noqa: B010 - Click's own attribute
        setattr(param, "display_type_rich", _no_type)  # noqa: B010 - the name says it
        return
    if kind != "option" or getattr(param, "metavar", None) is not None:
        return
    annotation = getattr(getattr(param, "type_descriptor", None), "annotation", None)
    if get_origin(annotation) is list:  # a repeatable option: each value is one
        (annotation,) = get_args(annotation)
    if getattr(param, "is_flag", False) or annotation is bool:
        setattr(param, "metavar", "")  # noqa: B010 - a flag takes no value
    elif isinstance(annotation, type) and issubclass(annotation, PurePath):
        setattr(param, "metavar", "PATH")  # noqa: B010
    elif annotation in _VALUE_NAMES:
        setattr(param, "metavar", _VALUE_NAMES[annotation])  # noqa: B010


def _no_type(ctx: object = None) -> None:
    """An argument's type, as its help shows it: none (its name in capitals says it)."""
