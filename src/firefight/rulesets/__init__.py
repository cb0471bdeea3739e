"""Rule sets: one package per game, each with its charts as data and its procedures."""

from firefight.rulesets.procedure import Procedure, RuleSet
from firefight.rulesets.registry import register, ruleset, rulesets

__all__ = ["Procedure", "RuleSet", "register", "ruleset", "rulesets"]
