"""The percentile Defense/Firepower rule set: its procedures (fire, and fire over the example
capabilities) and the charts in ``data/``; :data:`firefight.rulesets.percentile.INFO` says
what it is without importing them."""

from __future__ import annotations

from firefight.rulesets.percentile import PROCEDURES
from firefight.rulesets.percentile.paths import DATA
from firefight.rulesets.procedure import Procedures, RuleSet, deferred

RULESET = RuleSet(
    id="percentile",
    title="Percentile Defense/Firepower",
    source="a WWII miniatures rule set's Defense/Firepower Table (title unknown)",
    procedures=Procedures(*PROCEDURES),
    aliases=("defense-firepower", "seed004"),
    featured=("fire",),
    severity=deferred("firefight.rulesets.percentile.severity:SEVERITY"),
    data=DATA,
    doc="docs/percentile.md",
    engagement=deferred("firefight.rulesets.percentile.engagement:PercentileEngagement"),
    scenarios=DATA / "engagements",
)

__all__ = ["RULESET"]
