"""A WWII miniatures rule set with a percentile Defense/Firepower table (seed 004, title unknown).

``fire`` resolves fire against infantry: the target's defense (base, full cover, moving and the
printed defense modifiers) gives the row, the firer's firepower the column, two percentile dice
read 01-100 (00 is a hundred) against the cell's kill and suppression thresholds. Firepower
comes from the user's own "Infantry" capabilities and "HE Firepower" tables (``capabilities``;
an EXAMPLE file is shipped, and ``example_fire`` reads it). The charts are the TOML files in
``data/``. This package declares the rule set's metadata (:data:`INFO`) and imports nothing
else: the rule set itself is in :mod:`.ruleset`, and the names below are imported when first
asked for.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from firefight.rulesets.declared import ProcedureInfo
from firefight.rulesets.info import RuleSetInfo, lazy_attribute

if TYPE_CHECKING:
    from firefight.rulesets.percentile.capabilities import (
        EXAMPLE_CAPABILITIES,
        Capabilities,
        load_capabilities,
    )
    from firefight.rulesets.percentile.fire import FIRE, PercentileFire
    from firefight.rulesets.procedure import RuleSet

    RULESET: RuleSet  # imported from .ruleset when first asked for

PROCEDURES = (
    ProcedureInfo(
        "fire",
        "Fire against infantry (Defense/Firepower Table)",
        "firefight.rulesets.percentile.fire:FIRE",
    ),
    ProcedureInfo(
        "example_fire",
        "EXAMPLE data: fire with the shipped EXAMPLE capabilities (not the rulebook's values)",
        "firefight.rulesets.percentile.example:EXAMPLE_FIRE",
    ),
)
"""Each procedure's name, title and where it is: the rule set imports one when it is asked
for."""

INFO = RuleSetInfo.declare(
    PROCEDURES,
    id="percentile",
    title="Percentile Defense/Firepower",
    source="a WWII miniatures rule set's Defense/Firepower Table (title unknown)",
    target="firefight.rulesets.percentile.ruleset:RULESET",
    aliases=("defense-firepower", "seed004"),
    doc="docs/percentile.md",
)

_LAZY = {
    "RULESET": "ruleset",
    "FIRE": "fire",
    "PercentileFire": "fire",
    "EXAMPLE_CAPABILITIES": "capabilities",
    "Capabilities": "capabilities",
    "load_capabilities": "capabilities",
}


def __getattr__(name: str) -> object:
    return lazy_attribute(__name__, _LAZY, name)


__all__ = [
    "EXAMPLE_CAPABILITIES",
    "FIRE",
    "INFO",
    "PROCEDURES",
    "RULESET",
    "Capabilities",
    "PercentileFire",
    "load_capabilities",
]
