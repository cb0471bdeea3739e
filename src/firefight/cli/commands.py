"""The ``firefight`` command group: its own commands, and one per action name the rule sets
declare (``firefight move``, ``firefight threat``), each made only when it is asked for.

The list of commands in ``firefight --help`` reads the actions' names and one-line helps from
the rule sets' metadata (:attr:`~firefight.rulesets.info.RuleSetInfo.actions`), so listing
them loads no rule set; running an action's command, or asking for its own help, loads the
rule sets that declare it and makes the command from the action's input model
(:mod:`firefight.cli.actions`). A rule set registered at run time has its commands too.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Sequence
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any

import typer.main
from typer.core import TyperGroup
from typer.models import CommandInfo

from firefight.i18n import gettext as _

if TYPE_CHECKING:  # Typer's own copy of Click, whose types its group's methods take
    from typer._click import Command, Context, HelpFormatter

    from firefight.rulesets.info import RuleSetInfo

GLOBAL_FLAGS = ("--debug",)
"""The global options that take no value (``--lang`` takes one; ``--help`` and ``--version``
answer before any command)."""


def action_names() -> dict[str, list[str]]:
    """The rule sets' action names (:func:`firefight.rulesets.registry.action_names`), the
    registry imported when first asked (``--version`` reads no entry point)."""
    from firefight.rulesets.registry import action_names as declared  # noqa: PLC0415

    return declared()


def infos() -> list[RuleSetInfo]:
    """The rule sets' metadata (:func:`firefight.rulesets.registry.infos`)."""
    from firefight.rulesets.registry import infos as known  # noqa: PLC0415

    return known()


def command_word(args: Sequence[str]) -> str | None:
    """The command ``args`` run: their first word that is no option (``--lang``'s value
    skipped), or ``None``."""
    words = iter(args)
    for arg in words:
        if arg == "--lang":  # the one global option that takes a value
            next(words, None)
        elif not arg.startswith("-"):
            return arg
    return None


def narrowed(args: Sequence[str], names: Collection[str]) -> str | None:
    """The command of ``names`` that ``args`` run, when they run one after global options
    alone (``--debug``, ``--lang L``): only its click command need be built. ``None`` (every
    command built) for no command, help or version asked of the whole group, a word that is
    none of them, or shell completion."""
    name = command_word(args)
    if name is None or name not in names or any(k.endswith("_COMPLETE") for k in os.environ):
        return None
    before = list(args[: list(args).index(name)])
    while before:
        if before[0] in GLOBAL_FLAGS or before[0].startswith("--lang="):
            before = before[1:]
        elif before[0] == "--lang" and len(before) > 1:
            before = before[2:]
        else:
            return None
    return name


_LISTING: ContextVar[bool] = ContextVar("listing", default=False)
"""Whether the group's own help is being written (its commands listed, none run)."""


def _title(name: str) -> str:
    for info in infos():
        for action, title in info.actions:
            if action == name:
                return title
    return ""


def _listed() -> None:
    """An action's command as the group's help lists it (never run)."""


class FirefightGroup(TyperGroup):
    """The top-level group: Typer's, with the actions' commands made on demand."""

    made: dict[str, tuple[list[str], Command]]

    def __init__(self, *args: Any, **kwargs: Any) -> None:  # noqa: ANN401 - Typer's own
        super().__init__(*args, **kwargs)
        self.made = {}

    def list_commands(self, ctx: Context) -> list[str]:
        """The group's own commands, then each action name not taken by one of them."""
        own = super().list_commands(ctx)
        return [*own, *(name for name in action_names() if name not in own)]

    def get_command(self, ctx: Context, cmd_name: str) -> Command | None:
        """A command of the group's own; else an action's, from its metadata alone while the
        group's help lists it, else made from its input model."""
        declared = action_names().get(cmd_name)
        made = self.made.get(cmd_name)
        if made is not None and made[0] != declared:  # the rule sets declaring it changed
            del self.made[cmd_name]
            self.commands.pop(cmd_name, None)
        own = super().get_command(ctx, cmd_name)
        if own is not None or declared is None:
            return own
        if _LISTING.get():
            title = _(_title(cmd_name))
            return typer.main.get_command_from_info(
                CommandInfo(name=cmd_name, callback=_listed, help=title, short_help=title),
                pretty_exceptions_short=True,
                rich_markup_mode=self.rich_markup_mode,
            )
        return self.make(cmd_name, declared)

    def make(self, name: str, declared: list[str]) -> Command:
        """The command of the action ``name`` from its input model (the rule sets declaring it
        loaded), kept among the group's commands until the rule sets declaring it change."""
        from firefight.cli.actions import command, declared_actions  # noqa: PLC0415 - on demand

        made = typer.main.get_command_from_info(
            CommandInfo(name=name, callback=command(name, declared_actions(name))),
            pretty_exceptions_short=True,
            rich_markup_mode=self.rich_markup_mode,
        )
        self.made[name] = (declared, made)
        self.commands[name] = made
        return made

    def format_help(self, ctx: Context, formatter: HelpFormatter) -> None:
        """The group's help, its actions listed from their metadata."""
        token = _LISTING.set(True)
        try:
            super().format_help(ctx, formatter)
        finally:
            _LISTING.reset(token)


def make_invoked(group: object, args: list[str]) -> None:
    """Make the action's command ``args`` run, if they run one (its first word that is no
    option), before the run: its help is then translated, and its repeated options refused,
    as those of the group's own commands are."""
    if not isinstance(group, FirefightGroup):
        return
    name = command_word(args)
    declared = action_names().get(name) if name is not None else None
    if name is None or declared is None or name in group.commands:
        return
    group.make(name, declared)
