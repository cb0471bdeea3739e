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
from dataclasses import dataclass
from fractions import Fraction
from itertools import accumulate
from math import lcm
from operator import mul
from typing import Generic, TypeVar

import numpy as np
import numpy.typing as npt

from firefight.chance.distribution import Distribution
from firefight.core.inputs import RuleInput
from firefight.errors import RuleError
from firefight.i18n import gettext
from firefight.rulesets.procedure import Procedure
from firefight.rulesets.upfront import kernel, levels
from firefight.rulesets.upfront.cards import Card
from firefight.rulesets.upfront.cuts import Groups, cut_apart, grouped
from firefight.rulesets.upfront.draws import Move, draw_tables, results_of, with_next_tally
from firefight.rulesets.upfront.pool import Pool, PoolState, pool_for
from firefight.rulesets.upfront.resolution import (
    MAN_RESULTS,
    Readings,
    Tally,
    Target,
    malfunctions,
    man_result,
    reads_for,
)
from firefight.rulesets.upfront.walk import (
    DRAWS_PER_STEP,
    ENDED_RESULT,
    NO_EFFECT,
    RESULT_INDEX,
    charge_draw,
    ended_step,
    lane_totals,
    loss_steps,
    man_odds,
    pool_sizes,
    tally_odds,
)

__all__ = ["DRAWS_PER_STEP", "GroupOdds", "GroupProcedure", "group_odds"]

I = TypeVar("I", bound=RuleInput)  # noqa: E741 - as in firefight.rulesets.procedure


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
    kinds: dict[tuple[bool, bool, tuple[tuple[int, int], ...]], int] = {}  # a _Kind's fields
    start: list[int] = []
    refill: list[int] = []
    smoke = inp.smoke
    for left, again in zip(begin.classes, pool.refill.classes, strict=True):
        members = left or again
        if not members:
            continue
        card: Card = pool.data.card(members[0])
        malf = bool(malfunction_at) and malfunctions(card, malfunction_at, inp.malfunction_check)
        now = tuple(RESULT_INDEX[man_result(t, ffs, rr, card, inp)] for t in group)
        cleared = (
            tuple(RESULT_INDEX[man_result(t, ffs - smoke, rr, card, inp)] for t in group)
            if smoke
            else now
        )
        key = (malf, card.breeze and bool(smoke), tuple(zip(now, cleared, strict=True)))
        index = kinds.setdefault(key, len(kinds))
        if index == len(start):
            start.append(0)
            refill.append(0)
        start[index] += len(left)
        refill[index] += len(again)
    return [_Kind(*key) for key in kinds], start, refill


def _key(kind: _Kind, position: int, in_play: bool, ends: bool) -> tuple[object, ...]:
    """What man ``position`` and the men after read of a kind (with smoke in play or not)."""
    rest = kind.results[position:]
    malfunction = kind.malfunction and ends
    if in_play and rest:
        return (malfunction, kind.breeze, rest[0][0], rest[1:])
    if in_play:
        return (malfunction, kind.breeze, rest)
    return (malfunction, tuple(r[1] for r in rest))


def _cuts(
    kinds: Sequence[_Kind], men: int, smoke: bool, ends: bool
) -> dict[tuple[int, bool], Groups]:
    """For each man position and smoke state: the card groups of the kinds that the men
    still to resolve read alike (coarser as men are resolved).

    Only what can still change a result tells kinds apart: the malfunction only where it
    ends the attack (``ends``); with smoke in play, the man about to draw reads his card with
    smoke (BREEZE clears it after his card, page 3), so his result without smoke does not
    count, only the later men's both ways."""
    return {
        (position, in_play): cut_apart(_key(kind, position, in_play, ends) for kind in kinds)
        for position in range(men + 1)
        for in_play in ((True, False) if smoke else (False,))
    }


def _partitions(
    kinds: Sequence[_Kind], men: int, smoke: bool, ends: bool
) -> dict[tuple[int, bool], tuple[tuple[int, ...], int]]:
    """:func:`_cuts` as each kind's group and how many groups."""
    return {at: (ids, groups) for at, (ids, groups, _) in _cuts(kinds, men, smoke, ends).items()}


def _tables(  # noqa: PLR0917 - the walk's parts at one man's draw
    kinds: Sequence[_Kind],
    parts: dict[tuple[int, bool], Groups],
    position: int,
    end_on_malfunction: bool,
    width: int,
    codes: Sequence[int],
    steps: Sequence[int],
) -> tuple[kernel.Tables, list[int]]:
    """What drawing each card group does at man ``position`` (for the compiled step), and
    the tallies that can follow ``codes`` (the level's tallies, as integer codes)."""

    def move(phase: int, first: int) -> Move:
        kind = kinds[first]
        with_smoke, without = kind.results[position]
        if kind.malfunction and end_on_malfunction:
            return True, ENDED_RESULT, phase
        smoke = phase == kernel.SMOKE
        stays = smoke and not kind.breeze
        return False, with_smoke if smoke else without, kernel.SMOKE if stays else kernel.CLEAR

    phases = [p for p in (kernel.CLEAR, kernel.SMOKE) if (position, p == kernel.SMOKE) in parts]
    blank = draw_tables(
        width,
        phases,
        lambda phase: parts[position, phase == kernel.SMOKE],
        lambda phase: parts[position + 1, phase == kernel.SMOKE],
        move,
    )
    keep = len(MAN_RESULTS)
    read = np.array([*sorted(results_of(blank) | {ENDED_RESULT}), keep], np.int64)
    stepped = np.asarray(codes, np.int64)[:, None] + np.asarray(steps, np.int64)[read][None, :]
    tables, following = with_next_tally(blank, stepped, read.tolist(), keep + 1)
    return tables, following.tolist()


def _finish(  # noqa: PLR0917 - the walk's last level and what it gathered
    level: kernel.Level,
    codes: Sequence[int],
    radix: int,
    moduli: npt.NDArray[np.uint64],
    denominator: int,
    group: Sequence[Target],
    per_man: Sequence[tuple[dict[int, int], int]],
    seen_states: int,
) -> GroupOdds:
    """The group's tally and each man's odds from the walk's last level; the weights must
    add up to the denominator (every card sequence counted once) or the lanes failed."""
    pairs = np.asarray(codes, np.int64)[level.tally]
    totals = lane_totals(pairs, level.weight, moduli, first_seen=True)
    tally = tally_odds(totals, radix, denominator, "page 3")
    men = [
        (target.man.id, man_odds({below: marginal}))
        for target, (marginal, below) in zip(group, per_man, strict=True)
    ]
    return GroupOdds(tally, tuple(men), seen_states)


def group_odds(  # noqa: PLR0917 - one walk over men and states
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
    attack keeps no counts. Each man's draw is one compiled step (:mod:`.kernel`)."""
    pool = pool_for(inp, reads_for(inp), played)
    begin = pool.start if start is None else start
    kinds, counts0, refill = _classes(pool, inp, ffs, rr, group, malfunction_at, begin)
    n = len(group)
    parts = _cuts(kinds, n, bool(inp.smoke), inp.malfunction == "end_attack")
    width = max(groups for _, groups, _ in parts.values())
    size = sum(counts0)
    smoke0 = bool(inp.smoke)
    # the tally as one integer code (each slot a digit in base n + 1)
    radix = n + 1
    steps = loss_steps(radix)
    steps[ENDED_RESULT] = ended_step(radix)
    steps.append(0)  # an ended attack's draws leave its tally as it is
    bounds = list(accumulate(pool_sizes(size, max(sum(refill), 1), False, n), mul))
    moduli = kernel.lanes_for(bounds[0])

    def by_group(counts: Sequence[int], position: int, smoke: bool) -> tuple[int, ...]:
        ids, groups, _ = parts[position, smoke]
        return grouped(counts, ids, groups)

    phase0 = kernel.SMOKE if smoke0 else kernel.CLEAR
    level = levels.rebuilt(None, (0,), {phase0: by_group(counts0, 0, smoke0)}, width, moduli)
    codes = [0]
    denominator = 1
    per_man: list[tuple[dict[int, int], int]] = []
    seen_states = 1
    for position in range(n):
        charge_draw(level.pairs * width)  # the web's work budget
        if size == 0:
            if inp.reshuffle == "end_attack" or sum(refill) == 0:
                level = levels.rebuilt(level, codes, None, width, moduli)
                per_man.extend(({NO_EFFECT: 1}, 1) for _ in range(n - position))
                break
            size = sum(refill)
            rows = {
                kernel.CLEAR: by_group(refill, position, False),
                kernel.SMOKE: by_group(refill, position, True) if smoke0 else (),
            }
            level = levels.rebuilt(level, codes, rows, width, moduli)
        wider = kernel.lanes_for(bounds[position])
        if len(wider) > len(moduli):  # weights about to outgrow the lanes: add lanes
            level = kernel.widen(level, moduli, wider)
            moduli = wider
        tables, codes_after = _tables(
            kinds, parts, position, inp.malfunction == "end_attack", width, codes, steps
        )
        level, weights, _ = kernel.advance(level, tables, ENDED_RESULT, size, moduli)
        codes = codes_after
        denominator *= size
        marginal = dict(enumerate(kernel.combine_rows(weights[: len(MAN_RESULTS)], moduli)))
        per_man.append(({r: w for r, w in marginal.items() if w}, denominator))
        seen_states += level.pairs
        size -= 1
    return _finish(level, codes, radix, moduli, denominator, group, per_man, seen_states)


@dataclass(frozen=True)
class GroupProcedure(Procedure[I], Generic[I]):
    """A procedure whose exact odds come from :func:`group_odds` (draws as state) instead of
    prefix replay of the rule; sampling and replay run the rule itself."""

    exact_odds: Callable[[I], Distribution[str]] | None = None
    """The procedure's exact odds (a walk over pool states); a procedure without them says
    so in one line (:class:`~firefight.errors.RuleError`) rather than answer no outcome."""

    def odds(self, inp: I) -> Distribution[str]:
        """The exact distribution of outcomes (by its walk over pool states)."""
        if self.exact_odds is None:
            raise RuleError(
                gettext("{procedure}: no exact odds are computed for this procedure").format(
                    procedure=self.name
                )
            )
        odds = self.exact_odds(inp)
        if not odds:  # pragma: no cover - every walk answers some outcome
            raise RuleError(
                gettext("{procedure}: its exact odds hold no outcome").format(procedure=self.name)
            )
        return odds.ordered(self._order)


def common_denominator(values: Sequence[Fraction]) -> int:
    """The least common denominator of ``values`` (for showing odds over one count)."""
    return lcm(*(v.denominator for v in values)) if values else 1
