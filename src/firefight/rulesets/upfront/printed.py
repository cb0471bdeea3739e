"""Every number the flow charts print (Richard Irving, Up Front flow charts v1.0, 2017),
named and cited by page, so that a second transcription can check them.

Every page is implemented: page 1 :mod:`.firepower` and :mod:`.fire`, page 2
:mod:`.ordnance`, page 3 :mod:`.resolution`, page 4 :mod:`.afv`, page 5 :mod:`.artillery`,
page 6 :mod:`.malfunction`, page 7 :mod:`.overrun`, page 8 :mod:`.closecombat`,
:mod:`.closecombat_afv`, :mod:`.infiltration`, :mod:`.morale` (docs/upfront.md, "The flow
charts restored, page by page"). Pages 1, 3 and 5 to 8 read their numbers from here; pages 2
and 4 name theirs in :mod:`.ordnance` and :mod:`.afv`, and the transcription tests check both.
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
"""Page 1: x2 Hero; "x2 Bracketed Hero on LMG/MMG": x2 on the bracketed FP (reading
``hero_on_mg``); never below the man's FP without the Hero."""
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
BRITISH_LOWER_FP = 1
"""FACTS.md (Up Front): "British: may lower firepower factors by one (minimum 1) to make an
attack" (not on the flow charts)."""
BRITISH_LOWER_FP_MINIMUM = 1
"""FACTS.md (Up Front): the British lowered firepower factor is at least 1."""

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

# Page 7, Overrun (read and restored by the page 7/8 helper: docs/upfront.md, "Page 7")
OVERRUN_RR = 5
"""Page 7: the AFV must be at RR5 to the opposing group."""
OVR_MG_FACTOR = Fraction(1, 2)
"""Page 7: "Modify OVR on Malf: OVR x 1/2, if MG or Gun" (round down)."""
OVR_FT_FACTOR = Fraction(1, 4)
"""Page 7: "OVR x 1/4, if FT" (round down)."""
OVERRUN_HERO_FFS = -1
"""Page 7: "Fire/Ordnance Resolution on each man. (Hero: FFS -1)"."""
OVERRUN_RED_6 = (6,)
"""Page 7: "Res. RNC Red 6*?" (the first adverse-effect box): AFV immobilized, END ATTACK,
as page 4's "Black 6" box (reading ``adverse_reading``, :mod:`.overrun`)."""
OVERRUN_RED_6_HEROIC = (5, 6)
"""Page 7: "* Red 5 or 6, if Man is Heroic" (the footnote of Red 6)."""
OVERRUN_RED_5_OT = (5,)
"""Page 7: "Res. RNC Red 5* & OT AFV?" (the second box): AFV KIA 10 + # VP, as page 4's
"Black 5 & OT AFV" box."""
OVERRUN_RED_5_OT_HEROIC = (4,)
"""Page 7: "* Red 4, if Man is Heroic" (the footnote of Red 5)."""
TMM_COLUMNS = {"buttoned_up": 2, "crew_exposed": 4, "open_topped": 5}
"""Page 7: "Draw RNC, Same Card, RPNC 2b, 4c, 5o" (the AFV buttoned up, crew exposed,
open-topped; page 8 names the same columns)."""
TMM_BAND_COLUMN = 0
"""Page 7: "Same Card, Check RPNC 0r?"."""
TMM_IMMOBILIZED = (1, 5)
"""Page 7: "RPNC 0r=1-5": AFV immobilized, remove TMM."""
TMM_KIA = (6, 0)
"""Page 7: "RPNC 0r=6-0": AFV KIA 10 + # VP, remove TMM (0 read as the top, 10)."""

# Page 8, Infiltration, close combat, morale checks (the page 7/8 helper's readings)
INFILTRATION_RPN = {
    "night": 3,
    "smoke": 2,
    "brush": 2,
    "woods": 1,
    "hill": 1,
    "pillbox": 1,
    "open": 2,
    "japanese": 1,
    "jungle": 1,
    "commander_kia": 1,
}
"""Page 8: the infiltration RPNC count: "Night: 3, Smoke (A/D): 2 ea., From Brush: 2, From
Woods: 1, From Hill: 1, Vs. Pillbox: 1, From Open Ground: 2, Japanese: 1, Jungle scenario: 1,
Vs. Comm KIA (AFV): 1 ea."."""
INFILTRATION_MIN = 1
INFILTRATION_MAX = 10
"""Page 8: "(Min. 1, Max. 10)"."""
INFILTRATION_VS_AFV = {"buttoned_up": 2, "crew_exposed": 4, "open_topped": 5}
"""Page 8: "Vs. AFV: Start with: 2b for Buttoned Up, 4c for Crew Exposed, 5o for Open Topped
with Inf."."""
CCV_WEAPON = {
    "carbine": 4,
    "assault_rifle": 4,
    "rifle": 5,
    "bolt_rifle": 5,
    "mp": 3,
    "bar": 2,
    "lmg": 1,
    "mmg": 0,
    "atr": 0,
}
"""Page 8: CCV = Morale + "Carbine/Assault Rifle: 4, All other rifles: 5, Machine Pistol: 3,
BAR: 2, LMG: 1, MMG / ATR: 0"."""
CCV_JAPANESE = {"mp": 4, "lmg": 2}
"""Page 8: "Machine Pistol: 3 (4 Japanese)", "LMG: 1 (2 Japanese)"."""
CCV_SECONDARY = -1
"""Page 8: "Secondary Weapon: -1, unless only weapon"."""
CCV_PINNED = -4
"""Page 8: "(Additional -4 for all pinned men.)"."""
CCV_EXTRA_ATTACKER = 3
"""Page 8: "CCV +3 for each additional attacker on this defending man"."""
CCV_UNATTACKED_CREWMAN = 3
"""Page 8: "CCV +3 for defender if unpinned & unattacked crewman on this attack"."""
CCV_PRISONER = -2
"""Page 8: "Attacker may reduce CCV by -2 to take Prisoner"."""
CC_WIN_MARGIN = 3
"""Page 8: "Attacker win by 3+? Winner may capture weapon"."""
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
"""Page 8, CC vs. AFV: "Draw RNC + modifiers" (each as printed, with its sign)."""
CC_AFV_ADJACENT_UNPINNED_MORE_THAN = 1
"""Page 8: "* friendly group with > 1 unpinned man" (the adjacent group that gives -2)."""
CC_AFV_ATTACKER_KIA_AT_MOST = 0
"""Page 8: "Total: < 0: Attacker KIA" (restored: <= 0)."""
CC_AFV_NO_EFFECT = (1, 5)
"""Page 8: "1-5: No Effect"."""
CC_AFV_IMMOBILIZED = 6
"""Page 8: "6: Immobilized"."""
CC_AFV_KIA_AT_LEAST = 7
"""Page 8: "> 7: AFV KIA" (restored: >= 7)."""
