"""The compiled step of the page 3 walk over pool states (:mod:`.group`): one man's draw.

The walk (docs/chance.md, "draws without replacement as state") holds, before each man's
card, a set of *pool states* (how many cards of each card group are left; smoke in play or
not; or the attack ended) and under each state its *tallies* (the losses so far) with their
weights: the number of card sequences that lead there. :func:`advance` draws one card from
every state: every card group with cards left moves the state (one card fewer of that group,
the groups re-cut to what the men still to draw can tell apart, smoke cleared by a BREEZE, the
attack ended by a malfunction) and adds the man's result to each of its tallies. Equal states
and equal tallies merge.

It is the same walk :mod:`.group` describes, compiled with numba: a 10-man group of ten
distinct profiles with smoke in play makes about 10 million moves (a (state, tally) pair drawn
from one card group), 4 to 7 ns each here, 85 ms in all; the same walk in CPython took 0.12 us
a move and 3 s (issue 14's target is 100 ms). The work is the same; only the machine code
differs.

Weights are exact integers kept as residues: lane 0 modulo 2**64 (unsigned arithmetic wraps),
the other lanes modulo primes below 2**31, reduced once per merged pair (a product with a card
count is below 2**41, so a sum of up to 2**22 of them cannot overflow). :func:`lanes_for` picks
enough lanes for the largest weight the walk can reach (the product of the pool sizes drawn
from) and :func:`combine` rebuilds each weight by the Chinese remainder theorem; the caller
checks that the weights add up to that product exactly.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt
from numba import njit

__all__ = [
    "CLEAR",
    "ENDED",
    "SMOKE",
    "Level",
    "Tables",
    "advance",
    "combine",
    "lanes_for",
    "warm",
    "widen",
]

CLEAR, SMOKE, ENDED = 0, 1, 2
"""A pool state's phase: smoke not in play (or cleared by a BREEZE), smoke in play, the attack
ended by a malfunction (no counts kept: every card leads back to it)."""

WRAP = 2**64
LANE_PRIME_BELOW = 2**31
"""The lanes after the first are the primes below 2**31, largest first: a weight residue times
a card count (a deck holds at most ``cards.MAX_CARDS`` = 1,000 cards, below 2**10) is below
2**41, so 2**22 such products add up in 64 bits before a reduction."""
_PRIMES: list[int] = []


def _is_prime(n: int) -> bool:
    """Whether ``n`` (below 2**31) is prime: Miller-Rabin with bases 2, 3, 5 and 7, exact
    below 3,215,031,751."""
    if n < 2:
        return False
    for p in (2, 3, 5, 7):
        if n % p == 0:
            return n == p
    d, r = n - 1, 0
    while d % 2 == 0:
        d //= 2
        r += 1
    for a in (2, 3, 5, 7):
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(r - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


def _prime(k: int) -> int:
    """The ``k``-th prime below 2**31, counting down from the largest (0: 2**31 - 1)."""
    candidate = _PRIMES[-1] - 2 if _PRIMES else LANE_PRIME_BELOW - 1
    while len(_PRIMES) <= k:
        if _is_prime(candidate):
            _PRIMES.append(candidate)
        candidate -= 2
    return _PRIMES[k]


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


@dataclass(frozen=True)
class Tables:
    """What drawing a card does at one man's draw, per phase (row 0: smoke not in play, row 1:
    in play), padded to the widest cut. Card groups that lead alike (same result, same state
    after) are one *move*: each move's end of the attack, the man's result (index into
    ``MAN_RESULTS``), the phase after (1 only while smoke stays in play) and the group it takes
    a card from in the cut after; each group's move and how many moves; each group's place
    in the cut after for either phase after; how many groups each cut after has; for each
    tally and result, the tally after (last column: the tally left as it is)."""

    ends: npt.NDArray[np.bool_]
    result: Ints
    still: Ints
    slot: Ints
    move_of: Ints
    n_moves: Ints
    to_clear: Ints
    to_smoke: Ints
    new_width: Ints
    next_tally: Ints

    @classmethod
    def blank(cls, width: int) -> Tables:
        """Tables of zeros for cuts of at most ``width`` groups, to be filled in place (the
        arrays are writable) before the step; ``next_tally`` empty until set (``replace``)."""
        grid = (2, width)
        return cls(
            np.zeros(grid, np.bool_),
            np.zeros(grid, np.int64),
            np.zeros(grid, np.int64),
            np.zeros(grid, np.int64),
            np.zeros(grid, np.int64),
            np.zeros(2, np.int64),
            np.zeros(grid, np.int64),
            np.zeros(grid, np.int64),
            np.zeros(2, np.int64),
            np.zeros((0, 0), np.int64),
        )


@dataclass(frozen=True)
class Level:
    """The walk before one man's draw: each state's counts (padded), phase and width; its
    tallies (``start[s]:start[s + 1]``), as indices into the level's tally list, with their
    weights as lane residues."""

    counts: npt.NDArray[np.int32]
    phases: npt.NDArray[np.int8]
    widths: npt.NDArray[np.int32]
    start: Ints
    tally: Ints
    weight: Words

    @property
    def pairs(self) -> int:
        """How many (state, tally) pairs the level holds."""
        return int(self.tally.shape[0])


def advance(
    level: Level,
    tables: Tables,
    ended_result: int,
    size: int,
    moduli: Words,
) -> tuple[Level, Words, int]:
    """One man's draw from every state of ``level`` (a pool of ``size`` cards): the level
    after (state 0 is the ended attack), the man's results' weights (one row per result, in
    lanes), and how many (state, card group) moves were made."""
    out = _advance(
        level.counts,
        level.phases,
        level.widths,
        level.start,
        level.tally,
        level.weight,
        tables.ends,
        tables.result,
        tables.still,
        tables.slot,
        tables.move_of,
        tables.n_moves,
        tables.to_clear,
        tables.to_smoke,
        tables.new_width,
        tables.next_tally,
        np.int64(ended_result),
        np.int64(size),
        moduli,
    )
    counts, phases, widths, start, tally, weight, marginal, moves = out
    return Level(counts, phases, widths, start, tally, weight), marginal, int(moves)


def lanes_for(bound: int) -> Words:
    """The lane moduli (0 standing for 2**64) whose product exceeds ``bound``: every weight of
    a walk whose weights are at most ``bound`` is then rebuilt exactly by :func:`combine`."""
    moduli = [0]
    product = WRAP
    while product <= bound:
        prime = _prime(len(moduli) - 1)
        moduli.append(prime)
        product *= prime
    return np.array(moduli, np.uint64)


def combine(residues: npt.ArrayLike, moduli: Words) -> int:
    """The integer below the lanes' product with these residues (Chinese remainder)."""
    values = [int(v) for v in np.asarray(residues).tolist()]
    if len(values) == 1:
        return values[0] % WRAP
    x, modulus = values[0] % WRAP, WRAP
    for value, prime in zip(values[1:], (int(m) for m in moduli[1:]), strict=True):
        t = (value - x) * pow(modulus, -1, prime) % prime
        x += modulus * t
        modulus *= prime
    return x


def widen(level: Level, moduli: Words, wider: Words) -> Level:
    """``level`` with its weights in more lanes (``wider`` begins with ``moduli``): each
    weight rebuilt and reduced modulo the new primes. The walk starts with as few lanes as
    its first draws need (one while every weight is below 2**64) and widens as they grow."""
    extra = np.empty((level.pairs, len(wider) - len(moduli)), np.uint64)
    if len(moduli) == 1:  # lane 0 holds each weight itself
        for k, prime in enumerate(wider[1:].tolist()):
            extra[:, k] = level.weight[:, 0] % np.uint64(prime)
    else:
        for p in range(level.pairs):
            value = combine(level.weight[p], moduli)
            extra[p] = [value % int(prime) for prime in wider[len(moduli) :].tolist()]
    weight = np.concatenate([level.weight, extra], axis=1)
    return Level(level.counts, level.phases, level.widths, level.start, level.tally, weight)


def warm() -> None:
    """Compile (or load from numba's cache) the step, on a one-state, one-card walk: run at
    install (the Makefile) so that the first odds asked for do not wait for the compiler."""
    moduli = lanes_for(1)
    level = Level(
        np.ones((1, 1), np.int32),
        np.zeros(1, np.int8),
        np.ones(1, np.int32),
        np.array([0, 1], np.int64),
        np.zeros(1, np.int64),
        np.ones((1, 1), np.uint64),
    )
    tables = replace(
        Tables.blank(1),
        n_moves=np.ones(2, np.int64),
        new_width=np.array([1, 0], np.int64),
        next_tally=np.zeros((1, 2), np.int64),
    )
    advance(level, tables, 0, 1, moduli)
