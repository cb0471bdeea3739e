"""The shared table's rate limits: requests a minute per client address, an IPv4 address
or an IPv6 network (docs/pbem.md "A shared table"), each call O(1) however many addresses
are counted."""

from __future__ import annotations

import ipaddress
import threading
import time
from collections import OrderedDict
from collections.abc import Callable

RATE_WINDOW_S = 60.0
"""The rate limits' window: a minute."""
TRACKED_ADDRESSES = 50_000
"""The client addresses each rate limit keeps count of (about 250 bytes each: 12 MB at most).
Past it the least recently seen is forgotten, and starts his minute again: only more than
50,000 addresses (or IPv6 networks) within two minutes can make one be forgotten early."""
IPV6_NETWORK = 64
"""The prefix length an IPv6 client is counted by: a /64 is one subscriber's network, any
address of which his machine may take."""


def client_key(host: str) -> str:
    """The key a client address is counted by: an IPv4 address itself, an IPv6 address its
    network (:data:`IPV6_NETWORK`), an IPv4-mapped IPv6 address the IPv4 one; anything else
    (a Unix socket's peer, a test client) as given."""
    try:
        address = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, IPV6_NETWORK), strict=False))
    return str(address)


class _Window:
    """One key's requests: counted by minutes from its first, this one's and the last one's."""

    __slots__ = ("count", "last", "previous", "start")

    def __init__(self, now: float) -> None:
        self.start = now
        self.count = 0
        self.previous = 0
        self.last = now

    def take(self, now: float, limit: int) -> bool:
        """Count one request at ``now`` unless the sliding minute holds ``limit`` already:
        this minute's count and the last one's, weighted by its part still inside."""
        self.last = now
        elapsed = now - self.start
        if elapsed >= 2 * RATE_WINDOW_S:
            self.start, self.count, self.previous, elapsed = now, 0, 0, 0.0
        elif elapsed >= RATE_WINDOW_S:
            self.start += RATE_WINDOW_S
            self.previous, self.count = self.count, 0
            elapsed -= RATE_WINDOW_S
        if self.previous * (1 - elapsed / RATE_WINDOW_S) + self.count >= limit:
            return False
        self.count += 1
        return True


class RateLimit:
    """At most ``limit`` requests a minute per key (a sliding minute, :class:`_Window`).

    The keys are kept least recently seen first: each call forgets, from that end, the keys
    idle for two minutes (each key once: a call costs O(1), amortised, however many keys are
    tracked), and past ``tracked`` keys the least recently seen."""

    def __init__(
        self,
        limit: int,
        tracked: int = TRACKED_ADDRESSES,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.limit = limit
        self.tracked = tracked
        self.clock = clock
        self.visited = 0
        """The keys' windows looked at so far, every call's together (what a call costs)."""
        self._seen: OrderedDict[str, _Window] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        """The keys tracked now."""
        return len(self._seen)

    def allow(self, key: str) -> bool:
        """Count one request for ``key``; whether it is within the limit."""
        now = self.clock()
        with self._lock:
            seen = self._seen
            while seen:
                self.visited += 1
                oldest = next(iter(seen.values()))
                if oldest.last > now - 2 * RATE_WINDOW_S:
                    break
                seen.popitem(last=False)
            window = seen.get(key)
            self.visited += 1
            if window is None:
                window = seen[key] = _Window(now)
                if len(seen) > self.tracked:
                    seen.popitem(last=False)
            else:
                seen.move_to_end(key)
            return window.take(now, self.limit)
