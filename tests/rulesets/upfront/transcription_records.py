"""Loader for the second, independent transcription of seed 002 (Up Front flow charts v1.0).

``transcription/flowcharts.toml`` holds one record per number the eight flow-chart pages print,
``transcription/facts.toml`` the numbers of FACTS.md's Up Front section, and
``transcription/seed_002_pages.txt`` the seed's page text, verbatim, that the records quote.
The rule set's transcription tests compare its constants with what this loader returns; the
loader checks the files' shape itself, failing with one line naming the file, the record and
the field.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

FOLDER = Path(__file__).parent / "transcription"
FLOWCHARTS = FOLDER / "flowcharts.toml"
FACTS = FOLDER / "facts.toml"
SEED_PAGES = FOLDER / "seed_002_pages.txt"

PAGES = range(1, 9)
KINDS = frozenset(
    {
        "multiplier",
        "modifier",
        "value",
        "threshold",
        "range",
        "ordinal",
        "column",
        "page",
        "example",
        "comparison",
        "colour",
    }
)
COMPARISONS = frozenset({"=", "<", "<=", ">", ">="})
COLOURS = frozenset({"Black", "Red"})
ROUNDINGS = frozenset({"down", "up"})
REQUIRED = ("page", "chart", "printed", "phrase", "numbers", "kind")
OPTIONAL_TEXT = ("unit", "column", "judgement", "source_typo")
FRACTION = re.compile(r"-?\d+/\d+")


class TranscriptionFileError(ValueError):
    """A transcription file that breaks its own format."""


@dataclass(frozen=True)
class FlowchartRecord:
    """One number (or sign) printed on a flow-chart page, as printed and as restored."""

    index: int
    page: int
    chart: str
    printed: str
    phrase: str
    numbers: tuple[Fraction, ...]
    kind: str
    occurrence: int = 1
    comparison: str | None = None
    unit: str | None = None
    colour: str | None = None
    rounding: str | None = None
    column: str | None = None
    applies: tuple[str, ...] = ()
    judgement: str | None = None
    source_typo: str | None = None


def parse_number(value: object) -> Fraction:
    """An integer, or a "p/q" string for a printed fraction (½ is "1/2")."""
    if isinstance(value, int) and not isinstance(value, bool):
        return Fraction(value)
    if isinstance(value, str) and FRACTION.fullmatch(value):
        return Fraction(value)
    raise ValueError(f"must be an integer or a 'p/q' string (got {value!r})")


@dataclass(frozen=True)
class _Reader:
    """One raw record of a file, read field by field; errors name the file, record and field."""

    path: Path
    index: int
    raw: dict[str, Any]

    def fail(self, field: str, message: str) -> TranscriptionFileError:
        page = self.raw.get("page")
        return TranscriptionFileError(
            f"{self.path.name} record {self.index} (page {page}): '{field}' {message}"
        )

    def text(self, field: str) -> str | None:
        value = self.raw.get(field)
        if value is None:
            return None
        if not isinstance(value, str) or not value.strip():
            raise self.fail(field, f"must be non-empty text (got {value!r})")
        return value

    def required_text(self, field: str) -> str:
        value = self.text(field)
        if value is None:
            raise self.fail(field, "is missing")
        return value

    def choice(self, field: str, allowed: frozenset[str]) -> str | None:
        value = self.text(field)
        if value is not None and value not in allowed:
            raise self.fail(field, f"must be one of {', '.join(sorted(allowed))} (got {value!r})")
        return value


KNOWN = frozenset(
    {*REQUIRED, *OPTIONAL_TEXT, "occurrence", "comparison", "colour", "rounding", "applies"}
)


def _record(path: Path, index: int, raw: dict[str, Any]) -> FlowchartRecord:
    read = _Reader(path, index, raw)
    for field in raw:
        if field not in KNOWN:
            raise read.fail(field, f"is not a field (fields: {', '.join(sorted(KNOWN))})")
    for field in REQUIRED:
        if field not in raw:
            raise read.fail(field, "is missing")
    page = raw["page"]
    if not isinstance(page, int) or isinstance(page, bool) or page not in PAGES:
        raise read.fail("page", f"must be one of 1-8 (got {page!r})")
    if not isinstance(raw["numbers"], list):
        raise read.fail("numbers", f"must be a list (got {raw['numbers']!r})")
    try:
        numbers = tuple(parse_number(value) for value in raw["numbers"])
    except ValueError as error:
        raise read.fail("numbers", str(error)) from None
    comparison = read.choice("comparison", COMPARISONS)
    colour = read.choice("colour", COLOURS)
    if not numbers and comparison is None and colour is None:
        raise read.fail("numbers", "is empty, so 'comparison' or 'colour' is needed")
    occurrence = raw.get("occurrence", 1)
    if not isinstance(occurrence, int) or isinstance(occurrence, bool) or occurrence < 1:
        raise read.fail("occurrence", f"must be an integer from 1 (got {occurrence!r})")
    applies = raw.get("applies", ())
    if isinstance(applies, str):
        applies = (applies,)
    if not all(isinstance(case, str) and case for case in applies):
        raise read.fail("applies", f"must be text or a list of text (got {applies!r})")
    kind = read.choice("kind", KINDS)
    if kind is None:
        raise read.fail("kind", "is missing")
    return FlowchartRecord(
        index=index,
        page=page,
        chart=read.required_text("chart"),
        printed=read.required_text("printed"),
        phrase=read.required_text("phrase"),
        numbers=numbers,
        kind=kind,
        occurrence=occurrence,
        comparison=comparison,
        unit=read.text("unit"),
        colour=colour,
        rounding=read.choice("rounding", ROUNDINGS),
        column=read.text("column"),
        applies=tuple(applies),
        judgement=read.text("judgement"),
        source_typo=read.text("source_typo"),
    )


def load_flowcharts(path: Path = FLOWCHARTS) -> tuple[FlowchartRecord, ...]:
    """Every record of the flow-chart transcription, in file order (numbered from 1)."""
    with path.open("rb") as file:
        document = tomllib.load(file)
    records = document.get("record")
    if not isinstance(records, list) or not records:
        raise TranscriptionFileError(f"{path.name}: 'record' must be a non-empty array of tables")
    return tuple(_record(path, index, raw) for index, raw in enumerate(records, start=1))


def load_facts(path: Path = FACTS) -> dict[str, Any]:
    """FACTS.md's Up Front numbers; every table must quote the FACTS.md sentence it rests on."""
    with path.open("rb") as file:
        document = tomllib.load(file)
    for name, table in document.items():
        if isinstance(table, dict) and not isinstance(table.get("quote"), str):
            raise TranscriptionFileError(f"{path.name} [{name}]: 'quote' is missing")
    return document


def seed_pages(path: Path = SEED_PAGES) -> dict[int, str]:
    """The seed's page lines, by page number (each line starts with its page number)."""
    pages: dict[int, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            number, _, _ = line.partition(" ")
            pages[int(number)] = line
    return pages


def numerals(text: str) -> list[Fraction]:
    """The unsigned numbers a text prints, in order: digit runs, ½ and ¼."""
    return [
        Fraction(1, 2) if token == "½" else Fraction(1, 4) if token == "¼" else Fraction(token)
        for token in re.findall(r"\d+|[½¼]", text)
    ]


def as_extracted(phrase: str) -> str:
    """What the seed's extraction makes of a restored phrase: capital A and N lost, ≤ ≥ lost."""
    return phrase.replace("A", "").replace("N", "").replace("≤", "<").replace("≥", ">")
