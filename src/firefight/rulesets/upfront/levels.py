"""Pool states as the compiled walks hold them (:class:`.kernel.Level`: each state's counts
and phase, its tallies and their weights in lanes), and what the walks do to a level between
two compiled steps: keep some pairs, pad the counts, merge levels, split off the ended
attack, count the states in coarser card groups, rebuild one after the pool ran out.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt

from firefight.rulesets.upfront import kernel
from firefight.rulesets.upfront.cuts import Groups
from firefight.rulesets.upfront.walk import add_lanes

__all__ = [
    "compacted",
    "fitted",
    "kept",
    "merged",
    "rebuilt",
    "regrouped",
    "sanitised",
    "split_ended",
]

Ints = npt.NDArray[np.int64]
Words = npt.NDArray[np.uint64]


def kept(level: kernel.Level, keep: npt.NDArray[np.bool_]) -> kernel.Level:
    """The level with only the pairs ``keep`` marks (states left with none dropped)."""
    per_state: Ints = np.zeros(len(level.phases), np.int64)
    if level.pairs:
        per_state = np.add.reduceat(keep.astype(np.int64), level.start[:-1])
    empty_start = np.diff(level.start) == 0
    per_state[empty_start] = 0
    live = per_state > 0
    start = np.concatenate([[0], np.cumsum(per_state[live])]).astype(np.int64)
    return kernel.Level(
        level.counts[live],
        level.phases[live],
        level.widths[live],
        start,
        level.tally[keep],
        level.weight[keep],
    )


def fitted(level: kernel.Level, columns: int) -> kernel.Level:
    """The level's counts padded or cut to ``columns`` (every state's width at most that):
    the compiled step's memory grows with the columns it is given."""
    have = level.counts.shape[1]
    if have == columns:
        return level
    if have > columns:
        counts = np.ascontiguousarray(level.counts[:, :columns])
    else:
        counts = np.zeros((len(level.phases), columns), np.int32)
        counts[:, :have] = level.counts
    return kernel.Level(counts, level.phases, level.widths, level.start, level.tally, level.weight)


def merged(levels: Sequence[tuple[kernel.Level, Ints]], moduli: Words) -> tuple[kernel.Level, Ints]:
    """Levels (each with its list of tally codes) as one: equal states merged, equal tallies
    under a state added."""
    columns = max(lv.counts.shape[1] for lv, _ in levels)
    counts = np.concatenate([fitted(lv, columns).counts for lv, _ in levels])
    phases = np.concatenate([lv.phases for lv, _ in levels])
    rows = np.column_stack([phases.astype(np.int32), counts])
    rows = np.ascontiguousarray(rows)
    view = rows.view(np.dtype((np.void, rows.dtype.itemsize * rows.shape[1]))).ravel()
    _, first, state_of = np.unique(view, return_index=True, return_inverse=True)
    state_of = state_of.ravel()
    pair_state = np.repeat(state_of, np.concatenate([np.diff(lv.start) for lv, _ in levels]))
    pair_code = np.concatenate([codes[lv.tally] for lv, codes in levels])
    weight = np.concatenate([lv.weight for lv, _ in levels])
    codes, tally = np.unique(pair_code, return_inverse=True)
    tally = tally.ravel().astype(np.int64)
    order = np.lexsort((tally, pair_state))
    key = pair_state[order] * len(codes) + tally[order]
    heads = np.flatnonzero(np.concatenate([[True], key[1:] != key[:-1]]))
    summed = np.add.reduceat(weight[order], heads, axis=0)
    summed[:, 1:] %= moduli[1:]
    states = pair_state[order][heads]
    start = np.searchsorted(states, np.arange(len(first) + 1)).astype(np.int64)
    level = kernel.Level(
        counts[first],
        phases[first],
        np.concatenate([lv.widths for lv, _ in levels])[first],
        start,
        tally[order][heads],
        np.ascontiguousarray(summed),
    )
    return level, codes.astype(np.int64)


def regrouped(
    level: kernel.Level, now: Callable[[int], Groups], after: Callable[[int], Groups]
) -> kernel.Level:
    """The level's states, counted in the card groups ``now(phase)``, counted in the groups
    ``after(phase)`` (as coarse or coarser): tallies that skip a draw (no card drawn)."""
    width = level.counts.shape[1]
    counts = np.zeros_like(level.counts)
    widths = np.zeros_like(level.widths)
    for phase in np.unique(level.phases).tolist():
        rows = level.phases == phase
        _, groups, first = now(phase)
        ids_next, new_width, _ = after(phase)
        block = np.zeros((int(rows.sum()), width), np.int32)
        source = level.counts[rows]
        for g in range(groups):
            block[:, ids_next[first[g]]] += source[:, g]
        counts[rows] = block
        widths[rows] = new_width
    return kernel.Level(counts, level.phases, widths, level.start, level.tally, level.weight)


def sanitised(level: kernel.Level) -> kernel.Level:
    """The level with every count past its state's width zero (the step leaves them unset)."""
    past = np.arange(level.counts.shape[1])[None, :] >= level.widths[:, None]
    level.counts[past] = 0
    return level


def split_ended(out: kernel.Level) -> tuple[kernel.Level, kernel.Level]:
    """The step's level as its state 0 (the ended attack) and the others."""
    s1 = int(out.start[1])
    ended = kernel.Level(
        out.counts[:1],
        out.phases[:1],
        out.widths[:1],
        out.start[:2],
        out.tally[:s1],
        out.weight[:s1],
    )
    live = kernel.Level(
        out.counts[1:],
        out.phases[1:],
        out.widths[1:],
        out.start[1:] - s1,
        out.tally[s1:],
        out.weight[s1:],
    )
    return ended, sanitised(live)


def compacted(level: kernel.Level, codes: Ints) -> tuple[kernel.Level, Ints]:
    """Only the tally codes the level holds (the step's table has one for every result)."""
    used = np.zeros(len(codes), np.bool_)
    used[level.tally] = True
    index = np.cumsum(used) - 1
    return (
        kernel.Level(
            level.counts,
            level.phases,
            level.widths,
            level.start,
            index[level.tally],
            level.weight,
        ),
        codes[used],
    )


def rebuilt(
    level: kernel.Level | None,
    codes: Sequence[int],
    rows: dict[int, tuple[int, ...]] | None,
    width: int,
    moduli: npt.NDArray[np.uint64],
) -> kernel.Level:
    """A level built anew: the walk's first (``level`` None: one tally, 0, of weight 1, in
    the one phase ``rows`` names), or the level when the pool is empty (every state's counts
    are 0), its tallies merged by phase and each live phase given the reshuffled discards'
    counts (``rows``) or, with none, ended without the ended flag (the attack stops: the men
    left have no effect)."""
    merged: dict[tuple[int, int], npt.NDArray[np.uint64]] = {}
    if level is None:
        merged[next(iter(rows or {kernel.CLEAR: ()})), 0] = np.ones(len(moduli), np.uint64)
    else:
        for s, phase in enumerate(level.phases.tolist()):
            into = kernel.ENDED if rows is None else phase
            for p in range(int(level.start[s]), int(level.start[s + 1])):
                key = (into, codes[int(level.tally[p])])
                found = merged.get(key)
                weight = level.weight[p]
                merged[key] = weight if found is None else add_lanes(found, weight, moduli)
    phases = sorted({phase for phase, _ in merged})
    counts = np.zeros((len(phases), width), np.int32)
    widths = np.zeros(len(phases), np.int32)
    for s, phase in enumerate(phases):
        if phase != kernel.ENDED and rows is not None:
            row = rows[phase]
            counts[s, : len(row)] = row
            widths[s] = len(row)
    index = {code: i for i, code in enumerate(codes)}
    start, tally, weights = [0], [], []
    for phase in phases:
        for (at, code), w in merged.items():
            if at == phase:
                tally.append(index[code])
                weights.append(w)
        start.append(len(tally))
    return kernel.Level(
        counts,
        np.array(phases, np.int8),
        widths,
        np.array(start, np.int64),
        np.array(tally, np.int64),
        np.array(weights, np.uint64).reshape(len(tally), len(moduli)),
    )
