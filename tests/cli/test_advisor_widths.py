"""The advisors' answers (``move --to``, ``engage --optimal``, ``advise``) at 80 and 60
columns and in a pipe: no line wider than the terminal, and no number, fraction or
percentage broken across lines (each one the wide answer prints is there, whole)."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firefight.cli.fit import fitted, wrap
from firefight.cli.render import console
from tests.helpers import run_cli as run

SMALL = """
ruleset = "ept"
title = "small"
turns = 2
[situation]
range = "normal"
[a]
name = "Germans"
[[a.units]]
name = "MG"
strength = [6]
morale = 7
[b]
name = "Americans"
[[b.units]]
name = "Squad"
strength = [5]
morale = 7
[[b.units]]
name = "BAR"
strength = [3]
morale = 6
"""

ADVISE = (
    "advise", "--firers", "ger-rifle-1,ger-rifle-2,ger-lmg,ger-assistant",
    "--targets", "us-rifle,us-bar", "--rr", "3", "--hand", "62,64,67,70,5",
)  # fmt: skip
MOVE = ("move", "village", "--stack", "0206", "--to", "0406")

NUMBER = re.compile(r"\d+(?:[./:]\d+)*(?:,\d{3}(?!\d))*(?: ?%)?")
"""A number as the answers print it: ``3.552``, ``5/12``, ``0:85.3``, ``92.4 %``, ``41.67%``,
``216,685`` (a list's items, ``62,64``, are numbers each)."""

WIDTHS = ["80", "60", None]
"""Terminals of 80 and 60 columns, and a pipe (``COLUMNS`` unset: 80)."""


def _numbers(text: str) -> Counter[str]:
    return Counter(NUMBER.findall(text))


def _answer(capsys, monkeypatch, columns: str | None, args: tuple[str, ...]) -> str:
    if columns is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", columns)
    code, out, err = run(capsys, *args)
    assert code == 0, err
    return out


def _commands(tmp_path) -> list[tuple[str, ...]]:
    path = tmp_path / "small.toml"
    path.write_text(SMALL, encoding="utf-8")
    return [ADVISE, MOVE, ("engage", str(path), "--optimal")]


@pytest.mark.parametrize("which", ["advise", "move", "engage"])
def test_advisors_never_break_a_number_at_narrow_widths(capsys, monkeypatch, tmp_path, which):
    args = dict(zip(["advise", "move", "engage"], _commands(tmp_path), strict=True))[which]
    wide = _answer(capsys, monkeypatch, "400", args)
    for columns in WIDTHS:
        out = _answer(capsys, monkeypatch, columns, args)
        width = int(columns or 80)
        assert [line for line in out.splitlines() if len(line.rstrip()) > width] == []
        assert _numbers(out) == _numbers(wide), columns


def test_a_table_too_wide_for_any_layout_becomes_a_block_a_row():
    rows = [("1", "FIRE 64+67+70 = 9", "92.4 %", "0:7.6 2:7.1 4:85.3")]
    shown = fitted("plays", ("#", "play", "P(KIA)", "VP"), rows, 20, {"P(KIA)"})
    out = console()
    with out.capture() as captured:
        out.print(shown)
    text = captured.get()
    assert "#1 FIRE 64+67+70 = 9" in text
    assert "P(KIA): 92.4 %" in text
    assert _numbers(text) == _numbers("1 64+67+70 = 9 92.4 % 0:7.6 2:7.1 4:85.3")


WORDS = st.lists(
    st.one_of(
        st.from_regex(r"\d{1,4}(\.\d{1,3})?( %)?", fullmatch=True),
        st.from_regex(r"\d{1,3}/\d{1,4}", fullmatch=True),
        st.from_regex(r"[a-z]{1,9}", fullmatch=True),
    ),
    min_size=1,
    max_size=12,
)


@given(WORDS, st.integers(min_value=1, max_value=30))
def test_wrapping_breaks_only_between_words(words, width):
    text = " ".join(words)
    lines = wrap(text, width).split("\n")
    assert " ".join(lines) == text
    for line in lines:
        assert len(line) <= width or " " not in line.replace(" %", "")
