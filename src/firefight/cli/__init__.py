"""The ``firefight`` command (Typer + Rich).

Every command takes ``--json`` (shapes in DESIGN.md, "Machine-readable output"). A user error
is one line on stderr and exit code 2. Anything else that goes wrong is a bug in firefight: one
line saying so and exit code 70 (``EX_SOFTWARE``); ``FIREFIGHT_DEBUG=1`` or ``firefight
--debug ...`` shows its traceback instead. Heavy imports wait until a command needs them, so
that ``firefight --help`` starts fast.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer

from firefight.cli.actions import add_actions
from firefight.cli.board import board_app
from firefight.cli.engage import engage
from firefight.cli.integers import ascii_integer
from firefight.cli.journal import DbOption, journal_app
from firefight.cli.pbem import pbem_app
from firefight.cli.sweep import sweep
from firefight.digits import SEED_MAX, SEEDS, read_integer
from firefight.errors import FirefightError, one_of, quoted
from firefight.i18n import LANGUAGE_VARIABLE, SOURCE, choose, language, restore
from firefight.i18n import gettext as _

if TYPE_CHECKING:
    from firefight.core.inputs import RuleInput
    from firefight.rulesets.procedure import Procedure, RuleSet

F = TypeVar("F", bound=Callable[..., Any])

app = typer.Typer(
    name="firefight",
    help="Exact odds and replayable resolution of fire combat in tactical WWII wargames.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)

app.add_typer(board_app, name="board")
app.add_typer(journal_app, name="journal")
app.add_typer(pbem_app, name="pbem")
app.command("engage")(engage)
app.command("sweep")(sweep)
add_actions(app)  # one command per action of the rule sets (firefight move, threat)

BUG_EXIT = 70
"""Exit code of a bug in firefight (``EX_SOFTWARE`` in BSD's sysexits.h); a user error is 2."""
DEBUG_VARIABLE = "FIREFIGHT_DEBUG"


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
    the ``--help`` option's own. ``make catalogue`` collects these texts; :func:`main`
    translates them (Typer builds them in English before ``--lang`` is read)."""
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


def _translate_help(command: object) -> None:
    """The help of ``command`` (and Typer's own words around it) in the active language."""
    import typer.rich_utils as rich_help  # noqa: PLC0415 - typer's help renderer

    for name, text in zip(_CHROME_NAMES, HELP_CHROME, strict=True):
        setattr(rich_help, name, _(text))
    if language() == SOURCE:
        return
    for owner, attribute, text in help_texts(command):
        setattr(owner, attribute, _(text))


def _language(args: Sequence[str]) -> str:
    """The language asked for: ``--lang`` among the global options (before the command), else
    ``$FIREFIGHT_LANG``, else English; a language firefight does not speak is a user error."""
    from firefight.i18n import SOURCE, checked  # noqa: PLC0415

    position = 0
    while position < len(args) and args[position].startswith("-"):
        name, _sep, inline = args[position].partition("=")
        if name == "--lang":
            if inline:
                return checked(inline)
            if position + 1 < len(args):
                return checked(args[position + 1])
        position += 1
    return checked(os.environ.get(LANGUAGE_VARIABLE) or SOURCE, LANGUAGE_VARIABLE)


JsonOption = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")]
PROCEDURE_CONTEXT = {"allow_extra_args": True, "ignore_unknown_options": True}
PROCEDURE_HELP = (
    "The procedure's inputs are options generated from its input model: "
    "run with --help after RULESET PROCEDURE to list them."
)


def escape(text: str) -> str:
    """Text shown as is by Rich: charts print brackets ("[minus one]") that are not markup."""
    from rich.markup import escape as rich_escape  # noqa: PLC0415 - lazy: fast start-up

    return rich_escape(text)


def _emit(data: object) -> None:
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")


def _find(ruleset_id: str, procedure_name: str) -> tuple[RuleSet, Procedure[RuleInput]]:
    from firefight.rulesets import ruleset  # noqa: PLC0415 - lazy: fast start-up

    found = ruleset(ruleset_id)
    return found, found.procedure(procedure_name)


def _options_named(procedure: Procedure[RuleInput]) -> AbstractContextManager[None]:
    """Errors about the procedure's inputs name their options (``'--target-movement'``)."""
    from firefight.cli.fields import options_named  # noqa: PLC0415 - lazy: fast start-up

    return options_named(procedure.input_model)


def _input(procedure: Procedure[RuleInput], args: Sequence[str]) -> RuleInput:
    from firefight.cli.fields import parse_options  # noqa: PLC0415 - lazy: fast start-up

    return procedure.parse(parse_options(procedure.input_model, args))


HELP_FLAGS = ("--help", "-h")


def print_help(ctx: typer.Context) -> None:
    """The command's help: Typer's Rich formatter prints it as it renders it and gives back an
    empty string; Click's plain one gives back the text."""
    text = ctx.get_help()
    if text:
        typer.echo(text)


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
        from firefight.rulesets import rulesets as every  # noqa: PLC0415 - lazy: fast start-up

        _procedure_list(ctx, list(every()))
        return None
    if procedure_name is None or procedure_name in HELP_FLAGS:
        from firefight.errors import InputError  # noqa: PLC0415
        from firefight.rulesets import ruleset  # noqa: PLC0415

        found = ruleset(ruleset_id)
        if not asked:
            raise InputError("procedure", one_of(found.procedure_names), None)
        print_help(ctx)
        _procedure_list(ctx, [found])
        return None
    _procedure_help(ctx, *_find(ruleset_id, procedure_name))
    return None


def _procedure_list(ctx: typer.Context, found: Sequence[RuleSet]) -> None:
    """The rule sets, each with its procedures and their titles, for ``COMMAND --help``."""
    from rich.table import Table  # noqa: PLC0415

    from firefight.cli.render import console  # noqa: PLC0415

    command = ctx.command_path
    title = (
        _("Rule sets and their procedures")
        if len(found) > 1
        else _("Procedures of {ruleset}").format(ruleset=found[0].id)
    )
    caption = _("{command} RULESET PROCEDURE --help lists its options").format(command=command)
    table = Table(title=title, caption=caption)
    for column in (_("rule set"), _("procedure"), _("title")):
        table.add_column(column, overflow="fold")
    for rules in found:
        table.add_section()
        for i, name in enumerate(rules.procedure_names):
            label = escape(f"{rules.id} ({_(rules.title)})") if i == 0 else ""
            table.add_row(label, name, escape(_(rules.procedure(name).title)))
    console().print(table)


def _procedure_help(ctx: typer.Context, found: RuleSet, procedure: Procedure[RuleInput]) -> None:
    """A procedure's inputs (option, allowed values, default, description), then the options
    of the command itself (``resolve``'s ``--seed``, ``--roll``, ``--draw``; ``--json``)."""
    from rich.table import Table  # noqa: PLC0415

    from firefight.cli.fields import option_help  # noqa: PLC0415 - lazy: fast start-up
    from firefight.cli.render import console  # noqa: PLC0415

    table = Table(title=escape(f"{found.id} {procedure.name}: {_(procedure.title)}"))
    for column in (_("option"), _("allowed"), _("default"), _("description")):
        table.add_column(column, overflow="fold")
    for row in option_help(procedure.input_model):
        table.add_row(*(escape(cell) for cell in row))
    table.add_section()
    for param in ctx.command.params:
        if getattr(param, "param_type_name", "") != "option":
            continue
        names = ", ".join(param.opts)
        metavar = "" if getattr(param, "is_flag", False) else " " + (param.metavar or "VALUE")
        help_text = getattr(param, "help", None) or ""
        table.add_row(escape(names + metavar), "", "", escape(help_text))
    console().print(table)


def _meanings(found: RuleSet, procedure: Procedure[RuleInput]) -> dict[str, str]:
    from firefight.faces import meanings  # noqa: PLC0415 - lazy: fast start-up

    return {outcome: _(meaning) for outcome, meaning in meanings(found, procedure).items()}


@app.command()
def rulesets(as_json: JsonOption = False) -> None:
    """List the rule sets and their procedures."""
    from firefight.rulesets import rulesets as every  # noqa: PLC0415 - lazy: fast start-up

    found = every()
    if as_json:
        from firefight.faces import rulesets_json  # noqa: PLC0415

        _emit(rulesets_json(found))
        return
    from rich.table import Table  # noqa: PLC0415

    from firefight.cli.render import console  # noqa: PLC0415

    table = Table(title=_("Rule sets"))
    for column in ("id", _("title"), _("source"), _("procedures")):
        table.add_column(column)
    for r in found:
        table.add_row(r.id, escape(_(r.title)), escape(r.source), ", ".join(r.procedure_names))
    console().print(table)


@app.command()
def tables(
    ruleset: Annotated[str, typer.Argument(help="Rule set id or alias.")],
    as_json: JsonOption = False,
) -> None:
    """List the charts of a rule set."""
    from firefight.rulesets import ruleset as find  # noqa: PLC0415 - lazy: fast start-up

    charts = find(ruleset).charts()
    if as_json:
        from firefight.faces import tables_json  # noqa: PLC0415

        _emit(tables_json(charts))
        return
    from rich.table import Table  # noqa: PLC0415

    from firefight.cli.render import console  # noqa: PLC0415

    table = Table(title=_("Charts of {ruleset}").format(ruleset=ruleset))
    for column in ("id", _("title"), _("source")):
        table.add_column(column)
    for c in charts:
        table.add_row(c.id, escape(c.title), escape(c.source))
    console().print(table)


@app.command()
def table(
    ruleset: Annotated[str, typer.Argument(help="Rule set id or alias.")],
    table_id: Annotated[
        str, typer.Argument(metavar="TABLE", help="Chart id (see `firefight tables`).")
    ],
    as_json: JsonOption = False,
) -> None:
    """Print a chart exactly as printed in the rules."""
    from firefight.rulesets import ruleset as find  # noqa: PLC0415 - lazy: fast start-up

    chart = find(ruleset).chart(table_id)
    if as_json:
        from firefight.faces import table_json  # noqa: PLC0415

        _emit(table_json(chart))
        return
    from firefight.cli.render import chart_table, console  # noqa: PLC0415

    out = console()
    out.print(chart_table(chart, width=out.width))
    if chart.legend:
        out.print(
            "; ".join(
                f"[bold]{escape(code)}[/bold] {escape(_(meaning))}"
                for code, meaning in chart.legend
            )
        )
    for note in chart.notes:
        out.print(f"[dim]- {escape(note)}[/dim]")


@app.command(context_settings=PROCEDURE_CONTEXT, add_help_option=False, epilog=PROCEDURE_HELP)
def odds(
    ctx: typer.Context,
    ruleset: Annotated[str | None, typer.Argument(help="Rule set id or alias.")] = None,
    procedure: Annotated[str | None, typer.Argument(help="Procedure name.")] = None,
    as_json: JsonOption = False,
) -> None:
    """Exact odds of every outcome of a procedure, with its itemized modifiers."""
    target = _target(ctx, ruleset, procedure)
    if target is None:
        return
    found, proc = _find(*target)
    with _options_named(proc):
        inp = _input(proc, ctx.args)
        distribution = proc.odds(inp)
    if as_json:
        from firefight.faces import odds_json  # noqa: PLC0415

        _emit(odds_json(found, proc, inp, distribution))
        return
    from firefight.cli.render import console, modifier_table, odds_table  # noqa: PLC0415

    out = console()
    out.print(f"[bold]{escape(_(found.title))}[/bold]: {escape(_(proc.title))}")
    out.print(modifier_table(proc.modifiers(inp), proc.facts(inp)))
    out.print(odds_table(distribution, _meanings(found, proc)))


@app.command(context_settings=PROCEDURE_CONTEXT, add_help_option=False, epilog=PROCEDURE_HELP)
def modifiers(
    ctx: typer.Context,
    ruleset: Annotated[str | None, typer.Argument(help="Rule set id or alias.")] = None,
    procedure: Annotated[str | None, typer.Argument(help="Procedure name.")] = None,
    as_json: JsonOption = False,
) -> None:
    """The itemized modifiers of an attack, each with the rule it comes from."""
    target = _target(ctx, ruleset, procedure)
    if target is None:
        return
    found, proc = _find(*target)
    with _options_named(proc):
        inp = _input(proc, ctx.args)
        facts = proc.facts(inp)
    if as_json:
        from firefight.faces import modifiers_json  # noqa: PLC0415

        _emit(modifiers_json(found, proc, inp))
        return
    from firefight.cli.render import console, modifier_table  # noqa: PLC0415

    console().print(modifier_table(proc.modifiers(inp), facts))


@app.command(context_settings=PROCEDURE_CONTEXT, add_help_option=False, epilog=PROCEDURE_HELP)
def resolve(  # noqa: PLR0917 - Typer passes each option as a parameter
    ctx: typer.Context,
    ruleset: Annotated[str | None, typer.Argument(help="Rule set id or alias.")] = None,
    procedure: Annotated[str | None, typer.Argument(help="Procedure name.")] = None,
    seed: Annotated[
        list[str] | None,
        typer.Option(metavar="INTEGER", help="Seed of the computer's dice (replayable)."),
    ] = None,
    roll: Annotated[
        list[str] | None,
        typer.Option(help="Dice rolled at the table, e.g. 3,4 (each die) or 7 (a roll's total)."),
    ] = None,
    draw: Annotated[
        list[str] | None,
        typer.Option(
            help="Cards drawn at the table, by inventory number, e.g. 17,102,55 (card games)."
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
    """Resolve one attack: with seeded dice (--seed N), your own (--roll 3,4) or the cards
    you drew (--draw 17,102)."""
    target = _target(ctx, ruleset, procedure)
    if target is None:
        return
    from firefight.errors import InputError  # noqa: PLC0415
    from firefight.faces import parse_roll, resolve_json  # noqa: PLC0415

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
    found, proc = _find(*target)
    with _options_named(proc):
        inp = _input(proc, ctx.args)
        resolution = (
            proc.resolve(inp, number)
            if number is not None
            else proc.replay(inp, parse_roll(roll[0] if roll else ""))
        )
    answer = resolve_json(found, proc, inp, resolution)
    from firefight.journal.record import journaling  # noqa: PLC0415

    written = None
    if journaling(journal, db):
        from firefight.journal.record import record  # noqa: PLC0415

        written = record(answer, resolution.replay_values(), proc.odds(inp).to_json(), player, db)
    if as_json:
        _emit(answer if written is None else {**answer, "journal": written})
        return
    from firefight.cli.render import console, modifier_table, resolution_view  # noqa: PLC0415

    out = console()
    out.print(modifier_table(proc.modifiers(inp), proc.facts(inp)))
    out.print(resolution_view(resolution, _meanings(found, proc)))
    replay = _("replay with: {option}").format(
        option=f"--roll {','.join(resolution.replay_values())}"
    )
    out.print(f"[dim]{escape(replay)}[/dim]")
    if written is not None:
        out.print(
            f"[dim]journal: entry {written['seq']} ({str(written['hash'])[:12]}…) "
            f"in {escape(str(written['db']))}[/dim]"
        )


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[
        int, typer.Option(parser=ascii_integer(0, 65535), help="Port to listen on.")
    ] = 8000,
    workers: Annotated[
        int,
        typer.Option(
            parser=ascii_integer(1, 64),
            help="Server processes (one per CPU core for a club's server; each keeps its own "
            "cache of answers).",
        ),
    ] = 1,
    timeout: Annotated[
        int,
        typer.Option(
            parser=ascii_integer(1, 300),
            help="Seconds a connection may stay idle, and a request may take to arrive once "
            "begun; then the connection is closed.",
        ),
    ] = 5,
    db: DbOption = None,
) -> None:
    """Serve the web calculator (pages, JSON API, OpenAPI at /docs) until Ctrl-C; the shared
    table's games are journaled in --db (docs/pbem.md, "A shared table")."""
    from firefight.web.serve import check_port, run, shown_host  # noqa: PLC0415 - lazy

    if db:
        from firefight.journal import Journal  # noqa: PLC0415

        # opened (and migrated) once before the server starts: a bad URL, a server that does
        # not answer, a file that cannot be made are one line and exit code 2, not a 422 later
        Journal.open(db).close()
    check_port(host, port)  # taken: one line, exit 2, and no line saying it serves
    typer.echo(f"firefight web calculator: http://{shown_host(host)}:{port}/ (Ctrl-C to stop)")
    run(host, port, workers, timeout, db)


@app.command()
def demo() -> None:
    """A worked example: one EPT fire attack, its modifiers, exact odds and a seeded roll."""
    from firefight.cli.demo import show  # noqa: PLC0415 - lazy: fast start-up

    show()


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; user errors are one line on stderr and exit code 2, a bug one line and
    exit code 70 (its traceback with ``--debug`` or ``FIREFIGHT_DEBUG=1``)."""
    add_actions(app)  # and those of a rule set registered since
    command = typer.main.get_command(app)
    args = list(sys.argv[1:] if argv is None else argv)
    language = None
    try:
        language = choose(_language(args))
        _translate_help(command)
        _refuse_repeated_options(command, args)
        result = command.main(args=args, prog_name="firefight", standalone_mode=False)
    except FirefightError as error:
        shown = _named_as_options(error, _options_of(_invoked(command, args)))
        sys.stderr.write(_("error: {message}").format(message=shown) + "\n")
        return 2
    except typer.TyperException as error:
        return _typer_error(error, args)
    except typer.Abort:
        sys.stderr.write("aborted\n")
        return 1
    except SystemExit as done:  # --show-completion and --install-completion end so
        return done.code if isinstance(done.code, int) else 0
    except Exception as error:  # a bug in firefight, not bad input: say so in one line
        if _debugging(args):
            raise
        sys.stderr.write(_bug_line(error) + "\n")
        return BUG_EXIT
    finally:
        if language is not None:
            restore(language)
    return result if isinstance(result, int) else 0


def _typer_error(error: typer.TyperException, args: Sequence[str]) -> int:
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


def _invoked(command: object, args: Sequence[str]) -> object:
    """The (sub)command that ``args`` run: ``board los ...`` runs ``board``'s ``los``."""
    current = command
    for arg in args:
        found = getattr(current, "commands", {}).get(arg)
        if found is not None:
            current = found
    return current


def _named_as_options(error: FirefightError, options: Mapping[str, object]) -> str:
    """The error's line, naming a command's option as the player typed it: ``'--seed'``, not
    the ``'seed'`` of the JSON field (each part of ``'seed/roll'`` too)."""
    from firefight.cli.fields import renamed  # noqa: PLC0415
    from firefight.errors import InputError  # noqa: PLC0415

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


def _refuse_repeated_options(command: object, args: Sequence[str]) -> None:
    """An option given twice is refused, as a procedure's options are: Click would keep the
    last one silently (``engage S --seed 1 --seed 2``). Options that take a list are exempt."""
    from firefight.errors import InputError  # noqa: PLC0415

    seen: set[str] = set()
    current = command
    options = _options_of(current)
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
                options = _options_of(current)
            continue
        if not option.is_flag and not inline and not option.count:
            position += option.nargs  # its value, which may look like anything
        if option.multiple or option.count:
            continue
        key = f"{id(current)}:{option.name}"
        if key in seen:
            raise InputError(name, "given once", name)
        seen.add(key)


def _options_of(command: object) -> dict[str, Any]:
    """A command's options by each of their names (``--out``, ``-o``); Typer's Click objects,
    read by their attributes (Typer carries a Click of its own)."""
    return {
        opt: param
        for param in getattr(command, "params", ())
        if getattr(param, "param_type_name", "") == "option"
        for opt in (*param.opts, *param.secondary_opts)
    }


def _debugging(args: Sequence[str]) -> bool:
    """``FIREFIGHT_DEBUG`` is set (to anything but 0), or ``--debug`` comes before the command."""
    if os.environ.get(DEBUG_VARIABLE, "0") not in ("", "0"):
        return True
    for arg in args:
        if arg == "--debug":
            return True
        if not arg.startswith("-"):
            return False
    return False


def _bug_line(error: BaseException) -> str:
    """One line: a bug, which exception, and how to see its traceback."""
    detail = " ".join(str(error).split())
    shown = f"{type(error).__name__}: {detail}" if detail else type(error).__name__
    if len(shown) > 120:
        shown = shown[:119] + "…"
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


def run() -> None:
    """Console-script entry point."""
    sys.exit(main())
