"""A game file's words are printed as they are (its title, its fields' descriptions, its
results' meanings...), so a file whose words hold a terminal's escape, a line break or another
character that is not printable is refused, in one line naming the place and what is allowed:
by the loader, and by the listing of the folder, which reads the file's header alone."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from firefight.rulesets import added, infos
from firefight.rulesets.registry import left_out
from tests.helpers import refusal, run_cli

CRT = Path(__file__).parents[3] / "examples" / "classic-crt.toml"
ALLOWED = "printable characters, without control characters or line breaks"
ESCAPE = "\\u001b[2J"
"""A terminal's escape (it clears the screen), as a TOML string writes it."""

PLACES = [
    ('title = "Classic', "title"),
    ('title_fr = "Table', "title_fr"),
    ('source = "firefight', "source"),
    ('procedure_title = "Attack', "procedure_title"),
    ('description = "The attacking', "fields[1] 'attack_strength'.description"),
    ('label_fr = "force de défense', "fields[2] 'defense_strength'.label_fr"),
    ('choices = ["clear', "fields[3] 'terrain'.choices[1]"),
    ('label = "defender in woods', "modifiers[1].label"),
    ('rule_fr = "Table des effets', "modifiers[1] 'defender in woods'.rule_fr"),
    ('meaning = "attacker eliminated', "results[1] 'AE'.meaning"),
    ("meaning_fr = \"l'attaquant recule", "results[2] 'AR'.meaning_fr"),
]


@pytest.mark.parametrize(("anchor", "place"), PLACES)
def test_an_escape_in_any_of_a_files_words_is_refused_in_one_line(tmp_path, anchor, place):
    text = CRT.read_text(encoding="utf-8")
    assert anchor in text
    message = refusal(tmp_path, text.replace(anchor, anchor[:-1] + ESCAPE + anchor[-1], 1))
    assert message.startswith(f"{place}: expected {ALLOWED} (got ")
    assert "\x1b" not in message
    assert "\\x1b" in message


def test_a_line_break_is_refused_too(tmp_path):
    text = CRT.read_text(encoding="utf-8")
    message = refusal(tmp_path, text.replace('code = "AE"', 'code = "A\\nE"', 1))
    assert message.startswith(f"results[1].code: expected {ALLOWED}")


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    where = tmp_path / "rulesets"
    where.mkdir()
    monkeypatch.setenv(added.FOLDER_VARIABLE, str(where))
    added.forget()
    yield where
    added.forget()


def test_a_folders_file_with_an_escape_in_its_header_is_left_out(folder, capsys):
    shutil.copy(CRT, folder / "good.toml")
    text = CRT.read_text(encoding="utf-8").replace('id = "classic-crt"', 'id = "other"')
    (folder / "bad.toml").write_text(
        text.replace("procedure_title = ", f'procedure_title = "Attack{ESCAPE}"\nold = ', 1)
    )
    assert [i.id for i in infos() if getattr(i, "path", None)] == ["classic-crt"]
    ((_name, line),) = [found for found in left_out() if found[0] == "bad"]
    assert line.startswith(f"left out: bad.toml: procedure_title: expected {ALLOWED} (got ")
    code, out, err = run_cli(capsys, "rulesets")
    assert code == 0
    assert "\x1b" not in out + err
    assert "bad.toml: procedure_title" in err
