"""Page 3 on a group with page 6 wired in (reading ``malfunction = page6``): the rule and its
exact odds over the unseen cards.

Page 3's own walk (:mod:`.group`) ends the attack on a malfunction or goes on at the same
FFS. With page 6 a malfunction changes the FFS for the men after (and for this man: "attack
continues with reduced FS"), may end the attack, may draw a second card (whose weapon), and
changes which weapons are still checked; so the walk's state carries the FFS and each firing
weapon's state besides the cards left (docs/upfront.md, "The page 6 walk for a full group",
says how it is kept small and what it costs). The per-man rule is page 3's
(:func:`.resolution.man_result`); page 6's boxes are :func:`.malfunction.outcome_for`.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from firefight.chance import Chance, spend, work_left
from firefight.errors import RuleError
from firefight.i18n import gettext
from firefight.rulesets.upfront import malfunction_level as levels
from firefight.rulesets.upfront.group import GroupOdds, group_odds
from firefight.rulesets.upfront.malfunction import Firer, weapon_malfunction
from firefight.rulesets.upfront.malfunction_estimate import moves_estimate
from firefight.rulesets.upfront.malfunction_kinds import (
    OK,
    RUNNING,
    Attack,
    Kinds,
    Mode,
    attack_of,
    checked_numbers,
    draws_estimate,
    page6_readings,
    page6_reads,
    weapon_state,
    with_weapons,
)
from firefight.rulesets.upfront.malfunction_step import (
    PAGE6_MOVE_COST,
    PAGE6_UPDATES_PER_STEP,
    Key,
    PoolWalk,
)
from firefight.rulesets.upfront.men import Man
from firefight.rulesets.upfront.pool import pool_for
from firefight.rulesets.upfront.resolution import (
    Readings,
    Target,
    fire_result,
    malfunctions,
    man_result,
    resolve_group,
)
from firefight.rulesets.upfront.walk import man_odds, tally_odds

__all__ = [
    "ESTIMATE_MARGIN",
    "MAX_PAIRS",
    "PAGE6_UPDATES_PER_STEP",
    "firers_of",
    "odds",
    "page6_group_odds",
    "resolve",
    "resolve_group_page6",
]

MAX_PAIRS = 3_000_000
"""The most (pool state, tally) pairs the page 6 walk keeps after one man: beyond, a
one-line error (seeded and replayed resolution still work), so that a group too large for
memory stops in the CLI, where no work budget applies (measured about 170 bytes a pair with
the level before it: some 0.5 GB at the limit, reached after half a minute or more)."""

ESTIMATE_MARGIN = 4
"""How far past the work allowed the estimate of a walk's moves
(:func:`.malfunction_estimate.moves_estimate`) must be for the input to be refused before the
walk: the estimate is close where the selection cards seen multiply the modes and above
the walk elsewhere, and a walk let through still pays as it goes (the web's budget,
:data:`.malfunction_level.MAX_MOVES` a man in the CLI)."""


def _refuse_past_estimate(attack: Attack, men: int, ffs: int, smoke: bool) -> None:
    """Refuse, before any of the walk, an input whose estimated moves are past
    :data:`ESTIMATE_MARGIN` times what the budget in force pays for (the web) or
    :data:`.malfunction_level.MAX_MOVES` (the CLI): the web's budget error, or one line."""
    left = work_left()
    allowed = levels.MAX_MOVES if left is None else left * PAGE6_UPDATES_PER_STEP // PAGE6_MOVE_COST
    found = moves_estimate(attack, men, ffs, smoke, allowed * ESTIMATE_MARGIN)
    if found <= allowed * ESTIMATE_MARGIN:
        return
    if left is not None:
        spend(left + 1)  # past the budget in force: its own one-line error
    msg = gettext(
        "exact odds with malfunction = page6 would need about {moves} moves, more than "
        "{limit} (the most a walk may take): resolve with --seed or --draw, or take odds "
        "with malfunction = end_attack or continue"
    ).format(moves=f"{found:,}", limit=f"{allowed * ESTIMATE_MARGIN:,}")
    raise RuleError(msg)


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
    readings = page6_readings(inp)
    pool = pool_for(inp, page6_reads(inp, firers), played)
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
        now = with_weapons(firers, weapons)
        if inp.attack in ("firepower", "overrun") and malfunctions(
            card, checked_numbers(now), inp.malfunction_check
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
                weapon_state(outcome, weapons[outcome.position]),
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


# ---- exact odds: the same rule walked over pool states ---------------------------------


def page6_group_odds(  # noqa: PLR0917 - page 3's group and page 6's firers
    inp: Readings,
    ffs: int,
    rr: int,
    group: Sequence[Target],
    firers: Sequence[Firer],
    played: tuple[int, ...] = (),
    kinds: Kinds = "auto",
    compiled: bool = True,
) -> GroupOdds:
    """Exact odds of :func:`resolve_group_page6` (same rule, same order): the men walked over
    pool states, equal states merged after every man.

    A pool state is the count of each card group left (a group: the kinds the men still to
    resolve read alike) and its :class:`Mode`; under it, its tallies as integer codes (one
    digit per loss kind) with integer weights over the mode's denominator (each card drawn
    from a pile of n cards counts 1 of n). A selection card's RPN is read without splitting
    the kinds by it: within a kind the cards are alike to everything the walk reads but the
    selection RPN, and the men's own draws never read it, so the next card of a kind has
    each RPN in proportion to the kind's cards of that RPN not yet seen on a selection card
    (``Mode.seen``; exchangeability of the cards within a kind). That keeps the kinds apart
    to the last man, though; ``kinds = "split"`` splits them by the selection RPN instead and
    cuts them as men are resolved, and ``"auto"`` walks whichever of the two
    :func:`draws_estimate` finds cheaper (the same odds either way).

    Each man's draw is one compiled step (:mod:`.malfunction_level`) while every pile holds
    two cards or more, the Python step (:class:`.PoolWalk`) from there on, or throughout
    with ``compiled = False`` (the same odds: the tests' twin)."""
    reads: dict[int, tuple[tuple[int, ...], ...]] = {}
    attack = attack_of(inp, ffs, rr, group, firers, played, kinds == "split", reads)
    if kinds == "auto" and attack.selecting:
        split = attack_of(inp, ffs, rr, group, firers, played, True, reads)
        if draws_estimate(split, len(group)) < draws_estimate(attack, len(group)):
            attack = split
    n = len(group)
    _refuse_past_estimate(attack, n, ffs, bool(inp.smoke))
    walk = PoolWalk(attack, inp, n)
    start = Mode(RUNNING, ffs, bool(inp.smoke), tuple(OK for _ in firers))
    first = walk.mode_id(start)
    counts = walk.mode_cut[first].grouped(attack.counts[0], 0)
    states: dict[Key, dict[int, int]] = {(counts, first): {0: 1}}
    moduli = levels.lanes(1)  # widened as the denominators grow
    level = levels.start(counts, first, moduli) if compiled else None
    per_man: list[dict[int, list[int]]] = []
    seen_states = 1
    for position in range(n):
        spend(1)  # each man's draw; the walk pays its tally updates as it makes them
        stepped = None if level is None else levels.advance(walk, position, level, moduli)
        if stepped is not None:
            level, marginal, moduli = stepped
            per_man.append(levels.by_denominator(walk, marginal, moduli))
            pairs = level.pairs
        else:
            if level is not None:  # a pile run out or down to its last card: on in Python
                states, level = levels.to_states(walk, position, level, moduli), None
            states, found = walk.step(position, states)
            per_man.append(found)
            pairs = sum(len(t) for t in states.values())
        if pairs > MAX_PAIRS:
            msg = gettext(
                "exact odds with malfunction = page6 need more than {pairs} (pool state, "
                "tally) pairs after man {position} of {men}: resolve with --seed or --draw, "
                "or take odds with malfunction = end_attack or continue"
            ).format(pairs=f"{MAX_PAIRS:,}", position=position + 1, men=n)
            raise RuleError(msg)
        seen_states += pairs
    if level is not None:
        weights = list(levels.final_weights(walk, level, moduli))
    else:
        weights = [
            (code, walk.mode_list[mid].denominator, weight)
            for (_, mid), tallies in states.items()
            for code, weight in tallies.items()
        ]
    return _finish(weights, n, group, per_man, seen_states)


def _finish(
    weights: Sequence[tuple[int, int, int]],
    men: int,
    group: Sequence[Target],
    per_man: Sequence[dict[int, list[int]]],
    seen_states: int,
) -> GroupOdds:
    """The group's tally and each man's odds: weights (tally code, denominator, weight), each
    tally code decoded into a :class:`Tally`; they must add up to 1."""
    radix = men + 1
    by_code: dict[tuple[int, int], int] = {}
    for code, below, weight in weights:
        by_code[code, below] = by_code.get((code, below), 0) + weight
    found = ((code, Fraction(weight, below)) for (code, below), weight in by_code.items())
    tally = tally_odds(found, radix, 1, "page 6")
    men_odds = [
        (target.man.id, man_odds({below: dict(enumerate(row)) for below, row in marginal.items()}))
        for target, marginal in zip(group, per_man, strict=True)
    ]
    return GroupOdds(tally, tuple(men_odds), seen_states)


# ---- page 3's callers: one entry for every malfunction reading -------------------------


def firers_of(inp: Readings, men: Sequence[Man]) -> tuple[Firer, ...]:
    """The firing group with what page 6 asks of each man, from the fields a page 1 input
    has (pinned_firers, malfunctioned; transferring_firers and not_firing: not firing);
    plain men else."""

    def named(field: str) -> set[str]:
        return set(getattr(inp, field, ()))

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
