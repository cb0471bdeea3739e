"""The rule set's procedures as declared (name, title and module), read by its metadata
(:data:`firefight.rulesets.upfront.INFO`) and the rule set alike; each module holding them is
imported when one of its procedures is asked for. Imports nothing heavy."""

from __future__ import annotations

from firefight.rulesets.declared import ProcedureInfo

PROCEDURES = (
    ProcedureInfo(
        "fire",
        "Firepower attack (page 1) and resolution on each man (page 3) or on an AFV (page 4)",
        "firefight.rulesets.upfront.fire:FIRE",
    ),
    ProcedureInfo(
        "resolution",
        "Fire/Ordnance Resolution on each man, at a given FFS (page 3)",
        "firefight.rulesets.upfront.fire:RESOLUTION",
    ),
    ProcedureInfo(
        "range",
        "Relative Range from the range chits",
        "firefight.rulesets.upfront.ranges:RANGE",
    ),
    ProcedureInfo(
        "hand",
        "Hand size and discards by nationality",
        "firefight.rulesets.upfront.ranges:HAND",
    ),
    ProcedureInfo(
        "ordnance",
        "Ordnance Attacks: To Hit, then resolution on each man or on the AFV (pages 2-4)",
        "firefight.rulesets.upfront.ordnance:ORDNANCE",
    ),
    ProcedureInfo(
        "afv",
        "AFV Unboxed / Boxed Resolution (page 4)",
        "firefight.rulesets.upfront.afv:AFV",
    ),
    ProcedureInfo(
        "artillery",
        "Artillery (RADIO) attack (page 5) and resolution on each man (page 3)",
        "firefight.rulesets.upfront.artillery:ARTILLERY",
    ),
    ProcedureInfo(
        "demolition",
        "Demolition Charge attack (page 5) and resolution on each man (page 3)",
        "firefight.rulesets.upfront.artillery:DEMOLITION",
    ),
    ProcedureInfo(
        "malfunction",
        "Firepower weapon malfunction (page 6)",
        "firefight.rulesets.upfront.malfunction:MALFUNCTION",
    ),
    ProcedureInfo(
        "overrun",
        "Overrun attack: OVR + RNC, resolution on each man, adverse effects (page 7)",
        "firefight.rulesets.upfront.overrun:OVERRUN",
    ),
    ProcedureInfo(
        "infiltration",
        "Infiltration attempt: infiltrate on a red RPN under the count's column (page 8)",
        "firefight.rulesets.upfront.closecombat:INFILTRATION",
    ),
    ProcedureInfo(
        "close_combat",
        "Close combat vs. infantry: CCV + RNC each, low total KIA, ties both KIA (page 8)",
        "firefight.rulesets.upfront.closecombat:CLOSE_COMBAT",
    ),
    ProcedureInfo(
        "close_combat_afv",
        "Close combat vs. AFV: RNC + modifiers, <=0 / 1-5 / 6 / >=7 (page 8)",
        "firefight.rulesets.upfront.closecombat:CLOSE_COMBAT_AFV",
    ),
    ProcedureInfo(
        "morale_check",
        "Morale check: each man draws an RNC, RN <= morale passes (page 8)",
        "firefight.rulesets.upfront.closecombat:MORALE_CHECK",
    ),
)
"""Each procedure's name, title and where it is: the rule set imports one when it is asked
for."""
