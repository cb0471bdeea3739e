"""The En Pointe Toujours ! rule set: the procedures of each part of the chart sheet, declared
in :data:`firefight.rulesets.ept.PROCEDURES` (each imported from its module when asked for),
its engagement rules, sight, boards' fire and worked example (each imported when first read)
and the charts in ``data/``; :data:`firefight.rulesets.ept.INFO` says what it is without
importing them."""

from __future__ import annotations

from firefight.rulesets.ept import PROCEDURES
from firefight.rulesets.ept.paths import DATA
from firefight.rulesets.procedure import Procedures, RuleSet, deferred

RULESET = RuleSet(
    id="ept",
    title="En Pointe Toujours ! (EPT II)",
    source="En Pointe Toujours II charts and tables, Vae Victis 31 & 32",
    procedures=Procedures(*PROCEDURES),
    aliases=("en-pointe-toujours", "eptii"),
    featured=("fire", "at_fire", "artillery_mission", "assault"),
    severity=deferred("firefight.rulesets.ept.severity:SEVERITY"),
    data=DATA,
    doc="docs/ept.md",
    engagement=deferred("firefight.rulesets.ept.engagement:EptEngagement"),
    scenarios=DATA / "engagements",
    sight=deferred("firefight.rulesets.ept.board:EPT_LOS"),
    board_fire=deferred("firefight.rulesets.ept.board_fire:BOARD_FIRE"),
    boards=DATA / "boards",
    example=deferred("firefight.rulesets.ept.example:WORKED_EXAMPLE"),
    rulebook_language="fr",
)

__all__ = ["RULESET"]
