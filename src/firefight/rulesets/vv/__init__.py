"""Valor & Victory (seed 003 and the rulebook chapters in shared/research/valor-and-victory).

Each module holds the procedures of one chapter of the combat rules and lists them in its
``PROCEDURES``; the charts are the TOML files in ``data/``. The board rules (line of sight)
are in :mod:`firefight.rulesets.vv.board`. This package declares the rule set's metadata
(:data:`INFO`) and where its charts are (:data:`DATA`), and imports nothing else: the rule set
itself is in :mod:`.ruleset`, and ``RULESET`` is imported when first asked for.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from firefight.rulesets.info import RuleSetInfo, lazy_attribute

if TYPE_CHECKING:
    from firefight.rulesets.vv.paths import DATA
    from firefight.rulesets.vv.ruleset import RULESET


INFO = RuleSetInfo(
    id="vv",
    title="Valor & Victory",
    source="Valor & Victory combat rules; V&V Standard Game Rules",
    target="firefight.rulesets.vv.ruleset:RULESET",
    aliases=("valor-and-victory",),
    doc="docs/vv.md",
    procedures=(
        "ap_attack",
        "ap_attack_hex",
        "apply_casualties",
        "sniper_attack_hex",
        "at_attack",
        "close_assault",
        "valor",
        "rally",
        "artillery_placement",
        "artillery_vs_afv",
        "minefield",
        "sniper_attack",
        "sniper_elimination",
        "fire_lane_attack",
        "overrun_attack",
        "final_opportunity_fire",
    ),
    procedure_titles=(
        "AP attack (14.5)",
        "AP attack on a hex, CPs applied (14.5, 14.6)",
        "Casualty Points applied by the defending player (14.6)",
        "Sniper attack on a hex, CPs applied, elimination check (17.5, 14.6, 17.6)",
        "AT attack: to-hit, elimination, abandonment (V&V 18.3-18.6)",
        "Close assault (V&V 15)",
        "Valor check (16.2)",
        "After-Action Phase rally attempt (14.8)",
        "Support mission placement and scatter (21.4)",
        "Artillery barrage or fighter-bomber against an AFV (21.5)",
        "Minefield attack (20.7)",
        "Sniper attack (17.5)",
        "Sniper Elimination Check (17.6)",
        "Fire lane attack (13.9, 13.91)",
        "Armor overrun attack (19.4)",
        "Final Opportunity Fire at an overrunning AFV's rear armour (19.2)",
    ),
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


__all__ = ["DATA", "INFO", "RULESET"]
