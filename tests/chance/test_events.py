"""Dice, pools and decks: every closed form has a brute-force twin."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import permutations, product

import icepool
import pytest
from hypothesis import given
from hypothesis import strategies as st

from firefight.chance import D6, TWO_D6, Deck, Dice, binomial, exact


def brute_sum(count: int, sides: int) -> dict[int, Fraction]:
    totals = Counter(sum(faces) for faces in product(range(1, sides + 1), repeat=count))
    return {t: Fraction(n, sides**count) for t, n in totals.items()}


def brute_count(count: int, sides: int, at_most: int) -> dict[int, Fraction]:
    hits = Counter(
        sum(1 for f in faces if f <= at_most)
        for faces in product(range(1, sides + 1), repeat=count)
    )
    return {h: Fraction(n, sides**count) for h, n in hits.items()}


def test_two_d6_totals_match_brute_force():
    assert dict(TWO_D6.total_distribution) == brute_sum(2, 6)
    assert TWO_D6.name == "2d6"
    assert D6.name == "d6"


@pytest.mark.parametrize(("count", "sides"), [(1, 4), (2, 6), (3, 6), (2, 10)])
def test_sums_match_brute_force(count, sides):
    assert dict(Dice.d(sides, count).total_distribution) == brute_sum(count, sides)


@given(count=st.integers(1, 4), sides=st.sampled_from([4, 6, 10]), at_most=st.integers(0, 11))
def test_pool_count_closed_form_matches_brute_force(count, sides, at_most):
    dice = Dice.d(sides, count)
    closed = dict(dice.count_distribution(lambda face: face <= at_most))
    assert closed == brute_count(count, sides, at_most)
    assert sum(closed.values()) == 1


def test_large_pool_is_computed_without_enumerating_faces():
    # 40 d10 would be 10**40 faces; the binomial is immediate and exact.
    distribution = dict(Dice.d(10, 40).count_distribution(lambda face: face <= 5))
    assert sum(distribution.values()) == 1
    assert distribution[40] == Fraction(1, 2**40)


def test_binomial_with_certain_success_has_one_outcome():
    assert binomial(3, Fraction(1)) == ((3, Fraction(1)),)


def test_weighted_die_keeps_its_weights():
    loaded = Dice(1, icepool.Die({1: 1, 2: 3}))
    assert dict(loaded.total_distribution) == {1: Fraction(1, 4), 2: Fraction(3, 4)}
    assert loaded.name == "die"


def test_a_roll_needs_a_die():
    with pytest.raises(ValueError, match="at least one die"):
        Dice.d(6, 0)


def test_deck_draw_distribution_and_state():
    deck = Deck.of(["fire", "fire", "move", "rally"])
    assert deck.size == 4
    assert dict(deck.draw_distribution()) == {
        "fire": Fraction(1, 2),
        "move": Fraction(1, 4),
        "rally": Fraction(1, 4),
    }
    after = deck.without("fire")
    assert after.count("fire") == 1
    assert deck.count("fire") == 2  # immutable: the old state is unchanged
    assert after.without("rally").without("move").without("fire").size == 0


def test_deck_errors():
    with pytest.raises(ValueError, match="not in the deck"):
        Deck.of({"fire": 1}).without("move")
    with pytest.raises(ValueError, match="empty deck"):
        Deck.of([]).draw_distribution()
    with pytest.raises(ValueError, match="negative"):
        Deck((("fire", -1),))


def test_two_draws_without_replacement_match_permutations():
    cards = ["a", "a", "b", "c"]
    deck = Deck.of(cards)

    def two_draws(chance):
        first = chance.draw(deck, "first")
        second = chance.draw(deck.without(first), "second")
        return first + second

    brute = Counter("".join(p[:2]) for p in permutations(cards))
    total = sum(brute.values())
    assert dict(exact(two_draws)) == {k: Fraction(n, total) for k, n in brute.items()}


@given(count=st.integers(1, 6), sides=st.sampled_from([4, 6, 10]), at_most=st.integers(0, 11))
def test_integer_weights_equal_the_fractions(count, sides, at_most):
    dice = Dice.d(sides, count)
    outcomes, denominator = dice.count_weights(lambda face: face <= at_most)
    assert {k: Fraction(w, denominator) for k, w in outcomes} == dict(
        dice.count_distribution(lambda face: face <= at_most)
    )
    outcomes, denominator = dice.total_weights
    assert {k: Fraction(w, denominator) for k, w in outcomes} == dict(dice.total_distribution)
    deck = Deck.of({"a": count, "b": sides})
    outcomes, denominator = deck.draw_weights()
    assert {k: Fraction(w, denominator) for k, w in outcomes} == dict(deck.draw_distribution())
