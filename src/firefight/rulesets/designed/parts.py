"""The parts of a designer's file after its header: fields, results, the column, modifiers,
cells and follow-ups, each read and checked against those read before it."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

from firefight.rulesets.added import Said
from firefight.rulesets.designed.bands import Ladder
from firefight.rulesets.designed.reader import MAX_NUMBER, Place, Table, Words
from firefight.rulesets.designed.schema import (
    _NAME,
    KEYS,
    LONGEST_CODE,
    MOST_CHOICES,
    MOST_FIELDS,
    MOST_FOLLOW_UPS,
    MOST_MODIFIERS,
    MOST_RESULTS,
    RESERVED,
    ColumnSpec,
    Condition,
    FieldSpec,
    FollowUp,
    ModifierSpec,
    ModifierWhat,
    dice_spec,
    ladder,
)
from firefight.translation import LANGUAGES, N_

Worded = Callable[[Table, str, str | None], str]
"""Reads a text key and keeps its translations (``KEY_fr``) among the file's words."""


def _result_code(codes: list[str]) -> Said:
    return Said(N_("a code of [[results]]: {codes}"), codes=", ".join(codes))


def readable(name: str) -> str:
    """A name as the faces show it: ``attack_strength`` -> ``attack strength``."""
    return name.replace("_", " ")


def parse_fields(top: Table, words: Words) -> tuple[FieldSpec, ...]:
    found: list[FieldSpec] = []
    for place, data in top.tables("fields", MOST_FIELDS):
        table = Table(data, place, KEYS["fields"])
        name = table.text("name")
        if not _NAME.fullmatch(name) or name in RESERVED or name.startswith("model_"):
            expected = Said(
                N_(
                    "a name of lower-case letters, digits and '_', beginning with a letter, "
                    "and none of {reserved}"
                ),
                reserved=", ".join(sorted(RESERVED)),
            )
            raise place.at("name").refuse(expected, name)
        if any(f.name == name for f in found):
            raise place.at("name").refuse(Said(N_("a name no other field has")), name)
        named = Table(data, place.named(name), KEYS["fields"])
        kind = named.choice("type", ("integer", "choice", "flag"))
        shown = readable(name)  # the label the faces show: the name, read
        label, own = named.words("label", shown)
        words.keep(shown, {"en": label, **own} if named.has("label") else own)
        description = words.read(named, "description", shown)
        found.append(_field(named, name, kind, description, words))
    return tuple(found)


def _field(table: Table, name: str, kind: str, description: str, words: Words) -> FieldSpec:
    place = table.place
    if kind == "integer":
        low, high = table.integer("min"), table.integer("max")
        if low > high:
            expected = Said(N_("a bound of at least min ({low})"), low=low)
            raise place.at("max").refuse(expected, high)
        default = table.integer("default") if table.has("default") else None
        if default is not None and not low <= default <= high:
            expected = Said(N_("an integer from {low} to {high}"), low=low, high=high)
            raise place.at("default").refuse(expected, default)
        return FieldSpec(name, "integer", low, high, default, (), description)
    if kind == "flag":
        value = table.data.get("default", False)
        if not isinstance(value, bool):
            raise place.at("default").refuse(Said(N_("true or false")), value)
        return FieldSpec(name, "flag", 0, 1, value, (), description)
    return _choice_field(table, name, description, words)


def _choice_field(table: Table, name: str, description: str, words: Words) -> FieldSpec:
    place = table.place
    choices = table.strings("choices", MOST_CHOICES, longest=40)
    for i, choice in enumerate(choices):
        if not _NAME.fullmatch(choice):
            raise (
                place.at("choices")
                .at(i)
                .refuse(Said(N_("a choice of lower-case letters, digits and '_'")), choice)
            )
    if len(set(choices)) != len(choices):
        raise place.at("choices").refuse(Said(N_("choices given once each")), choices)
    for lang in LANGUAGES:
        key = f"choices_{lang}"
        if table.has(key):
            shown = table.strings(key, MOST_CHOICES)
            if len(shown) != len(choices):
                expected = Said(N_("{count} texts, one per choice"), count=len(choices))
                raise place.at(key).refuse(expected, shown)
            for choice, text in zip(choices, shown, strict=True):
                words.keep(readable(choice), {lang: text})
    default = table.data.get("default", choices[0])
    if default not in choices:
        expected = Said(N_("one of {values}"), values=", ".join(choices))
        raise place.at("default").refuse(expected, default)
    return FieldSpec(name, "choice", 0, len(choices) - 1, default, choices, description)


def parse_results(top: Table, worded: Worded) -> tuple[tuple[str, str], ...]:
    found: list[tuple[str, str]] = []
    for place, data in top.tables("results", MOST_RESULTS, required=True):
        table = Table(data, place, KEYS["results"])
        code = table.text("code")
        if len(code) > LONGEST_CODE or code != code.strip():
            expected = Said(N_("a code of at most {most} characters"), most=LONGEST_CODE)
            raise place.at("code").refuse(expected, code)
        if any(c == code for c, _ in found):
            raise place.at("code").refuse(Said(N_("a code no other result has")), code)
        named = Table(data, place.named(code), KEYS["results"])
        found.append((code, worded(named, "meaning", None)))
    return tuple(found)


def _field_named(
    table: Table, key: str, fields: tuple[FieldSpec, ...], kinds: tuple[str, ...]
) -> FieldSpec:
    name = table.data.get(key)
    allowed = [f.name for f in fields if f.kind in kinds]
    for found in fields:
        if found.name == name and found.kind in kinds:
            return found
    expected = Said(
        N_("the name of a field of type {kinds}: one of {fields}"),
        kinds=" or ".join(kinds),
        fields=", ".join(allowed) or Said(N_("(none)")),
    )
    raise table.place.at(key).refuse(expected, name)


def parse_column(top: Table, fields: tuple[FieldSpec, ...], worded: Worded) -> ColumnSpec:
    table = Table(top.data.get("column"), top.place.at("column"), KEYS["column"])
    by = table.choice("by", ("odds", "strength", "choice"))
    if by == "odds":
        attacker = _field_named(table, "attacker", fields, ("integer",)).name
        defender = _field_named(table, "defender", fields, ("integer",)).name
        header = worded(table, "header", "odds")
        axis = ladder(table, ratios=True, below="error", above="clamp", header=header)
        return ColumnSpec("odds", axis, attacker=attacker, defender=defender)
    if by == "strength":
        strength = _field_named(table, "strength", fields, ("integer",))
        header = worded(table, "header", readable(strength.name))
        axis = ladder(table, ratios=False, below="error", above="clamp", header=header)
        rounding = table.choice("round", ("down", "up"), "down")
        return ColumnSpec(
            "strength", axis, strength=strength.name, round="up" if rounding == "up" else "down"
        )
    chosen = _field_named(table, "field", fields, ("choice",))
    header = worded(table, "header", readable(chosen.name))
    labels = table.strings("labels", MOST_CHOICES) if table.has("labels") else chosen.choices
    if labels != chosen.choices:
        expected = Said(
            N_("the choices of {field}, in their order: {choices}"),
            field=repr(chosen.name),
            choices=", ".join(chosen.choices),
        )
        raise table.place.at("labels").refuse(expected, labels)
    positions = tuple(float(i) for i in range(len(labels)))
    axis = Ladder(header, labels, positions, positions, "clamp", "clamp")
    return ColumnSpec("choice", axis, field=chosen.name)


def _condition(place: Place, name: str, value: Any, fields: tuple[FieldSpec, ...]) -> Condition:  # noqa: ANN401
    found = next((f for f in fields if f.name == name), None)
    if found is None:
        names = ", ".join(f.name for f in fields)
        raise place.refuse(Said(N_("the name of a field: {fields}"), fields=names), name)
    here = place.at(name)
    listed = value if isinstance(value, list) else [value]
    if found.kind == "choice":
        if not listed or not all(v in found.choices for v in listed):
            choices = ", ".join(found.choices)
            raise here.refuse(Said(N_("one of {values}, or a list of them"), values=choices), value)
        return Condition(name, tuple(listed))
    if found.kind == "flag":
        if not isinstance(value, bool):
            raise here.refuse(Said(N_("true or false")), value)
        return Condition(name, (value,))
    if isinstance(value, dict):
        bounds = Table(value, here, ("at_least", "at_most"))
        low = bounds.integer("at_least") if bounds.has("at_least") else None
        high = bounds.integer("at_most") if bounds.has("at_most") else None
        if low is None and high is None:
            raise here.refuse(Said(N_("at_least, at_most or both")), value)
        return Condition(name, None, low, high)
    if not listed or not all(
        isinstance(v, int) and not isinstance(v, bool) and abs(v) <= MAX_NUMBER for v in listed
    ):
        expected = Said(
            N_("an integer, a list of them, or {bounds}"), bounds="{ at_least = n, at_most = m }"
        )
        raise here.refuse(expected, value)
    return Condition(name, tuple(listed))


def parse_modifiers(
    top: Table, fields: tuple[FieldSpec, ...], column: ColumnSpec, worded: Worded
) -> tuple[ModifierSpec, ...]:
    strengths = tuple(s for s in (column.attacker, column.defender, column.strength) if s)
    found: list[ModifierSpec] = []
    for place, data in top.tables("modifiers", MOST_MODIFIERS):
        table = Table(data, place, KEYS["modifiers"])
        label = worded(table, "label", None)
        named = Table(data, place.named(label), KEYS["modifiers"])
        rule = worded(named, "rule", None)
        when = named.data.get("when", {})
        if not isinstance(when, dict):
            raise named.place.at("when").refuse(
                Said(N_("a table of fields and their values")), when
            )
        conditions = tuple(
            _condition(named.place.at("when"), str(k), v, fields) for k, v in when.items()
        )
        given = [key for key in ("dice", "column_shift", "factor") if named.has(key)]
        if len(given) != 1:
            raise named.place.refuse(
                Said(N_("exactly one of dice, column_shift, factor")), ", ".join(given) or "none"
            )
        what = given[0]
        strength = None
        if what == "factor":
            value = named.fraction("factor")
            strength = named.data.get("strength")
            if strength not in strengths:
                expected = Said(
                    N_("the strength the factor multiplies: one of {strengths}"),
                    strengths=", ".join(strengths)
                    or Said(N_("(none: the column is read by a choice)")),
                )
                raise named.place.at("strength").refuse(expected, strength)
            found.append(ModifierSpec(label, rule, conditions, "factor", value, strength))
            continue
        value = Fraction(named.integer(what))
        kind: ModifierWhat = "dice" if what == "dice" else "column_shift"
        found.append(ModifierSpec(label, rule, conditions, kind, value, None))
    return tuple(found)


def parse_cells(
    top: Table, rows: Ladder, columns: Ladder, results: tuple[tuple[str, str], ...]
) -> tuple[tuple[str, ...], ...]:
    place = top.place.at("cells")
    data = top.data.get("cells")
    if not isinstance(data, dict):
        raise place.refuse(Said(N_("a table [cells] of the rows' labels")), data)
    extra = [key for key in data if key not in rows.labels]
    if extra:
        expected = Said(N_("a row among rows.labels: {labels}"), labels=", ".join(rows.labels))
        raise place.at(extra[0]).refuse(expected, extra[0])
    codes = [code for code, _ in results]
    found: list[tuple[str, ...]] = []
    for label in rows.labels:
        here = Place(place.file, f'{place.where}."{label}"')
        row = data.get(label)
        if not isinstance(row, list) or len(row) != len(columns.labels):
            expected = Said(N_("{count} result codes, one per column"), count=len(columns.labels))
            raise here.refuse(expected, row, given=row is not None)
        for i, cell in enumerate(row):
            if cell not in codes:
                raise here.at(i).refuse(_result_code(codes), cell)
        found.append(tuple(row))
    return tuple(found)


def parse_follow_ups(
    top: Table,
    fields: tuple[FieldSpec, ...],
    results: tuple[tuple[str, str], ...],
    worded: Worded,
) -> tuple[FollowUp, ...]:
    codes = [code for code, _ in results]
    found: list[FollowUp] = []
    for place, data in top.tables("follow_ups", MOST_FOLLOW_UPS):
        table = Table(data, place, KEYS["follow_ups"])
        label = worded(table, "label", None)
        named = Table(data, place.named(label), KEYS["follow_ups"])
        after = named.strings("after", MOST_RESULTS, longest=LONGEST_CODE)
        outcomes: dict[str, str | None] = {"if_failed": None, "if_passed": None}
        for key in outcomes:
            if named.has(key) or key == "if_failed":
                outcomes[key] = named.text(key)
        for key, code in [*(("after", a) for a in after), *outcomes.items()]:
            if code is not None and code not in codes:
                raise named.place.at(key).refuse(_result_code(codes), code)
        target = named.data.get("target")
        if isinstance(target, str):
            target = _field_named(named, "target", fields, ("integer",)).name
        else:
            target = named.integer("target")
        failed = outcomes["if_failed"]
        assert failed is not None
        found.append(
            FollowUp(
                after,
                label,
                worded(named, "rule", None),
                dice_spec(named.data.get("dice"), named.place.at("dice")),
                "at_least"
                if named.choice("passes", ("at_most", "at_least"), "at_most") == "at_least"
                else "at_most",
                target,
                failed,
                outcomes["if_passed"],
            )
        )
    return tuple(found)
