"""The Up Front group walk as it was before issue 14 compiled it: the same walk over (pool
state, tally) pairs, in Python (dicts of integer tallies). Kept only as the baseline that
benchmarks/upfront.py measures in the same run; the package does not import it.

It walks exactly what :mod:`firefight.rulesets.upfront.group` walks (the card kinds and cuts
come from the package's own ``_classes`` and ``_partitions``), so the two give equal odds
(the benchmark checks it) and their times compare the machine code alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from firefight.chance.distribution import Distribution
from firefight.rulesets.upfront.group import GroupOdds, _classes, _partitions
from firefight.rulesets.upfront.pool import PoolState, pool_for
from firefight.rulesets.upfront.resolution import (
    ENDED_SLOT,
    LOSS_SLOT,
    LOSSES,
    MAN_RESULTS,
    Readings,
    Tally,
    Target,
    reads_for,
)
from firefight.rulesets.upfront.walk import ENDED_RESULT as _ENDED
from firefight.rulesets.upfront.walk import NO_EFFECT as _NONE

_Pool = tuple[tuple[int, ...], bool, bool]
_NO_COUNTS: tuple[int, ...] = ()


def _project(
    counts: Sequence[int], old: tuple[int, ...], new: tuple[int, ...], size: int
) -> tuple[int, ...]:
    """Counts per old group as counts per new (coarser) group."""
    projected = [0] * size
    first: dict[int, int] = {}
    for kind, group in enumerate(old):
        first.setdefault(group, kind)
    for group, count in enumerate(counts):
        projected[new[first[group]]] += count
    return tuple(projected)


def group_odds_before(  # noqa: PLR0912, PLR0915, PLR0917 - one walk over men and states
    inp: Readings,
    ffs: int,
    rr: int,
    group: Sequence[Target],
    malfunction_at: Sequence[int],
    played: tuple[int, ...] = (),
    start: PoolState | None = None,
) -> GroupOdds:
    """Exact odds of :func:`.resolution.resolve_group` on ``group`` (same rule, same order).
    ``start``: the pool left by earlier draws of the same attack (a to-hit card), if any.

    A state is (count of each card group left, smoke in play, tally); a card group is the
    kinds the men still to resolve read alike, so states merge as men are resolved. An ended
    attack keeps no counts."""
    pool = pool_for(inp, reads_for(inp), played)
    begin = pool.start if start is None else start
    kinds, counts0, refill = _classes(pool, inp, ffs, rr, group, malfunction_at, begin)
    n = len(group)
    end_on_malfunction = inp.malfunction == "end_attack"
    parts = _partitions(kinds, n, bool(inp.smoke), end_on_malfunction)
    size = sum(counts0)

    def grouped(counts: Sequence[int], position: int, smoke: bool) -> tuple[int, ...]:
        ids, groups = parts[position, smoke]
        out = [0] * groups
        for kind, count in enumerate(counts):
            out[ids[kind]] += count
        return tuple(out)

    smoke0 = bool(inp.smoke)
    representative = {
        key: tuple(
            {g: k for k, g in reversed(list(enumerate(ids)))}.get(g, -1) for g in range(groups)
        )
        for key, (ids, groups) in parts.items()
    }
    # per (position, smoke): for each card group, what drawing it does (ends the attack?,
    # the man's result, smoke still in play, its group after, how many groups after); and
    # each group's group after, for either smoke state after
    maps: dict[tuple[int, bool, bool], tuple[int, ...]] = {}
    steps: dict[tuple[int, bool], tuple[tuple[bool, int, bool, int, int], ...]] = {}
    for (position, smoke), (_, groups) in parts.items():
        if position == n:
            continue
        reps = representative[position, smoke]
        for still in {smoke, False}:
            ids_next, _ = parts[position + 1, still]
            maps[position, smoke, still] = tuple(ids_next[reps[g]] for g in range(groups))
        built: list[tuple[bool, int, bool, int, int]] = []
        for g in range(groups):
            kind = kinds[reps[g]]
            with_smoke, without = kind.results[position]
            still = smoke and not kind.breeze
            built.append(
                (
                    kind.malfunction and end_on_malfunction,
                    _ENDED
                    if kind.malfunction and end_on_malfunction
                    else (with_smoke if smoke else without),
                    still,
                    maps[position, smoke, still][g],
                    parts[position + 1, still][1],
                )
            )
        steps[position, smoke] = tuple(built)
    # the tally as one integer (each slot a digit in base n + 1): adding a man's result is one
    # addition, shared by every tally under the same pool state (walked once per pool state)
    radix = n + 1
    increment = tuple(0 if slot < 0 or slot == ENDED_SLOT else radix**slot for slot in LOSS_SLOT)
    ended_flag = radix**ENDED_SLOT
    denominator = 1
    per_man: list[tuple[dict[int, int], int]] = []
    seen_states = 1
    states: dict[_Pool, dict[int, int]] = {(grouped(counts0, 0, smoke0), smoke0, False): {0: 1}}
    for position in range(n):
        if size == 0:
            if inp.reshuffle == "end_attack" or sum(refill) == 0:
                rest = n - position
                ended: dict[_Pool, dict[int, int]] = {}
                for (_, smoke, _), tallies in states.items():
                    into = ended.setdefault((_NO_COUNTS, smoke, True), {})
                    for tally, weight in tallies.items():
                        into[tally] = into.get(tally, 0) + weight
                states = ended
                per_man.extend(({_NONE: 1}, 1) for _ in range(rest))
                break
            size = sum(refill)
            merged: dict[_Pool, dict[int, int]] = {}
            for (_, smoke, was_ended), tallies in states.items():
                counts = _NO_COUNTS if was_ended else grouped(refill, position, smoke)
                into = merged.setdefault((counts, smoke, was_ended), {})
                for tally, weight in tallies.items():
                    into[tally] = into.get(tally, 0) + weight
            states = merged
        marginal: dict[int, int] = {}
        after: dict[_Pool, dict[int, int]] = {}
        for (counts, smoke, ended_now), tallies in states.items():
            total = sum(tallies.values())
            if ended_now:
                into = after.setdefault((_NO_COUNTS, smoke, True), {})
                for tally, weight in tallies.items():
                    into[tally] = into.get(tally, 0) + weight * size
                marginal[_ENDED] = marginal.get(_ENDED, 0) + total * size
                continue
            moves = steps[position, smoke]
            pairs_in = tallies.items()
            bases: dict[bool, list[int]] = {}
            # the draws of this pool state by where they lead: card groups that the later men
            # read alike, with equal tally steps, move the tallies once, with their counts added
            moved: dict[tuple[_Pool, int], int] = {}
            for index, count in enumerate(counts):
                if not count:
                    continue
                ends, result, still, slot, groups_next = moves[index]
                marginal[result] = marginal.get(result, 0) + total * count
                if ends:
                    key: _Pool = (_NO_COUNTS, smoke, True)
                    step = ended_flag
                else:
                    base = bases.get(still)
                    if base is None:
                        base = [0] * groups_next
                        mapping = maps[position, smoke, still]
                        for old, n_old in enumerate(counts):
                            base[mapping[old]] += n_old
                        bases[still] = base
                    left = base.copy()
                    left[slot] -= 1
                    key = (tuple(left), still, False)
                    step = increment[result]
                moved[key, step] = moved.get((key, step), 0) + count
            for (key, step), count in moved.items():
                found = after.get(key)
                if found is None:  # the first path into this pool state: one comprehension
                    after[key] = {tally + step: weight * count for tally, weight in pairs_in}
                    continue
                get = found.get
                for tally, weight in pairs_in:
                    code = tally + step
                    found[code] = get(code, 0) + weight * count
        denominator *= size
        per_man.append((marginal, denominator))
        states = after
        seen_states += sum(len(tallies) for tallies in states.values())
        size -= 1
    tallies_out: dict[Tally, int] = {}
    for tallies in states.values():
        for code, weight in tallies.items():
            loss = Tally(tuple(code // radix**slot % radix for slot in range(len(LOSSES))))
            tallies_out[loss] = tallies_out.get(loss, 0) + weight
    whole = sum(tallies_out.values())
    tally_odds = Distribution({t: Fraction(w, whole) for t, w in tallies_out.items()})
    men = []
    for target, (marginal, below) in zip(group, per_man, strict=True):
        odds = {MAN_RESULTS[i]: Fraction(w, below) for i, w in sorted(marginal.items()) if w}
        men.append((target.man.id, Distribution(odds)))
    return GroupOdds(tally_odds, tuple(men), seen_states)
