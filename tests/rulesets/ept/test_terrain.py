"""TABLE DES TERRAINS against the seed's text; terrain effects; the hindrance LOS rule."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

import firefight
from firefight.cli import main
from firefight.rulesets.ept.terrain import (
    COLUMN_LABELS,
    ROW_LABELS,
    hindrance_blocks_los,
    hindrance_dice_modifier,
    terrain_effect,
    terrain_table,
)

# Pasted from seed 000, "TABLE DES TERRAINS = Terrain Table", one printed row a line.
SEED_TEXT = """
Clear terrain 1 2 3 4 5 0
Forest 2 4 6 6 - +2
Orchard* 1 3 4 5 6 +1
Brush* 1.5 2 4 5 6 +1
Field* 1.5 2 3 4 6 +1
Marsh* 2 Prohibited--------------- +1
Cemetery* 2 4 6 6 - +1
Water body Prohibited-----------------------
Waterway 2 3 4 3 6 0
Bridge 1 1 1 1 1 0
Road 1 1 1 1 1 0
Hedge +0.5 +0.5 +3 Prohibited +1
Bocage +0.5 Prohibited--------------- +2
Wall +0.5 +1 Prohibited------- +1
Wood Building 1 Prohibited--------------- +2
Stone Building 1 Prohibited--------------- +3
Higher Level +1 +2 +2 +2 +4 (+1)
"""
MOVERS = ["Inf.", "Tracked", "Halftrk", "4x4", "Wheeled"]


def transcribe(text: str) -> dict[str, list[str]]:
    """Row -> five mover cells + protection; "Prohibited" spans the movers left of it."""
    rows: dict[str, list[str]] = {}
    for line in text.strip().splitlines():
        words = line.split()
        first = next(
            i for i, w in enumerate(words) if w[0] in "0123456789+-(" or w.startswith("Prohibited")
        )
        name, cells = " ".join(words[:first]), words[first:]
        movers: list[str] = []
        protection = ""
        for cell in cells:
            if cell.startswith("Prohibited"):
                movers += ["Prohibited"] * (5 - len(movers))
            elif len(movers) < 5:
                movers.append(cell)
            else:
                protection = cell
        assert len(movers) == 5, line
        rows[name] = [*movers, protection]
    return rows


SEED_ROWS = transcribe(SEED_TEXT)


def test_the_chart_has_the_seed_rows_and_columns():
    table = terrain_table()
    assert list(table.rows.labels) == list(SEED_ROWS)
    assert list(table.columns.labels) == [*MOVERS, "Protection"]


@pytest.mark.parametrize("row", list(SEED_ROWS))
def test_row_matches_the_seed(row):
    table = terrain_table()
    assert [table.cell_at(row, c).value for c in table.columns.labels] == SEED_ROWS[row]


def test_vocabulary_covers_every_row_and_mover():
    assert sorted(ROW_LABELS.values()) == sorted(SEED_ROWS)
    assert list(COLUMN_LABELS.values()) == MOVERS


def test_terrain_effects():
    hedge = terrain_effect("hedge", "halftrack")
    assert (hedge.cost, hedge.added, hedge.protection) == (Fraction(3), True, 1)
    assert terrain_effect("hedge", "4x4").cost is None
    assert terrain_effect("brush", "infantry").cost == Fraction(3, 2)
    assert terrain_effect("field", "tracked").visual_hindrance
    assert not terrain_effect("forest", "tracked").visual_hindrance
    assert terrain_effect("forest", "wheeled").cost is None
    assert terrain_effect("forest", "wheeled", "no_cost").cost == 0
    water = terrain_effect("water_body", "infantry")
    assert (water.cost, water.protection) == (None, None)
    higher = terrain_effect("higher_level", "wheeled")
    assert (higher.cost, higher.protection, higher.conditional_protection) == (4, 1, True)


@pytest.mark.parametrize(
    ("total", "above_3", "from_3"),
    [(0, False, False), (2, False, False), (3, False, True), (4, True, True)],
)
def test_hindrance_blocks_the_line_of_sight(total, above_3, from_3):
    assert hindrance_blocks_los(total) is above_3
    assert hindrance_blocks_los(total, "from_3") is from_3


@given(st.integers(0, 20))
def test_hindrance_modifier_is_capped_at_3(total):
    assert hindrance_dice_modifier(total) == min(total, 3)
    assert hindrance_blocks_los(total + 1) >= hindrance_blocks_los(total)


def test_terrain_procedure_is_certain():
    proc = firefight.ruleset("ept").procedure("terrain")
    odds = proc.odds(proc.parse({"terrain": "bocage", "mover": "tracked"}))
    assert dict(odds) == {"prohibited": 1}
    facts = dict(proc.facts(proc.parse({"terrain": "road", "mover": "infantry"})))
    assert facts["note"] == "infantry that moves on a road (only) receives +2 MPs (9.4)"


def test_line_of_sight_procedure(capsys):
    assert main(["odds", "ept", "line_of_sight", "--hindrance-hexes", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["distribution"] == {"hindered": "1"}
    assert data["modifiers"][0]["value"] == "2"
    assert (
        main(
            [
                "resolve",
                "ept",
                "line_of_sight",
                "--hindrance-hexes",
                "3",
                "--hindrance-blocking",
                "from_3",
                "--roll",
                "",
                "--json",
            ]
        )
        == 0
    )
    assert json.loads(capsys.readouterr().out)["outcome"] == "blocked"


def test_terrain_table_cli(capsys):
    assert main(["table", "ept", "terrain", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["cells"][-1] == ["+1", "+2", "+2", "+2", "+4", "(+1)"]
    assert main(["table", "ept", "terrain"]) == 0
    assert "entrenchments provide +2 protection" in capsys.readouterr().out
    assert main(["odds", "ept", "terrain", "--terrain", "swamp"]) == 2
    assert "'--terrain' must be one of clear, forest" in capsys.readouterr().err
