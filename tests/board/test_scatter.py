"""Scatter on the board: impact hexes and their exact distribution."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firefight.board.hexes import Hex
from firefight.board.scatter import impact_distribution, impact_hex
from firefight.errors import InputError

AIM = Hex(5, 5)


@given(st.integers(1, 6), st.integers(0, 5))
def test_the_impact_lies_at_the_distance_along_the_direction(direction, distance):
    impact = impact_hex(AIM, direction, distance)
    assert AIM.distance(impact) == distance
    if distance:
        assert AIM.line_to(impact)[1] == AIM.neighbour(direction)


def test_direction_1_is_straight_up():
    assert impact_hex(AIM, 1, 2) == Hex(5, 3)
    with pytest.raises(InputError, match="'direction'"):
        impact_hex(AIM, 7, 1)


def test_impact_distribution_spreads_each_distance_over_six_directions():
    distances = {0: Fraction(1, 2), 1: Fraction(1, 3), 2: Fraction(1, 6)}
    impacts = impact_distribution(AIM, distances)
    assert sum(impacts.values()) == 1
    assert impacts[AIM] == Fraction(1, 2)
    assert len(impacts) == 1 + 6 + 6
    assert all(impacts[h] == Fraction(1, 18) for h in AIM.ring(1))
    assert all(
        impacts[h] == Fraction(1, 36) for h in AIM.ring(2) if AIM.distance(h) == 2 and h in impacts
    )
    assert impacts.probability(lambda h: AIM.distance(h) == 2) == Fraction(1, 6)
