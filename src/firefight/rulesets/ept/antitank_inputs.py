"""EPT antitank fire, the inputs: a gun at range, its to-hit roll, its
effect roll on the Antitank Fire table, one whole shot, a portable weapon's attack and the
Panzerfaust availability check, as a player states them.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field, model_validator

from firefight.core.inputs import RuleInput
from firefight.i18n import gettext as _
from firefight.rulesets.ept import fire as fire_combat
from firefight.rulesets.ept.antitank_charts import (
    DEFAULT_AVAILABILITY,
    Facing,
    GunLength,
    PanzerfaustCheck,
    Quality,
    ShockQuality,
    TargetSize,
    Weapon,
)
from firefight.rulesets.ept.fire import Protection

# --- inputs ---------------------------------------------------------------------------------

_QUALITY_TEXT = "Quality of the firer: recruit +1, veteran -1; line and shock: see shock_quality."


_SHOCK_TEXT = (
    "Reading for shock troops (the charts list only recruit +1 and veteran -1): no_modifier "
    "= no line applies (chosen, the literal text); as_veteran = -1 like a veteran."
)


_SIZE_TEXT = "Target size: large -1, small +1, very_small +2 (normal: no modifier)."


class GunAtRange(RuleInput):
    """What both antitank charts read for the gun: distance and 'function of gun'."""

    distance: int = Field(
        ge=1,
        le=99,
        description=(
            "Distance to the target in hexes (counting the target hex, not the firer's). "
            "Picks the to-hit number and the gun-function columns; at most 99, an explicit "
            "cap (the charts' last bands, '21 hex. and more' and '> 15 hex.', are open)."
        ),
    )
    gun_length: GunLength = Field(
        description=(
            "The gun's line on 'Modification to function of gun' (Small / Medium / Long, read "
            "as the barrel: short, medium, long), from the gun's or vehicle's data."
        ),
    )


class EptAntitankToHit(GunAtRange):
    """A gun or tank gun firing at an armoured target (TABLE DE TOUCHER ANTICHAR)."""

    readings: ClassVar[frozenset[str]] = frozenset({"shock_quality", "hindrance_blocking"})
    """The fields that read the rules where they are silent (folded apart on the web)."""

    target_moving: bool = Field(False, description="Moving target: +2.")
    firer_moving: bool = Field(False, description="Moving firer: +2.")
    firer_quality: Quality = Field("line", description=_QUALITY_TEXT)
    shock_quality: ShockQuality = Field("no_modifier", description=_SHOCK_TEXT)
    target_size: TargetSize = Field("normal", description=_SIZE_TEXT)
    turret_penalty: int = Field(
        0,
        ge=0,
        le=12,
        description=(
            "Fire to the flank or rear 'according to the turret speed': the dice modifier "
            "from the firing vehicle's turret speed (its data, not on the chart sheet); 0 when "
            "firing to the front."
        ),
    )
    protection: Protection = Field(
        "none",
        description=(
            "Terrain protection of the target, 'see table' read as the fire modifiers: "
            "light +1, medium +2, important +3."
        ),
    )
    target_in_smoke: bool = Field(
        False, description="Target in smoke: +1 ('see table': the fire modifiers' terrain)."
    )
    hindrance_hexes: int = Field(
        0,
        ge=0,
        le=99,
        description=(
            "Visual hindrance hexes traversed by the line of fire: +1 each (max. +3), as on "
            "the fire modifiers; beyond the limit the line of sight is blocked. At most 99, "
            "the cap on distances."
        ),
    )

    @model_validator(mode="after")
    def _hindrance_between_firer_and_target(self) -> EptAntitankToHit:
        fire_combat.check_hindrance_within(self.hindrance_hexes, self.distance)
        return self

    hindrance_blocking: Literal["above_3", "from_3"] = Field(
        "above_3",
        description=(
            "When visual hindrance blocks the line of sight: above_3 = a sum above +3 (the "
            "Terrain Table's note); from_3 = 3 points block (the later EPT rules)."
        ),
    )


class EptAntitankFire(GunAtRange):
    """A hit on an armoured target, read on the TIRS ANTICHARS table."""

    at_value: int = Field(
        ge=0,
        le=99,
        description=(
            "The gun's antitank (penetration) value, from its counter or the vehicle's data. "
            "The chart sheet does not say what the differential is made of: read as "
            "differential = AT value - armour of the facing hit. At most 99, an explicit cap "
            "far above any counter (the chart's differentials stop at <=0 and >=7)."
        ),
    )
    front_armour: int = Field(
        ge=0, le=99, description="The target's front armour value (at most 99, as at_value)."
    )
    side_armour: int = Field(
        ge=0, le=99, description="The target's side armour value (at most 99, as at_value)."
    )
    facing: Facing = Field(
        "front",
        description=(
            "The target's facing that is hit: front or side armour; rear = side armour -1 "
            "('Fire to the rear: -1 to the value of side armor')."
        ),
    )


class EptAntitankShot(EptAntitankToHit, EptAntitankFire):
    """One gun shot at an armoured target: the to-hit roll, then (on a hit) the effect."""

    readings: ClassVar[frozenset[str]] = frozenset({"shock_quality", "hindrance_blocking"})
    """The fields that read the rules where they are silent (folded apart on the web)."""


class EptPanzerfaustAvailability(RuleInput):
    """The Panzerfaust availability check ('PF Availability')."""

    availability: int = Field(
        DEFAULT_AVAILABILITY,
        ge=0,
        le=6,
        description="The scenario's Panzerfaust availability: 2 for Normandy (17.1).",
    )


class EptPortableAntitank(RuleInput):
    """A Panzerschreck, Panzerfaust, Bazooka or PIAT fired at a vehicle."""

    readings: ClassVar[frozenset[str]] = frozenset({"shock_quality"})
    """The fields that read the rules where they are silent (folded apart on the web)."""

    weapon: Weapon = Field(
        description="Panzerschreck 7, Panzerfaust 6, Bazooka 6, PIAT 5 (2d6 less destroys)."
    )
    distance: int = Field(
        ge=1,
        le=2,
        description="Distance to the target in hexes: at most 2 (Panzerfaust 1); at 2 hexes +1.",
    )
    target_size: TargetSize = Field("normal", description=_SIZE_TEXT)
    firer_movement_marker: bool = Field(False, description="Firer with movement marker: +2.")
    target_movement_marker: bool = Field(False, description="Target with movement marker: +2.")
    firer_quality: Quality = Field("line", description=_QUALITY_TEXT)
    shock_quality: ShockQuality = Field("no_modifier", description=_SHOCK_TEXT)
    schurzen_on_side: bool = Field(
        False, description="The target has Schürzen and is fired on at its side: +1."
    )
    panzerfaust_check: PanzerfaustCheck = Field(
        "none",
        description=(
            "Panzerfaust only, how 'PF Availability' is checked with this shot: none (chosen: "
            "the check is its own procedure); separate_die = a coloured d6 rolled first; "
            "attack_roll = the coloured die of this shot's 2d6."
        ),
    )
    availability: int = Field(
        DEFAULT_AVAILABILITY,
        ge=0,
        le=6,
        description="For panzerfaust_check: the scenario's availability (2 for Normandy, 17.1).",
    )

    @model_validator(mode="after")
    def _check_is_for_the_panzerfaust(self) -> EptPortableAntitank:
        if self.panzerfaust_check != "none" and self.weapon != "panzerfaust":
            msg = _(
                "'panzerfaust_check' applies to the panzerfaust only (got {check} for {weapon})"
            ).format(check=repr(self.panzerfaust_check), weapon=repr(self.weapon))
            raise ValueError(msg)
        return self
