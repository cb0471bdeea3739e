"""The compiled step of the page 3 walk (rulesets/upfront/kernel.py): its weights
in lanes rebuild every integer exactly, and the walk it drives gives the rule's own odds
(prefix replay of the rule on small piles; the multivariate hypergeometric law on the whole
deck, where weights pass 2**64 and the walk widens its lanes)."""

from __future__ import annotations

import threading
from fractions import Fraction
from math import comb

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from firefight.chance import WorkBudgetError, exact, work_budget
from firefight.rulesets.upfront import kernel
from firefight.rulesets.upfront.fire import RESOLUTION, resolution_odds
from firefight.rulesets.upfront.group import group_odds
from firefight.rulesets.upfront.resolution import (
    Tally,
    UpFrontResolution,
    man_result,
    targets,
)

MEN = ("ger-leader", "ger-rifle-1", "ger-rifle-2", "us-bar", "jap-rifle", "ita-rifle")


@given(st.integers(min_value=0, max_value=2**600))
def test_lanes_rebuild_every_weight_below_their_product(value):
    moduli = kernel.lanes_for(value)
    residues = [value % 2**64] + [value % int(p) for p in moduli[1:].tolist()]
    assert kernel.combine(np.array(residues, dtype=object), moduli) == value


@given(st.lists(st.integers(min_value=0, max_value=2**600), min_size=1, max_size=20))
def test_lanes_rebuild_every_row_of_weights_at_once_as_one_by_one(values):
    """combine_rows (Garner's digits over all rows in 64-bit words): the weights
    themselves, the same integers as combine gives one row at a time, for any number of
    lanes (the lanes for the largest weight)."""
    moduli = kernel.lanes_for(max(values))
    wraps = [int(m) or 2**64 for m in moduli.tolist()]
    rows = np.array([[v % w for w in wraps] for v in values], np.uint64)
    assert kernel.combine_rows(rows, moduli) == values
    assert kernel.combine_rows(rows, moduli) == [kernel.combine(row, moduli) for row in rows]


def test_one_lane_holds_weights_below_two_to_the_64_and_more_lanes_past_it():
    assert len(kernel.lanes_for(2**64 - 1)) == 1
    assert len(kernel.lanes_for(2**64)) == 2
    moduli = kernel.lanes_for(2**1000)  # as many lanes as any walk needs: primes below 2**31
    primes = [int(p) for p in moduli[1:].tolist()]
    assert primes[0] == 2**31 - 1
    assert primes == sorted(set(primes), reverse=True)
    assert all(all(p % d for d in range(3, 46341, 2)) for p in primes[:3])


@pytest.mark.parametrize("lanes_before", [1, 2])
def test_widening_a_level_keeps_every_weight(lanes_before):
    values = [0, 1, 2**63 + 5, 2**64 - 1] if lanes_before == 1 else [2**64, 3**50, 2**90 + 7]
    moduli = kernel.lanes_for(max(values))
    assert len(moduli) == lanes_before
    weight = np.array(
        [[v % 2**64] + [v % int(p) for p in moduli[1:].tolist()] for v in values], np.uint64
    )
    n = len(values)
    level = kernel.Level(
        np.zeros((n, 1), np.int32),
        np.zeros(n, np.int8),
        np.ones(n, np.int32),
        np.arange(n + 1, dtype=np.int64),
        np.zeros(n, np.int64),
        weight,
    )
    wider = kernel.lanes_for(2**150)
    widened = kernel.widen(level, moduli, wider)
    assert [kernel.combine(row, wider) for row in widened.weight] == values


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)
# The corners, on every run: BREEZE 29 and 69 under smoke, red RN 5 and 6 (cards 17 and 3)
# for the malfunction, pinned men, a pile that runs out into either reshuffle.
@example(
    [29, 3, 69, 17, 2, 5],
    ["ger-leader", "us-bar", "jap-rifle"],
    {"us-bar"},
    3,
    5,
    -1,
    "end_attack",
    "discards",
)
@example(
    [3, 29],
    ["ger-rifle-1", "ita-rifle", "ger-leader"],
    {"ger-rifle-1", "ita-rifle"},
    0,
    3,
    -3,
    "continue",
    "end_attack",
)
@example(
    [17, 69], ["ger-rifle-2", "us-bar", "ita-rifle"], {"ita-rifle"}, 7, 3, 0, "continue", "discards"
)
@given(
    pile=st.lists(st.integers(1, 40), min_size=1, max_size=6, unique=True),
    men=st.lists(st.sampled_from(MEN), min_size=1, max_size=3, unique=True),
    pinned=st.sets(st.sampled_from(MEN)),
    ffs=st.integers(0, 7),
    rr=st.sampled_from([3, 5]),
    smoke=st.sampled_from([0, -1, -3]),
    malfunction=st.sampled_from(["end_attack", "continue"]),
    reshuffle=st.sampled_from(["discards", "end_attack"]),
)
def test_the_compiled_walk_gives_the_odds_of_prefix_replay_of_the_rule(  # noqa: PLR0917
    pile, men, pinned, ffs, rr, smoke, malfunction, reshuffle
):
    """Any small pile (BREEZE cards 29 and 69 may be in it, red RN 5-6 malfunction the LMG),
    any men, pinned or not, any smoke, either malfunction and reshuffle reading: the walk's
    group odds are exactly the rule's own, replayed over every sequence of cards. Fifteen
    drawn cases and the three above (40 drawn before: 35 s, nearly all of it in the few cases
    whose replay made 200,000 draws, each building its deck anew in pool.py)."""
    inp = UpFrontResolution(
        pool="omniscient",
        pile=",".join(map(str, pile)),
        seen="41,42,43",  # the discards a reshuffle brings back
        ffs=ffs,
        rr=rr,
        smoke=smoke,
        firers="ger-lmg",
        malfunction=malfunction,
        reshuffle=reshuffle,
        targets=",".join(men),
        pinned_targets=",".join(m for m in men if m in pinned),
    )
    fast = RESOLUTION.odds(inp)
    assert dict(fast) == dict(exact(lambda chance: RESOLUTION.rule(inp, chance)))
    assert sum(fast.values()) == 1


def test_ten_identical_men_over_the_whole_deck_follow_the_hypergeometric_law():
    """Ten alike men, no smoke, a malfunction that does not end the attack: the group's
    tally is the count of cards of each result among ten drawn from 162, whose law is
    multivariate hypergeometric. Its weights pass 2**64 at the ninth card (162 * ... * 154),
    so the walk widens to two lanes; every probability must still be exact."""
    inp = UpFrontResolution(
        ffs=3, rr=5, targets="ger-rifle-1", firers="ger-lmg", malfunction="continue"
    )
    deck = inp.deck_data()
    man = targets(inp, inp.men_data())[0]
    by_result: dict[str, int] = {}
    for card in deck.cards:
        result = man_result(man, 3, 5, card, inp)
        by_result[result] = by_result.get(result, 0) + 1
    walk = group_odds(inp, 3, 5, [man] * 10, (6,))  # ten men of ger-rifle-1's profile
    n, total = 10, len(deck.cards)
    kinds = sorted(by_result)
    expected: dict[tuple[int, ...], Fraction] = {}

    def spread(i: int, left: int, chosen: tuple[int, ...]) -> None:
        if i == len(kinds) - 1:
            counts = (*chosen, left)
            ways = 1
            for kind, m in zip(kinds, counts, strict=True):
                ways *= comb(by_result[kind], m)
            if ways:
                expected[counts] = Fraction(ways, comb(total, n))
            return
        for m in range(left + 1):
            spread(i + 1, left - m, (*chosen, m))

    spread(0, n, ())
    got: dict[tuple[int, ...], Fraction] = {}
    for tally, p in walk.tally.items():
        counts = tuple(_count(tally, kind) for kind in kinds)
        got[counts] = got.get(counts, Fraction(0)) + p
    assert got == expected
    assert sum(got.values()) == 1


def _count(tally: Tally, result: str) -> int:
    """How many men of a tally had ``result`` (the men with no effect are the rest)."""
    slots = {"KIA": 0, "wounded": 1, "pinned": 2, "routed": 3, "berserk": 4}
    if result == "no effect":
        return 10 - sum(tally.counts[:5])
    return tally.counts[slots[result]]


def test_a_walk_past_the_budget_is_refused_in_one_line():
    """The web's work budget pays for the walk's (state, tally) pairs as each man draws: a
    budget too small for a group's walk stops it with the one-line WorkBudgetError."""
    men = "ger-leader,ger-rifle-1,ger-rifle-2,us-bar,jap-rifle,ita-rifle,brit-rifle"
    inp = UpFrontResolution(ffs=3, rr=5, smoke=-2, targets=men, firers="ger-lmg")
    with pytest.raises(WorkBudgetError), work_budget(20):
        resolution_odds(inp)
    with work_budget(100_000):
        assert sum(resolution_odds(inp).tally.values()) == 1


def _odds_in_a_new_thread(inp: UpFrontResolution) -> dict[str, Fraction]:
    """The odds computed on a thread of its own (its compiled steps' scratch new and empty)."""
    found: dict[str, Fraction] = {}
    worker = threading.Thread(target=lambda: found.update(RESOLUTION.odds(inp)))
    worker.start()
    worker.join()
    assert kernel.scratch()  # this thread's own scratch is untouched by the other's
    return found


@pytest.mark.parametrize("malfunction", ["end_attack", "page6"])
def test_the_steps_scratch_left_by_a_larger_walk_changes_no_odds(malfunction):
    """The compiled steps (pages 3 and 6) write their moves and tallies in scratch memory
    kept between steps (kernel.scratch): a small walk after a larger one, whose scratch is
    larger and full of its numbers, gives the odds the same walk gives on fresh scratch."""
    fields = {"ffs": 3, "rr": 5, "firers": "ger-lmg", "smoke": -2, "malfunction": malfunction}
    small = UpFrontResolution(targets="ger-rifle-1,us-bar", **fields)
    large = UpFrontResolution(targets=",".join(MEN[:4]), **fields)
    fresh = _odds_in_a_new_thread(small)
    RESOLUTION.odds(large)
    assert dict(RESOLUTION.odds(small)) == fresh
    assert sum(fresh.values()) == 1
