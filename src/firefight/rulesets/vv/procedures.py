"""The rule set's procedures as declared (name, title and module), read by its metadata
(:data:`firefight.rulesets.vv.INFO`) and the rule set alike; each module holding them is
imported when one of its procedures is asked for. Imports nothing heavy."""

from __future__ import annotations

from firefight.rulesets.declared import ProcedureInfo

PROCEDURES = (
    ProcedureInfo(
        "ap_attack",
        "AP attack (14.5)",
        "firefight.rulesets.vv.ap:AP_ATTACK",
    ),
    ProcedureInfo(
        "ap_attack_hex",
        "AP attack on a hex, CPs applied (14.5, 14.6)",
        "firefight.rulesets.vv.casualties:AP_ATTACK_HEX",
    ),
    ProcedureInfo(
        "apply_casualties",
        "Casualty Points applied by the defending player (14.6)",
        "firefight.rulesets.vv.casualties:APPLY_CASUALTIES",
    ),
    ProcedureInfo(
        "sniper_attack_hex",
        "Sniper attack on a hex, CPs applied, elimination check (17.5, 14.6, 17.6)",
        "firefight.rulesets.vv.casualties:SNIPER_ATTACK_HEX",
    ),
    ProcedureInfo(
        "at_attack",
        "AT attack: to-hit, elimination, abandonment (V&V 18.3-18.6)",
        "firefight.rulesets.vv.at:AT_ATTACK",
    ),
    ProcedureInfo(
        "close_assault",
        "Close assault (V&V 15)",
        "firefight.rulesets.vv.assault:CLOSE_ASSAULT",
    ),
    ProcedureInfo(
        "valor",
        "Valor check (16.2)",
        "firefight.rulesets.vv.valor:VALOR",
    ),
    ProcedureInfo(
        "rally",
        "After-Action Phase rally attempt (14.8)",
        "firefight.rulesets.vv.support:RALLY",
    ),
    ProcedureInfo(
        "artillery_placement",
        "Support mission placement and scatter (21.4)",
        "firefight.rulesets.vv.support:ARTILLERY_PLACEMENT",
    ),
    ProcedureInfo(
        "artillery_vs_afv",
        "Artillery barrage or fighter-bomber against an AFV (21.5)",
        "firefight.rulesets.vv.support:ARTILLERY_VS_AFV",
    ),
    ProcedureInfo(
        "minefield",
        "Minefield attack (20.7)",
        "firefight.rulesets.vv.support:MINEFIELD",
    ),
    ProcedureInfo(
        "sniper_attack",
        "Sniper attack (17.5)",
        "firefight.rulesets.vv.support:SNIPER_ATTACK",
    ),
    ProcedureInfo(
        "sniper_elimination",
        "Sniper Elimination Check (17.6)",
        "firefight.rulesets.vv.support:SNIPER_ELIMINATION",
    ),
    ProcedureInfo(
        "fire_lane_attack",
        "Fire lane attack (13.9, 13.91)",
        "firefight.rulesets.vv.lane_attack:FIRE_LANE_ATTACK",
    ),
    ProcedureInfo(
        "overrun_attack",
        "Armor overrun attack (19.4)",
        "firefight.rulesets.vv.overrun:OVERRUN_ATTACK",
    ),
    ProcedureInfo(
        "final_opportunity_fire",
        "Final Opportunity Fire at an overrunning AFV's rear armour (19.2)",
        "firefight.rulesets.vv.overrun:FINAL_OPPORTUNITY_FIRE",
    ),
)
"""Each procedure's name, title and where it is: the rule set imports one when it is asked
for."""
