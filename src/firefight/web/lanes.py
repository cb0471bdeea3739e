"""The server's two lanes for work not in a cache (README, "Serving: limits";
:class:`~firefight.web.compute.Calculator`): cheap answers at once in a process of their own,
off the event loop; costly ones queued for the pool of processes, each client's in a queue of
its own, taken in turn (:class:`FairQueue`). Which is which, the work budget says (a trial within
:data:`~firefight.web.compute.QUICK_STEPS`) and a measured estimate per procedure
(:class:`Estimates`) where the budget's steps do not follow the time."""

from __future__ import annotations

import time
from collections import OrderedDict, deque
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

R = TypeVar("R")
T = TypeVar("T")

CHEAP_SECONDS = 0.005
"""A procedure whose recent answers took longer than this on average (:class:`Estimates`)
skips the cheap lane and goes straight to the pool: its inputs' steps do not follow their time
(a first walk that loads a compiled step, a rule whose work is not counted in steps)."""
ESTIMATE_WEIGHT = 0.25
"""The weight of the latest measurement in a procedure's estimate (an exponential average:
one costly answer moves it, a few cheap ones bring it back)."""


def timed(function: Callable[..., R], *args: object) -> tuple[float, R]:
    """``function(*args)`` and the seconds it took where it ran (a thread or a pool process:
    the time waited in a queue is not counted)."""
    started = time.perf_counter()
    result = function(*args)
    return time.perf_counter() - started, result


class Estimates:
    """The seconds a procedure's answers take, an exponential average per key (a rule set, a
    procedure and the route), measured where they were computed."""

    def __init__(self, limit: float = CHEAP_SECONDS, weight: float = ESTIMATE_WEIGHT) -> None:
        self.limit = limit
        self.weight = weight
        self.seconds: dict[Hashable, float] = {}

    def cheap(self, key: Hashable) -> bool:
        """Whether ``key``'s answers are cheap so far (an unknown one is: the work budget's
        trial bounds it)."""
        return self.seconds.get(key, 0.0) <= self.limit

    def record(self, key: Hashable, seconds: float) -> None:
        old = self.seconds.get(key)
        self.seconds[key] = seconds if old is None else old + self.weight * (seconds - old)


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
