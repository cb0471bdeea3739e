"""Exact keys of pool states for the compiled step's hash table (:mod:`.step`): a state's
phase and counts as one mixed-radix number held in two 64-bit words, so that two states
after are equal exactly when their keys are, and a probe compares two words instead of the
counts.

Each card group of a cut after is one digit: its radix is one more than the most cards the
group can hold after the draw (:func:`bounds_after`), its place value the product of the
radices before it in its word; the phase after is the lowest digit of the first word (radix
2: smoke in play or not). Digits fill the first word while the product of its radices stays
within 2**64 and then the second (:func:`key_places`): every key is then below 2**64 in each
word, and the digits of a key give back the counts (mixed-radix numbers are unique). Where
the radices' product does not fit the two words, the step hashes the counts as before and
compares them on a probe (``fits`` false).

Imported only by the compiled step (numba); numba's cache keeps the compiled code.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

__all__ = ["KEY_WORDS", "bounds_after", "key_places"]

Ints = npt.NDArray[np.int64]
Words = npt.NDArray[np.uint64]

KEY_WORDS = 2
"""The most words of an exact key (128 bits)."""
_WORD_MAX = np.uint64(0xFFFFFFFFFFFFFFFF)


@njit(cache=True)
def bounds_after(  # noqa: PLR0917 - the level's and the draw's arrays, as the step takes them
    counts: npt.NDArray[np.int32],
    phases: npt.NDArray[np.int8],
    widths: npt.NDArray[np.int32],
    to_clear: Ints,
    to_smoke: Ints,
    new_width: Ints,
) -> Ints:  # pragma: no cover - compiled; exercised through the walks
    """The most cards each group of each cut after (row: the phase after) can hold: for
    each phase before, the most of each group before over the states of that phase, added
    up over the groups that go into it (a draw only takes cards away), the larger over the
    phases before. An ended state (phase 2) keeps no counts."""
    width_max = counts.shape[1]
    most = np.zeros((2, width_max), np.int64)
    for s in range(counts.shape[0]):
        phase = phases[s]
        if phase == 2:
            continue
        for j in range(widths[s]):
            most[phase, j] = max(most[phase, j], counts[s, j])
    width_after = max(width_max, new_width[0], new_width[1], 1)
    bounds = np.zeros((2, width_after), np.int64)
    summed = np.zeros(width_after, np.int64)
    for phase in range(2):
        for after in range(phase + 1):  # smoke cleared stays cleared
            summed[:] = 0
            into = to_clear if after == 0 else to_smoke
            for j in range(width_max):
                summed[into[phase, j]] += most[phase, j]
            for j in range(new_width[after]):
                bounds[after, j] = max(bounds[after, j], summed[j])
    return bounds


@njit(cache=True)
def key_places(
    bounds: Ints, new_width: Ints, words: int = KEY_WORDS
) -> tuple[Words, Ints, bool]:  # pragma: no cover - compiled
    """Each group's place value in its phase after's keys and the word it is a digit of
    (rows: the phase after), for groups holding at most ``bounds`` cards; and whether every
    key fits ``words`` words (at most :data:`KEY_WORDS`; none: the counts are hashed). The
    first word's lowest digit is the phase (radix 2)."""
    width = bounds.shape[1]
    places = np.zeros((2, width), np.uint64)
    word = np.zeros((2, width), np.int64)
    fits = words > 0
    for after in range(2 if fits else 0):
        product = np.uint64(2)  # the phase digit
        w = 0
        for j in range(new_width[after]):
            radix = np.uint64(bounds[after, j] + 1)
            if product > _WORD_MAX // radix:  # this digit would pass the word: the next
                w += 1
                product = np.uint64(1)
                if w == words:
                    fits = False
                    break
            places[after, j] = product
            word[after, j] = w
            product *= radix
    return places, word, fits
