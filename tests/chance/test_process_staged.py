"""Phases over a state of their own (Staged), phases that know their own odds (KnownPhase),
integer weights and sampled end states by steps taken."""

from __future__ import annotations

from fractions import Fraction

import pytest

from firefight.chance import D6, Process, StateLimitError, exact
from firefight.chance.process import KnownPhase, Staged


def shot(state: int, chance) -> int:
    return state - 1 if state and chance.roll(D6, "shot") >= 5 else state


class KnownShot(KnownPhase[tuple[int, int]]):
    """A shot at ``now`` that counts hits against the state the step started from."""

    def __init__(self) -> None:
        self.draws = 0

    def __call__(self, state, chance):
        start, now = state
        return (start, shot(now, chance))

    def kernel(self, state):
        start, now = state
        if not now:
            return ((state, Fraction(1)),)
        return (((start, now - 1), Fraction(1, 3)), ((start, now), Fraction(2, 3)))

    def draw(self, state, runs, rng):
        self.draws += 1
        start, now = state
        hits = int(rng.binomial(runs, 1 / 3)) if now else 0
        return [(k, n) for k, n in (((start, now - 1), hits), (state, runs - hits)) if n]


def staged(phase=None, within=None) -> Staged[int, tuple[int, int]]:
    phase = phase or KnownShot()
    return Staged(lambda s: (s, s), (phase, phase), lambda inner: inner[1], within=within)


def test_staged_phases_have_the_kernel_of_the_whole_step_and_their_weights_its_odds():
    process = Process(staged(), lambda s: s == 0, "two shots")
    whole = Process(lambda s, c: shot(shot(s, c), c), lambda s: s == 0, "two shots")
    for state in range(4):
        assert dict(process.kernel(state)) == dict(exact(lambda c, s=state: whole.step(s, c)))
    weights = process.weights(3, 4)
    assert [w.distribution() for w in weights] == list(whole.distributions(3, 4))
    assert weights[-1].probability(lambda s: s == 0) == whole.after(3, 4)[0]


def test_known_phases_are_drawn_by_their_own_draw_and_runs_keep_their_end_by_steps():
    phase = KnownShot()
    process = Process(staged(phase), lambda s: s == 0, "two shots")
    sampled = process.sampled(3, n=5_000, seed=4, steps=3)
    assert phase.draws > 0
    assert process._phase_kernels == {}  # no kernel computed to sample
    assert sum(sum(at.values()) for at in sampled.by_steps.values()) == 5_000
    assert {k: sum(at.values()) for k, at in sampled.by_steps.items()} == sampled.steps
    assert all(state == 0 for k, at in sampled.by_steps.items() if k < 3 for state in at)
    exact_end = process.after(3, 3)
    for state, p in exact_end.items():
        low, high = sampled.interval(state, z=4)
        assert low <= p <= high
    assert process.sampled(3, n=5_000, seed=4, steps=3) == sampled


def test_the_states_within_one_step_are_limited_when_the_step_names_itself():
    limited = Process(staged(within="turn"), name="two shots")
    with pytest.raises(StateLimitError, match="more than 1 states within one turn"):
        limited.weights(3, 1, max_states=1)
    unlimited = Process(staged(), name="two shots")
    with pytest.raises(StateLimitError, match="states at one step"):
        unlimited.weights(3, 1, max_states=1)
