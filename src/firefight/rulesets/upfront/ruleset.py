"""The Up Front rule set: the flow charts' procedures, page by page, and the data in
``data/``; :data:`firefight.rulesets.upfront.INFO` says what it is without importing them."""

from __future__ import annotations

from firefight.rulesets.procedure import Procedures, RuleSet, deferred
from firefight.rulesets.upfront import PROCEDURES
from firefight.rulesets.upfront.files import FILES
from firefight.rulesets.upfront.paths import DATA

RULESET = RuleSet(
    id="upfront",
    title="Up Front (card game: flow charts over your deck, odds over the unseen cards)",
    source="Richard Irving, Up Front flow charts v1.0 (2017); Avalon Hill, 1983",
    procedures=Procedures(*PROCEDURES),
    aliases=("up-front",),
    featured=("fire", "infiltration", "close_combat"),
    card_views=deferred("firefight.rulesets.upfront.cardview:CARD_VIEWS"),
    severity=deferred("firefight.rulesets.upfront.severity:SEVERITY"),
    data=DATA,
    doc="docs/upfront.md",
    files=FILES,
    actions=deferred("firefight.rulesets.upfront.advise_answer:ACTIONS"),
)

__all__ = ["RULESET"]
