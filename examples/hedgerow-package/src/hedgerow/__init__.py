"""Hedgerow Skirmish, an invented hex wargame: fire on the Fire Chart (2d6 against the
firepower column) and rally (1d6 against morale), a line of sight through scrub, woods and
hedges, and an engagement between two sides.

This module is what the entry point names: the rule set's metadata and its procedures'
declarations, importing nothing else (``firefight rulesets`` reads these alone). The rule set
itself is in :mod:`hedgerow.ruleset`.
"""

from __future__ import annotations

from firefight.api import ProcedureInfo, RuleSetInfo

TITLE = "Hedgerow Skirmish"
SOURCE = "Hedgerow Skirmish rules, section 4 (an invented game: firefight's package example)"

PROCEDURES = (
    ProcedureInfo("fire", "Fire (Fire Chart)", "hedgerow.fire:FIRE"),
    ProcedureInfo("rally", "Rally a pinned unit", "hedgerow.rally:RALLY"),
)
"""Each procedure's name, title and where it is: imported when it is asked for."""

INFO = RuleSetInfo.declare(
    PROCEDURES,
    id="hedgerow",
    title=TITLE,
    source=SOURCE,
    target="hedgerow.ruleset:RULESET",
    aliases=("hs",),
)
"""The rule set's metadata: what the ``firefight.rulesets`` entry point names."""
