"""The En Pointe Toujours ! procedures as declared (name, title and module), read by the rule
set's metadata (:data:`firefight.rulesets.ept.INFO`) and the rule set alike; each module
holding them is imported when one of its procedures is asked for. Imports nothing heavy."""

from __future__ import annotations

from firefight.rulesets.declared import ProcedureInfo

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
