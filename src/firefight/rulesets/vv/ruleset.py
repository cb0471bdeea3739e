"""The Valor & Victory rule set: the procedures of each chapter of the combat rules and the
charts in ``data/``; :data:`firefight.rulesets.vv.INFO` says what it is without importing
them."""

from __future__ import annotations

from firefight.rulesets.procedure import RuleSet
from firefight.rulesets.vv import (
    actions,
    ap,
    assault,
    at,
    casualties,
    lane_attack,
    overrun,
    sniper_hex,
    support,
    valor,
)
from firefight.rulesets.vv.board import VV_LOS
from firefight.rulesets.vv.board_fire import BOARD_FIRE
from firefight.rulesets.vv.engagement import VvEngagement
from firefight.rulesets.vv.paths import DATA

RULESET = RuleSet(
    id="vv",
    title="Valor & Victory",
    source="Valor & Victory combat rules; V&V Standard Game Rules",
    procedures=(
        *ap.PROCEDURES,
        *casualties.PROCEDURES,
        *sniper_hex.PROCEDURES,
        *at.PROCEDURES,
        *assault.PROCEDURES,
        *valor.PROCEDURES,
        *support.PROCEDURES,
        *lane_attack.PROCEDURES,
        *overrun.PROCEDURES,
    ),
    aliases=("valor-and-victory",),
    featured=("ap_attack", "at_attack", "close_assault", "rally"),
    data=DATA,
    doc="docs/vv.md",
    engagement=VvEngagement,
    scenarios=DATA / "engagements",
    sight=VV_LOS,
    board_fire=BOARD_FIRE,
    boards=DATA / "boards",
    actions=actions.ACTIONS,
)

__all__ = ["RULESET"]
