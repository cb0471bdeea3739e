"""En Pointe Toujours ! (EPT II, Vae Victis 31-32), seed 000: charts and tables."""

from __future__ import annotations

from firefight.rulesets.ept import fire as fire_combat
from firefight.rulesets.ept.fire import EptFire
from firefight.rulesets.procedure import Procedure, RuleSet

FIRE: Procedure[EptFire] = Procedure(
    name="fire",
    title="Fire combat (MODIFICATEURS DE TIR, TABLE DE COMBAT)",
    input_model=EptFire,
    rule=fire_combat.fire,
    modifiers=fire_combat.modifiers,
    chart="combat",
    outcome_order=fire_combat.CHART_CODES + fire_combat.MORALE_OUTCOMES,
    facts=fire_combat.facts,
)

RULESET = RuleSet(
    id="ept",
    title="En Pointe Toujours ! (EPT II)",
    source="seed 000: En Pointe Toujours II charts and tables, Vae Victis 31 & 32",
    procedures=(FIRE,),  # type: ignore[arg-type]
    aliases=("en-pointe-toujours", "eptii"),
    data=fire_combat.DATA,
    doc="docs/ept.md",
)

__all__ = ["FIRE", "RULESET", "EptFire"]
