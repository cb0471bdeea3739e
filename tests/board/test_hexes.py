"""Hex geometry: labels, distance, directions, rings and the hex line."""

from __future__ import annotations

from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firefight.board.hexes import (
    DIRECTIONS,
    Hex,
    format_label,
    from_offset,
    lines_between,
    parse_label,
    spiral,
    to_offset,
)
from firefight.errors import InputError

hexes = st.builds(Hex, st.integers(-30, 30), st.integers(-30, 30))


@given(hexes, hexes, hexes)
def test_distance_is_a_metric(a, b, c):
    assert a.distance(a) == 0
    assert (a.distance(b) == 0) == (a == b)
    assert a.distance(b) == b.distance(a)
    assert a.distance(c) <= a.distance(b) + b.distance(c)


@given(hexes, hexes)
def test_the_hex_line_is_contiguous_with_distance_plus_one_hexes(a, b):
    for line in lines_between(a, b):
        assert len(line) == a.distance(b) + 1
        assert line[0] == a
        assert line[-1] == b
        assert all(x.distance(y) == 1 for x, y in pairwise(line))


@given(hexes, hexes)
def test_the_traced_line_is_the_same_both_ways(a, b):
    plus, minus = lines_between(a, b)
    back_plus, back_minus = lines_between(b, a)
    assert {tuple(plus), tuple(minus)} == {tuple(reversed(back_plus)), tuple(reversed(back_minus))}


def test_a_line_along_hexsides_is_traced_on_both_sides():
    plus, minus = lines_between(Hex(0, 0), Hex(2, -4))
    assert plus[1] != minus[1]
    assert plus[1].distance(minus[1]) == 1
    assert plus[2] == minus[2] == Hex(1, -2)


@given(hexes, st.integers(0, 6))
def test_rings_hold_the_hexes_at_that_distance(centre, radius):
    ring = centre.ring(radius)
    assert len(ring) == (6 * radius if radius else 1)
    assert len(set(ring)) == len(ring)
    assert all(centre.distance(h) == radius for h in ring)
    assert len(list(spiral(centre, radius))) == 1 + 3 * radius * (radius + 1)


def test_directions_are_numbered_clockwise_from_the_top():
    centre = Hex(0, 0)
    ys = [centre.neighbour(d).centre()[1] for d in DIRECTIONS]
    xs = [centre.neighbour(d).centre()[0] for d in DIRECTIONS]
    signs = [((x > 0) - (x < 0), (y > 0) - (y < 0)) for x, y in zip(xs, ys, strict=True)]
    # 1 up, 2 upper right, 3 lower right, 4 down, 5 lower left, 6 upper left
    assert signs == [(0, -1), (1, -1), (1, 1), (0, 1), (-1, 1), (-1, -1)]
    assert centre.step(3, 2) == Hex(2, 0)
    with pytest.raises(InputError, match="'direction' must be an integer from 1 to 6"):
        centre.neighbour(7)


@pytest.mark.parametrize("offset", ["odd-q", "even-q"])
@given(column=st.integers(1, 99), row=st.integers(1, 99))
def test_labels_parse_and_print_in_pairs(offset, column, row):
    h = from_offset(column, row, offset)
    assert to_offset(h, offset) == (column, row)
    label = format_label(h, offset)
    assert label == f"{column:02d}{row:02d}"
    assert parse_label(label, offset) == h


def test_label_0504_is_column_5_row_4():
    h = parse_label("0504")
    assert to_offset(h) == (5, 4)
    assert repr(h) == "Hex(q=5, r=2)"


def test_the_offset_decides_which_columns_stand_lower():
    # odd-q: odd columns are half a hex lower, so 0101's lower-right neighbour is 0202.
    assert parse_label("0101", "odd-q").neighbour(3) == parse_label("0202", "odd-q")
    # even-q: even columns are lower, so 0101's lower-right neighbour is 0201.
    assert parse_label("0101", "even-q").neighbour(3) == parse_label("0201", "even-q")


@pytest.mark.parametrize("label", ["504", "05-4", "abcd", "", "05041"])
def test_bad_labels_are_clear_errors(label):
    with pytest.raises(InputError, match="'hex' must be a label CCRR"):
        parse_label(label)
