"""Page 7's exact odds as a walk over pool states, each card drawn one compiled step
(:func:`.kernel.advance`, the page 3 walk's own step).

The overrun draws, in order (Up Front flow charts, page 7): the Fire Strength RNC, then for
each man his page 3 resolution card, on which the adverse effects are read, and, when an
unpinned man with a TMM drew a red RN, a new card for the TMM. The walk follows those draws:

* The FS card is the first card: its RN gives the FFS, and every FFS is a walk of its own
  (:func:`walk`), starting from the pools its FS cards leave (weighted by how many there are).
* Each man's card is one step from every pool state, as page 3's walk takes it: a malfunction
  that ends the attack (with what the man then does to the AFV by the adverse effects read on
  the same card), the man's page 3 result, BREEZE clearing smoke; and here also the
  adverse effects (Red 6, Red 5 OT, the heroic variants), which end the attack with the AFV KIA
  or immobilized, and whether the man's TMM card follows (a *pending* mark on the tally).
* After a man with a TMM, the tallies marked pending draw the TMM card (one more step: its
  RPN colour under 2b/4c/5o, then column 0r's band), the others draw nothing; the two are
  merged into one set of states again before the next man.

Draws are therefore not the same in number on every path, so a weight here is the number of
ordered card sequences that lead to a (state, tally), and a path that drew ``K`` cards has
the chance ``weight / D(K)``, ``D(K)`` the product of the pool sizes of its ``K`` draws (the
pool's size at each draw is the same on every path: one card fewer each draw, the refill's
size after a reshuffle). The tally counts the TMM cards drawn (a digit of its code), so a
path's ``K`` is known wherever it ends; what an attack that ended leaves is gathered at once,
scaled to the common denominator ``D`` of the longest path. Weights are exact in the
kernel's lanes (:func:`.kernel.lanes_for`, widened once by :func:`.kernel.widen`), rebuilt by
:func:`.kernel.combine` and checked to add up to that denominator.

As page 3's walk does, a *card group* is the card kinds that every draw still to come reads
alike (:func:`.overrun_draws.cuts`): the current man's result (with or without smoke,
whichever is in play), the later men's (both ways while smoke is in play), the malfunction
while it can end the attack (and the adverse effects read with it), BREEZE while smoke is in
play and a later man would see it cleared, the TMM card's result while a man with a TMM is
still to come; equal states merge after every draw.

The walk pays the web's work budget for each FFS's walk, each draw, what its compiled step
made, each split and each merge, before it does the work on them (:mod:`.overrun_budget`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from math import prod

import numpy as np
import numpy.typing as npt

from firefight.errors import InputError
from firefight.rulesets.upfront import kernel, levels
from firefight.rulesets.upfront.cuts import Groups as Cut
from firefight.rulesets.upfront.draws import Move, draw_tables, with_next_tally
from firefight.rulesets.upfront.overrun_budget import (
    OVERRUN_DRAWS_PER_STEP,
    charge_draw,
    charge_made,
    charge_merge,
    charge_split,
    charge_walks,
)
from firefight.rulesets.upfront.overrun_draws import (
    AFV_RESULTS,
    AHEAD,
    MAN,
    MAN_AHEAD,
    TMM,
    TMM_AHEAD,
    Attack,
    Point,
    Reading,
    TallyCode,
    WalkOdds,
    cuts,
    draw_points,
    men_before,
)
from firefight.rulesets.upfront.walk import NO_EFFECT, Gathered, checked, pool_sizes
from firefight.translation import gettext, thousands

__all__ = [
    "MAX_CELLS",
    "MAX_PAIRS",
    "OVERRUN_DRAWS_PER_STEP",
    "ahead",
    "man_ahead",
    "walk",
]

MAX_CELLS = 200_000_000
"""The most (pool states x card groups^2) one draw of the walk may hold: the compiled step's
memory (about 4 bytes each, so 0.8 GB); beyond, a one-line refusal."""
MAX_PAIRS = 30_000_000
"""The most (pool state, tally) pairs one draw may hold (about 0.1 GB each 2 million)."""

Ints = npt.NDArray[np.int64]
Words = npt.NDArray[np.uint64]

AHEAD_FROM = 2
"""The first man whose TMM card may be drawn ahead (:func:`ahead`)."""


def _first_level(  # noqa: PLR0917 - the walk's first level's parts
    attack: Attack,
    counts: Sequence[int],
    ffs_classes: Sequence[int],
    cut: Cut,
    phase: int,
    width: int,
) -> kernel.Level:
    """The states the FS cards of one FFS leave (one per pool after the card, merged by card
    group), each of weight the number of such cards."""
    merged: dict[tuple[int, ...], int] = {}
    ids = cut[0]
    for drawn in ffs_classes:
        row = [0] * width
        for index, count in enumerate(counts):
            kind = attack.kind_of_class[index]
            if kind >= 0:
                row[ids[kind]] += count - (index == drawn)
        key = tuple(row)
        merged[key] = merged.get(key, 0) + counts[drawn]
    rows = list(merged)
    return kernel.Level(
        np.array(rows, np.int32).reshape(len(rows), width),
        np.full(len(rows), phase, np.int8),
        np.full(len(rows), cut[1], np.int32),
        np.arange(len(rows) + 1, dtype=np.int64),
        np.zeros(len(rows), np.int64),
        np.array([merged[r] for r in rows], np.uint64).reshape(len(rows), 1),
    )


def _tables(  # noqa: PLR0917 - one draw's tables for the compiled step
    attack: Attack,
    parts: dict[tuple[Point, int], Cut],
    point: Point,
    after_point: Point,
    code: TallyCode,
    width: int,
    played: dict[int, int],
) -> tuple[kernel.Tables, list[tuple[int, int]]]:
    """What drawing each card group at ``point`` does (for :func:`.kernel.advance`), and for
    each move's result column what it adds to a tally code and which man's TMM card drawn
    ahead it then reads (-1: none). At the last man's card drawn ahead, what it will add in
    his turn is numbered in ``played``, the number in place of the man; at his TMM card, the
    TMM result (:func:`_ahead_tally`)."""
    what, man = point
    columns: dict[tuple[int, int], int] = {}

    def move(phase: int, first: int) -> Move:
        reading = attack.readings[first]
        ended, after, reads = False, phase, -1
        if what == MAN_AHEAD:  # the last man's card drawn ahead: what it will do, kept
            step, pending = _man_step(reading, code.man_ahead, phase, code)
            add = code.drawn + (code.pending if pending else 0)
            reads = played.setdefault(step, len(played))
        elif what == TMM_AHEAD:  # his TMM card, where his card draws it: what it will do
            add, reads = code.drawn - code.pending, reading.tmm
        elif what == AHEAD:  # a TMM card drawn ahead: its result kept in the tally
            add = code.drawn + reading.tmm * code.tmm(man)
        elif what == TMM:  # the TMM card: its colour, then its band
            ended = reading.tmm != 0
            add = code.drawn - code.pending + reading.tmm * code.afv
        elif reading.ends:  # page 3: a malfunction ends the attack; page 7's adverse effects
            ended, add = True, code.ended() + reading.ended[man] * code.afv
        else:
            index, hit, pending = reading.men[man][0 if phase == kernel.SMOKE else 1]
            ended = hit != 0
            add = code.result(index) + hit * code.afv
            if pending and man in code.ahead:
                reads = man
            elif pending:
                add += code.pending
            if reading.breeze:
                after = kernel.CLEAR
        return ended, columns.setdefault((add, reads), len(columns)), after

    phases = (kernel.CLEAR, kernel.SMOKE) if attack.smoke else (kernel.CLEAR,)
    blank = draw_tables(
        width,
        phases,
        lambda phase: parts[point, phase],
        lambda phase: parts[after_point, phase],
        move,
    )
    return blank, list(columns)  # next_tally set per level by _next_tally


def _man_step(reading: Reading, man: int, phase: int, code: TallyCode) -> tuple[int, bool]:
    """What man ``man``'s card adds to a tally code in his turn (page 3's malfunction ending
    the attack with the adverse effects, else his result and a hit on the AFV), and whether
    his TMM card follows."""
    if reading.ends:
        return code.ended() + reading.ended[man] * code.afv, False
    index, hit, pending = reading.men[man][0 if phase == kernel.SMOKE else 1]
    return code.result(index) + hit * code.afv, pending


def _next_tally(
    tables: kernel.Tables, codes: Ints, columns: Sequence[tuple[int, int]], code: TallyCode
) -> tuple[kernel.Tables, Ints]:
    """``tables`` with the tally after each (tally, result column), the last column leaving
    the tally as it is, and the codes after. A column that reads a TMM card drawn ahead adds
    its result (the AFV's) and finishes the attack where it hit."""
    steps = np.array([*(add for add, _ in columns), 0], np.int64)
    stepped = codes[:, None] + steps[None, :]
    for column, (_, man) in enumerate(columns):
        if man >= 0:
            hit = codes // code.tmm(man) % len(AFV_RESULTS)
            stepped[:, column] += np.where(hit > 0, hit * code.afv + code.finished, 0)
    return with_next_tally(tables, stepped)


def _ahead_tally(  # noqa: PLR0917 - the last man's card drawn ahead, on each tally
    point: int,
    tables: kernel.Tables,
    codes: Ints,
    columns: Sequence[tuple[int, int]],
    code: TallyCode,
    played: dict[int, int],
    turns: dict[int, int],
) -> tuple[kernel.Tables, Ints]:
    """``tables`` with the tally after each (tally, column) where the last man's own card
    (``point``: MAN_AHEAD) or his TMM card (TMM_AHEAD) is drawn ahead: what his turn will
    add, numbered in ``turns`` and kept as the highest digit (with a TMM card, its hit on the
    AFV added), so that cards alike in what they will do merge."""
    place = code.man_place
    values = np.zeros(max(len(turns), 1), np.int64)
    for value, number in turns.items():
        values[number] = value
    steps = {number: step for step, number in played.items()}
    digit = codes // place
    stepped = np.empty((len(codes), len(columns) + 1), np.int64)
    stepped[:, -1] = codes
    for column, (add, read) in enumerate(columns):
        if point == MAN_AHEAD:
            turn: Ints = np.full(len(codes), steps[read], np.int64)
            base = codes
        else:  # the TMM card: a hit on the AFV (its result, read)
            turn = values[digit] + read * code.afv
            base = codes - digit * place
        index = np.array([turns.setdefault(t, len(turns)) for t in turn.tolist()], np.int64)
        stepped[:, column] = base + add + index * place
    return with_next_tally(tables, stepped)


def _refill_rows(attack: Attack, cut: Cut, width: int) -> npt.NDArray[np.int32]:
    row = np.zeros(width, np.int32)
    for index, count in enumerate(attack.refill):
        kind = attack.kind_of_class[index]
        if kind >= 0 and count:
            row[cut[0][kind]] += count
    return row


class _Walker:
    """One FFS's walk, its finished paths gathered into ``gathered``."""

    def __init__(
        self,
        attack: Attack,
        gathered: Gathered,
        denominators: Sequence[int],
        code: TallyCode,
        names: str,
    ) -> None:
        self.attack = attack
        self.gathered = gathered
        self.denominators = denominators
        self.code = code
        self.parts = cuts(attack, code.ahead, code.man_ahead)
        self.width = max(cut[1] for cut in self.parts.values())
        self.points = draw_points(attack, code.ahead, code.man_ahead)
        self.played: dict[int, int] = {}
        """What the last man's card drawn ahead does in his turn, numbered."""
        self.turns: dict[int, int] = {}
        """What the last man's turn adds to a code (his card's, the TMM card's), numbered: the
        digit the codes keep until his turn."""
        self.pairs = 0
        self.phases = (kernel.CLEAR, kernel.SMOKE) if attack.smoke else (kernel.CLEAR,)
        self.names = names

    def groups_at(self, point: Point) -> Callable[[int], Cut]:
        """The card groups of the draw at ``point``, by phase."""
        return lambda phase: self.parts[point, phase]

    def finish(self, level: kernel.Level, codes: Ints, men: int, add: int, moduli: Words) -> None:
        """Gather the level's tallies as finished paths (``add`` added to each code) after
        ``men`` men's cards."""
        full = codes[level.tally] + add
        drawn = 1 + self.code.walked(men) + self.code.cards(full)
        self.gathered.add(full % self.code.pending, level.weight, drawn, moduli)

    def empty_pools(
        self, level: kernel.Level, codes: Ints, point: Point, moduli: Words
    ) -> tuple[kernel.Level, Ints]:
        """States with no card left to draw: the attack ends there (reshuffle = end_attack,
        or nothing to reshuffle; the men not resolved are unaffected) or the refill's cards
        are the pool (``Pool.draw``)."""
        empty = level.counts.sum(axis=1) == 0
        if not empty.any():
            return level, codes
        what = point[0]
        on_pair = np.repeat(empty, np.diff(level.start))
        if self.attack.ends_on_empty or sum(self.attack.refill) == 0:
            add = {MAN: self.code.result(NO_EFFECT), TMM: -self.code.pending}.get(what, 0)
            self.finish(levels.kept(level, on_pair), codes, men_before(point), add, moduli)
            return levels.kept(level, ~on_pair), codes
        counts = level.counts.copy()
        for s in np.flatnonzero(empty).tolist():
            cut = self.parts[point, int(level.phases[s])]
            counts[s] = _refill_rows(self.attack, cut, level.counts.shape[1])
        again = kernel.Level(
            counts, level.phases, level.widths, level.start, level.tally, level.weight
        )
        charge_merge(again.pairs)
        return levels.merged([(again, codes)], moduli)

    def draw(
        self, drawing: kernel.Level, codes: Ints, point: Point, after: Point, moduli: Words
    ) -> tuple[kernel.Level, Ints]:
        """One card drawn from every state of ``drawing`` (one compiled step); the attacks
        that end on it are gathered, the level after returned."""
        columns = max(self.parts[p, phase][1] for p in (point, after) for phase in self.phases)
        states = len(drawing.phases)
        if drawing.pairs > MAX_PAIRS or states * (columns + 1) * columns > MAX_CELLS:
            allowed = gettext(
                "a group whose exact odds keep at most {max_pairs} (pool state, tally) pairs "
                "and {max_cells} state-group cells at a draw (man {man} draws from {states} "
                "states, {pairs} pairs): resolve with --seed or --draw, or ask for fewer men "
                "or TMMs"
            ).format(
                max_pairs=thousands(MAX_PAIRS),
                max_cells=thousands(MAX_CELLS),
                man=men_before(point) + 1,
                states=thousands(states),
                pairs=thousands(drawing.pairs),
            )
            raise InputError("targets", allowed, self.names)
        self.pairs += drawing.pairs
        charge_draw(drawing.pairs * columns, columns)  # the web's budget, first
        drawing = levels.fitted(drawing, columns)
        code = self.code
        tables, reads = _tables(
            self.attack, self.parts, point, after, code, self.width, self.played
        )
        if point[0] in (MAN_AHEAD, TMM_AHEAD):
            tables, codes_after = _ahead_tally(
                point[0], tables, codes, reads, code, self.played, self.turns
            )
        else:
            tables, codes_after = _next_tally(tables, codes, reads, code)
        out, _, _ = kernel.advance(drawing, tables, 0, 1, moduli)
        charge_made(len(out.phases), out.pairs)  # before the levels' work on them
        ended, live = levels.split_ended(out)
        men = men_before(after)
        self.finish(ended, codes_after, men, 0, moduli)
        if point[0] == MAN and point[1] in code.ahead:  # his TMM card, drawn ahead, hit
            done = codes_after[live.tally] // code.finished % 2 == 1
            self.finish(levels.kept(live, done), codes_after, men, 0, moduli)
            live = levels.kept(live, ~done)
        return live, codes_after

    def run(self, counts: Sequence[int], fs_classes: Sequence[int], final: Words) -> None:
        """Walk from the FS cards ``fs_classes`` of the pool ``counts`` to the end."""
        attack, code = self.attack, self.code
        phase0 = kernel.SMOKE if attack.smoke else kernel.CLEAR
        cut0 = self.parts[self.points[0], phase0]
        level = _first_level(attack, counts, fs_classes, cut0, phase0, self.width)
        codes = np.zeros(1, np.int64)
        moduli = kernel.lanes_for(1)
        tmm_cards = 0
        for point, after_point in zip(self.points, self.points[1:], strict=False):
            what = point[0]
            tmm_cards += what in (TMM, AHEAD, MAN_AHEAD, TMM_AHEAD)
            rest = None
            drawing = level
            codes_before = codes
            if what in (TMM, TMM_AHEAD):
                charge_split(level.pairs, level.counts.size)  # the web's budget, first
                pending = codes[level.tally] // code.pending % 2 == 1
                drawing = levels.kept(level, pending)
                rest = levels.regrouped(
                    levels.kept(level, ~pending),
                    self.groups_at(point),
                    self.groups_at(after_point),
                )
            drawing, codes = self.empty_pools(drawing, codes, point, moduli)
            most = min(len(self.denominators) - 1, 1 + men_before(after_point) + tmm_cards)
            if len(kernel.lanes_for(self.denominators[most])) > len(moduli):
                drawing = kernel.widen(drawing, moduli, final)
                if rest is not None:
                    rest = kernel.widen(rest, moduli, final)
                moduli = final
            held: list[tuple[kernel.Level, Ints]] = []
            if drawing.pairs:
                held.append(self.draw(drawing, codes, point, after_point, moduli))
            if rest is not None and rest.pairs:
                held.append((rest, codes_before))
            if not held:
                return
            if len(held) > 1:
                charge_merge(sum(lv.pairs for lv, _ in held))
            level, codes = held[0] if len(held) == 1 else levels.merged(held, moduli)
            level, codes = levels.compacted(level, codes)
        self.finish(level, self.turn_of_man_ahead(codes), attack.men, 0, moduli)

    def turn_of_man_ahead(self, codes: Ints) -> Ints:
        """The codes after the last man's turn, where his card was drawn ahead: its digit
        replaced by what the turn adds (:func:`_ahead_tally`). The attack then finishes, so
        codes need not be merged."""
        if self.code.man_ahead < 0:
            return codes
        place = self.code.man_place
        digit = codes // place
        steps = np.zeros(max(len(self.turns), 1), np.int64)
        for turn, number in self.turns.items():
            steps[number] = turn
        return codes - digit * place + steps[digit]


def ahead(tmm: Sequence[bool]) -> tuple[int, ...]:
    """The men whose TMM card is drawn ahead (when the pool cannot run out): the one man with
    a TMM, unless he is among the first two. A TMM card drawn after its man keeps the cards
    told apart by their TMM result until then, which costs more the later he comes; one drawn
    ahead triples the tallies instead, for the whole walk (measured: docs/upfront.md)."""
    men = [man for man, has in enumerate(tmm) if has]
    return (men[0],) if len(men) == 1 and men[0] >= AHEAD_FROM else ()


def man_ahead(chosen: Sequence[int], attack: Attack) -> int:
    """The man whose own card is drawn ahead too (-1: none): the last man, when his TMM card
    is drawn ahead and no smoke is in play. His card read in turn would keep the cards told
    apart by what it does to him (his result, a red RN that draws the TMM card) through every
    earlier man's draw; drawn ahead, the states are cut as for the men before him and the
    tallies keep what it will do, one digit (docs/upfront.md, "Page 7")."""
    last = attack.men - 1
    return last if tuple(chosen) == (last,) and not attack.smoke else -1


def walk(
    walks: Sequence[tuple[Attack, Sequence[int]]], start: Sequence[int], names: str = ""
) -> WalkOdds:
    """Exact odds of the overrun's draws: for each FFS, the attack read at that FFS and the
    pool classes whose FS cards give it; ``start``: the pool's class counts before the FS
    card (empty: the refill's, a reshuffle); ``names``: the targets as given (for a refusal
    past :data:`MAX_PAIRS` or :data:`MAX_CELLS`). See the module's docstring."""
    base = walks[0][0]
    most = 1 + base.men + sum(base.tmm)
    sizes = pool_sizes(sum(start), sum(base.refill), base.ends_on_empty, most)
    never_empty = (sum(start) or sum(base.refill)) >= most
    chosen = ahead(base.tmm) if never_empty else ()
    last = man_ahead(chosen, base)
    code = TallyCode(base.men, () if last >= 0 else chosen, last)
    denominators = [prod(sizes[:k]) for k in range(len(sizes) + 1)]
    gathered = Gathered.over(denominators)
    whole, final = gathered.whole, gathered.moduli
    counts = start if sum(start) else base.refill
    pairs = 0
    charge_walks(len(walks))  # the web's budget, before the walks
    for attack, fs_classes in walks:
        walker = _Walker(attack, gathered, denominators, code, names)
        walker.run(counts, fs_classes, final)
        pairs += walker.pairs
    out: dict[tuple[int | tuple[int, ...], str], int] = {}
    for value, weight in gathered.totals():
        if weight:
            key = code.outcome(value)
            out[key] = out.get(key, 0) + weight
    checked(sum(out.values()), whole, "overrun")
    return WalkOdds(out, whole, pairs)
