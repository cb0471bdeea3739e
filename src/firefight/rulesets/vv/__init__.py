"""Valor & Victory (seed 003 and the rulebook chapters in shared/research/valor-and-victory).

Each module holds the procedures of one chapter of the combat rules and lists them in its
``PROCEDURES``; the charts are the TOML files in ``data/``. The board rules (line of sight)
are in :mod:`firefight.rulesets.vv.board`. This package declares the rule set's metadata
(:data:`INFO`) and where its charts are (:data:`DATA`), and imports nothing else: the rule set
itself is in :mod:`.ruleset`, and ``RULESET`` is imported when first asked for.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from firefight.rulesets.declared import ProcedureInfo
from firefight.rulesets.info import RuleSetInfo, lazy_attribute

if TYPE_CHECKING:
    from firefight.rulesets.procedure import RuleSet
    from firefight.rulesets.vv.paths import DATA

    RULESET: RuleSet  # imported from .ruleset when first asked for


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
        "firefight.rulesets.vv.sniper_hex:SNIPER_ATTACK_HEX",
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

INFO = RuleSetInfo.declare(
    PROCEDURES,
    id="vv",
    title="Valor & Victory",
    source="Valor & Victory combat rules; V&V Standard Game Rules",
    target="firefight.rulesets.vv.ruleset:RULESET",
    aliases=("valor-and-victory",),
    doc="docs/vv.md",
    actions=(
        (
            "move",
            "A V&V stack's move under opportunity fire: exact odds along the path, or one move.",
        ),
        (
            "threat",
            "Where the enemy can fire on a side's units as they move, and how likely a pin is.",
        ),
    ),
)

_LAZY = {"RULESET": "ruleset", "DATA": "paths"}


def __getattr__(name: str) -> object:
    return lazy_attribute(__name__, _LAZY, name)


__all__ = ["DATA", "INFO", "PROCEDURES", "RULESET"]
