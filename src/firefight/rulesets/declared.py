"""A procedure declared before its code is imported: :class:`ProcedureInfo`. This module
imports nothing of firefight: both the rule sets' metadata (:mod:`.info`) and the rule sets
themselves (:mod:`.procedure`) read it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ProcedureInfo:
    """A procedure known by its name and title before its module is imported: ``target`` is
    ``"package.module:ATTRIBUTE"`` of the :class:`~firefight.rulesets.procedure.Procedure`.

    A rule set declares its procedures so (``procedures=Procedures(*infos)``,
    :class:`~firefight.rulesets.procedure.Procedures`): asking for one imports its module
    alone, and the names and titles are read without importing any. The game's metadata
    (:class:`RuleSetInfo`) is made from the same declarations (:meth:`RuleSetInfo.declare`)."""

    name: str
    title: str
    target: str
