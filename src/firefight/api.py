"""What a rule set may import from firefight: the public API (docs/api.md).

A rule set, built in or a third party's, imports firefight's names from here: its contract
(:class:`RuleSet`, :class:`RuleSetInfo`, :class:`Procedure`), its input models, modifiers and
charts, the chance engine, the errors and the translation of what a player reads, and the
types of its optional hooks (engagements, data files, boards). Every other module of firefight
is private: its names may change without notice. Changing this list is a deliberate edit of
``tests/test_api.py``, which pins it.

Each name is imported from its own module the first time it is asked for (a module
``__getattr__``), so that a rule set's light metadata module, importing :class:`RuleSetInfo`
from here, imports neither the chance engine nor the board. The imports under
``TYPE_CHECKING`` give the names their types and the import graph its arrows
(``tests/test_imports.py``); ``_WHERE`` is where each is imported from at run time.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from firefight.board.board import Board, TerrainVocabulary
    from firefight.board.cells import BoardCells
    from firefight.board.hexes import Hex
    from firefight.board.hexline import Bools, Ints
    from firefight.board.line_record import Corner, LineRecord, StepRecord
    from firefight.board.los import Hindrance, LosPolicy, LosReasons, LosVerdict, line_of_sight
    from firefight.board.sight_rule import (
        Accumulators,
        Facts,
        Fold,
        Judgement,
        LineEnds,
        SightRule,
        StepWindow,
    )
    from firefight.chance import D6, D10, TWO_D6
    from firefight.chance.asked import choose
    from firefight.chance.distribution import Distribution
    from firefight.chance.evaluate import exact, sample, scripted, spend
    from firefight.chance.events import Deck, Dice, binomial
    from firefight.chance.phases import Phases
    from firefight.chance.process import Process
    from firefight.chance.protocol import Chance, Resolution, TraceEvent
    from firefight.chance.runs import ProcessResolution
    from firefight.core.chart import Cell, Chart, load_chart
    from firefight.core.inputs import NamedFile, RuleInput, validate
    from firefight.core.modifier import Modifier, ModifierKind
    from firefight.errors import ChartError, FirefightError, InputError, RuleError, one_of, quoted
    from firefight.i18n import N_, _, ngettext
    from firefight.rulesets.datafile import DataFile, Kept
    from firefight.rulesets.declared import ProcedureInfo
    from firefight.rulesets.engagement import EngagementRules, Order
    from firefight.rulesets.fire_feed import BoardFire, Filled, FireInputs, NoOptions
    from firefight.rulesets.info import RuleSetInfo, lazy_attribute
    from firefight.rulesets.procedure import Procedure, Procedures, RuleSet, deferred
    from firefight.rulesets.severity import Severity, ranked
    from firefight.rulesets.worked_example import WorkedExample

_MODULES: dict[str, tuple[str, ...]] = {
    "firefight.board.board": ("Board", "TerrainVocabulary"),
    "firefight.board.hexes": ("Hex",),
    "firefight.board.los": ("Hindrance", "LosPolicy", "LosReasons", "LosVerdict", "line_of_sight"),
    "firefight.board.cells": ("BoardCells",),
    "firefight.board.hexline": ("Bools", "Ints"),
    "firefight.board.line_record": ("Corner", "LineRecord", "StepRecord"),
    "firefight.board.sight_rule": (
        "Accumulators",
        "Facts",
        "Fold",
        "Judgement",
        "LineEnds",
        "SightRule",
        "StepWindow",
    ),
    "firefight.chance": ("D6", "D10", "TWO_D6"),
    "firefight.chance.asked": ("choose",),
    "firefight.chance.distribution": ("Distribution",),
    "firefight.chance.evaluate": ("exact", "sample", "scripted", "spend"),
    "firefight.chance.events": ("Deck", "Dice", "binomial"),
    "firefight.chance.phases": ("Phases",),
    "firefight.chance.process": ("Process",),
    "firefight.chance.protocol": ("Chance", "Resolution", "TraceEvent"),
    "firefight.chance.runs": ("ProcessResolution",),
    "firefight.core.chart": ("Cell", "Chart", "load_chart"),
    "firefight.core.inputs": ("NamedFile", "RuleInput", "validate"),
    "firefight.core.modifier": ("Modifier", "ModifierKind"),
    "firefight.errors": (
        "ChartError",
        "FirefightError",
        "InputError",
        "RuleError",
        "one_of",
        "quoted",
    ),
    "firefight.i18n": ("N_", "_", "ngettext"),
    "firefight.rulesets.datafile": ("DataFile", "Kept"),
    "firefight.rulesets.engagement": ("EngagementRules", "Order"),
    "firefight.rulesets.fire_feed": ("BoardFire", "Filled", "FireInputs", "NoOptions"),
    "firefight.rulesets.declared": ("ProcedureInfo",),
    "firefight.rulesets.info": ("RuleSetInfo", "lazy_attribute"),
    "firefight.rulesets.procedure": ("Procedure", "Procedures", "RuleSet", "deferred"),
    "firefight.rulesets.worked_example": ("WorkedExample",),
    "firefight.rulesets.severity": ("Severity", "ranked"),
}
"""The module each public name is imported from, as the ``TYPE_CHECKING`` block says."""

_WHERE: dict[str, str] = {name: module for module, names in _MODULES.items() for name in names}
"""Public name -> the module it is imported from."""


def __getattr__(name: str) -> object:
    """A public name, imported from its module the first time it is asked for."""
    module = _WHERE.get(name)
    if module is None:
        msg = f"module {__name__!r} has no attribute {name!r}"
        raise AttributeError(msg)
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The public names (and the module's own)."""
    return sorted({*globals(), *__all__})


__all__ = [
    "D6",
    "D10",
    "N_",
    "TWO_D6",
    "Accumulators",
    "Board",
    "BoardCells",
    "BoardFire",
    "Bools",
    "Cell",
    "Chance",
    "Chart",
    "ChartError",
    "Corner",
    "DataFile",
    "Deck",
    "Dice",
    "Distribution",
    "EngagementRules",
    "Facts",
    "Filled",
    "FireInputs",
    "FirefightError",
    "Fold",
    "Hex",
    "Hindrance",
    "InputError",
    "Ints",
    "Judgement",
    "Kept",
    "LineEnds",
    "LineRecord",
    "LosPolicy",
    "LosReasons",
    "LosVerdict",
    "Modifier",
    "ModifierKind",
    "NamedFile",
    "NoOptions",
    "Order",
    "Phases",
    "Procedure",
    "ProcedureInfo",
    "Procedures",
    "Process",
    "ProcessResolution",
    "Resolution",
    "RuleError",
    "RuleInput",
    "RuleSet",
    "RuleSetInfo",
    "Severity",
    "SightRule",
    "StepRecord",
    "StepWindow",
    "TerrainVocabulary",
    "TraceEvent",
    "WorkedExample",
    "_",
    "binomial",
    "choose",
    "deferred",
    "exact",
    "lazy_attribute",
    "line_of_sight",
    "load_chart",
    "ngettext",
    "one_of",
    "quoted",
    "ranked",
    "sample",
    "scripted",
    "spend",
    "validate",
]
