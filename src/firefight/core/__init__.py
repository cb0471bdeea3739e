"""Shared value types: modifiers, chart lookup, the input models and reading files.

Outcome distributions are the chance engine's (:mod:`firefight.chance.distribution`)."""

from firefight.core.chart import Axis, Cell, Chart, load_chart
from firefight.core.modifier import Modifier, ModifierKind

__all__ = ["Axis", "Cell", "Chart", "Modifier", "ModifierKind", "load_chart"]
