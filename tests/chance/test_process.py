"""Exact odds over state: finite horizons, absorbing chains, draws as state, sampled runs."""

from __future__ import annotations

import re
from collections import Counter
from fractions import Fraction
from math import comb, prod
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firefight.chance import (
    D6,
    TWO_D6,
    Deck,
    NeverAbsorbedError,
    Phases,
    Process,
    StateLimitError,
    exact,
    hands,
)
from firefight.chance.linear import solve as _solve
from firefight.chance.process import STEP_LABEL
from firefight.errors import ScriptError
from tests.strategies import chain_tables, small_decks

# --- draws without replacement as state -------------------------------------------------------


def hypergeometric(deck: dict[str, int], hand: dict[str, int]) -> Fraction:
    """The multivariate hypergeometric closed form: prod C(n_i, h_i) / C(N, k)."""
    size, k = sum(deck.values()), sum(hand.values())
    return Fraction(prod(comb(n, hand.get(c, 0)) for c, n in deck.items()), comb(size, k))


def replayed_hand(deck: Deck, k: int):
    """Today's way: one procedure drawing k cards, evaluated by prefix replay (exact())."""

    def draw_k(chance):
        left, hand = deck, Counter()
        for _ in range(k):
            card = chance.draw(left, "draw")
            left = left.without(card)
            hand[card] += 1
        return tuple(sorted(hand.items()))

    return exact(draw_k)


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_state_merged_hands_equal_the_hypergeometric_closed_form(data):
    cards = data.draw(small_decks(max_signatures=5, max_count=6))
    deck = Deck.of(cards)
    k = data.draw(st.integers(0, deck.size))
    distribution = hands(deck, k)
    assert sum(distribution.values()) == 1
    for hand, probability in distribution.items():
        assert probability == hypergeometric(cards, dict(hand))
    # and every hand the closed form allows is there
    assert len(distribution) == sum(1 for _ in _compositions(cards, k))


def _compositions(cards: dict[str, int], k: int):
    names = list(cards)
    if not names:
        if k == 0:
            yield ()
        return
    first, rest = names[0], {n: cards[n] for n in names[1:]}
    for taken in range(min(cards[first], k) + 1):
        for tail in _compositions(rest, k - taken):
            yield ((first, taken), *tail)


@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_state_merged_hands_equal_prefix_replay_on_small_decks(data):
    deck = Deck.of(data.draw(small_decks(max_signatures=3, max_count=3)))
    k = data.draw(st.integers(0, min(deck.size, 4)))
    assert dict(hands(deck, k)) == dict(replayed_hand(deck, k))


def test_ten_draws_from_a_162_card_deck_are_exact_and_polynomial():
    deck = Deck.of({"fire": 40, "movement": 36, "cover": 34, "rally": 28, "terrain": 24})
    distribution = hands(deck, 10)
    assert len(distribution) == comb(10 + 4, 4)  # every composition of 10 into 5 signatures
    assert distribution[(("fire", 10),)] == hypergeometric(dict(deck.cards), {"fire": 10})
    assert sum(distribution.values()) == 1


def test_a_deck_of_signatures_counts_the_cards_a_rule_cannot_tell_apart():
    cards = [("rifle", 2), ("rifle", 3), ("mg", 4), ("rifle", 2)]
    deck = Deck.signatures(cards, lambda card: card[0])
    assert deck.cards == (("mg", 1), ("rifle", 3))
    left = deck.without("rifle")
    assert deck.drawn(left) == (("rifle", 1),)
    with pytest.raises(ValueError, match="is not what is left"):
        left.drawn(deck)


def test_drawing_more_cards_than_the_deck_holds_is_refused():
    with pytest.raises(ValueError, match="cannot draw 3 cards from a deck of 2"):
        hands(Deck.of(["a", "b"]), 3)


# --- finite horizon ---------------------------------------------------------------------------


def random_step(table):
    def step(state, chance):
        return table[state][chance.roll(D6, f"state {state}") - 1]

    return step


@settings(max_examples=40, deadline=None)
@given(chain=chain_tables(max_states=4), steps=st.integers(0, 4))
def test_state_merging_equals_prefix_replay_of_the_whole_sequence(chain, steps):
    m, table = chain
    terminal = lambda s: s >= m  # noqa: E731
    process = Process(random_step(table), terminal)

    def whole(chance):  # the sequence as one procedure: exact() re-runs it per prefix
        state = 0
        for _ in range(steps):
            if terminal(state):
                break
            state = process.step(state, chance)
        return state

    distributions = process.distributions(0, steps)
    assert len(distributions) == steps + 1
    assert dict(distributions[-1]) == dict(exact(whole))
    assert all(sum(d.values()) == 1 for d in distributions)


def test_the_kernel_is_computed_once_per_state():
    calls = Counter()

    def step(state, chance):
        calls[state] += 1
        return (state + chance.roll(D6, "move")) % 4

    process = Process(step)
    process.after(0, 12)
    # exact() runs the step once to find the roll and once per face: 7 runs per state, once.
    assert calls == dict.fromkeys(range(4), 7)
    assert process.kernel(2) == tuple(exact(lambda chance: step(2, chance)).items())


def test_a_terminal_state_stays_where_it_is():
    process = Process(lambda s, chance: s + chance.roll(D6, "d6"), lambda s: s >= 3)
    last = process.after(0, 5)
    assert all(state >= 3 for state in last)
    assert last[3] == Fraction(1, 6) + Fraction(1, 6) * Fraction(1, 6) * 2 + Fraction(1, 216)


def test_too_many_states_at_one_step_offers_sampling_in_one_line():
    walk = Process(lambda s, chance: s + chance.roll(TWO_D6, "walk"), name="walk")
    with pytest.raises(StateLimitError) as error:
        walk.after(0, 10, max_states=50)
    message = str(error.value)
    assert "\n" not in message
    assert message.startswith("'walk' has more than 50 states at one step")
    assert "sampled odds with a confidence interval" in message


# --- until absorbed ---------------------------------------------------------------------------


def gamble(state, chance):
    """A gambler's bet: win one with 1/3 (a d6 of 1-2), lose one otherwise."""
    return state + 1 if chance.roll(D6, "bet") <= 2 else state - 1


@pytest.mark.parametrize(("start", "goal"), [(1, 3), (2, 5), (4, 7), (5, 6)])
def test_absorption_matches_the_gamblers_ruin_closed_form(start, goal):
    process = Process(gamble, lambda s: s in (0, goal), "ruin")
    answer = process.absorption(start)
    p, q = Fraction(1, 3), Fraction(2, 3)
    r = q / p
    win = (1 - r**start) / (1 - r**goal)
    assert answer.terminal[goal] == win
    assert answer.terminal[0] == 1 - win
    assert answer.expected_steps == start / (q - p) - goal / (q - p) * win
    assert answer.states == goal - 1


def rally_and_pin(state, chance):
    """A unit under fire each turn: ok -> pinned (2d6 <= 6) or broken (12); pinned -> rallies
    (d6 <= 3), stays pinned (4-5) or breaks (6). Cycles through ok and pinned."""
    if state == "ok":
        roll = chance.roll(TWO_D6, "fire")
        return "broken" if roll == 12 else "pinned" if roll <= 6 else "ok"
    roll = chance.roll(D6, "rally")
    return "ok" if roll <= 3 else "pinned" if roll <= 5 else "broken"


def test_absorption_is_the_limit_of_a_long_finite_horizon():
    process = Process(rally_and_pin, lambda s: s == "broken", "rally")
    answer = process.absorption("ok")
    assert dict(answer.terminal) == {"broken": 1}
    horizon = process.distributions("ok", 400)
    alive = [1 - d["broken"] for d in horizon]  # P(more than t steps) for t = 0..400
    assert alive[-1] < Fraction(1, 10**6)
    # E[T] = sum_t P(T > t): the horizon's partial sum approaches the exact value from below
    partial = sum(alive[:-1], Fraction(0))
    assert partial <= answer.expected_steps <= partial + alive[-1] * 10**4
    # by hand: E_ok = 1 + 20/36 E_ok + 15/36 E_pin and E_pin = 1 + 1/2 E_ok + 1/3 E_pin
    assert answer.expected_steps == Fraction(234, 19)


def dense_absorption(m, table):
    """The textbook twin: the fundamental matrix row of state 0, by dense elimination."""
    q = [[Fraction(0)] * m for _ in range(m)]
    r = [[Fraction(0)] * 2 for _ in range(m)]
    for state in range(m):
        for target in table[state]:
            if target < m:
                q[state][target] += Fraction(1, 6)
            else:
                r[state][target - m] += Fraction(1, 6)
    # Solve (I - Q) X = [R | 1] by Gauss-Jordan with full rows.
    a = [
        [Fraction(int(i == j)) - q[i][j] for j in range(m)] + [*r[i], Fraction(1)] for i in range(m)
    ]
    for col in range(m):
        pivot = next(i for i in range(col, m) if a[i][col] != 0)
        a[col], a[pivot] = a[pivot], a[col]
        a[col] = [v / a[col][col] for v in a[col]]
        for i in range(m):
            if i != col and a[i][col] != 0:
                f = a[i][col]
                a[i] = [v - f * w for v, w in zip(a[i], a[col], strict=True)]
    return {m: a[0][m], m + 1: a[0][m + 1]}, a[0][m + 2]


@settings(max_examples=60, deadline=None)
@given(chain=chain_tables(max_states=8))
def test_absorption_equals_the_dense_fundamental_matrix_on_random_chains(chain):
    m, table = chain
    process = Process(random_step(table), lambda s: s >= m)
    answer = process.absorption(0)
    terminal, steps = dense_absorption(m, table)
    assert dict(answer.terminal) == {k: v for k, v in terminal.items() if v}
    assert answer.expected_steps == steps
    assert sum(answer.terminal.values()) == 1


def test_a_terminal_start_ends_at_once():
    answer = Process(gamble, lambda s: s == 0).absorption(0)
    assert dict(answer.terminal) == {0: 1}
    assert answer.expected_steps == 0


def test_a_process_that_never_ends_is_one_line_error():
    # 1 and 2 bounce between each other; 0 is terminal but unreachable from them.
    process = Process(lambda s, chance: 3 - s, lambda s: s == 0, "bounce")
    with pytest.raises(NeverAbsorbedError, match=r"^'bounce' never ends from state [12]"):
        process.absorption(1)


def test_too_many_reachable_states_offers_sampling():
    process = Process(gamble, lambda s: s in (0, 100), "ruin")
    with pytest.raises(StateLimitError, match=r"more than 20 reachable states.*Process.sampled"):
        process.absorption(50, max_states=20)
    with pytest.raises(StateLimitError, match=r"more than 10 states that reach one another"):
        process.absorption(50, max_cycle_states=10)


def test_the_sparse_solver_solves_a_system_needing_a_row_swap():
    rows = {"r1": {"x": Fraction(0), "y": Fraction(1)}, "r2": {"x": Fraction(2), "y": Fraction(1)}}
    rows["r1"].pop("x")
    assert _solve(rows, {"r1": Fraction(3), "r2": Fraction(7)}) == {"x": 2, "y": 3}


# --- sampled and replayed runs ---------------------------------------------------------------


def test_a_sampled_run_keeps_the_trace_of_each_step_and_replays():
    process = Process(rally_and_pin, lambda s: s == "broken", "rally")
    run = process.sample("ok", seed=11)
    assert run.final == "broken"
    assert [step.number for step in run.steps] == list(range(1, len(run.steps) + 1))
    for before, after in zip(run.steps, run.steps[1:], strict=False):
        assert before.after == after.before
    assert all(len(step.trace) == 1 for step in run.steps)
    assert all(event.label != STEP_LABEL for event in run.trace)
    again = process.replay("ok", run.replay_values())
    assert [s.after for s in again.steps] == [s.after for s in run.steps]
    assert again.trace == run.trace
    assert process.sample("ok", seed=11).trace == run.trace


def test_a_replayed_run_reads_the_players_dice_step_by_step():
    process = Process(rally_and_pin, lambda s: s == "broken", "rally")
    run = process.replay("ok", ["1+2", "4", "6"])  # pinned, stays pinned, breaks
    assert [(s.before, s.after) for s in run.steps] == [
        ("ok", "pinned"),
        ("pinned", "pinned"),
        ("pinned", "broken"),
    ]
    assert run.steps[0].trace[0].dice == (1, 2)
    with pytest.raises(ScriptError, match="ran out of values"):
        process.replay("ok", ["1+2"])


def test_a_run_of_n_steps_stops_there():
    run = Process(gamble).sample(3, seed=2, steps=4)
    assert len(run.steps) == 4


def test_sampled_odds_are_labelled_reproducible_and_cover_the_exact_odds():
    process = Process(gamble, lambda s: s in (0, 5), "ruin")
    exact_answer = process.absorption(2)
    sampled = process.sampled(2, n=20_000, seed=5)
    assert sampled.label == "sampled"
    assert sampled.n == sum(sampled.counts.values()) == sum(sampled.steps.values())
    for state, probability in exact_answer.terminal.items():
        low, high = sampled.interval(state)
        assert low <= probability <= high
    low, high = sampled.steps_interval()
    assert low <= exact_answer.expected_steps <= high
    assert process.sampled(2, n=20_000, seed=5) == sampled
    assert process.sampled(2, n=20_000, seed=6) != sampled


def test_sampled_odds_over_a_finite_horizon_end_every_run_there():
    sampled = Process(gamble).sampled(3, n=1000, seed=1, steps=4)
    assert sampled.steps == {4: 1000}
    assert set(sampled.counts) <= {-1, 1, 3, 5, 7}


# --- phases, "decided by step t", JSON -------------------------------------------------------


def test_a_phased_step_has_the_kernel_of_its_phases_run_in_one_procedure():
    calls = Counter()

    def fire(state, chance):  # two phases of fire on a 3-step unit; merged in between
        calls["fire"] += 1
        if state == 0:
            return 0
        return state - 1 if chance.roll(TWO_D6, "fire") >= 8 else state

    def rally(state, chance):
        calls["rally"] += 1
        return min(state + 1, 3) if state and chance.roll(D6, "rally") == 6 else state

    def whole(state, chance):
        return rally(fire(fire(state, chance), chance), chance)

    phased = Process(Phases((fire, fire, rally)))
    for state in range(4):
        assert dict(phased.kernel(state)) == dict(exact(lambda c, s=state: whole(s, c)))
    replayed = calls["fire"]
    calls.clear()
    phased_again = Process(Phases((fire, fire, rally)))
    phased_again.kernel(3)
    assert calls["fire"] < replayed / 4  # each phase replayed once per state, not per prefix
    # sampled and replayed runs go through every phase on one chance, in order
    run = phased.sample(3, seed=4, steps=2)
    assert [event.label for event in run.steps[0].trace][:2] == ["fire", "fire"]
    assert phased.replay(3, run.replay_values(), steps=2).trace == run.trace


def test_ended_by_gives_the_chance_of_being_decided_by_each_step():
    process = Process(gamble, lambda s: s in (0, 3), "ruin")
    ended = process.ended_by(1, 3)
    # lose at once (2/3); win then win (1/9); win, lose, lose (2/3 of 2/9)
    assert ended == (0, Fraction(2, 3), Fraction(7, 9), Fraction(25, 27))
    assert list(ended) == sorted(ended)


def test_the_json_shapes_say_exact_or_sampled():
    process = Process(gamble, lambda s: s in (0, 3), "ruin")
    exact_json = process.absorption(1).to_json()
    assert exact_json == {
        "exact": True,
        "terminal": {"0": "6/7", "3": "1/7"},
        "expected_steps": "12/7",  # 1/(q-p) - 3/(q-p) * 1/7
        "states": 2,
    }
    sampled = process.sampled(1, n=100, seed=1).to_json()
    assert sampled["exact"] is False
    assert sampled["label"] == "sampled"
    low, high = sampled["end_states"]["0"]["interval"]
    assert low <= sampled["end_states"]["0"]["frequency"] <= high
    run = process.sample(1, seed=3).to_json()
    assert run["start"] == "1"
    assert run["steps"][0]["trace"][0]["label"] == "bet"


def test_the_example_of_docs_chance_runs():
    page = Path(__file__).resolve().parents[2] / "docs" / "chance.md"
    (code,) = re.findall(r"```python\n(.*?)```", page.read_text(encoding="utf-8"), re.S)
    namespace: dict[str, object] = {}
    exec(code, namespace)
    unit = namespace["unit"]
    assert unit.absorption("ok").expected_steps == Fraction(234, 19)


def test_sampled_odds_of_phases_cover_the_exact_odds_and_few_runs_run_the_step():
    def shot(state, chance):
        return state - 1 if state and chance.roll(D6, "shot") == 6 else state

    process = Process(Phases((shot, shot)), lambda s: s == 0, "two shots")
    exact_answer = process.absorption(2)
    sampled = process.sampled(2, n=20_000, seed=3)
    low, high = sampled.steps_interval()
    assert low <= exact_answer.expected_steps <= high
    # ten runs: too few to pay for a kernel, each step is run itself; still reproducible
    fresh = Process(Phases((shot, shot)), lambda s: s == 0, "two shots")
    few = fresh.sampled(2, n=10, seed=3)
    assert fresh._phase_kernels == {}
    assert few == fresh.sampled(2, n=10, seed=3)
    assert sum(few.counts.values()) == 10


def test_a_phased_horizon_carried_phase_by_phase_equals_the_steps_run_as_one_procedure():
    def fire(state, chance):
        if state <= 0:
            return state
        return state - 1 if chance.roll(TWO_D6, "fire") >= 7 else state

    def rally(state, chance):
        return min(state + 2, 4) if 0 < state < 3 and chance.roll(D6, "rally") >= 5 else state

    def whole(state, chance):
        return rally(fire(fire(state, chance), chance), chance)

    def over(state):
        return state <= 0

    phased = Process(Phases((fire, fire, rally)), over)
    plain = Process(whole, over)  # no phases: each state's kernel by exact()'s prefix replay
    for steps in range(5):
        assert phased.distributions(4, steps) == plain.distributions(4, steps)
        assert sum(phased.after(4, steps).values()) == 1
