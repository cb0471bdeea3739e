"""What the Up Front walks over pool states share (docs/chance.md, "draws without replacement
as state"): the page 3 results as indices, the tally as one integer code, the web's work
budget, integer weights in lanes and the last check that every card sequence was counted.

Each walk (:mod:`.group` for page 3, :mod:`.malfunction_walk` for page 6,
:mod:`.overrun_walk` for page 7, :mod:`.infiltration_walk` for page 8) states only what its
page reads; the compiled step of the walks that draw one card from every state at once is
:mod:`.kernel`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from firefight.chance import spend
from firefight.chance.distribution import Distribution
from firefight.rulesets.upfront import kernel
from firefight.rulesets.upfront.resolution import ENDED_SLOT, LOSS_SLOT, LOSSES, MAN_RESULTS, Tally

__all__ = [
    "DRAWS_PER_STEP",
    "ENDED_RESULT",
    "NO_EFFECT",
    "RESULT_INDEX",
    "Gathered",
    "Moves",
    "add_lanes",
    "charge_draw",
    "checked",
    "decode_losses",
    "ended_step",
    "lane_totals",
    "loss_steps",
    "man_odds",
    "pool_sizes",
    "tally_odds",
]

RESULT_INDEX = {result: i for i, result in enumerate(MAN_RESULTS)}
"""Each page 3 result's index (what a tally's code and a man's odds are kept by)."""
ENDED_RESULT = RESULT_INDEX["attack ended"]
NO_EFFECT = RESULT_INDEX["no effect"]

DRAWS_PER_STEP = 4096
"""How many (pool state, tally) pairs times card groups of page 3's compiled walk
(:mod:`.kernel`) pay for one step of the chance engine's work budget
(:func:`firefight.chance.spend`), charged as each draw begins (the groups counted at the
walk's widest). One step of :func:`~firefight.chance.exact` (a replayed run) takes about
21 us; a pair-group of the compiled walk, measured on the walk the budget exists for (10 men
of ten distinct profiles with smoke and BREEZE: 23.7 million pair-groups), 3.4 ns on a loaded
machine (81.6 ms; about 2.4 ns quiet), so 4096 of them (10 to 14 us) are at most a step's
time and the web's budget bounds the walk's time as it bounds a replay's (past it by at most
one draw). It was 2048 at 4.5 to 7 ns a pair-group (the step before exact state keys and
unsigned indices), 128 for the walk in Python (0.12 us a pair-group)."""


def charge_draw(pair_groups: int, per_step: int = DRAWS_PER_STEP) -> None:
    """Pay the web's work budget for one draw of ``pair_groups`` (state, tally) pairs times
    card groups: one step at least, one more every ``per_step``."""
    spend(pair_groups // per_step + 1)


@dataclass
class Moves:
    """A walk's moves, paid to the work budget as they are made (or counted and settled
    later): a step every ``per_step``."""

    per_step: int
    made: int = 0
    paid: int = 0

    def add(self, moves: int) -> None:
        """Count ``moves`` more, paying the steps they complete."""
        self.made += moves
        self.settle()

    def count(self, moves: int) -> None:
        """Count ``moves`` more, to be paid at the next :meth:`settle` (a walk whose moves
        are many and small pays between pool states, not on every move)."""
        self.made += moves

    def settle(self) -> None:
        """Pay the steps the moves counted so far complete."""
        owed = self.made // self.per_step - self.paid
        if owed > 0:
            spend(owed)
            self.paid += owed


def loss_steps(radix: int) -> list[int]:
    """What each page 3 result adds to a group's tally code (each loss kind a digit in base
    ``radix``, the men plus one); the ended attack's flag is :func:`ended_step`'s."""
    return [0 if slot < 0 or slot == ENDED_SLOT else radix**slot for slot in LOSS_SLOT]


def ended_step(radix: int) -> int:
    """What the attack's end by a malfunction adds to a tally code (its flag digit)."""
    return int(radix**ENDED_SLOT)


def decode_losses(code: int, radix: int) -> tuple[int, ...]:
    """A tally code's count of each loss kind (:data:`.resolution.LOSSES`): its digits in
    base ``radix``, the lowest first."""
    digits = []
    for _ in LOSSES:
        code, digit = divmod(code, radix)
        digits.append(digit)
    return tuple(digits)


Words = npt.NDArray[np.uint64]
Ints = npt.NDArray[np.int64]


def add_lanes(a: Words, b: Words, moduli: Words) -> Words:
    """Lane residues added (lane 0 wraps; the others modulo their primes)."""
    total = a + b
    total[1:] %= moduli[1:]
    return total


def lane_totals(
    codes: Ints, weights: Words, moduli: Words, first_seen: bool = False
) -> list[tuple[int, int]]:
    """Each tally code's total weight (its pairs' lane residues added and rebuilt), by code,
    or in the order the codes first appear (``first_seen``)."""
    found, first, index = np.unique(codes, return_index=True, return_inverse=True)
    order = np.argsort(index.ravel(), kind="stable")
    heads = np.searchsorted(index.ravel()[order], np.arange(len(found)))
    summed = np.add.reduceat(weights[order], heads, axis=0) if len(found) else weights[:0]
    summed[:, 1:] %= moduli[1:]
    rows = range(len(found))
    if first_seen:
        rows = np.argsort(first, kind="stable").tolist()
    values = found.tolist()
    weights_of = kernel.combine_rows(summed, moduli)
    return [(values[r], weights_of[r]) for r in rows]


@dataclass
class Gathered:
    """What the finished paths of a walk whose paths draw unequal numbers of cards leave:
    tally codes and weights in the final lanes (``moduli``), a path that drew ``K`` cards
    scaled from its own denominator ``D(K)`` (``denominators[K]``) to the longest path's
    (``whole``)."""

    moduli: Words
    scale: Words
    whole: int
    codes: list[Ints]
    weights: list[Words]

    @classmethod
    def over(cls, denominators: Sequence[int]) -> Gathered:
        """Nothing gathered yet, over each path length's ``denominators``."""
        whole = denominators[-1]
        final = kernel.lanes_for(whole)
        wraps = [int(m) or kernel.WRAP for m in final.tolist()]
        scale = [np.array([(whole // d) % m for m in wraps], np.uint64) for d in denominators]
        return cls(final, np.stack(scale), whole, [], [])

    def add(
        self,
        codes: npt.NDArray[np.int64],
        weights: Words,
        drawn: npt.NDArray[np.int64],
        moduli: Words,
    ) -> None:
        """Paths finished with tally ``codes``, ``weights`` in ``moduli`` (the final lanes or
        one lane), each having drawn ``drawn`` cards."""
        if len(codes) == 0:
            return
        if len(moduli) < len(self.moduli):  # one lane holds each weight itself
            extra = [weights[:, 0] % np.uint64(p) for p in self.moduli[1:].tolist()]
            weights = np.column_stack([weights[:, 0], *extra])
        scaled = weights * self.scale[drawn]
        scaled[:, 1:] %= self.moduli[1:]
        self.codes.append(codes)
        self.weights.append(scaled)

    def totals(self) -> list[tuple[int, int]]:
        """Each tally code's weight over ``whole``, by code (:func:`lane_totals`)."""
        return lane_totals(np.concatenate(self.codes), np.concatenate(self.weights), self.moduli)


def pool_sizes(start: int, refill: int, ends_on_empty: bool, most: int) -> list[int]:
    """The pool's size at each draw, the same on every path (one card fewer each draw, the
    ``refill``'s size after a reshuffle), for up to ``most`` draws: fewer where the pool runs
    out and the attack ends there (``ends_on_empty``, or nothing to reshuffle)."""
    sizes: list[int] = []
    left = start
    while len(sizes) < most:
        if left == 0:
            if ends_on_empty or refill == 0:
                break
            left = refill
        sizes.append(left)
        left -= 1
    return sizes


def tally_odds(
    weights: Iterable[tuple[int, int | Fraction]], radix: int, whole: int, walk: str
) -> Distribution[Tally]:
    """The group's tally from each tally code's weight (``whole`` in all: every card
    sequence counted once; :func:`checked`), decoded by :func:`decode_losses`."""
    tallies: dict[Tally, int | Fraction] = {}
    for code, weight in weights:
        loss = Tally(decode_losses(code, radix))
        tallies[loss] = tallies.get(loss, 0) + weight
    checked(sum(tallies.values()), whole, walk)
    return Distribution({t: Fraction(w, whole) for t, w in tallies.items() if w})


def man_odds(weights: Mapping[int, Mapping[int, int]]) -> Distribution[str]:
    """One man's odds from his results' weights, each set over its denominator (``{D:
    {result index: weight}}``: the paths that drew as many cards share one), by result."""
    odds: dict[int, Fraction] = {}
    for below, row in weights.items():
        for result, weight in row.items():
            if weight:
                odds[result] = odds.get(result, Fraction(0)) + Fraction(weight, below)
    return Distribution({MAN_RESULTS[r]: p for r, p in sorted(odds.items()) if p})


def checked(total: object, whole: object, walk: str) -> None:
    """A walk's weights, added up, must be ``whole`` (every card sequence counted once, or
    the probabilities 1): else its arithmetic failed, an error no input can cause."""
    if total != whole:  # pragma: no cover - the walks' arithmetic checked
        msg = f"the {walk} walk's weights add up to {total}, not {whole}"
        raise ArithmeticError(msg)
