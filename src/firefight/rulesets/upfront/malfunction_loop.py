"""The compiled loop of the page 6 walk's step (:mod:`.malfunction_level`): numba's machine code
for one man's draw from every pool state. Imported by :mod:`.malfunction_level` only when a
walk draws, so that importing the rule set never loads numba; numba's cache keeps the compiled
code between runs.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

from firefight.rulesets.upfront.stepping import (
    gather,
    grown,
    mix,
    room_for,
    state_totals,
    table_size,
)

__all__ = ["advance_page6"]

Ints = npt.NDArray[np.int64]
Words = npt.NDArray[np.uint64]

LANE_BITS = 26
"""The lanes after the first are primes below 2**26 (:func:`.malfunction_level.lanes`): a
residue times a move's factor reduced in the lane is below 2**52, so 2**11 of them add up in
64 bits before a reduction."""
ADDS_BEFORE_REDUCING = 2**11
PROBE_COST = 2
"""What one move into a state after costs the loop, in its own work units (about a
nanosecond each): the hash, the probe, the merge with the state's other moves, the
result's weights; a pile summed into a cut after costs one unit a group of the state's."""
NEW_STATE_COST = 48
"""What a new state after costs the loop for each of its groups and 8 more, in the same
units: its counts copied in and out, the hash table and the tallies gathered into it, the
memory they take (measured 25 to 80 ns a group, the more the more states)."""
HASH_BASE = np.uint64(0x100000001B3)

Scratch = tuple[Ints, Words, npt.NDArray[np.int32], Ints, Words]
"""The compiled steps' scratch memory (:data:`.step.Scratch`)."""

_Stepped = tuple[npt.NDArray[np.int32], Ints, Ints, Ints, Words, Words, np.int64, Scratch]
"""What one compiled step returns: the level after (counts, modes, tally starts, tallies,
weights), each mode after's results' weights, the work done in the loop's units (past the
cap: the step stopped there, the level after empty), and the scratch (as given, or
grown)."""


@njit(cache=True)
def _reduce(marginal: Words, moduli: Words) -> None:  # pragma: no cover - compiled
    """The results' weights (modes by results by lanes) reduced in every lane but the
    first (it wraps)."""
    for a in range(marginal.shape[0]):
        for q in range(marginal.shape[1]):
            for r in range(1, moduli.shape[0]):
                marginal[a, q, r] %= moduli[r]


@njit(cache=True)
def _advance(  # noqa: PLR0912, PLR0915, PLR0917 - one compiled loop nest
    counts: npt.NDArray[np.int32],
    modes: Ints,
    p_start: Ints,
    p_tally: Ints,
    p_weight: Words,
    m_first: Ints,
    mv_g: Ints,
    mv_h: Ints,
    mv_ahead: Ints,
    mv_result: Ints,
    mv_step: Ints,
    mv_to: Ints,
    mv_map: Ints,
    maps: Ints,
    map_width: Ints,
    next_tally: Ints,
    results: np.int64,
    moduli: Words,
    scratch: Scratch,
    cap: np.int64,
) -> _Stepped:  # pragma: no cover - compiled; exercised through page6_group_odds
    """One card (and, on a malfunction, page 6's selection card) drawn from every pool state:
    each state's moves are its mode's (``m_first[mode]`` to ``m_first[mode + 1]``): the
    card's group ``g`` (-1: an attack over, no card counted), the selection card's group
    ``h`` (-1: none), a factor (``ahead``), the man's result, the tally step's column, the
    mode after and the cut after (``maps``: each group's place there, of ``map_width``
    groups). A move's weight is its factor times the cards of ``g`` and then of ``h`` left;
    states after are found by hashing (mode, counts), then each state after's tallies are
    gathered from the moves into it (:func:`.stepping.gather`, as page 3's step does).

    ``cap`` (negative: none) bounds the work of the moves into states after, counted as they
    are made (:data:`PROBE_COST` a move, :data:`NEW_STATE_COST` a new state's group): past
    it the step stops at once and returns an empty level with the work done, above the
    cap.

    Long because it is kept in one loop nest for speed, as page 3's
    (:func:`.step._advance`): it runs for every move of every state. Split into helpers (the
    pile's hash, the table's probe, the growth of the states' arrays, the merge of a
    state's moves, a move's share of the results: each ``@njit``, inlined by numba or not)
    it was measured slower in the same run against this one, so it stays whole; the page 6
    walk's twin tests (the Python step, prefix replay) check it whole."""
    states = counts.shape[0]
    width = counts.shape[1]
    lanes = moduli.shape[0]
    width_after = max(1, map_width.max()) if map_width.shape[0] else 1
    n_modes = m_first.shape[0] - 1
    total = state_totals(p_start, p_weight, moduli)
    moves_most = 0
    for s in range(states):
        moves_most += m_first[modes[s] + 1] - m_first[modes[s]]
    room_states = 64
    while room_states < 2 * states:
        room_states *= 2
    new_counts = np.zeros((room_states, width_after), np.int32)
    new_modes = np.empty(room_states, np.int64)
    mark = np.full(room_states, -1, np.int64)
    ints, words, small, g_ints, g_words = scratch
    size_table = table_size(room_states // 2)
    words = room_for(words, moves_most + 3 * size_table)
    t_factor = words[:moves_most]
    table = words[moves_most : moves_most + 3 * size_table].reshape((size_table, 3))
    table[:] = 0
    mask = size_table - 1
    found = 0
    ints = room_for(ints, 3 * moves_most)
    t_from = ints[:moves_most]
    t_to = ints[moves_most : 2 * moves_most]
    t_step = ints[2 * moves_most : 3 * moves_most]
    moves = 0
    base = np.zeros(width_after, np.int32)
    pile = np.zeros(width_after, np.int32)
    pile_hash = np.uint64(0)
    powers = np.empty(width_after + 1, np.uint64)
    powers[0] = np.uint64(1)
    for j in range(1, width_after + 1):
        powers[j] = powers[j - 1] * HASH_BASE
    marginal = np.zeros((n_modes, results, lanes), np.uint64)
    unreduced = 0
    work = np.int64(0)
    for s in range(states):
        if 0 <= cap < work:  # past the work allowed: stop here
            empty = np.zeros(0, np.int64)
            return (
                np.zeros((0, width_after), np.int32),
                empty,
                np.zeros(1, np.int64),
                empty,
                np.zeros((0, lanes), np.uint64),
                marginal,
                work,
                (ints, words, small, g_ints, g_words),
            )
        mode = modes[s]
        state_moves = moves
        cached_row = -1
        for u in range(m_first[mode], m_first[mode + 1]):
            g, h = mv_g[u], mv_h[u]
            factor = np.int64(mv_ahead[u])
            if g >= 0:
                factor *= counts[s, g]
            if h >= 0:
                factor *= counts[s, h] - (1 if h == g else 0)
            if factor <= 0:
                continue
            row = mv_map[u]
            w = map_width[row]
            work += PROBE_COST
            if row != cached_row:  # the pile in this cut after, and its hash
                cached_row = row
                work += width
                for j in range(w):
                    pile[j] = 0
                for x in range(width):
                    if counts[s, x]:
                        pile[maps[row, x]] += counts[s, x]
                pile_hash = np.uint64(0)
                for j in range(w):
                    pile_hash = pile_hash * HASH_BASE + np.uint64(pile[j] + 1)
            for j in range(w):
                base[j] = pile[j]
            key = pile_hash
            if g >= 0 and w:
                base[maps[row, g]] -= 1
                key -= powers[w - 1 - maps[row, g]]
            if h >= 0 and w:
                base[maps[row, h]] -= 1
                key -= powers[w - 1 - maps[row, h]]
            after = mv_to[u]
            tag = np.uint64(after)
            key = mix(key ^ (np.uint64(after + 1) * np.uint64(0x9E3779B97F4A7C15)))
            i = np.int64(key & np.uint64(mask))
            while True:
                k = np.int64(table[i, 0]) - 1
                if k < 0:
                    table[i, 0] = np.uint64(found + 1)
                    table[i, 1] = key
                    table[i, 2] = tag
                    for j in range(w):
                        new_counts[found, j] = base[j]
                    new_modes[found] = after
                    work += NEW_STATE_COST * (w + 8)
                    k = np.int64(found)
                    found += 1
                    if found == room_states:  # room for more states
                        room_states *= 2
                        counts2 = np.zeros((room_states, width_after), np.int32)
                        counts2[:found] = new_counts[:found]
                        modes2 = np.empty(room_states, np.int64)
                        modes2[:found] = new_modes[:found]
                        mark2 = np.full(room_states, -1, np.int64)
                        mark2[:found] = mark[:found]
                        new_counts, new_modes, mark = counts2, modes2, mark2
                    if 2 * found > table.shape[0]:  # a larger table (memory of its own)
                        table = grown(table)
                        mask = table.shape[0] - 1
                    break
                if table[i, 1] == key and table[i, 2] == tag:
                    same = True
                    for j in range(w):
                        if new_counts[k, j] != base[j]:
                            same = False
                            break
                    if same:
                        break
                i = (i + 1) & mask
            merged = False
            if mark[k] == s:  # another move of this state into the same state after
                for v in range(state_moves, moves):
                    if t_to[v] == k and t_step[v] == mv_step[u]:
                        t_factor[v] += np.uint64(factor)
                        merged = True
                        break
            if not merged:
                mark[k] = s
                t_from[moves] = s
                t_to[moves] = k
                t_factor[moves] = np.uint64(factor)
                t_step[moves] = mv_step[u]
                moves += 1
            q = mv_result[u]
            wide = np.uint64(factor)
            marginal[after, q, 0] += total[s, 0] * wide
            for r in range(1, lanes):
                residue = wide if wide < moduli[r] else wide % moduli[r]
                marginal[after, q, r] += total[s, r] * residue
            unreduced += 1
            if unreduced == ADDS_BEFORE_REDUCING:  # every product is below 2**52
                _reduce(marginal, moduli)
                unreduced = 0
    _reduce(marginal, moduli)
    # --- the tallies of each state after, gathered from the moves into it
    o_start, o_tally, o_weight, g_ints, g_words = gather(
        found,
        t_from[:moves],
        t_to[:moves],
        t_factor[:moves],
        t_step[:moves],
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
        new_modes[:found].copy(),
        o_start,
        o_tally,
        o_weight,
        marginal,
        work,
        (ints, words, small, g_ints, g_words),
    )


advance_page6 = _advance
"""The compiled step (:func:`.malfunction_level.advance` calls it)."""
