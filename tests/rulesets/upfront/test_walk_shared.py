"""The machinery the Up Front walks share (rulesets/upfront/cuts.py, walk.py, draws.py,
levels.py): card kinds cut by a key, the work budget counted and settled, lane totals by code,
the tally's odds and a draw's tables for the compiled step."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from firefight.chance import WorkBudgetError, work_budget
from firefight.rulesets.upfront import kernel, levels
from firefight.rulesets.upfront.cuts import Cut, cut_apart, grouped
from firefight.rulesets.upfront.draws import draw_tables, results_of, with_next_tally
from firefight.rulesets.upfront.resolution import Tally
from firefight.rulesets.upfront.walk import (
    Gathered,
    Moves,
    decode_losses,
    lane_totals,
    pool_sizes,
    tally_odds,
)


def test_kinds_of_equal_keys_are_one_group_numbered_by_their_first_kind():
    ids, groups, first = cut_apart(["b", "a", "b", "c", "a"])
    assert ids == (0, 1, 0, 2, 1)
    assert groups == 3
    assert first == (0, 1, 3)
    assert grouped([1, 2, 3, 4, 5], ids, groups) == (4, 7, 4)


def test_a_cut_at_every_man_grows_coarser_and_recuts_counts():
    # kind k read by man p as k // (p + 1): the groups merge as men are resolved
    cut = Cut.of(2, 4, lambda position, kind: kind // (position + 1) if position < 2 else 0)
    assert cut.groups == [4, 2, 1]
    assert cut.grouped([1, 1, 1, 1], 1) == (2, 2)
    assert cut.recut((1, 2, 3, 4), 0, cut) == (3, 7)
    assert cut.map_to(1, cut) == (0, 0)


def test_moves_counted_and_settled_pay_as_the_old_counter_did():
    """``Moves.count`` then ``settle`` pays what a counter kept modulo ``per_step`` paid at
    each check (the page 6 walk's budget, paid between pool states)."""
    counts = [7, 130, 3, 99, 1, 250, 40]
    with work_budget(10**6):
        moves = Moves(100)
        old, paid_old = 0, 0
        for n in counts:
            if old >= 100:
                paid_old += old // 100
                old %= 100
            moves.settle()
            assert moves.paid == paid_old
            old += n
            moves.count(n)
    with pytest.raises(WorkBudgetError), work_budget(2):
        Moves(10).add(30)


def test_lane_totals_add_each_codes_residues_in_either_order():
    moduli = kernel.lanes_for(2**70)
    values = [2**65 + 1, 5, 2**64 + 7, 11]
    codes = np.array([3, 1, 3, 2], np.int64)
    weights = np.array(
        [[v % 2**64, *(v % int(m) for m in moduli[1:].tolist())] for v in values], np.uint64
    )
    by_code = [(1, 5), (2, 11), (3, 2**65 + 1 + 2**64 + 7)]
    assert lane_totals(codes, weights, moduli) == by_code
    assert lane_totals(codes, weights, moduli, first_seen=True) == [by_code[2], *by_code[:2]]


def test_the_tally_odds_decode_codes_and_add_up_to_the_whole():
    radix = 3
    odds = tally_odds([(0, 1), (1, 2), (1, 1), (3, 0)], radix, 4, "test")
    assert dict(odds) == {
        Tally(decode_losses(0, radix)): Fraction(1, 4),
        Tally(decode_losses(1, radix)): Fraction(3, 4),
    }
    with pytest.raises(ArithmeticError):
        tally_odds([(0, 1)], radix, 2, "test")


def test_pool_sizes_follow_the_pile_and_its_reshuffle():
    assert pool_sizes(3, 5, False, 6) == [3, 2, 1, 5, 4, 3]
    assert pool_sizes(3, 5, True, 6) == [3, 2, 1]
    assert pool_sizes(0, 0, False, 2) == []


def test_gathered_paths_are_scaled_to_the_longest_paths_denominator():
    gathered = Gathered.over([1, 4, 12])
    one = kernel.lanes_for(1)
    gathered.add(np.array([0], np.int64), np.ones((1, 1), np.uint64), np.array([1]), one)
    gathered.add(np.array([0, 1], np.int64), np.full((2, 1), 4, np.uint64), np.array([2, 2]), one)
    assert gathered.totals() == [(0, 3 + 4), (1, 4)]
    assert gathered.whole == 12


def test_a_draws_tables_merge_card_groups_that_lead_alike():
    """Three card groups, two alike (same result, same group after): two moves; the tally
    table maps each (tally, result column) to the tallies after."""
    after = cut_apart([0, 0, 1])

    def move(phase: int, kind: int) -> tuple[bool, int, int]:
        return kind == 2, (1 if kind < 2 else 2), phase

    tables = draw_tables(3, [kernel.CLEAR], lambda _: cut_apart([0, 1, 2]), lambda _: after, move)
    assert tables.n_moves[kernel.CLEAR] == 2
    assert tables.move_of[kernel.CLEAR].tolist() == [0, 0, 1]
    assert results_of(tables) == {1, 2}
    stepped = np.array([[0, 1, 2], [5, 6, 7]], np.int64)
    tables, following = with_next_tally(tables, stepped)
    assert following.tolist() == [0, 1, 2, 5, 6, 7]
    assert tables.next_tally.tolist() == [[0, 1, 2], [3, 4, 5]]


def test_a_level_split_kept_and_merged_keeps_every_weight():
    moduli = kernel.lanes_for(1)
    level = kernel.Level(
        np.array([[0, 0], [2, 1], [2, 1]], np.int32),
        np.array([kernel.ENDED, kernel.CLEAR, kernel.CLEAR], np.int8),
        np.array([0, 2, 2], np.int32),
        np.array([0, 1, 3, 4], np.int64),
        np.array([0, 1, 0, 1], np.int64),
        np.array([[1], [2], [3], [4]], np.uint64),
    )
    ended, live = levels.split_ended(level)
    assert ended.pairs == 1
    assert live.pairs == 3
    merged, codes = levels.merged([(live, np.array([10, 20], np.int64))], moduli)
    assert len(merged.phases) == 1  # the two equal states merged
    assert dict(zip(codes[merged.tally].tolist(), merged.weight[:, 0].tolist(), strict=True)) == {
        10: 3,
        20: 6,
    }
    kept = levels.kept(merged, merged.weight[:, 0] > 3)
    assert kept.pairs == 1
