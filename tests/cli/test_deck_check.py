"""``firefight deck check``: a deck or personality file checked whole, one line per problem
naming the card (or man) and the field, exit code 2 when there is one, ``--json``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import run_cli as run

ILLUSTRATIVE = (
    Path(__file__).resolve().parents[2] / "src/firefight/rulesets/upfront/data/illustrative"
)
RPN = '["0b", "1b", "2r", "3b", "4b", "5b", "6b", "7b", "8b", "9b"]'


def card(number: object = 1, kind: str = "fire", rn: str = '"4r"', extra: str = "value = 2") -> str:
    return f'[[card]]\nnumber = {number}\nkind = "{kind}"\nrn = {rn}\nrpn = {RPN}\n{extra}\n'


def deck(tmp_path: Path, *cards: str, head: str = 'title = "mine"') -> Path:
    path = tmp_path / "deck.toml"
    path.write_text(head + "\n" + "\n".join(cards), encoding="utf-8")
    return path


def problems(capsys: pytest.CaptureFixture[str], path: Path, *options: str) -> list[str]:
    code, out, _err = run(capsys, "deck", "check", str(path), "--partial", *options)
    assert code == 2
    return out.splitlines()


def test_the_shipped_deck_and_personalities_check_clean(capsys):
    code, out, _ = run(capsys, "deck", "check", str(ILLUSTRATIVE / "deck.toml"))
    assert code == 0
    assert out.startswith("deck.toml: 162 entries, no problem (35 terrain, 26 movement, 48 fire")
    code, out, _ = run(capsys, "deck", "check", str(ILLUSTRATIVE / "men.toml"))
    assert code == 0
    assert out.startswith("men.toml: 11 entries, no problem")


def test_a_partial_deck_of_good_cards_checks_clean_with_partial(capsys, tmp_path):
    path = deck(tmp_path, card(1), card(2, "terrain", '"3b"', "value = -1"))
    code, out, _ = run(capsys, "deck", "check", str(path), "--partial")
    assert (code, out) == (0, "deck.toml: 2 entries, no problem (1 terrain, 1 fire)\n")


def test_every_problem_of_a_card_is_a_line_naming_the_card_and_the_field(capsys, tmp_path):
    bad_rpn = RPN.replace('"2r"', '"2x"').replace('"9b"', '"12b"')
    text = card(17, rn='"7r"', extra="colour = 3").replace(RPN, bad_rpn)
    lines = problems(capsys, deck(tmp_path, text))
    assert lines == [
        "deck.toml: card 17: 'colour' must be a known field: one of breeze, kia, kind, modifier,"
        " name, number, rn, rpn, split, value (got 'colour')",
        "deck.toml: card 17: 'rn' must be a number 0 to 6 and its colour, e.g. \"4r\" (red) or"
        " \"4b\" (black) (got '7r')",
        "deck.toml: card 17: 'rpn[2]' must be a number 0 to 9 and its colour, e.g. \"4r\" (red)"
        " or \"4b\" (black) (got '2x')",
        "deck.toml: card 17: 'rpn[9]' must be a number 0 to 9 and its colour, e.g. \"4r\" (red)"
        " or \"4b\" (black) (got '12b')",
        "deck.toml: card 17: 'value' must be given for a fire card (got None)",
    ]


@pytest.mark.parametrize(
    ("text", "line"),
    [
        (card('"x"'), "card #1: 'number' must be an integer from 1 to 9999 (got 'x')"),
        (card(kind="bomb"), "card 1: 'kind' must be one of terrain, movement, fire"),
        (card(extra=""), "card 1: 'value' must be given for a fire card (got None)"),
        ("[[card]]\nnumber = 3\n", "card 3: 'kind' must be given (got None)"),
        (card(kind="split", extra=""), "card 1: 'split' must be given for a split card"),
        (
            card(kind="split", extra='split = { german = "fire", klingon = "fire" }'),
            "card 1: 'split' must be one of german, american",
        ),
        (card(extra="value = 2\nbreeze = 1"), "card 1: 'breeze' must be true or false (got 1)"),
        (card(rn="[4]"), "card 1: 'rn' must be a number 0 to 6 and its colour"),
        (card().replace(RPN, '["0b"]'), "card 1: 'rpn' must be an array of 10 values"),
    ],
)
def test_each_kind_of_card_problem(capsys, tmp_path, text, line):
    lines = problems(capsys, deck(tmp_path, text))
    assert any(found.startswith("deck.toml: " + line) for found in lines), lines


def test_a_number_given_twice_and_the_file_fields(capsys, tmp_path):
    path = deck(tmp_path, card(1), card(1), head="title = 3\nillustrative = 1")
    assert problems(capsys, path) == [
        "deck.toml: 'title' must be text of 1 to 120 characters (got 3)",
        "deck.toml: 'illustrative' must be true or false (got 1)",
        "deck.toml: card 1: 'number' must be unique in the deck (got 1)",
    ]


def test_a_deck_is_counted_against_the_162_cards(capsys, tmp_path):
    path = deck(tmp_path, *(card(n, "hero", extra="") for n in range(1, 4)))
    code, out, _ = run(capsys, "deck", "check", str(path))
    assert code == 2
    lines = out.splitlines()
    assert "deck.toml: the 162-card deck has 35 terrain cards (got 0)" in lines
    assert "deck.toml: the 162-card deck has 2 hero cards (got 3)" in lines
    assert len(lines) == 10  # every kind of the basic deck, each short or over
    assert problems(capsys, path) == ["deck.toml: the 162-card deck has 2 hero cards (got 3)"]


def test_a_stated_composition_that_does_not_match_is_named(capsys, tmp_path):
    path = deck(tmp_path, card(1), head='title = "t"\n[composition]\nfire = 2')
    assert problems(capsys, path) == [
        "deck.toml: 'composition.fire' must be the number of fire cards in the file (1) (got 2)"
    ]


def test_a_file_that_is_no_toml_is_one_line(capsys, tmp_path):
    path = tmp_path / "deck.toml"
    path.write_text("title = \n", encoding="utf-8")
    lines = problems(capsys, path)
    assert len(lines) == 1
    assert lines[0].startswith("deck.toml: ")


def test_a_missing_file_is_an_error_exit_2(capsys, tmp_path):
    code, out, err = run(capsys, "deck", "check", str(tmp_path / "none.toml"))
    assert (code, out) == (2, "")
    assert err.startswith("error: none.toml: ")


def test_personality_problems_name_the_man_and_the_field(capsys, tmp_path):
    path = tmp_path / "men.toml"
    path.write_text(
        'title = "mine"\n[[man]]\nid = "sgt"\nnationality = "german"\nrank = "sergeant"\n'
        'weapon = "rifle"\nfirepower = [1, 1, 2, 2, 3, 99]\nmorale = 3\npanic = 4\n'
        '[[man]]\nid = "sgt"\nnationality = "german"\nrank = "private"\nweapon = "rifle"\n'
        "firepower = [1, 1, 2, 2, 3, 3]\nmorale = 3\npanic = 4\nrout = 5\n",
        encoding="utf-8",
    )
    assert problems(capsys, path) == [
        "men.toml: man sgt: 'rout' must be given (got None)",
        "men.toml: man sgt: 'rank' must be one of private, leader, hero, vehicle (got 'sergeant')",
        "men.toml: man sgt: 'firepower[5]' must be an integer from 0 to 30 (got 99)",
        "men.toml: man sgt: 'id' must be unique in the file (got 'sgt')",
    ]


def test_json_gives_every_problem_with_its_card_and_field(capsys, tmp_path):
    path = deck(tmp_path, card(5, rn='"9b"'))
    code, out, _ = run(capsys, "deck", "check", str(path), "--partial", "--json")
    assert code == 2
    data = json.loads(out)
    assert data["kind"] == "deck"
    assert data["valid"] is False
    assert data["entries"] == 1
    assert data["counts"]["fire"] == 1
    assert data["expected"]["fire"] == 48
    assert [(p["entry"], p["field"]) for p in data["problems"]] == [("card 5", "rn")]
    code, out, _ = run(capsys, "deck", "check", str(ILLUSTRATIVE / "deck.toml"), "--json")
    assert code == 0
    assert json.loads(out)["valid"] is True


def test_the_kind_of_file_is_read_from_it_or_named(capsys, tmp_path):
    path = tmp_path / "cards.toml"
    path.write_text((ILLUSTRATIVE / "men.toml").read_text(encoding="utf-8"), encoding="utf-8")
    code, out, _ = run(capsys, "deck", "check", str(path), "--json")
    assert (code, json.loads(out)["kind"]) == (0, "men")
    code, out, _ = run(capsys, "deck", "check", str(path), "--file", "deck")
    assert code == 2
    assert "'man' must be a known field" in out
    code, _out, err = run(capsys, "deck", "check", str(path), "--file", "roster")
    assert code == 2
    assert "'--file' must be deck or men (got 'roster')" in err
