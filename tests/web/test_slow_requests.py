"""A costly odds request does not hold up other clients (slow requests do not block
everyone): ``firefight serve`` computes odds not in its cache in a pool of processes, off the
event loop, so a cheap request is answered while the costly one is still being worked out.

One client sends costly requests one after another (a sampled engagement of 20,000 runs, about
1 s of CPU each, each with a seed of its own so that none is cached: since exact odds go
over states no procedure's odds cost that much); another times cheap requests meanwhile.
Without the pool every cheap request that arrived during a computation waited for its end:
their median was about half a computation."""

from __future__ import annotations

import json
import statistics
import threading
import time
from pathlib import Path

from tests.web.served import HOST, serving

SCENARIO = (
    Path(__file__).resolve().parents[2]
    / "src/firefight/rulesets/tirs/data/engagements/tirs_crossroads.toml"
).read_text(encoding="utf-8")
COSTLY = [{"scenario": SCENARIO, "samples": 20_000, "sample_seed": seed} for seed in range(6)]


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
                answer = server.request(post("/api/engage", body), timeout=60)
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
