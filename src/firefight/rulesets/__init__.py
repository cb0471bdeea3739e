"""Rule sets: one package per game, each with its charts as data and its procedures.

``Procedure`` and ``RuleSet`` are imported from :mod:`firefight.rulesets.procedure` the first
time they are asked for, so that finding a rule set's metadata (:mod:`.registry`,
:mod:`.info`) imports neither the chance engine nor the charts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from firefight.rulesets.info import RuleSetInfo, lazy_attribute
from firefight.rulesets.registry import infos, register, ruleset, rulesets

if TYPE_CHECKING:
    from firefight.rulesets.procedure import Procedure, RuleSet

_LAZY = {"Procedure": "procedure", "RuleSet": "procedure"}


def __getattr__(name: str) -> object:
    return lazy_attribute(__name__, _LAZY, name)


__all__ = [
    "Procedure",
    "RuleSet",
    "RuleSetInfo",
    "infos",
    "register",
    "ruleset",
    "rulesets",
]
