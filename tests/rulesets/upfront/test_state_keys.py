"""Exact keys of pool states in the compiled step (rulesets/upfront/state_keys.py): two
different states within the bounds never share a key (each word of a key below 2**64, the
digits giving back the phase and counts), the bounds hold every state after, and the step
gives the same levels with exact keys as with hashed counts, falling back to the hash where
the counts do not fit two words."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firefight.rulesets.upfront import group, kernel
from firefight.rulesets.upfront.fire import resolution_odds
from firefight.rulesets.upfront.resolution import UpFrontResolution
from firefight.rulesets.upfront.state_keys import bounds_after, key_places

WORD = 2**64
WIDTH = 40

bound_lists = st.lists(
    st.one_of(st.integers(0, 12), st.integers(0, 1000), st.integers(0, 2**40)),
    max_size=WIDTH,
)


def _places(bounds: list[list[int]]) -> tuple[np.ndarray, np.ndarray, bool]:
    width = max(1, *(len(b) for b in bounds))
    grid = np.zeros((2, width), np.int64)
    for after, row in enumerate(bounds):
        grid[after, : len(row)] = row
    new_width = np.array([len(b) for b in bounds], np.int64)
    places, word, fits = key_places(grid, new_width)
    return places, word, fits


def _key(phase: int, counts: list[int], places: np.ndarray, word: np.ndarray) -> list[int]:
    """A state's key as Python integers (no wrap): the phase digit, then each group's."""
    key = [phase, 0]
    for j, count in enumerate(counts):
        key[int(word[phase, j])] += count * int(places[phase, j])
    return key


def _decoded(key: list[int], bounds: list[int], word: np.ndarray, phase: int) -> list[int]:
    """The counts a key's digits give back (mixed radix: the phase, then the groups)."""
    rest = [key[0] // 2, key[1]]
    assert key[0] % 2 == phase
    counts = []
    for j, bound in enumerate(bounds):
        w = int(word[phase, j])
        rest[w], digit = divmod(rest[w], bound + 1)
        counts.append(digit)
    assert rest == [0, 0]
    return counts


@settings(max_examples=300, deadline=None, derandomize=True)
@given(bounds=st.tuples(bound_lists, bound_lists), data=st.data())
def test_two_states_within_the_bounds_never_share_a_key(bounds, data):
    """Where the keys fit, each group's place value is the product of the radices before it
    in its word (the phase digit first), every key of every state within the bounds is below
    2**64 in each word, and its digits give back its phase and counts: two different states
    have different keys. Any bounds whose radices fit one word fit; bounds whose radices
    pass 128 bits do not (the step hashes those)."""
    bounds = [list(b) for b in bounds]
    places, word, fits = _places(bounds)
    radices = [math.prod(b + 1 for b in row) for row in bounds]
    if max(2 * r for r in radices) <= WORD:
        assert fits
    if max(2 * r for r in radices) > WORD**2:
        assert not fits
    if not fits:
        return
    for phase, row in enumerate(bounds):
        product = [2, 1]
        for j, bound in enumerate(row):
            w = int(word[phase, j])
            assert w in (0, 1)
            assert j == 0 or w >= int(word[phase, j - 1])  # digits fill word 0, then word 1
            assert int(places[phase, j]) == product[w]
            product[w] *= bound + 1
        assert max(product) <= WORD  # the largest key, product - 1, fits each word
        counts = [data.draw(st.integers(0, b)) for b in row]
        key = _key(phase, counts, places, word)
        assert all(0 <= k < WORD for k in key)
        assert _decoded(key, row, word, phase) == counts
        largest = _key(phase, row, places, word)
        assert all(k < WORD for k in largest)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(data=st.data())
def test_the_bounds_hold_every_state_after(data):
    """Any level and any re-cut of its groups (smoke in play or cleared): every state's
    counts after, each group of the cut after summing the groups before that go into it,
    are within the bounds the step keys them by."""
    widths = [data.draw(st.integers(0, 8)) for _ in range(2)]
    new_width = np.array([data.draw(st.integers(1, 6)) for _ in range(2)], np.int64)
    width_max = max(1, *widths)
    to_clear = np.zeros((2, width_max), np.int64)
    to_smoke = np.zeros((2, width_max), np.int64)
    for phase in range(2):
        for j in range(widths[phase]):
            to_clear[phase, j] = data.draw(st.integers(0, new_width[0] - 1))
            to_smoke[phase, j] = data.draw(st.integers(0, new_width[1] - 1))
    states = data.draw(st.integers(1, 12))
    phases = np.array([data.draw(st.integers(0, 2)) for _ in range(states)], np.int8)
    counts = np.zeros((states, width_max), np.int32)
    for s in range(states):
        if phases[s] < 2:
            for j in range(widths[phases[s]]):
                counts[s, j] = data.draw(st.integers(0, 30))
    state_widths = np.array([widths[p] if p < 2 else 0 for p in phases], np.int32)
    bounds = bounds_after(counts, phases, state_widths, to_clear, to_smoke, new_width)
    for s in range(states):
        phase = int(phases[s])
        for after, into in ((0, to_clear), (1, to_smoke)):
            if phase == 2 or after > phase:
                continue
            summed = [0] * int(new_width[after])
            for j in range(widths[phase]):
                summed[into[phase, j]] += int(counts[s, j])
            assert all(c <= bounds[after, g] for g, c in enumerate(summed))


def _level_lists(level: kernel.Level) -> list[list[object]]:
    """A level's states (their counts within their widths), tallies and weights, as lists."""
    counts = [level.counts[s, : level.widths[s]].tolist() for s in range(len(level.phases))]
    arrays = (level.phases, level.widths, level.start, level.tally, level.weight)
    return [counts, *(a.tolist() for a in arrays)]


def test_the_step_with_exact_keys_finds_the_levels_the_hashed_counts_find(monkeypatch):
    """Six men of six profiles under smoke (BREEZE clears it): at every draw the step with
    exact keys gives the very level (states in the same order, the same tallies and
    weights) and man's weights as the step that hashes the counts and compares them."""
    plain = kernel.advance
    steps = []

    def both(level, tables, ended, size, moduli):
        exact = plain(level, tables, ended, size, moduli)
        hashed = plain(level, tables, ended, size, moduli, exact_keys=False)
        assert _level_lists(exact[0]) == _level_lists(hashed[0])
        assert exact[1].tolist() == hashed[1].tolist()
        assert exact[2] == hashed[2]
        steps.append(exact[0].pairs)
        return exact

    monkeypatch.setattr(kernel, "advance", both)
    men = "ger-leader,ger-rifle-1,ger-rifle-2,us-bar,jap-rifle,ita-rifle"
    inp = UpFrontResolution(ffs=3, rr=5, smoke=-2, targets=men, firers="ger-lmg")
    assert sum(resolution_odds(inp).tally.values()) == 1
    assert len(steps) == 6
    assert group.kernel.advance is both  # the walk drew through the patched step


@pytest.mark.parametrize("exact_keys", [True, False])
def test_counts_too_wide_for_two_words_are_hashed_and_compared(exact_keys):
    """One state of 30 groups of 100 cards (101**30 is past 2**199): the keys cannot fit two
    words, so the step hashes the counts and compares them; a card of each group leads to
    30 different states, each one card fewer in its group, weighed by that group's 100."""
    groups = 30
    blank = kernel.Tables.blank(groups)
    tables = replace(
        blank,
        n_moves=np.array([groups, 0], np.int64),
        new_width=np.array([groups, 0], np.int64),
        next_tally=np.zeros((1, 2), np.int64),
    )
    tables.move_of[0, :] = np.arange(groups)
    tables.slot[0, :] = np.arange(groups)
    tables.to_clear[0, :] = np.arange(groups)
    bounds = bounds_after(
        np.full((1, groups), 100, np.int32),
        np.zeros(1, np.int8),
        np.array([groups], np.int32),
        tables.to_clear,
        tables.to_smoke,
        tables.new_width,
    )
    assert not key_places(bounds, tables.new_width)[2]
    level = kernel.Level(
        np.full((1, groups), 100, np.int32),
        np.zeros(1, np.int8),
        np.array([groups], np.int32),
        np.array([0, 1], np.int64),
        np.zeros(1, np.int64),
        np.ones((1, 1), np.uint64),
    )
    moduli = kernel.lanes_for(100 * groups)
    after, weights, moves = kernel.advance(
        level, tables, 0, 100 * groups, moduli, exact_keys=exact_keys
    )
    assert moves == groups
    assert len(after.phases) == groups + 1  # and the ended attack, state 0
    for s in range(1, groups + 1):
        expected = [100] * groups
        expected[s - 1] = 99
        assert after.counts[s, :groups].tolist() == expected
    assert after.weight[:, 0].tolist() == [100] * groups
    assert weights[0, 0] == 100 * groups
