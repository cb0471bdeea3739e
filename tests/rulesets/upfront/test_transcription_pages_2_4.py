"""Pages 2 and 4's named constants against the second, independent transcription of the flow
charts (tests/rulesets/upfront/transcription/flowcharts.toml): a typo on either side fails."""

from __future__ import annotations

from fractions import Fraction

import pytest

from firefight.rulesets.upfront import afv, ordnance
from firefight.rulesets.upfront.afv import AfvReadings
from tests.rulesets.upfront.transcription_records import FlowchartRecord, load_flowcharts

# phrase (as the transcription restores it, a unique part) -> (our constant, colour read)
PAGE_2 = {
    "1 per Comm. KIA each": (ordnance.COMMANDER_KIA_TO_HIT, None),
    "Turretless Assault Guns: - 2": (ordnance.TURRETLESS_IMMOBILE_TO_HIT, None),
    "-1 vs. moving target": (ordnance.MOVING_TARGET_TO_HIT, None),
    "-1 To Hit & RNC = Miss": (ordnance.FIRER_MOVING_TO_HIT, None),
    "SMOKE? -1 To Hit ea.": (ordnance.SMOKE_TO_HIT, None),
    "Wire? -1 To Hit ea.": (ordnance.WIRE_TO_HIT, None),
    "+1 To Hit": (ordnance.ACQUIRED_TO_HIT, None),
    "Black 0 Is a Hit": (ordnance.BLACK_HIT_RN, "Black"),
    "Unboxed Ordnance Resolution on AFV P4": (int(afv.PAGE4.split()[-1]), None),
    "Boxed Ordnance Resolution on AFV. P4": (int(afv.PAGE4.split()[-1]), None),
}
PAGE_4 = {
    "This RNC Black 6?": (afv.CRITICAL_IMMOBILIZED_RN, "Black"),
    "This RNC Black 5 & OT AFV?": (afv.CRITICAL_KIA_RN, "Black"),
    "AFV KIA 10 + # VP": (afv.AFV_KIA_VP, None),
    "If Stunned > 6, KIA": (afv.STUNNED_PRINTED, None),
}
COMPARISONS = {"Is FR > k?", "Is FR > CE?", "Is FR > MORALE", "If Stunned > 6, KIA"}
"""Page 4's '>' boxes: read as printed (strict), AfvReadings.comparison = greater."""


def records(page: int) -> list[FlowchartRecord]:
    return [r for r in load_flowcharts() if r.page == page]


def matching(record: FlowchartRecord, table: dict[str, tuple[int, str | None]]) -> str:
    found = [phrase for phrase in table if phrase in record.phrase]
    assert len(found) == 1, f"page {record.page}: {record.phrase!r} matches {found}"
    return found[0]


@pytest.mark.parametrize(("page", "table"), [(2, PAGE_2), (4, PAGE_4)])
def test_every_number_printed_on_the_page_is_our_constant(page, table):
    numbered = [r for r in records(page) if r.numbers]
    assert numbered, "the transcription has no numbers for this page"
    used = set()
    for record in numbered:
        phrase = matching(record, table)
        ours, colour = table[phrase]
        assert record.numbers == (Fraction(ours),), f"page {page}: {record.phrase!r}"
        assert record.colour == colour, f"page {page}: {record.phrase!r} colour"
        used.add(phrase)
    assert used == set(table)  # every constant of ours is checked against a record


def test_page_4_reads_its_comparisons_as_printed():
    for record in records(4):
        if record.comparison == ">":
            assert any(text in record.phrase for text in COMPARISONS), record.phrase
    assert AfvReadings.model_fields["comparison"].default == "greater"


def test_ot_is_read_as_open_topped_as_the_transcription_reads_it():
    (record,) = [r for r in records(4) if "OT AFV" in r.phrase]
    assert "open-topped" in " ".join(record.applies)
    assert AfvReadings.model_fields["ot"].default == "open_topped"


def test_the_critical_hit_needs_a_black_to_hit_rnc():
    (record,) = [r for r in records(4) if r.phrase.startswith("Mortar Attack")]
    assert record.colour == "Black"
    assert afv.critical_possible("mortar", None) is False
