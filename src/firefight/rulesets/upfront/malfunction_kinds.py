"""What the page 6 walk (:mod:`.malfunction_walk`) reads of the cards and of the firing group:
the weapons' states, the FFS levels page 6 can reach, and the card kinds (cards the attack
reads alike) with their cut at every man (:mod:`.cuts`); page 6's boxes are
:func:`.malfunction.outcome_for`, read once per (man, kind, weapon, FFS).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

import numpy as np

from firefight.rulesets.upfront.cards import Card
from firefight.rulesets.upfront.cuts import Cut
from firefight.rulesets.upfront.malfunction import (
    CAPTURED_BREAK_RN,
    HALF_FP,
    Firer,
    MalfunctionReadings,
    Outcome,
    affected_by_rn,
    outcome_for,
    selection_column,
)
from firefight.rulesets.upfront.pool import Reads, pool_for
from firefight.rulesets.upfront.resolution import (
    Readings,
    Target,
    malfunctions,
    man_result,
    reads_for,
)
from firefight.rulesets.upfront.walk import RESULT_INDEX, ended_step, loss_steps

__all__ = [
    "ENDED",
    "EXHAUSTED",
    "NEVER",
    "RUNNING",
    "Attack",
    "Kinds",
    "Mode",
    "attack_of",
    "checked_numbers",
    "draws_estimate",
    "page6_readings",
    "page6_reads",
    "weapon_state",
    "with_weapons",
]

OK, MALFED, REMOVED = 0, 1, 2
"""A firing weapon's state during the attack."""
NEVER = 7
"""Above every RN: no weapon can malfunction."""
RUNNING, ENDED, EXHAUSTED = 0, 1, 2
"""Whether the attack goes on, a malfunction ended it, or the pile ran out (the men after
are unaffected)."""


def page6_readings(inp: Readings) -> MalfunctionReadings:
    """Page 6's readings carried by a page 3 input (the defaults when it has none)."""
    return inp if isinstance(inp, MalfunctionReadings) else MalfunctionReadings()


def page6_reads(inp: Readings, firers: Sequence[Firer]) -> Reads:
    """Page 3's reads plus the RPN column page 6 selects a man by."""
    base = reads_for(inp)
    columns = tuple(sorted({*base.rpn, selection_column(len(firers))}))
    return replace(base, rpn=columns)


def with_weapons(firers: Sequence[Firer], weapons: tuple[int, ...]) -> tuple[Firer, ...]:
    """The group with each weapon's state: a malfunctioned weapon, or none once removed."""
    found = []
    for firer, state in zip(firers, weapons, strict=True):
        if state == REMOVED:
            man = replace(firer.man, weapon="unarmed", malfunction=None)
            found.append(replace(firer, man=man, malfed=False, captured=False))
        else:
            found.append(replace(firer, malfed=firer.malfed or state == MALFED))
    return tuple(found)


def checked_numbers(firers: Sequence[Firer]) -> tuple[int, ...]:
    """The malfunction numbers page 3 checks: the weapons firing now (not pinned, not
    malfunctioned, taking part)."""
    return tuple(
        f.man.malfunction
        for f in firers
        if f.man.malfunction is not None and f.firing and not f.pinned and not f.malfed
    )


def weapon_state(outcome: Outcome, before: int) -> int:
    if outcome.weapon == "unaffected":
        return before
    if outcome.weapon == "malfunctions":
        return MALFED
    return REMOVED


def lowest_rn(firers: Sequence[Firer]) -> int:
    """The lowest RN that can malfunction a weapon of the group (a captured one's at most
    CAPTURED_BREAK_RN; NEVER when none can)."""
    numbers = [n for f in firers if (n := f.man.malfunction) is not None]
    if any(f.captured for f in firers):
        return min([*numbers, CAPTURED_BREAK_RN])
    return min(numbers, default=NEVER)


def reachable_ffs(
    ffs: int, smoke: int, firers: Sequence[Firer], rr: int, men: int
) -> dict[int, int]:
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


@dataclass(frozen=True)
class Mode:
    """What a pool state's draws depend on besides its counts: whether the attack runs, the
    FFS and smoke, the weapons' states, which pile is drawn (0: the pool, 1: a reshuffle),
    the selection cards seen in it (``seen``: (kind, selection RPN) pairs, while a
    selection can still happen) and the denominator its weights are over."""

    status: int
    ffs: int = 0
    smoke: bool = False
    weapons: tuple[int, ...] = ()
    pile: int = 0
    seen: tuple[tuple[int, int], ...] = ()
    denominator: int = 1


Move = tuple[int, int, int, bool, tuple[int, ...]] | None
"""A resolved draw: (result, tally step, FFS after, smoke after, weapons after), or None for
an attack ended by page 6."""


@dataclass
class Attack:
    """The attack's fixed parts, as the walk reads them: card kinds and their counts, the
    cut of kinds at every man, and page 6's outcomes (memoized)."""

    inp: Readings
    readings: MalfunctionReadings
    rr: int
    firers: Sequence[Firer]
    levels: dict[int, int]
    rn: list[int]  # per kind: the RN when it can malfunction a weapon, -1 otherwise
    breeze: list[bool]
    results: list[list[list[int]]]  # per man, per kind, per FFS index: result index
    cards: list[Card]
    counts: tuple[list[int], list[int]]  # per pile (pool, reshuffle): cards of each kind
    by_rpn: tuple[list[list[int]], list[list[int]]]  # per pile, kind: cards by selection RPN
    cut: Cut  # the kinds' cut while page 6 can still change the FFS or the weapons
    steps: list[int]  # per result: what it adds to a tally code
    ended_step: int
    selecting: bool
    _group: dict[tuple[int, ...], tuple[Firer, ...]] = field(default_factory=dict)
    _checks: dict[tuple[int, ...], tuple[int, ...]] = field(default_factory=dict)
    _selects: dict[tuple[int, ...], bool] = field(default_factory=dict)
    _outcomes: dict[tuple[object, ...], Move] = field(default_factory=dict)

    def now(self, weapons: tuple[int, ...]) -> tuple[Firer, ...]:
        found = self._group.get(weapons)
        if found is None:
            found = self._group[weapons] = with_weapons(self.firers, weapons)
            self._checks[weapons] = checked_numbers(found)
        return found

    def checked(self, weapons: tuple[int, ...]) -> tuple[int, ...]:
        self.now(weapons)
        return self._checks[weapons]

    def group_rpns(self, cut: Cut, position: int, pile: int) -> list[list[int]]:
        """Each card group's cards in ``pile`` (groups of ``cut`` at man ``position``) by
        selection RPN, over all of the group's kinds: split kinds put kinds of one RPN in a
        group, whose first kind may have no card in this pile (one only in the reshuffle)
        while another has some; kinds read within are one kind a group."""
        found = [[0] * len(self.firers) for _ in range(cut.groups[position])]
        for kind, group in enumerate(cut.ids[position]):
            row = found[group]
            for rpn, cards in enumerate(self.by_rpn[pile][kind]):
                row[rpn] += cards
        return found

    def can_select(self, weapons: tuple[int, ...]) -> bool:
        """Whether a selection card can still be drawn: some RN malfunctions a weapon checked
        and reaches two weapons or more (weapons only degrade, so once not, never)."""
        found = self._selects.get(weapons)
        if found is None:
            now, numbers = self.now(weapons), self.checked(weapons)
            found = self.selecting and any(
                len(affected_by_rn(now, rn)) > 1 and any(rn >= n for n in numbers)
                for rn in range(NEVER)
            )
            self._selects[weapons] = found
        return found

    def malfunctions(self, kind: int, weapons: tuple[int, ...]) -> bool:
        numbers = self.checked(weapons)
        return (
            self.rn[kind] >= 0
            and bool(numbers)
            and malfunctions(self.cards[kind], numbers, self.inp.malfunction_check)
        )

    def reached(self, kind: int, weapons: tuple[int, ...]) -> tuple[int, ...]:
        return affected_by_rn(self.now(weapons), self.rn[kind])

    def read(
        self, position: int, kind: int, ffs: int, smoke: bool, weapons: tuple[int, ...]
    ) -> Move:
        """The man's result with this card at ``ffs`` and the FFS and smoke after (BREEZE)."""
        result = self.results[position][kind][self.levels[ffs]]
        if self.breeze[kind] and smoke:
            ffs -= self.inp.smoke
            smoke = False
        return result, self.steps[result], ffs, smoke, weapons

    def outcome(  # noqa: PLR0917 - page 6 on one man's malfunction card
        self,
        position: int,
        kind: int,
        chosen: int,
        ffs: int,
        smoke: bool,
        weapons: tuple[int, ...],
    ) -> Move:
        """Page 6 on the man ``chosen`` (memoized), then the man's result with the card."""
        key = (position, kind, chosen, ffs, smoke, weapons)
        if key in self._outcomes:
            return self._outcomes[key]
        now = self.now(weapons)
        found = outcome_for(now, chosen, rn=self.rn[kind], ffs=ffs, rr=self.rr, inp=self.readings)
        changed = (
            *weapons[:chosen],
            weapon_state(found, weapons[chosen]),
            *weapons[chosen + 1 :],
        )
        move = None if found.end_attack else self.read(position, kind, found.ffs, smoke, changed)
        self._outcomes[key] = move
        return move


def _card_key(
    inp: Readings, card: Card, lowest: int, read: tuple[tuple[int, ...], ...], pick: int
) -> tuple[int, bool, tuple[tuple[int, ...], ...], int]:
    """What the walk reads of a card: its RN where it can malfunction a weapon (-1 else),
    BREEZE with smoke in play, the men's results (``read``), the selection pick (-1: not
    read)."""
    can_malfunction = card.rn.value >= lowest and (
        card.rn.red or inp.malfunction_check == "any_at_least"
    )
    return (
        card.rn.value if can_malfunction else -1,
        card.breeze and bool(inp.smoke),
        read,
        pick,
    )


def _kinds_cut(  # noqa: PLR0917 - the kinds' readings
    men: int,
    rn: Sequence[int],
    breeze: Sequence[bool],
    results: Sequence[Sequence[Sequence[int]]],
    picks: Sequence[int],
    latent: bool,
) -> Cut:
    """The kinds' cut at every man: with selections read within the kinds (``latent``) the
    kinds stay apart (their selection RPNs are read from their own counts); otherwise only
    what the men still to resolve read, page 6's RN and BREEZE and the pick tell them
    apart."""

    def key(position: int, kind: int) -> Hashable:
        if latent:
            return (kind,)
        later = tuple(tuple(m[kind]) for m in results[position:])
        return (rn[kind], breeze[kind], later, picks[kind])

    return Cut.of(men, len(rn), key)


def attack_of(  # noqa: PLR0917 - the attack's parts, as page6_group_odds takes them
    inp: Readings,
    ffs: int,
    rr: int,
    group: Sequence[Target],
    firers: Sequence[Firer],
    played: tuple[int, ...],
    split: bool,
    reads: dict[int, tuple[tuple[int, ...], ...]],
) -> Attack:
    """The card kinds (cards the attack reads alike: by the selection RPN too when
    ``split``, else not) and their cut at every man: what the men still to resolve read,
    page 6's RN and BREEZE (and the selection RPN when split). ``reads``: each pool class's
    results, per man and FFS, filled on first use."""
    readings = page6_readings(inp)
    pool = pool_for(inp, page6_reads(inp, firers), played)
    column = selection_column(len(firers))
    levels = reachable_ffs(ffs, inp.smoke, firers, rr, len(group))
    lowest = lowest_rn(firers)
    selecting = readings.select == "rpn" and len(firers) > 1
    split = split and selecting
    kinds: dict[tuple[int, bool, tuple[tuple[int, ...], ...], int], int] = {}
    rn: list[int] = []
    breeze: list[bool] = []
    picks: list[int] = []
    results: list[list[list[int]]] = [[] for _ in group]
    cards: list[Card] = []
    counts: tuple[list[int], list[int]] = ([], [])
    by_rpn: tuple[list[list[int]], list[list[int]]] = ([], [])
    for index, (left, again) in enumerate(
        zip(pool.start.classes, pool.refill.classes, strict=True)
    ):
        members = left or again
        if not members:
            continue
        card = pool.data.card(members[0])
        read = reads.get(index)
        if read is None:
            read = reads[index] = tuple(
                tuple(RESULT_INDEX[man_result(t, level, rr, card, inp)] for level in levels)
                for t in group
            )
        pick = card.rpn_at(column).value % len(firers)
        key = _card_key(inp, card, lowest, read, pick if split else -1)
        if key not in kinds:
            kinds[key] = len(kinds)
            rn.append(key[0])
            breeze.append(key[1])
            picks.append(key[3])
            for man, row in zip(results, read, strict=True):
                man.append(list(row))
            cards.append(card)
            for pile in (0, 1):
                counts[pile].append(0)
                by_rpn[pile].append([0] * len(firers))
        kind = kinds[key]
        for pile, members_of in enumerate((left, again)):
            counts[pile][kind] += len(members_of)
            by_rpn[pile][kind][pick] += len(members_of)
    cut = _kinds_cut(len(group), rn, breeze, results, picks, selecting and not split)
    radix = len(group) + 1
    steps = loss_steps(radix)
    return Attack(
        inp,
        readings,
        rr,
        firers,
        levels,
        rn,
        breeze,
        results,
        cards,
        counts,
        by_rpn,
        cut,
        steps,
        ended_step(radix),
        selecting,
    )


Kinds = Literal["auto", "latent", "split"]
"""How the page 6 walk reads a selection card's RPN: within the kinds (latent), from kinds
split by it (split), or whichever the estimate finds cheaper (auto)."""


def draws_estimate(attack: Attack, men: int) -> float:
    """The work of a walk with these kinds, roughly: at each man, the multisets of earlier
    draws over his card groups (each group at most its count) times the groups. Modes and
    tallies multiply both ways of reading alike, so it only compares the two."""
    total = 0.0
    for position in range(men):
        ways = np.zeros(position + 1)
        ways[0] = 1.0
        for count in attack.cut.grouped(attack.counts[0], position):
            ways = np.convolve(ways, np.ones(min(count, position) + 1))[: position + 1]
        total += float(ways[position]) * attack.cut.groups[position]
    return total
