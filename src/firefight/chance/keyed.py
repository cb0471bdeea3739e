"""Dice derived from a secret key: HMAC-SHA256, mapped to faces by rejection sampling.

The play-by-e-mail dice (docs/pbem.md) must be the same on every machine and in every version,
and computable by anyone who holds the key and the context, in any language. They therefore
never go through numpy's generator (its streams are not promised across versions): each uniform
integer in ``[0, n)`` is read from ``HMAC-SHA256(key, message)``, where the message is the
canonical JSON (keys sorted, no whitespace, UTF-8) of the caller's ``context`` together with

* ``event``: the event's ordinal in the resolution (1, 2, …; notes are not events),
* ``label``: the event's label (``"fire"``),
* ``draw``: which uniform integer of the event (a roll of two dice draws two: 1, 2),
* ``try``: the attempt, from 1, for rejection sampling.

**Rejection sampling** (no modulo bias): the first 8 bytes of the HMAC, big-endian, keep their
low ``b`` bits, ``b`` the bit length of ``n - 1``; a value ``>= n`` is rejected and the next
``try`` is read. A die of 6 faces rejects 6 and 7 (a quarter of tries); every face keeps the
same number of the ``2**b`` values, so each is exactly ``1/n``. A die with unequal faces (an
icepool die with weights) and a deck draw a uniform integer below the total weight (cards
left) and take the face (card) whose cumulative weight first exceeds it, as
:class:`firefight.chance.evaluate.Sampled` does.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from bisect import bisect_right
from collections.abc import Callable, Mapping
from itertools import accumulate
from typing import TypeVar

from firefight.chance.evaluate import _ChanceBase
from firefight.chance.events import Deck, Dice
from firefight.chance.protocol import Chance, Resolution, TraceEvent

T = TypeVar("T")

MAX_TRIES = 4096
"""Tries before giving up on one uniform integer: each try is accepted with chance above 1/2,
so reaching this is a chance below 2**-4096 (a broken HMAC, not bad luck)."""


def message(
    context: Mapping[str, object], event: int, label: str, draw: int, attempt: int
) -> bytes:
    """The bytes the HMAC covers for one try: canonical JSON of the context and the event."""
    value = {**context, "event": event, "label": label, "draw": draw, "try": attempt}
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return text.encode()


def uniform(  # noqa: PLR0917 - the HMAC message's parts, in order
    key: bytes, context: Mapping[str, object], event: int, label: str, draw: int, n: int
) -> int:
    """A uniform integer in ``[0, n)`` from the HMAC, by rejection sampling (module docstring)."""
    if n < 1:
        msg = f"cannot draw below {n}"
        raise ValueError(msg)
    bits = (n - 1).bit_length()
    mask = (1 << bits) - 1
    for attempt in range(1, MAX_TRIES + 1):
        digest = hmac.new(key, message(context, event, label, draw, attempt), hashlib.sha256)
        value = int.from_bytes(digest.digest()[:8], "big") & mask
        if value < n:
            return value
    msg = f"no value below {n} in {MAX_TRIES} tries"  # pragma: no cover - chance < 2**-4096
    raise RuntimeError(msg)


class Keyed(_ChanceBase):
    """A ``Chance`` whose every die and card comes from ``uniform(key, context, …)``."""

    def __init__(self, key: bytes, context: Mapping[str, object]) -> None:
        self._key = key
        self._context = dict(context)
        self._events = 0
        self.trace: list[TraceEvent] = []

    def _pick(self, label: str, weights: tuple[int, ...], n: int) -> tuple[int, ...]:
        """``n`` indices into ``weights``, each drawn in proportion to its weight."""
        self._events += 1
        cumulative = list(accumulate(weights))
        return tuple(
            bisect_right(
                cumulative,
                uniform(self._key, self._context, self._events, label, d, cumulative[-1]),
            )
            for d in range(1, n + 1)
        )

    def _faces(self, dice: Dice, label: str) -> tuple[int, ...]:
        return tuple(dice.faces[i] for i in self._pick(label, dice.weights, dice.count))

    def roll(self, dice: Dice, label: str) -> int:
        faces = self._faces(dice, label)
        self.trace.append(TraceEvent(label, sum(faces), "roll", faces))
        return sum(faces)

    def count(self, dice: Dice, test: Callable[[int], bool], label: str) -> int:
        faces = self._faces(dice, label)
        hits = sum(1 for face in faces if test(face))
        self.trace.append(TraceEvent(label, hits, "count", faces))
        return hits

    def draw(self, deck: Deck, label: str) -> str:
        (index,) = self._pick(label, tuple(n for _, n in deck.cards), 1)
        card = deck.cards[index][0]
        self.trace.append(TraceEvent(label, card, "draw"))
        return card

    def note(self, label: str, value: str) -> None:
        self.trace.append(TraceEvent(label, value, "note"))


def keyed(
    procedure: Callable[[Chance], T], key: bytes, context: Mapping[str, object]
) -> Resolution[T]:
    """One resolution with dice from the key and context, with its trace."""
    chance = Keyed(key, context)
    outcome = procedure(chance)
    return Resolution(outcome, tuple(chance.trace))
