"""En Pointe Toujours ! (EPT II, Vae Victis 31-32), seed 000: charts and tables.

Each module holds the procedures of one part of the chart sheet and lists them in its
``PROCEDURES``; the charts are the TOML files in ``data/``. This package declares the rule
set's metadata (:data:`INFO`) and imports nothing else: the rule set itself is in
:mod:`.ruleset`, and ``RULESET``, ``FIRE`` and ``EptFire`` are imported when first asked for.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from firefight.rulesets.info import RuleSetInfo, lazy_attribute

if TYPE_CHECKING:
    from firefight.rulesets.ept.fire import FIRE, EptFire
    from firefight.rulesets.ept.ruleset import RULESET

INFO = RuleSetInfo(
    id="ept",
    title="En Pointe Toujours ! (EPT II)",
    source="En Pointe Toujours II charts and tables, Vae Victis 31 & 32",
    target="firefight.rulesets.ept.ruleset:RULESET",
    aliases=("en-pointe-toujours", "eptii"),
    doc="docs/ept.md",
    procedures=(
        "fire",
        "at_to_hit",
        "at_fire",
        "at_shot",
        "portable_at",
        "panzerfaust_availability",
        "assault_initiative",
        "assault",
        "activation",
        "adjunct",
        "rate_of_fire",
        "artillery_delay",
        "scatter",
        "indirect_fire",
        "artillery_mission",
        "vehicle_ap_fire",
        "indirect_vs_armor",
        "terrain",
        "line_of_sight",
        "observation",
    ),
    procedure_titles=(
        "Fire combat (MODIFICATEURS DE TIR, TABLE DE COMBAT)",
        "Antitank to hit (TABLE DE TOUCHER ANTICHAR)",
        "Antitank fire, effect of a hit (TIRS ANTICHARS)",
        "Antitank shot: to hit, then effect (TABLE DE TOUCHER ANTICHAR, TIRS ANTICHARS)",
        "Fire of portable antitank weapons (TIR D'ARMES PORTATIVES ANTICHARS)",
        "Panzerfaust availability (PF Availability)",
        "Assault: test of initiative (ASSAUT)",
        "Assault (ASSAUT)",
        "Activation test (MODIFICATEURS D’ACTIVATION)",
        "PC replacement (ADJOINTS)",
        "Test of rate of fire (Tests of Rate of Fire)",
        "Delay of artillery fire (DELAIS DE TIR D’ARTILLERIE)",
        "Scatter (EMPARPILLEMENT)",
        "Indirect fire on a unit (effect of terrain on indirect fire, TABLE DE COMBAT)",
        "Artillery mission on a hex (EMPARPILLEMENT, ARTILLERIE/BOMBES, TABLE DE COMBAT)",
        "Antipersonnel fire by a vehicle (TIR ANTIPERSONNEL PAR UN VEHICULE, TABLE DE COMBAT)",
        "Indirect fire against armor (TIR ANTIPERSONNEL CONTRE BLINDES; the translator: "
        "'should be Indirect Fire Against Armor?')",
        "Terrain effects (TABLE DES TERRAINS)",
        "Line of sight through visual hindrance (TABLE DES TERRAINS note)",
        "Observation: loss of camouflage (OBSERVATION, Day/other)",
    ),
)

_LAZY = {"RULESET": "ruleset", "FIRE": "fire", "EptFire": "fire"}


def __getattr__(name: str) -> object:
    return lazy_attribute(__name__, _LAZY, name)


__all__ = ["FIRE", "INFO", "RULESET", "EptFire"]
