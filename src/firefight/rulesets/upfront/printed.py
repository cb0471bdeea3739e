"""Every number the flow charts print (Richard Irving, Up Front flow charts v1.0, 2017),
named and cited by page, so that a second transcription can check them.

Pages 1 and 3 are implemented (:mod:`.fire`, :mod:`.resolution`); the numbers of the other
pages are here for the procedures still to come (docs/upfront.md).
"""

from __future__ import annotations

from fractions import Fraction

# Page 1, Firepower Attacks
FLANKING_FACTOR = 2
"""Page 1: x2 Flanking."""
ENCIRCLED_FACTOR = 2
"""Page 1: x2 Encircled."""
INFILTRATOR_FACTOR = 2
"""Page 1: x2 Infiltrator (if firing)."""
HERO_FACTOR = 2
"""Page 1: x2 Hero (bracketed instead on an LMG/MMG)."""
HALF = Fraction(1, 2)
"""Page 1: x1/2 (round down) for a moving BAR and the wounded."""
ZERO_FP = 0
"""Page 1: 0 FP for a crewman, an unarmed man, a transferring man, a malfunctioned weapon,
ordnance."""
BRITISH_MODIFIER = 1
"""Page 1: +1 for British."""
ITALIAN_MODIFIER = -1
"""Page 1: -1 for Italian."""
COMMANDER_KIA_MODIFIER = -1
"""Page 1 (AFV/IG firepower modifiers): -1 per commander KIA."""

# Page 2, Ordnance Attacks
ORDNANCE_COMMANDER_KIA = -1
"""Page 2: -1 to hit per commander KIA."""
TURRETLESS_IMMOBILIZED = -2
"""Page 2: turretless assault guns -2 if immobilized or bogged."""
MOVING_TARGET_TO_HIT = -1
"""Page 2: -1 vs a moving target."""
SMOKE_TO_HIT = -1
"""Page 2: -1 to hit each smoke (target or firer in smoke)."""
WIRE_TO_HIT = -1
"""Page 2: -1 to hit each wire (firer in wire)."""
ACQUIRED_TO_HIT = 1
"""Page 2: +1 to hit, target acquired."""
BLACK_ZERO_HIT = 0
"""Page 2: "Black 0 is a hit"."""

# Page 3, Fire/Ordnance Resolution on each man
BERSERK_COLUMN = 7
"""Page 3: RPNC(7) = MORALE at RR 5: the man goes berserk."""
WOUND_COLUMN = 7
"""Page 3: RPNC(7) = MORALE: the man is wounded."""
BERSERK_RR = 5
"""Page 3: berserk only at RR 5."""
ROUT_COLUMN = 0
"""Page 3: RPNC(0) > Rout #: the man routs."""
KIA_VP = 2
"""Page 3: KIA 2 VP."""
WOUNDED_VP = 1
"""Page 3: wounded 1 VP."""
ROUTED_VP = 1
"""Page 3: routs 1 VP."""
WOUNDS_TO_KIA = 2
"""Page 3: 2nd wound = KIA."""
ROUT_TAKEN_RR = 5
"""Page 3: a routing man "may take as RR5", ..."""
ROUT_TAKEN_VP = 5
"""Page 3: "... 5VP" (the printed figure; its reading is not restored)."""

# Page 4, AFV resolution
CRITICAL_BLACK_6 = 6
"""Page 4: this RNC Black 6: critical hit (AFV immobilized...)."""
CRITICAL_BLACK_5 = 5
"""Page 4: this RNC Black 5 & open-topped AFV: AFV KIA."""
AFV_KIA_VP = 10
"""Page 4 and 7: AFV KIA 10 + # VP."""
STUNNED_KIA = 6
"""Page 4: if stunned > 6, KIA (as printed)."""

# Page 5, Artillery and demolition charges
ARTILLERY_HIT_LOW = 0
ARTILLERY_HIT_HIGH = 6
"""Page 5: artillery to hit = Black 0-6."""
ARTILLERY_STRENGTH = 8
"""Page 5: artillery strength = 8."""
ARTILLERY_WOODS_TEM = 0
"""Page 5: woods TEM = 0 against artillery."""
DC_STRENGTH = 5
"""Page 5: DC FS = 5."""
DC_MALFUNCTION_RN = 6
"""Page 5: first RNC = 6? Malf, remove DC."""

# Page 6, Firepower weapon malfunction
BREAK_RN = 6
"""Page 6: all malfunctioned weapons break on X6."""
CAPTURED_BREAK_LOW = 5
"""Page 6: all captured weapons break on X5-6."""
MALFUNCTION_FFS = -1
"""Page 6: -1 to FFS."""

# Page 7, Overrun
OVERRUN_RR = 5
"""Page 7: the AFV must be at RR 5."""
OVR_MG_FACTOR = Fraction(1, 2)
"""Page 7: OVR x1/2 if MG or gun malfunctioned (round down)."""
OVR_FT_FACTOR = Fraction(1, 4)
"""Page 7: OVR x1/4 if FT malfunctioned (round down)."""
OVERRUN_HERO_FFS = -1
"""Page 7: Hero: FFS -1."""
OVERRUN_RED = (6, 5)
"""Page 7: adverse effects on Red 6, Red 5 (not open-topped)."""
OVERRUN_HEROIC_RED = (4, 5, 6)
"""Page 7: Red 5 or 6 if the man is heroic; Red 4 if heroic (as printed)."""
OVERRUN_TMM_COLUMNS = {"buttoned": 2, "crew_exposed": 4, "open_topped": 5}
"""Page 7 and 8: RPNC 2b, 4c, 5o."""
OVERRUN_TMM_LOW = (1, 5)
OVERRUN_TMM_HIGH = (6, 0)
"""Page 7: RPNC 0r = 1-5 / 6-0."""

# Page 8, Infiltration, close combat, morale checks
INFILTRATION_RPN = {
    "night": 3,
    "smoke": 2,
    "brush": 2,
    "open": 2,
    "woods": 1,
    "hill": 1,
    "pillbox": 1,
    "japanese": 1,
    "jungle": 1,
    "commander_kia": 1,
}
"""Page 8: the infiltration RPNC count (smoke and commander KIA: each)."""
INFILTRATION_MIN = 1
INFILTRATION_MAX = 10
"""Page 8: min. 1, max. 10."""
CCV_WEAPON = {
    "carbine": 4,
    "assault_rifle": 4,
    "rifle": 5,
    "mp": 3,
    "bar": 2,
    "lmg": 1,
    "mmg": 0,
    "atr": 0,
}
"""Page 8: CCV = morale + the weapon's value."""
CCV_JAPANESE = {"mp": 4, "lmg": 2}
"""Page 8: machine pistol 4 and LMG 2 for Japanese."""
CCV_SECONDARY = -1
CCV_PINNED = -4
CCV_EXTRA_ATTACKER = 3
CCV_UNATTACKED_CREWMAN = 3
CCV_PRISONER = -2
CC_WIN_MARGIN = 3
"""Page 8: the attacker wins by 3+ (capture)."""
CC_AFV_MODIFIERS = {
    "previous_attack": 1,
    "berserk_or_banzai": -3,
    "wounded": -2,
    "heroic_or_japanese": 1,
    "tmm_or_dc": 4,
    "buildings": 3,
    "woods_wall_gully": 2,
    "adjacent_same_range": -2,
    "brush_or_smoke": -1,
    "ce": -1,
    "buttoned_up": 1,
    "commander_kia": 2,
    "immobilized_or_bogged": 2,
    "open_topped": 3,
}
"""Page 8: close combat vs AFV, RNC + modifiers."""
CC_AFV_BANDS = {"attacker_kia_below": 0, "no_effect": (1, 5), "immobilized": 6, "kia_from": 7}
"""Page 8: total < 0 attacker KIA; 1-5 no effect; 6 immobilized; >= 7 AFV KIA."""
