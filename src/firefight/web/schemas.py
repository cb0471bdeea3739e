"""The response shapes of the JSON API, for its OpenAPI document (DESIGN.md, "Machine-readable
output"). The routes return the CLI's ``--json`` data as built by :mod:`firefight.faces`; these
models document it (and schemathesis checks every answer against them)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


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
