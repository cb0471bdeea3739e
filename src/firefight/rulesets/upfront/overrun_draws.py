"""The parts of page 7's walk (:mod:`.overrun_walk`) that say what is drawn and what it
reads: each card kind's :class:`Reading`, the walk's fixed :class:`Attack`, its draws in order
(:func:`draw_points`: the TMM cards drawn ahead, each man's card, a TMM card after its man),
the tally as one integer (:class:`TallyCode`), and the card groups of each draw
(:func:`cuts`: the kinds that this draw and every later one read alike).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from firefight.rulesets.upfront import kernel
from firefight.rulesets.upfront.cuts import Groups as Cut
from firefight.rulesets.upfront.cuts import cut_apart
from firefight.rulesets.upfront.resolution import LOSS_SLOT, LOSSES, MAN_RESULTS
from firefight.rulesets.upfront.walk import ENDED_RESULT, decode_losses, ended_step

__all__ = [
    "AFV_RESULTS",
    "AHEAD",
    "END",
    "MAN",
    "MAN_AHEAD",
    "TMM",
    "TMM_AHEAD",
    "Attack",
    "Point",
    "Reading",
    "Step",
    "TallyCode",
    "WalkOdds",
    "cuts",
    "draw_points",
    "men_before",
]

AFV_RESULTS = ("", "AFV immobilized", "AFV KIA")
"""What the defenders did to the AFV, as the tally's AFV digit (0: nothing)."""

Step = tuple[int, int, bool]
"""One man on one card: his page 3 result (index into ``MAN_RESULTS``), what he did to the AFV
by the adverse effects (index into :data:`AFV_RESULTS`), and whether his TMM card follows."""

MAN, TMM, END, AHEAD, MAN_AHEAD, TMM_AHEAD = 0, 1, 2, 3, 4, 5
Point = tuple[int, int]
"""A draw of the walk: (MAN, man) his page 3 card, (TMM, man) his TMM card, (AHEAD, man)
his TMM card drawn ahead, (MAN_AHEAD, 0) the last man's own card drawn ahead and
(TMM_AHEAD, 0) his TMM card after it where it draws one (what they do kept in the tally
until his turn), (END, n) none."""
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
class TallyCode:
    """The tally as one integer: the men's results (one man: his result index + 1; a group:
    one digit per :data:`LOSSES` slot in base men + 1), then the AFV digit, the pending TMM
    card, the attack finished by a TMM card drawn ahead, how many TMM cards were drawn, and
    the result of each TMM card drawn ahead (:data:`AFV_RESULTS`)."""

    men: int
    ahead: tuple[int, ...] = ()
    man_ahead: int = -1
    """The man whose own card and TMM card are drawn ahead (the last man; -1: none): what they
    do is a digit above the others (:attr:`man_place`), played when his turn comes."""

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

    @property
    def man_place(self) -> int:
        """The digit of what the card drawn ahead for :attr:`man_ahead` does (the highest)."""
        return int(self.drawn * (self.men + 2) * len(AFV_RESULTS) ** len(self.ahead))

    def walked(self, men: int) -> int:
        """How many of the first ``men`` men drew their own card in turn (not ahead)."""
        return men if self.man_ahead < 0 else min(men, self.man_ahead)

    def cards(self, codes: Ints) -> Ints:
        """How many cards drawn ahead or for a TMM each code's paths drew."""
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


def draw_points(attack: Attack, ahead: Sequence[int], man_ahead: int = -1) -> list[Point]:
    """The draws in order: the TMM cards drawn ahead, the last man's card drawn ahead (if
    ``man_ahead``), each man's card, after a man with a TMM (not drawn ahead) his TMM card,
    the end."""
    points: list[Point] = [(AHEAD, man) for man in ahead]
    if man_ahead >= 0:
        points.append((MAN_AHEAD, 0))
        if attack.tmm[man_ahead]:
            points.append((TMM_AHEAD, 0))
    for man, tmm in enumerate(attack.tmm):
        if man == man_ahead:
            continue
        points.append((MAN, man))
        if tmm and man not in ahead:
            points.append((TMM, man))
    points.append((END, attack.men))
    return points


def men_before(point: Point) -> int:
    """How many men's cards were drawn before ``point``."""
    what, man = point
    return 0 if what in (AHEAD, TMM_AHEAD) else man + (what == TMM)


def _key(  # noqa: PLR0917 - a kind read at one draw
    attack: Attack, reading: Reading, point: Point, in_play: bool, tmm_ahead: bool, skip: int
) -> tuple[object, ...]:
    """What the draws from ``point`` on read of a card kind (with smoke in play or not);
    ``tmm_ahead``: a TMM card is among them; ``skip``: a man whose card was drawn ahead
    (-1: none)."""
    what, man = point
    if what == END:
        return ()
    first = men_before(point)  # the first man whose card is still to draw
    readers = [q for q in range(first, attack.men) if q != skip]
    own = what in (MAN, MAN_AHEAD)
    if what == MAN_AHEAD:
        man = attack.men - 1  # the last man's card, drawn ahead
    later = [q for q in readers if not (own and q == man)]
    parts: list[object] = [
        reading.ends and bool(readers),
        tuple(reading.ended[q] for q in readers) if reading.ends else (),
        reading.breeze and in_play and first < attack.men - 1,
        reading.tmm if tmm_ahead else 0,
    ]
    if own:
        parts.append(reading.men[man][0 if in_play else 1])
    parts.extend(reading.men[q] if in_play else reading.men[q][1] for q in later)
    return tuple(parts)


def cuts(
    attack: Attack, ahead: Sequence[int] = (), man_ahead: int = -1
) -> dict[tuple[Point, int], Cut]:
    """For each draw and phase (:data:`.kernel.CLEAR`, :data:`.kernel.SMOKE`), the card groups:
    the kinds that this draw and every later one read alike."""
    phases = (kernel.CLEAR, kernel.SMOKE) if attack.smoke else (kernel.CLEAR,)
    found: dict[tuple[Point, int], Cut] = {}
    points = draw_points(attack, ahead, man_ahead)
    skip = -1
    for index, point in enumerate(points):
        tmm = any(what in (TMM, AHEAD, TMM_AHEAD) for what, _ in points[index:])
        for phase in phases:
            found[point, phase] = cut_apart(
                _key(attack, r, point, phase == kernel.SMOKE, tmm, skip) for r in attack.readings
            )
        if point[0] == MAN_AHEAD:
            skip = man_ahead
    return found
