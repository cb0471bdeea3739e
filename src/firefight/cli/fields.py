"""CLI options generated from a procedure's input model: ``--strength 6 --range adjacent``.

The command line is text; the input models are strict (an integer is an integer, a flag is a
flag), so each option's text is read here into its field's type first: an integer is ASCII
digits with an optional sign (never ``6.0``, ``1_000`` or ``٣``), a flag's value one of
``true/yes/1/on`` or ``false/no/0/off``. Text that does not read stays text, and validation
refuses it in the usual one line. A choice is matched whatever its case (``--protection
Medium``), and an error names the option as typed (``'--target-movement' must be ...``) where the
web API names the JSON field (``'target_movement'``).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager

from pydantic import AliasChoices, BaseModel
from pydantic.fields import FieldInfo

from firefight.core.inputs import _non_none, allowed_text, choices, written
from firefight.digits import read_integer
from firefight.errors import InputError, one_of, prefixed
from firefight.i18n import gettext as _

_QUOTED_NAME = re.compile(r"'([a-z][a-z0-9_]*)'")
"""A field's name as the rules' own messages quote it."""
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
    if values is not None:  # a choice, in any case or a unique beginning: --range adj
        found = prefixed(text, [v for v in values if isinstance(v, str)])
        return text if found is None else found
    return text


def option_name(field: str) -> str:
    """``hindrance_hexes`` -> ``--hindrance-hexes``."""
    return "--" + field.replace("_", "-")


def spellings(info: FieldInfo) -> list[str]:
    """The other names a field is read by (``front_armor`` for ``front_armour``): the
    choices of its validation alias, which the web API reads too, but its own name."""
    alias = info.validation_alias
    if isinstance(alias, AliasChoices):
        names = [c for c in alias.choices if isinstance(c, str)]
    else:
        names = [alias] if isinstance(alias, str) else []
    return [name for name in names if name != info.alias]


def field_aliases(model: type[BaseModel]) -> dict[str, str]:
    """``{other name: field}`` for every field of ``model`` read by another name too."""
    return {
        other: field
        for field, info in model.model_fields.items()
        for other in spellings(info)
        if other != field
    }


def must_be(field: str, allowed: str) -> str:
    """``'field' must be ALLOWED`` in the active language: an error line before its value."""
    line = _("'{field}' must be {allowed} (got {got})")
    return line[: line.index("{allowed}") + len("{allowed}")].format(field=field, allowed=allowed)


def got_marker() -> str:
    """What stands between the allowed values and the value given in an error line, in the
    active language (`` (got `` in English)."""
    line = _("'{field}' must be {allowed} (got {got})")
    return line[line.index("{allowed}") + len("{allowed}") : line.index("{got}")]


def renamed(error: InputError, options: Mapping[str, str], *, worded: bool = False) -> InputError:
    """``error`` naming the option (``'--target-movement'``) where it names a field that
    ``options`` maps to one (each part of ``'seed/roll'``, the head of ``'men.0.weapon'``);
    with ``worded``, in a line a rule across fields worded itself, each field quoted before
    the value given (``'range_hexes' must be at most the weapon's printed range``). A new
    error of the same class; ``error`` itself when nothing is renamed."""
    line = str(error)
    parts = error.field.split("/")
    heads = [part.split(".")[0].split("[")[0] for part in parts]
    if not line.startswith(f"'{error.field}'"):  # a rule across fields worded its own line
        if not worded:
            return error
        said, got, value = line.rpartition(got_marker())
        head = said if got else value  # the value given stays as given
        shown = _QUOTED_NAME.sub(lambda m: f"'{options.get(m[1], m[1])}'", head)
        return _reworded(error, error.field, shown + (got + value if got else ""))
    if not all(head in options for head in heads):
        return error
    field = "/".join(
        options[head] + part[len(head) :] for head, part in zip(heads, parts, strict=True)
    )
    return _reworded(error, field, f"'{field}'" + line[len(error.field) + 2 :])


def _reworded(error: InputError, field: str, line: str) -> InputError:
    """A copy of ``error`` about ``field`` that reads ``line``."""
    copied = type(error).__new__(type(error), line)  # no __init__: the line is worded already
    copied.__dict__.update(vars(error), field=field)
    copied.args = (line,)
    return copied


@contextmanager
def options_named(model: type[BaseModel]) -> Iterator[None]:
    """Within: an input error about one of ``model``'s fields names its option instead."""
    try:
        yield
    except InputError as error:
        raise renamed(error, {f: option_name(f) for f in model.model_fields}, worded=True) from None


def _unknown(arg: str, allowed: str, fields: Sequence[str]) -> InputError:
    """An unknown option, with the closest known one when a typo is likely (``--strenght``:
    did you mean --strength?)."""
    error = InputError("option", allowed, arg)
    name = arg.partition("=")[0]
    close = difflib.get_close_matches(name, [option_name(f) for f in fields], n=1, cutoff=0.75)
    if close:
        error.args = (_("{error}; did you mean {option}?").format(error=error, option=close[0]),)
    return error


def _is_flag(model: type[BaseModel], field: str) -> bool:
    return model.model_fields[field].annotation is bool


def parse_options(model: type[BaseModel], args: Sequence[str]) -> dict[str, object]:
    """Read ``--name value``, ``--name=value``, ``--flag`` and ``--no-flag`` for ``model``."""
    fields = model.model_fields
    aliases = field_aliases(model)
    allowed = one_of(option_name(f) for f in fields)
    data: dict[str, object] = {}
    position = 0
    while position < len(args):
        arg = args[position]
        position += 1
        if not arg.startswith("--"):
            raise _unknown(arg, allowed, list(fields))
        name, has_value, value = arg[2:].partition("=")
        field = name.replace("-", "_")
        field = aliases.get(field, field)  # --front-armor reads as --front-armour
        negated = False
        if field not in fields and field.startswith("no_"):
            field, negated = aliases.get(field[3:], field[3:]), True
        if field not in fields or (negated and not _is_flag(model, field)):
            raise _unknown(arg, allowed, list(fields))
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
            default = "" if info.default is None else written(info.default)
        option = option_name(name) + ("" if info.annotation is bool else " VALUE")
        described = _(info.description) if info.description else ""
        rows.append((option, allowed_text(info), default, described))
    return rows
