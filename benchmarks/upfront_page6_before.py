"""The page 6 walk (``malfunction = page6``) as it was before issue 14's open item made it
exact for a full group: states (cards left by kind, FFS, smoke, weapons' states, running /
ended / exhausted, tally) walked in Python, refused past MAX_STATES after a man. Kept only as
the baseline that benchmarks/upfront.py measures in the same run; the package does not import
it. The rule (and so the odds) is the package's: both walks must give equal odds.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import lcm

from firefight.chance.distribution import Distribution
from firefight.errors import RuleError
from firefight.rulesets.upfront.cards import Card
from firefight.rulesets.upfront.group import GroupOdds
from firefight.rulesets.upfront.malfunction import (
    Firer,
    affected_by_rn,
    outcome_for,
    selection_column,
)
from firefight.rulesets.upfront.malfunction_kinds import checked_numbers as _checked
from firefight.rulesets.upfront.malfunction_kinds import lowest_rn as _lowest
from firefight.rulesets.upfront.malfunction_kinds import page6_readings as _readings
from firefight.rulesets.upfront.malfunction_kinds import page6_reads as _reads
from firefight.rulesets.upfront.malfunction_kinds import reachable_ffs as _reachable
from firefight.rulesets.upfront.malfunction_kinds import weapon_state as _weapon_state
from firefight.rulesets.upfront.malfunction_kinds import with_weapons as _now
from firefight.rulesets.upfront.pool import pool_for
from firefight.rulesets.upfront.resolution import (
    EMPTY_TALLY,
    MAN_RESULTS,
    Readings,
    Tally,
    Target,
    malfunctions,
    man_result,
    tally_add,
)

OK, MALFED, REMOVED = 0, 1, 2
_INDEX = {result: i for i, result in enumerate(MAN_RESULTS)}
_ENDED = _INDEX["attack ended"]
_NONE = _INDEX["no effect"]
NEVER = 7
MAX_STATES = 200_000
RUNNING, ENDED, EXHAUSTED = 0, 1, 2
State = tuple[tuple[int, ...], int, bool, tuple[int, ...], int, tuple[int, ...]]


@dataclass(frozen=True)
class _Kind:
    """Cards the whole attack reads alike: the RN when it can malfunction a weapon (-1
    otherwise), the selection RPN (mod N), BREEZE, and every man's result at every FFS the
    attack can reach."""

    rn: int
    malfunctions: bool
    pick: int
    breeze: bool
    results: tuple[tuple[int, ...], ...]  # per man: result index at each reachable FFS


def page6_group_odds_before(  # noqa: PLR0912, PLR0915, PLR0917 - one walk over men and states
    inp: Readings,
    ffs: int,
    rr: int,
    group: Sequence[Target],
    firers: Sequence[Firer],
    played: tuple[int, ...] = (),
) -> GroupOdds:
    """Exact odds of :func:`resolve_group_page6` (same rule, same order): the men walked over
    states (cards left by kind, FFS, smoke, weapons' states, ended, tally), equal states
    merged after every man."""
    readings = _readings(inp)
    pool = pool_for(inp, _reads(inp, firers), played)
    column = selection_column(len(firers))
    levels = _reachable(ffs, inp.smoke, firers, rr, len(group))
    lowest = _lowest(firers)
    picks_by_card = readings.select == "rpn" and len(firers) > 1
    kinds: dict[_Kind, int] = {}
    cards: list[Card] = []
    start: list[int] = []
    refill: list[int] = []
    for left, again in zip(pool.start.classes, pool.refill.classes, strict=True):
        members = left or again
        if not members:
            continue
        card = pool.data.card(members[0])
        results = tuple(
            tuple(_INDEX[man_result(t, level, rr, card, inp)] for level in levels) for t in group
        )
        can_malfunction = card.rn.value >= lowest and (
            card.rn.red or inp.malfunction_check == "any_at_least"
        )
        kind = _Kind(
            card.rn.value if can_malfunction else -1,
            can_malfunction,
            card.rpn_at(column).value % len(firers) if picks_by_card else 0,
            card.breeze and bool(inp.smoke),
            results,
        )
        if kind not in kinds:
            kinds[kind] = len(kinds)
            cards.append(card)
            start.append(0)
            refill.append(0)
        start[kinds[kind]] += len(left)
        refill[kinds[kind]] += len(again)
    order = list(kinds)
    checks = inp.attack in ("firepower", "overrun")
    empty = EMPTY_TALLY  # the losses only (Tally's slots), so that states merge
    weapons0 = tuple(OK for _ in firers)
    # integer weights over one denominator per man (the lcm of the draws' sizes)
    states: dict[State, int] = {(tuple(start), ffs, bool(inp.smoke), weapons0, RUNNING, empty): 1}
    denominator = 1
    per_man: list[tuple[dict[int, int], int]] = []
    seen_states = 1

    def add(into: dict[State, int], key: State, p: int) -> None:
        into[key] = into.get(key, 0) + p

    def refilled(counts: tuple[int, ...]) -> tuple[int, ...] | None:
        if sum(counts):
            return counts
        if inp.reshuffle == "end_attack" or not sum(refill):
            return None
        return tuple(refill)

    group_now: dict[tuple[int, ...], tuple[Firer, ...]] = {}
    checked: dict[tuple[int, ...], tuple[int, ...]] = {}
    for position in range(len(group)):
        scale = _scale(states, refilled)
        after: dict[State, int] = {}
        marginal: dict[int, int] = {}
        for (counts, level, smoke, weapons, ended, tally), weight in states.items():
            p = weight * scale
            if ended != RUNNING:
                result = _ENDED if ended == ENDED else _NONE
                add(after, (counts, level, smoke, weapons, ended, _bump(tally, result)), p)
                marginal[result] = marginal.get(result, 0) + p
                continue
            pile = refilled(counts)
            if pile is None:  # the pile ran out: the men not yet resolved are unaffected
                add(after, (counts, level, smoke, weapons, EXHAUSTED, _bump(tally, _NONE)), p)
                marginal[_NONE] = marginal.get(_NONE, 0) + p
                continue
            size = sum(pile)
            if weapons not in group_now:
                group_now[weapons] = _now(firers, weapons)
                checked[weapons] = _checked(group_now[weapons])
            now, numbers = group_now[weapons], checked[weapons]
            for index, count in enumerate(pile):
                if not count:
                    continue
                kind = order[index]
                branch = p * count // size
                left = (*pile[:index], count - 1, *pile[index + 1 :])
                malf = (
                    checks
                    and kind.malfunctions
                    and bool(numbers)
                    and malfunctions(cards[index], numbers, inp.malfunction_check)
                )
                if not malf:
                    _resolve(
                        after,
                        marginal,
                        kind,
                        position,
                        levels,
                        left,
                        level,
                        smoke,
                        weapons,
                        tally,
                        branch,
                        inp.smoke,
                    )
                    continue
                reached = affected_by_rn(now, kind.rn)
                picks: list[tuple[int, tuple[int, ...], int]] = []
                if len(reached) == 1:
                    picks.append((reached[0], left, branch))
                elif readings.select == "lowest_malf":
                    chosen = min(reached, key=lambda q: (now[q].man.malfunction or 0, q))
                    picks.append((chosen, left, branch))
                else:
                    second = refilled(left)
                    if second is None:
                        key = (left, level, smoke, weapons, EXHAUSTED, _bump(tally, _NONE))
                        add(after, key, branch)
                        marginal[_NONE] = marginal.get(_NONE, 0) + branch
                        continue
                    total = sum(second)
                    for j, c in enumerate(second):
                        if c:
                            rest = (*second[:j], c - 1, *second[j + 1 :])
                            picks.append((order[j].pick, rest, branch * c // total))
                for chosen, rest, q in picks:
                    outcome = outcome_for(now, chosen, rn=kind.rn, ffs=level, rr=rr, inp=readings)
                    changed = (
                        *weapons[:chosen],
                        _weapon_state(outcome, weapons[chosen]),
                        *weapons[chosen + 1 :],
                    )
                    if outcome.end_attack:
                        key = (rest, level, smoke, changed, ENDED, _bump(tally, _ENDED))
                        add(after, key, q)
                        marginal[_ENDED] = marginal.get(_ENDED, 0) + q
                        continue
                    _resolve(
                        after,
                        marginal,
                        kind,
                        position,
                        levels,
                        rest,
                        outcome.ffs,
                        smoke,
                        changed,
                        tally,
                        q,
                        inp.smoke,
                    )
        denominator *= scale
        per_man.append((marginal, denominator))
        states = after
        if len(states) > MAX_STATES:
            msg = (
                "exact odds with malfunction = page6 need more than {states} states "
                "after man {position} of {men}: resolve with --seed or --draw, "
                "or take odds with malfunction = end_attack or continue"
            ).format(states=f"{MAX_STATES:,}", position=position + 1, men=len(group))
            raise RuleError(msg)
        seen_states += len(states)
    tallies: dict[Tally, Fraction] = {}
    for (_, _, _, _, _, tally), weight in states.items():
        found = Tally(tally)
        tallies[found] = tallies.get(found, Fraction(0)) + Fraction(weight, denominator)
    men = tuple(
        (
            t.man.id,
            Distribution({MAN_RESULTS[i]: Fraction(w, below) for i, w in sorted(m.items()) if w}),
        )
        for t, (m, below) in zip(group, per_man, strict=True)
    )
    return GroupOdds(Distribution(tallies), men, seen_states)


def _resolve(  # noqa: PLR0917 - one man's result into the next states
    after: dict[State, int],
    marginal: dict[int, int],
    kind: _Kind,
    position: int,
    levels: dict[int, int],
    left: tuple[int, ...],
    level: int,
    smoke: bool,
    weapons: tuple[int, ...],
    tally: tuple[int, ...],
    p: int,
    smoke_value: int,
) -> None:
    result = kind.results[position][levels[level]]
    if kind.breeze and smoke:
        level -= smoke_value
        smoke = False
    key: State = (left, level, smoke, weapons, RUNNING, _bump(tally, result))
    after[key] = after.get(key, 0) + p
    marginal[result] = marginal.get(result, 0) + p


def _scale(
    states: dict[State, int], refilled: Callable[[tuple[int, ...]], tuple[int, ...] | None]
) -> int:
    """What every weight is multiplied by for the next man: the lcm of the pile sizes a draw
    (and a selection draw after it) divides by, in every state still running."""
    sizes = {1}
    for counts, _, _, _, ended, _ in states:
        pile = refilled(counts) if ended == RUNNING else None
        if pile is None:
            continue
        size = sum(pile)
        sizes.add(size)
        after = refilled((size - 1,)) if size > 1 else refilled((0,))
        if after is not None:
            sizes.add(size * sum(after))
    return lcm(*sizes)


def _bump(tally: tuple[int, ...], index: int) -> tuple[int, ...]:
    """The tally (a :class:`.resolution.Tally`'s counts) with one more man of result
    ``index`` (into MAN_RESULTS), filled as :meth:`Tally.of` fills it."""
    return tally_add(tally, index)
