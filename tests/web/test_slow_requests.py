"""A costly odds request does not hold up other clients (slow requests do not block
everyone): ``firefight serve`` computes odds not in its cache in a pool of processes, off the
event loop, so a cheap request is answered while the costly one is still being worked out.

One client sends costly tirs fire odds one after another (each about 1 s of CPU, each new to
the cache); another times cheap requests meanwhile. Without the pool every cheap request that
arrived during a computation waited for its end: their median was about half a computation."""

from __future__ import annotations

import json
import statistics
import threading
import time

from tests.web.served import HOST, serving

COSTLY = [
    {"cdt": 20, "experience": experience, "range": "short", "fires": 5, "protection": protection}
    for protection in (0, 1)
    for experience in ("novice", "trained", "veteran")
]


def post(path: str, body: dict[str, object]) -> bytes:
    data = json.dumps(body).encode()
    return (
        f"POST {path} HTTP/1.1\r\nHost: {HOST}\r\nConnection: close\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n\r\n"
    ).encode() + data


def test_cheap_requests_are_answered_while_costly_odds_are_computed():
    with serving(env={"FIREFIGHT_COMPUTE_PROCESSES": "1"}) as server:
        costly_times: list[float] = []
        done = threading.Event()

        def costly() -> None:
            for body in COSTLY[:3]:
                started = time.perf_counter()
                answer = server.request(post("/api/rulesets/tirs/fire/odds", body), timeout=60)
                costly_times.append(time.perf_counter() - started)
                assert answer.startswith(b"HTTP/1.1 200"), answer[:200]
            done.set()

        cheap_times: list[float] = []
        thread = threading.Thread(target=costly)
        thread.start()
        time.sleep(0.2)
        while not done.is_set() and len(cheap_times) < 500:
            started = time.perf_counter()
            assert server.get("/api/rulesets", timeout=60).startswith(b"HTTP/1.1 200")
            cheap_times.append(time.perf_counter() - started)
            time.sleep(0.01)
        thread.join()
    assert len(cheap_times) >= 10
    assert statistics.median(cheap_times) < min(costly_times) / 4, (cheap_times, costly_times)
