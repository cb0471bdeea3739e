"""Pages 1 and 3's printed numbers, and FACTS.md's Up Front numbers (hand sizes, the deck's
composition, the card's anatomy, Relative Range, the British option, victory points), against
the second, independent transcription (tests/rulesets/upfront/transcription/flowcharts.toml and
facts.toml): a typo on either side fails here. Where the two readings differ, the code's
reading (documented in docs/upfront.md, "Readings") is pinned as a disagreement."""

from __future__ import annotations

from fractions import Fraction

import pytest

from firefight.rulesets.upfront import afv, cards, fire, firepower, malfunction, ranges, resolution
from firefight.rulesets.upfront import printed as p
from tests.rulesets.upfront.transcription_records import load_facts, load_flowcharts

RECORDS = {(r.page, r.printed, r.occurrence): r for r in load_flowcharts() if r.page in (1, 3)}
FACTS = load_facts()


def F(*values: object) -> tuple[Fraction, ...]:  # noqa: N802 - short for the table below
    return tuple(Fraction(v) for v in values)  # type: ignore[arg-type]


def _page(source: str) -> int:
    """ "Up Front flow charts, page 6: ..." -> 6."""
    return int(source.removeprefix("Up Front flow charts, page ").partition(":")[0])


HERO = "x2 Flanking, Encircled, Infiltrator (if firing), Hero (on uncrewable LMG req's RC)"
ZERO = "0 FP Crewman, Unarmed man, Transferring, Malf, Ordnance on firing infiltrator/flamethrower"
OURS = [
    (1, HERO, 1, F(p.FLANKING_FACTOR)),
    (1, HERO, 1, F(p.ENCIRCLED_FACTOR)),
    (1, HERO, 1, F(p.INFILTRATOR_FACTOR)),
    (1, HERO, 1, F(p.HERO_FACTOR)),
    (1, "x2 Bracketed Hero on LMG/MMG", 1, F(p.HERO_FACTOR)),
    (1, "x½ (Round down) Moving BR, Wounded", 1, F(p.HALF)),
    (1, ZERO, 1, F(p.ZERO_FP)),
    (1, "+1 for British", 1, F(p.BRITISH_MODIFIER)),
    (1, "-1 for Italian", 1, F(p.ITALIAN_MODIFIER)),
    (1, "FV/IG Firepower Modifiers: - 1 per Comm. KI each", 1, F(p.COMMANDER_KIA_MODIFIER)),
    (1, "FV Unboxed Resolution P4", 1, F(_page(afv.PAGE4))),
    (3, "Go to Fire Weapon Malfunction.. P6", 1, F(_page(malfunction.PAGE6))),
    (3, "M KI 2VP", 1, F(p.KIA_VP)),
    (3, "Is RPC(7) = MORLE?", 1, F(p.BERSERK_COLUMN)),
    (3, "RR5?", 1, F(p.BERSERK_RR)),
    (3, "Is RPC(0) > Rout #?", 1, F(p.ROUT_COLUMN)),
    (3, "Is RPC(7) = MORLE?", 2, F(p.WOUND_COLUMN)),
    (3, "M WOUDED 1VP", 1, F(p.WOUNDED_VP)),
    (3, "2 nd WOUD = KI", 1, F(p.WOUNDS_TO_KIA)),
    (3, "M ROUTS 1VP", 1, F(p.ROUTED_VP)),
    (3, "May take as RR5", 1, F(p.ROUT_TAKEN_RR)),
    (3, "5VP", 1, F(p.ROUT_TAKEN_VP)),
]


@pytest.mark.parametrize(
    ("page", "printed", "occurrence", "ours"),
    OURS,
    ids=[f"p{o[0]} {o[1][:40]} #{o[2]} {i}" for i, o in enumerate(OURS)],
)
def test_our_page_1_and_3_numbers_are_the_second_transcriptions(page, printed, occurrence, ours):
    assert RECORDS[(page, printed, occurrence)].numbers == ours


def test_every_page_1_and_3_record_with_numbers_is_compared():
    compared = {(page, printed, occurrence) for page, printed, occurrence, _ in OURS}
    left = {key for key, record in RECORDS.items() if record.numbers and key not in compared}
    assert not left


def test_the_code_uses_the_compared_constants():
    """The constants compared above are the ones page 1 and page 3 import (not copies)."""
    assert firepower.FLANKING_FACTOR is p.FLANKING_FACTOR
    assert firepower.HERO_FACTOR is p.HERO_FACTOR
    assert firepower.HALF is p.HALF
    assert firepower.BRITISH_MODIFIER is p.BRITISH_MODIFIER
    assert firepower.ITALIAN_MODIFIER is p.ITALIAN_MODIFIER
    assert firepower.COMMANDER_KIA_MODIFIER is p.COMMANDER_KIA_MODIFIER
    assert resolution.KIA_VP is p.KIA_VP
    assert resolution.ROUT_COLUMN is p.ROUT_COLUMN
    assert resolution.VP == {
        "KIA": p.KIA_VP,
        "KIA (2nd wound)": p.KIA_VP,
        "KIA (banzai)": p.KIA_VP,
        "KIA (panic)": p.KIA_VP,
        "wounded": p.WOUNDED_VP,
        "routed": p.ROUTED_VP,
    }


def test_page_1_and_3_comparisons_are_the_codes():
    """The signs: total <= FP (restored), FR > KIA, FR = KIA, > panic / morale, RPNC(0) >
    rout #, as page 1 and man_result read them."""
    signs = {key[1]: r.comparison for key, r in RECORDS.items() if r.kind == "comparison"}
    assert signs == {
        "Total # < FP": "<=",
        "Is FR > KI?": ">",
        "Is FR = KI?": "=",
        "Is man pinned & FR > PIC?": ">",
        "Is man not pinned & FR > MORLE?": ">",
    }
    assert RECORDS[(3, "Is RPC(0) > Rout #?", 1)].comparison == ">"
    assert RECORDS[(3, "RR5?", 1)].comparison == "="


def test_hero_on_a_machine_gun_is_doubled_bracketed_as_the_transcription_reads():
    """Page 1's "x2 Bracketed Hero on LMG/MMG": the transcription reads x2 on the bracketed
    FP, and so does the code by default (reading `hero_on_mg = doubled_bracketed`; FACTS.md:
    "a Hero doubles (MG: bracketed) one man's FP"); `bracketed` is the alternative
    (docs/upfront.md, Readings)."""
    record = RECORDS[(1, "x2 Bracketed Hero on LMG/MMG", 1)]
    assert record.judgement is not None
    assert record.judgement.startswith("Printed as its own heading")
    assert "read as x2 applied to the bracketed FP" in record.judgement
    assert fire.UpFrontFire().hero_on_mg == "doubled_bracketed"
    assert "MG: bracketed" in FACTS["fire"]["quote"]


def test_zero_fp_non_firing_infiltrator_is_read_as_the_transcription_does():
    """Page 1's "Ordnance on firing infiltrator/flamethrower": read with a lost N, as the
    transcription does ("Non-firing infiltrator/flamethrower" is a 0-FP case of its own,
    `not_firing`; docs/upfront.md, Readings); ordnance fires 0 always."""
    record = RECORDS[(1, ZERO, 1)]
    assert "Non-firing infiltrator/flamethrower" in record.applies
    assert p.ZERO_FP == 0
    assert "not_firing" in fire.UpFrontFire.model_fields


# FACTS.md (facts.toml)


def test_facts_deck_composition_is_the_codes():
    facts = {
        ("split" if row["kind"] == "split-action" else row["kind"]): row["count"]
        for row in FACTS["deck"]["composition"]
    }
    assert facts == cards.STATED_COMPOSITION
    assert sum(cards.STATED_COMPOSITION.values()) == FACTS["deck"]["total"]


def test_facts_card_anatomy_is_the_codes():
    card = FACTS["card"]
    assert (card["rn_minimum"], card["rn_maximum"]) == (0, cards.RN_HIGHEST)
    assert card["rpn_per_card"] == cards.RPN_COLUMNS
    assert [c.capitalize() for c in card["rn_colours"]] == [c.capitalize() for c in cards.COLOURS]
    assert card["rpn_colours"] == list(cards.COLOURS)


def test_facts_hand_sizes_and_discards_are_the_codes():
    rows = FACTS["hands"]["nationality"]
    assert {r["name"].lower(): r["hand"] for r in rows} == ranges.HAND_SIZE
    assert {r["name"].lower(): r["discards"] for r in rows} == ranges.DISCARDS
    assert tuple(r["name"].lower() for r in rows) == cards.NATIONALITIES


def test_facts_relative_range_is_the_codes():
    rr = FACTS["relative_range"]
    assert (rr["minimum"], rr["maximum"]) == (0, ranges.RR_HIGHEST)
    assert rr["fold_from"] == ranges.RR_HIGHEST + 1
    assert rr["fold_total"] == ranges.RANGE_FOLD
    # the function itself: the fold, the -1 and the floor
    assert ranges.relative_range(rr["fold_from"], 0, "opposite") == (
        rr["fold_total"] - rr["fold_from"]
    )
    assert ranges.relative_range(2, 1, "other") == 3 + rr["not_opposite_or_adjacent"]
    assert ranges.relative_range(0, 0, "other") == rr["floor"]
    assert ranges.relative_range(5, 5, "other") == rr["floor"]


def test_facts_fire_numbers_are_the_codes():
    facts = FACTS["fire"]
    assert Fraction(facts["moving_group_fire_card"]) == p.HALF
    assert fire.UpFrontFire().moving_fire == "half"
    assert facts["hero_fp"] == p.HERO_FACTOR


def test_disagreement_bolt_action_rifles_are_not_halved():
    """FACTS.md: "bolt-action rifles halve FP"; page 1 prints no such line (its x1/2 is for a
    moving BAR and the wounded). By default (reading ``bolt_action = as_printed``) the code
    takes a bolt rifle's FP from the men file as given; ``half`` applies FACTS.md's x1/2
    (docs/upfront.md, Readings: `bolt_action`; tests/rulesets/upfront/test_page1_readings.py)."""
    from firefight.rulesets.upfront.fire import UpFrontFire  # noqa: PLC0415

    assert Fraction(FACTS["fire"]["bolt_action_rifle_fp"]) == Fraction(1, 2)
    applies = RECORDS[(1, "x½ (Round down) Moving BR, Wounded", 1)].applies
    assert not any("bolt" in case.lower() for case in applies)
    assert UpFrontFire.model_fields["bolt_action"].default == "as_printed"


def test_facts_british_option_is_the_codes():
    british = FACTS["british"]
    assert british["lower_fp_by"] == p.BRITISH_LOWER_FP
    assert british["fp_minimum"] == p.BRITISH_LOWER_FP_MINIMUM


def test_facts_victory_points_and_panic_are_the_codes():
    vp = FACTS["victory_points"]
    assert (vp["kia"], vp["wounded"], vp["routed"]) == (p.KIA_VP, p.WOUNDED_VP, p.ROUTED_VP)
    panic = FACTS["panic"]
    # column "0r" is page 3's "RPNC(0)" (the same column, docs/upfront.md); the reading
    # panic_column KIAs on RPN <= panic, colour ignored
    assert panic["column"] == f"{p.ROUT_COLUMN}r"
    assert panic["kia_comparison"] == "<="
    assert "panic_column" in resolution.UpFrontResolution.model_fields["panic"].description


def test_facts_inference_is_the_default_fr_reading():
    inference = FACTS["inference"]
    assert inference["fr_formula"] == "FFS + RN"
    assert inference["cards_per_target_man"] == 1
    assert resolution.UpFrontResolution(ffs=3).fr == "ffs_plus_rn"
