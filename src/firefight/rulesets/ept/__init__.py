"""En Pointe Toujours ! (EPT II, Vae Victis 31-32), seed 000: charts and tables.

Each module holds the procedures of one part of the chart sheet and lists them in its
``PROCEDURES``; the charts are the TOML files in ``data/``. This package declares the rule
set's metadata (:data:`INFO`) and imports nothing else: the rule set itself is in
:mod:`.ruleset`, and ``RULESET``, ``FIRE`` and ``EptFire`` are imported when first asked for.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from firefight.rulesets.declared import ProcedureInfo
from firefight.rulesets.info import RuleSetInfo, lazy_attribute

if TYPE_CHECKING:
    from firefight.rulesets.ept.fire import FIRE, EptFire
    from firefight.rulesets.procedure import RuleSet

    RULESET: RuleSet  # imported from .ruleset when first asked for

PROCEDURES = (
    ProcedureInfo(
        "fire",
        "Fire combat (MODIFICATEURS DE TIR, TABLE DE COMBAT)",
        "firefight.rulesets.ept.fire:FIRE",
    ),
    ProcedureInfo(
        "at_to_hit",
        "Antitank to hit (TABLE DE TOUCHER ANTICHAR)",
        "firefight.rulesets.ept.antitank:AT_TO_HIT",
    ),
    ProcedureInfo(
        "at_fire",
        "Antitank fire, effect of a hit (TIRS ANTICHARS)",
        "firefight.rulesets.ept.antitank:AT_FIRE_PROCEDURE",
    ),
    ProcedureInfo(
        "at_shot",
        "Antitank shot: to hit, then effect (TABLE DE TOUCHER ANTICHAR, TIRS ANTICHARS)",
        "firefight.rulesets.ept.antitank:AT_SHOT",
    ),
    ProcedureInfo(
        "portable_at",
        "Fire of portable antitank weapons (TIR D'ARMES PORTATIVES ANTICHARS)",
        "firefight.rulesets.ept.antitank:PORTABLE_AT",
    ),
    ProcedureInfo(
        "panzerfaust_availability",
        "Panzerfaust availability (PF Availability)",
        "firefight.rulesets.ept.antitank:PANZERFAUST_AVAILABILITY",
    ),
    ProcedureInfo(
        "assault_initiative",
        "Assault: test of initiative (ASSAUT)",
        "firefight.rulesets.ept.assault:INITIATIVE_PROCEDURE",
    ),
    ProcedureInfo(
        "assault",
        "Assault (ASSAUT)",
        "firefight.rulesets.ept.assault:ASSAULT_PROCEDURE",
    ),
    ProcedureInfo(
        "activation",
        "Activation test (MODIFICATEURS D’ACTIVATION)",
        "firefight.rulesets.ept.command:ACTIVATION_PROCEDURE",
    ),
    ProcedureInfo(
        "adjunct",
        "PC replacement (ADJOINTS)",
        "firefight.rulesets.ept.command:ADJUNCT_PROCEDURE",
    ),
    ProcedureInfo(
        "rate_of_fire",
        "Test of rate of fire (Tests of Rate of Fire)",
        "firefight.rulesets.ept.command:RATE_OF_FIRE_PROCEDURE",
    ),
    ProcedureInfo(
        "artillery_delay",
        "Delay of artillery fire (DELAIS DE TIR D’ARTILLERIE)",
        "firefight.rulesets.ept.artillery:ARTILLERY_DELAY",
    ),
    ProcedureInfo(
        "scatter",
        "Scatter (EMPARPILLEMENT)",
        "firefight.rulesets.ept.artillery:SCATTER",
    ),
    ProcedureInfo(
        "indirect_fire",
        "Indirect fire on a unit (effect of terrain on indirect fire, TABLE DE COMBAT)",
        "firefight.rulesets.ept.artillery:INDIRECT_FIRE",
    ),
    ProcedureInfo(
        "artillery_mission",
        "Artillery mission on a hex (EMPARPILLEMENT, ARTILLERIE/BOMBES, TABLE DE COMBAT)",
        "firefight.rulesets.ept.artillery:ARTILLERY_MISSION",
    ),
    ProcedureInfo(
        "vehicle_ap_fire",
        "Antipersonnel fire by a vehicle (TIR ANTIPERSONNEL PAR UN VEHICULE, TABLE DE COMBAT)",
        "firefight.rulesets.ept.vehicles:VEHICLE_AP_FIRE",
    ),
    ProcedureInfo(
        "indirect_vs_armor",
        "Indirect fire against armor (TIR ANTIPERSONNEL CONTRE BLINDES; the translator: "
        "'should be Indirect Fire Against Armor?')",
        "firefight.rulesets.ept.vehicles:INDIRECT_VS_ARMOR_PROCEDURE",
    ),
    ProcedureInfo(
        "terrain",
        "Terrain effects (TABLE DES TERRAINS)",
        "firefight.rulesets.ept.terrain:TERRAIN",
    ),
    ProcedureInfo(
        "line_of_sight",
        "Line of sight through visual hindrance (TABLE DES TERRAINS note)",
        "firefight.rulesets.ept.terrain:LINE_OF_SIGHT",
    ),
    ProcedureInfo(
        "observation",
        "Observation: loss of camouflage (OBSERVATION, Day/other)",
        "firefight.rulesets.ept.observation:OBSERVATION",
    ),
)
"""Each procedure's name, title and where it is (the module of its part of the chart sheet):
the rule set imports one when it is asked for."""

INFO = RuleSetInfo.declare(
    PROCEDURES,
    id="ept",
    title="En Pointe Toujours ! (EPT II)",
    source="En Pointe Toujours II charts and tables, Vae Victis 31 & 32",
    target="firefight.rulesets.ept.ruleset:RULESET",
    aliases=("en-pointe-toujours", "eptii"),
    doc="docs/ept.md",
)

_LAZY = {"RULESET": "ruleset", "FIRE": "fire", "EptFire": "fire"}


def __getattr__(name: str) -> object:
    return lazy_attribute(__name__, _LAZY, name)


__all__ = ["FIRE", "INFO", "PROCEDURES", "RULESET", "EptFire"]
