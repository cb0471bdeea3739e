"""The Valor & Victory rule set: the procedures of each chapter of the combat rules and the
charts in ``data/``; :data:`firefight.rulesets.vv.INFO` says what it is without importing
them."""

from __future__ import annotations

from firefight.rulesets.procedure import Procedures, RuleSet, deferred
from firefight.rulesets.vv import PROCEDURES
from firefight.rulesets.vv.paths import DATA

RULESET = RuleSet(
    id="vv",
    title="Valor & Victory",
    source="Valor & Victory combat rules; V&V Standard Game Rules",
    procedures=Procedures(*PROCEDURES),
    aliases=("valor-and-victory",),
    featured=("ap_attack", "at_attack", "close_assault", "rally"),
    severity=deferred("firefight.rulesets.vv.severity:SEVERITY"),
    data=DATA,
    doc="docs/vv.md",
    engagement=deferred("firefight.rulesets.vv.engagement:VvEngagement"),
    scenarios=DATA / "engagements",
    sight=deferred("firefight.rulesets.vv.board:VV_LOS"),
    board_fire=deferred("firefight.rulesets.vv.board_fire:BOARD_FIRE"),
    boards=DATA / "boards",
    actions=deferred("firefight.rulesets.vv.actions:ACTIONS"),
)

__all__ = ["RULESET"]
