"""The compiled loop of the Up Front walks' step (:func:`.kernel.advance`): numba's machine
code for one draw from every pool state. Imported by :mod:`.kernel` only when a walk draws,
so that importing the rule set (or any other game) never loads numba; numba's cache keeps the
compiled code between runs (the Makefile's warm step builds it).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

__all__ = ["advance_compiled"]

Ints = npt.NDArray[np.int64]
Words = npt.NDArray[np.uint64]

_EMPTY = -1

_Stepped = tuple[
    npt.NDArray[np.int32],
    npt.NDArray[np.int8],
    npt.NDArray[np.int32],
    Ints,
    Ints,
    Words,
    Words,
    int,
]
"""What one compiled step returns: the level after (counts, phases, widths, tally starts,
tallies, weights), the man's results' weights, the moves made."""


@njit(cache=True)
def _mix(key: np.uint64) -> np.uint64:  # pragma: no cover - compiled
    """A 64-bit finaliser (splitmix64): spreads a row's hash over the table's slots."""
    z = key + np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


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
) -> _Stepped:  # pragma: no cover - compiled; exercised through group_odds
    """One card drawn from every pool state (the arguments: :func:`.kernel.advance`'s
    :class:`.kernel.Level` and :class:`.kernel.Tables`, unpacked into arrays). Three parts,
    marked below: each state's total weight (for each man's own odds); the states after,
    found by hashing their counts in one open-addressing table, and every (state before, card
    group) merged into one move; the tallies of each state after, gathered from the moves
    into it.

    Kept as one function of about 245 lines, longer than the project's 80, for speed: it is
    the inner loop of every compiled walk (pages 3 and 7; 4 to 7 ns a move, docs/upfront.md,
    Figures), its parts share a dozen scratch arrays and the hash table, and numba compiles
    each ``@njit`` function apart: split, every helper call would pass those arrays (each
    reference-counted per call) inside loops run millions of times a draw, and numba does
    not promise to inline one compiled function into another. The walks' tests (prefix
    replay, the hypergeometric law) check it whole."""
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
    # every state's total weight, for each man's own odds
    total = np.zeros((states, lanes), np.uint64)
    for s in range(states):
        for p in range(p_start[s], p_start[s + 1]):
            for r in range(lanes):
                total[s, r] += p_weight[p, r]
        for r in range(1, lanes):
            total[s, r] %= moduli[r]
    # --- the states: each state's draws, merged by (state after, result)
    capacity = states * (width_max + 1) + 1
    new_counts = np.empty((capacity, width_max), np.int32)
    new_phases = np.empty(capacity, np.int8)
    new_widths = np.empty(capacity, np.int32)
    size_table = 64
    while size_table < 4 * states:
        size_table *= 2
    table = np.full(size_table, _EMPTY, np.int64)
    table_hash = np.zeros(size_table, np.uint64)
    found = 1  # state 0: the attack ended
    new_phases[0] = 2
    new_widths[0] = 0
    t_start = np.zeros(states + 1, np.int64)
    t_to = np.empty(capacity, np.int64)
    t_count = np.empty(capacity, np.int64)
    t_result = np.empty(capacity, np.int64)
    moves = 0
    bases = np.zeros((2, width_max), np.int32)
    drawn = np.zeros(width_max, np.int64)
    hashes = np.zeros(2, np.uint64)
    marginal = np.zeros((results, lanes), np.uint64)
    for s in range(states):
        t_start[s] = moves
        phase = phases[s]
        if phase == 2:
            t_to[moves] = 0
            t_count[moves] = size
            t_result[moves] = ended_result
            moves += 1
        else:
            width = widths[s]
            for after in range(2):
                if after == 1 and phase == 0:
                    continue
                w = new_width[after]
                for j in range(w):
                    bases[after, j] = 0
                for j in range(width):
                    if after == 0:
                        bases[0, to_clear[phase, j]] += counts[s, j]
                    else:
                        bases[1, to_smoke[phase, j]] += counts[s, j]
                h = np.uint64(after + 1)
                for j in range(w):
                    h = h * hash_base + np.uint64(bases[after, j] + 1)
                hashes[after] = h
            for m in range(n_moves[phase]):
                drawn[m] = 0
            for x in range(width):
                drawn[move_of[phase, x]] += counts[s, x]
            for m in range(n_moves[phase]):
                c = drawn[m]
                if c == 0:
                    continue
                rx = result[phase, m]
                target = 0
                if not ends[phase, m]:
                    after = still[phase, m]
                    w = new_width[after]
                    cut = slot[phase, m]
                    h = _mix(hashes[after] - powers[w - 1 - cut])
                    bases[after, cut] -= 1
                    i = np.int64(h & np.uint64(size_table - 1))
                    while True:
                        k = table[i]
                        if k == _EMPTY:
                            table[i] = found
                            table_hash[i] = h
                            for j in range(w):
                                new_counts[found, j] = bases[after, j]
                            new_phases[found] = after
                            new_widths[found] = w
                            target = found
                            found += 1
                            break
                        if table_hash[i] == h and new_phases[k] == after:
                            same = True
                            for j in range(w):
                                if new_counts[k, j] != bases[after, j]:
                                    same = False
                                    break
                            if same:
                                target = k
                                break
                        i = (i + 1) & (size_table - 1)
                    bases[after, cut] += 1
                    if 2 * found > size_table:  # grow the table
                        bigger = size_table * 2
                        table2 = np.full(bigger, _EMPTY, np.int64)
                        hash2 = np.zeros(bigger, np.uint64)
                        for a in range(size_table):
                            if table[a] == _EMPTY:
                                continue
                            b = np.int64(table_hash[a] & np.uint64(bigger - 1))
                            while table2[b] != _EMPTY:
                                b = (b + 1) & (bigger - 1)
                            table2[b] = table[a]
                            hash2[b] = table_hash[a]
                        table = table2
                        table_hash = hash2
                        size_table = bigger
                t_to[moves] = target
                t_count[moves] = c
                t_result[moves] = rx
                moves += 1
        for u in range(t_start[s], moves):
            cu = np.uint64(t_count[u])
            for r in range(lanes):
                marginal[t_result[u], r] += total[s, r] * cu
        for r in range(1, lanes):
            for q in range(results):
                marginal[q, r] %= moduli[r]
    t_start[states] = moves
    # --- the draws into each state after, from the states before
    in_start = np.zeros(found + 1, np.int64)
    for u in range(moves):
        in_start[t_to[u] + 1] += 1
    for t in range(found):
        in_start[t + 1] += in_start[t]
    fill = in_start[:-1].copy()
    tallies_now = next_tally.shape[0]
    # each draw into a state as one row (source's first and last pair, count, tally step)
    # and each pair as one row (tally, weights): a draw reads two places, not six
    incoming = np.empty((moves, 4), np.int64)
    for s in range(states):
        for u in range(t_start[s], t_start[s + 1]):
            q = fill[t_to[u]]
            incoming[q, 0] = p_start[s]
            incoming[q, 1] = p_start[s + 1]
            incoming[q, 2] = t_count[u]
            incoming[q, 3] = (keep if phases[s] == 2 else t_result[u]) * tallies_now
            fill[t_to[u]] += 1
    pairs = np.empty((p_tally.shape[0], lanes + 1), np.uint64)
    for p in range(p_tally.shape[0]):
        pairs[p, 0] = np.uint64(p_tally[p])
        for r in range(lanes):
            pairs[p, r + 1] = p_weight[p, r]
    tallies_next = next_tally.max() + 1
    step_of = next_tally.T.copy().ravel()
    acc = np.zeros((tallies_next, lanes), np.uint64)
    stamp = np.zeros(tallies_next, np.int64)
    touched = np.empty(tallies_next, np.int64)
    room = 1024
    o_tally = np.empty(room, np.int64)
    o_weight = np.empty((room, lanes), np.uint64)
    o_start = np.zeros(found + 1, np.int64)
    out = 0
    for t in range(found):
        o_start[t] = out
        n_touched = 0
        mark = t + 1
        for q in range(in_start[t], in_start[t + 1]):
            first = incoming[q, 0]
            last = incoming[q, 1]
            cu = np.uint64(incoming[q, 2])
            offset = incoming[q, 3]
            if lanes == 1:
                for p in range(first, last):
                    j = step_of[offset + np.int64(pairs[p, 0])]
                    if stamp[j] != mark:
                        stamp[j] = mark
                        touched[n_touched] = j
                        n_touched += 1
                        acc[j, 0] = pairs[p, 1] * cu
                    else:
                        acc[j, 0] += pairs[p, 1] * cu
                continue
            for p in range(first, last):
                j = step_of[offset + np.int64(pairs[p, 0])]
                if stamp[j] != mark:
                    stamp[j] = mark
                    touched[n_touched] = j
                    n_touched += 1
                    for r in range(lanes):
                        acc[j, r] = pairs[p, r + 1] * cu
                else:
                    for r in range(lanes):
                        acc[j, r] += pairs[p, r + 1] * cu
        if out + n_touched > room:
            while out + n_touched > room:
                room *= 2
            tally2 = np.empty(room, np.int64)
            weight2 = np.empty((room, lanes), np.uint64)
            tally2[:out] = o_tally[:out]
            weight2[:out] = o_weight[:out]
            o_tally = tally2
            o_weight = weight2
        for z in range(n_touched):
            j = touched[z]
            o_tally[out] = j
            o_weight[out, 0] = acc[j, 0]
            for r in range(1, lanes):
                o_weight[out, r] = acc[j, r] % moduli[r]
            out += 1
    o_start[found] = out
    return (
        new_counts[:found].copy(),
        new_phases[:found].copy(),
        new_widths[:found].copy(),
        o_start,
        o_tally[:out].copy(),
        o_weight[:out].copy(),
        marginal,
        moves,
    )


advance_compiled = _advance
"""The compiled step (:func:`.kernel.advance` calls it)."""
