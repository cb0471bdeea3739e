"""A game file is refused in one line naming the place in it and what was expected: a key
misspelt, a field, a band with a gap or an overlap, a cell; and bounded as every loader is."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from firefight.api import FirefightError
from firefight.i18n import language, using
from firefight.rulesets import added
from firefight.rulesets.designed import load_game
from tests.helpers import refusal

EXAMPLES = Path(__file__).parents[3] / "examples"
CRT = (EXAMPLES / "classic-crt.toml").read_text(encoding="utf-8")
FIREPOWER = (EXAMPLES / "firepower-2d6.toml").read_text(encoding="utf-8")


CASES = [
    (CRT, 'dice = "1d6"', 'dice = "1d7x"', r"^dice: expected dice written NdS"),
    (CRT, 'dice = "1d6"', 'dice = "10d100+10d100"', r"^dice: expected at most 10000 totals"),
    (CRT, 'title = "Classic', 'tittle = "Classic', r"^tittle: expected one of the keys id, "),
    (
        CRT,
        '"2-1", "3-1", "4-1"',
        '"2-1", "4-1"',
        r"^column.labels\[4\]: expected each column one step of odds above the one before"
        r" .*: a gap between '2-1' and '4-1'",
    ),
    (
        FIREPOWER,
        '"3-4", "5-7"',
        '"3-5", "5-7"',
        r"^column.labels\[4\]: expected each band to begin just after the one before:"
        r" an overlap between '3-5' and '5-7'",
    ),
    (FIREPOWER, '"3-4", "5-7"', '"3-4", "6-7"', r"a gap between '3-4' and '6-7'"),
    (
        FIREPOWER,
        '"<=2", "3", "4"',
        '"<=2", "4"',
        r"^rows.labels\[2\]: .*a gap between '<=2' and '4'",
    ),
    (FIREPOWER, '"17+"]', '"17+", "30+"]', r"^column.labels\[7\]: expected an open band"),
    (
        CRT,
        '"1" = ["AR", "DR"',
        '"1" = ["AR", "XX"',
        r'^cells."1"\[2\]: expected a code of \[\[results\]\]: AE, AR, EX, DR, DE \(got \'XX\'\)$',
    ),
    (
        CRT,
        '"6" = ["AE", "AE", "AE", "AR", "AR", "EX", "DR"]',
        '"6" = ["AE"]',
        r'^cells."6": expected 7 result codes, one per column',
    ),
    (
        CRT,
        'choices = ["clear", "woods", "town"]',
        'choices = ["clear", "Woods!", "town"]',
        r"^fields\[3\] 'terrain'.choices\[2\]: expected a choice",
    ),
    (
        CRT,
        'name = "attack_strength"',
        'name = "seed"',
        r"^fields\[1\].name: expected a name .* none of ",
    ),
    (
        CRT,
        "max = 99\ndefault = 6",
        "max = 0\ndefault = 6",
        r"^fields\[1\] 'attack_strength'.max: expected a bound of at least min \(1\) \(got 0\)$",
    ),
    (
        CRT,
        'when = { terrain = "woods" }',
        'when = { terrain = "swamp" }',
        r"^modifiers\[1\] 'defender in woods'.when.terrain: expected one of clear, woods, town",
    ),
    (
        CRT,
        'when = { terrain = "woods" }',
        'when = { ground = "woods" }',
        r"^modifiers\[1\] 'defender in woods'.when: expected the name of a field",
    ),
    (
        CRT,
        "column_shift = -1",
        "column_shift = -1\ndice = 1",
        r"^modifiers\[1\] 'defender in woods': expected exactly one of dice, column_shift,"
        r" factor \(got 'dice, column_shift'\)$",
    ),
    (
        CRT,
        'factor = "1/2"',
        'factor = "0/2"',
        r"^modifiers\[4\] 'attackers out of supply'.factor: expected a factor above 0",
    ),
    (
        CRT,
        'strength = "defense_strength"',
        'strength = "terrain"',
        r"^modifiers\[3\] 'attack across a river'.strength: expected the strength the factor"
        r" multiplies: one of attack_strength, defense_strength",
    ),
    (
        CRT,
        'defender = "defense_strength"',
        'defender = "terrain"',
        r"^column.defender: expected the name of a field of type integer:"
        r" one of attack_strength, defense_strength",
    ),
    (
        FIREPOWER,
        'if_failed = "P"',
        'if_failed = "Q"',
        r"^follow_ups\[1\] 'morale test \(2d6\)'.if_failed: expected a code of \[\[results\]\]",
    ),
    (CRT, 'id = "classic-crt"', 'id = "Classic CRT"', r"^id: expected an id of lower-case letters"),
]


@pytest.mark.parametrize(("text", "old", "new", "expected"), CASES, ids=[c[3][:40] for c in CASES])
def test_a_bad_file_is_refused_in_one_line_naming_the_place(tmp_path, text, old, new, expected):
    assert old in text
    assert re.search(expected, refusal(tmp_path, text.replace(old, new, 1)))


def test_hostile_files_are_refused_like_every_loader(tmp_path):
    assert "must be at most 256 KiB" in refusal(tmp_path, CRT + "#" * 300_000)
    assert "nested more than 6 levels" in refusal(tmp_path, CRT + "deep = " + "[" * 10 + "]" * 10)
    assert "more than 20,000 values" in refusal(tmp_path, CRT + "n = [" + "1," * 25_000 + "]")
    assert re.search(
        r"^fields\[1\] 'attack_strength'.min: expected an integer from",
        refusal(
            tmp_path,
            CRT.replace(
                "min = 1\nmax = 99\ndefault = 6",
                "min = 1" + "0" * 30 + "\nmax = 99\ndefault = 6",
                1,
            ),
        ),
    )


FRENCH_FRAMES = {
    "{where}: expected {expected} (got {got})": "{where} : {expected} attendu (reçu {got})",
    "{file}: the id {id} is a built-in rule set's: give the file another id": (
        "{file} : l'id {id} est celui d'un jeu de firefight : donnez-en un autre au fichier"
    ),
}


def test_a_refusals_frame_is_worded_in_the_language_active_when_it_is_shown(tmp_path, monkeypatch):
    """The frame is translated (here by a stand-in for the catalogue's French), each time the
    line is shown: a refusal kept from one request to the next follows each one's language;
    the file's names and values stay as given."""
    real = added._

    def french(message: str) -> str:
        return FRENCH_FRAMES.get(message, real(message)) if language() == "fr" else message

    monkeypatch.setattr(added, "_", french)
    path = tmp_path / "game.toml"
    path.write_text(CRT.replace('title = "Classic', 'tittle = "Classic'), encoding="utf-8")
    with pytest.raises(FirefightError) as raised:
        load_game(path)
    english = str(raised.value)
    assert english.startswith("game.toml: tittle: expected one of the keys id, ")
    with using("fr"):
        shown = str(raised.value)
    assert shown.startswith("game.toml: tittle : l'une des clés id, ")
    assert shown.endswith(" attendu (reçu 'tittle')")
    clash = added.clash_of("ept", frozenset({"ept"}), (), "ept.toml")
    assert clash is not None
    with using("fr"):
        assert str(clash) == (
            "ept.toml : l'id 'ept' est celui d'un jeu de firefight : donnez-en un autre au fichier"
        )
