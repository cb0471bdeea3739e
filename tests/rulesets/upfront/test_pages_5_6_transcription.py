"""Pages 5 and 6's printed numbers, as this rule set holds them, against the second,
independent transcription (tests/rulesets/upfront/transcription/flowcharts.toml)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from firefight.rulesets.upfront import printed
from firefight.rulesets.upfront.artillery import UpFrontArtillery, to_hit
from firefight.rulesets.upfront.malfunction import (
    ASSISTANT_FFS,
    BREAK_RN,
    CAPTURED_BREAK_RN,
    HALF_FP,
    Firer,
    affected_by_rn,
)
from firefight.rulesets.upfront.men import load_men
from firefight.rulesets.upfront.paths import ILLUSTRATIVE_MEN
from tests.rulesets.upfront.transcription_records import FlowchartRecord, load_flowcharts

RECORDS = load_flowcharts()


def _record(page: int, phrase: str) -> FlowchartRecord:
    (found,) = [r for r in RECORDS if r.page == page and r.phrase.startswith(phrase)]
    return found


HALF_ROUND_UP = -HALF_FP  # page 6 prints "- 1/2 FP to FFS (Round up)": a negative half

CONSTANTS = [
    (5, "To Hit = Black 0-6", (printed.ARTILLERY_HIT_LOW, printed.ARTILLERY_HIT_HIGH)),
    (5, "Strength = 8", (printed.ARTILLERY_STRENGTH,)),
    (5, "To Hit = Black #-6", (printed.ARTILLERY_HIT_HIGH,)),
    (5, "First RNC = 6?", (printed.DC_MALFUNCTION_RN,)),
    (5, "FS = 5", (printed.DC_STRENGTH,)),
    (5, "*Woods TEM = 0", (printed.ARTILLERY_WOODS_TEM,)),
    (6, "Note: All Malfunctioned Weapons break on X6.", (BREAK_RN,)),
    (6, "* All Malfed Weapon break on X6.", (BREAK_RN,)),
    (6, "* All Captured Weapons break on X5-6.", (CAPTURED_BREAK_RN, BREAK_RN)),
    (6, "-1 to FFS", (ASSISTANT_FFS,)),
    (6, "- ½ FP to FFS (Round up)", (HALF_ROUND_UP,)),
]


@pytest.mark.parametrize(("page", "phrase", "ours"), CONSTANTS, ids=[c[1] for c in CONSTANTS])
def test_page_5_and_6_constants_match_the_second_transcription(page, phrase, ours):
    record = _record(page, phrase)
    assert tuple(Fraction(n) for n in ours) == record.numbers


def test_every_page_5_and_6_record_is_compared():
    compared = {(p, _record(p, phrase).index) for p, phrase, _ in CONSTANTS}
    example = _record(6, "Example: Japanese/Italian")
    listed = {(r.page, r.index) for r in RECORDS if r.page in (5, 6)}
    assert listed == compared | {(6, example.index)}


def test_the_transcribed_colour_and_rounding_are_ours():
    assert _record(5, "To Hit = Black 0-6").colour == "Black"
    assert to_hit(UpFrontArtillery()) == (printed.ARTILLERY_HIT_LOW, printed.ARTILLERY_HIT_HIGH)
    assert _record(6, "- ½ FP to FFS (Round up)").rounding == "up"


def test_the_charts_example_rn_reaches_only_the_lmg():
    (rn,) = _record(6, "Example: Japanese/Italian").numbers
    men = load_men(ILLUSTRATIVE_MEN)  # ILLUSTRATIVE: LMG malfunction 5, rifles 6
    group = [Firer(men.man("ger-lmg"))] + [Firer(men.man("ger-rifle-1"))] * 3
    assert affected_by_rn(group, int(rn)) == (0,)
