"""Every cell of the TABLE DE COMBAT against a second transcription: the seed's own text.

The text below is pasted verbatim from seed 000 (000_7e545a6d88e32420.txt), re-wrapped only.
It is parsed here, independently of firefight's chart loader, and compared cell by cell with
``data/combat.toml``: a typo in either cannot pass.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from firefight.core.chart import Chart, load_chart
from firefight.rulesets.ept.fire import DATA, combat_table

SEED_TEXT = """
TABLE DE COMBAT = Combat Table DICE FINAL ATTACK FACTOR 1 2 3 4 5 6 7 8 9 0 N1 N2 N3 1 1 1 1
1 1 1 N N1 N2 N3 1 1 1 1 1 2 N N N1 N2 N3 N3 1 1 1 3 S2 S2 N N1 N2 N2 N3 N3 1 4 S1 S1 S2 N
N1 N2 N2 N3 N3 5 S1 S1 S2 N N1 N2 N2 N3 N3 6 - - S S1 S2 N N N1 N1 7 - - - S S1 S1 S2 N N 8
- - - - S S S1 S1 S2 9 - - - - - - - S S1 10 - - - - - - - - - 11 - - - - - - - - - 12 - - -
- - - - - - 13 - - - - - - - - - 14 - - - - - - - - - 15+ - - - - - - - - - DICE FINAL
ATTACK FACTOR 10 12 14 16 20 24 28 34 40 0 E E E E E E E E E 1 1 E E E E E E E E 2 1 1 1 1 E
E E E E 3 1 1 1 1 1 E E E E 4 N3 1 1 1 1 1 1 E E 5 N3 1 1 1 1 1 1 E E 6 N2 N3 N3 1 1 1 1 1 1
7 N1 N2 N3 N3 1 1 1 1 1 8 N N1 N2 N2 N3 N3 1 1 1 9 S2 N N1 N1 N2 N2 N3 1 1 10 S1 S1 N N N1
N1 N2 N3 1 11 - - S1 S2 N N N1 N2 N3 12 - - - - S S1 N N1 N2 13 - - - - - - S1 N N1 14 - - -
- - - - S1 N 15+ - - - - - - - - S1 Result: S = test of stoppage; N = test of
neutralization; 1 = lose a step + Neutralized; E = Eliminated"""

HEADER = "DICE FINAL ATTACK FACTOR"
ROW_LABELS = [str(n) for n in range(15)] + ["15+"]


def transcribe(text: str) -> dict[tuple[str, str], str]:
    """(row, column) -> cell, read from the seed's two half-charts."""
    body = " ".join(text.split()).split("Result:")[0]
    halves = body.split(HEADER)[1:]
    assert len(halves) == 2
    cells: dict[tuple[str, str], str] = {}
    for half in halves:
        tokens = half.split()
        columns, tokens = tokens[:9], tokens[9:]
        for row in ROW_LABELS:
            assert tokens[0] == row, f"expected row {row}, found {tokens[0]!r}"
            for column, cell in zip(columns, tokens[1:10], strict=True):
                cells[row, column] = cell
            tokens = tokens[10:]
        assert not tokens
    return cells


SEED_CELLS = transcribe(SEED_TEXT)


def differences(chart: Chart) -> list[str]:
    """Every cell where the chart and the seed's text disagree."""
    found = []
    for (row, column), expected in SEED_CELLS.items():
        actual = chart.cell_at(row, column).value
        if actual != expected:
            found.append(f"row {row}, column {column}: data {actual!r}, seed {expected!r}")
    return found


def test_the_seed_text_has_288_cells():
    assert len(SEED_CELLS) == 16 * 18


def test_the_chart_has_the_seed_rows_and_columns():
    chart = combat_table()
    assert list(chart.rows.labels) == ROW_LABELS
    assert list(chart.columns.labels) == sorted({c for _, c in SEED_CELLS}, key=int)
    assert sum(len(row) for row in chart.cells) == 288


@pytest.mark.parametrize(("row", "column"), sorted(SEED_CELLS))
def test_cell_matches_the_seed(row, column):
    assert combat_table().cell_at(row, column).value == SEED_CELLS[row, column]


def test_a_typo_in_the_data_file_is_caught(tmp_path: Path):
    text = (DATA / "combat.toml").read_text(encoding="utf-8")
    row_7 = '"7" =   ["-",  "-",  "-",  "S",  "S1", "S1", "S2", "N",  "N",   "N1"'
    typo_7 = '"7" =   ["-",  "-",  "-",  "S",  "S1", "S1", "S2", "N",  "N1",  "N1"'
    assert row_7 in text
    bad = tmp_path / "combat.toml"
    bad.write_text(text.replace(row_7, typo_7), encoding="utf-8")
    assert differences(load_chart(bad)) == ["row 7, column 9: data 'N1', seed 'N'"]


def test_the_data_file_agrees_with_the_seed_everywhere():
    assert differences(combat_table()) == []
