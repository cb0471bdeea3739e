"""The procedure commands: ``odds``, ``modifiers`` and ``resolve`` of any rule set's procedure,
its inputs given as options generated from its input model; ``--help`` after the rule set
and the procedure lists them. Only the rule set named is loaded."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Annotated, TypeVar

import typer

from firefight.cli.common import JsonOption, complete_ruleset, emit, escape
from firefight.cli.help import HELP_FLAGS, print_help
from firefight.cli.worked import (
    find_procedure,
    meanings,
    odds_shown,
    options_named,
    procedure_input,
)
from firefight.digits import SEED_MAX, SEEDS, read_integer
from firefight.errors import InputError, one_of
from firefight.i18n import gettext as _

if TYPE_CHECKING:
    from firefight.chance import Resolution
    from firefight.core.inputs import RuleInput
    from firefight.rulesets.info import RuleSetInfo
    from firefight.rulesets.procedure import Procedure, RuleSet

T = TypeVar("T")
PROCEDURE_CONTEXT = {"allow_extra_args": True, "ignore_unknown_options": True}
PROCEDURE_HELP = (
    "The procedure's inputs are options generated from its input model: "
    "run with --help after RULESET PROCEDURE to list them."
)

RulesetArgument = Annotated[
    str | None, typer.Argument(help="Rule set id or alias.", autocompletion=complete_ruleset)
]
"""The procedure commands' first argument: optional, so that ``--help`` alone lists them all."""
ProcedureArgument = Annotated[str | None, typer.Argument(help="Procedure name.")]
"""Their second: optional, so that ``RULESET --help`` lists the rule set's procedures."""


def _target(
    ctx: typer.Context, ruleset_id: str | None, procedure_name: str | None
) -> tuple[str, str] | None:
    """The rule set and procedure named, or ``None`` once help has been printed instead.

    ``--help`` (or ``-h``) anywhere: without a rule set, the command's help and every rule set
    with its procedures; with a rule set only, its procedures; with both, the procedure's
    inputs and the command's own options (``--seed``, ``--roll``, ``--json``...)."""
    asked = any(word in HELP_FLAGS for word in (ruleset_id, procedure_name, *ctx.args))
    if not asked and procedure_name is not None:
        assert ruleset_id is not None
        return ruleset_id, procedure_name
    if ruleset_id is None or ruleset_id in HELP_FLAGS:
        print_help(ctx)
        if not asked:
            return None
        from firefight.rulesets.registry import infos  # noqa: PLC0415 - the metadata alone

        _procedure_list(ctx, infos())
        return None
    if procedure_name is None or procedure_name in HELP_FLAGS:
        from firefight.cli.worked import shown_ruleset  # noqa: PLC0415

        found = shown_ruleset(ruleset_id)
        if not asked:
            raise InputError("procedure", one_of(found.procedure_names), None)
        print_help(ctx)
        from firefight.rulesets.info import RuleSetInfo  # noqa: PLC0415 - its metadata

        _procedure_list(ctx, [RuleSetInfo.of(found)])
        return None
    _procedure_help(ctx, *find_procedure(ruleset_id, procedure_name))
    return None


def _procedure_list(ctx: typer.Context, found: Sequence[RuleSetInfo]) -> None:
    """The rule sets, each with its procedures and their titles, for ``COMMAND --help``: read
    from their metadata (:meth:`RuleSetInfo.titles`), so that the help of every rule set loads
    none."""
    from firefight.cli.option_list import procedure_grid  # noqa: PLC0415
    from firefight.cli.render import console  # noqa: PLC0415

    command = ctx.command_path
    title = (
        _("Rule sets and their procedures")
        if len(found) > 1
        else _("Procedures of {ruleset}").format(ruleset=found[0].id)
    )
    caption = _("{command} RULESET PROCEDURE --help lists its options").format(command=command)
    out = console()
    for shown in procedure_grid(found, title, caption):
        out.print(shown)


def _procedure_help(ctx: typer.Context, found: RuleSet, procedure: Procedure[RuleInput]) -> None:
    """A procedure's inputs (option, allowed values, default, description), then the options
    of the command itself (``resolve``'s ``--seed``, ``--roll``; ``--draw`` where the
    procedure draws from a deck; ``--json``), each option on a line of its own."""
    from rich.text import Text  # noqa: PLC0415

    from firefight.cli.fields import option_help  # noqa: PLC0415 - lazy: fast start-up
    from firefight.cli.option_list import option_block, option_entries  # noqa: PLC0415
    from firefight.cli.render import console  # noqa: PLC0415

    out = console()
    title = f"{found.id} {procedure.name}: {_(procedure.title)}"
    for shown in option_block(title, option_entries(option_help(procedure.input_model)), out.width):
        out.print(shown)
    own = []
    for param in ctx.command.params:
        if getattr(param, "param_type_name", "") != "option":
            continue
        if "--draw" in param.opts and not _draws_cards(found, procedure):
            continue
        names = ", ".join(param.opts)
        metavar = "" if getattr(param, "is_flag", False) else " " + (param.metavar or "VALUE")
        own.append((names + metavar, "", getattr(param, "help", None) or ""))
    out.print(Text(""))
    heading = _("Options of {command}").format(command=ctx.command_path)
    for shown in option_block(heading, own, out.width):
        out.print(shown)


def _draws_cards(found: RuleSet, procedure: Procedure[RuleInput]) -> bool:
    """Whether the procedure reads a deck the player supplies (one of the rule set's data
    files, named by one of its input fields): the cards drawn at the table are then its
    chance, and ``--draw`` one of its options."""
    fields = procedure.input_model.model_fields
    return any(file.what == "deck" and file.field in fields for file in found.files)


def _worked_out(
    ctx: typer.Context,
    ruleset_id: str | None,
    procedure_name: str | None,
    work: Callable[[Procedure[RuleInput], RuleInput], T],
) -> tuple[RuleSet, Procedure[RuleInput], RuleInput, T] | None:
    """The rule set and procedure named, the input read from the options after them, and
    ``work(procedure, input)``, errors naming the options; ``None`` once help has been printed
    instead (:func:`_target`)."""
    target = _target(ctx, ruleset_id, procedure_name)
    if target is None:
        return None
    found, proc = find_procedure(*target)
    with options_named(proc):
        inp = procedure_input(proc, ctx.args)
        return found, proc, inp, work(proc, inp)


def odds(
    ctx: typer.Context,
    ruleset: RulesetArgument = None,
    procedure: ProcedureArgument = None,
    as_json: JsonOption = False,
) -> None:
    """Exact odds of every outcome of a procedure, with its itemized modifiers."""
    read = _worked_out(ctx, ruleset, procedure, lambda proc, inp: proc.odds(inp))
    if read is None:
        return
    odds_shown(*read, as_json=as_json)()


def modifiers(
    ctx: typer.Context,
    ruleset: RulesetArgument = None,
    procedure: ProcedureArgument = None,
    as_json: JsonOption = False,
) -> None:
    """The itemized modifiers of an attack, each with the rule it comes from."""
    read = _worked_out(ctx, ruleset, procedure, lambda proc, inp: proc.facts(inp))
    if read is None:
        return
    found, proc, inp, facts = read
    if as_json:
        from firefight.faces import modifiers_json  # noqa: PLC0415

        emit(modifiers_json(found, proc, inp))
        return
    from firefight.cli.render import console, modifier_table  # noqa: PLC0415

    console().print(modifier_table(proc.modifiers(inp), facts))


def resolve(  # noqa: PLR0917 - Typer passes each option as a parameter
    ctx: typer.Context,
    ruleset: RulesetArgument = None,
    procedure: ProcedureArgument = None,
    seed: Annotated[
        list[str] | None,
        typer.Option(metavar="INTEGER", help="Seed of the computer's dice (replayable)."),
    ] = None,
    roll: Annotated[
        list[str] | None,
        typer.Option(
            help="Dice rolled at the table, e.g. 3,4 (each die) or 7 (a roll's total); "
            "ask: asked for one at a time, one a line from a pipe."
        ),
    ] = None,
    draw: Annotated[
        list[str] | None,
        typer.Option(
            help="Cards drawn at the table, by inventory number, e.g. 17,102,55 (card games); "
            "ask: asked for one at a time."
        ),
    ] = None,
    journal: Annotated[
        bool,
        typer.Option(
            "--journal",
            help="Append the resolution to the journal (also on with --db or FIREFIGHT_JOURNAL=1).",
        ),
    ] = False,
    db: Annotated[
        str | None,
        typer.Option(
            help="Journal to this database: a postgresql:// URL or a SQLite file (default: "
            "FIREFIGHT_DB, else journal.sqlite3 in your data folder)."
        ),
    ] = None,
    player: Annotated[
        str | None,
        typer.Option(help="Who rolls, in the journal (default: FIREFIGHT_PLAYER, else login)."),
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """Resolve one attack: with seeded dice (--seed N), your own (--roll 3,4, or --roll ask
    for each as it comes) or the cards you drew (--draw 17,102)."""
    target = _target(ctx, ruleset, procedure)
    if target is None:
        return
    from firefight.cli.asking import at_table  # noqa: PLC0415
    from firefight.faces import parse_roll, resolve_json  # noqa: PLC0415

    number, values = _dice(seed, roll, draw)
    found, proc = find_procedure(*target)
    with options_named(proc):
        inp = procedure_input(proc, ctx.args)
        with at_table(values):
            resolution = (
                proc.resolve(inp, number)
                if number is not None
                else proc.replay(inp, parse_roll(values))
            )
    answer = resolve_json(found, proc, inp, resolution)
    from firefight.journal.record import journaling  # noqa: PLC0415

    written = None
    if journaling(journal, db):
        from firefight.journal.record import record  # noqa: PLC0415

        written = record(answer, resolution.replay_values(), proc.odds(inp).to_json(), player, db)
    if as_json:
        emit(answer if written is None else {**answer, "journal": written})
        return
    _show_resolution(found, proc, inp, resolution, written)


def _dice(
    seed: list[str] | None, roll: list[str] | None, draw: list[str] | None
) -> tuple[int | None, str]:
    """The seed given (``None`` for the player's own dice or cards) and the values given (the
    text of ``--roll`` or ``--draw``): exactly one of the three, each at most once."""
    for name, given in (("seed", seed), ("roll", roll), ("draw", draw)):
        if given and len(given) > 1:  # Click would keep the last one silently
            raise InputError(name, "given once", f"--{name}")
    chosen = [name for name, given in (("seed", seed), ("roll", roll), ("draw", draw)) if given]
    if len(chosen) != 1:
        raise InputError(
            "seed/roll",
            "exactly one of --seed N or --roll V[,V...] or --draw CARD[,CARD...]",
            {0: "neither", 2: "both"}.get(len(chosen), "all three"),
        )
    roll = roll or draw
    number = read_integer(seed[0]) if seed else None
    if seed and (number is None or not 0 <= number <= SEED_MAX):
        raise InputError("seed", SEEDS, seed[0] if number is None else number)
    return number, roll[0] if roll else ""


def _show_resolution(
    found: RuleSet,
    proc: Procedure[RuleInput],
    inp: RuleInput,
    resolution: Resolution[str],
    written: Mapping[str, object] | None,
) -> None:
    """The resolution as the player reads it: modifiers, the dice and the outcome, how to
    replay it, and the journal's entry if one was written."""
    from firefight.cli.render import console, modifier_table, resolution_view  # noqa: PLC0415

    out = console()
    out.print(modifier_table(proc.modifiers(inp), proc.facts(inp)))
    out.print(resolution_view(resolution, meanings(found, proc), proc.named))
    replay = _("replay with: {option}").format(
        option=f"--roll {','.join(resolution.replay_values())}"
    )
    out.print(f"[dim]{escape(replay)}[/dim]")
    if written is not None:
        out.print(
            f"[dim]journal: entry {written['seq']} ({str(written['hash'])[:12]}…) "
            f"in {escape(str(written['db']))}[/dim]"
        )


__all__ = [
    "PROCEDURE_CONTEXT",
    "PROCEDURE_HELP",
    "find_procedure",
    "modifiers",
    "odds",
    "procedure_input",
    "resolve",
]
