"""Exact odds of page 3 on a whole group, over the cards still unseen: draws as state.

The rule (:func:`.resolution.resolve_group`) draws one card per man. Evaluated by prefix
replay it would branch once per card class per man (classes ** men runs). Here the same
per-man rule (:func:`.resolution.man_result`, with the same malfunction and BREEZE steps) is
applied to one card of each class, and the group is walked man by man over *states*: the
count of each class left in the pool, whether smoke is still in play, whether a malfunction
ended the attack, and the tally so far; equal states are merged after every man (the state
engine's draws without replacement as state, docs/chance.md). Classes that no man of the
group can tell apart (same result for every man, same malfunction and BREEZE) are merged
first. Weights are integers over one denominator per step (every path has drawn as many
cards), so the arithmetic is exact and fast.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from math import lcm
from typing import Generic, TypeVar

from firefight.chance import spend
from firefight.core.distribution import Distribution
from firefight.core.inputs import RuleInput
from firefight.rulesets.procedure import Procedure
from firefight.rulesets.upfront.cards import Card
from firefight.rulesets.upfront.pool import Pool, PoolState, pool_for
from firefight.rulesets.upfront.resolution import (
    ENDED_SLOT,
    LOSS_SLOT,
    LOSSES,
    MAN_RESULTS,
    Readings,
    Tally,
    Target,
    malfunctions,
    man_result,
    reads_for,
)

__all__ = ["DRAWS_PER_STEP", "GroupOdds", "GroupProcedure", "group_odds"]

DRAWS_PER_STEP = 8
"""How many (state, card group) pairs of the walk over states pay for one step of the chance
engine's work budget (:func:`firefight.chance.spend`), charged as each man's draw begins: one
step of :func:`~firefight.chance.exact` (a replayed run) takes about 21 us here, a pair of the
walk 0.7 to 2.3 us (a fire attack on 12 men of distinct values: 1,958,520 pairs in 1.34 s), so
the web's budget bounds the walk's time as it bounds a replay's (past it by at most one man's
draw: a 59-man uploaded group is refused after about 2 s)."""

I = TypeVar("I", bound=RuleInput)  # noqa: E741 - as in firefight.rulesets.procedure

_State = tuple[tuple[int, ...], bool, bool, tuple[int, ...]]
"""A walk's state: counts of each card group left, smoke in play, attack ended, tally."""
_NO_COUNTS: tuple[int, ...] = ()
_INDEX = {result: i for i, result in enumerate(MAN_RESULTS)}
_ENDED = _INDEX["attack ended"]
_NONE = _INDEX["no effect"]


@dataclass(frozen=True)
class GroupOdds:
    """The exact odds of a group's resolution: the tally of losses, and each man's results
    (in resolution order)."""

    tally: Distribution[Tally]
    men: tuple[tuple[str, Distribution[str]], ...]
    states: int

    def outcomes(self, single: bool) -> Distribution[str]:
        """The procedure's outcomes: one man's result, or the group's tally as text."""
        if single:
            return self.men[0][1]
        return self.tally.map(lambda t: t.text())


@dataclass(frozen=True)
class _Kind:
    """A coarse class: every card that the whole group reads alike."""

    malfunction: bool
    breeze: bool
    results: tuple[tuple[int, int], ...]  # per man: result index with smoke, without smoke


def _classes(  # noqa: PLR0917 - the attack's parts, as group_odds takes them
    pool: Pool,
    inp: Readings,
    ffs: int,
    rr: int,
    group: Sequence[Target],
    malfunction_at: Sequence[int],
    begin: PoolState,
) -> tuple[list[_Kind], list[int], list[int]]:
    """The coarse classes with their counts in the pool and in a reshuffle."""
    kinds: dict[_Kind, int] = {}
    start: list[int] = []
    refill: list[int] = []
    for left, again in zip(begin.classes, pool.refill.classes, strict=True):
        members = left or again
        if not members:
            continue
        card: Card = pool.data.card(members[0])
        malf = bool(malfunction_at) and malfunctions(card, malfunction_at, inp.malfunction_check)
        now = tuple(_INDEX[man_result(t, ffs, rr, card, inp)] for t in group)
        cleared = (
            tuple(_INDEX[man_result(t, ffs - inp.smoke, rr, card, inp)] for t in group)
            if inp.smoke
            else now
        )
        per_man = tuple(zip(now, cleared, strict=True))
        kind = _Kind(malf, card.breeze and bool(inp.smoke), per_man)
        if kind not in kinds:
            kinds[kind] = len(kinds)
            start.append(0)
            refill.append(0)
        start[kinds[kind]] += len(left)
        refill[kinds[kind]] += len(again)
    return list(kinds), start, refill


def _partitions(
    kinds: Sequence[_Kind], men: int, smoke: bool
) -> dict[tuple[int, bool], tuple[tuple[int, ...], int]]:
    """For each man position and smoke state: each kind's group among the kinds that the
    men still to resolve read alike (coarser as men are resolved), and how many groups."""
    parts: dict[tuple[int, bool], tuple[tuple[int, ...], int]] = {}
    for position in range(men + 1):
        for in_play in (True, False) if smoke else (False,):
            seen: dict[tuple[object, ...], int] = {}
            ids = []
            for kind in kinds:
                rest = kind.results[position:]
                key: tuple[object, ...] = (
                    (kind.malfunction, kind.breeze, rest)
                    if in_play
                    else (kind.malfunction, tuple(r[1] for r in rest))
                )
                ids.append(seen.setdefault(key, len(seen)))
            parts[position, in_play] = (tuple(ids), len(seen))
    return parts


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


def group_odds(  # noqa: PLR0912, PLR0915, PLR0917 - one walk over men and states
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
    parts = _partitions(kinds, n, bool(inp.smoke))
    size = sum(counts0)
    end_on_malfunction = inp.malfunction == "end_attack"
    empty_tally = (0,) * len(LOSSES)

    def grouped(counts: Sequence[int], position: int, smoke: bool) -> tuple[int, ...]:
        ids, groups = parts[position, smoke]
        out = [0] * groups
        for kind, count in enumerate(counts):
            out[ids[kind]] += count
        return tuple(out)

    smoke0 = bool(inp.smoke)
    states: dict[_State, int] = {(grouped(counts0, 0, smoke0), smoke0, False, empty_tally): 1}
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
    denominator = 1
    per_man: list[tuple[dict[int, int], int]] = []
    seen_states = 1
    widest = max(groups for _, groups in parts.values())
    for position in range(n):
        spend(len(states) * widest // DRAWS_PER_STEP + 1)  # the web's work budget
        if size == 0:
            if inp.reshuffle == "end_attack" or sum(refill) == 0:
                rest = n - position
                ended: dict[_State, int] = {}
                for (_, smoke, _, tally), weight in states.items():
                    key = (_NO_COUNTS, smoke, True, _add(tally, _NONE, rest))
                    ended[key] = ended.get(key, 0) + weight
                states = ended
                per_man.extend(({_NONE: 1}, 1) for _ in range(rest))
                break
            size = sum(refill)
            merged: dict[_State, int] = {}
            for (_, smoke, was_ended, tally), weight in states.items():
                counts = _NO_COUNTS if was_ended else grouped(refill, position, smoke)
                key = (counts, smoke, was_ended, tally)
                merged[key] = merged.get(key, 0) + weight
            states = merged
        marginal: dict[int, int] = {}
        after: dict[_State, int] = {}
        for (counts, smoke, ended_now, tally), weight in states.items():
            if ended_now:
                key = (_NO_COUNTS, smoke, True, _add(tally, _ENDED, 1))
                after[key] = after.get(key, 0) + weight * size
                marginal[_ENDED] = marginal.get(_ENDED, 0) + weight * size
                continue
            moves = steps[position, smoke]
            bases: dict[bool, list[int]] = {}
            for index, count in enumerate(counts):
                if not count:
                    continue
                ends, result, still, slot, groups_next = moves[index]
                branch = weight * count
                if ends:
                    key = (_NO_COUNTS, smoke, True, _add(tally, _ENDED, 1))
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
                    key = (tuple(left), still, False, _add(tally, result, 1))
                after[key] = after.get(key, 0) + branch
                marginal[result] = marginal.get(result, 0) + branch
        denominator *= size
        per_man.append((marginal, denominator))
        states = after
        seen_states += len(states)
        size -= 1
    tallies: dict[Tally, int] = {}
    for (_, _, _, tally), weight in states.items():
        found = Tally(tally)
        tallies[found] = tallies.get(found, 0) + weight
    total = sum(tallies.values())
    tally_odds = Distribution({t: Fraction(w, total) for t, w in tallies.items()})
    men = []
    for target, (marginal, below) in zip(group, per_man, strict=True):
        odds = {MAN_RESULTS[i]: Fraction(w, below) for i, w in sorted(marginal.items()) if w}
        men.append((target.man.id, Distribution(odds)))
    return GroupOdds(tally_odds, tuple(men), seen_states)


def _add(tally: tuple[int, ...], result: int, n: int) -> tuple[int, ...]:
    """The tally with ``n`` more men of ``result`` (an index into MAN_RESULTS)."""
    slot = LOSS_SLOT[result]
    if slot < 0 or (slot == ENDED_SLOT and tally[slot]):
        return tally
    added = 1 if slot == ENDED_SLOT else tally[slot] + n
    return (*tally[:slot], added, *tally[slot + 1 :])


@dataclass(frozen=True)
class GroupProcedure(Procedure[I], Generic[I]):
    """A procedure whose exact odds come from :func:`group_odds` (draws as state) instead of
    prefix replay of the rule; sampling and replay run the rule itself."""

    exact_odds: Callable[[I], Distribution[str]] = field(default=lambda _: Distribution({}))

    def odds(self, inp: I) -> Distribution[str]:
        """The exact distribution of outcomes (by :func:`group_odds`)."""
        return self.exact_odds(inp).ordered(self._order)


def common_denominator(values: Sequence[Fraction]) -> int:
    """The least common denominator of ``values`` (for showing odds over one count)."""
    return lcm(*(v.denominator for v in values)) if values else 1
