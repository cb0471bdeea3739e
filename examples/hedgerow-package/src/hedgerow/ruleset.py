"""The Hedgerow Skirmish rule set: its procedures, charts, severities and hooks."""

from __future__ import annotations

from pathlib import Path

from firefight.api import Procedures, RuleSet, deferred, ranked
from hedgerow import PROCEDURES, SOURCE, TITLE

DATA = Path(__file__).parent / "data"

RULESET = RuleSet(
    id="hedgerow",
    title=TITLE,
    source=SOURCE,
    procedures=Procedures(*PROCEDURES),
    aliases=("hs",),
    data=DATA,
    featured=("fire",),
    severity={"fire": ranked("-", "P", "K"), "rally": ranked("rallied", "pinned")},
    engagement=deferred("hedgerow.engagement:HedgerowEngagement"),
    scenarios=DATA / "engagements",
    sight=deferred("hedgerow.sight:HEDGEROW_LOS"),
)
