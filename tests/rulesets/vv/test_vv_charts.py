"""Every cell of the AP Combat Table, the Terrain Effects Summary and the fortifications chart
against an independent second transcription (FACTS.md's text table; per-column lists typed
from terrain_effect_summary.png and from chapter 20's text)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from firefight.core.chart import load_chart
from firefight.rulesets.vv import DATA

# shared/research/FACTS.md, "AP Combat Table", pasted verbatim.
FACTS_AP = """
| 1-4   | 5 | 4 | 3 | 2 | 1 | - | - | - | -  | -  | -   |
| 5-10  | 6 | 5 | 4 | 3 | 2 | 1 | - | - | -  | -  | -   |
| 11-18 | 7 | 6 | 5 | 4 | 3 | 2 | 1 | - | -  | -  | -   |
| 19-28 | 8 | 7 | 6 | 5 | 4 | 3 | 2 | 1 | -  | -  | -   |
| 29-40 | 9 | 8 | 7 | 6 | 5 | 4 | 3 | 2 | 1  | -  | -   |
| 41+   | 10| 9 | 8 | 7 | 6 | 5 | 4 | 3 | 2  | 1  | -   |
"""
FACTS_COLUMNS = "| APFP  | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 | 11 | 12+ |"

# Typed from terrain_effect_summary.png, one list per column, top to bottom.
TERRAIN_INF = "1 1 2 2 2 +1 1 1 1 1 Proh."
TERRAIN_VEH = "1 1 Proh. 2 3 +1 1 1 1 1 Proh."
TERRAIN_LOS = (
    "No Effect|No Effect|Blocks|Blocks|No Effect|Blocks|Hindrance|No Effect|Hindrance|"
    "Hindrance|No Effect"
)
TERRAIN_COVER = "None|None|+3|+2|+1|Depends|+1 Cum.|None|+1 Cum.|+1 Cum.|None"

# From 20_fortifications_and_entrenchments.txt, one list per column, in the chart's row order
# (concrete bunker, wood/earth bunker, sandbags, minefield, barbed wire, foxhole, trench, cave).
FORT_COVER = "+4 +3 +2 - - +1 +2 +2"  # 20.5, 20.6, 20.9-20.11
FORT_ADDS = "- - - - - Yes Yes Yes"  # "in addition to the terrain in the hex"
FORT_ENTRY = "+1 +1 +1 +0 +0 +1 +1 +1"  # 20.3
FORT_LOS = "Blocks Blocks NoEffect NoEffect NoEffect NoEffect NoEffect NoEffect"  # 20.1, 20.5


def _facts_rows(text: str) -> dict[str, list[str]]:
    rows = {}
    for line in text.strip().splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        rows[cells[0]] = cells[1:]
    return rows


def test_every_ap_combat_cell_matches_facts() -> None:
    chart = load_chart(DATA / "ap_combat.toml")
    expected = _facts_rows(FACTS_AP)
    assert list(chart.rows.labels) == list(expected)
    assert list(chart.columns.labels) == _facts_rows(FACTS_COLUMNS)["APFP"]
    for label, cells in expected.items():
        for column, cell in zip(chart.columns.labels, cells, strict=True):
            assert chart.cell_at(label, column).value == cell, (label, column)


def test_every_terrain_cell_matches_the_image_columns() -> None:
    chart = load_chart(DATA / "terrain_effects.toml")
    columns = {
        "Movement Inf.": TERRAIN_INF.split(),
        "Movement Veh.": TERRAIN_VEH.split(),
        "LOS": TERRAIN_LOS.split("|"),
        "Cover Modifier": TERRAIN_COVER.split("|"),
    }
    assert len(chart.rows.labels) == 11
    for column, cells in columns.items():
        got = [chart.cell_at(row, column).value for row in chart.rows.labels]
        assert got == cells, column


def test_every_fortification_cell_matches_chapter_20() -> None:
    chart = load_chart(DATA / "fortifications.toml")
    columns = {
        "Cover Modifier": FORT_COVER.split(),
        "Adds to hex terrain": FORT_ADDS.split(),
        "Entry cost": FORT_ENTRY.split(),
        "LOS": [x.replace("NoEffect", "No Effect") for x in FORT_LOS.split()],
    }
    for column, cells in columns.items():
        got = [chart.cell_at(row, column).value for row in chart.rows.labels]
        assert got == cells, column
    categories = [chart.cell_at(row, "Category").value for row in chart.rows.labels]
    assert categories == ["Fortification"] * 5 + ["Entrenchment"] * 3  # 20.5-20.11


@pytest.mark.parametrize(
    ("name", "old", "new"), [("ap_combat.toml", '"6",  "5", "4"', '"6",  "5", "5"')]
)
def test_a_typo_in_a_copy_is_caught(tmp_path: Path, name: str, old: str, new: str) -> None:
    copy = tmp_path / name
    shutil.copy(DATA / name, copy)
    copy.write_text(copy.read_text(encoding="utf-8").replace(old, new, 1), encoding="utf-8")
    chart = load_chart(copy)
    expected = _facts_rows(FACTS_AP)
    mismatches = [
        (label, column)
        for label, cells in expected.items()
        for column, cell in zip(chart.columns.labels, cells, strict=True)
        if chart.cell_at(label, column).value != cell
    ]
    assert mismatches == [("5-10", "4")]
