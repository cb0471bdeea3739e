"""One command per action name found in the registry (``firefight move``, ``firefight
threat``), generated from the action's input model (:mod:`firefight.rulesets.action`).

Each field of the model is one option (``--lane-side``; a flag for a yes/no field, a bounded
integer read in ASCII digits); the action's subject is the argument (a file or a sample's
name); ``--out`` draws the answer where the action draws, ``--json`` prints its JSON, else its
lines and tables are printed. Where several rule sets declare one action name, ``--ruleset``
chooses. Errors name the options as typed (``'--fire'``, ``'--seed/--roll'``)."""

from __future__ import annotations

import inspect
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any

import annotated_types
import typer
from pydantic.fields import FieldInfo

from firefight.cli.asking import at_table
from firefight.cli.fields import option_name, renamed, spellings
from firefight.cli.integers import ascii_integer
from firefight.core.inputs import _non_none, validate
from firefight.errors import InputError, one_of
from firefight.rulesets import ruleset
from firefight.rulesets.action import Action, CliForm, Line, Shown
from firefight.rulesets.procedure import RuleSet
from firefight.rulesets.registry import action_names

GENERATED = "firefight.cli.actions"
"""How the commands made here are marked among the app's (so that they are made again)."""


def _bound(info: FieldInfo, kind: type, name: str) -> int | None:
    for meta in info.metadata:
        if isinstance(meta, kind):
            return int(getattr(meta, name))
    return None


def _option(name: str, info: FieldInfo, form: CliForm) -> inspect.Parameter:
    """The Typer parameter of one field, read by its other spellings too (``--armor``)."""
    param = form.option or name
    names = [option_name(param), *(option_name(s) for s in spellings(info) if s != name)]
    described = form.help or info.description or ""
    annotation, _optional = _non_none(info.annotation)
    required = info.is_required()
    default: object = None if required else info.default
    if annotation is bool:
        hint: object = Annotated[bool, typer.Option(*names, help=described)]
    elif annotation is int:
        low = _bound(info, annotated_types.Ge, "ge")
        high = _bound(info, annotated_types.Le, "le")
        parser = ascii_integer(low, high) if low is not None and high is not None else None
        option = typer.Option(*names, parser=parser, help=described)
        hint = Annotated[int | None, option]
    else:
        if not isinstance(default, str):
            default = None
        text = str if required or default is not None else str | None
        hint = Annotated[text, typer.Option(*names, help=described)]
    if required:
        return inspect.Parameter(param, inspect.Parameter.KEYWORD_ONLY, annotation=hint)
    return inspect.Parameter(
        param, inspect.Parameter.KEYWORD_ONLY, annotation=hint, default=default
    )


def _emit(data: object) -> None:
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")


def show(shown: Sequence[Shown]) -> None:
    """An answer's lines and tables on the console (names and ids as plain text: they are
    the scenario's own), fitted to its width with no number broken."""
    from rich.text import Text  # noqa: PLC0415 - lazy: fast start-up

    from firefight.cli.fit import fitted, wrapped  # noqa: PLC0415
    from firefight.cli.render import console  # noqa: PLC0415

    out = console()
    for item in shown:
        if isinstance(item, Line):
            text = Text.assemble(*((t, s) if s else t for t, s in item.spans))
            out.print(wrapped(text, out.width))
            continue
        out.print(fitted(item.title, item.columns, item.rows, out.width, item.right))


def _names(action: Action[Any, Any]) -> dict[str, str]:
    """The option naming each field (and each field the answer's errors name)."""
    names = {f: option_name(action.cli.get(f, CliForm()).option or f) for f in _fields(action)}
    names.update({e: names[f] for e, f in action.cli_errors.items() if f in names})
    names.update({form.option: names[f] for f, form in action.cli.items() if form.option})
    return names


def _fields(action: Action[Any, Any]) -> list[str]:
    return list(action.input_model.model_fields)


def _run(action: Action[Any, Any], values: dict[str, Any]) -> None:
    """One action with the options given."""
    out: Path | None = values.pop("out", None)
    as_json = bool(values.pop("as_json"))
    subject_text = values.pop(action.subject.name) if action.subject is not None else None
    names = _names(action)
    try:
        if action.rolls and values.get("seed") is not None and values.get("roll") is not None:
            raise InputError("seed/roll", "at most one of --seed N or --roll V[,V...]", "both")
        if out is not None and out.suffix.lower() not in (".png", ".svg"):
            raise InputError("out", "a file name ending in .png or .svg", str(out))
        data: dict[str, object] = {}
        for field in _fields(action):
            form = action.cli.get(field, CliForm())
            value = values[form.option or field]
            data[field] = form.read(value) if form.read is not None and value is not None else value
        inp = validate(action.input_model, data)
        subject = action.subject.load(subject_text) if action.subject and subject_text else None
        with at_table(values.get("roll") if action.rolls else None):
            answer = action.run(subject, inp)
    except InputError as error:
        raise renamed(error, names) from None
    if out is not None:
        sys.stderr.write(f"drawn to {answer.draw(out)}\n")
    if as_json:
        _emit(answer.to_json())
        return
    show(answer.text())


def command(name: str, declared: Sequence[tuple[RuleSet, Action[Any, Any]]]) -> Callable[..., None]:
    """The command of the action ``name`` as the rule sets in ``declared`` declare it (the
    first one's options; ``--ruleset`` chooses among several)."""
    first = declared[0][1]
    params: list[inspect.Parameter] = []
    if first.subject is not None:
        argument = typer.Argument(help=first.subject.help)
        params.append(
            inspect.Parameter(
                first.subject.name,
                inspect.Parameter.POSITIONAL_OR_KEYWORD,
                annotation=Annotated[str, argument],
            )
        )
    for field, info in first.input_model.model_fields.items():
        form = first.cli.get(field, CliForm())
        if first.rolls and field == "roll":  # the dice given up front, or asked for (asking)
            described = (form.help or info.description or "").rstrip(".")
            form = replace(form, help=described + " (ask: asked for one at a time).")
        params.append(_option(field, info, form))
    ids = [ruleset.id for ruleset, _action in declared]
    if len(declared) > 1:
        option = typer.Option("--ruleset", help=f"The rule set: one of {', '.join(ids)}.")
        params.append(
            inspect.Parameter(
                "ruleset",
                inspect.Parameter.KEYWORD_ONLY,
                annotation=Annotated[str, option],
                default=ids[0],
            )
        )
    if first.draws:
        option = typer.Option("--out", help=first.draws)
        params.append(
            inspect.Parameter(
                "out",
                inspect.Parameter.KEYWORD_ONLY,
                annotation=Annotated[Path | None, option],
                default=None,
            )
        )
    as_json = typer.Option("--json", help="Print machine-readable JSON.")
    params.append(
        inspect.Parameter(
            "as_json",
            inspect.Parameter.KEYWORD_ONLY,
            annotation=Annotated[bool, as_json],
            default=False,
        )
    )

    def run(**values: Any) -> None:  # noqa: ANN401 - one value per option
        chosen = values.pop("ruleset", ids[0])
        for found, action in declared:
            if found.id.casefold() == str(chosen).casefold():
                _run(action, values)
                return
        raise InputError("ruleset", one_of(ids), chosen)

    run.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    run.__doc__ = first.title
    run.__name__ = name
    run.__module__ = GENERATED
    return run


def declared_actions(name: str) -> list[tuple[RuleSet, Action[Any, Any]]]:
    """The rule sets declaring the action ``name`` (by their metadata), loaded, each with its
    action, in the registry's order."""
    return [
        (found, found.action(name))
        for found in (ruleset(ruleset_id) for ruleset_id in action_names().get(name, ()))
    ]
