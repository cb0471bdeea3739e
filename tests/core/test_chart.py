"""Charts as data: labels as printed, bands, clamping, and clear errors for bad files."""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path

import pytest

from firefight.core.chart import Axis, Chart, load_chart, parse_band
from firefight.errors import ChartError, RuleError


@pytest.mark.parametrize(
    ("label", "band"),
    [
        ("15+", (15, math.inf)),
        ("41+", (41, math.inf)),
        ("<=0", (-math.inf, 0)),
        (">=7", (7, math.inf)),
        ("1-4", (1, 4)),
        ("7", (7, 7)),
        ("-2", (-2, -2)),
    ],
)
def test_labels_read_as_bands(label, band):
    assert parse_band(label) == band


def test_a_label_that_is_not_a_band_is_an_error():
    with pytest.raises(ChartError, match="'x7' is not a number"):
        parse_band("x7")


def test_floor_axis_reads_the_highest_label_not_above_the_value():
    columns = Axis("FACTOR", ("1", "2", "10", "12"), below="error", above="clamp")
    assert columns.index(Fraction(5, 2)) == 1
    assert columns.index(11) == 2
    assert columns.index(99) == 3
    with pytest.raises(RuleError, match="FACTOR 1/2 is below the chart's lowest, 1"):
        columns.index(Fraction(1, 2))


def test_clamped_axis_reads_the_first_band_below_it():
    rows = Axis("DICE", ("0", "1", "2+"), below="clamp")
    assert rows.index(-3) == 0
    assert rows.index(9) == 2


def test_axis_above_error():
    odds = Axis("ODDS", ("1", "2", "3"), above="error")
    with pytest.raises(RuleError, match="above the chart's highest"):
        odds.index(4)


def test_axis_labels_must_increase():
    with pytest.raises(ChartError, match="increasing"):
        Axis("DICE", ("2", "1"))


def small_chart(**overrides) -> Chart:
    fields = {
        "id": "t",
        "title": "T",
        "source": "test",
        "rows": Axis("DICE", ("0", "1+"), below="clamp"),
        "columns": Axis("F", ("1", "2")),
        "cells": (("A", "B"), ("-", "A")),
        "legend": (("A", "a"), ("B", "b"), ("-", "none")),
    }
    fields.update(overrides)
    return Chart(**fields)


def test_lookup_reports_the_cell_used_and_shifts_columns():
    chart = small_chart()
    cell = chart.lookup(-1, 1)
    assert (cell.row, cell.column, cell.value) == ("0", "1", "A")
    assert str(cell) == "t: row 0, column 1 -> A"
    assert chart.lookup(0, 1, column_shift=5).column == "2"
    assert chart.lookup(0, 2, column_shift=-5).column == "1"
    assert chart.meaning("B") == "b"


def test_a_cell_once_found_is_kept_and_a_refused_lookup_is_not(monkeypatch):
    from firefight.core import chart as module  # noqa: PLC0415

    chart = small_chart(columns=Axis("F", ("1", "2"), above="error"))
    first = chart.lookup(1, Fraction(2))
    assert chart.lookup(1, 2) is first  # 2 and Fraction(2) are one column value
    assert (first.row, first.column, first.value) == ("1+", "2", "A")
    for _ in range(2):  # an error is raised each time, never kept as an answer
        with pytest.raises(RuleError, match="above the chart's highest"):
            chart.lookup(1, 3)
    monkeypatch.setattr(module, "LOOKUPS_KEPT", 2)
    chart.lookup(0, 1)
    assert len(chart._looked_up) == 2
    assert chart.lookup(0, 2).value == "B"  # a third: the kept cells are let go first
    assert len(chart._looked_up) == 1
    assert chart.lookup(1, 2) == first
    assert chart == small_chart(columns=Axis("F", ("1", "2"), above="error"))  # not compared


def test_chart_shape_and_codes_are_validated():
    with pytest.raises(ChartError, match="row '1\\+' has 1 cells, expected 2"):
        small_chart(cells=(("A", "B"), ("A",)))
    with pytest.raises(ChartError, match="codes not in its legend"):
        small_chart(cells=(("A", "Z"), ("-", "A")))
    with pytest.raises(ChartError, match="1 rows of cells for 2 labels"):
        small_chart(cells=(("A", "B"),))


def test_unknown_label_lists_the_allowed_ones():
    with pytest.raises(RuleError, match="DICE must be one of 0, 1\\+ \\(got '7'\\)"):
        small_chart().cell_at("7", "1")


GOOD = """
id = "t"
title = "T"
source = "test"
[rows]
labels = ["0", "1+"]
below = "clamp"
[columns]
labels = ["1", "2"]
[cells]
"0" = ["A", "B"]
"1+" = ["-", "A"]
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "t.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_good_file_loads(tmp_path):
    chart = load_chart(write(tmp_path, GOOD))
    assert chart.to_json()["cells"] == [["A", "B"], ["-", "A"]]


@pytest.mark.parametrize(
    ("broken", "message"),
    [
        (GOOD.replace('"1+" = ["-", "A"]', ""), "row '1\\+' must be a list of strings"),
        (GOOD.replace('below = "clamp"', 'below = "wrap"'), "must be one of clamp, error"),
        (GOOD.replace('id = "t"', "id = 3"), "'id' must be a string"),
        (GOOD.replace('"0" = ["A", "B"]', '"0" = ["A", "B"]\n"9" = ["A", "B"]'), "not among"),
        (GOOD + "[[", "t.toml"),
        (GOOD.replace("[cells]", "[cellz]"), "\\[cells\\] is missing"),
        (GOOD.replace('labels = ["1", "2"]', 'labels = "1 2"'), "must be a list of strings"),
    ],
)
def test_a_broken_file_is_a_clear_error(tmp_path, broken, message):
    with pytest.raises(ChartError, match=message):
        load_chart(write(tmp_path, broken))


def test_a_missing_file_is_a_clear_error(tmp_path):
    with pytest.raises(ChartError, match=r"nope\.toml"):
        load_chart(tmp_path / "nope.toml")


def test_a_labels_axis_is_read_by_name(tmp_path):
    text = """
id = "impact"
title = "Impact"
source = "test"
[rows]
kind = "labels"
labels = ["Light", "Medium"]
[columns]
labels = ["0", "1"]
above = "error"
[cells]
"Light" = ["10^2", "4^1"]
"Medium" = ["12^2", "7^2"]
"""
    chart = load_chart(write(tmp_path, text))
    assert chart.lookup_label("Medium", 1).value == "7^2"
    assert chart.cell_at("Light", "0").value == "10^2"
    with pytest.raises(RuleError, match=r"read by label \(Light, Medium\)"):
        chart.lookup(1, 1)
    with pytest.raises(RuleError, match="above the chart's highest"):
        chart.lookup_label("Light", 2)
    with pytest.raises(ChartError, match="kind must be one of bands, labels"):
        load_chart(write(tmp_path, text.replace('kind = "labels"', 'kind = "names"')))
    with pytest.raises(ChartError, match="repeats a label"):
        Axis("X", ("a", "a"), kind="labels")
