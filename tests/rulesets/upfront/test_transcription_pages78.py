"""Pages 7 and 8's printed numbers (printed.py) against the second, independent
transcription (tests/rulesets/upfront/transcription/flowcharts.toml): a typo on either side
fails here. The one reading where the two differ (the morale check's sign) is checked as a
documented disagreement (docs/upfront.md, "Pages 7 and 8: readings")."""

from __future__ import annotations

from fractions import Fraction

import pytest

from firefight.rulesets.upfront import printed as p
from firefight.rulesets.upfront.morale import UpFrontMoraleCheck
from tests.rulesets.upfront.transcription_records import load_flowcharts

RECORDS = {(r.page, r.printed): r for r in load_flowcharts() if r.page in (7, 8)}


def _numbers(page: int, printed: str) -> tuple[Fraction, ...]:
    return RECORDS[(page, printed)].numbers


def F(*values: object) -> tuple[Fraction, ...]:  # noqa: N802 - short for the table below
    return tuple(Fraction(v) for v in values)  # type: ignore[arg-type]


OURS = [
    (7, "FV must be at RR5", F(p.OVERRUN_RR)),
    (7, "OVR x ½, if MG or Gun", F(p.OVR_MG_FACTOR)),
    (7, "OVR x ¼, if FT (Round Down)", F(p.OVR_FT_FACTOR)),
    (7, "(Hero: FFS -1)", F(p.OVERRUN_HERO_FFS)),
    (7, "Res. RC Red 6*?", F(*p.OVERRUN_RED_6)),
    (7, "Res. RC Red 5* & OT FV?", F(*p.OVERRUN_RED_5_OT)),
    (7, "* Red 5 or 6, if Man is Heroic.", F(*p.OVERRUN_RED_6_HEROIC)),
    (7, "* Red 4, if Man is Heroic.", F(*p.OVERRUN_RED_5_OT_HEROIC)),
    (7, "FV KI 10 + # VP", F(p.AFV_KIA_VP)),
    (7, "RPC 2b, 4c, 5o", F(*p.TMM_COLUMNS.values())),
    (7, "RPC 0r=1-5", F(p.TMM_BAND_COLUMN, *p.TMM_IMMOBILIZED)),
    (7, "Check RPC 0r?", F(p.TMM_BAND_COLUMN)),
    (7, "RPC 0r=6-0", F(p.TMM_BAND_COLUMN, *p.TMM_KIA)),
    (8, "ight: 3", F(p.INFILTRATION_RPN["night"])),
    (8, "Smoke (/D): 2 ea.", F(p.INFILTRATION_RPN["smoke"])),
    (8, "From Brush: 2", F(p.INFILTRATION_RPN["brush"])),
    (8, "From Woods: 1", F(p.INFILTRATION_RPN["woods"])),
    (8, "From Hill: 1", F(p.INFILTRATION_RPN["hill"])),
    (8, "Vs. Pillbox: 1", F(p.INFILTRATION_RPN["pillbox"])),
    (8, "From Open Ground: 2", F(p.INFILTRATION_RPN["open"])),
    (8, "Japanese: 1", F(p.INFILTRATION_RPN["japanese"])),
    (8, "Jungle scenario: 1", F(p.INFILTRATION_RPN["jungle"])),
    (8, "Vs. Comm KI (FV): 1 ea.", F(p.INFILTRATION_RPN["commander_kia"])),
    (8, "(Min. 1, Max. 10)", F(p.INFILTRATION_MIN, p.INFILTRATION_MAX)),
    (8, "2b for Buttoned Up", F(p.INFILTRATION_VS_AFV["buttoned_up"])),
    (8, "4c for Crew Exposed", F(p.INFILTRATION_VS_AFV["crew_exposed"])),
    (8, "5o for Open Topped", F(p.INFILTRATION_VS_AFV["open_topped"])),
    (8, "Carbine/ssault Rifle: 4", F(p.CCV_WEAPON["carbine"])),
    (8, "ll other rifles: 5", F(p.CCV_WEAPON["rifle"])),
    (8, "Machine Pistol: 3 ( 4 Japanese)", F(p.CCV_WEAPON["mp"], p.CCV_JAPANESE["mp"])),
    (8, "BR: 2", F(p.CCV_WEAPON["bar"])),
    (8, "LMG: 1 ( 2 Japanese)", F(p.CCV_WEAPON["lmg"], p.CCV_JAPANESE["lmg"])),
    (8, "MMG / TR: 0", F(p.CCV_WEAPON["mmg"])),
    (8, "Secondary Weapon: -1, unless only weapon", F(p.CCV_SECONDARY)),
    (8, "(dditional -4 for all pinned men.)", F(p.CCV_PINNED)),
    (8, "ttacker may reduce CCV by -2 to take Prisoner", F(p.CCV_PRISONER)),
    (8, "Each previous CC attack this turn: +1", F(p.CC_AFV_MODIFIERS["previous_attack"])),
    (8, "ttacker is berserk or banzaiing: -3", F(p.CC_AFV_MODIFIERS["berserk_or_banzai"])),
    (8, "ttacker is wounded: -2", F(p.CC_AFV_MODIFIERS["wounded"])),
    (8, "ttacker is Heroic / Japanese: +1", F(p.CC_AFV_MODIFIERS["heroic_or_japanese"])),
    (8, "ttacker has TMM / DC: +4 (remove)", F(p.CC_AFV_MODIFIERS["tmm_or_dc"])),
    (8, "FV is in Buildings: +3", F(p.CC_AFV_MODIFIERS["buildings"])),
    (8, "FV is in Woods, Wall or Gully: +2", F(p.CC_AFV_MODIFIERS["woods_wall_gully"])),
    (8, "FV has adj. same range* (ea): -2", F(p.CC_AFV_MODIFIERS["adjacent_same_range"])),
    (8, "FV is in Brush or Smoke (ea.): -1", F(p.CC_AFV_MODIFIERS["brush_or_smoke"])),
    (8, "FV is CE: -1", F(p.CC_AFV_MODIFIERS["ce"])),
    (8, "FV is Buttoned up: +1", F(p.CC_AFV_MODIFIERS["buttoned_up"])),
    (8, "FV is Commander KI (ea.): +2", F(p.CC_AFV_MODIFIERS["commander_kia"])),
    (8, "VF is Immobilized or Bogged: +2", F(p.CC_AFV_MODIFIERS["immobilized_or_bogged"])),
    (8, "FV is Open Topped: +3", F(p.CC_AFV_MODIFIERS["open_topped"])),
    (8, "Total: < 0: ttacker KI", F(p.CC_AFV_ATTACKER_KIA_AT_MOST)),
    (8, "1-5: o Effect", F(*p.CC_AFV_NO_EFFECT)),
    (8, "6: Immobilized", F(p.CC_AFV_IMMOBILIZED)),
    (8, "> 7: FV KI", F(p.CC_AFV_KIA_AT_LEAST)),
    (8, "CCV +3 for each additional attacker on this defending man.", F(p.CCV_EXTRA_ATTACKER)),
    (
        8,
        "CCV +3 for defender if unpinned & unattacked crewman on this attack.",
        F(p.CCV_UNATTACKED_CREWMAN),
    ),
    (8, "ttacker win by 3+?", F(p.CC_WIN_MARGIN)),
    (8, "* friendly group with > 1 unpinned man.", F(p.CC_AFV_ADJACENT_UNPINNED_MORE_THAN)),
]


@pytest.mark.parametrize(("page", "printed", "ours"), OURS, ids=[o[1] for o in OURS])
def test_our_page_7_and_8_numbers_are_the_second_transcriptions(page, printed, ours):
    assert _numbers(page, printed) == ours


def test_every_page_7_and_8_record_with_numbers_is_compared():
    compared = {(page, printed) for page, printed, _ in OURS}
    left = {key for key, record in RECORDS.items() if record.numbers and key not in compared}
    assert not left


def test_the_restored_signs_agree_and_the_morale_check_is_the_one_disagreement():
    assert RECORDS[(8, "Total: < 0: ttacker KI")].comparison == "<="
    assert RECORDS[(8, "> 7: FV KI")].comparison == ">="
    assert RECORDS[(8, "ttacker win by 3+?")].comparison == ">="
    # the transcription keeps "<" for "RNC < Morale?"; page 8's default reads <= (at_most),
    # and 'below' is the transcription's reading (docs/upfront.md)
    assert RECORDS[(8, "RC < Morale?")].comparison == "<"
    assert UpFrontMoraleCheck().morale_pass == "at_most"


def test_page_7s_adverse_effects_do_what_the_transcription_reads_them_to_do():
    """The two boxes' effects, as the transcription records them, are the code's default
    (page 4's parallel boxes: Black 6 immobilizes, Black 5 & OT kills); the other reading is
    the named alternative ``adverse_reading = red6_kills``."""
    from firefight.rulesets.upfront.cards import Card, Number  # noqa: PLC0415
    from firefight.rulesets.upfront.overrun_attack import (  # noqa: PLC0415
        UpFrontOverrun,
        adverse_effect,
    )

    def red(value: int) -> Card:
        return Card(1, "fire", Number(value, "red"), (Number(0, "black"),) * 10)

    def effect(printed: str) -> str:
        (applies,) = RECORDS[(7, printed)].applies
        return "AFV KIA" if "AFV KIA" in applies else "AFV immobilized"

    inp = UpFrontOverrun()
    assert effect("Res. RC Red 6*?") == adverse_effect(red(6), False, False, inp)
    assert effect("Res. RC Red 6*?") == "AFV immobilized"
    assert effect("Res. RC Red 5* & OT FV?") == adverse_effect(red(5), False, True, inp)
    assert effect("Res. RC Red 5* & OT FV?") == "AFV KIA"
    # the heroic footnotes widen their own boxes
    assert "immobilizes" in RECORDS[(7, "* Red 5 or 6, if Man is Heroic.")].applies[0]
    assert adverse_effect(red(5), True, False, inp) == "AFV immobilized"
    assert adverse_effect(red(4), True, True, inp) == "AFV KIA"
    reverse = UpFrontOverrun(adverse_reading="red6_kills")
    assert adverse_effect(red(6), False, False, reverse) == "AFV KIA"
    assert adverse_effect(red(5), False, True, reverse) == "AFV immobilized"
