"""The second transcription of the Up Front flow charts (seed 002) checks itself.

flowcharts.toml is what the rule set's constants are compared with, so it must itself be right:
each record quotes the seed's page text, the numbers it lists are the numerals of its phrase,
its restoration only puts back what the extraction lost, and no numeral the seed prints on
pages 1-8 is left out.
"""

from __future__ import annotations

import re
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

from tests.rulesets.upfront.transcription_records import (
    PAGES,
    TranscriptionFileError,
    as_extracted,
    load_facts,
    load_flowcharts,
    numerals,
    seed_pages,
)

RECORDS = load_flowcharts()
SEED = seed_pages()


def _span(record) -> tuple[int, int]:
    """Where the record's printed text sits on its page (its n-th occurrence)."""
    text = SEED[record.page]
    start = -1
    for _ in range(record.occurrence):
        start = text.find(record.printed, start + 1)
        if start < 0:
            pytest.fail(
                f"record {record.index} (page {record.page}): occurrence {record.occurrence} "
                f"of {record.printed!r} is not on the seed's page"
            )
    return start, start + len(record.printed)


def test_every_record_has_page_phrase_and_numbers():
    assert len(RECORDS) > 100
    for record in RECORDS:
        assert record.page in PAGES
        assert record.phrase
        assert record.numbers or record.comparison or record.colour, record.index


def test_pages_one_to_eight_each_present():
    assert sorted({record.page for record in RECORDS}) == list(PAGES)
    assert sorted(SEED) == list(PAGES)


def test_records_are_grouped_by_page():
    pages = [record.page for record in RECORDS]
    assert pages == sorted(pages)


def test_each_printed_text_is_on_its_page_of_the_seed():
    for record in RECORDS:
        _span(record)


def test_no_printed_text_is_transcribed_twice():
    keys = Counter((record.page, record.printed, record.occurrence) for record in RECORDS)
    assert [key for key, count in keys.items() if count > 1] == []


def test_every_numeral_the_seed_prints_is_transcribed():
    """Every digit run, ½ and ¼ on pages 1-8 lies inside some record's printed text, except the
    page's own labels (the extraction's leading page number and 'PGE n')."""
    for page, text in SEED.items():
        covered = [_span(record) for record in RECORDS if record.page == page]
        labels = [(0, len(str(page)))]
        label = re.search(rf"PGE {page}\b", text)
        assert label is not None
        labels.append(label.span())
        missing = [
            (match.group(), text[max(0, match.start() - 30) : match.end() + 10])
            for match in re.finditer(r"\d+|[½¼]", text)
            if not any(
                start <= match.start() and match.end() <= end for start, end in covered + labels
            )
        ]
        assert missing == [], f"page {page}: numerals with no record: {missing}"


def test_numbers_are_the_numerals_of_the_phrase():
    for record in RECORDS:
        assert [abs(number) for number in record.numbers] == numerals(record.phrase), record.index
        assert numerals(record.phrase) == numerals(record.printed), record.index


def test_restoration_only_puts_back_lost_capitals_and_signs():
    for record in RECORDS:
        if record.source_typo is None:
            assert as_extracted(record.phrase) == record.printed, record.index
        else:
            # a typo of the chart itself is claimed only where the restoration alone cannot
            # give back the printed text
            assert as_extracted(record.phrase) != record.printed, record.index


def test_every_restored_sign_is_stated_and_explained():
    for record in RECORDS:
        if "≤" in record.phrase:
            assert record.comparison == "<=", record.index
        if "≥" in record.phrase:
            assert record.comparison == ">=", record.index
        if "≤" in record.phrase or "≥" in record.phrase:
            assert record.judgement, record.index
        for sign in ("<", ">"):
            if f" {sign} " in f" {record.phrase} " and record.kind == "comparison":
                assert record.comparison == sign, record.index


def test_the_cc_against_afv_bands_cover_every_total():
    bands = [record for record in RECORDS if record.page == 8 and record.unit == "CC vs AFV total"]
    bands = [record for record in bands if record.kind in {"threshold", "range"}]

    def band(total: int) -> list[str]:
        found = []
        for record in bands:
            low, high = (record.numbers * 2)[:2] if record.kind == "threshold" else record.numbers
            match record.comparison:
                case "<=":
                    inside = total <= low
                case ">=":
                    inside = total >= low
                case "=":
                    inside = total == low
                case _:
                    inside = low <= total <= high
            if inside:
                found.append(record.phrase)
        return found

    assert all(len(band(total)) == 1 for total in range(-10, 20))


def test_victory_points_agree_with_facts():
    facts = load_facts()["victory_points"]
    page3 = {
        record.phrase: record.numbers
        for record in RECORDS
        if record.page == 3 and record.unit == "VP"
    }
    assert page3["MAN KIA 2VP"] == (Fraction(facts["kia"]),)
    assert page3["MAN WOUNDED 1VP"] == (Fraction(facts["wounded"]),)
    assert page3["MAN ROUTS 1VP"] == (Fraction(facts["routed"]),)


def test_facts_deck_composition_totals_162():
    deck = load_facts()["deck"]
    assert deck["total"] == 162
    assert sum(entry["count"] for entry in deck["composition"]) == deck["total"]
    assert len({entry["kind"] for entry in deck["composition"]}) == len(deck["composition"])


def test_facts_hand_sizes_name_each_nationality_once():
    hands = load_facts()["hands"]["nationality"]
    names = [hand["name"] for hand in hands]
    assert sorted(names) == sorted(
        ["German", "American", "British", "Russian", "Japanese", "French", "Italian"]
    )
    assert all(hand["discards"] <= hand["hand"] for hand in hands)


def test_facts_relative_range_folds_into_zero_to_five():
    rr = load_facts()["relative_range"]
    folded = [rr["fold_total"] - total for total in range(rr["fold_from"], rr["fold_total"] + 1)]
    assert all(rr["minimum"] <= value <= rr["maximum"] for value in folded)
    assert rr["not_opposite_or_adjacent"] == -1
    assert rr["floor"] == rr["minimum"] == 0


def test_facts_every_table_quotes_its_sentence(tmp_path: Path):
    assert all("quote" in table for table in load_facts().values() if isinstance(table, dict))
    bad = tmp_path / "facts.toml"
    bad.write_text("[deck]\ntotal = 162\n", encoding="utf-8")
    with pytest.raises(TranscriptionFileError, match=r"facts.toml \[deck\]: 'quote' is missing"):
        load_facts(bad)


RECORD = 'page = 3\nchart = "c"\nprinted = "M KI 2VP"\nphrase = "MAN KIA 2VP"\nkind = "value"\n'


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("", r"record 1 \(page 3\): 'numbers' is missing"),
        ("numbers = [2]\npage2 = 1\n", r"'page2' is not a field"),
        ('numbers = ["2.5"]\n', r"'numbers' must be an integer or a 'p/q' string \(got '2.5'\)"),
        ("numbers = []\n", r"'numbers' is empty, so 'comparison' or 'colour' is needed"),
        ('numbers = [2]\ncolour = "Blue"\n', r"'colour' must be one of Black, Red \(got 'Blue'\)"),
        ('numbers = [2]\ncomparison = "=="\n', r"'comparison' must be one of"),
        ("numbers = [2]\noccurrence = 0\n", r"'occurrence' must be an integer from 1"),
    ],
)
def test_loader_names_the_record_and_field_it_refuses(tmp_path: Path, body: str, message: str):
    bad = tmp_path / "flowcharts.toml"
    bad.write_text(f"[[record]]\n{RECORD}{body}", encoding="utf-8")
    with pytest.raises(TranscriptionFileError, match=message):
        load_flowcharts(bad)


def test_loader_refuses_a_page_outside_one_to_eight(tmp_path: Path):
    bad = tmp_path / "flowcharts.toml"
    bad.write_text(
        f"[[record]]\n{RECORD.replace('page = 3', 'page = 9')}numbers = [2]\n", encoding="utf-8"
    )
    with pytest.raises(TranscriptionFileError, match=r"'page' must be one of 1-8 \(got 9\)"):
        load_flowcharts(bad)
