"""One man's draw from every pool state of the page 6 walk (:mod:`.malfunction_walk`): the
states' modes (FFS, smoke, weapons, pile), each draw memoized per mode and card group, a
malfunction card through page 6 (whose weapon: a selection card), paid to the web's work
budget as the tallies move.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field

from firefight.rulesets.upfront.cuts import Cut
from firefight.rulesets.upfront.malfunction import outcome_for
from firefight.rulesets.upfront.malfunction_kinds import (
    ENDED,
    EXHAUSTED,
    RUNNING,
    Attack,
    Mode,
    weapon_state,
)
from firefight.rulesets.upfront.resolution import MAN_RESULTS, Readings
from firefight.rulesets.upfront.walk import ENDED_RESULT, NO_EFFECT, Moves

__all__ = ["PAGE6_DRAW_COST", "PAGE6_MOVE_COST", "PAGE6_UPDATES_PER_STEP", "Key", "PoolWalk"]

PAGE6_DRAW_COST = 16
"""What one draw into a pool state costs the page 6 walk besides its tally updates, counted
in tally updates: measured 1.5 us a draw (3.9 us where selection cards branch it) against
0.21 us a tally update (fit over four walks, next constant)."""
PAGE6_MOVE_COST = 25
"""What one move of the compiled step (:mod:`.malfunction_level`: a mode's draw of one card
group, or one way of page 6 on it, worked out in Python with the modes it reaches) costs,
counted in tally updates: measured 4 to 7 us a move."""
PAGE6_UPDATES_PER_STEP = 100
"""How many tally updates of the page 6 walk (a tally of a pool state moved by one draw; a
draw counted as :data:`PAGE6_DRAW_COST` more) pay for one step of the web's work budget
(:func:`firefight.chance.spend`), paid as they are made, so that a step costs about the 21 us
of one step of :func:`~firefight.chance.exact`: measured 13 to 23 us a step (fire by a rifle
and a BAR on the ten illustrative men, 0.70 s, 55,000 steps; by an LMG, a rifle and an MP on
three men with smoke, 1.38 s, 59,000 steps), so the 100,000-step budget stops a walk after
about 1.3 to 2.3 s."""

Key = tuple[tuple[int, ...], int]
"""A pool state: its counts (one per card group of the man about to draw) and mode id."""
_Plain = tuple[int, int, int]
"""A draw that malfunctions nothing, as the walk caches it: result, tally step, mode after."""
_Branch = tuple[int, int, int, int, int, int]
"""One way page 6 goes on a malfunction card: the selection card's group (-1: none), the
factor (that group's cards of the selection RPN not yet seen on a selection card), the
denominator after, the man's result, the tally step and the mode after (-1: the attack
ended)."""


@dataclass(slots=True)
class _Into:
    """The states after one man's draw and his results' weights by denominator, as each
    draw's tallies are moved into their state after; ``work``: the tally updates made and
    not yet counted to the walk's :class:`.walk.Moves`."""

    after: dict[Key, dict[int, int]] = field(default_factory=dict)
    marginal: dict[int, list[int]] = field(default_factory=dict)
    work: int = 0

    def add(  # noqa: PLR0917 - one draw's tallies into the state after
        self,
        key: Key,
        tallies: dict[int, int],
        step: int,
        factor: int,
        result: int,
        total: int,
        denominator: int,
    ) -> None:
        """Move ``tallies`` by ``step``, times ``factor``, into the state ``key``; count the
        man's ``result`` over ``denominator``."""
        target = self.after.get(key)
        self.work += len(tallies) + PAGE6_DRAW_COST
        if target is None:
            self.after[key] = {code + step: weight * factor for code, weight in tallies.items()}
        else:
            for code, weight in tallies.items():
                moved = code + step
                target[moved] = target.get(moved, 0) + weight * factor
        row = self.marginal.get(denominator)
        if row is None:
            row = self.marginal[denominator] = [0] * len(MAN_RESULTS)
        row[result] += total * factor


@dataclass(slots=True)
class _Draw:
    """One pool state's draw: the man, the cut its counts are in, its pile (the reshuffle
    when it ran out) and its size, the reshuffle, its tallies and their total, the pile in
    each cut after (:meth:`.cuts.Cut.drawn`)."""

    position: int
    cut: Cut
    pile: tuple[int, ...]
    size: int
    refill: tuple[int, ...]
    tallies: dict[int, int]
    total: int
    bases: dict[int, list[int]]


class PoolWalk:
    """The walk's modes (interned: a mode id per :class:`Mode`) and its draws from one pool
    state, memoized per mode and card group."""

    def __init__(self, attack: Attack, inp: Readings, men: int) -> None:
        self.attack = attack
        self.inp = inp
        self.men = men
        self.checks = inp.attack in ("firepower", "overrun")
        self.refill = inp.reshuffle != "end_attack" and sum(attack.counts[1]) > 0
        self.modes: dict[Mode, int] = {}
        self.mode_list: list[Mode] = []
        self._plain: dict[tuple[int, ...], _Plain | None] = {}
        self._malfunction: dict[tuple[int, ...], list[_Branch] | None] = {}
        self.work = Moves(PAGE6_UPDATES_PER_STEP)
        """Tally updates done, paid before each pool state's draws."""
        self.mode_cut: list[Cut] = []
        self._cuts: dict[tuple[object, ...], Cut] = {}
        self._stopped: dict[tuple[int, int], int] = {}

    def mode_id(self, mode: Mode) -> int:
        """The mode's id, with the cut its pool states' counts are kept in."""
        found = self.modes.get(mode)
        if found is None:
            found = self.modes[mode] = len(self.mode_list)
            self.mode_list.append(mode)
            self.mode_cut.append(self.cut_for(mode))
        return found

    def cut_for(self, mode: Mode) -> Cut:
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
                found.ffs != mode.ffs or weapon_state(found, weapons[chosen]) != weapons[chosen]
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
            after = Mode(RUNNING, level, smoke, weapons, pile, seen, denominator)
            found = (result, step, self.mode_id(after))
        self._plain[key] = found
        return found

    def stopped(self, status: int, denominator: int) -> int:
        """The mode of an attack ended (or a pile run out) with weights over
        ``denominator``."""
        key = (status, denominator)
        found = self._stopped.get(key)
        if found is None:
            found = self._stopped[key] = self.mode_id(Mode(status, denominator=denominator))
        return found

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
            for h, rpns in enumerate(attack.group_rpns(cut, position, pile2)):
                other = cut.first[position][h]  # latent kinds: the group's one kind
                if sum(1 for cards in rpns if cards) == 1:  # the group shows one RPN
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
            after = self.mode_id(Mode(RUNNING, level, smoke, weapons, pile2, kept, below))
            found.append((h, factor, below, result, step, after))
        self._malfunction[key] = found
        return found

    def step(
        self, position: int, states: dict[Key, dict[int, int]]
    ) -> tuple[dict[Key, dict[int, int]], dict[int, list[int]]]:
        """Every pool state's draw for man ``position``: the states after, and the man's
        results' weights by denominator."""
        attack = self.attack
        into = _Into()
        refills: dict[int, tuple[int, ...]] = {}
        for (counts, mid), tallies in states.items():
            self.work.count(into.work)  # the web's work budget, as work is done
            into.work = 0
            self.work.settle()
            mode, cut = self.mode_list[mid], self.mode_cut[mid]
            total = sum(tallies.values())
            if mode.status != RUNNING:
                result = ENDED_RESULT if mode.status == ENDED else NO_EFFECT
                into.add(((), mid), tallies, 0, 1, result, total, mode.denominator)
                continue
            refill = refills.get(id(cut))
            if refill is None:
                refill = refills[id(cut)] = cut.grouped(attack.counts[1], position)
            pile, fresh = counts, not sum(counts)
            if fresh:
                if not self.refill:  # the pile ran out: the men not yet resolved unaffected
                    key = ((), self.stopped(EXHAUSTED, mode.denominator))
                    into.add(key, tallies, 0, 1, NO_EFFECT, total, mode.denominator)
                    continue
                pile = refill
            size = sum(pile)
            denominator = mode.denominator * size
            bases: dict[int, list[int]] = {}  # the pile in each cut after (drawn cards aside)
            draw = _Draw(position, cut, pile, size, refill, tallies, total, bases)
            for g, count in enumerate(pile):
                if not count:
                    continue
                left = (*pile[:g], count - 1, *pile[g + 1 :])
                plain = self.plain(position, mid, g, fresh, denominator)
                if plain is not None:
                    result, step, mid2 = plain
                    rest = cut.drawn(pile, left, (g,), position, self.mode_cut[mid2], bases)
                    into.add((rest, mid2), tallies, step, count, result, total, denominator)
                    continue
                ways = self.malfunction(position, mid, g, fresh, size)
                if ways is None:  # no selection card: this man and the rest unaffected
                    key = ((), self.stopped(EXHAUSTED, denominator))
                    into.add(key, tallies, 0, count, NO_EFFECT, total, denominator)
                    continue
                self.page6(into, draw, g, left, ways)
        self.work.count(into.work)
        return into.after, into.marginal

    def page6(
        self, into: _Into, draw: _Draw, g: int, left: tuple[int, ...], ways: list[_Branch]
    ) -> None:
        """A malfunction card of group ``g`` (``left``: the pile after it) through page 6's
        ``ways``: each into its state after, a selection card drawn from the pile left or,
        when it ran out, from a reshuffle."""
        count, pile, refill = draw.pile[g], draw.pile, draw.refill
        for h, ahead, below, result, step, after_id in ways:
            factor = ahead
            if after_id < 0:  # page 6 ended the attack
                key = ((), self.stopped(ENDED, below))
                into.add(key, draw.tallies, step, count * factor, result, draw.total, below)
                continue
            into_cut = self.mode_cut[after_id]
            if h < 0:
                rest = draw.cut.drawn(pile, left, (g,), draw.position, into_cut, draw.bases)
            elif draw.size > 1:  # a selection card of group h drawn after the malfunction card
                if not left[h]:
                    continue
                factor *= left[h]
                rest = (*left[:h], left[h] - 1, *left[h + 1 :])
                rest = draw.cut.drawn(pile, rest, (g, h), draw.position, into_cut, draw.bases)
            else:  # ... from a reshuffle
                if not refill[h]:
                    continue
                factor *= refill[h]
                rest = (*refill[:h], refill[h] - 1, *refill[h + 1 :])
                rest = draw.cut.recut(rest, draw.position, into_cut)
            into.add(
                (rest, after_id), draw.tallies, step, count * factor, result, draw.total, below
            )
