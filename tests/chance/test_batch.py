"""Batch sampling from exact distributions: exact integer weights, seeds, chi-square."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from scipy.stats import chisquare

from firefight.chance import TWO_D6, Sampler, draw_batch, exact, wilson
from firefight.chance.batch import EXACT_BITS, TABLE_LIMIT, integer_weights
from firefight.chance.distribution import Distribution


def chi_square_p(counts: dict, distribution: Distribution) -> float:
    n = sum(counts.values())
    observed = [counts.get(o, 0) for o in distribution]
    expected = [float(p) * n for p in distribution.values()]
    return float(chisquare(observed, expected).pvalue)


def test_a_batch_of_2d6_totals_agrees_with_the_exact_odds_chi_square():
    totals = exact(lambda chance: chance.roll(TWO_D6, "roll"))
    batch = draw_batch(totals, 200_000, seed=1)
    assert batch.n == 200_000
    assert chi_square_p(batch.counts(), totals) > 1e-3


def test_a_large_denominator_takes_the_binary_search_and_still_agrees():
    weights = {f"o{i}": Fraction(i + 1, 7 * 11 * 13 * 17 * 19 * 23 * 2) for i in range(5)}
    weights["rest"] = 1 - sum(weights.values())
    distribution = Distribution(weights)
    sampler = Sampler.of(distribution)
    assert sampler.denominator > TABLE_LIMIT
    assert sampler._table is None
    batch = draw_batch(distribution, 400_000, seed=3)
    assert chi_square_p(batch.counts(), distribution) > 1e-3


def test_the_table_and_the_binary_search_read_the_same_uniforms_alike():
    distribution = exact(lambda chance: chance.roll(TWO_D6, "roll") // 3)
    sampler = Sampler.of(distribution)
    uniforms = np.arange(sampler.denominator)
    by_table = sampler._table[uniforms]
    by_search = np.searchsorted(sampler._cumulative, uniforms, side="right")
    assert (by_table == by_search).all()
    # each outcome owns exactly its weight of the uniforms: the sampler is exact
    assert np.bincount(by_table).tolist() == list(sampler.weights)


def test_the_same_seed_draws_the_same_outcomes():
    totals = exact(lambda chance: chance.roll(TWO_D6, "roll"))
    first, again = draw_batch(totals, 1000, seed=9), draw_batch(totals, 1000, seed=9)
    assert first.values() == again.values()
    assert draw_batch(totals, 1000, seed=10).values() != first.values()


def test_integer_weights_are_exact_up_to_62_bits_and_rounded_above():
    assert integer_weights([Fraction(1, 3), Fraction(2, 3)]) == ((1, 2), 3)
    tiny = Fraction(1, 3**50)
    weights, denominator = integer_weights([tiny, 1 - tiny])
    assert denominator == 1 << EXACT_BITS
    assert sum(weights) == denominator
    assert abs(Fraction(weights[0], denominator) - tiny) <= Fraction(1, denominator)


def test_a_certain_outcome_and_an_empty_batch():
    sampler = Sampler.of(Distribution({"x": Fraction(1)}))
    rng = np.random.default_rng(0)
    assert sampler.counts(5, rng).tolist() == [5]
    assert sampler.counts(0, rng).tolist() == [0]


def test_wilson_interval_holds_the_proportion_and_stays_in_0_1():
    low, high = wilson(0, 100)
    assert low == 0
    assert 0 < high < 0.05
    low, high = wilson(50, 100)
    assert low < 0.5 < high
    assert wilson(0, 0) == (0.0, 1.0)


def test_a_batch_interval_covers_the_exact_probability():
    totals = exact(lambda chance: chance.roll(TWO_D6, "roll"))
    batch = draw_batch(totals, 50_000, seed=4)
    low, high = batch.interval(7)
    assert low <= Fraction(1, 6) <= high


@pytest.mark.parametrize("n", [1, 17])
def test_a_batch_of_n_has_n_draws(n):
    totals = exact(lambda chance: chance.roll(TWO_D6, "roll"))
    assert len(draw_batch(totals, n, seed=0).values()) == n
