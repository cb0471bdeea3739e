"""Modifiers are values: what a rule changes, by how much, and which rule says so."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction


class ModifierKind(StrEnum):
    """How a modifier is applied."""

    FACTOR = "factor"
    """Multiplies an attack factor (EPT: x2 adjacent, x1/2 for each halving case)."""
    DICE = "dice"
    """Added to a dice roll before the chart is read."""
    COLUMN_SHIFT = "column_shift"
    """Moves the column read on a chart."""
    VALUE = "value"
    """Added to a value the chart is read with (a defense, an armour value), before the lookup."""


@dataclass(frozen=True, slots=True)
class Modifier:
    """One itemized modifier, as a player would read it off the chart.

    ``value`` is exact: an integer for dice and column shifts, a fraction for factors.
    """

    label: str
    value: Fraction
    kind: ModifierKind
    rule: str

    def display(self) -> str:
        """The value as printed on a chart: ``x2``, ``x1/2``, ``+1``, ``-2``."""
        if self.kind is ModifierKind.FACTOR:
            return f"x{self.value}"
        return f"{int(self.value):+d}" if self.value.denominator == 1 else str(self.value)

    def to_json(self) -> dict[str, str]:
        """The stable JSON shape: ``{"label", "value", "kind", "rule"}``; value as exact text."""
        return {
            "label": self.label,
            "value": str(self.value),
            "kind": self.kind.value,
            "rule": self.rule,
        }
