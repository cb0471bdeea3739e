"""Exact, sampled and scripted evaluation of the same procedure."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import product

import pytest

from firefight.chance import D6, TWO_D6, Deck, Dice, exact, sample, sample_many, scripted
from firefight.errors import ScriptError


def two_stage(chance):
    """2d6 <= 7 to hit, then a d6 for the effect: a procedure with a data-dependent branch."""
    hit = chance.roll(TWO_D6, "to hit")
    if hit > 7:
        return "miss"
    chance.note("hit", f"{hit} <= 7")
    return "kill" if chance.roll(D6, "effect") <= 2 else "pin"


def brute_two_stage() -> dict[str, Fraction]:
    counts: Counter[str] = Counter()
    for a, b, c in product(range(1, 7), repeat=3):
        counts["miss" if a + b > 7 else ("kill" if c <= 2 else "pin")] += 1
    return {k: Fraction(n, 216) for k, n in counts.items()}


def test_exact_matches_brute_force_on_a_branching_procedure():
    assert dict(exact(two_stage)) == brute_two_stage()


def test_an_outcome_reached_at_two_depths_sums_its_branches_exactly():
    def reroll(chance):
        if chance.roll(D6, "first") == 1:
            return "x"  # weight 1 of 6
        return "x" if chance.roll(D6, "second") <= 3 else "y"  # 15 of 36, and 15 of 36

    assert dict(exact(reroll)) == {"x": Fraction(7, 12), "y": Fraction(5, 12)}


def test_exact_merges_equal_outcomes_and_sums_to_one():
    distribution = exact(lambda chance: chance.roll(TWO_D6, "roll") % 2)
    assert dict(distribution) == {0: Fraction(1, 2), 1: Fraction(1, 2)}
    assert sum(distribution.values()) == 1


def test_exact_of_a_procedure_without_chance_is_certain():
    assert dict(exact(lambda chance: "always")) == {"always": Fraction(1)}


def test_exact_pool_count_is_one_event():
    pool = Dice.d(10, 8)
    distribution = exact(lambda chance: chance.count(pool, lambda face: face + 2 <= 5, "hits"))
    assert distribution[0] == Fraction(7, 10) ** 8
    assert sum(distribution.values()) == 1


def test_same_seed_same_trace():
    first, second = sample(two_stage, 7), sample(two_stage, 7)
    assert first == second
    assert first.seed == 7


def test_different_seeds_differ_somewhere():
    traces = {sample(two_stage, seed).trace for seed in range(20)}
    assert len(traces) > 1


def test_sampled_trace_shows_each_die():
    resolution = sample(two_stage, 3)
    roll = resolution.trace[0]
    assert roll.label == "to hit"
    assert len(roll.dice) == 2
    assert roll.value == sum(roll.dice)
    assert str(roll) == f"to hit: {roll.dice[0]} + {roll.dice[1]} = {roll.value}"


@pytest.mark.parametrize("seed", range(30))
def test_scripted_replay_reproduces_the_sampled_trace(seed):
    sampled = sample(two_stage, seed)
    replayed = scripted(two_stage, sampled.replay_values())
    assert replayed.outcome == sampled.outcome
    assert replayed.trace == sampled.trace


def test_scripted_accepts_each_die_or_the_total():
    by_dice = scripted(two_stage, ["3", "4", "1"])
    by_total = scripted(two_stage, [7, 1])
    assert by_dice.outcome == by_total.outcome == "kill"
    assert by_dice.trace[0].dice == (3, 4)
    assert by_total.trace[0].dice == ()
    assert by_total.replay_values() == ["7", "1"]
    assert by_dice.replay_values() == ["3+4", "1"]


def test_scripted_too_few_values_is_a_clear_error():
    with pytest.raises(
        ScriptError, match=r"'roll' must be a die of 1\.\.6 for 'effect' too; ran out"
    ):
        scripted(two_stage, ["3"])


def test_the_reading_that_uses_every_value_is_taken():
    # As dice, 3+4 hits and the effect die is missing; as totals, 3 hits and 4 is the effect.
    assert scripted(two_stage, ["3", "4"]).outcome == "pin"


def short_or_long(chance):
    first = chance.roll(TWO_D6, "first")
    return (first,) if first >= 7 else (first, chance.roll(D6, "second"))


def test_values_read_two_ways_are_refused_as_ambiguous():
    # 3,4 is 2d6 = 7 (done) or a total of 3 then a die of 4: both use every value.
    with pytest.raises(ScriptError, match=r"join one roll's dice with \+ \(3\+4\)"):
        scripted(short_or_long, ["3", "4"])
    assert scripted(short_or_long, ["3+4"]).outcome == (7,)


def test_explicit_values_are_one_event_each():
    resolution = scripted(two_stage, ["3+4", "1"])
    assert resolution.outcome == "kill"
    assert resolution.trace[0].dice == (3, 4)
    assert scripted(two_stage, ["7", "1"]).outcome == "kill"
    with pytest.raises(ScriptError, match=r"got '3\+4\+1'"):
        scripted(two_stage, ["3+4+1"])
    pool = Dice.d(10, 3)
    assert scripted(lambda c: c.count(pool, lambda f: f <= 5, "hits"), ["1+9+5"]).outcome == 2


def test_scripted_impossible_value_is_a_clear_error():
    with pytest.raises(ScriptError) as error:
        scripted(two_stage, ["13"])
    assert str(error.value) == (
        "'roll' must be 2 dice of 1..6 or a total of 2..12 for 'to hit' (got '13')"
    )
    with pytest.raises(ScriptError, match="got 'x'"):
        scripted(two_stage, ["3", "4", "x"])


@pytest.mark.parametrize(
    "values",
    [
        ["\u0663", "\u0664"],  # Arabic-Indic 3, 4: int() reads them
        ["\uff13", "\uff14"],  # full-width 3, 4
        ["\u0663+\u0664"],
        ["\u0667"],  # Arabic-Indic 7, as a total
        ["1_0"],  # int() reads 10
        ["3", "\u00b2"],  # superscript 2: isdigit() says yes
    ],
)
def test_scripted_dice_are_ascii_digits_only(values):
    """``--roll ٣,٤`` was read as 3,4; only ASCII digits are dice."""
    with pytest.raises(ScriptError, match="'roll' must be"):
        scripted(two_stage, values)


def test_scripted_leftover_values_are_an_error():
    with pytest.raises(ScriptError, match="exactly the 2 values this resolution uses"):
        scripted(two_stage, ["6", "6", "1"])


def test_scripted_pool_and_deck():
    pool = Dice.d(10, 3)
    resolution = scripted(lambda c: c.count(pool, lambda f: f <= 5, "hits"), ["1", "9", "5"])
    assert resolution.outcome == 2
    assert str(resolution.trace[0]) == "hits: 1 9 5 -> 2"
    deck = Deck.of(["fire", "move"])
    assert scripted(lambda c: c.draw(deck, "draw"), ["move"]).outcome == "move"
    with pytest.raises(ScriptError, match="one of fire, move"):
        scripted(lambda c: c.draw(deck, "draw"), ["rally"])


def test_sampled_deck_and_pool_replay():
    deck = Deck.of({"fire": 3, "move": 1})
    pool = Dice.d(10, 4)

    def procedure(chance):
        card = chance.draw(deck, "draw")
        return (card, chance.count(pool, lambda f: f <= 6, "hits"))

    for seed in range(10):
        sampled = sample(procedure, seed)
        assert scripted(procedure, sampled.replay_values()) == type(sampled)(
            sampled.outcome, sampled.trace
        )


def test_sample_many_is_reproducible_and_agrees_roughly():
    outcomes = sample_many(two_stage, 11, 5000)
    assert outcomes == sample_many(two_stage, 11, 5000)
    share = outcomes.count("miss") / len(outcomes)
    assert abs(share - float(brute_two_stage()["miss"])) < 0.03


def morale_test(chance):
    """2d6 + 1 <= 7 passes: a roll whose only use is its pass or fail."""
    passed = chance.check(TWO_D6, lambda total: total + 1 <= 7, "morale test (2d6)")
    return "passed" if passed else "failed"


def test_a_check_branches_on_pass_and_fail_only():
    branches = []

    def counting(chance):
        branches.append(1)
        return morale_test(chance)

    assert dict(exact(counting)) == {"passed": Fraction(15, 36), "failed": Fraction(21, 36)}
    assert len(branches) == 3  # the first run, then one per side: not one per total
    assert TWO_D6.check_weights(lambda total: total <= 12).outcomes == ((1, 36),)


def test_a_check_is_traced_and_replayed_as_the_roll_it_is():
    sampled = sample(morale_test, seed=5)
    (event,) = sampled.trace
    assert (event.kind, len(event.dice), event.value) == ("roll", 2, sum(event.dice))
    assert sampled.outcome == ("passed" if event.value + 1 <= 7 else "failed")
    assert scripted(morale_test, sampled.replay_values()).outcome == sampled.outcome
    assert scripted(morale_test, ["3", "3"]).outcome == "passed"  # its dice
    assert scripted(morale_test, ["7"]).outcome == "failed"  # or its total
    with pytest.raises(ScriptError):
        scripted(morale_test, ["13"])
