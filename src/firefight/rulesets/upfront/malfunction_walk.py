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

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Literal

import numpy as np

from firefight.chance import Chance, spend
from firefight.errors import RuleError
from firefight.i18n import gettext
from firefight.rulesets.upfront.cards import Card
from firefight.rulesets.upfront.cuts import Cut
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
    MAN_RESULTS,
    Readings,
    Target,
    fire_result,
    malfunctions,
    man_result,
    reads_for,
    resolve_group,
)
from firefight.rulesets.upfront.walk import (
    ENDED_RESULT,
    NO_EFFECT,
    RESULT_INDEX,
    Moves,
    ended_step,
    loss_steps,
    man_odds,
    tally_odds,
)

__all__ = ["firers_of", "odds", "page6_group_odds", "resolve", "resolve_group_page6"]

PAGE6_DRAW_COST = 16
"""What one draw into a pool state costs the page 6 walk besides its tally updates, counted
in tally updates: measured 1.5 us a draw (3.9 us where selection cards branch it) against
0.21 us a tally update (fit over four walks, next constant)."""
PAGE6_UPDATES_PER_STEP = 100
"""How many tally updates of the page 6 walk (a tally of a pool state moved by one draw; a
draw counted as :data:`PAGE6_DRAW_COST` more) pay for one step of the web's work budget
(:func:`firefight.chance.spend`), paid as they are made, so that a step costs about the 21 us
of one step of :func:`~firefight.chance.exact`: measured 13 to 23 us a step (fire by a rifle
and a BAR on the ten illustrative men, 0.70 s, 55,000 steps; by an LMG, a rifle and an MP on
three men with smoke, 1.38 s, 59,000 steps), so the 100,000-step budget stops a walk after
about 1.3 to 2.3 s."""

OK, MALFED, REMOVED = 0, 1, 2
"""A firing weapon's state during the attack."""
NEVER = 7
"""Above every RN: no weapon can malfunction."""
MAX_PAIRS = 3_000_000
"""The most (pool state, tally) pairs the page 6 walk keeps after one man: beyond, a
one-line error (seeded and replayed resolution still work), so that a group too large for
memory stops in the CLI, where no work budget applies (measured about 170 bytes a pair with
the level before it: some 0.5 GB at the limit, reached after half a minute or more)."""
RUNNING, ENDED, EXHAUSTED = 0, 1, 2
"""Whether the attack goes on, a malfunction ended it, or the pile ran out (the men after
are unaffected)."""


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


# ---- exact odds: the same rule walked over pool states ---------------------------------


def _lowest(firers: Sequence[Firer]) -> int:
    """The lowest RN that can malfunction a weapon of the group (a captured one's at most
    CAPTURED_BREAK_RN; NEVER when none can)."""
    numbers = [n for f in firers if (n := f.man.malfunction) is not None]
    if any(f.captured for f in firers):
        return min([*numbers, CAPTURED_BREAK_RN])
    return min(numbers, default=NEVER)


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


@dataclass(frozen=True)
class _Mode:
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


_Move = tuple[int, int, int, bool, tuple[int, ...]] | None
"""A resolved draw: (result, tally step, FFS after, smoke after, weapons after), or None for
an attack ended by page 6."""


@dataclass
class _Attack:
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
    _outcomes: dict[tuple[object, ...], _Move] = field(default_factory=dict)

    def now(self, weapons: tuple[int, ...]) -> tuple[Firer, ...]:
        found = self._group.get(weapons)
        if found is None:
            found = self._group[weapons] = _now(self.firers, weapons)
            self._checks[weapons] = _checked(found)
        return found

    def checked(self, weapons: tuple[int, ...]) -> tuple[int, ...]:
        self.now(weapons)
        return self._checks[weapons]

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
    ) -> _Move:
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
    ) -> _Move:
        """Page 6 on the man ``chosen`` (memoized), then the man's result with the card."""
        key = (position, kind, chosen, ffs, smoke, weapons)
        if key in self._outcomes:
            return self._outcomes[key]
        now = self.now(weapons)
        found = outcome_for(now, chosen, rn=self.rn[kind], ffs=ffs, rr=self.rr, inp=self.readings)
        changed = (
            *weapons[:chosen],
            _weapon_state(found, weapons[chosen]),
            *weapons[chosen + 1 :],
        )
        move = None if found.end_attack else self.read(position, kind, found.ffs, smoke, changed)
        self._outcomes[key] = move
        return move


def _attack(  # noqa: PLR0917 - the attack's parts, as page6_group_odds takes them
    inp: Readings,
    ffs: int,
    rr: int,
    group: Sequence[Target],
    firers: Sequence[Firer],
    played: tuple[int, ...],
    split: bool,
    reads: dict[int, tuple[tuple[int, ...], ...]],
) -> _Attack:
    """The card kinds (cards the attack reads alike: by the selection RPN too when
    ``split``, else not) and their cut at every man: what the men still to resolve read,
    page 6's RN and BREEZE (and the selection RPN when split). ``reads``: each pool class's
    results, per man and FFS, filled on first use."""
    readings = _readings(inp)
    pool = pool_for(inp, _reads(inp, firers), played)
    column = selection_column(len(firers))
    levels = _reachable(ffs, inp.smoke, firers, rr, len(group))
    lowest = _lowest(firers)
    selecting = readings.select == "rpn" and len(firers) > 1
    split = split and selecting
    kinds: dict[tuple[object, ...], int] = {}
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
        can_malfunction = card.rn.value >= lowest and (
            card.rn.red or inp.malfunction_check == "any_at_least"
        )
        pick = card.rpn_at(column).value % len(firers)
        key = (
            card.rn.value if can_malfunction else -1,
            card.breeze and bool(inp.smoke),
            read,
            pick if split else -1,
        )
        if key not in kinds:
            kinds[key] = len(kinds)
            rn.append(key[0])
            breeze.append(bool(key[1]))
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
    # with selections the kinds stay apart (their selection RPNs are read from their own
    # counts); otherwise only what the men still to resolve read tells them apart
    cut = Cut.of(
        len(group),
        len(rn),
        lambda position, kind: (
            (kind,)
            if selecting and not split
            else (
                rn[kind],
                breeze[kind],
                tuple(tuple(m[kind]) for m in results[position:]),
                picks[kind],
            )
        ),
    )
    radix = len(group) + 1
    steps = loss_steps(radix)
    return _Attack(
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


_Key = tuple[tuple[int, ...], int]
"""A pool state: its counts (one per card group of the man about to draw) and mode id."""
_Plain = tuple[int, int, int]
"""A draw that malfunctions nothing, as the walk caches it: result, tally step, mode after."""
_Branch = tuple[int, int, int, int, int, int]
"""One way page 6 goes on a malfunction card: the selection card's group (-1: none), the
factor (that group's cards of the selection RPN not yet seen on a selection card), the
denominator after, the man's result, the tally step and the mode after (-1: the attack
ended)."""


class _Walk:
    """The walk's modes (interned: a mode id per :class:`_Mode`) and its draws from one pool
    state, memoized per mode and card group."""

    def __init__(self, attack: _Attack, inp: Readings, men: int) -> None:
        self.attack = attack
        self.inp = inp
        self.men = men
        self.checks = inp.attack in ("firepower", "overrun")
        self.refill = inp.reshuffle != "end_attack" and sum(attack.counts[1]) > 0
        self.modes: dict[_Mode, int] = {}
        self.mode_list: list[_Mode] = []
        self._plain: dict[tuple[int, ...], _Plain | None] = {}
        self._malfunction: dict[tuple[int, ...], list[_Branch] | None] = {}
        self.work = Moves(PAGE6_UPDATES_PER_STEP)
        """Tally updates done, paid before each pool state's draws."""
        self.mode_cut: list[Cut] = []
        self._cuts: dict[tuple[object, ...], Cut] = {}

    def mode_id(self, mode: _Mode) -> int:
        """The mode's id, with the cut its pool states' counts are kept in."""
        found = self.modes.get(mode)
        if found is None:
            found = self.modes[mode] = len(self.mode_list)
            self.mode_list.append(mode)
            self.mode_cut.append(self.cut_for(mode))
        return found

    def cut_for(self, mode: _Mode) -> Cut:
        """The cut of a mode's counts: the attack's, or, once page 6 can no longer change the
        FFS or the weapons (every malfunction left ends the attack or does nothing, and no
        selection card can be drawn), page 3's: what the men still to resolve read at this
        FFS with and without smoke, BREEZE, and whether a malfunction ends the attack."""
        attack = self.attack
        if mode.status != RUNNING or attack.can_select(mode.weapons):
            return attack.cut
        weapons, ends = mode.weapons, []
        for kind in range(len(attack.rn)):
            if not (self.checks and attack.malfunctions(kind, weapons)):
                ends.append(False)
                continue
            now = attack.now(weapons)
            reached = attack.reached(kind, weapons)
            chosen = min(reached, key=lambda q: (now[q].man.malfunction or 0, q))
            found = outcome_for(
                now, chosen, rn=attack.rn[kind], ffs=mode.ffs, rr=attack.rr, inp=attack.readings
            )
            if not found.end_attack and (
                found.ffs != mode.ffs or _weapon_state(found, weapons[chosen]) != weapons[chosen]
            ):
                return attack.cut
            ends.append(found.end_attack)
        signature = (mode.ffs, mode.smoke, tuple(ends))
        cut = self._cuts.get(signature)
        if cut is None:
            here = attack.levels[mode.ffs]
            cleared = attack.levels[mode.ffs - self.inp.smoke] if mode.smoke else here
            men = attack.results

            def key(position: int, kind: int) -> Hashable:
                now = tuple(m[kind][here] for m in men[position:])
                later = tuple(m[kind][cleared] for m in men[position + 1 :]) if mode.smoke else ()
                return (ends[kind], mode.smoke and attack.breeze[kind], now, later)

            cut = self._cuts[signature] = Cut.of(self.men, len(attack.rn), key)
        return cut

    def plain(
        self, position: int, mid: int, g: int, fresh: bool, denominator: int
    ) -> _Plain | None:
        """A draw of group ``g`` by man ``position`` from a state of mode ``mid`` (``fresh``:
        from a pile just reshuffled; the weights after over ``denominator``) that
        malfunctions nothing: its result, tally step and mode after; None when the card
        malfunctions a weapon."""
        key = (position, mid, g, fresh, denominator)
        if key in self._plain:
            return self._plain[key]
        mode = self.mode_list[mid]
        kind = self.mode_cut[mid].first[position][g]
        found: _Plain | None = None
        if not (self.checks and self.attack.malfunctions(kind, mode.weapons)):
            result, step, level, smoke, weapons = self.attack.read(  # type: ignore[misc]
                position, kind, mode.ffs, mode.smoke, mode.weapons
            )
            pile, seen = (1, ()) if fresh else (mode.pile, mode.seen)
            after = _Mode(RUNNING, level, smoke, weapons, pile, seen, denominator)
            found = (result, step, self.mode_id(after))
        self._plain[key] = found
        return found

    def stopped(self, status: int, denominator: int) -> int:
        """The mode of an attack ended (or a pile run out) with weights over
        ``denominator``."""
        return self.mode_id(_Mode(status, denominator=denominator))

    def malfunction(
        self, position: int, mid: int, g: int, fresh: bool, size: int
    ) -> list[_Branch] | None:
        """Page 6 on a card of group ``g`` drawn from a pile of ``size`` cards by a state of
        mode ``mid``: each way (whose weapon: the selection card's group, -1 when none is
        drawn) with the factor, the denominator and the pile it leaves, the man's result,
        tally step and mode after (an ended attack: step and mode of the end). None: the
        selection card cannot be drawn (the pile ran out, reshuffle = end_attack)."""
        key = (position, mid, g, fresh, size)
        if key in self._malfunction:
            return self._malfunction[key]
        attack, mode, cut = self.attack, self.mode_list[mid], self.mode_cut[mid]
        pile, seen = (1, ()) if fresh else (mode.pile, mode.seen)
        kind = cut.first[position][g]
        denominator = mode.denominator * size
        reached = attack.reached(kind, mode.weapons)
        ways: list[tuple[int, int, int, int, int, tuple[tuple[int, int], ...]]] = []
        if len(reached) == 1 or attack.readings.select == "lowest_malf":
            now = attack.now(mode.weapons)
            chosen = min(reached, key=lambda q: (now[q].man.malfunction or 0, q))
            ways.append((chosen, -1, 1, denominator, pile, seen))
        else:
            pile2, seen2, size2 = pile, seen, size - 1
            if size2 == 0:
                if not self.refill:
                    self._malfunction[key] = None
                    return None
                pile2, seen2, size2 = 1, (), sum(attack.counts[1])
            for h in range(cut.groups[position]):
                other = cut.first[position][h]  # a kind: selecting keeps the kinds apart
                rpns = attack.by_rpn[pile2][other]
                if sum(1 for cards in rpns if cards) == 1:  # one RPN in the kind: nothing to see
                    rpn = next(r for r, cards in enumerate(rpns) if cards)
                    ways.append((rpn, h, 1, denominator * size2, pile2, seen2))
                    continue
                below = attack.counts[pile2][other] - sum(1 for k, _ in seen2 if k == other)
                for rpn, cards in enumerate(rpns):
                    ahead = cards - seen2.count((other, rpn))
                    if ahead > 0:
                        shown = tuple(sorted((*seen2, (other, rpn))))
                        ways.append((rpn, h, ahead, denominator * size2 * below, pile2, shown))
        found: list[_Branch] = []
        for chosen, h, factor, below, pile2, shown in ways:
            move = attack.outcome(position, kind, chosen, mode.ffs, mode.smoke, mode.weapons)
            if move is None:
                found.append((h, factor, below, ENDED_RESULT, attack.ended_step, -1))
                continue
            result, step, level, smoke, weapons = move
            kept = shown if attack.can_select(weapons) else ()
            after = self.mode_id(_Mode(RUNNING, level, smoke, weapons, pile2, kept, below))
            found.append((h, factor, below, result, step, after))
        self._malfunction[key] = found
        return found

    def step(  # noqa: PLR0912, PLR0915 - one man's draw from every pool state
        self, position: int, states: dict[_Key, dict[int, int]]
    ) -> tuple[dict[_Key, dict[int, int]], dict[int, list[int]]]:
        """Every pool state's draw for man ``position``: the states after, and the man's
        results' weights by denominator."""
        attack = self.attack
        after: dict[_Key, dict[int, int]] = {}
        marginal: dict[int, list[int]] = {}
        refills: dict[int, tuple[int, ...]] = {}

        def into(  # noqa: PLR0917 - one draw's tallies into the state after
            key: _Key,
            tallies: dict[int, int],
            step: int,
            factor: int,
            result: int,
            total: int,
            denominator: int,
        ) -> None:
            target = after.get(key)
            self.work.count(len(tallies) + PAGE6_DRAW_COST)
            if target is None:
                after[key] = {code + step: weight * factor for code, weight in tallies.items()}
            else:
                for code, weight in tallies.items():
                    moved = code + step
                    target[moved] = target.get(moved, 0) + weight * factor
            row = marginal.get(denominator)
            if row is None:
                row = marginal[denominator] = [0] * len(MAN_RESULTS)
            row[result] += total * factor

        for (counts, mid), tallies in states.items():
            self.work.settle()  # the web's work budget, as work is done
            mode, cut = self.mode_list[mid], self.mode_cut[mid]
            total = sum(tallies.values())
            if mode.status != RUNNING:
                result = ENDED_RESULT if mode.status == ENDED else NO_EFFECT
                into(((), mid), tallies, 0, 1, result, total, mode.denominator)
                continue
            refill = refills.get(id(cut))
            if refill is None:
                refill = refills[id(cut)] = cut.grouped(attack.counts[1], position)
            pile, fresh = counts, not sum(counts)
            if fresh:
                if not self.refill:  # the pile ran out: the men not yet resolved unaffected
                    key = ((), self.stopped(EXHAUSTED, mode.denominator))
                    into(key, tallies, 0, 1, NO_EFFECT, total, mode.denominator)
                    continue
                pile = refill
            size = sum(pile)
            denominator = mode.denominator * size
            bases: dict[int, list[int]] = {}  # the pile in each cut after (drawn cards aside)
            for g, count in enumerate(pile):
                if not count:
                    continue
                left = (*pile[:g], count - 1, *pile[g + 1 :])
                plain = self.plain(position, mid, g, fresh, denominator)
                if plain is not None:
                    result, step, mid2 = plain
                    into(
                        (cut.drawn(pile, left, (g,), position, self.mode_cut[mid2], bases), mid2),
                        tallies,
                        step,
                        count,
                        result,
                        total,
                        denominator,
                    )
                    continue
                ways = self.malfunction(position, mid, g, fresh, size)
                if ways is None:  # no selection card: this man and the rest unaffected
                    key = ((), self.stopped(EXHAUSTED, denominator))
                    into(key, tallies, 0, count, NO_EFFECT, total, denominator)
                    continue
                for h, ahead, below, result, step, after_id in ways:
                    factor = ahead
                    if after_id < 0:  # page 6 ended the attack
                        key = ((), self.stopped(ENDED, below))
                        into(key, tallies, step, count * factor, result, total, below)
                        continue
                    into_cut = self.mode_cut[after_id]
                    if h < 0:
                        rest = cut.drawn(pile, left, (g,), position, into_cut, bases)
                    elif size > 1:  # a selection card of group h drawn after the malfunction card
                        if not left[h]:
                            continue
                        factor *= left[h]
                        rest = (*left[:h], left[h] - 1, *left[h + 1 :])
                        rest = cut.drawn(pile, rest, (g, h), position, into_cut, bases)
                    else:  # ... from a reshuffle
                        if not refill[h]:
                            continue
                        factor *= refill[h]
                        rest = (*refill[:h], refill[h] - 1, *refill[h + 1 :])
                        rest = cut.recut(rest, position, into_cut)
                    into(
                        (rest, after_id),
                        tallies,
                        step,
                        count * factor,
                        result,
                        total,
                        below,
                    )
        return after, marginal


Kinds = Literal["auto", "latent", "split"]
"""How the page 6 walk reads a selection card's RPN: within the kinds (latent), from kinds
split by it (split), or whichever the estimate finds cheaper (auto)."""


def _draws_estimate(attack: _Attack, men: int) -> float:
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


def page6_group_odds(  # noqa: PLR0917 - page 3's group and page 6's firers
    inp: Readings,
    ffs: int,
    rr: int,
    group: Sequence[Target],
    firers: Sequence[Firer],
    played: tuple[int, ...] = (),
    kinds: Kinds = "auto",
) -> GroupOdds:
    """Exact odds of :func:`resolve_group_page6` (same rule, same order): the men walked over
    pool states, equal states merged after every man.

    A pool state is the count of each card group left (a group: the kinds the men still to
    resolve read alike) and its :class:`_Mode`; under it, its tallies as integer codes (one
    digit per loss kind) with integer weights over the mode's denominator (each card drawn
    from a pile of n cards counts 1 of n). A selection card's RPN is read without splitting
    the kinds by it: within a kind the cards are alike to everything the walk reads but the
    selection RPN, and the men's own draws never read it, so the next card of a kind has
    each RPN in proportion to the kind's cards of that RPN not yet seen on a selection card
    (``_Mode.seen``; exchangeability of the cards within a kind). That keeps the kinds apart
    to the last man, though; ``kinds = "split"`` splits them by the selection RPN instead and
    cuts them as men are resolved, and ``"auto"`` walks whichever of the two
    :func:`_draws_estimate` finds cheaper (the same odds either way)."""
    reads: dict[int, tuple[tuple[int, ...], ...]] = {}
    attack = _attack(inp, ffs, rr, group, firers, played, kinds == "split", reads)
    if kinds == "auto" and attack.selecting:
        split = _attack(inp, ffs, rr, group, firers, played, True, reads)
        if _draws_estimate(split, len(group)) < _draws_estimate(attack, len(group)):
            attack = split
    n = len(group)
    walk = _Walk(attack, inp, n)
    start = _Mode(RUNNING, ffs, bool(inp.smoke), tuple(OK for _ in firers))
    first = walk.mode_id(start)
    states: dict[_Key, dict[int, int]] = {
        (walk.mode_cut[first].grouped(attack.counts[0], 0), first): {0: 1}
    }
    per_man: list[dict[int, list[int]]] = []
    seen_states = 1
    for position in range(n):
        spend(1)  # each man's draw; the walk pays its tally updates as it makes them
        states, marginal = walk.step(position, states)
        per_man.append(marginal)
        pairs = sum(len(t) for t in states.values())
        if pairs > MAX_PAIRS:
            msg = gettext(
                "exact odds with malfunction = page6 need more than {pairs} (pool state, "
                "tally) pairs after man {position} of {men}: resolve with --seed or --draw, "
                "or take odds with malfunction = end_attack or continue"
            ).format(pairs=f"{MAX_PAIRS:,}", position=position + 1, men=n)
            raise RuleError(msg)
        seen_states += pairs
    return _finish(states, walk.mode_list, n, group, per_man, seen_states)


def _finish(  # noqa: PLR0917 - the walk's last states and what it gathered
    states: dict[tuple[tuple[int, ...], int], dict[int, int]],
    modes: Sequence[_Mode],
    men: int,
    group: Sequence[Target],
    per_man: Sequence[dict[int, list[int]]],
    seen_states: int,
) -> GroupOdds:
    """The group's tally and each man's odds: weights over their modes' denominators, each
    tally code decoded into a :class:`Tally`; they must add up to 1."""
    radix = men + 1
    by_code: dict[tuple[int, int], int] = {}
    for (_, mid), tallies in states.items():
        below = modes[mid].denominator
        for code, weight in tallies.items():
            by_code[code, below] = by_code.get((code, below), 0) + weight
    weights = ((code, Fraction(weight, below)) for (code, below), weight in by_code.items())
    tally = tally_odds(weights, radix, 1, "page 6")
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
