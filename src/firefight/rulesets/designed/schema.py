"""A designer's one-chart game, read from its TOML file into values (docs/writing-a-rule-set.md
documents every key; :data:`KEYS` lists them, and a test checks the two agree).

Every key is checked where it is read, so that a file is refused in one line naming the place
(``fields[2] 'terrain'.choices``, ``rows.labels``, ``cells."3"``) and what was expected.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal

from firefight.rulesets.added import Said
from firefight.rulesets.designed.bands import Ladder, Policy, band, gap_or_overlap, ratio_step
from firefight.rulesets.designed.reader import Place, Table
from firefight.translation import N_

KEYS: dict[str, tuple[str, ...]] = {
    "": (
        "id",
        "title",
        "source",
        "procedure",
        "procedure_title",
        "dice",
        "notes",
        "fields",
        "modifiers",
        "column",
        "rows",
        "cells",
        "results",
        "follow_ups",
    ),
    "fields": ("name", "type", "min", "max", "default", "choices", "label", "description"),
    "modifiers": ("label", "rule", "when", "dice", "column_shift", "factor", "strength"),
    "column": (
        "by",
        "strength",
        "round",
        "attacker",
        "defender",
        "field",
        "header",
        "labels",
        "below",
        "above",
    ),
    "rows": ("header", "labels", "below", "above"),
    "results": ("code", "meaning"),
    "follow_ups": (
        "after",
        "label",
        "rule",
        "dice",
        "passes",
        "target",
        "if_failed",
        "if_passed",
    ),
}
"""Each table's keys (``""``: the file's top level); each text key also takes ``KEY_fr`` (and
``KEY_en``), its words in that language."""

MOST_FIELDS = 24
MOST_MODIFIERS = 128
MOST_LABELS = 40
MOST_CHOICES = 40
MOST_RESULTS = 40
MOST_FOLLOW_UPS = 8
LONGEST_CODE = 12
MOST_DICE = 10
MOST_SIDES = 100
MOST_TERMS = 3
MOST_TOTALS = 10_000
"""The most combinations of the terms' totals a roll may have (the exact odds walk each)."""
MOST_PATHS = 4 * MOST_TOTALS
"""The most ways a roll and its follow-ups together may fall: the exact odds run the rule
once per way, so a file's work is bounded when it is read, before any odds are asked."""
RESERVED = frozenset(
    {
        "seed",
        "roll",
        "draw",
        "json",
        "help",
        "lang",
        "debug",
        "journal",
        "db",
        "player",
        "input",
        "readings",
    }
)
"""Names a field may not take: the commands' own options, and the input model's own."""

_ID = re.compile(r"[a-z][a-z0-9-]{0,39}")
_NAME = re.compile(r"[a-z][a-z0-9_]{0,39}")
_DICE = re.compile(r"(?P<count>\d{1,2})d(?P<sides>\d{1,3})", re.ASCII)
FieldKind = Literal["integer", "choice", "flag"]
ColumnBy = Literal["odds", "strength", "choice"]


@dataclass(frozen=True)
class Term:
    """``count`` dice of ``sides`` sides, added (``sign`` 1) or taken away (-1)."""

    sign: int
    count: int
    sides: int

    @property
    def text(self) -> str:
        return f"{self.count}d{self.sides}"


@dataclass(frozen=True)
class DiceSpec:
    """A roll: one or more terms (``2d6``, ``1d6+1d6``, ``1d6-1d6``)."""

    text: str
    terms: tuple[Term, ...]

    @property
    def low(self) -> int:
        return sum(t.count if t.sign > 0 else -t.count * t.sides for t in self.terms)

    @property
    def high(self) -> int:
        return sum(t.count * t.sides if t.sign > 0 else -t.count for t in self.terms)


@dataclass(frozen=True)
class FieldSpec:
    """One input field: its name (the option ``--name``), type, bounds or choices."""

    name: str
    kind: FieldKind
    low: int
    high: int
    default: int | str | bool | None
    choices: tuple[str, ...]
    description: str


@dataclass(frozen=True)
class Condition:
    """A field's value that a modifier applies on: one of ``values``, or within the bounds."""

    field: str
    values: tuple[int | str | bool, ...] | None
    at_least: int | None = None
    at_most: int | None = None

    def holds(self, value: object) -> bool:
        if self.values is not None:
            return value in self.values
        assert isinstance(value, int)
        low_ok = self.at_least is None or value >= self.at_least
        return low_ok and (self.at_most is None or value <= self.at_most)


ModifierWhat = Literal["dice", "column_shift", "factor"]


@dataclass(frozen=True)
class ModifierSpec:
    """A modifier: a dice shift, a column shift or a factor on a strength, on conditions."""

    label: str
    rule: str
    when: tuple[Condition, ...]
    what: ModifierWhat
    value: Fraction
    strength: str | None


@dataclass(frozen=True)
class ColumnSpec:
    """How the column is chosen, and the columns."""

    by: ColumnBy
    ladder: Ladder
    attacker: str = ""
    defender: str = ""
    strength: str = ""
    field: str = ""
    round: Literal["down", "up"] = "down"


@dataclass(frozen=True)
class FollowUp:
    """A second roll a result calls for (a morale test), and what its pass or fail makes of
    the result."""

    after: tuple[str, ...]
    label: str
    rule: str
    dice: DiceSpec
    passes: Literal["at_most", "at_least"]
    target: int | str
    if_failed: str
    if_passed: str | None


@dataclass(frozen=True)
class Game:
    """A designer's one-chart game, as its file gives it."""

    id: str
    title: str
    source: str
    procedure: str
    procedure_title: str
    dice: DiceSpec
    fields: tuple[FieldSpec, ...]
    modifiers: tuple[ModifierSpec, ...]
    column: ColumnSpec
    rows: Ladder
    cells: tuple[tuple[str, ...], ...]
    results: tuple[tuple[str, str], ...]
    follow_ups: tuple[FollowUp, ...]
    notes: tuple[str, ...] = ()
    words: dict[str, dict[str, str]] = field(default_factory=dict, compare=False)
    """Each language's words for the file's texts (``title_fr``...): language -> text ->
    its translation."""


def tested_at_once(terms: tuple[Term, ...]) -> bool:
    """Whether a test of this roll is one event that passes or fails (one term, added)."""
    return len(terms) == 1 and terms[0].sign > 0


def outcomes(terms: tuple[Term, ...], *, checked: bool = False) -> int:
    """The branches the exact odds walk for a roll: every total of every term (each term is
    its own event), or 2 for a test (``checked``) that is one event (:func:`tested_at_once`)."""
    if checked and tested_at_once(terms):
        return 2
    found = 1
    for term in terms:
        found *= term.count * (term.sides - 1) + 1
    return found


def dice_spec(text: object, place: Place) -> DiceSpec:
    """``1d6``, ``2d6``, ``1d10``, a sum (``1d6+1d6``) or a difference (``1d6-1d6``)."""
    expected = Said(
        N_(
            "dice written NdS (1d6, 2d6, 1d10), or up to {terms} such terms added or taken "
            "away (1d6+1d6, 1d6-1d6), N at most {dice}, S from 2 to {sides}"
        ),
        terms=MOST_TERMS,
        dice=MOST_DICE,
        sides=MOST_SIDES,
    )
    if not isinstance(text, str) or len(text) > 40:
        raise place.refuse(expected, text)
    parts = re.split(r"\s*([+-])\s*", text.strip())
    terms: list[Term] = []
    signs = ["+", *parts[1::2]]
    for sign, part in zip(signs, parts[::2], strict=True):
        match = _DICE.fullmatch(part)
        if match is None:
            raise place.refuse(expected, text)
        count, sides = int(match["count"]), int(match["sides"])
        if not 1 <= count <= MOST_DICE or not 2 <= sides <= MOST_SIDES:
            raise place.refuse(expected, text)
        terms.append(Term(1 if sign == "+" else -1, count, sides))
    if len(terms) > MOST_TERMS:
        raise place.refuse(expected, text)
    totals = outcomes(tuple(terms))
    if totals > MOST_TOTALS:
        most = Said(N_("at most {totals} totals over the terms' dice"), totals=MOST_TOTALS)
        raise place.refuse(most, text)
    return DiceSpec(text.strip(), tuple(terms))


_STEPS = {
    (True, False): N_(
        "each column one step of odds above the one before (… 1-2, 1-1, 2-1 …): "
        "a gap between {first} and {second}"
    ),
    (True, True): N_(
        "each column one step of odds above the one before (… 1-2, 1-1, 2-1 …): "
        "an overlap between {first} and {second}"
    ),
    (False, False): N_(
        "each band to begin just after the one before: a gap between {first} and {second}"
    ),
    (False, True): N_(
        "each band to begin just after the one before: an overlap between {first} and {second}"
    ),
}
"""What an axis's labels were expected to be, by whether they are odds ratios and whether two
of them overlap (else a gap is between them)."""


def ladder(table: Table, *, ratios: bool, below: Policy, above: Policy, header: str) -> Ladder:
    """An axis's labels as bands (or odds ratios), with no gap and no overlap."""
    labels = table.strings("labels", MOST_LABELS, longest=LONGEST_CODE)
    place = table.place.at("labels")
    if len(set(labels)) != len(labels):
        raise place.refuse(Said(N_("labels given once each")), labels)
    intervals: list[tuple[float, float]] = []
    for i, label in enumerate(labels):
        found: tuple[float, float] | None
        if ratios:
            step = ratio_step(label)
            found = None if step is None else (step, step)
            expected = Said(N_("an odds ratio written a-b, one side 1 (1-2, 1-1, 3-1)"))
        else:
            found = band(label)
            expected = Said(N_("a band: a number, 'a-b' (a up to b), 'n+' or '<=n'"))
        if found is None:
            raise place.at(i).refuse(expected, label)
        intervals.append(found)
    if not ratios:  # an open end only at either end
        for i, (low, high) in enumerate(intervals):
            if (low == float("-inf") and i > 0) or (high == float("inf") and i < len(labels) - 1):
                only = Said(N_("an open band ('<=n', 'n+') only at an end"))
                raise place.at(i).refuse(only, labels[i])
    wrong = gap_or_overlap(intervals)
    if wrong is not None:
        i, what = wrong
        message = _STEPS[ratios, what == "overlap"]
        expected = Said(message, first=repr(labels[i - 1]), second=repr(labels[i]))
        raise place.at(i).refuse(expected, labels[i])
    policies = {
        key: table.choice(key, ("clamp", "error"), default)
        for key, default in (("below", below), ("above", above))
    }
    return Ladder(
        header,
        labels,
        tuple(low for low, _ in intervals),
        tuple(high for _, high in intervals),
        "clamp" if policies["below"] == "clamp" else "error",
        "clamp" if policies["above"] == "clamp" else "error",
    )
