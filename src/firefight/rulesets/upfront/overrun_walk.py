"""Page 7's exact odds as a walk over pool states, each card drawn one compiled step
(:func:`.kernel.advance`, the page 3 walk's own step).

The overrun draws, in order (Up Front flow charts, page 7): the Fire Strength RNC, then for
each man his page 3 resolution card, on which the adverse effects are read, and, when an
unpinned man with a TMM drew a red RN, a new card for the TMM. The walk follows those draws:

* The FS card is the first card: its RN gives the FFS, and every FFS is a walk of its own
  (:func:`walk`), starting from the pools its FS cards leave (weighted by how many there are).
* Each man's card is one step from every pool state, as page 3's walk takes it: a malfunction
  that ends the attack, the man's page 3 result, BREEZE clearing smoke; and here also the
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
alike (:func:`cuts`): the current man's result (with or without smoke, whichever is in play),
the later men's (both ways while smoke is in play), the malfunction while it can end the
attack, BREEZE while smoke is in play and a later man would see it cleared, the TMM card's
result while a man with a TMM is still to come; equal states merge after every draw.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from math import prod

import numpy as np
import numpy.typing as npt

from firefight.errors import InputError
from firefight.rulesets.upfront import kernel, levels
from firefight.rulesets.upfront.cuts import Groups as Cut
from firefight.rulesets.upfront.cuts import cut_apart
from firefight.rulesets.upfront.draws import Move, draw_tables, with_next_tally
from firefight.rulesets.upfront.resolution import LOSS_SLOT, LOSSES, MAN_RESULTS
from firefight.rulesets.upfront.walk import (
    DRAWS_PER_STEP,
    ENDED_RESULT,
    NO_EFFECT,
    Gathered,
    charge_draw,
    checked,
    decode_losses,
    ended_step,
    pool_sizes,
)

__all__ = [
    "AFV_RESULTS",
    "OVERRUN_DRAWS_PER_STEP",
    "Attack",
    "Reading",
    "Step",
    "WalkOdds",
    "walk",
]

OVERRUN_DRAWS_PER_STEP = DRAWS_PER_STEP
"""How many (pool state, tally) pairs times card groups of the overrun walk pay for one step
of the web's work budget, charged as each card's draw begins: the compiled walks'
:data:`.walk.DRAWS_PER_STEP`, the same compiled step (measured on the overrun:
docs/upfront.md, Figures)."""

MAX_CELLS = 200_000_000
"""The most (pool states x card groups^2) one draw of the walk may hold: the compiled step's
memory (about 4 bytes each, so 0.8 GB); beyond, a one-line refusal."""
MAX_PAIRS = 30_000_000
"""The most (pool state, tally) pairs one draw may hold (about 0.1 GB each 2 million)."""

AHEAD_FROM = 2
"""The first man whose TMM card may be drawn ahead (:func:`ahead`)."""

AFV_RESULTS = ("", "AFV immobilized", "AFV KIA")
"""What the defenders did to the AFV, as the tally's AFV digit (0: nothing)."""

Step = tuple[int, int, bool]
"""One man on one card: his page 3 result (index into ``MAN_RESULTS``), what he did to the AFV
by the adverse effects (index into :data:`AFV_RESULTS`), and whether his TMM card follows."""

_MAN, _TMM, _END, _AHEAD = 0, 1, 2, 3
Point = tuple[int, int]
"""A draw of the walk: (_MAN, man) his page 3 card, (_TMM, man) his TMM card, (_AHEAD, man)
his TMM card drawn ahead, (_END, n) none."""
Ints = npt.NDArray[np.int64]
Words = npt.NDArray[np.uint64]


@dataclass(frozen=True)
class Reading:
    """What the overrun reads of one card kind at one FFS: a malfunction that ends the
    attack, BREEZE (with smoke in play), the card's result as a TMM card (index into
    :data:`AFV_RESULTS`), each man's :data:`Step` with smoke in play and without, and what
    each man does to the AFV by the adverse effects when the card's malfunction ends the
    attack on his draw (index into :data:`AFV_RESULTS`; 0 unless ``ends``)."""

    ends: bool
    breeze: bool
    tmm: int
    men: tuple[tuple[Step, Step], ...]
    ended: tuple[int, ...]


@dataclass(frozen=True)
class Attack:
    """The walk's fixed parts: the card kinds (each kind's reading, the kind of each of the
    pool's classes, -1 for none), the counts of the pool's classes before the first card and
    in a reshuffle, whether an empty pool ends the attack, which men carry a TMM, smoke in
    play at the start."""

    readings: tuple[Reading, ...]
    kind_of_class: tuple[int, ...]
    refill: tuple[int, ...]
    ends_on_empty: bool
    tmm: tuple[bool, ...]
    smoke: bool

    @property
    def men(self) -> int:
        """How many men the AFV attacks."""
        return len(self.tmm)


@dataclass(frozen=True)
class WalkOdds:
    """The walk's result: the weight of each outcome (a man's result index when the group is
    one man, else a :class:`Tally`'s counts; the AFV's result) over one denominator."""

    weights: dict[tuple[int | tuple[int, ...], str], int]
    denominator: int
    pairs: int


@dataclass(frozen=True)
class _Code:
    """The tally as one integer: the men's results (one man: his result index + 1; a group:
    one digit per :data:`LOSSES` slot in base men + 1), then the AFV digit, the pending TMM
    card, the attack finished by a TMM card drawn ahead, how many TMM cards were drawn, and
    the result of each TMM card drawn ahead (:data:`AFV_RESULTS`)."""

    men: int
    ahead: tuple[int, ...] = ()

    @property
    def single(self) -> bool:
        return self.men == 1

    @property
    def afv(self) -> int:
        return len(MAN_RESULTS) + 1 if self.single else (self.men + 1) ** len(LOSSES)

    @property
    def pending(self) -> int:
        return self.afv * len(AFV_RESULTS)

    @property
    def finished(self) -> int:
        return self.pending * 2

    @property
    def drawn(self) -> int:
        return self.finished * 2

    def tmm(self, man: int) -> int:
        """The digit of the TMM card drawn ahead for ``man``."""
        place: int = self.ahead.index(man)
        return int(self.drawn * (self.men + 2) * len(AFV_RESULTS) ** place)

    def cards(self, codes: Ints) -> Ints:
        """How many TMM cards each code's paths drew."""
        return codes // self.drawn % (self.men + 2)

    def result(self, index: int) -> int:
        """What a man's result adds to the code."""
        if self.single:
            return index + 1
        slot = LOSS_SLOT[index]
        return 0 if slot < 0 else (self.men + 1) ** slot

    def ended(self) -> int:
        """What a malfunction that ends the attack adds (the flag, once)."""
        return ENDED_RESULT + 1 if self.single else ended_step(self.men + 1)

    def outcome(self, code: int) -> tuple[int | tuple[int, ...], str]:
        """The outcome a finished code stands for."""
        afv = AFV_RESULTS[code // self.afv % len(AFV_RESULTS)]
        men = code % self.afv
        if self.single:
            return men - 1, afv
        return decode_losses(men, self.men + 1), afv


def _points(attack: Attack, ahead: Sequence[int]) -> list[Point]:
    """The draws in order: the TMM cards drawn ahead, each man's card, after a man with a TMM
    (not drawn ahead) his TMM card, the end."""
    points: list[Point] = [(_AHEAD, man) for man in ahead]
    for man, tmm in enumerate(attack.tmm):
        points.append((_MAN, man))
        if tmm and man not in ahead:
            points.append((_TMM, man))
    points.append((_END, attack.men))
    return points


def _men_before(point: Point) -> int:
    """How many men's cards were drawn before ``point``."""
    what, man = point
    return 0 if what == _AHEAD else man + (what == _TMM)


def _key(
    attack: Attack, reading: Reading, point: Point, in_play: bool, tmm_ahead: bool
) -> tuple[object, ...]:
    """What the draws from ``point`` on read of a card kind (with smoke in play or not);
    ``tmm_ahead``: a TMM card is among them."""
    what, man = point
    if what == _END:
        return ()
    first = _men_before(point)  # the first man whose card is still to draw
    later = range(man + 1 if what == _MAN else first, attack.men)
    parts: list[object] = [
        reading.ends and first < attack.men,
        tuple(reading.ended[q] for q in range(first, attack.men)) if reading.ends else (),
        reading.breeze and in_play and first < attack.men - 1,
        reading.tmm if tmm_ahead else 0,
    ]
    if what == _MAN:
        parts.append(reading.men[man][0 if in_play else 1])
    parts.extend(reading.men[q] if in_play else reading.men[q][1] for q in later)
    return tuple(parts)


def cuts(attack: Attack, ahead: Sequence[int] = ()) -> dict[tuple[Point, int], Cut]:
    """For each draw and phase (:data:`.kernel.CLEAR`, :data:`.kernel.SMOKE`), the card groups:
    the kinds that this draw and every later one read alike."""
    phases = (kernel.CLEAR, kernel.SMOKE) if attack.smoke else (kernel.CLEAR,)
    found: dict[tuple[Point, int], Cut] = {}
    points = _points(attack, ahead)
    for index, point in enumerate(points):
        tmm = any(what in (_TMM, _AHEAD) for what, _ in points[index:])
        for phase in phases:
            found[point, phase] = cut_apart(
                _key(attack, r, point, phase == kernel.SMOKE, tmm) for r in attack.readings
            )
    return found


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
    code: _Code,
    width: int,
) -> tuple[kernel.Tables, list[tuple[int, int]]]:
    """What drawing each card group at ``point`` does (for :func:`.kernel.advance`), and for
    each move's result column what it adds to a tally code and which man's TMM card drawn
    ahead it then reads (-1: none)."""
    what, man = point
    columns: dict[tuple[int, int], int] = {}

    def move(phase: int, first: int) -> Move:
        reading = attack.readings[first]
        ended, after, reads = False, phase, -1
        if what == _AHEAD:  # a TMM card drawn ahead: its result kept in the tally
            add = code.drawn + reading.tmm * code.tmm(man)
        elif what == _TMM:  # the TMM card: its colour, then its band
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


def _next_tally(
    tables: kernel.Tables, codes: Ints, columns: Sequence[tuple[int, int]], code: _Code
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
        code: _Code,
        names: str,
    ) -> None:
        self.attack = attack
        self.gathered = gathered
        self.denominators = denominators
        self.code = code
        self.parts = cuts(attack, code.ahead)
        self.width = max(cut[1] for cut in self.parts.values())
        self.points = _points(attack, code.ahead)
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
        drawn = 1 + men + self.code.cards(full)
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
            add = {_MAN: self.code.result(NO_EFFECT), _TMM: -self.code.pending}.get(what, 0)
            self.finish(levels.kept(level, on_pair), codes, _men_before(point), add, moduli)
            return levels.kept(level, ~on_pair), codes
        counts = level.counts.copy()
        for s in np.flatnonzero(empty).tolist():
            cut = self.parts[point, int(level.phases[s])]
            counts[s] = _refill_rows(self.attack, cut, level.counts.shape[1])
        again = kernel.Level(
            counts, level.phases, level.widths, level.start, level.tally, level.weight
        )
        return levels.merged([(again, codes)], moduli)

    def draw(
        self, drawing: kernel.Level, codes: Ints, point: Point, after: Point, moduli: Words
    ) -> tuple[kernel.Level, Ints]:
        """One card drawn from every state of ``drawing`` (one compiled step); the attacks
        that end on it are gathered, the level after returned."""
        columns = max(self.parts[p, phase][1] for p in (point, after) for phase in self.phases)
        states = len(drawing.phases)
        if drawing.pairs > MAX_PAIRS or states * (columns + 1) * columns > MAX_CELLS:
            allowed = (
                f"a group whose exact odds keep at most {MAX_PAIRS:,} (pool state, tally) "
                f"pairs and {MAX_CELLS:,} state-group cells at a draw (man "
                f"{_men_before(point) + 1} draws from {states:,} states, {drawing.pairs:,} "
                "pairs): resolve with --seed or --draw, or ask for fewer men or TMMs"
            )
            raise InputError("targets", allowed, self.names)
        self.pairs += drawing.pairs
        charge_draw(drawing.pairs * columns, OVERRUN_DRAWS_PER_STEP)  # the web's budget
        drawing = levels.fitted(drawing, columns)
        code = self.code
        tables, reads = _tables(self.attack, self.parts, point, after, code, self.width)
        tables, codes_after = _next_tally(tables, codes, reads, code)
        out, _, _ = kernel.advance(drawing, tables, 0, 1, moduli)
        ended, live = levels.split_ended(out)
        men = _men_before(after)
        self.finish(ended, codes_after, men, 0, moduli)
        if point[0] == _MAN and point[1] in code.ahead:  # his TMM card, drawn ahead, hit
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
            tmm_cards += what in (_TMM, _AHEAD)
            rest = None
            drawing = level
            codes_before = codes
            if what == _TMM:
                pending = codes[level.tally] // code.pending % 2 == 1
                drawing = levels.kept(level, pending)
                rest = levels.regrouped(
                    levels.kept(level, ~pending),
                    self.groups_at(point),
                    self.groups_at(after_point),
                )
            drawing, codes = self.empty_pools(drawing, codes, point, moduli)
            most = min(len(self.denominators) - 1, 1 + _men_before(after_point) + tmm_cards)
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
            level, codes = held[0] if len(held) == 1 else levels.merged(held, moduli)
            level, codes = levels.compacted(level, codes)
        self.finish(level, codes, attack.men, 0, moduli)


def ahead(tmm: Sequence[bool]) -> tuple[int, ...]:
    """The men whose TMM card is drawn ahead (when the pool cannot run out): the one man with
    a TMM, unless he is among the first two. A TMM card drawn after its man keeps the cards
    told apart by their TMM result until then, which costs more the later he comes; one drawn
    ahead triples the tallies instead, for the whole walk (measured: docs/upfront.md)."""
    men = [man for man, has in enumerate(tmm) if has]
    return (men[0],) if len(men) == 1 and men[0] >= AHEAD_FROM else ()


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
    code = _Code(base.men, ahead(base.tmm) if never_empty else ())
    denominators = [prod(sizes[:k]) for k in range(len(sizes) + 1)]
    gathered = Gathered.over(denominators)
    whole, final = gathered.whole, gathered.moduli
    counts = start if sum(start) else base.refill
    pairs = 0
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
