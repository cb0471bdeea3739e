"""En Pointe Toujours ! (EPT II, Vae Victis 31-32), seed 000: charts and tables.

Each module holds the procedures of one part of the chart sheet and lists them in its
``PROCEDURES``; the charts are the TOML files in ``data/``.
"""

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
from firefight.rulesets.ept.example import WORKED_EXAMPLE
from firefight.rulesets.ept.fire import FIRE, EptFire
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
    data=DATA,
    doc="docs/ept.md",
    sight=EPT_LOS,
    board_fire=BOARD_FIRE,
    boards=DATA / "boards",
    example=WORKED_EXAMPLE,
)

__all__ = ["FIRE", "RULESET", "EptFire"]
