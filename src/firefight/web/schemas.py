"""The response shapes of the JSON API, for its OpenAPI document (DESIGN.md, "Machine-readable
output"). The routes return the CLI's ``--json`` data as built by :mod:`firefight.faces`; these
models document it (and schemathesis checks every answer against them).

The request bodies are read here too (:func:`json_object`): bounded in values and nesting
before they are parsed, every refusal one line."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from firefight.core.files import MAX_DEPTH, FileError, parse_json
from firefight.errors import InputError

MAX_BODY_VALUES = 10_000
"""The most values a request body may hold (and separators, counted before it is parsed):
a procedure's input is an object of at most a few dozen fields, each a number, a word or a
short text (cards and men are listed as text, ``17,102``), so it holds well under 100; a
64 KiB body can write 32,000 values. Up Front's bodies may add their uploaded files' own
counts (:data:`firefight.web.uploads.UPLOAD_VALUES`): their text is one value, but its
separators are counted before parsing."""
BODY = "request body"
"""How a request body is named in its errors."""


class BodyError(FileError):
    """A request body that is not JSON, or past :data:`MAX_BODY_VALUES` or
    :data:`~firefight.core.files.MAX_DEPTH`: ``request body: problem``, a 422 naming ``body``."""

    field = "body"


def json_object(raw: bytes, max_values: int = MAX_BODY_VALUES) -> dict[str, object]:
    """A request body that must be one JSON object, of at most ``max_values`` values nested at
    most :data:`~firefight.core.files.MAX_DEPTH` levels (a body of 8,000 nested arrays is one
    line, never a 500)."""
    if not raw.strip():
        raise InputError("body", "a JSON object", None)
    try:
        data = parse_json(raw, BODY, max_values=max_values, max_depth=MAX_DEPTH)
    except FileError as error:
        raise BodyError(error.source, error.problem) from None
    if not isinstance(data, dict):
        raise InputError("body", "a JSON object", data)
    return data


class ErrorOut(BaseModel):
    """A 404, 413 or 422: the one line the CLI prints (without ``error:``) and the field named."""

    detail: str
    field: str | None


class RuleSetOut(BaseModel):
    """``firefight rulesets --json``."""

    id: str
    title: str
    source: str
    aliases: list[str]
    procedures: list[str]
    left_out: str | None = None
    """A package or game file left out: the one line saying why (it is listed with no
    procedure)."""


class ChartSummaryOut(BaseModel):
    """``firefight tables RULESET --json``."""

    id: str
    title: str
    source: str


class ChartOut(ChartSummaryOut):
    """``firefight table RULESET TABLE --json``: labels and cells as printed, and the notes
    printed under the chart."""

    rows: list[str]
    columns: list[str]
    cells: list[list[str]]
    notes: list[str]


class ModifierOut(BaseModel):
    """One itemized modifier; ``value`` exact as text (``"1/2"``, ``"-2"``)."""

    label: str
    value: str
    kind: str
    rule: str


class _Answer(BaseModel):
    ruleset: str
    procedure: str
    input: dict[str, object]
    modifiers: list[ModifierOut]


class OddsOut(_Answer):
    """``firefight odds … --json`` and the facts as ``[label, value]`` pairs."""

    distribution: dict[str, str] = Field(description='{"OUTCOME": "p/q"}, exact, summing to 1')
    facts: list[list[str]]
    order: list[str] = Field(description="The outcomes in the chart's order (the keys above)")
    severity: dict[str, int | None] = Field(
        default_factory=dict,
        description="Each outcome's severity, 0 (no effect) to 4 (the worst); null: a value, "
        "not an effect",
    )
    names: dict[str, list[str]] = Field(
        default_factory=dict,
        description='{"OUTCOME": [name, meaning]}: the short name and meaning of each outcome '
        "whose code is a group's tally (absent where the codes are their own names)",
    )


class ModifiersOut(_Answer):
    """``firefight modifiers … --json``."""

    facts: dict[str, str]


class TraceEventOut(BaseModel):
    """One step of a resolution; ``dice`` holds each die when the step rolled dice."""

    label: str
    value: int | str
    dice: list[int] = Field(default_factory=list)


class ResolveOut(_Answer):
    """``firefight resolve … --json``; ``seed`` is null for dice rolled at the table."""

    outcome: str
    trace: list[TraceEventOut]
    seed: int | None
    names: dict[str, list[str]] = Field(
        default_factory=dict,
        description='{"OUTCOME": [name, meaning]} for an outcome whose code is a tally',
    )


class BoardSummaryOut(BaseModel):
    """``firefight board list --json``."""

    name: str
    title: str
    ruleset: str


class HexOut(BaseModel):
    """A hex that is not the board's default terrain at level 0."""

    terrain: str
    elevation: int


class BoardOut(BaseModel):
    """``firefight board show NAME --json``."""

    name: str
    ruleset: str
    columns: int
    rows: int
    offset: str
    default_terrain: str
    hexes: dict[str, HexOut]
    hexsides: dict[str, str]


class HindranceOut(BaseModel):
    """One hindrance along a line of sight."""

    where: str
    what: str
    modifier: int


class LosOut(BaseModel):
    """``firefight board los NAME FROM TO --json``."""

    model_config = ConfigDict(populate_by_name=True)

    board: str
    from_: str = Field(alias="from")
    to: str
    status: str
    range: int
    modifier: int
    hindrances: list[HindranceOut]
    blocked_by: str | None
    notes: list[str]


class VisibleOut(BaseModel):
    """``firefight board visible NAME FROM --json``."""

    model_config = ConfigDict(populate_by_name=True)

    board: str
    from_: str = Field(alias="from")
    count: int
    visible: dict[str, int]
