"""Page 2's input: an ordnance attack's fields and the readings of page 2 where the charts are
silent (Richard Irving, Up Front flow charts v1.0, 2017, page 2; docs/upfront.md, "Page 2
readings"), with the fields of the pages it goes on to (page 3's readings, page 4's AFV). The
attack itself: :mod:`.ordnance`.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field

from firefight.rulesets.upfront.afv_readings import AfvReadings
from firefight.rulesets.upfront.resolution import MalfunctionCheck, Readings

__all__ = [
    "Boxed",
    "HitOn",
    "HullDownToHit",
    "MalfunctionCheck",
    "MissColour",
    "MovingFire",
    "MovingTarget",
    "OrdnanceInput",
    "TargetKind",
]

Boxed = Literal["card", "boxed", "unboxed"]
HitOn = Literal["at_most", "below"]
MissColour = Literal["red", "black"]
HullDownToHit = Literal["as_moving", "none"]
MovingFire = Literal["turretless_cannot", "all_may"]
MovingTarget = Literal["all", "turretless"]
TargetKind = Literal["afv", "men"]


class OrdnanceInput(AfvReadings, Readings):
    """An ordnance attack (page 2), then page 4 on the AFV (the AFV fields) or page 3 on each
    man of the target group (the fields of page 3's readings)."""

    readings: ClassVar[frozenset[str]] = frozenset({"malfunction_check", "malfunction"})
    """The fields that read the rules where they are silent (folded apart on the web)."""

    attack: Literal["ordnance"] = Field(
        "ordnance",
        description="An ordnance attack: page 3 makes no malfunction check on it.",
    )
    smoke: int = Field(
        0,
        ge=0,
        le=0,
        description=(
            "Page 3's smoke in the FFS: none, page 2's FFS against men adds no smoke (smoke "
            "modifies the To Hit number: smoke_cards)."
        ),
    )

    firer: str = Field(
        "ger-pz4",
        max_length=40,
        description="The firing ordnance: an id of the men file with to_hit numbers.",
    )
    rr: int = Field(3, ge=0, le=5, description="The current Relative Range (0 to 5).")
    target: TargetKind = Field(
        "afv",
        description=(
            "afv (the AFV named by afv: page 4) or men (the group named by targets: page 3 "
            "on each man)."
        ),
    )
    boxed: Boxed = Field(
        "card",
        description=(
            "AFV/IG/ATR using boxed ordnance? card (the firer's afv.boxed flag; unboxed for "
            "a man), boxed (FS + RR) or unboxed (FS + the To Hit RNC's RN)."
        ),
    )
    firer_moving: bool = Field(
        False,
        description=(
            "The firer is moving: -1 to hit and an RNC of the miss colour misses; a "
            "turretless assault gun cannot fire while moving (page 2)."
        ),
    )
    firer_immobilized: bool = Field(
        False, description="The firing AFV is immobilized (turretless: -2 to hit)."
    )
    firer_bogged: bool = Field(False, description="The firing AFV is bogged (turretless: -2).")
    commander_kia: int = Field(
        0, ge=0, le=3, description="Commanders KIA on the firing AFV/IG (-1 to hit each)."
    )
    smoke_cards: int = Field(
        0, ge=0, le=4, description="SMOKE cards on the target and the firer (-1 to hit each)."
    )
    wire: int = Field(0, ge=0, le=3, description="WIRE cards on the firer (-1 to hit each).")
    acquired: bool = Field(False, description="The target is acquired (+1 to hit).")
    concealment: int = Field(
        0, ge=0, le=6, description="The value of a CONCEALMENT the defender plays (- # to hit)."
    )
    target_moving: bool = Field(
        False, description="The target is moving: -1 to hit and RNC = Miss (page 2)."
    )
    attacker_tem: int = Field(
        0,
        ge=-6,
        le=6,
        description=(
            "The firer's terrain modifier, added to the FS (page 2; not against an AFV's "
            "MORALE/CE values, nor against a hull-down AFV)."
        ),
    )
    defender_wire: int = Field(
        0,
        ge=-6,
        le=6,
        description="A WIRE card's modifier on the target men, added to the FS (page 2).",
    )
    hit_on: HitOn = Field(
        "at_most",
        description=(
            "'RNC = Hit?' (page 2): at_most (RN <= the modified To Hit number) or below (RN < it)."
        ),
    )
    miss_colour: MissColour = Field(
        "red",
        description=(
            "The colour of 'RNC = Miss' (page 2's note: the word RNC printed in the colour of "
            "the RNC; the transcription lost the colours): red or black."
        ),
    )
    hull_down_to_hit: HullDownToHit = Field(
        "as_moving",
        description=(
            "'Is Target Moving or Hull Down?' (page 2): as_moving (a hull-down AFV target "
            "also gives -1 and RNC = Miss) or none (only a moving target does)."
        ),
    )
    moving_target_to_hit: MovingTarget = Field(
        "all",
        description=(
            "Who gets '-1 vs. moving target & RNC = Miss' (page 2): all (the action of 'Is "
            "Target Moving or Hull Down?') or turretless (only turretless assault guns, the "
            "box it is printed next to)."
        ),
    )
    moving_fire: MovingFire = Field(
        "turretless_cannot",
        description=(
            "'Cannot fire while moving' (page 2, in the turretless assault guns' box): "
            "turretless_cannot (only they cannot) or all_may (every firer may fire moving)."
        ),
    )
    malfunction_check: MalfunctionCheck = Field(
        "red_at_least",
        description=(
            "'RNC = Malf?' on the To Hit RNC: red_at_least (a red RN at least the weapon's "
            "malfunction #, as page 3's reading) or any_at_least (any RN at least it)."
        ),
    )
