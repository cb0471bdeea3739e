"""The whole-file check is the loader's: its first problem is the one line the loader stops
at, and a file it finds nothing wrong with loads."""

from __future__ import annotations

import pytest

from firefight.rulesets.upfront.cards import UPLOADED_DECK, deck_from_text
from firefight.rulesets.upfront.check import check_deck, check_men
from firefight.rulesets.upfront.loader import DataFileError
from firefight.rulesets.upfront.men import UPLOADED_MEN, men_from_text
from firefight.rulesets.upfront.paths import ILLUSTRATIVE_DECK, ILLUSTRATIVE_MEN

DECK = ILLUSTRATIVE_DECK.read_text(encoding="utf-8")
MEN = ILLUSTRATIVE_MEN.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ('rn = "4b"', 'rn = "4q"'),
        ('kind = "fire"', 'kind = "fyre"'),
        ("number = 7\n", "number = 6\n"),
        ("fire = 48", "fire = 47"),
        ('title = "illustrative', 'titel = "illustrative'),
        ('"5b", "6b", "8b"', '"5b", "6b"'),
        ("value = 0\n", "value = 0\nbreeze = 2\n"),
    ],
)
def test_the_first_problem_is_the_loaders_line(old, new):
    text = DECK.replace(old, new, 1)
    with pytest.raises(DataFileError) as raised:
        deck_from_text(text)
    checked = check_deck(text, UPLOADED_DECK, partial=True)
    assert checked.problems[0].message == str(raised.value)


@pytest.mark.parametrize(
    ("old", "new"),
    [('rank = "leader"', 'rank = "boss"'), ("morale = 5", "morale = 50"), ("panic = 6\n", "")],
)
def test_the_first_problem_of_a_personality_file_is_the_loaders_line(old, new):
    text = MEN.replace(old, new, 1)
    with pytest.raises(DataFileError) as raised:
        men_from_text(text)
    assert check_men(text, UPLOADED_MEN).problems[0].message == str(raised.value)


def test_a_file_with_no_problem_loads():
    assert check_deck(DECK, UPLOADED_DECK).problems == ()
    assert len(deck_from_text(DECK).cards) == check_deck(DECK, UPLOADED_DECK).entries == 162
    assert check_men(MEN, UPLOADED_MEN).entries == len(men_from_text(MEN).men)
