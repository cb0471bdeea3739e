"""What the compiled steps of the Up Front walks share (page 3's :mod:`.step`, page 6's
:mod:`.malfunction_loop`): one draw from every pool state of a level, as numba's machine code.

A step has three parts. Each pool state's total weight (:func:`state_totals`, for each man's
own odds); the states after, found by hashing their counts in one open-addressing table
(:func:`mix`, :func:`new_table`, :func:`grown`), each (state before, card group) that leads
alike being one *move* of a factor (the cards it stands for); and the tallies of each state
after, gathered from the moves into it (:func:`gather`). The first and last parts are the
same for every walk; how a walk finds its moves is its own (the page's rules).

Imported only when a walk draws (importing the rule set loads no numba); numba's cache keeps
the compiled code between runs.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

__all__ = ["gather", "grown", "mix", "new_table", "room_for", "state_totals", "table_size"]

Ints = npt.NDArray[np.int64]
Words = npt.NDArray[np.uint64]


@njit(cache=True)
def mix(key: np.uint64) -> np.uint64:  # pragma: no cover - compiled
    """A 64-bit finaliser (splitmix64): spreads a row's hash over the table's slots."""
    z = key + np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def state_totals(p_start: Ints, p_weight: Words, moduli: Words) -> Words:  # pragma: no cover
    """Each state's total weight in every lane (its pairs' weights added; lane 0 wraps, the
    others reduced once: a residue is below 2**31, so up to 2**33 of them add up in 64
    bits)."""
    states = p_start.shape[0] - 1
    lanes = np.uint64(moduli.shape[0])
    total = np.zeros((states, lanes), np.uint64)
    for s in range(np.uint64(states)):
        for p in range(np.uint64(p_start[s]), np.uint64(p_start[s + np.uint64(1)])):
            for r in range(lanes):
                total[s, r] += p_weight[p, r]
        for r in range(np.uint64(1), lanes):
            total[s, r] %= moduli[r]
    return total


@njit(cache=True)
def room_for(
    buffer: npt.NDArray[Any], items: int
) -> npt.NDArray[Any]:  # pragma: no cover - compiled
    """``buffer`` where it holds ``items``, else a new one with room for half as many
    more (a walk's scratch, kept between its steps: memory written once, not paged in anew
    at every step)."""
    if buffer.shape[0] >= items:
        return buffer
    return np.empty(items + items // 2, buffer.dtype)


@njit(cache=True)
def table_size(states: int) -> int:  # pragma: no cover - compiled
    """The hash table's slots for about ``states`` states: a power of two, at least four a
    state."""
    size = 64
    while size < 4 * states:
        size *= 2
    return size


@njit(cache=True)
def new_table(states: int) -> Words:  # pragma: no cover - compiled
    """An empty hash table for about ``states`` states: one row a slot (the state's index
    plus one, 0 for a free slot; its hash; its tag, the phase or mode a walk keeps beside
    the counts), a power of two of slots, at least four a state, so that one probe reads
    one row."""
    return np.zeros((table_size(states), 3), np.uint64)


@njit(cache=True)
def grown(table: Words) -> Words:  # pragma: no cover - compiled
    """The table in twice the slots (its states placed again by their hashes, column 1; the
    other columns as they are)."""
    size = table.shape[0]
    columns = table.shape[1]
    bigger = np.zeros((2 * size, columns), np.uint64)
    mask = np.uint64(2 * size - 1)
    for a in range(size):
        if table[a, 0] == 0:
            continue
        b = np.int64(table[a, 1] & mask)
        while bigger[b, 0] != 0:
            b = np.int64((b + 1) & (2 * size - 1))
        for c in range(columns):
            bigger[b, c] = table[a, c]
    return bigger


@njit(cache=True)
def _by_state_after(  # noqa: PLR0917 - the moves' arrays, as gather takes them
    found: int,
    move_from: Ints,
    move_to: Ints,
    move_factor: Words,
    move_column: Ints,
    p_start: Ints,
    tallies: int,
    tallies_next: int,
    ints: Ints,
) -> tuple[Ints, Ints, int, Ints]:  # pragma: no cover - compiled
    """The moves in order of state after (a counting sort): where each state after's moves
    begin (``in_start``), each move as its pairs' first and last places, its column's offset
    in the tally steps and its factor (``rows``), the room the tallies after may take (each
    state after at most its moves' pairs, at most every tally after), and the scratch."""
    moves = move_to.shape[0]
    ints = room_for(ints, 3 * found + 1 + 4 * moves)
    in_start = ints[: found + 1]
    bound = ints[found + 1 : 2 * found + 1]
    fill = ints[2 * found + 1 : 3 * found + 1]
    in_start[:] = 0
    bound[:] = 0
    one = np.uint64(1)
    for u in range(np.uint64(moves)):
        into = np.uint64(move_to[u])
        s = np.uint64(move_from[u])
        in_start[into + one] += 1
        bound[into] += p_start[s + one] - p_start[s]
    room = 0
    for t in range(np.uint64(found)):
        in_start[t + one] += in_start[t]
        room += min(bound[t], tallies_next)
    fill[:] = in_start[:-1]
    rows = ints[3 * found + 1 : 3 * found + 1 + 4 * moves].reshape((moves, 4))
    for u in range(np.uint64(moves)):
        into = np.uint64(move_to[u])
        q = np.uint64(fill[into])
        fill[into] += 1
        s = np.uint64(move_from[u])
        rows[q, 0] = p_start[s]
        rows[q, 1] = p_start[s + one]
        rows[q, 2] = move_column[u] * tallies
        rows[q, 3] = np.int64(move_factor[u])
    return in_start, rows, room, ints


@njit(cache=True)
def _gather_one(  # noqa: PLR0917 - the sorted moves and the pairs before
    in_start: Ints,
    rows: Ints,
    p_tally: Ints,
    p_weight: Words,
    step_of: Ints,
    tallies_next: int,
    o_start: Ints,
    o_tally: Words,
    o_weight: Words,
) -> int:  # pragma: no cover - compiled
    """:func:`gather`'s loop for weights in one lane (each weight itself, below 2**64: no
    reduction). Indices are unsigned (``np.uint64``), so that numba leaves out the
    negative-index wrap of every array access: the loop runs for every (move, tally) pair.
    Returns how many pairs after it wrote."""
    found = o_start.shape[0] - 1
    acc = np.zeros(tallies_next, np.uint64)
    stamp = np.full(tallies_next, -1, np.int64)
    touched = np.empty(tallies_next + 1, np.uint64)
    out = np.uint64(0)
    one = np.uint64(1)
    for t in range(found):
        o_start[t] = out
        n_touched = np.uint64(0)
        for q in range(np.uint64(in_start[t]), np.uint64(in_start[t + 1])):
            p = np.uint64(rows[q, 0])
            last = np.uint64(rows[q, 1])
            offset = np.uint64(rows[q, 2])
            factor = np.uint64(rows[q, 3])
            while p < last:
                j = np.uint64(step_of[offset + np.uint64(p_tally[p])])
                touched[n_touched] = j  # kept only where the tally is new here
                n_touched += np.uint64(stamp[j] != t)
                stamp[j] = t
                acc[j] += p_weight[p, 0] * factor
                p += one
        for z in range(n_touched):
            j = touched[z]
            o_tally[out] = j
            o_weight[out, 0] = acc[j]
            acc[j] = 0
            out += one
    o_start[found] = out
    return int(out)


@njit(cache=True)
def _gather_lanes(  # noqa: PLR0917 - the sorted moves and the pairs before
    in_start: Ints,
    rows: Ints,
    p_tally: Ints,
    p_weight: Words,
    step_of: Ints,
    tallies_next: int,
    moduli: Words,
    adds_before_reducing: int,
    o_start: Ints,
    o_tally: Words,
    o_weight: Words,
) -> int:  # pragma: no cover - compiled
    """:func:`gather`'s loop for weights in two lanes or more (lane 0 wraps, the others
    reduced every ``adds_before_reducing`` products and once at the end); unsigned indices
    as in :func:`_gather_one`. Returns how many pairs after it wrote."""
    found = o_start.shape[0] - 1
    lanes = np.uint64(moduli.shape[0])
    factors = np.zeros(lanes, np.uint64)
    acc = np.zeros((tallies_next, lanes), np.uint64)
    stamp = np.full(tallies_next, -1, np.int64)
    touched = np.empty(tallies_next + 1, np.uint64)
    out = np.uint64(0)
    one = np.uint64(1)
    for t in range(found):
        o_start[t] = out
        n_touched = np.uint64(0)
        added = 0
        for q in range(np.uint64(in_start[t]), np.uint64(in_start[t + 1])):
            p = np.uint64(rows[q, 0])
            last = np.uint64(rows[q, 1])
            offset = np.uint64(rows[q, 2])
            factor = np.uint64(rows[q, 3])
            factors[0] = factor
            for r in range(one, lanes):
                factors[r] = factor % moduli[r]
            if added + int(last - p) > adds_before_reducing:
                for y in range(n_touched):
                    for r in range(one, lanes):
                        acc[touched[y], r] %= moduli[r]
                added = 0
            added += int(last - p)
            while p < last:
                j = np.uint64(step_of[offset + np.uint64(p_tally[p])])
                touched[n_touched] = j
                n_touched += np.uint64(stamp[j] != t)
                stamp[j] = t
                for r in range(lanes):
                    acc[j, r] += p_weight[p, r] * factors[r]
                p += one
        for z in range(n_touched):
            j = touched[z]
            o_tally[out] = j
            o_weight[out, 0] = acc[j, 0]
            acc[j, 0] = 0
            for r in range(one, lanes):
                o_weight[out, r] = acc[j, r] % moduli[r]
                acc[j, r] = 0
            out += one
    o_start[found] = out
    return int(out)


@njit(cache=True)
def gather(  # noqa: PLR0917 - the moves and the pairs before
    found: int,
    move_from: Ints,
    move_to: Ints,
    move_factor: Words,
    move_column: Ints,
    p_start: Ints,
    p_tally: Ints,
    p_weight: Words,
    next_tally: Ints,
    moduli: Words,
    adds_before_reducing: int,
    ints: Ints,
    words: Words,
) -> tuple[
    Ints, Ints, Words, Ints, Words
]:  # pragma: no cover - compiled; exercised through the walks
    """The tallies of each of the ``found`` states after, from the moves into them: a move
    takes every pair (tally, weight) of its state before to the state after, the tally
    stepped by its column (``next_tally[tally, column]``) and the weight times its
    factor. Equal tallies under a state after add up. Returns each state after's pairs
    (``start[t]:start[t + 1]``), their tallies and weights; lane 0 wraps, the others are
    reduced every ``adds_before_reducing`` products (a residue times a factor's residue must
    leave that many of them room in 64 bits) and once at the end; and the scratch (``ints``,
    ``words``: what the step is given, or larger ones where it needed more).

    The moves are put in order of state after (:func:`_by_state_after`), so that the loop
    over a state after's moves reads them in a row; its tallies are summed in a dense array
    over the tallies after, stamped by the state, written out in the order they were first
    met and cleared (:func:`_gather_one` for weights in one lane, :func:`_gather_lanes`
    for more). Each part is called once a step; the loops over (move, tally) pairs are
    whole inside them."""
    lanes = moduli.shape[0]
    tallies = next_tally.shape[0]
    tallies_next = next_tally.max() + 1 if next_tally.size else 1
    step_of = next_tally.T.copy().ravel()  # one column's tallies in a row
    in_start, rows, room, ints = _by_state_after(
        found, move_from, move_to, move_factor, move_column, p_start, tallies, tallies_next, ints
    )
    words = room_for(words, room * (lanes + 1))
    o_tally = words[:room]
    o_weight = words[room : room * (lanes + 1)].reshape((room, lanes))
    o_start = np.zeros(found + 1, np.int64)
    if lanes == 1:
        out = _gather_one(
            in_start, rows, p_tally, p_weight, step_of, tallies_next, o_start, o_tally, o_weight
        )
    else:
        out = _gather_lanes(
            in_start,
            rows,
            p_tally,
            p_weight,
            step_of,
            tallies_next,
            moduli,
            adds_before_reducing,
            o_start,
            o_tally,
            o_weight,
        )
    return o_start, o_tally[:out].astype(np.int64), o_weight[:out].copy(), ints, words
