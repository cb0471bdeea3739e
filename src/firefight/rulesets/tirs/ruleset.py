"""The "Les tirs" rule set: its procedures (fire, precision, split) and the charts in
``data/``; :data:`firefight.rulesets.tirs.INFO` says what it is without importing them."""

from __future__ import annotations

from firefight.rulesets.procedure import Procedures, RuleSet, deferred
from firefight.rulesets.tirs import PROCEDURES
from firefight.rulesets.tirs.paths import DATA

RULESET = RuleSet(
    id="tirs",
    title="Les tirs (French WWII miniatures, direct fire)",
    source="a French WWII miniatures rule set, chapter 'Les tirs' (title unknown)",
    procedures=Procedures(*PROCEDURES),
    aliases=("les-tirs",),
    featured=("fire", "precision"),
    severity=deferred("firefight.rulesets.tirs.severity:SEVERITY"),
    data=DATA,
    doc="docs/tirs.md",
    engagement=deferred("firefight.rulesets.tirs.engagement:TirsEngagement"),
    scenarios=DATA / "engagements",
    rulebook_language="fr",
)

__all__ = ["RULESET"]
