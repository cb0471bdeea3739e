"""The En Pointe Toujours ! rule set: the procedures of each part of the chart sheet (each
module's ``PROCEDURES``) and the charts in ``data/``; :data:`firefight.rulesets.ept.INFO`
says what it is without importing them."""

from __future__ import annotations

from firefight.rulesets.ept import (
    antitank,
    artillery,
    assault,
    command,
    observation,
    terrain,
    vehicles,
)
from firefight.rulesets.ept import fire as fire_combat
from firefight.rulesets.ept.board import EPT_LOS
from firefight.rulesets.ept.board_fire import BOARD_FIRE
from firefight.rulesets.ept.engagement import EptEngagement
from firefight.rulesets.ept.example import WORKED_EXAMPLE
from firefight.rulesets.ept.paths import DATA
from firefight.rulesets.procedure import RuleSet

RULESET = RuleSet(
    id="ept",
    title="En Pointe Toujours ! (EPT II)",
    source="En Pointe Toujours II charts and tables, Vae Victis 31 & 32",
    procedures=(
        *fire_combat.PROCEDURES,
        *antitank.PROCEDURES,
        *assault.PROCEDURES,
        *command.PROCEDURES,
        *artillery.PROCEDURES,
        *vehicles.PROCEDURES,
        *terrain.PROCEDURES,
        *observation.PROCEDURES,
    ),
    aliases=("en-pointe-toujours", "eptii"),
    featured=("fire", "at_fire", "artillery_mission", "assault"),
    data=DATA,
    doc="docs/ept.md",
    engagement=EptEngagement,
    scenarios=DATA / "engagements",
    sight=EPT_LOS,
    board_fire=BOARD_FIRE,
    boards=DATA / "boards",
    example=WORKED_EXAMPLE,
    rulebook_language="fr",
)

__all__ = ["RULESET"]
