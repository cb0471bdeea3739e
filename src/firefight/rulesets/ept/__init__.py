"""En Pointe Toujours ! (EPT II, Vae Victis 31-32), seed 000: charts and tables."""

from __future__ import annotations

from firefight.rulesets.ept.fire import (
    CHART_CODES,
    DATA,
    MORALE_OUTCOMES,
    EptFire,
    facts,
    fire,
    modifiers,
)
from firefight.rulesets.procedure import Procedure, RuleSet

FIRE: Procedure[EptFire] = Procedure(
    name="fire",
    title="Fire combat (MODIFICATEURS DE TIR, TABLE DE COMBAT)",
    input_model=EptFire,
    rule=fire,
    modifiers=modifiers,
    chart="combat",
    outcome_order=CHART_CODES + MORALE_OUTCOMES,
    facts=facts,
)

RULESET = RuleSet(
    id="ept",
    title="En Pointe Toujours ! (EPT II)",
    source="seed 000: En Pointe Toujours II charts and tables, Vae Victis 31 & 32",
    procedures=(FIRE,),  # type: ignore[arg-type]
    aliases=("en-pointe-toujours", "eptii"),
    data=DATA,
    doc="docs/ept.md",
)

__all__ = ["FIRE", "RULESET", "EptFire"]
