"""Up Front data files: the illustrative deck and personalities load, and a hostile file is
one line naming the file, the card (or man) and the field, never a traceback."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from firefight.rulesets.upfront.cards import STATED_COMPOSITION, load_deck
from firefight.rulesets.upfront.loader import DataFileError
from firefight.rulesets.upfront.men import load_men
from firefight.rulesets.upfront.paths import ILLUSTRATIVE_DECK, ILLUSTRATIVE_MEN


def test_the_illustrative_deck_has_162_cards_in_the_stated_composition_and_rn_distribution():
    deck = load_deck(ILLUSTRATIVE_DECK)
    assert len(deck.cards) == 162
    assert deck.illustrative
    assert "ILLUSTRATIVE" in deck.label
    assert Counter(c.kind for c in deck.cards) == Counter(STATED_COMPOSITION)
    rn = Counter(c.rn.value for c in deck.cards)
    assert rn == {0: 23, 1: 23, 2: 23, 3: 24, 4: 23, 5: 23, 6: 23}
    assert sum(c.rn.red for c in deck.cards) == 54
    assert sum(c.breeze for c in deck.cards) == 6


def test_the_illustrative_personalities_load_and_are_labelled():
    men = load_men(ILLUSTRATIVE_MEN)
    assert men.illustrative
    assert "ILLUSTRATIVE" in men.label
    assert men.man("ger-lmg").bracketed == (2, 2, 3, 3, 4, 4)
    assert men.man("ger-pz4").afv is not None


GOOD_CARD = (
    'number = 1\nkind = "rally"\nrn = "4r"\n'
    'rpn = ["1b","2b","3b","4b","5b","6b","7b","8b","9b","0r"]\n'
)


def _deck(tmp_path: Path, body: str, top: str = 'title = "t"\n') -> Path:
    path = tmp_path / "deck.toml"
    path.write_text(top + body, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("[[card]]\n" + GOOD_CARD.replace('"4r"', '"7r"'), "deck.toml: card 1: 'rn' must be"),
        ("[[card]]\n" + GOOD_CARD.replace('"4r"', '"4x"'), "card 1: 'rn' must be a number 0 to 6"),
        ("[[card]]\n" + GOOD_CARD.replace(',"0r"', ""), "card 1: 'rpn' must be an array of 10"),
        ("[[card]]\n" + GOOD_CARD.replace('"9b"', '"9"'), "card 1: 'rpn[8]' must be"),
        ("[[card]]\n" + GOOD_CARD.replace("rally", "dance"), "card 1: 'kind' must be one of"),
        ("[[card]]\n" + GOOD_CARD.replace("rally", "fire"), "card 1: 'value' must be given"),
        ("[[card]]\n" + GOOD_CARD + "colour = 1\n", "card 1: 'colour' must be a known field"),
        ("[[card]]\n" + GOOD_CARD + "breeze = 1\n", "card 1: 'breeze' must be true or false"),
        ("[[card]]\n" + GOOD_CARD + "[[card]]\n" + GOOD_CARD, "card 1: 'number' must be unique"),
        ("[[card]]\n" + GOOD_CARD.replace("number = 1\n", ""), "card #1: 'number' must be given"),
        ("[[card]]\n" + GOOD_CARD + "[composition]\nrally = 2\n", "'composition.rally' must be"),
        ("[[card]]\nnumber = [", "deck.toml: "),
        ("card = 3\n", "deck.toml: 'card' must be an array"),
    ],
)
def test_a_hostile_deck_file_is_one_line_naming_file_card_and_field(tmp_path, body, expected):
    with pytest.raises(DataFileError) as caught:
        load_deck(_deck(tmp_path, body))
    message = str(caught.value)
    assert expected in message
    assert "\n" not in message


def test_a_deck_file_that_is_not_utf8_is_one_line(tmp_path):
    path = tmp_path / "deck.toml"
    path.write_bytes(b'title = "\xff"\n')
    with pytest.raises(DataFileError, match=r"^deck.toml: a deck file must be UTF-8"):
        load_deck(path)


GOOD_AFV = (
    "{ armour = { k = 9, s = 8, i = 7 }, flank = { k = 7, s = 6, i = 5 }, ce = 6, ovr = 8, "
    "turret = true, open_topped = false, boxed = true }\n"
)
GOOD_MAN = (
    'id = "a"\nnationality = "german"\nrank = "private"\nweapon = "rifle"\n'
    "firepower = [1,1,2,2,3,3]\nmorale = 3\npanic = 4\nrout = 5\n"
)


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (GOOD_MAN.replace("[1,1,2,2,3,3]", "[1,2]"), "man a: 'firepower' must be an array of 6"),
        (GOOD_MAN.replace("morale = 3", "morale = 11"), "man a: 'morale' must be an integer"),
        (GOOD_MAN.replace("german", "swiss"), "man a: 'nationality' must be one of"),
        (GOOD_MAN + "crew = 'cook'\n", "man a: 'crew' must be one of none, gunner"),
        (GOOD_MAN + "afv = { ce = 1 }\n", "man a.afv: 'armour' must be given"),
        (
            GOOD_MAN + "afv = " + GOOD_AFV.replace("}\n", ", vp = 31 }\n"),
            "man a: 'afv.vp' must be an integer from 0 to 30 (got 31)",
        ),
        (GOOD_MAN.replace('"a"', '"a b"'), "'id' must be text without commas"),
    ],
)
def test_a_hostile_personality_file_is_one_line_naming_file_man_and_field(tmp_path, body, expected):
    path = tmp_path / "men.toml"
    path.write_text('title = "t"\n[[man]]\n' + body, encoding="utf-8")
    with pytest.raises(DataFileError) as caught:
        load_men(path)
    assert expected in str(caught.value)
    assert str(caught.value).startswith("men.toml: ")


@pytest.mark.parametrize("name", ["\x00", ".", "/dev/zero", "/nonexistent/deck.toml"])
def test_a_deck_or_men_field_that_is_no_regular_file_is_one_line(name):
    from firefight.rulesets.upfront.cards import deck_file  # noqa: PLC0415
    from firefight.rulesets.upfront.men import men_file  # noqa: PLC0415

    for load in (deck_file, men_file):
        with pytest.raises(DataFileError) as caught:
            load(name)
        assert "\n" not in str(caught.value)


def test_an_afv_may_give_the_vp_number_of_afv_kia_10_plus(tmp_path):
    """Pages 4 and 7: "AFV KIA 10 + # VP"; afv.vp is the AFV card's # (optional)."""
    path = tmp_path / "men.toml"
    path.write_text('title = "t"\n[[man]]\n' + GOOD_MAN + "afv = " + GOOD_AFV, encoding="utf-8")
    afv = load_men(path).men[0].afv
    assert afv is not None
    assert afv.vp is None
    with_vp = GOOD_AFV.replace("}\n", ", vp = 4 }\n")
    path.write_text('title = "t"\n[[man]]\n' + GOOD_MAN + "afv = " + with_vp, encoding="utf-8")
    afv = load_men(path).men[0].afv
    assert afv is not None
    assert afv.vp == 4
