"""The percentile Defense/Firepower rule set: its procedures (fire, and fire over the example
capabilities) and the charts in ``data/``; :data:`firefight.rulesets.percentile.INFO` says
what it is without importing them."""

from __future__ import annotations

from firefight.rulesets.percentile import example
from firefight.rulesets.percentile import fire as fire_combat
from firefight.rulesets.percentile.engagement import PercentileEngagement
from firefight.rulesets.percentile.paths import DATA
from firefight.rulesets.procedure import RuleSet

RULESET = RuleSet(
    id="percentile",
    title="Percentile Defense/Firepower",
    source="a WWII miniatures rule set's Defense/Firepower Table (title unknown)",
    procedures=(*fire_combat.PROCEDURES, *example.PROCEDURES),
    aliases=("defense-firepower", "seed004"),
    featured=("fire",),
    data=DATA,
    doc="docs/percentile.md",
    engagement=PercentileEngagement,
    scenarios=DATA / "engagements",
)

__all__ = ["RULESET"]
