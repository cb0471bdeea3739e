"""Exact odds of page 8's infiltration attempts (:mod:`.infiltration`) over the cards still
unseen: draws as state, the morale checks and the RPNCs counted apart.

The rule draws, for each infiltrator in turn, a morale check RNC (read: RN at most his
morale), then if he passes an RPNC (read: the colour of the RPN under the count's column) and,
for the first black RPN while a Hero is in play, a second RPNC. Walked card by card, man by
man (the walk this module replaced), a state must hold how many cards of each class (RN band
by every morale still to check, times colour) are left: with ten men of distinct morale, up to
16 classes and 21 draws, and the states grow past millions (2.4 s for 3 men, more than a
minute for 4).

Without replacement, the chance of a run of reads (this card's RN at most 3, the next one's
RPN red, ...) is the number of sequences of distinct cards that satisfy them over the number
of sequences of that many cards, and the first number does not depend on the order of the
reads. So the draws are counted in another order, giving the same odds:

1. **the morale checks first**, the men sorted by morale, so that once a man has checked, the
   RN bands only lower morale told apart merge: a state is the count left of each (RN band
   still told apart, colour) class and how many men passed (:func:`_morale_counts`);
2. **then the RPNCs** of the men who passed, in their order (the Hero's retry on the first
   black): they read colour only, so they depend on the morale cards only through how many
   red and black cards those left; each run of colours is counted once, by its numbers of red
   and black draws (:func:`_colour_runs`).

Only where the pile runs out does order matter: the reads before it come from this pile, the
rest from the reshuffle (or the attack ends). So the reads of one pile are split by *where it
runs out*: after man k's attempt, after his morale check, or after his first black RPN with
the Hero in play (he retries from the new pile); each split counts, as above, the reads that
make exactly as many draws as the pile holds, and the rest of the attempt is the same walk on
the reshuffled pile. Every weight is an exact integer (sequences of distinct cards), over the
falling factorial of the pile for the cards drawn from it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache

from firefight.rulesets.upfront.cuts import cut_apart, grouped
from firefight.rulesets.upfront.walk import Moves

__all__ = ["RESULTS", "STEPS_PER_MOVE", "Atom", "Infiltration", "walk"]

RESULTS = ("infiltrated", "pinned (morale check)", "pinned", "not attempted")
"""A man's results, in the order of a tally's counts."""
_MORALE, _RPNC, _RETRY = range(3)
"""Where a man stands: his morale check next, his RPNC next, the Hero's retry next."""

STEPS_PER_MOVE = 8
"""How many moves of this walk pay for one step of the web's work budget
(:func:`firefight.chance.spend`). A move is one (state, card class) pair of the morale checks,
one (morale result, colour run) pair counted, one state merged as the bands merge, or one
tally of a reshuffled pile combined: 0.6 to 2.7 us each measured here (ten men of seven morale
classes with a Hero, piles of 1 to 162 cards, the machine shared), so 8 of them (5 to 22 us)
are at most one step of :func:`~firefight.chance.exact` (a replayed run, about 21 us)."""

Tally = tuple[int, int, int, int]
"""How many men infiltrated, were pinned by the morale check, pinned, not attempted."""
Atom = tuple[int, bool]
"""A card class as the walk reads it: an RN (any RN of the class: no morale tells them apart)
and whether the RPN under the count's column is red."""
_Entry = tuple[int, int, bool]
"""Where the attempts stand when a pile is drawn from: the man, his phase, the Hero in play."""


def _falling(n: int, k: int) -> int:
    """n (n - 1) ... (n - k + 1): the ordered draws of k distinct cards out of n (0 past n)."""
    out = 1
    for i in range(k):
        out *= n - i
    return out


def _plus(a: Tally, b: Tally) -> Tally:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3])


@dataclass(frozen=True)
class Infiltration:
    """One infiltration attempt as the walk sees it: each man's morale threshold in order
    (passes on an RN at most it; None: no morale check), whether a Hero is in play, the card
    classes (:data:`Atom`) with their counts in the pile and in a reshuffle, and whether a pile
    run out ends the attack (reshuffle = end_attack, or nothing to reshuffle)."""

    thresholds: tuple[int | None, ...]
    hero: bool
    atoms: tuple[Atom, ...]
    start: tuple[int, ...]
    refill: tuple[int, ...]
    end_attack: bool
    moves: Moves = field(default_factory=lambda: Moves(STEPS_PER_MOVE), compare=False, hash=False)

    @property
    def men(self) -> int:
        return len(self.thresholds)

    def first_phase(self, man: int) -> int:
        """Where man ``man`` begins: his morale check, or his RPNC if he checks none."""
        return _MORALE if self.thresholds[man] is not None else _RPNC


@dataclass(frozen=True)
class _Split:
    """The reads of one pile up to where it runs out (or to the end of the attempts): the men
    whose morale checks are free (passed or not) and forced (passed: the pile ran out after
    it), the RPNC attempts before the split (the Hero's rule applies in turn), whether the
    split falls on a black RPN with the Hero in play, and where the attempts stand after."""

    free: tuple[int, ...]
    forced: tuple[int, ...]
    attempts_ahead: int
    unchecked: int
    black: bool
    after: _Entry | None  # None: every man has drawn


def _morale_counts(
    atoms: Sequence[Atom],
    counts: Sequence[int],
    free: Sequence[int],
    forced: Sequence[int],
    moves: Moves,
) -> dict[tuple[int, int, int], int]:
    """One morale check card drawn for each man of thresholds ``free`` (passes on RN at most
    it, or not) and ``forced`` (passed) from a pile of ``counts`` (over ``atoms``): for each
    (free men passed, red cards left, black cards left), the number of sequences of distinct
    cards. The men are taken by threshold, lowest first; once a man has checked, the RN bands
    only lower thresholds told apart are merged."""
    men = sorted([(t, False) for t in free] + [(t, True) for t in forced])
    states: dict[tuple[tuple[int, ...], int], int] = {}
    groups, cut = _cut(atoms, counts, [t for t, _ in men])
    states[cut, 0] = 1
    for k, (t, passed) in enumerate(men):
        if k and t != men[k - 1][0]:  # merge the bands only lower thresholds told apart
            merged: dict[tuple[tuple[int, ...], int], int] = {}
            new_groups, into = _merger(groups, [u for u, _ in men[k:]])
            moves.add(len(states))
            for (cut, p), w in states.items():
                coarse = [0] * len(new_groups)
                for g, c in enumerate(cut):
                    coarse[into[g]] += c
                key = (tuple(coarse), p)
                merged[key] = merged.get(key, 0) + w
            states, groups = merged, new_groups
        after: dict[tuple[tuple[int, ...], int], int] = {}
        moves.add(len(states) * len(groups))
        for (cut, p), w in states.items():
            for g, (rn, _) in enumerate(groups):
                c = cut[g]
                if not c or (passed and rn > t):
                    continue
                key = ((*cut[:g], c - 1, *cut[g + 1 :]), p + (not passed and rn <= t))
                after[key] = after.get(key, 0) + w * c
        states = after
    out: dict[tuple[int, int, int], int] = {}
    for (cut, p), w in states.items():
        red = sum(c for c, (_, r) in zip(cut, groups, strict=True) if r)
        left = (p, red, sum(cut) - red)
        out[left] = out.get(left, 0) + w
    return out


def _band(rn: int, red: bool, cuts: Sequence[int]) -> tuple[bool, int]:
    """A card's class as morale thresholds ``cuts`` read it: its colour, and how many of
    them its RN exceeds."""
    return red, sum(1 for t in cuts if rn > t)


def _merger(
    atoms: Sequence[Atom], thresholds: Sequence[int]
) -> tuple[tuple[Atom, ...], tuple[int, ...]]:
    """The classes of ``atoms`` that ``thresholds`` tell apart, and each atom's class."""
    cuts = sorted(set(thresholds))
    ids, _, first = cut_apart(_band(rn, red, cuts) for rn, red in atoms)
    return tuple(atoms[k] for k in first), ids


def _cut(
    atoms: Sequence[Atom], counts: Sequence[int], thresholds: Sequence[int]
) -> tuple[tuple[Atom, ...], tuple[int, ...]]:
    """The classes of ``atoms`` that ``thresholds`` tell apart (RN band and colour), with
    ``counts`` summed into them."""
    cuts = sorted(set(thresholds))
    ids, groups, first = cut_apart(_band(rn, red, cuts) for rn, red in atoms)
    return tuple(atoms[k] for k in first), grouped(counts, ids, groups)


@cache
def _colour_runs(attempts: int, hero: bool) -> dict[tuple[int, int, int, bool], int]:
    """``attempts`` RPNCs in turn, the first black one retried while ``hero``: for each (red
    draws, black draws, men pinned, Hero still in play) the number of runs of colours."""
    runs: dict[tuple[int, int, bool], int] = {(0, 0, hero): 1}
    for _ in range(attempts):
        after: dict[tuple[int, int, bool], int] = {}
        for (reds, blacks, h), n in runs.items():
            blacked = (
                ((reds + 1, blacks + 1, False), (reds, blacks + 2, False))  # the Hero's retry
                if h
                else ((reds, blacks + 1, h),)
            )
            for key in ((reds + 1, blacks, h), *blacked):
                after[key] = after.get(key, 0) + n
        runs = after
    out: dict[tuple[int, int, int, bool], int] = {}
    for (reds, blacks, h), n in runs.items():
        key = (reds, blacks, blacks - (1 if hero and not h else 0), h)
        out[key] = out.get(key, 0) + n
    return out


class _Walk:
    """The walk over one :class:`Infiltration`, with its memo tables."""

    def __init__(self, attempt: Infiltration) -> None:
        self.a = attempt
        self._refilled: dict[_Entry, dict[Tally, Fraction]] = {}
        self._morale: dict[
            tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]],
            dict[tuple[int, int, int], int],
        ] = {}

    def morale(
        self, counts: tuple[int, ...], free: tuple[int, ...], forced: tuple[int, ...]
    ) -> dict[tuple[int, int, int], int]:
        key = (counts, tuple(sorted(free)), tuple(sorted(forced)))
        found = self._morale.get(key)
        if found is None:
            found = _morale_counts(self.a.atoms, counts, free, forced, self.a.moves)
            self._morale[key] = found
        return found

    def splits(self, entry: _Entry) -> list[_Split]:
        """Every place a pile drawn from at ``entry`` may run out, and the end of the
        attempts, each as the reads it takes."""
        a = self.a
        pos, phase, hero = entry
        out = []
        for k in range(pos, a.men + 1):
            whole = range(pos, k)  # men whose attempts are drawn in full from this pile
            free = tuple(
                t
                for i in whole
                if (t := a.thresholds[i]) is not None and (i > pos or phase == _MORALE)
            )
            ahead = 1 if k > pos and phase != _MORALE else 0
            unchecked = sum(1 for i in whole if a.thresholds[i] is None and i > pos)
            if k == a.men:
                out.append(_Split(free, (), ahead, unchecked, False, None))
                continue
            t = a.thresholds[k]
            own = k > pos or phase == _MORALE  # man k's own morale check is on this pile
            begin = a.first_phase(k) if k > pos else phase
            out.append(_Split(free, (), ahead, unchecked, False, (k, begin, hero)))
            if t is not None and own:
                out.append(_Split(free, (t,), ahead, unchecked, False, (k, _RPNC, hero)))
            if hero and (k > pos or phase != _RETRY):
                forced = (t,) if t is not None and own else ()
                out.append(_Split(free, forced, ahead, unchecked, True, (k, _RETRY, False)))
        return out

    def solve(self, counts: tuple[int, ...], entry: _Entry) -> dict[Tally, Fraction]:
        """The odds of the tallies of the attempts from ``entry`` on, drawing from a fresh
        pile of ``counts`` (over the attempt's atoms)."""
        a = self.a
        size = sum(counts)
        hero = entry[2]
        odds: dict[Tally, Fraction] = {}
        for split in self.splits(entry):
            drawn_least = len(split.free) + len(split.forced) + split.black
            colours_most = split.attempts_ahead + len(split.free) + split.unchecked + hero
            if drawn_least > size or (split.after and drawn_least + colours_most < size):
                continue  # more cards than the pile holds, or too few to empty it
            empties = split.after is not None  # the pile runs out: every card drawn
            passed = self.morale(counts, split.free, split.forced)
            by_end: dict[tuple[Tally, int, bool], int] = {}
            for (p, red_left, black_left), ways in passed.items():
                runs = _colour_runs(split.attempts_ahead + p + split.unchecked, hero)
                a.moves.add(len(runs))
                for (reds, blacks, pinned, h), many in runs.items():
                    if split.black and not h:
                        continue  # the split's black RPN needs the Hero still in play
                    drawn = drawn_least + reds + blacks
                    if drawn > size or (empties and drawn != size):
                        continue
                    weight = (
                        ways
                        * many
                        * _falling(red_left, reds)
                        * _falling(black_left, blacks + split.black)
                    )
                    if weight:
                        tally = (reds, len(split.free) - p, pinned, 0)
                        key = (tally, drawn, h and not split.black)
                        by_end[key] = by_end.get(key, 0) + weight
            for (tally, drawn, h), weight in by_end.items():
                chance = Fraction(weight, _falling(size, drawn))
                if split.after is None:
                    odds[tally] = odds.get(tally, Fraction(0)) + chance
                    continue
                k, phase, _ = split.after
                rest = self.rest((k, phase, h))
                a.moves.add(len(rest))
                for more, p2 in rest.items():
                    t2 = _plus(tally, more)
                    odds[t2] = odds.get(t2, Fraction(0)) + chance * p2
        return {t: p for t, p in odds.items() if p}

    def rest(self, entry: _Entry) -> dict[Tally, Fraction]:
        """The tallies of the attempts from ``entry`` on once the pile has run out: the men
        left not attempted (the attack ends), or drawn from the reshuffled pile."""
        a = self.a
        if a.end_attack:
            return {(0, 0, 0, a.men - entry[0]): Fraction(1)}
        found = self._refilled.get(entry)
        if found is None:
            found = self._refilled[entry] = self.solve(a.refill, entry)
        return found


def walk(attempt: Infiltration) -> dict[Tally, Fraction]:
    """The exact odds of the tally (infiltrated, pinned by the morale check, pinned, not
    attempted) of ``attempt``; they add up to 1."""
    if not attempt.men:
        return {(0, 0, 0, 0): Fraction(1)}
    entry = (0, attempt.first_phase(0), attempt.hero)
    return _Walk(attempt).solve(attempt.start, entry)
