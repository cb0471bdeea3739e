"""The phases of the web benchmark (``benchmarks/web.py``) but the costly one
(``web_costly.py``): the attacks and their in-process baseline, the load of 50 clients, the
contention of cheap clients with one costly client, and the probes of a hostile client."""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import random
import selectors
import socket
import subprocess
import threading
import time

import httpx

import firefight
from firefight.errors import FirefightError
from run import random_attack_data
from web_common import (
    CHEAP_CLIENTS,
    ENDPOINT,
    HOST,
    REQUEST_TIMEOUT_S,
    THINK_S,
    Request,
    cheap_clients,
    client,
    cpu_seconds,
    percentiles,
    request_bytes,
    summary,
)

COSTLY_ENDPOINT = "/api/rulesets/tirs/fire/odds"
COSTLY_TIMEOUT_S = 30.0
HEADER_MIB = 100
HALF_HEADS = 2000
HALF_HEADS_WAIT_S = 30.0

STRENGTHS = (1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16, 20, 24, 30, 40)


# --- the attacks ----------------------------------------------------------------------------


def random_attack(rng: random.Random) -> dict[str, object]:
    """A valid-looking EPT fire attack (``run.py``'s draw, over :data:`STRENGTHS`), a morale
    test one time in five."""
    data = random_attack_data(rng, "chart", STRENGTHS)
    if rng.random() < 0.2:
        data["follow_up"] = "morale_test"
        data["morale"] = rng.randint(5, 10)
    return data


def in_process(fire, ruleset_id: str, data: dict[str, object]) -> dict[str, object]:
    """What the endpoint answers, computed here: the CLI's ``odds --json`` shape."""
    inp = fire.parse(data)
    distribution = fire.odds(inp)
    return {
        "ruleset": ruleset_id,
        "procedure": fire.name,
        "input": inp.model_dump(mode="json"),
        "modifiers": [m.to_json() for m in fire.modifiers(inp)],
        "distribution": distribution.to_json(),
        "facts": [[label, value] for label, value in fire.facts(inp)],
    }


def attack_pool(
    fire, ruleset_id: str, size: int, seed: int, seen: set[str] | None = None
) -> list[tuple[dict, dict]]:
    """``size`` distinct attacks the rules allow, each with its in-process distribution; none
    of them in ``seen``, to which they are added."""
    rng = random.Random(seed)
    seen = set() if seen is None else seen
    pool: list[tuple[dict, dict]] = []
    for _ in range(size * 50):
        if len(pool) == size:
            break
        data = random_attack(rng)
        key = json.dumps(data, sort_keys=True)
        if key in seen:
            continue
        seen.add(key)
        try:
            answer = in_process(fire, ruleset_id, data)
        except FirefightError:
            continue  # a unit that cannot attack: the endpoint's 422, not a load request
        pool.append((data, answer["distribution"]))
    return pool


def costly_attacks() -> list[dict[str, object]]:
    """The costliest odds requests a client can build: tirs fire at CdT 20, short range,
    ``fires`` 5 (46,741 steps of the chance engine, about 1 s of CPU), varied so that none is
    in the server's cache (what varies does not change the cost)."""
    fire = firefight.ruleset("tirs").procedure("fire")
    attacks: list[dict[str, object]] = []
    for protection in range(7):
        for experience in ("novice", "trained", "veteran"):
            for camouflaged in (False, True):
                for moving in (False, True):
                    data: dict[str, object] = {
                        "cdt": 20,
                        "experience": experience,
                        "range": "short",
                        "fires": 5,
                        "protection": protection,
                        "target_camouflaged": camouflaged,
                        "target_moving": moving,
                    }
                    try:
                        fire.parse(data)
                    except FirefightError:
                        continue
                    attacks.append(data)
    return attacks


# --- the baseline: the same work without HTTP ----------------------------------------------


def baseline(fire, ruleset_id: str, pool: list[tuple[dict, dict]], seconds: float) -> dict:
    for data, _ in pool:  # warm, as the server is warmed before the load starts
        json.dumps(in_process(fire, ruleset_id, data))
    timings: list[float] = []
    started = time.perf_counter()
    index = 0
    while time.perf_counter() - started < seconds:
        data = pool[index % len(pool)][0]
        index += 1
        start = time.perf_counter()
        json.dumps(in_process(fire, ruleset_id, data))
        timings.append(time.perf_counter() - start)
    elapsed = time.perf_counter() - started
    return {"calls": len(timings), "per_second": len(timings) / elapsed, **percentiles(timings)}


# --- the load -------------------------------------------------------------------------------


async def load(
    port: int, pool: list[tuple[dict, dict]], clients: int, seconds: float, *, repeat: bool
) -> dict:
    """``clients`` clients for ``seconds``: each request an attack drawn from ``pool`` at
    random (``repeat``), or the pool's attacks in turn, each sent once (the phase ends early
    if they run out)."""
    requests = [(request_bytes(port, data), data, distribution) for data, distribution in pool]
    latencies: list[float] = []
    errors: list[str] = []
    rng = random.Random(len(pool))
    if repeat:

        def pick() -> Request | None:
            return requests[rng.randrange(len(requests))]

    else:
        remaining = iter(requests)

        def pick() -> Request | None:
            return next(remaining, None)

    started = time.perf_counter()
    stop_at = started + seconds
    await asyncio.gather(
        *(
            client(port, pick=pick, stop_at=stop_at, latencies=latencies, errors=errors)
            for _ in range(clients)
        )
    )
    elapsed = time.perf_counter() - started
    return {
        "clients": clients,
        "attacks": len(pool),
        "seconds": elapsed,
        "requests": len(latencies),
        "per_second": len(latencies) / elapsed,
        "errors": len(errors),
        "error_examples": sorted(set(errors))[:5],
        **percentiles(latencies),
    }


def measured_load(
    process: subprocess.Popen,
    port: int,
    pool: list[tuple[dict, dict]],
    args: argparse.Namespace,
    *,
    repeat: bool,
) -> dict:
    """:func:`load`, with the CPU time the server and this client spent per request.

    The attack pools (tens of thousands of dicts) are frozen out of this process's garbage
    collector first: otherwise each full collection here walks them all, every client stalls
    at once, and the pause is counted as the server's latency.
    """
    gc.collect()
    gc.freeze()
    server_before, client_before = cpu_seconds(process.pid), time.process_time()
    http = asyncio.run(load(port, pool, args.clients, args.duration, repeat=repeat))
    requests = max(1, http["requests"])
    http["server_cpu_per_request_s"] = (cpu_seconds(process.pid) - server_before) / requests
    http["client_cpu_per_request_s"] = (time.process_time() - client_before) / requests
    return http


async def contention(
    port: int, pool: list[tuple[dict, dict]], costly: list[dict], seconds: float
) -> dict:
    """:data:`CHEAP_CLIENTS` paced clients asking for cached answers for ``seconds``; with
    ``costly``, one more client sends those requests one after another meanwhile."""
    latencies: list[float] = []
    errors: list[str] = []
    heavy_latencies: list[float] = []
    heavy_errors: list[str] = []
    remaining = iter([(request_bytes(port, d, COSTLY_ENDPOINT), d, None) for d in costly])
    started = time.perf_counter()
    stop_at = started + seconds
    clients = cheap_clients(port, pool, 7, stop_at=stop_at, latencies=latencies, errors=errors)
    if costly:
        clients.append(
            client(
                port,
                pick=lambda: next(remaining, None),
                stop_at=stop_at,
                latencies=heavy_latencies,
                errors=heavy_errors,
                timeout=COSTLY_TIMEOUT_S,
            )
        )
    await asyncio.gather(*clients)
    elapsed = time.perf_counter() - started
    result = {"clients": CHEAP_CLIENTS, "think_s": THINK_S, **summary(latencies, errors, elapsed)}
    if costly:
        result["costly"] = summary(heavy_latencies, heavy_errors, elapsed)
    return result


def others_meanwhile(port: int, stop: threading.Event, latencies: list[float]) -> None:
    """A client asking for ``/api/rulesets`` every 20 ms until ``stop``, timing each."""
    while not stop.is_set() and len(latencies) < 100_000:
        start = time.perf_counter()
        try:
            with socket.create_connection((HOST, port), timeout=60) as sock:
                sock.sendall(b"GET /api/rulesets HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                while sock.recv(65536):
                    pass
        except OSError:
            pass
        latencies.append(time.perf_counter() - start)
        time.sleep(THINK_S)


def header_probe(process: subprocess.Popen, port: int) -> dict:
    """One client sends a header line of :data:`HEADER_MIB` MiB while 4 others ask for
    ``/api/rulesets``: how much the server read, how soon it refused, what it cost."""
    stop, latencies = threading.Event(), []
    threads = [
        threading.Thread(target=others_meanwhile, args=(port, stop, latencies)) for _ in range(4)
    ]
    cpu_before = cpu_seconds(process.pid)
    for thread in threads:
        thread.start()
    time.sleep(0.5)
    chunk, sent, answer = b"a" * (1 << 20), 0, b""
    started = time.perf_counter()
    with socket.create_connection((HOST, port), timeout=60) as sock:
        try:
            sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: ")
            for _ in range(HEADER_MIB):
                sock.sendall(chunk)
                sent += len(chunk)
            sock.sendall(b"\r\n\r\n")
            answer = sock.recv(200)
        except OSError:
            pass
        refused_after = time.perf_counter() - started
    time.sleep(0.5)
    stop.set()
    for thread in threads:
        thread.join()
    return {
        "header_mib": HEADER_MIB,
        "sent_mib_before_refusal": sent / (1 << 20),
        "refused_after_s": refused_after,
        "answer": answer.split(b"\r\n", 1)[0].decode(errors="replace") or "(closed)",
        "server_cpu_s": cpu_seconds(process.pid) - cpu_before,
        "others": percentiles(latencies) | {"requests": len(latencies)},
    }


def half_heads_probe(port: int) -> dict:
    """:data:`HALF_HEADS` connections each send half a request head: how soon the server
    closes them all, and the latency of a client asking for ``/api/rulesets`` meanwhile."""
    import resource  # noqa: PLC0415 - POSIX only, as /proc is

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < HALF_HEADS + 500 <= hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (HALF_HEADS + 500, hard))
    stop, latencies = threading.Event(), []
    other = threading.Thread(target=others_meanwhile, args=(port, stop, latencies))
    sockets: list[socket.socket] = []
    selector = selectors.DefaultSelector()
    started = time.perf_counter()
    try:
        for _ in range(HALF_HEADS):
            sock = socket.create_connection((HOST, port), timeout=10)
            sock.sendall(b"GET /api/rulesets HTTP/1.1\r\nHost: x\r\nX-Half: ")
            sock.setblocking(False)
            selector.register(sock, selectors.EVENT_READ)
            sockets.append(sock)
        other.start()
        opened = time.perf_counter() - started
        closed, last = 0, None
        deadline = time.perf_counter() + HALF_HEADS_WAIT_S
        while closed < HALF_HEADS and (left := deadline - time.perf_counter()) > 0:
            for key, _ in selector.select(timeout=left):
                try:
                    data = key.fileobj.recv(65536)  # type: ignore[union-attr]
                except ConnectionResetError:
                    data = b""
                if not data:
                    selector.unregister(key.fileobj)
                    closed += 1
                    last = time.perf_counter() - started
    finally:
        stop.set()
        if other.is_alive():
            other.join()
        for sock in sockets:
            sock.close()
        selector.close()
    return {
        "connections": HALF_HEADS,
        "opened_in_s": opened,
        "closed": closed,
        "all_closed_after_s": last if closed == HALF_HEADS else None,
        "others": percentiles(latencies) | {"requests": len(latencies)},
    }


def warm_up(url: str, pool: list[tuple[dict, dict]]) -> None:
    """One request per attack before timing, as the baseline is warmed."""
    with httpx.Client(base_url=url, timeout=REQUEST_TIMEOUT_S) as http:
        for data, _ in pool:
            http.post(ENDPOINT, json=data)
