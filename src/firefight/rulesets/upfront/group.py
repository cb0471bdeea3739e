"""Exact odds of page 3 on a whole group, over the cards still unseen: draws as state.

The rule (:func:`.resolution.resolve_group`) draws one card per man. Evaluated by prefix
replay it would branch once per card class per man (classes ** men runs). Here the same
per-man rule (:func:`.resolution.man_result`, with the same malfunction and BREEZE steps) is
applied to one card of each class, and the group is walked man by man over *states*: the
count of each class left in the pool, whether smoke is still in play, whether a malfunction
ended the attack, and the tally so far; equal states are merged after every man (the state
engine's draws without replacement as state, docs/chance.md). Classes that no man of the
group can tell apart (same result for every man, same malfunction and BREEZE) are merged
first, and as men are resolved only what can still change a later result tells card groups
apart (a malfunction only where it ends the attack; with smoke in play, not the drawing man's
result without smoke). Weights are integers over one denominator per step (every path has
drawn as many cards), so the arithmetic is exact and fast; each pool state holds its tallies
as integers (one digit per loss kind), so a draw moves all of them by one addition.
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

DRAWS_PER_STEP = 128
"""How many (pool state, tally) pairs times card groups of the walk pay for one step of the
chance engine's work budget (:func:`firefight.chance.spend`), charged as each man's draw
begins (the groups counted at the walk's widest). One step of :func:`~firefight.chance.exact`
(a replayed run) takes about 21 us here; a pair-group of the walk, re-measured by issue 14 on
the walks the budget exists for, 0.12 to 0.13 us (10 men of ten distinct profiles: 3.26
million in 0.38 s; with smoke, 23.8 million in 3.1 s), so 128 of them (15 to 17 us) are at
most a step's time and the web's budget bounds the walk's time as it bounds a replay's (past
it by at most one man's draw). At 32 (before) the walk was charged about five times its time,
and a 10-man group of distinct profiles without smoke (101,850 steps) was refused on the web
although it takes 0.4 s."""

I = TypeVar("I", bound=RuleInput)  # noqa: E741 - as in firefight.rulesets.procedure

_Pool = tuple[tuple[int, ...], bool, bool]
"""A walk's pool state: counts of each card group left, smoke in play, attack ended; each
holds its tallies (one integer each) with their weights."""
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

    def outcomes(self, single: bool, rout_vp: int | None = None) -> Distribution[str]:
        """The procedure's outcomes: one man's result, or the group's tally as text (with
        ``rout_vp`` VP for each routed man, page 3's 1 when not given)."""
        if single:
            return self.men[0][1]
        if rout_vp is None:
            return self.tally.map(lambda t: t.text())
        return self.tally.map(lambda t: t.text(rout_vp))


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
    kinds: Sequence[_Kind], men: int, smoke: bool, ends: bool
) -> dict[tuple[int, bool], tuple[tuple[int, ...], int]]:
    """For each man position and smoke state: each kind's group among the kinds that the
    men still to resolve read alike (coarser as men are resolved), and how many groups.

    Only what can still change a result tells kinds apart: the malfunction only where it
    ends the attack (``ends``); with smoke in play, the man about to draw reads his card with
    smoke (BREEZE clears it after his card, page 3), so his result without smoke does not
    count, only the later men's both ways."""
    parts: dict[tuple[int, bool], tuple[tuple[int, ...], int]] = {}
    for position in range(men + 1):
        for in_play in (True, False) if smoke else (False,):
            seen: dict[tuple[object, ...], int] = {}
            ids = []
            for kind in kinds:
                rest = kind.results[position:]
                malfunction = kind.malfunction and ends
                key: tuple[object, ...] = (
                    (malfunction, kind.breeze, rest[0][0], rest[1:])
                    if in_play and rest
                    else (malfunction, kind.breeze, rest)
                    if in_play
                    else (malfunction, tuple(r[1] for r in rest))
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
    widest = max(groups for _, groups in parts.values())
    states: dict[_Pool, dict[int, int]] = {(grouped(counts0, 0, smoke0), smoke0, False): {0: 1}}
    for position in range(n):
        pairs = sum(len(tallies) for tallies in states.values())
        spend(pairs * widest // DRAWS_PER_STEP + 1)  # the web's work budget
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
