"""The server's two lanes for work not in a cache (README, "Serving: limits";
:class:`~firefight.web.compute.Calculator`): cheap answers at once in a process of their own,
off the event loop; costly ones queued for the pool of processes, each client's in a queue of
its own, taken in turn (:class:`FairQueue`); the cheapest, on the event loop itself, within
the few steps its measured pace allows in :data:`INLINE_SECONDS`. Which is which, the work
budget says: a trial in the cheap lane within the steps that the procedure's measured pace
allows in about :data:`CHEAP_SECONDS` (:class:`Estimates`); past them, the pool."""

from __future__ import annotations

from collections import OrderedDict, deque
from collections.abc import Hashable
from typing import Generic, TypeVar

T = TypeVar("T")

CHEAP_SECONDS = 0.05
"""About the longest a cheap lane's answer takes (:class:`Estimates`): its steps are bounded
by the procedure's measured pace, so that a cheap request waits at most a few of these behind
other cheap ones, and a costly one's trial wastes at most this much before the pool. A request
sent to the pool may wait there behind the costliest answers (those near
:data:`~firefight.web.compute.WORK_BUDGET`), so the lane keeps all but those."""
FIRST_STEPS = 300
"""The steps a procedure's first request may take in the cheap lane, before its pace is
measured (a few of the common procedures' steps, well inside :data:`CHEAP_SECONDS`)."""
MOST_STEPS = 10_000
LEAST_STEPS = 25
"""The fewest steps a request may take in the cheap lane however slow its procedure's pace:
a rule that counts its work in few, costly steps (Up Front's walks pay one step each) is
answered there, not queued behind the costliest in the pool (what a first walk loads is loaded
when the lane's process starts)."""
"""The most steps any request takes in the cheap lane, however quick its procedure's pace."""
INLINE_SECONDS = 0.001
"""About the longest an answer computed on the event loop itself takes (:meth:`Estimates.inline`):
the steps allowed there are bounded by the procedure's measured pace, decided before the work,
so no such answer holds the loop (and every other request) longer than about this."""
INLINE_STEPS = 300
"""The most steps an answer computed on the event loop may take, however quick its pace."""
INLINE_SHARE = 0.5
"""The share of a procedure's recent answers that must have fitted the loop's steps for the
next one to be tried there: a procedure whose answers mostly do not fit goes to the cheap lane
at once, wasting no trial on the loop."""
ESTIMATE_WEIGHT = 0.25
"""The weight of the latest measurement in a procedure's estimate (an exponential average:
one costly answer moves it, a few cheap ones bring it back)."""


class Estimates:
    """What a step of a procedure's work costs, per key (a rule set, a procedure and the
    route): an exponential average of seconds per step, measured where its answers were
    computed; from it, the steps its next request may take in the cheap lane
    (:meth:`steps`), so that a cheap lane's answer takes about :data:`CHEAP_SECONDS` at most
    whatever the rule's pace (from about 1 to 20 microseconds a step, and rules whose work is
    counted in few steps)."""

    def __init__(
        self,
        limit: float = CHEAP_SECONDS,
        weight: float = ESTIMATE_WEIGHT,
        first: int = FIRST_STEPS,
        most: int = MOST_STEPS,
        least: int = LEAST_STEPS,
        *,
        inline_limit: float = INLINE_SECONDS,
        inline_most: int = INLINE_STEPS,
    ) -> None:
        self.least = least
        self.inline_limit = inline_limit
        self.inline_most = inline_most
        self.fitted: dict[Hashable, float] = {}
        """Per key, the share of its recent answers that took no more steps than the loop's
        (an exponential average, as the pace)."""
        self.limit = limit
        self.weight = weight
        self.first = first
        self.most = most
        self.per_step: dict[Hashable, float] = {}

    def steps(self, key: Hashable) -> int:
        """The steps ``key``'s next request may take in the cheap lane (past them, the pool)."""
        per_step = self.per_step.get(key)
        if per_step is None:
            return self.first
        allowed = int(self.limit / per_step) if per_step > 0 else self.most
        return max(self.least, min(self.most, allowed))

    def inline(self, key: Hashable) -> int:
        """The steps ``key``'s next request may take on the event loop itself, within about
        :data:`INLINE_SECONDS` at its measured pace (at most :data:`INLINE_STEPS`); 0 (not
        there) while its pace is unknown or most of its recent answers took more."""
        per_step = self.per_step.get(key)
        if per_step is None or self.fitted.get(key, 0.0) < INLINE_SHARE:
            return 0
        return self._inline_steps(per_step)

    def _inline_steps(self, per_step: float) -> int:
        allowed = int(self.inline_limit / per_step) if per_step > 0 else self.inline_most
        return min(self.inline_most, allowed)

    def record(self, key: Hashable, seconds: float, steps: int, finished: bool = True) -> None:
        """An answer of ``key`` took ``seconds`` for ``steps`` (a run is one step at least),
        wherever it ran; whether it would have fitted the loop's steps is counted too (a trial
        that gave up, not ``finished``, did not)."""
        per_step = seconds / max(1, steps)
        old = self.per_step.get(key)
        self.per_step[key] = per_step if old is None else old + self.weight * (per_step - old)
        fitted = finished and max(1, steps) <= self._inline_steps(self.per_step[key])
        fits = 1.0 if fitted else 0.0
        was = self.fitted.get(key)
        self.fitted[key] = fits if was is None else was + self.weight * (fits - was)


class FairQueue(Generic[T]):
    """Items waiting, each client's in its own first-in first-out queue; :meth:`take` serves
    the clients in turn (round robin), so that a client who queued many costly requests delays
    another's next one by at most one of his."""

    def __init__(self) -> None:
        self.queues: OrderedDict[Hashable, deque[T]] = OrderedDict()

    def __len__(self) -> int:
        return sum(len(queue) for queue in self.queues.values())

    def put(self, client: Hashable, item: T) -> None:
        self.queues.setdefault(client, deque()).append(item)

    def take(self) -> T | None:
        """The first item of the client whose turn it is (he goes to the back of the turn),
        or ``None`` when nothing waits."""
        if not self.queues:
            return None
        client, queue = next(iter(self.queues.items()))
        item = queue.popleft()
        if queue:
            self.queues.move_to_end(client)
        else:
            del self.queues[client]
        return item

    def drain(self) -> list[T]:
        """Every item waiting, the queues emptied."""
        items = [item for queue in self.queues.values() for item in queue]
        self.queues.clear()
        return items
