"""CLI options generated from a procedure's input model: ``--strength 6 --range adjacent``.

The command line is text; the input models are strict (an integer is an integer, a flag is a
flag), so each option's text is read here into its field's type first: an integer is ASCII
digits with an optional sign (never ``6.0``, ``1_000`` or ``٣``), a flag's value one of
``true/yes/1/on`` or ``false/no/0/off``. Text that does not read stays text, and validation
refuses it in the usual one line.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel
from pydantic.fields import FieldInfo

from firefight.core.inputs import _non_none, allowed_text, choices
from firefight.digits import read_integer
from firefight.errors import InputError, one_of
from firefight.i18n import gettext as _

_TRUE = {"true", "yes", "1", "on"}
_FALSE = {"false", "no", "0", "off"}


def typed(info: FieldInfo, text: str) -> object:
    """An option's text as its field's type: an integer, a flag or text."""
    annotation, _ = _non_none(info.annotation)
    values = choices(annotation)
    wants_integer = annotation is int or (
        values is not None and all(type(v) is int for v in values)
    )
    if wants_integer:
        number = read_integer(text)
        return text if number is None else number
    if annotation is bool:
        word = text.lower()
        return True if word in _TRUE else False if word in _FALSE else text
    return text


def option_name(field: str) -> str:
    """``hindrance_hexes`` -> ``--hindrance-hexes``."""
    return "--" + field.replace("_", "-")


def _is_flag(model: type[BaseModel], field: str) -> bool:
    return model.model_fields[field].annotation is bool


def parse_options(  # noqa: PLR0912 - one branch per form an option can take
    model: type[BaseModel], args: Sequence[str]
) -> dict[str, object]:
    """Read ``--name value``, ``--name=value``, ``--flag`` and ``--no-flag`` for ``model``."""
    fields = model.model_fields
    allowed = one_of(option_name(f) for f in fields)
    data: dict[str, object] = {}
    position = 0
    while position < len(args):
        arg = args[position]
        position += 1
        if not arg.startswith("--"):
            raise InputError("option", allowed, arg)
        name, has_value, value = arg[2:].partition("=")
        field = name.replace("-", "_")
        negated = False
        if field not in fields and field.startswith("no_") and field[3:] in fields:
            field, negated = field[3:], True
            if not _is_flag(model, field):
                raise InputError("option", allowed, arg)
        if field not in fields:
            raise InputError("option", allowed, arg)
        if field in data:
            raise InputError(field, "given once", arg)
        if _is_flag(model, field):
            if negated:
                data[field] = False
            elif has_value:
                data[field] = typed(fields[field], value)
            elif position < len(args) and args[position].lower() in _TRUE | _FALSE:
                data[field] = typed(fields[field], args[position])
                position += 1
            else:
                data[field] = True
            continue
        if not has_value:
            if position >= len(args) or args[position].startswith("--"):
                raise InputError(field, allowed_text(fields[field]), None)
            value = args[position]
            position += 1
        data[field] = typed(fields[field], value)
    return data


def option_help(model: type[BaseModel]) -> list[tuple[str, str, str, str]]:
    """``(option, allowed, default, description)`` for every field of ``model``."""
    rows = []
    for name, info in model.model_fields.items():
        if info.is_required():
            default = "required"
        elif info.annotation is bool:
            default = "false" if info.default is False else "true"
        else:
            default = "" if info.default is None else str(info.default)
        option = option_name(name) + ("" if info.annotation is bool else " VALUE")
        described = _(info.description) if info.description else ""
        rows.append((option, allowed_text(info), default, described))
    return rows
