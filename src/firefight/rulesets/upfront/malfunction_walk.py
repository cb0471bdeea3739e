"""Page 3 on a group with page 6 wired in (reading ``malfunction = page6``): the rule and its
exact odds over the unseen cards.

Page 3's own walk (:mod:`.group`) ends the attack on a malfunction or goes on at the same
FFS. With page 6 a malfunction changes the FFS for the men after (and for this man: "attack
continues with reduced FS"), may end the attack, may draw a second card (whose weapon), and
changes which weapons are still checked; so the walk's state carries the FFS and each firing
weapon's state besides the cards left. The per-man rule is page 3's
(:func:`.resolution.man_result`); page 6's boxes are :func:`.malfunction.outcome_for`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from math import lcm

from firefight.chance import Chance, spend
from firefight.core.distribution import Distribution
from firefight.errors import RuleError
from firefight.i18n import gettext
from firefight.rulesets.upfront.cards import Card
from firefight.rulesets.upfront.group import GroupOdds, group_odds
from firefight.rulesets.upfront.malfunction import (
    CAPTURED_BREAK_RN,
    HALF_FP,
    Firer,
    MalfunctionReadings,
    Outcome,
    affected_by_rn,
    outcome_for,
    selection_column,
    weapon_malfunction,
)
from firefight.rulesets.upfront.men import Man
from firefight.rulesets.upfront.pool import Reads, pool_for
from firefight.rulesets.upfront.resolution import (
    EMPTY_TALLY,
    MAN_RESULTS,
    Readings,
    Tally,
    Target,
    fire_result,
    malfunctions,
    man_result,
    reads_for,
    resolve_group,
    tally_add,
)

__all__ = ["firers_of", "odds", "page6_group_odds", "resolve", "resolve_group_page6"]

PAGE6_DRAWS_PER_STEP = 3
"""How many (state, card class) draws of the page 6 walk pay for one step of the work budget
(:func:`firefight.chance.spend`): a draw here reads the malfunction outcome too, about 6 us
(fire on 3 men with malfunction = page6: 409,737 draws in 2.6 s), against about 21 us for one
step of :func:`~firefight.chance.exact` (group.DRAWS_PER_STEP for the plain walk)."""

OK, MALFED, REMOVED = 0, 1, 2
"""A firing weapon's state during the attack."""
_INDEX = {result: i for i, result in enumerate(MAN_RESULTS)}
_ENDED = _INDEX["attack ended"]
_NONE = _INDEX["no effect"]
NEVER = 7
"""Above every RN: no weapon can malfunction."""
MAX_STATES = 200_000
"""The most states the page 6 walk keeps after one man (five men, about 6 s here): beyond,
a one-line error (seeded and replayed resolution still work)."""
RUNNING, ENDED, EXHAUSTED = 0, 1, 2
"""Whether the attack goes on, a malfunction ended it, or the pile ran out (the men after
are unaffected)."""
State = tuple[tuple[int, ...], int, bool, tuple[int, ...], int, tuple[int, ...]]
"""(cards left by kind, FFS, smoke in play, weapons' states, RUNNING/ENDED/EXHAUSTED, tally)."""


def _readings(inp: Readings) -> MalfunctionReadings:
    """Page 6's readings carried by a page 3 input (the defaults when it has none)."""
    return inp if isinstance(inp, MalfunctionReadings) else MalfunctionReadings()


def _reads(inp: Readings, firers: Sequence[Firer]) -> Reads:
    """Page 3's reads plus the RPN column page 6 selects a man by."""
    base = reads_for(inp)
    columns = tuple(sorted({*base.rpn, selection_column(len(firers))}))
    return replace(base, rpn=columns)


def _now(firers: Sequence[Firer], weapons: tuple[int, ...]) -> tuple[Firer, ...]:
    """The group with each weapon's state: a malfunctioned weapon, or none once removed."""
    found = []
    for firer, state in zip(firers, weapons, strict=True):
        if state == REMOVED:
            man = replace(firer.man, weapon="unarmed", malfunction=None)
            found.append(replace(firer, man=man, malfed=False, captured=False))
        else:
            found.append(replace(firer, malfed=firer.malfed or state == MALFED))
    return tuple(found)


def _checked(firers: Sequence[Firer]) -> tuple[int, ...]:
    """The malfunction numbers page 3 checks: the weapons firing now (not pinned, not
    malfunctioned, taking part)."""
    return tuple(
        f.man.malfunction
        for f in firers
        if f.man.malfunction is not None and f.firing and not f.pinned and not f.malfed
    )


def _weapon_state(outcome: Outcome, before: int) -> int:
    if outcome.weapon == "unaffected":
        return before
    if outcome.weapon == "malfunctions":
        return MALFED
    return REMOVED


def resolve_group_page6(  # noqa: PLR0917 - page 3's resolve_group and the firers
    inp: Readings,
    chance: Chance,
    ffs: int,
    rr: int,
    group: Sequence[Target],
    firers: Sequence[Firer],
    played: tuple[int, ...] = (),
) -> list[str]:
    """Page 3 on each man in order with page 6 on a malfunction (the rule, sampled and
    replayed; :func:`page6_group_odds` is its exact odds)."""
    readings = _readings(inp)
    pool = pool_for(inp, _reads(inp, firers), played)
    state = pool.start
    smoke = inp.smoke
    weapons = tuple(OK for _ in firers)
    results: list[str] = []
    for position, target in enumerate(group, 1):
        drawn = pool.draw(chance, state, f"card for man {position} ({target.man.id})")
        if drawn is None:
            results.extend("no effect" for _ in group[position - 1 :])
            break
        card, state = drawn
        now = _now(firers, weapons)
        if inp.attack in ("firepower", "overrun") and malfunctions(
            card, _checked(now), inp.malfunction_check
        ):
            chance.note("malfunction", f"RN {card.rn}: a fire weapon malfunctions (page 6)")
            found = weapon_malfunction(
                chance, pool, state, now, rn=card.rn.value, ffs=ffs, rr=rr, inp=readings
            )
            if found is None:
                results.extend("no effect" for _ in group[position - 1 :])
                break
            outcome, state = found
            chance.note("page 6", outcome.text(now))
            weapons = (
                *weapons[: outcome.position],
                _weapon_state(outcome, weapons[outcome.position]),
                *weapons[outcome.position + 1 :],
            )
            if outcome.end_attack:
                results.extend("attack ended" for _ in group[position - 1 :])
                break
            ffs = outcome.ffs
        result = man_result(target, ffs, rr, card, inp)
        chance.note(
            f"man {position} ({target.man.id})", f"FR {fire_result(ffs, card, inp.fr)}: {result}"
        )
        results.append(result)
        if card.breeze and smoke:
            ffs -= smoke
            chance.note("BREEZE", f"smoke removed: FFS {ffs}")
            smoke = 0
    return results


# ---- exact odds: the same rule walked over states -------------------------------------


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


def _reachable(ffs: int, smoke: int, firers: Sequence[Firer], rr: int, men: int) -> dict[int, int]:
    """Every FFS the attack can reach (each with its index): down by page 6's cuts (a
    weapon's at most once; an assistant's -1 once per man resolved), up by a BREEZE clearing
    smoke."""
    sums = {0}
    for firer in firers:
        fp = firer.man.firepower[rr]
        options = {0, math.ceil(fp * HALF_FP)}
        if firer.man.weapon == "flamethrower":
            options.add(fp)
        if firer.man.crew == "assistant":
            options.update(range(men + 1))
        sums = {a + b for a in sums for b in options}
    found = {ffs - cut for cut in sums}
    found |= {level - smoke for level in found}
    return {level: index for index, level in enumerate(sorted(found))}


def page6_group_odds(  # noqa: PLR0912, PLR0915, PLR0917 - one walk over men and states
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
    printed_numbers = [n for f in firers if (n := f.man.malfunction) is not None]
    lowest = (
        min([*printed_numbers, CAPTURED_BREAK_RN])
        if any(f.captured for f in firers)
        else min(printed_numbers, default=NEVER)
    )
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
        spend(len(states) * len(pool.start.classes) // PAGE6_DRAWS_PER_STEP + 1)  # web budget
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
            msg = gettext(
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


# ---- page 3's callers: one entry for every malfunction reading -------------------------


def firers_of(inp: Readings, men: Sequence[Man]) -> tuple[Firer, ...]:
    """The firing group with what page 6 asks of each man, from the fields a page 1 input
    has (pinned_firers, malfunctioned; transferring_firers and not_firing: not firing);
    plain men else."""

    def named(field: str) -> set[str]:
        text = getattr(inp, field, "")
        return {t.strip() for t in str(text).split(",") if t.strip()}

    pinned, malfed, moving = (
        named("pinned_firers"),
        named("malfunctioned"),
        named("transferring_firers") | named("not_firing"),
    )
    return tuple(
        Firer(m, pinned=m.id in pinned, malfed=m.id in malfed, firing=m.id not in moving)
        for m in men
    )


def resolve(  # noqa: PLR0917 - page 3's resolve_group and the firers
    inp: Readings,
    chance: Chance,
    ffs: int,
    group: Sequence[Target],
    firers: Sequence[Man],
    numbers: Sequence[int],
    played: tuple[int, ...] = (),
) -> list[str]:
    """Page 3 on the group, page 6 wired in when ``malfunction = page6`` (page 3's own
    resolve_group otherwise)."""
    rr: int = getattr(inp, "rr", 0)
    if inp.malfunction == "page6" and firers:
        return resolve_group_page6(inp, chance, ffs, rr, group, firers_of(inp, firers), played)
    return resolve_group(inp, chance, ffs, rr, group, numbers, played)


def odds(  # noqa: PLR0917 - as resolve
    inp: Readings,
    ffs: int,
    group: Sequence[Target],
    firers: Sequence[Man],
    numbers: Sequence[int],
    played: tuple[int, ...] = (),
) -> GroupOdds:
    """Exact odds of :func:`resolve`."""
    rr: int = getattr(inp, "rr", 0)
    if inp.malfunction == "page6" and firers:
        return page6_group_odds(inp, ffs, rr, group, firers_of(inp, firers), played)
    return group_odds(inp, ffs, rr, group, numbers, played)
