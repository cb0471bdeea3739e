"""The page 6 walk's levels in arrays, each man's draw one compiled step (:mod:`.malfunction_loop`).

The walk (:mod:`.malfunction_walk`) is the same as :class:`.malfunction_step.PoolWalk`'s, the
same pool states and tallies; only the work is laid out differently. What a card does depends
on the pool state's mode and the card's group alone, never on the state's counts: so the
draws are worked out once per (mode, card group) (:meth:`.PoolWalk.plain` and
:meth:`.PoolWalk.malfunction`, memoized) into *moves* (the card's group, the selection card's
group, a factor, the man's result, the tally step, the mode and cut after), and the compiled
loop applies every mode's moves to every state of that mode, a move's weight being its factor
times the cards of its groups left in the state (a draw of any of ``count`` alike cards is one
move of weight ``count``). A state whose pile has run out or holds a last card only (a
reshuffle within the draw) is left to the Python step: :func:`advance` answers None there
and the walk goes on in Python from that man.

Weights are exact integers kept as residues in lanes (:func:`lanes`: 2**64 and primes below
2**20, so that products add up before a reduction), rebuilt by the Chinese remainder theorem
at the end; tallies are indices into the level's list of tally
codes.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from firefight.chance import spend, work_left
from firefight.errors import RuleError
from firefight.i18n import gettext
from firefight.rulesets.upfront import kernel
from firefight.rulesets.upfront.cuts import Cut
from firefight.rulesets.upfront.malfunction_kinds import ENDED, RUNNING
from firefight.rulesets.upfront.malfunction_step import PAGE6_MOVE_COST, Key, PoolWalk
from firefight.rulesets.upfront.resolution import MAN_RESULTS
from firefight.rulesets.upfront.walk import ENDED_RESULT, NO_EFFECT, charge_draw, lane_totals

__all__ = [
    "MAX_MOVES",
    "Level",
    "advance",
    "by_denominator",
    "final_weights",
    "lanes",
    "start",
    "to_states",
]

Ints = npt.NDArray[np.int64]
Words = npt.NDArray[np.uint64]

MAX_MOVES = 2_000_000
"""The most moves one man's compiled step is given (worked out in Python as the modes are
met): beyond, a one-line error, so that a walk whose modes outgrow memory stops in the
CLI, where no work budget applies, before the pairs after the man could be counted against
:data:`.malfunction_walk.MAX_PAIRS` (measured 4 to 7 us and some hundreds of bytes a move:
about 10 s and 1 GB at the limit)."""

LOOP_UNITS_PER_STEP = 20_000
"""How many of the compiled loop's work units (about a nanosecond each: a move into a
state after, a new state's counts, :data:`.malfunction_loop.NEW_STATE_COST`) pay for one
step of the web's work budget (:func:`firefight.chance.spend`: about 21 us), besides the
tallies the step moves (:func:`.walk.charge_draw`, paid before it): the loop stops itself at
the budget left, so a draw into many new pool states is refused as it goes, not after."""

PAGE6_DRAWS_PER_STEP = 4096
"""How many (pool state, tally) pairs times moves of the compiled step pay for one step of
the web's work budget, charged before it (:func:`.walk.charge_draw`): measured about 5 ns
each (page 3's :data:`.walk.DRAWS_PER_STEP` is half as many); the new states they reach are
paid inside the loop (:data:`LOOP_UNITS_PER_STEP`)."""

LANE_PRIME_BELOW = 2**26
"""The lanes after the first are primes below 2**26 (the compiled loop's ``LANE_BITS``)."""


def lanes(bound: int) -> Words:
    """The lanes of a walk whose weights are at most ``bound``."""
    return kernel.lanes_for(bound, LANE_PRIME_BELOW)


def _residues(weight: Words, moduli: Words, primes: list[int]) -> Words:
    """Each weight (rows of residues in ``moduli``) modulo each of ``primes`` (each below
    2**26), by Garner's mixed radix digits, in 64-bit arithmetic: every product of a digit
    and a constant below 2**52."""
    wraps = [int(m) or kernel.WRAP for m in moduli.tolist()]
    digits = [weight[:, 0].copy()]

    def modulo(q: int, upto: int) -> Words:
        """The weights' first ``upto`` digits' value modulo ``q``."""
        value = digits[0] % np.uint64(q)
        radix = 1
        for k in range(1, upto):
            radix *= wraps[k - 1]
            term = digits[k] * np.uint64(radix % q) % np.uint64(q)
            value = (value + term) % np.uint64(q)
        return value

    product = wraps[0]
    for k in range(1, len(wraps)):
        prime = wraps[k]
        before = modulo(prime, k)
        inverse = np.uint64(pow(product, -1, prime))
        gap = (weight[:, k] + np.uint64(prime) - before) % np.uint64(prime)
        digits.append(gap * inverse % np.uint64(prime))
        product *= prime
    return np.stack([modulo(q, len(wraps)) for q in primes], axis=1).reshape(-1, len(primes))


def widen(level: Level, moduli: Words, wider: Words) -> Level:
    """``level`` with its weights in more lanes (``wider`` begins with ``moduli``)."""
    extra = _residues(level.weight, moduli, [int(q) for q in wider[len(moduli) :].tolist()])
    weight = np.concatenate([level.weight, extra], axis=1)
    return Level(level.counts, level.modes, level.start, level.tally, weight, level.codes)


@dataclass(frozen=True)
class Level:
    """The walk before one man's draw: each pool state's counts (padded to the widest cut)
    and mode id; its tallies (``start[s]:start[s + 1]``) as indices into ``codes`` with their
    weights as lane residues."""

    counts: npt.NDArray[np.int32]
    modes: Ints
    start: Ints
    tally: Ints
    weight: Words
    codes: Ints

    @property
    def pairs(self) -> int:
        """How many (pool state, tally) pairs the level holds."""
        return int(self.tally.shape[0])


def start(counts: tuple[int, ...], mode: int, moduli: Words) -> Level:
    """The walk before the first draw: one state, the empty tally, weight 1."""
    weight = np.zeros((1, len(moduli)), np.uint64)
    weight[0, :] = 1
    return Level(
        np.array([counts], np.int32).reshape(1, len(counts)),
        np.array([mode], np.int64),
        np.array([0, 1], np.int64),
        np.zeros(1, np.int64),
        weight,
        np.zeros(1, np.int64),
    )


@dataclass
class _Moves:
    """One draw's moves, mode by mode, as the compiled loop reads them."""

    rows: list[tuple[int, int, int, int, int, int, int]]
    """Per move: card group, selection group, factor, result, tally step, mode after, map."""
    first: dict[int, tuple[int, int]]
    maps: list[tuple[int, ...]]
    widths: list[int]
    _map_ids: dict[tuple[int, int], int]

    def map_of(self, cut: Cut, position: int, into: Cut | None) -> int:
        """The row of ``maps`` that takes ``cut``'s groups at man ``position`` to ``into``'s
        at the next (None: an attack over, no counts kept)."""
        key = (id(cut), id(into))
        found = self._map_ids.get(key)
        if found is None:
            if into is None:
                row: tuple[int, ...] = ()
                width = 0
            else:
                mapped = cut.map_to(position, into)
                row = tuple(range(cut.groups[position])) if mapped is None else mapped
                width = into.groups[position + 1]
            found = self._map_ids[key] = len(self.maps)
            self.maps.append(row)
            self.widths.append(width)
        return found


def _mode_moves(  # noqa: PLR0917 - one mode's draw
    walk: PoolWalk, moves: _Moves, position: int, mid: int, size: int, last: bool
) -> bool:
    """Add the moves of a state of mode ``mid`` drawing from a pile of ``size`` cards (the
    ``last`` man's: every state after is read for its denominator alone, so each goes to an
    ended attack's mode of that denominator, no counts kept); False where the compiled step
    cannot take it (a pile run out or down to its last card)."""
    mode, cut = walk.mode_list[mid], walk.mode_cut[mid]
    here = len(moves.rows)

    def add(move: tuple[int, int, int, int, int], after: int) -> None:
        """A move (card group, selection group, factor, result, tally step) into ``after``."""
        if last:  # after the last man a state is read for its denominator alone
            after = walk.stopped(ENDED, walk.mode_list[after].denominator)
        into = walk.mode_cut[after] if walk.mode_list[after].status == RUNNING else None
        moves.rows.append((*move, after, moves.map_of(cut, position, into)))

    if mode.status != RUNNING:
        result = ENDED_RESULT if mode.status == ENDED else NO_EFFECT
        moves.rows.append((-1, -1, 1, result, 0, mid, moves.map_of(cut, position, None)))
        moves.first[mid] = (here, len(moves.rows))
        return True
    if size <= 1:
        return False
    denominator = mode.denominator * size
    for g in range(cut.groups[position]):
        plain = walk.plain(position, mid, g, False, denominator)
        if plain is not None:
            result, step, after = plain
            add((g, -1, 1, result, step), after)
            continue
        ways = walk.malfunction(position, mid, g, False, size)
        if ways is None:  # pragma: no cover - a pile of two cards or more always selects
            return False
        for h, ahead, below, result, step, after in ways:
            if after < 0:  # page 6 ended the attack
                add((g, -1, ahead, result, step), walk.stopped(ENDED, below))
                continue
            add((g, h, ahead, result, step), after)
    moves.first[mid] = (here, len(moves.rows))
    return True


def _moves(walk: PoolWalk, position: int, level: Level) -> _Moves | None:
    """Every mode's moves at man ``position``, or None where the compiled step cannot take
    a state of the level."""
    moves = _Moves([], {}, [], [], {})
    sizes = level.counts.sum(axis=1).tolist()
    size_of: dict[int, int] = {}
    for mid, size in zip(level.modes.tolist(), sizes, strict=True):
        if size_of.setdefault(mid, size) != size:  # pragma: no cover - the Python step takes it
            return None
    last = position == walk.men - 1
    for mid, size in size_of.items():
        made = len(moves.rows)
        if not _mode_moves(walk, moves, position, mid, size, last):
            return None
        walk.work.add((len(moves.rows) - made) * PAGE6_MOVE_COST)  # the web's budget
        if len(moves.rows) > MAX_MOVES:
            msg = gettext(
                "exact odds with malfunction = page6 need more than {moves} moves for man "
                "{position} of {men}: resolve with --seed or --draw, or take odds with "
                "malfunction = end_attack or continue"
            ).format(moves=f"{MAX_MOVES:,}", position=position + 1, men=walk.men)
            raise RuleError(msg)
    return moves


def _arrays(moves: _Moves, modes: int, width: int) -> tuple[Ints, ...]:
    """The moves as the compiled loop's arrays (the tally steps as given, not yet columns)."""
    first = np.zeros(modes + 1, np.int64)
    order: list[int] = []
    for mid in range(modes):
        begin, end = moves.first.get(mid, (0, 0))
        order.extend(range(begin, end))
        first[mid + 1] = len(order)
    rows = np.array([moves.rows[u] for u in order], np.int64).reshape(len(order), 7)
    maps = np.zeros((len(moves.maps), max(width, 1)), np.int64)
    for r, row in enumerate(moves.maps):
        maps[r, : len(row)] = row
    return first, rows, maps, np.array(moves.widths, np.int64)


def advance(
    walk: PoolWalk, position: int, level: Level, moduli: Words
) -> tuple[Level, Words, Words] | None:
    """Man ``position``'s draw from every state of ``level``: the level after, each mode
    after's results' weights (modes by results by lanes) and the lanes they are in (widened
    when the denominators after need more); None where a state's pile has run out or is down
    to its last card (the Python step's work)."""
    moves = _moves(walk, position, level)
    if moves is None:
        return None
    first, rows, maps, widths = _arrays(moves, len(walk.mode_list), level.counts.shape[1])
    per_state = np.diff(level.start)
    charge_draw(int((per_state * np.diff(first)[level.modes]).sum()), PAGE6_DRAWS_PER_STEP)
    most = max((walk.mode_list[m].denominator for m in set(rows[:, 5].tolist())), default=1)
    wider = lanes(most)  # a weight is at most its denominator
    if len(wider) > len(moduli):
        level, moduli = widen(level, moduli, wider), wider
    steps, column = np.unique(rows[:, 4], return_inverse=True)
    stepped = level.codes[:, None] + steps[None, :]
    codes, next_tally = np.unique(stepped, return_inverse=True)
    from firefight.rulesets.upfront.malfunction_loop import advance_page6  # noqa: PLC0415

    out = advance_page6(
        level.counts,
        level.modes,
        level.start,
        level.tally,
        level.weight,
        first,
        np.ascontiguousarray(rows[:, 0]),
        np.ascontiguousarray(rows[:, 1]),
        np.ascontiguousarray(rows[:, 2]),
        np.ascontiguousarray(rows[:, 3]),
        column.reshape(-1).astype(np.int64),
        np.ascontiguousarray(rows[:, 5]),
        np.ascontiguousarray(rows[:, 6]),
        maps,
        widths,
        next_tally.reshape(stepped.shape).astype(np.int64),
        np.int64(len(MAN_RESULTS)),
        moduli,
        kernel.scratch(),
        np.int64(_loop_cap()),
    )
    counts, modes, starts, tally, weight, marginal, work, kept = out
    kernel.keep_scratch(kept)
    spend(int(work) // LOOP_UNITS_PER_STEP)  # past the budget left: the loop stopped there
    return Level(counts, modes, starts, tally, weight, codes.astype(np.int64)), marginal, moduli


def _loop_cap() -> int:
    """The compiled loop's work allowed: the budget left in its units (-1: no budget)."""
    left = work_left()
    return -1 if left is None else (max(left, 0) + 1) * LOOP_UNITS_PER_STEP


def by_denominator(walk: PoolWalk, marginal: Words, moduli: Words) -> dict[int, list[int]]:
    """A man's results' weights (modes by results by lanes) by the modes' denominators."""
    rows: dict[int, list[int]] = {}
    for mid in np.flatnonzero(marginal.any(axis=(1, 2))).tolist():
        rows.setdefault(walk.mode_list[mid].denominator, []).append(mid)
    found: dict[int, list[int]] = {}
    for below, mids in rows.items():
        summed = marginal[mids].sum(axis=0, dtype=np.uint64)
        summed[:, 1:] %= moduli[1:]
        found[below] = [kernel.combine(summed[r], moduli) for r in range(len(MAN_RESULTS))]
    return found


def _pair_modes(level: Level) -> Ints:
    """Each pair's state's mode."""
    return np.repeat(level.modes, np.diff(level.start))


def final_weights(walk: PoolWalk, level: Level, moduli: Words) -> Iterator[tuple[int, int, int]]:
    """Each (tally code, denominator) and its weight after the last man."""
    below = sorted({walk.mode_list[m].denominator for m in set(level.modes.tolist())})
    index_of = {d: i for i, d in enumerate(below)}
    mode_den = np.array([index_of.get(mode.denominator, 0) for mode in walk.mode_list], np.int64)
    keys = level.tally * len(below) + mode_den[_pair_modes(level)]
    for key, weight in lane_totals(keys, level.weight, moduli):
        yield int(level.codes[key // len(below)]), below[key % len(below)], weight


def to_states(
    walk: PoolWalk, position: int, level: Level, moduli: Words
) -> dict[Key, dict[int, int]]:
    """The level as the Python step's states (before man ``position``'s draw)."""
    states: dict[Key, dict[int, int]] = {}
    for s, mid in enumerate(level.modes.tolist()):
        mode = walk.mode_list[mid]
        width = walk.mode_cut[mid].groups[position] if mode.status == RUNNING else 0
        counts = tuple(level.counts[s, :width].tolist())
        tallies = states.setdefault((counts, mid), {})
        for p in range(int(level.start[s]), int(level.start[s + 1])):
            code = int(level.codes[level.tally[p]])
            tallies[code] = tallies.get(code, 0) + kernel.combine(level.weight[p], moduli)
    return states
