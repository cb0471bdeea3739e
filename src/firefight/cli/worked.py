"""A procedure worked out for the command line, with no command-line library imported: the
procedure named, its input read from the options generated from its input model, its odds
shown. The ``odds`` command (:mod:`firefight.cli.odds`) and its fast dispatch
(:mod:`firefight.cli.fast`) both run these, so that both print the same."""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import TYPE_CHECKING

from firefight.cli.output import emit, escape
from firefight.i18n import gettext as _

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from firefight.chance.distribution import Distribution
    from firefight.core.inputs import RuleInput
    from firefight.rulesets.procedure import Procedure, RuleSet


def shown_ruleset(ruleset_id: str) -> RuleSet:
    """The rule set named (the only one loaded, a game's file read where it names one), made
    the game whose own words the command shows (:func:`firefight.translation.show_game`)."""
    from firefight.rulesets import ruleset  # noqa: PLC0415 - lazy: fast start-up
    from firefight.translation import show_game  # noqa: PLC0415

    found = ruleset(ruleset_id, files=True)
    show_game(found.id)
    return found


def find_procedure(ruleset_id: str, procedure_name: str) -> tuple[RuleSet, Procedure[RuleInput]]:
    """The rule set named (the only one loaded, the game shown) and its procedure named."""
    found = shown_ruleset(ruleset_id)
    return found, found.procedure(procedure_name)


def options_named(procedure: Procedure[RuleInput]) -> AbstractContextManager[None]:
    """Errors about the procedure's inputs name their options (``'--target-movement'``)."""
    from firefight.cli.fields import options_named as named  # noqa: PLC0415 - lazy: fast start-up

    return named(procedure.input_model)


def procedure_input(procedure: Procedure[RuleInput], args: Sequence[str]) -> RuleInput:
    """The procedure's input, read from the options after the procedure's name."""
    from firefight.cli.fields import parse_options  # noqa: PLC0415 - lazy: fast start-up

    return procedure.parse(parse_options(procedure.input_model, args))


def meanings(found: RuleSet, procedure: Procedure[RuleInput]) -> dict[str, str]:
    """Each outcome's meaning, in the active language."""
    from firefight.faces import meanings as said  # noqa: PLC0415 - lazy: fast start-up

    return {outcome: _(meaning) for outcome, meaning in said(found, procedure).items()}


def odds_shown(
    found: RuleSet,
    proc: Procedure[RuleInput],
    inp: RuleInput,
    distribution: Distribution[str],
    *,
    as_json: bool,
) -> Callable[[], None]:
    """What prints the odds of ``inp`` as ``firefight odds`` prints them (JSON, or the title,
    the modifiers and the odds as tables, Rich imported only then), all worked out before it
    is called: an error in working them out comes before anything is printed."""
    if as_json:
        from firefight.faces import odds_json  # noqa: PLC0415

        data = odds_json(found, proc, inp, distribution)
        return lambda: emit(data)
    from firefight.cli.render import console, modifier_table, odds_table  # noqa: PLC0415

    out = console()
    shown = [
        f"[bold]{escape(_(found.title))}[/bold]: {escape(_(proc.title))}",
        modifier_table(proc.modifiers(inp), proc.facts(inp)),
        odds_table(distribution, meanings(found, proc), proc.named, out.width),
    ]

    def show() -> None:
        for part in shown:
            out.print(part)

    return show
