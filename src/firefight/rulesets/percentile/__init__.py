"""A WWII miniatures rule set with a percentile Defense/Firepower table (seed 004, title unknown).

``fire`` resolves fire against infantry: the target's defense (base, full cover, moving and the
printed defense modifiers) gives the row, the firer's firepower the column, two percentile dice
read 01-100 (00 is a hundred) against the cell's kill and suppression thresholds. Firepower
comes from the user's own "Infantry" capabilities and "HE Firepower" tables (``capabilities``;
an EXAMPLE file is shipped, and ``example_fire`` reads it). The charts are the TOML files in
``data/``.
"""

from __future__ import annotations

from firefight.rulesets.percentile import example
from firefight.rulesets.percentile import fire as fire_combat
from firefight.rulesets.percentile.capabilities import (
    EXAMPLE_CAPABILITIES,
    Capabilities,
    load_capabilities,
)
from firefight.rulesets.percentile.engagement import PercentileEngagement
from firefight.rulesets.percentile.fire import FIRE, PercentileFire
from firefight.rulesets.percentile.paths import DATA
from firefight.rulesets.procedure import RuleSet

RULESET = RuleSet(
    id="percentile",
    title="Percentile Defense/Firepower",
    source="a WWII miniatures rule set's Defense/Firepower Table (title unknown)",
    procedures=(*fire_combat.PROCEDURES, *example.PROCEDURES),
    aliases=("defense-firepower", "seed004"),
    data=DATA,
    doc="docs/percentile.md",
    engagement=PercentileEngagement,
    scenarios=DATA / "engagements",
)

__all__ = [
    "EXAMPLE_CAPABILITIES",
    "FIRE",
    "RULESET",
    "Capabilities",
    "PercentileFire",
    "load_capabilities",
]
