"""Form controls generated from a procedure's input model (DESIGN.md "Faces": the form is
generated from the procedure's input model).

Each pydantic field becomes one control: a ``<select>`` for a ``Literal`` (its choices), a
checkbox for a flag, a number input with the field's bounds for an integer, a text input
otherwise. The label is the field name, the help its description (which cites the chart).
Choices show readable labels (``force march``, not ``force_march``; the value sent
is the field's own), and the readings (:attr:`~firefight.core.inputs.RuleInput.readings`) are
marked so that the page folds them apart from the situation, with their defaults.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

import annotated_types
from pydantic import AliasChoices, BaseModel
from pydantic.fields import FieldInfo

from firefight.core.inputs import _non_none, allowed_text, choices, is_reading, written
from firefight.i18n import gettext as _
from firefight.web.wording import readable, worded

__all__ = ["Control", "control", "controls", "readable"]
"""``readable`` lives in :mod:`firefight.web.wording`; it is still importable from here."""


@dataclass(frozen=True, slots=True)
class Control:
    """One form control: what the template draws for one input field."""

    name: str
    label: str
    help: str
    allowed: str
    kind: str
    """``select``, ``checkbox``, ``number`` or ``text``."""
    required: bool
    optional: bool
    """``None`` is allowed (a blank choice)."""
    choices: tuple[str, ...] = ()
    choice_labels: tuple[str, ...] = ()
    """What the player reads for each choice (:func:`readable`)."""
    choice_types: tuple[str, ...] = ()
    """``"string"``, ``"integer"`` or ``"boolean"`` for each choice, so the page sends the type."""
    minimum: int | None = None
    maximum: int | None = None
    value: str = ""
    """The value shown: from the query string, else the default, else a first legal value."""
    checked: bool = False
    reading: bool = False
    """A reading of the rules (folded under "Readings"), not part of the situation."""
    default: str = ""
    """The default as the player reads it (``""`` when the field has none)."""


def _bound(info: FieldInfo, kind: type) -> int | None:
    for meta in info.metadata:
        if isinstance(meta, kind):
            value = getattr(meta, "ge" if kind is annotated_types.Ge else "le")
            return int(value)
    return None


def _type_name(value: object) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    return "string"


_TRUE = {"true", "yes", "1", "on"}


def control(name: str, info: FieldInfo, given: str | None, *, reading: bool = False) -> Control:
    """The control for one field; ``given`` is the value from the query string, if any."""
    annotation, optional = _non_none(info.annotation)
    required = info.is_required()
    default = None if required or info.default is None else info.default
    if isinstance(default, tuple):  # a list: the form's text writes it comma-separated
        default = written(default)
    base = Control(
        reading=reading,
        default="" if default is None else readable(default),
        name=name,
        label=readable(name),
        help=worded(_(info.description)) if info.description else "",
        allowed=allowed_text(info),
        kind="text",
        required=required,
        optional=optional,
    )
    values = choices(annotation)
    if values is not None:
        texts = tuple(str(v) for v in values)
        if given is not None:
            value = given
        elif default is not None:
            value = str(default)
        else:
            value = "" if optional or not texts else texts[0]
        return replace(
            base,
            kind="select",
            choices=texts,
            choice_labels=tuple(readable(v) for v in values),
            choice_types=tuple(_type_name(v) for v in values),
            value=value,
        )
    if annotation is bool:
        checked = given.lower() in _TRUE if given is not None else bool(default)
        return replace(base, kind="checkbox", checked=checked)
    if annotation is int:
        low = _bound(info, annotated_types.Ge)
        high = _bound(info, annotated_types.Le)
        if given is not None:
            value = given
        elif default is not None:
            value = str(default)
        elif required and not optional:
            value = str(low if low is not None else 0)
        else:
            value = ""
        return replace(
            base,
            kind="number",
            minimum=low,
            maximum=high,
            value=value,
        )
    value = given if given is not None else ("" if default is None else str(default))
    return replace(base, value=value)


def controls(model: type[BaseModel], query: Mapping[str, str]) -> list[Control]:
    """The controls of every field of ``model``, filled from ``query`` where it names them (by
    the field's name or an older spelling it is read by: a link shared before a rename)."""
    return [
        control(name, info, _asked(name, info, query), reading=is_reading(model, name))
        for name, info in model.model_fields.items()
    ]


def _asked(name: str, info: FieldInfo, query: Mapping[str, str]) -> str | None:
    """The value ``query`` gives the field: by its name, else by one of its validation
    alias's choices (``front_armor`` for ``front_armour``)."""
    if name in query:
        return query[name]
    alias = info.validation_alias
    others = alias.choices if isinstance(alias, AliasChoices) else [alias]
    return next((query[o] for o in others if isinstance(o, str) and o in query), None)
