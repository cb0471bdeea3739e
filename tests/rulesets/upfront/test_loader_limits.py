"""Up Front's data files read through ``firefight.core.files``: a file (or upload) of more
values than ``MAX_VALUES``, nested too deep or too large is one line before it is parsed; the
deck and personality loaders are registered for the standing hostile-input run, with a valid
example that their command reads."""

from __future__ import annotations

from pathlib import Path

import pytest

from firefight.cli import main
from firefight.core.files import LOADERS
from firefight.rulesets.upfront.cards import deck_from_text, load_deck
from firefight.rulesets.upfront.loader import (
    MAX_FILE_BYTES,
    MAX_VALUES,
    DataFileError,
    FileCache,
)
from firefight.rulesets.upfront.men import load_men, men_from_text

LOADS = {"deck": (load_deck, deck_from_text), "men": (load_men, men_from_text)}
MANY = "x = [" + ",".join(["1"] * (MAX_VALUES + 1)) + "]\n"
DEEP = "x = " + "[" * 100 + "]" * 100 + "\n"


@pytest.mark.parametrize("name", sorted(LOADS))
@pytest.mark.parametrize(
    ("text", "said"),
    [
        (MANY, f"holds more than {MAX_VALUES:,} values"),
        (DEEP, "nested more than 64 levels"),
        ("#" * (MAX_FILE_BYTES + 1), f"must be at most {MAX_FILE_BYTES:,} bytes"),
    ],
    ids=["values", "depth", "size"],
)
def test_a_file_or_upload_past_the_limits_is_one_line(tmp_path, name, text, said):
    from_path, from_text = LOADS[name]
    path = tmp_path / f"{name}.toml"
    path.write_text(text, encoding="utf-8")
    for load, source in ((from_path, f"{name}.toml: "), (from_text, "uploaded")):
        with pytest.raises(DataFileError) as caught:
            load(path if load is from_path else text)
        message = str(caught.value)
        assert message.startswith(source)
        assert said in message
        assert "\n" not in message


def test_the_cap_leaves_the_shipped_files_far_below_it():
    for name in LOADS:
        text = LOADERS[name].example()
        assert sum(text.count(mark) for mark in ",=:[{") * 10 < MAX_VALUES


@pytest.mark.parametrize("name", sorted(LOADS))
def test_the_data_file_loaders_are_registered_with_a_valid_example_their_command_reads(
    tmp_path, name, capsys
):
    registered = LOADERS[name]
    path = tmp_path / f"{name}{registered.suffix}"
    path.write_text(registered.example(), encoding="utf-8")
    assert registered.load(path) == LOADS[name][0](path)
    command = [part.replace("{path}", str(path)) for part in registered.command]
    assert main([*command, "--json"] if "--json" not in command else command) == 0
    path.write_text('title = "t"\n', encoding="utf-8")
    assert main(command) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_a_file_that_is_not_there_is_one_line(tmp_path: Path):
    with pytest.raises(DataFileError, match=r"^deck.toml: a deck file cannot be read"):
        load_deck(tmp_path / "deck.toml")


def test_the_shipped_file_is_read_once_and_a_named_file_again_when_it_changes(tmp_path):
    """:class:`FileCache`: ``illustrative`` (the package's own file) is loaded once and never
    looked at again; a file named by its path is loaded again once it has changed."""
    shipped, named = tmp_path / "shipped.toml", tmp_path / "named.toml"
    shipped.write_text("one")
    named.write_text("one")
    reads: list[str] = []

    def load(path: Path) -> str:
        reads.append(path.name)
        return path.read_text()

    files = FileCache("a test file", shipped, load)
    assert files("illustrative") == files(str(named)) == "one"
    shipped.write_text("two, longer")
    named.write_text("two, longer")
    shipped.unlink()  # never looked at again: not even its absence is seen
    assert files("illustrative") == "one"
    assert files(str(named)) == "two, longer"
    assert reads == ["shipped.toml", "named.toml", "named.toml"]
