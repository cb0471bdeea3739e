"""Relative Range from the range chits and hand sizes by nationality (FACTS.md)."""

from __future__ import annotations

import pytest

from firefight.rulesets.upfront.ranges import HAND, RANGE, relative_range


@pytest.mark.parametrize(
    ("own", "enemy", "alignment", "rr"),
    [
        (0, 0, "opposite", 0),
        (2, 3, "opposite", 5),
        (3, 3, "adjacent", 4),  # 6 or more: 10 - 6
        (5, 5, "opposite", 0),  # 10 - 10
        (3, 4, "other", 2),  # 10 - 7, then -1
        (0, 0, "other", 0),  # never below 0
        (1, 2, "other", 2),
    ],
)
def test_relative_range_is_the_chit_sum_folded_at_6_and_lowered_when_not_facing(
    own, enemy, alignment, rr
):
    assert relative_range(own, enemy, alignment) == rr
    inp = RANGE.parse({"own_chit": own, "enemy_chit": enemy, "alignment": alignment})
    assert dict(RANGE.odds(inp)) == {f"RR {rr}": 1}


@pytest.mark.parametrize(
    ("nationality", "hand", "discard"),
    [
        ("german", 5, 1),
        ("american", 6, 2),
        ("british", 5, 2),
        ("russian", 4, 4),
        ("japanese", 4, 2),
        ("french", 6, 1),
        ("italian", 4, 2),
    ],
)
def test_hand_size_and_discards_by_nationality(nationality, hand, discard):
    inp = HAND.parse({"nationality": nationality})
    assert dict(HAND.odds(inp)) == {f"hand {hand}, discard {discard}": 1}
