"""docs/writing-a-rule-set.md holds: its schema lists every key the loader reads and no other,
table by table; its walk-through file is valid and its commands run; its example of an error
is the line firefight prints."""

from __future__ import annotations

import json
import re
import shlex
import tomllib
from pathlib import Path

import pytest

from firefight.cli import main
from firefight.rulesets import added
from firefight.rulesets.designed import KEYS

DOC = Path(__file__).parents[3] / "docs" / "writing-a-rule-set.md"
TEXT = DOC.read_text(encoding="utf-8")
SECTIONS = {
    "The top level": "",
    "`[[fields]]`": "fields",
    "`[[modifiers]]`": "modifiers",
    "`[column]`": "column",
    "`[rows]`": "rows",
    "`[[results]]`": "results",
    "`[[follow_ups]]`": "follow_ups",
}


def documented_keys() -> dict[str, tuple[str, ...]]:
    """Each schema section's keys, in the order its table lists them."""
    schema = TEXT.split("## The schema, key by key", 1)[1]
    found: dict[str, tuple[str, ...]] = {}
    for section in re.split(r"^### ", schema, flags=re.M)[1:]:
        heading, _, body = section.partition("\n")
        if heading.strip() in SECTIONS:
            keys = re.findall(r"^\| `([a-z_]+)` \|", body, flags=re.M)
            found[SECTIONS[heading.strip()]] = tuple(keys)
    return found


def test_the_schema_documents_every_key_the_loader_reads_and_no_other():
    assert documented_keys() == KEYS


@pytest.fixture
def walked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The walk-through's file written in an empty folder, the folder of rule sets empty."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(added.FOLDER_VARIABLE, str(tmp_path / "rulesets"))
    added.forget()
    toml = re.search(r"```toml\n(.*?)```", TEXT, re.S)
    assert toml is not None
    (tmp_path / "skirmish.toml").write_text(toml.group(1), encoding="utf-8")
    yield tmp_path
    added.forget()


def test_the_walk_through_commands_run(walked, capsys):
    commands = [
        shlex.split(line)[1:]
        for block in re.findall(r"```sh\n(.*?)```", TEXT, re.S)
        for line in block.splitlines()
        if line.startswith("firefight ") and line != "firefight serve"
    ]
    assert len(commands) >= 8
    for args in commands:
        code = main(args)
        captured = capsys.readouterr()
        assert code == 0, (args, captured.err)
    assert (
        main(
            [
                "odds",
                "skirmish",
                "fire",
                "--fire-factor",
                "5",
                "--target-in-cover",
                "true",
                "--json",
            ]
        )
        == 0
    )
    odds = json.loads(capsys.readouterr().out)["distribution"]
    assert odds == {"-": "1/3", "S": "1/3", "K": "1/3"}  # column 4-6, the die less 1


def test_the_documented_error_is_the_line_printed(walked, capsys):
    quoted = re.search(r"\(`(skirmish.toml: column.labels.*?)`\)", TEXT, re.S)
    assert quoted is not None
    file = walked / "skirmish.toml"
    file.write_text(file.read_text().replace('"4-6"', '"5-6"'), encoding="utf-8")
    assert main(["rulesets", "--check", "skirmish.toml"]) == 2
    assert capsys.readouterr().err.strip() == "error: " + " ".join(quoted.group(1).split())


def test_the_walk_through_files_own_french_is_what_a_french_chart_shows(walked, capsys):
    """Each ``meaning_fr`` the walk-through's file gives is its chart's word in French, a word
    the interface translates otherwise (``suppressed``) too; its title and headers are its
    ``title_fr`` and ``header_fr``."""
    game = tomllib.loads((walked / "skirmish.toml").read_text(encoding="utf-8"))
    given = [(r["code"], r["meaning_fr"]) for r in game["results"] if "meaning_fr" in r]
    assert given
    assert main(["--lang", "fr", "table", "skirmish.toml", game["id"]]) == 0
    out = capsys.readouterr().out
    for code, meaning in given:
        assert f"{code} {meaning}" in out, out
    assert game["title_fr"] in out
    assert f"{game['rows']['header_fr']} \\ {game['column']['header_fr']}" in out
