"""Shared value types: modifiers, outcome distributions and chart lookup."""

from firefight.core.chart import Axis, Cell, Chart, load_chart
from firefight.core.distribution import Distribution
from firefight.core.modifier import Modifier, ModifierKind

__all__ = ["Axis", "Cell", "Chart", "Distribution", "Modifier", "ModifierKind", "load_chart"]
