"""EPT antitank fire (seed 000): TABLE DE TOUCHER ANTICHAR, TIRS ANTICHARS and TIR D'ARMES
PORTATIVES ANTICHARS, with the Panzerfaust availability check.

A gun's shot is two rolls: 2d6 + the to-hit modifiers at most the to-hit number (8 / 7 / 6 by
distance) hits; a hit rolls 2d6 + the effect modifiers on the Antitank Fire table, in the
column of the differential (the gun's AT value minus the armour of the facing hit), for
destroyed / immobilized / shut down. Portable weapons (Panzerschreck, Panzerfaust, Bazooka,
PIAT) roll once: under their number destroys, equal immobilizes.

Parts, their public names re-exported here: the charts
(:mod:`~firefight.rulesets.ept.antitank_charts`), the inputs
(:mod:`~firefight.rulesets.ept.antitank_inputs`), to hit
(:mod:`~firefight.rulesets.ept.antitank_to_hit`), the effect
(:mod:`~firefight.rulesets.ept.antitank_effect`) and the portable weapons
(:mod:`~firefight.rulesets.ept.portable_antitank`). This module keeps one whole shot and the
procedures.
"""

from __future__ import annotations

from firefight.chance import Chance
from firefight.core.modifier import Modifier
from firefight.rulesets.ept.antitank_charts import (
    ARMOR_ROW,
    AT_FIRE,
    AT_FIRE_CODES,
    AVAILABLE,
    DEFAULT_AVAILABILITY,
    DESTROYED,
    DIFFERENTIAL_HIGHEST,
    DIFFERENTIAL_LOWEST,
    EFFECT,
    HIT,
    IMMOBILIZED,
    MAX_DISTANCE_COLUMN,
    MISS,
    NATURAL_MISS,
    NO_EFFECT,
    NO_MODIFICATION,
    NOT_AVAILABLE,
    NUMBER_COLUMN,
    PF_AVAILABILITY,
    PORTABLE,
    PORTABLE_OUTCOMES,
    SHOT_OUTCOMES,
    SHUT_DOWN,
    TO_HIT,
    Facing,
    GunLength,
    PanzerfaustCheck,
    Quality,
    ShockQuality,
    TargetSize,
    Weapon,
    at_fire_gun_table,
    at_fire_table,
    beyond,
    gun_function,
    modification,
    portable_table,
    quality_modifier,
    to_hit_gun_table,
    to_hit_table,
)
from firefight.rulesets.ept.antitank_effect import (
    AntitankFireSheet,
    armour_hit,
    at_fire,
    at_fire_facts,
    at_fire_modifiers,
    at_fire_odds,
    at_fire_sheet,
    differential,
)
from firefight.rulesets.ept.antitank_inputs import (
    EptAntitankFire,
    EptAntitankShot,
    EptAntitankToHit,
    EptPanzerfaustAvailability,
    EptPortableAntitank,
    GunAtRange,
)
from firefight.rulesets.ept.antitank_to_hit import (
    ToHitSheet,
    to_hit,
    to_hit_facts,
    to_hit_modifiers,
    to_hit_sheet,
)
from firefight.rulesets.ept.portable_antitank import (
    PortableSheet,
    check_availability,
    panzerfaust_availability,
    portable_at,
    portable_facts,
    portable_modifiers,
    portable_sheet,
)
from firefight.rulesets.procedure import Procedure

__all__ = [
    "ARMOR_ROW",
    "AT_FIRE",
    "AT_FIRE_CODES",
    "AT_FIRE_PROCEDURE",
    "AT_SHOT",
    "AT_TO_HIT",
    "AVAILABLE",
    "DEFAULT_AVAILABILITY",
    "DESTROYED",
    "DIFFERENTIAL_HIGHEST",
    "DIFFERENTIAL_LOWEST",
    "HIT",
    "IMMOBILIZED",
    "MAX_DISTANCE_COLUMN",
    "MISS",
    "NATURAL_MISS",
    "NOT_AVAILABLE",
    "NO_EFFECT",
    "NO_MODIFICATION",
    "NUMBER_COLUMN",
    "PANZERFAUST_AVAILABILITY",
    "PF_AVAILABILITY",
    "PORTABLE",
    "PORTABLE_AT",
    "PORTABLE_OUTCOMES",
    "PROCEDURES",
    "SHOT_OUTCOMES",
    "SHUT_DOWN",
    "TO_HIT",
    "AntitankFireSheet",
    "EptAntitankFire",
    "EptAntitankShot",
    "EptAntitankToHit",
    "EptPanzerfaustAvailability",
    "EptPortableAntitank",
    "Facing",
    "GunAtRange",
    "GunLength",
    "PanzerfaustCheck",
    "PortableSheet",
    "Quality",
    "ShockQuality",
    "TargetSize",
    "ToHitSheet",
    "Weapon",
    "armour_hit",
    "at_fire",
    "at_fire_facts",
    "at_fire_gun_table",
    "at_fire_modifiers",
    "at_fire_sheet",
    "at_fire_table",
    "at_shot",
    "beyond",
    "check_availability",
    "differential",
    "gun_function",
    "modification",
    "panzerfaust_availability",
    "portable_at",
    "portable_facts",
    "portable_modifiers",
    "portable_sheet",
    "portable_table",
    "quality_modifier",
    "shot_facts",
    "shot_modifiers",
    "to_hit",
    "to_hit_facts",
    "to_hit_gun_table",
    "to_hit_modifiers",
    "to_hit_sheet",
    "to_hit_table",
]


# --- one shot: to hit, then effect ----------------------------------------------------------


def shot_modifiers(shot: EptAntitankShot) -> list[Modifier]:
    """The to-hit modifiers, then the effect modifiers, each labelled with its roll."""
    return [
        Modifier(f"to hit: {m.label}", m.value, m.kind, m.rule) for m in to_hit_modifiers(shot)
    ] + [Modifier(f"effect: {m.label}", m.value, m.kind, m.rule) for m in at_fire_modifiers(shot)]


def shot_facts(shot: EptAntitankShot) -> list[tuple[str, str]]:
    """The facts of both rolls."""
    return [(f"to hit: {k}", v) for k, v in to_hit_facts(shot)] + [
        (f"effect: {k}", v) for k, v in at_fire_facts(shot)
    ]


def at_shot(shot: EptAntitankShot, chance: Chance) -> str:
    """One shot: the to-hit roll, then on a hit the Antitank Fire roll."""
    if to_hit(shot, chance) == MISS:
        return MISS
    return EFFECT[at_fire(shot, chance)]


# --- procedures -----------------------------------------------------------------------------

AT_TO_HIT: Procedure[EptAntitankToHit] = Procedure(
    name="at_to_hit",
    title="Antitank to hit (TABLE DE TOUCHER ANTICHAR)",
    input_model=EptAntitankToHit,
    rule=to_hit,
    modifiers=to_hit_modifiers,
    chart="at_to_hit",
    outcome_order=(HIT, MISS),
    facts=to_hit_facts,
    meanings={HIT: "hit: roll the effect on the Antitank Fire table", MISS: "missed"},
)

AT_FIRE_PROCEDURE: Procedure[EptAntitankFire] = Procedure(
    name="at_fire",
    title="Antitank fire, effect of a hit (TIRS ANTICHARS)",
    input_model=EptAntitankFire,
    rule=at_fire,
    modifiers=at_fire_modifiers,
    chart="at_fire",
    outcome_order=AT_FIRE_CODES,
    facts=at_fire_facts,
    meanings={MISS: "natural 12: miss"},
    exact_odds=at_fire_odds,
)

AT_SHOT: Procedure[EptAntitankShot] = Procedure(
    name="at_shot",
    title="Antitank shot: to hit, then effect (TABLE DE TOUCHER ANTICHAR, TIRS ANTICHARS)",
    input_model=EptAntitankShot,
    rule=at_shot,
    modifiers=shot_modifiers,
    chart="at_fire",
    outcome_order=SHOT_OUTCOMES,
    facts=shot_facts,
    meanings={
        DESTROYED: "destroyed (D)",
        IMMOBILIZED: "immobilized (I)",
        SHUT_DOWN: "shut down (S)",
        NO_EFFECT: "hit, no effect (-)",
        MISS: "missed: the to-hit roll failed, or a natural 12 on the Antitank Fire roll",
    },
)

PORTABLE_AT: Procedure[EptPortableAntitank] = Procedure(
    name="portable_at",
    title="Fire of portable antitank weapons (TIR D'ARMES PORTATIVES ANTICHARS)",
    input_model=EptPortableAntitank,
    rule=portable_at,
    modifiers=portable_modifiers,
    chart="portable_at",
    outcome_order=PORTABLE_OUTCOMES,
    facts=portable_facts,
    meanings={
        DESTROYED: "destroyed (roll less than the number)",
        IMMOBILIZED: "immobilized (roll equal to the number)",
        NO_EFFECT: "no effect",
        NOT_AVAILABLE: "no Panzerfaust available (PF Availability)",
    },
)

PANZERFAUST_AVAILABILITY: Procedure[EptPanzerfaustAvailability] = Procedure(
    name="panzerfaust_availability",
    title="Panzerfaust availability (PF Availability)",
    input_model=EptPanzerfaustAvailability,
    rule=panzerfaust_availability,
    modifiers=lambda _: [],
    outcome_order=(AVAILABLE, NOT_AVAILABLE),
    facts=lambda check: [("available on", f"coloured die <= {check.availability}")],
    meanings={
        AVAILABLE: "a Panzerfaust is available",
        NOT_AVAILABLE: "no Panzerfaust is available",
    },
)

PROCEDURES = (AT_TO_HIT, AT_FIRE_PROCEDURE, AT_SHOT, PORTABLE_AT, PANZERFAUST_AVAILABILITY)
