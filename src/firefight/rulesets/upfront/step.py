"""The compiled loop of the Up Front walks' step (:func:`.kernel.advance`): numba's machine
code for one draw from every pool state. Imported by :mod:`.kernel` only when a walk draws,
so that importing the rule set (or any other game) never loads numba; numba's cache keeps the
compiled code between runs (the Makefile's warm step builds it).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

from firefight.rulesets.upfront.state_keys import KEY_WORDS, bounds_after, key_places
from firefight.rulesets.upfront.stepping import (
    gather,
    grown,
    mix,
    room_for,
    state_totals,
    table_size,
)

__all__ = ["advance_compiled"]

Ints = npt.NDArray[np.int64]
Words = npt.NDArray[np.uint64]

KEY_COLUMNS = 2 + KEY_WORDS
"""A hash table slot: the state's index plus one (0: free), its hash, its key's words."""
GOLDEN = np.uint64(0x9E3779B97F4A7C15)
"""Spreads a key's second word before the two are hashed as one."""
ADDS_BEFORE_REDUCING = 2**22
"""A weight's residue (below 2**31) times a card count (below 2**10) is below 2**41: 2**22 of
them add up in 64 bits before a reduction."""

Scratch = tuple[Ints, Words, npt.NDArray[np.int32], Ints, Words]
"""A step's scratch memory, kept by the caller between steps: the step's own integers, words and
small integers, then :func:`.stepping.gather`'s integers and words."""

_Stepped = tuple[
    npt.NDArray[np.int32],
    npt.NDArray[np.int8],
    npt.NDArray[np.int32],
    Ints,
    Ints,
    Words,
    Words,
    int,
    "Scratch",
]
"""What one compiled step returns: the level after (counts, phases, widths, tally starts,
tallies, weights), the man's results' weights, the moves made, and the scratch (as given, or
grown)."""


@njit(cache=True)
def _advance(  # noqa: PLR0912, PLR0915, PLR0917 - one compiled loop nest
    counts: npt.NDArray[np.int32],
    phases: npt.NDArray[np.int8],
    widths: npt.NDArray[np.int32],
    p_start: Ints,
    p_tally: Ints,
    p_weight: Words,
    ends: npt.NDArray[np.bool_],
    result: Ints,
    still: Ints,
    slot: Ints,
    move_of: Ints,
    n_moves: Ints,
    to_clear: Ints,
    to_smoke: Ints,
    new_width: Ints,
    next_tally: Ints,
    ended_result: np.int64,
    size: np.int64,
    moduli: Words,
    scratch: Scratch,
    exact_keys: bool,
) -> _Stepped:  # pragma: no cover - compiled; exercised through group_odds
    """One card drawn from every pool state (the arguments: :func:`.kernel.advance`'s
    :class:`.kernel.Level` and :class:`.kernel.Tables`, unpacked into arrays, and the
    scratch :func:`.kernel.scratch` keeps). Three parts (:mod:`.stepping`): each state's
    total weight (for each man's own odds); the states after, found in one
    open-addressing table by their exact keys (:mod:`.state_keys`: each state's phase and
    counts as a mixed-radix number of two words at most; where they do not fit, or
    without ``exact_keys``, a hash of the counts, the counts compared on a probe), and
    every (state before, card group) merged into one move; the tallies of each state
    after, gathered from the moves into it (:func:`.stepping.gather`, page 6's step's
    too). Indices in the loops are unsigned where numba would otherwise wrap a negative
    one on every access.

    Long because the middle part is kept in one loop of about 100 lines, for speed: it is
    the inner loop of every compiled walk (pages 3 and 7), run for every
    move (millions a walk), and a helper called there would pass its scratch arrays on every
    call (each reference-counted). The walks' tests (prefix replay, the hypergeometric law)
    check it whole."""
    states = counts.shape[0]
    width_max = counts.shape[1]
    lanes = moduli.shape[0]
    results = next_tally.shape[1] - 1
    keep = results  # the step that leaves a tally as it is (an ended attack's draws)
    hash_base = np.uint64(0x100000001B3)
    powers = np.empty(width_max + 1, np.uint64)
    powers[0] = np.uint64(1)
    for j in range(1, width_max + 1):
        powers[j] = powers[j - 1] * hash_base
    total = state_totals(p_start, p_weight, moduli)  # each man's own odds
    # --- the states: each state's draws, merged by (state after, result)
    capacity = 1
    for s in range(states):
        capacity += 1 if phases[s] == 2 else n_moves[phases[s]]
    ints, words, small, g_ints, g_words = scratch
    small = room_for(small, capacity * (width_max + 2))
    new_counts = small[: capacity * width_max].reshape((capacity, width_max))
    new_phases = small[capacity * width_max : capacity * (width_max + 1)]
    new_widths = small[capacity * (width_max + 1) : capacity * (width_max + 2)]
    size_table = table_size(states)
    words = room_for(words, capacity + KEY_COLUMNS * size_table)
    t_count = words[:capacity]
    table = words[capacity : capacity + KEY_COLUMNS * size_table]
    table = table.reshape((size_table, KEY_COLUMNS))
    table[:] = 0
    mask = np.uint64(size_table - 1)
    bounds = bounds_after(counts, phases, widths, to_clear, to_smoke, new_width)
    places, word_of, exact = key_places(bounds, new_width, KEY_WORDS if exact_keys else 0)
    found = 1  # state 0: the attack ended
    new_phases[0] = 2
    new_widths[0] = 0
    ints = room_for(ints, 3 * capacity)
    t_from = ints[:capacity]
    t_to = ints[capacity : 2 * capacity]
    t_column = ints[2 * capacity : 3 * capacity]
    moves = 0
    bases = np.zeros((2, width_max), np.int32)
    drawn = np.zeros(width_max, np.int64)
    keys = np.zeros((2, KEY_WORDS), np.uint64)  # each phase after's key before the draw
    marginal = np.zeros((results, lanes), np.uint64)
    ulanes = np.uint64(lanes)
    for s in range(states):
        phase = phases[s]
        if phase == 2:
            t_from[moves] = s
            t_to[moves] = 0
            t_count[moves] = size
            t_column[moves] = keep
            for r in range(lanes):
                marginal[ended_result, r] += total[s, r] * np.uint64(size)
            moves += 1
        else:
            us = np.uint64(s)
            uphase = np.uint64(phase)
            width = np.uint64(widths[s])
            for later in range(np.uint64(2)):
                if later == 1 and phase == 0:
                    continue
                w = np.uint64(new_width[later])
                into = to_clear if later == 0 else to_smoke
                for j in range(w):
                    bases[later, j] = 0
                for j in range(width):
                    bases[later, np.uint64(into[uphase, j])] += counts[us, j]
                if exact:  # the phase digit, then each group's
                    keys[later, 0] = later
                    keys[later, 1] = 0
                    for j in range(w):
                        digit = np.uint64(bases[later, j]) * places[later, j]
                        keys[later, np.uint64(word_of[later, j])] += digit
                else:  # a hash of the counts, the phase beside it
                    h = later + np.uint64(1)
                    for j in range(w):
                        h = h * hash_base + np.uint64(bases[later, j] + 1)
                    keys[later, 0] = h
                    keys[later, 1] = later
            for m in range(n_moves[phase]):
                drawn[m] = 0
            for x in range(width):
                drawn[np.uint64(move_of[uphase, x])] += counts[us, x]
            for m in range(np.uint64(n_moves[phase])):
                c = drawn[m]
                if c == 0:
                    continue
                rx = result[uphase, m]
                target = np.int64(0)
                if not ends[uphase, m]:
                    after = np.uint64(still[uphase, m])
                    w = np.uint64(new_width[after])
                    cut = np.uint64(slot[uphase, m])
                    k0 = keys[after, 0]
                    k1 = keys[after, 1]
                    if not exact:
                        k0 -= powers[np.int64(w) - 1 - np.int64(cut)]
                    elif word_of[after, cut] == 0:
                        k0 -= places[after, cut]
                    else:
                        k1 -= places[after, cut]
                    h = mix(k0 + k1 * GOLDEN)
                    bases[after, cut] -= 1
                    i = h & mask
                    while True:
                        k = np.int64(table[i, 0]) - 1
                        if k < 0:
                            table[i, 0] = np.uint64(found + 1)
                            table[i, 1] = h
                            table[i, 2] = k0
                            table[i, 3] = k1
                            for j in range(w):
                                new_counts[found, j] = bases[after, j]
                            new_phases[found] = after
                            new_widths[found] = w
                            target = np.int64(found)
                            found += 1
                            break
                        if table[i, 2] == k0 and table[i, 3] == k1:
                            same = True  # exact keys: equal keys, equal states
                            for j in range(np.uint64(0) if exact else w):
                                if new_counts[k, j] != bases[after, j]:
                                    same = False
                                    break
                            if same:
                                target = k
                                break
                        i = (i + np.uint64(1)) & mask
                    bases[after, cut] += 1
                    if 2 * found > table.shape[0]:  # a larger table (memory of its own)
                        table = grown(table)
                        mask = np.uint64(table.shape[0] - 1)
                t_from[moves] = s
                t_to[moves] = target
                t_count[moves] = c
                t_column[moves] = rx
                moves += 1
                for r in range(ulanes):  # the man's result: the state's weight, c cards
                    marginal[np.uint64(rx), r] += total[us, r] * np.uint64(c)
        for r in range(1, lanes):
            for q in range(results):
                marginal[q, r] %= moduli[r]
    # --- the draws into each state after, from the states before
    o_start, o_tally, o_weight, g_ints, g_words = gather(
        found,
        t_from[:moves],
        t_to[:moves],
        t_count[:moves],
        t_column[:moves],
        p_start,
        p_tally,
        p_weight,
        next_tally,
        moduli,
        ADDS_BEFORE_REDUCING,
        g_ints,
        g_words,
    )
    return (
        new_counts[:found].copy(),
        new_phases[:found].astype(np.int8),
        new_widths[:found].copy(),
        o_start,
        o_tally,
        o_weight,
        marginal,
        moves,
        (ints, words, small, g_ints, g_words),
    )


advance_compiled = _advance
"""The compiled step (:func:`.kernel.advance` calls it)."""
