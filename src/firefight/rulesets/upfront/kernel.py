"""The compiled step of the page 3 walk over pool states (:mod:`.group`): one man's draw.

The walk (docs/chance.md, "draws without replacement as state") holds, before each man's
card, a set of *pool states* (how many cards of each card group are left; smoke in play or
not; or the attack ended) and under each state its *tallies* (the losses so far) with their
weights: the number of card sequences that lead there. :func:`advance` draws one card from
every state: every card group with cards left moves the state (one card fewer of that group,
the groups re-cut to what the men still to draw can tell apart, smoke cleared by a BREEZE, the
attack ended by a malfunction) and adds the man's result to each of its tallies. Equal states
and equal tallies merge.

Its loop is compiled with numba (:mod:`.step`, imported when a walk first draws: importing
the rule set loads no numba). It is the same walk :mod:`.group` describes, in machine code: a
10-man group of ten distinct profiles with smoke in play makes about 10 million moves (a
(state, tally) pair drawn from one card group); the work is the same as in Python, only the
machine code differs (docs/upfront.md gives the benchmark's figures).

Weights are exact integers kept as residues: lane 0 modulo 2**64 (unsigned arithmetic wraps),
the other lanes modulo primes below 2**31, reduced once per merged pair (a product with a card
count is below 2**41, so a sum of up to 2**22 of them cannot overflow). :func:`lanes_for` picks
enough lanes for the largest weight the walk can reach (the product of the pool sizes drawn
from) and :func:`combine` rebuilds each weight by the Chinese remainder theorem; the caller
checks that the weights add up to that product exactly.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt

__all__ = [
    "CLEAR",
    "ENDED",
    "SMOKE",
    "Level",
    "Tables",
    "advance",
    "combine",
    "combine_rows",
    "keep_scratch",
    "lanes_for",
    "scratch",
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
_PRIMES: dict[int, list[int]] = {}
"""The primes found so far below each bound, largest first."""


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


def _prime(k: int, below: int = LANE_PRIME_BELOW) -> int:
    """The ``k``-th prime below ``below`` (a power of two, at most 2**31), counting down from
    the largest (0: 2**31 - 1 below 2**31)."""
    primes = _PRIMES.setdefault(below, [])
    candidate = primes[-1] - 2 if primes else below - 1
    while len(primes) <= k:
        if _is_prime(candidate):
            primes.append(candidate)
        candidate -= 2
    return primes[k]


Ints = npt.NDArray[np.int64]
Words = npt.NDArray[np.uint64]


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


class _Scratch(threading.local):
    """Each thread's scratch memory for the compiled steps (:func:`scratch`)."""

    arrays: tuple[Ints, Words, npt.NDArray[np.int32], Ints, Words] | None = None


_SCRATCH = _Scratch()


def scratch() -> tuple[Ints, Words, npt.NDArray[np.int32], Ints, Words]:
    """This thread's scratch memory for a compiled step (:data:`.step.Scratch`): the arrays
    the last step left (grown to the largest step yet), or empty ones. A step writes its
    moves, hash table and gathered tallies there instead of in new memory each time (new
    memory is paged in anew: about a fifth of a large walk's time), and copies out only
    the level it returns."""
    if _SCRATCH.arrays is None:
        _SCRATCH.arrays = (
            np.empty(0, np.int64),
            np.empty(0, np.uint64),
            np.empty(0, np.int32),
            np.empty(0, np.int64),
            np.empty(0, np.uint64),
        )
    return _SCRATCH.arrays


def keep_scratch(arrays: tuple[Ints, Words, npt.NDArray[np.int32], Ints, Words]) -> None:
    """Keep the scratch a compiled step returns (grown where it needed more) for the next."""
    _SCRATCH.arrays = arrays


def advance(
    level: Level,
    tables: Tables,
    ended_result: int,
    size: int,
    moduli: Words,
    *,
    exact_keys: bool = True,
) -> tuple[Level, Words, int]:
    """One man's draw from every state of ``level`` (a pool of ``size`` cards): the level
    after (state 0 is the ended attack), the man's results' weights (one row per result, in
    lanes), and how many (state, card group) moves were made. States after are found by
    exact keys where their counts fit two words (:mod:`.state_keys`), else (and where
    ``exact_keys`` is false) by a hash of the counts, compared on a probe."""
    # numba is loaded when a walk first draws, never when the rule set is imported
    from firefight.rulesets.upfront.step import advance_compiled  # noqa: PLC0415

    out = advance_compiled(
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
        scratch(),
        exact_keys,
    )
    counts, phases, widths, start, tally, weight, marginal, moves, kept = out
    keep_scratch(kept)
    return Level(counts, phases, widths, start, tally, weight), marginal, int(moves)


def lanes_for(bound: int, below: int = LANE_PRIME_BELOW) -> Words:
    """The lane moduli (0 standing for 2**64) whose product exceeds ``bound``: every weight of
    a walk whose weights are at most ``bound`` is then rebuilt exactly by :func:`combine`.
    The lanes after the first are primes below ``below`` (smaller primes, more lanes: room
    for more products to add up before a reduction)."""
    moduli = [0]
    product = WRAP
    while product <= bound:
        prime = _prime(len(moduli) - 1, below)
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


def combine_rows(rows: npt.ArrayLike, moduli: Words) -> list[int]:
    """:func:`combine` of each row of residues (one row a weight), all rows at once: the
    same integers, Garner's mixed-radix digits found lane by lane over the rows in 64-bit
    words (a digit and a place's residue are below 2**31, their product below 2**62) and
    each weight rebuilt from its digits."""
    table = np.asarray(rows, np.uint64).reshape(-1, len(moduli))
    digits = [table[:, 0]]
    places = [1]
    for k in range(1, len(moduli)):
        prime = int(moduli[k])
        modulo = np.uint64(prime)
        below = digits[0] % modulo  # the weight so far, modulo this lane's prime
        for digit, place in zip(digits[1:], places[1:], strict=True):
            below = (below + digit * np.uint64(place % prime)) % modulo
        place = WRAP if k == 1 else places[-1] * int(moduli[k - 1])
        places.append(place)
        inverse = np.uint64(pow(place % prime, -1, prime))
        digits.append((table[:, k] % modulo + modulo - below) % modulo * inverse % modulo)
    columns = zip(*(d.tolist() for d in digits), strict=True)
    return [sum(d * p for d, p in zip(row, places, strict=True)) for row in columns]


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
    """Compile (or load from numba's cache) page 3's step, on a one-state, one-card walk
    (:func:`firefight.rulesets.upfront.warm.warm` runs it at install, with page 6's)."""
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
