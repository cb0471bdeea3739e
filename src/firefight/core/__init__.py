"""Shared value types: modifiers, chart lookup, the input models and reading files.

Outcome distributions are the chance engine's (:mod:`firefight.chance.distribution`). The
names below are imported from their modules the first time they are asked for (PEP 562), so
that a module reading files (:mod:`.files`) loads no chart."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from firefight.core.chart import Axis, Cell, Chart, load_chart
    from firefight.core.modifier import Modifier, ModifierKind

_LAZY = {
    "Axis": "chart",
    "Cell": "chart",
    "Chart": "chart",
    "load_chart": "chart",
    "Modifier": "modifier",
    "ModifierKind": "modifier",
}


def __getattr__(name: str) -> object:
    if name not in _LAZY:
        msg = f"module {__name__!r} has no attribute {name!r}"
        raise AttributeError(msg)
    return getattr(import_module(f"{__name__}.{_LAZY[name]}"), name)


__all__ = ["Axis", "Cell", "Chart", "Modifier", "ModifierKind", "load_chart"]
