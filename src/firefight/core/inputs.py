"""Procedure inputs: frozen pydantic models whose fields use the rulebook's vocabulary.

One model per procedure gives the Python API, validation with one-line messages, the CLI
options and (later) the web form. :func:`validate` turns pydantic's errors into
:class:`~firefight.errors.InputError` naming the field, the allowed values and the value given.
"""

from __future__ import annotations

import types
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, TypeVar, Union, get_args, get_origin

import annotated_types
from pydantic import BaseModel, ConfigDict, ValidationError
from pydantic.fields import FieldInfo

from firefight.errors import InputError, one_of
from firefight.i18n import gettext as _

M = TypeVar("M", bound=BaseModel)


@dataclass(frozen=True)
class NamedFile:
    """Marks a field whose value names a file (``Annotated[str, NamedFile(...)]``): given on
    the command line it is the player's own path; named inside a file (a sweep spec), it is
    resolved in that file's folder only (:func:`firefight.core.files.named_inside`).
    ``keywords`` are the values that name no file (``illustrative``, the shipped one)."""

    suffixes: tuple[str, ...]
    keywords: tuple[str, ...] = ()


def named_files(model: type[BaseModel]) -> dict[str, NamedFile]:
    """The fields of ``model`` that name files, with their markers."""
    return {
        name: marker
        for name, info in model.model_fields.items()
        for marker in info.metadata
        if isinstance(marker, NamedFile)
    }


class RuleInput(BaseModel):
    """Base of every procedure's input: immutable, no unknown fields, strict types.

    Strict: a flag is ``true`` or ``false`` and an integer is an integer, never ``1`` for a
    flag, ``true`` for an integer, or ``"6"``, ``"6.0"`` or ``"1_000"`` read as 6 or 1000
    (docs/architecture.md, "Inputs are declared once"). The CLI reads its text into these types
    first (:mod:`firefight.cli.fields`).
    """

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True, defer_build=True)

    readings: ClassVar[frozenset[str]] = frozenset()
    """The fields that are readings, not the situation: where the rules are silent or ambiguous,
    the interpretation chosen (a named parameter with a default, in the rule set's docs page
    reading table). The web folds them under "Readings"; every face accepts them."""


def is_reading(model: type[BaseModel], name: str) -> bool:
    """``name`` is one of ``model``'s readings (:attr:`RuleInput.readings`)."""
    return name in getattr(model, "readings", frozenset())


def choices(annotation: object) -> tuple[Any, ...] | None:
    """The allowed values of a ``Literal`` field (``None`` for other types)."""
    if get_origin(annotation) is Literal:
        return get_args(annotation)
    return None


def _non_none(annotation: object) -> tuple[object, bool]:
    origin = get_origin(annotation)
    if origin is Union or origin is types.UnionType:
        args = [a for a in get_args(annotation) if a is not type(None)]
        if len(args) == 1:
            return args[0], True
    return annotation, False


def allowed_text(info: FieldInfo) -> str:
    """What a field allows, in words: ``one of none, light`` or ``an integer from 2 to 12``."""
    annotation, optional = _non_none(info.annotation)
    values = choices(annotation)
    if values is not None:
        text = _("one of {values}").format(values=", ".join(str(v) for v in values))
    elif annotation is bool:
        text = _("true or false")
    elif get_origin(annotation) is tuple:  # a list, written comma-separated on the CLI
        text = _("a comma-separated list")
    elif annotation is int:
        low = next((m.ge for m in info.metadata if isinstance(m, annotated_types.Ge)), None)
        high = next((m.le for m in info.metadata if isinstance(m, annotated_types.Le)), None)
        if low is not None and high is not None:
            text = _("an integer from {low} to {high}").format(low=low, high=high)
        elif low is not None:
            text = _("an integer of at least {low}").format(low=low)
        elif high is not None:
            text = _("an integer of at most {high}").format(high=high)
        else:
            text = _("an integer")
    elif annotation is str:  # words, not the type's name "str"
        longest = next((m.max_length for m in info.metadata if hasattr(m, "max_length")), None)
        text = (
            _("text of at most {count} characters").format(count=longest)
            if longest is not None
            else _("text")
        )
    else:
        text = getattr(annotation, "__name__", str(annotation))
    return _("{allowed}, or omitted").format(allowed=text) if optional else text


def written(value: object) -> str:
    """A field's value as the player writes it: a list comma-separated (``3,17``)."""
    if isinstance(value, tuple | list):
        return ",".join(str(v) for v in value)
    return str(value)


def validate(model: type[M], data: Mapping[str, object]) -> M:
    """Build ``model`` from ``data`` or raise the first problem as one ``InputError``."""
    try:
        return model.model_validate(dict(data))
    except ValidationError as error:
        raise _first_problem(model, error) from None


def _first_problem(model: type[BaseModel], error: ValidationError) -> InputError:
    problem = error.errors()[0]
    location = [str(part) for part in problem["loc"]]
    fields = model.model_fields
    if problem["type"] == "extra_forbidden":
        return InputError("input", one_of(fields), location[0])
    if problem["type"] == "missing":
        given = _("given: {allowed}").format(allowed=allowed_text(fields[location[0]]))
        return InputError(location[0], given, None)
    if location and location[0] in fields:
        info = fields[location[0]]
        options = choices(_non_none(info.annotation)[0]) or ()
        return InputError(location[0], allowed_text(info), problem["input"], options=options)
    # A rule across fields (a model validator) words its own message.
    message = str(problem.get("msg", "")).removeprefix("Value error, ")
    raise_as = InputError("input", message, problem["input"])
    raise_as.args = (message,)
    return raise_as
