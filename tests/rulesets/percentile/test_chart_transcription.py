"""Every cell of the Defense/Firepower Table, and every defense modifier, against the seed's text.

The texts below are pasted verbatim from seed 004 (004_d9bbf172d1f21440.txt), re-wrapped only.
They are parsed here, independently of firefight's chart loader, and compared cell by cell with
``data/defense_firepower.toml`` and ``data/defense_modifiers.toml``: a typo in either cannot pass.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from firefight.core.chart import Chart, load_chart
from firefight.rulesets.percentile.defense import defense_modifiers_chart
from firefight.rulesets.percentile.fire import defense_firepower_table
from firefight.rulesets.percentile.paths import DATA

SEED_TABLE = """
| Defense | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 | | | 1 | K S | 24 80 | 27 81 | 31 82 | 36
83 | 41 85 | 46 87 | 51 89 | 56 91 | 61 93 | 66 95 | | 2 | K S | 21 71 | 24 73 | 28 75 | 32 77
| 37 79 | 42 81 | 47 84 | 53 87 | 59 90 | 65 93 | | 3 | K S | 19 62 | 23 64 | 27 67 | 31 70 |
36 73 | 41 76 | 46 79 | 52 83 | 58 87 | 64 91 | | 4 | K S | 16 54 | 20 57 | 24 60 | 29 64 | 34
68 | 39 72 | 44 76 | 50 80 | 56 84 | 62 89 | | 5 | K S | 13 45 | 17 49 | 22 53 | 27 57 | 32 61
| 37 66 | 43 71 | 49 76 | 55 81 | 61 87 | | 6 | K S | 11 36 | 15 41 | 20 46 | 25 51 | 30 56 |
36 61 | 42 66 | 48 72 | 54 79 | 60 86 | | 7 | K S | 08 27 | 13 32 | 18 38 | 23 44 | 28 50 | 34
56 | 40 63 | 46 70 | 52 77 | 59 84 | | 8 | K S | 06 19 | 11 25 | 16 31 | 21 37 | 26 44 | 32 51
| 38 58 | 44 66 | 50 74 | 57 82 | | 9 | K S | 03 10 | 08 17 | 13 24 | 18 31 | 24 38 | 30 46 |
36 54 | 42 62 | 49 71 | 56 80 | | 10 | K S | 00 01 | 05 08 | 10 15 | 16 23 | 22 31 | 28 40 | 34
49 | 41 58 | 48 68 | 55 78 |
"""

SEED_MODIFIERS = """
| Base = "2"; Full Cover (FC) = double base; Moving (MV) = 1/2 base (all modifiers halved if
fire is from a .50 caliber, or larger, machine gun. Troops riding on tanks use a base defense
of "2" | || | Woods........................................+2* | Improved
Positions....................+5 | | | Buildings :
Wood.........................................+2 Stone.........................................
+4 | Height Advantage....................+1** Height Disadvantage.................-1** | | |
Rubble/Walls..............................+1* | Opportunity Fire........................+2 | |
| Gun Shield...................................+2 |
Pillbox.......................................+8 | | | Open Top AFV..........................
+3*** | Rough Ground..........................+1 | | | AFV
Turret..................................+1 | Wreck.......................................+1 | |
| Through Smoke............................+2 | Soft Vehicle................................+1
| | | Elite Unit......................................+1 | || | * not valid for
indirect/plummeting fire ** factor not halved by .50 cal.or larger MG fire *** for vehicles so
noted on their data sheet, crew is in full cover unless fired on from a higher elevation.
Note-this data is not available on current armor data sheets at this site. |
"""


def transcribe(text: str) -> dict[tuple[str, str], str]:
    """(defense row, firepower column) -> "K S", read from the seed's table text."""
    tokens = [" ".join(part.split()) for part in text.split("|")]
    tokens = [token for token in tokens if token]
    assert tokens[0] == "Defense"
    columns, tokens = tokens[1:11], tokens[11:]
    assert columns == [str(n) for n in range(1, 11)]
    cells: dict[tuple[str, str], str] = {}
    while tokens:
        row, marker, row_cells = tokens[0], tokens[1], tokens[2:12]
        assert marker == "K S", f"row {row}: expected 'K S', found {marker!r}"
        assert all(re.fullmatch(r"\d\d \d\d", cell) for cell in row_cells), row_cells
        for column, cell in zip(columns, row_cells, strict=True):
            cells[row, column] = cell
        tokens = tokens[12:]
    return cells


SEED_CELLS = transcribe(SEED_TABLE)


def differences(chart: Chart) -> list[str]:
    """Every cell where the chart and the seed's text disagree."""
    found = []
    for (row, column), expected in SEED_CELLS.items():
        actual = chart.cell_at(row, column).value
        if actual != expected:
            found.append(f"defense {row}, firepower {column}: data {actual!r}, seed {expected!r}")
    return found


def test_the_seed_text_has_100_cells():
    assert len(SEED_CELLS) == 100
    assert {row for row, _ in SEED_CELLS} == {str(n) for n in range(1, 11)}


def test_the_chart_has_the_seed_rows_and_columns():
    chart = defense_firepower_table()
    assert list(chart.rows.labels) == [str(n) for n in range(1, 11)]
    assert list(chart.columns.labels) == [str(n) for n in range(1, 11)]
    assert chart.rows.header == "DEFENSE"
    assert chart.columns.header == "FIREPOWER"


@pytest.mark.parametrize(("row", "column"), sorted(SEED_CELLS))
def test_cell_matches_the_seed(row, column):
    assert defense_firepower_table().cell_at(row, column).value == SEED_CELLS[row, column]


def test_a_typo_in_the_data_file_is_caught(tmp_path: Path):
    text = (DATA / "defense_firepower.toml").read_text(encoding="utf-8")
    row_7 = '"7" =  ["08 27", "13 32", "18 38"'
    typo_7 = '"7" =  ["08 27", "13 32", "18 36"'
    assert row_7 in text
    bad = tmp_path / "defense_firepower.toml"
    bad.write_text(text.replace(row_7, typo_7), encoding="utf-8")
    assert differences(load_chart(bad)) == ["defense 7, firepower 3: data '18 36', seed '18 38'"]


def test_the_data_file_agrees_with_the_seed_everywhere():
    assert differences(defense_firepower_table()) == []


def test_k_never_exceeds_s_and_both_fall_with_defense_and_rise_with_firepower():
    def thresholds(row: int, column: int) -> tuple[int, int]:
        k, s = SEED_CELLS[str(row), str(column)].split()
        return int(k), int(s)

    for row in range(1, 11):
        for column in range(1, 11):
            k, s = thresholds(row, column)
            assert k <= s
            if row < 10:
                assert all(a <= b for a, b in zip(thresholds(row + 1, column), (k, s), strict=True))
            if column < 10:
                assert all(a >= b for a, b in zip(thresholds(row, column + 1), (k, s), strict=True))


# --- Infantry Fire Defense Modifiers ---------------------------------------------------------

MODIFIER_ROWS = {
    "Woods": "Woods",
    "Wood": "Buildings: Wood",
    "Stone": "Buildings: Stone",
    "Rubble/Walls": "Rubble/Walls",
    "Gun Shield": "Gun Shield",
    "Open Top AFV": "Open Top AFV",
    "AFV Turret": "AFV Turret",
    "Through Smoke": "Through Smoke",
    "Elite Unit": "Elite Unit",
    "Improved Positions": "Improved Positions",
    "Height Advantage": "Height Advantage",
    "Height Disadvantage": "Height Disadvantage",
    "Opportunity Fire": "Opportunity Fire",
    "Pillbox": "Pillbox",
    "Rough Ground": "Rough Ground",
    "Wreck": "Wreck",
    "Soft Vehicle": "Soft Vehicle",
}


def printed_modifiers(text: str) -> dict[str, str]:
    """Each printed line's value with its footnote marks: 'Woods' -> '+2*'."""
    flat = " ".join(text.split())
    return dict(re.findall(r"([A-Z][A-Za-z/ ]*?)\.{3,}\s*([+-]\d+\**)", flat))


def test_the_seed_prints_17_modifiers():
    assert set(printed_modifiers(SEED_MODIFIERS)) == set(MODIFIER_ROWS)


def test_defense_modifiers_chart_matches_the_seed():
    chart = defense_modifiers_chart()
    printed = printed_modifiers(SEED_MODIFIERS)
    assert len(chart.rows.labels) == len(printed)
    for name, row in MODIFIER_ROWS.items():
        assert chart.cell_at(row, "value").value == printed[name], name


def test_the_base_rules_and_footnotes_are_kept_as_notes():
    notes = " ".join(defense_modifiers_chart().notes)
    flat = " ".join(SEED_MODIFIERS.split())
    assert 'Base = "2"; Full Cover (FC) = double base; Moving (MV) = 1/2 base' in flat
    for note in defense_modifiers_chart().notes:
        assert note in flat, note
    assert "* not valid for indirect/plummeting fire" in notes
