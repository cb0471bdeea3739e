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


# --- MODIFICATEURS DE TIR -------------------------------------------------------------------

FIRE_MODIFIERS_TEXT = """
MODIFICATEURS DE TIR = Fire Modifiers Fire strength: -- Distance: Against adjacent hex: x 2
Distance between normal range and up to double this range: x 1/2 -- Moving + fire: x 1/2 --
Firer stopped: x 1/2 -- Firer in smoke: x 1/2 -- Target hidden: x 1/2 Target: modifiers to
dice -- Target in tactical movement: -1 -- Target in normal movement: -2 -- Target in force
march: -3 [-- AT or Inf. gun taking fire from its front: +1 (18.3)] Terrain: modifiers to the
dice -- Light protection: +1 -- Medium protection: +2 -- Important protection: +3 -- Target
in smoke: +1 -- Visual hindrance: +1 per hex. traversed (max.: 3) All modifers are cumulative
"""


def printed_fire_modifiers(text: str) -> dict[str, str]:
    """Each printed line's value: 'Against adjacent hex' -> 'x 2'."""
    flat = " ".join(text.split())
    found = {}
    for name in (
        "Against adjacent hex",
        "Distance between normal range and up to double this range",
        "Moving + fire",
        "Firer stopped",
        "Firer in smoke",
        "Target hidden",
        "Target in tactical movement",
        "Target in normal movement",
        "Target in force march",
        "AT or Inf. gun taking fire from its front",
        "Light protection",
        "Medium protection",
        "Important protection",
        "Target in smoke",
        "Visual hindrance",
    ):
        value = flat.split(name + ":", 1)[1].split()
        found[name] = " ".join(value[:2]) if value[0] == "x" else value[0]
    return found


FIRE_MODIFIER_ROWS = {
    "Against adjacent hex": "Fire strength: Against adjacent hex",
    "Distance between normal range and up to double this range": (
        "Fire strength: Distance between normal range and up to double this range"
    ),
    "Moving + fire": "Fire strength: Moving + fire",
    "Firer stopped": "Fire strength: Firer stopped",
    "Firer in smoke": "Fire strength: Firer in smoke",
    "Target hidden": "Fire strength: Target hidden",
    "Target in tactical movement": "Target: Target in tactical movement",
    "Target in normal movement": "Target: Target in normal movement",
    "Target in force march": "Target: Target in force march",
    "AT or Inf. gun taking fire from its front": (
        "Target: AT or Inf. gun taking fire from its front (18.3)"
    ),
    "Light protection": "Terrain: Light protection",
    "Medium protection": "Terrain: Medium protection",
    "Important protection": "Terrain: Important protection",
    "Target in smoke": "Terrain: Target in smoke",
    "Visual hindrance": "Terrain: Visual hindrance (per hex. traversed, max.: 3)",
}


def test_fire_modifiers_chart_matches_the_seed():
    from firefight.rulesets.ept.fire import DATA  # noqa: PLC0415

    chart = load_chart(DATA / "fire_modifiers.toml")
    printed = printed_fire_modifiers(FIRE_MODIFIERS_TEXT)
    assert len(printed) == len(chart.rows.labels)
    for name, row in FIRE_MODIFIER_ROWS.items():
        assert chart.cell_at(row, "value").value == printed[name], name


def test_fire_py_applies_the_printed_values():
    import firefight  # noqa: PLC0415

    fire = firefight.ruleset("ept").procedure("fire")
    every = fire.parse(
        {
            "strength": 8,
            "range": "adjacent",
            "moved_and_fired": True,
            "firer_stopped": True,
            "firer_in_smoke": True,
            "target_hidden": True,
            "target_movement": "normal",
            "gun_fired_on_from_front": True,
            "protection": "important",
            "target_in_smoke": True,
        }
    )
    long_range = fire.parse({"strength": 8, "range": "long", "hindrance_hexes": 1})
    printed = printed_fire_modifiers(FIRE_MODIFIERS_TEXT)
    shown = {m.label: m.display() for m in [*fire.modifiers(every), *fire.modifiers(long_range)]}
    as_shown = {v.replace("x ", "x") for v in printed.values()}
    assert set(shown.values()) <= as_shown | {"x1/2", "x2"}
    assert shown["against adjacent hex"] == printed["Against adjacent hex"].replace(" ", "")
    assert shown["beyond normal range, up to double"] == "x1/2"
    assert shown["target in normal movement"] == printed["Target in normal movement"]
    assert shown["important protection"] == printed["Important protection"]
    assert (
        shown["AT or inf. gun fired on from its front"]
        == printed["AT or Inf. gun taking fire from its front"]
    )
    assert shown["target in smoke"] == printed["Target in smoke"]
