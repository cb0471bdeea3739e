"""firefight web benchmark: the odds endpoint under 50 concurrent clients on loopback.

Run with ``make bench`` (after ``run.py`` and ``board.py``) or ``.venv/bin/python
benchmarks/web.py`` (``--quick``: 5 seconds a phase instead of 20). The server is ``firefight
serve``, the command players run, in its own process on a free port of 127.0.0.1; 50 asyncio
clients (one keep-alive connection each, no think time) POST ``/api/rulesets/ept/fire/odds``
with valid EPT fire attacks, in two phases: attacks drawn at random from the same 300 (after
the first time, answered from the server's cache), then for as long again every request a new
attack (computed by the server). Every request's latency is recorded; any status other than
200, a transport error, or a sampled answer whose distribution differs from the in-process
one counts as an error. The CPU time the server and the client spent is reported per request.
The baseline, measured in the same run, is the same work done in-process without HTTP (parse,
odds, modifiers and facts, JSON-encoded), one call after another. Targets: p99
<= 50 ms on the repeated attacks, no errors in either phase (the new attacks' latency is the
worst case, reported); a miss prints MISSED and the exit code is 0 all the same. Traffic goes
only to 127.0.0.1 and stops by itself (time and request count are both bounded). Results go to
``benchmarks/results/web.json``.

Then (``--phases`` picks): **contention**, 10 paced clients asking for cached answers, alone
and while one more client sends the costliest odds requests it can build (tirs fire, CdT 20,
short range, ``fires`` 5), with the target that their p99 at most doubles; and the **probes**
of a hostile client: a 100 MiB header line (read before refusal, time, server CPU, others'
latency meanwhile) and 2,000 connections that send half a request head (time until the server
has closed them all); and **costly** (``web_costly.py``): the same cheap clients idle, then
while 3 clients send each kind of costly request (a 2 MB Up Front upload, a shared table's
answer to the costliest tirs fire, table steps from many addresses), with the target that
their p99 stays within 3 times idle. ``--quick --phases costly`` runs in about two minutes.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import selectors
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import httpx

import firefight
from firefight.errors import FirefightError
from report import environment, progress, write_results

HERE = Path(__file__).resolve().parent
DEFAULT_OUTPUT = HERE / "results" / "web.json"
HOST = "127.0.0.1"
ENDPOINT = "/api/rulesets/ept/fire/odds"

CLIENTS = 50
DURATION_S = 20.0
QUICK_DURATION_S = 5.0
P99_TARGET_S = 50e-3
LATENCY_TARGETED = ("repeated",)
"""The phases the p99 target applies to: the issue's load (varied attacks that players send
again and again). Every request a never-seen attack is the worst case, measured and reported."""
MAX_REQUESTS_PER_CLIENT = 50_000  # a bound on the count as well as on the time
REQUEST_TIMEOUT_S = 10.0
STARTUP_TIMEOUT_S = 30.0
CHECK_EVERY = 25  # one answer in 25 is compared with the in-process distribution
POOL_SIZE = 300
BASELINE_S = 3.0

CHEAP_CLIENTS = 10
THINK_S = 0.02
"""The contention phases' cheap clients: each asks for a cached answer, waits 20 ms, asks
again (a paced load, so that latency measures waiting, not a saturated server)."""
CONTENTION_TARGET = 2.0
"""Their p99 while one client sends the costliest requests, at most twice their p99 alone."""
COSTLY_ENDPOINT = "/api/rulesets/tirs/fire/odds"
COSTLY_TIMEOUT_S = 30.0
HEADER_MIB = 100
HALF_HEADS = 2000
HALF_HEADS_WAIT_S = 30.0

STRENGTHS = (1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16, 20, 24, 30, 40)
RANGES = ("adjacent", "normal", "long")
MOVEMENTS = ("none", "tactical", "normal", "force_march")
PROTECTIONS = ("none", "light", "medium", "important")


# --- the attacks ----------------------------------------------------------------------------


def random_attack(rng: random.Random) -> dict[str, object]:
    data: dict[str, object] = {
        "strength": rng.choice(STRENGTHS),
        "range": rng.choice(RANGES),
        "moved_and_fired": rng.random() < 0.25,
        "firer_stopped": rng.random() < 0.15,
        "firer_in_smoke": rng.random() < 0.1,
        "target_hidden": rng.random() < 0.25,
        "target_movement": rng.choice(MOVEMENTS),
        "protection": rng.choice(PROTECTIONS),
        "target_in_smoke": rng.random() < 0.15,
        "hindrance_hexes": rng.randint(0, 3),
    }
    if data["range"] == "adjacent":  # no hex between adjacent hexes to hinder (the draw kept)
        data["hindrance_hexes"] = 0
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


# --- the server -----------------------------------------------------------------------------


def free_port() -> int:
    """A loopback port nobody listens on now (the server binds it a moment later)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def server_command(app: str | None, port: int, workers: int) -> list[str]:
    """``firefight serve``, the command players run, or uvicorn serving another app factory.

    The server binds its own address: uvicorn's ``--fd`` takes any inherited socket for a Unix
    one (``socket.fromfd(fd, AF_UNIX, ...)``), so a TCP socket handed over that way runs
    without TCP_NODELAY and every answer waits for the client's delayed ACK (about 40 ms here),
    which measures the kernel's timer and not the server.
    """
    if app is None:
        serve = [sys.executable, "-m", "firefight", "serve", "--host", HOST, "--port", str(port)]
        return [*serve, "--workers", str(workers)]
    return [
        sys.executable,
        "-m",
        "uvicorn",
        "--factory",
        app,
        "--host",
        HOST,
        "--port",
        str(port),
        "--log-level",
        "warning",
        "--no-access-log",
        "--workers",
        str(workers),
    ]


def start_server(app: str | None, workers: int) -> tuple[subprocess.Popen, str]:
    """The server in its own process on a free loopback port, once it answers."""
    port = free_port()
    process = subprocess.Popen(server_command(app, port, workers), stdout=subprocess.DEVNULL)
    url = f"http://{HOST}:{port}"
    deadline = time.monotonic() + STARTUP_TIMEOUT_S
    while True:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited with code {process.returncode}")
        try:
            if httpx.get(f"{url}/api/rulesets", timeout=2).status_code == 200:
                return process, url
        except httpx.TransportError:
            pass
        if time.monotonic() > deadline:
            process.terminate()
            raise RuntimeError("the server did not answer within 30 s")
        time.sleep(0.1)


def cpu_seconds(pid: int) -> float:
    """The CPU time (user and system) a process and its live children (uvicorn's workers)
    have used, from ``/proc`` (0 where there is none, as off Linux)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        children = [
            int(child)
            for task in Path(f"/proc/{pid}/task").iterdir()
            for child in (task / "children").read_text().split()
        ]
    except OSError:
        return 0.0
    own = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return own + sum(cpu_seconds(child) for child in children)


def stop_server(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


# --- the load -------------------------------------------------------------------------------


def request_bytes(port: int, data: dict[str, object], endpoint: str = ENDPOINT) -> bytes:
    """One keep-alive HTTP/1.1 POST of ``data`` to an odds endpoint, encoded once."""
    body = json.dumps(data).encode()
    head = (
        f"POST {endpoint} HTTP/1.1\r\nHost: {HOST}:{port}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
    )
    return head.encode() + body


async def read_response(reader: asyncio.StreamReader) -> tuple[int, bytes]:
    """The status and body of one HTTP/1.1 response (Content-Length or chunked)."""
    status_line = await reader.readuntil(b"\r\n")
    status = int(status_line.split(b" ", 2)[1])
    length, chunked = 0, False
    while (line := await reader.readuntil(b"\r\n")) != b"\r\n":
        name, _, value = line.partition(b":")
        name = name.strip().lower()
        if name == b"content-length":
            length = int(value)
        elif name == b"transfer-encoding" and b"chunked" in value.lower():
            chunked = True
    if not chunked:
        return status, await reader.readexactly(length)
    body = bytearray()
    while size := int((await reader.readuntil(b"\r\n")).split(b";")[0], 16):
        body += await reader.readexactly(size)
        await reader.readexactly(2)
    await reader.readuntil(b"\r\n")
    return status, bytes(body)


Request = tuple[bytes, dict, dict | None]
"""The bytes sent, the attack and its in-process distribution (``None``: not checked)."""


async def client(
    port: int,
    *,
    pick: Callable[[], Request | None],
    stop_at: float,
    latencies: list[float],
    errors: list[str],
    think: float = 0.0,
    timeout: float = REQUEST_TIMEOUT_S,
) -> None:
    """One client: one keep-alive connection, a request as soon as the last one is answered
    (or ``think`` seconds after), until the time is up or ``pick`` has no more requests.

    The load is written on the standard library's asyncio streams, not httpx: on a small
    machine httpx's own cost per request (about 2 ms here) would be measured instead of the
    server's. httpx checks the server is up and warms it.
    """
    connection: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None
    for sent in range(MAX_REQUESTS_PER_CLIENT):
        request = pick() if time.perf_counter() < stop_at else None
        if request is None:
            break
        payload, data, distribution = request
        if think and sent:
            await asyncio.sleep(think)
        start = time.perf_counter()
        try:
            async with asyncio.timeout(timeout):
                if connection is None:
                    connection = await asyncio.open_connection(HOST, port)
                reader, writer = connection
                writer.write(payload)
                status, body = await read_response(reader)
        except (OSError, asyncio.IncompleteReadError, TimeoutError, ValueError) as error:
            latencies.append(time.perf_counter() - start)
            errors.append(f"{type(error).__name__}: {error}")
            if connection is not None:
                connection[1].close()
            connection = None
            continue
        latencies.append(time.perf_counter() - start)
        if status != 200:
            errors.append(f"HTTP {status}: {body[:200].decode(errors='replace')}")
        elif (
            distribution is not None
            and sent % CHECK_EVERY == 0
            and json.loads(body).get("distribution") != distribution
        ):
            errors.append(f"wrong distribution for {data}")
    if connection is not None:
        connection[1].close()


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


def summary(latencies: list[float], errors: list[str], seconds: float) -> dict:
    return {
        "seconds": seconds,
        "requests": len(latencies),
        "per_second": len(latencies) / seconds,
        "errors": len(errors),
        "error_examples": sorted(set(errors))[:5],
        **percentiles(latencies),
    }


async def contention(
    port: int, pool: list[tuple[dict, dict]], costly: list[dict], seconds: float
) -> dict:
    """:data:`CHEAP_CLIENTS` paced clients asking for cached answers for ``seconds``; with
    ``costly``, one more client sends those requests one after another meanwhile."""
    cheap = [(request_bytes(port, data), data, distribution) for data, distribution in pool]
    rng = random.Random(7)
    latencies: list[float] = []
    errors: list[str] = []
    heavy_latencies: list[float] = []
    heavy_errors: list[str] = []
    remaining = iter([(request_bytes(port, d, COSTLY_ENDPOINT), d, None) for d in costly])
    started = time.perf_counter()
    stop_at = started + seconds
    clients = [
        client(
            port,
            pick=lambda: cheap[rng.randrange(len(cheap))],
            stop_at=stop_at,
            latencies=latencies,
            errors=errors,
            think=THINK_S,
        )
        for _ in range(CHEAP_CLIENTS)
    ]
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


# --- reporting ------------------------------------------------------------------------------


def percentiles(timings: list[float]) -> dict[str, float]:
    if not timings:
        return {"p50_s": float("nan"), "p95_s": float("nan"), "p99_s": float("nan")}
    ordered = sorted(timings)

    def at(fraction: float) -> float:
        return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]

    return {
        "p50_s": at(0.50),
        "p95_s": at(0.95),
        "p99_s": at(0.99),
        "max_s": ordered[-1],
        "mean_s": statistics.fmean(ordered),
    }


def ms(seconds: float) -> str:
    return f"{seconds * 1e3:.2f} ms"


def print_table(rows: list[tuple[str, ...]]) -> None:
    headers = ("measurement", "value", "baseline", "ratio", "target", "met")
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(headers)]
    print("  ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True)).rstrip())
    print("  ".join("-" * w for w in widths))
    for r in rows:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip())


def table(phases: dict[str, dict], base: dict) -> list[tuple[str, ...]]:
    """Each load phase against the in-process baseline: no errors in any phase, the p99
    target on the phases of :data:`LATENCY_TARGETED` (the others are reported)."""
    rows: list[tuple[str, ...]] = []
    for name, http in phases.items():
        targeted = name in LATENCY_TARGETED
        p99_met = http["p99_s"] <= P99_TARGET_S
        rows += [
            (
                f"{name}: odds over HTTP, {http['clients']} clients",
                f"{http['per_second']:,.0f} req/s",
                f"{base['per_second']:,.0f} calls/s in-process",
                f"{http['per_second'] / base['per_second']:.2f}x",
                "-",
                "-",
            ),
            *(
                (
                    f"{name}: latency {q}",
                    ms(http[f"{q}_s"]),
                    ms(base[f"{q}_s"]),
                    f"{http[f'{q}_s'] / base[f'{q}_s']:.1f}x",
                    "-",
                    "-",
                )
                for q in ("p50", "p95")
            ),
            (
                f"{name}: latency p99",
                ms(http["p99_s"]),
                ms(base["p99_s"]),
                f"{http['p99_s'] / base['p99_s']:.1f}x",
                f"<= {P99_TARGET_S * 1e3:g} ms" if targeted else "(worst case)",
                ("yes" if p99_met else "MISSED") if targeted else "-",
            ),
            (
                f"{name}: errors",
                f"{http['errors']} of {http['requests']:,}",
                "-",
                "-",
                "0",
                "yes" if http["errors"] == 0 else "MISSED",
            ),
        ]
    return rows


PHASES = ("repeated", "new", "contention", "probes", "costly")
"""Load of repeated and of new attacks; cheap clients with and without one client sending the
costliest requests; the hostile-client probes (a 100 MiB header, 2,000 half heads); cheap
clients idle and while 3 clients send each kind of costly request (``web_costly.py``)."""


def contention_rows(quiet: dict, contended: dict) -> list[tuple[str, ...]]:
    ratio = contended["p99_s"] / quiet["p99_s"]
    costly = contended["costly"]
    return [
        (
            f"contention: cheap p99, {CHEAP_CLIENTS} paced clients + 1 costly",
            ms(contended["p99_s"]),
            f"{ms(quiet['p99_s'])} without it",
            f"{ratio:.2f}x",
            f"<= {CONTENTION_TARGET:g}x",
            "yes" if ratio <= CONTENTION_TARGET else "MISSED",
        ),
        (
            "contention: cheap p50",
            ms(contended["p50_s"]),
            f"{ms(quiet['p50_s'])} without it",
            f"{contended['p50_s'] / quiet['p50_s']:.2f}x",
            "-",
            "-",
        ),
        (
            "contention: costly requests (tirs fire, fires 5)",
            f"{costly['requests']} at p50 {ms(costly['p50_s'])}",
            "-",
            "-",
            "-",
            "-",
        ),
        (
            "contention: errors",
            f"{contended['errors'] + costly['errors'] + quiet['errors']} of "
            f"{contended['requests'] + costly['requests'] + quiet['requests']:,}",
            "-",
            "-",
            "0",
            "yes" if contended["errors"] + costly["errors"] + quiet["errors"] == 0 else "MISSED",
        ),
    ]


def probe_rows(header: dict, half: dict) -> list[tuple[str, ...]]:
    return [
        (
            f"probe: {header['header_mib']} MiB header line, read before refusal",
            f"{header['sent_mib_before_refusal']:.0f} MiB sent",
            "-",
            "-",
            "refused",
            "yes" if header["sent_mib_before_refusal"] < header["header_mib"] else "MISSED",
        ),
        (
            "probe: header line refused (or answered) after",
            f"{header['refused_after_s']:.2f} s ({header['answer']})",
            "-",
            "-",
            "-",
            "-",
        ),
        (
            "probe: server CPU for the header line",
            f"{header['server_cpu_s']:.2f} s",
            "-",
            "-",
            "-",
            "-",
        ),
        (
            "probe: others' /api/rulesets meanwhile, p50 / max",
            f"{ms(header['others']['p50_s'])} / {ms(header['others']['max_s'])}",
            "-",
            "-",
            "-",
            "-",
        ),
        (
            f"probe: {half['connections']:,} half heads, all closed after",
            "never"
            if half["all_closed_after_s"] is None
            else f"{half['all_closed_after_s']:.2f} s",
            "-",
            "-",
            f"closed ({half['closed']:,} were)",
            "yes" if half["closed"] == half["connections"] else "MISSED",
        ),
        (
            "probe: others' /api/rulesets meanwhile, p50 / max",
            f"{ms(half['others']['p50_s'])} / {ms(half['others']['max_s'])}",
            "-",
            "-",
            "-",
            "-",
        ),
    ]


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="5 s of load instead of 20 s")
    parser.add_argument("--clients", type=int, default=CLIENTS, help="concurrent clients")
    parser.add_argument(
        "--workers", type=int, default=1, help="server processes (firefight serve --workers)"
    )
    parser.add_argument("--seed", type=int, default=20240601, help="seed of the attack pool")
    parser.add_argument(
        "--app",
        default=None,
        help="serve this app factory (module:function) with uvicorn instead of firefight serve",
    )
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT, help="JSON results file")
    parser.add_argument(
        "--phases",
        default=",".join(PHASES),
        help=f"the phases to run, comma-separated, of {', '.join(PHASES)} (default: all)",
    )
    args = parser.parse_args(argv)
    args.phases = [p for p in args.phases.split(",") if p]
    unknown = sorted(set(args.phases) - set(PHASES))
    if unknown:
        parser.error(f"--phases must name some of {', '.join(PHASES)} (got {','.join(unknown)})")
    args.duration = QUICK_DURATION_S if args.quick else DURATION_S
    return args


def serve_and_measure(
    args: argparse.Namespace, pool: list[tuple[dict, dict]], fresh: list[tuple[dict, dict]]
) -> tuple[dict[str, dict], dict[str, dict], dict[str, dict], dict[str, dict]]:
    """Start the server and run the phases asked for: the load phases, the contention
    phases (cheap clients alone, then with one costly client), the probes and the costly
    loads (cheap clients idle, then with 3 clients sending each kind of costly request)."""
    progress("starting the server: firefight serve, in its own process")
    process, url = start_server(args.app, args.workers)
    phases: dict[str, dict] = {}
    contended: dict[str, dict] = {}
    probes: dict[str, dict] = {}
    costly: dict[str, dict] = {}
    try:
        warm_up(url, pool)
        port = int(url.rsplit(":", 1)[1])
        if "repeated" in args.phases:
            progress(f"load, repeated attacks: {args.clients} clients for {args.duration:g} s")
            phases["repeated"] = measured_load(process, port, pool, args, repeat=True)
        if "new" in args.phases:
            progress(f"load, every attack new: {args.clients} clients for {args.duration:g} s")
            phases["new"] = measured_load(process, port, fresh, args, repeat=False)
        if "contention" in args.phases:
            progress(f"contention: {CHEAP_CLIENTS} paced clients alone, {args.duration:g} s")
            contended["quiet"] = asyncio.run(contention(port, pool, [], args.duration))
            progress(
                f"contention: the same, and one client sending costly odds, {args.duration:g} s"
            )
            costly = costly_attacks()
            contended["contended"] = asyncio.run(contention(port, pool, costly, args.duration))
        if "probes" in args.phases:
            progress(f"probe: a {HEADER_MIB} MiB header line")
            probes["header"] = header_probe(process, port)
            progress(f"probe: {HALF_HEADS:,} connections sending half a head")
            probes["half_heads"] = half_heads_probe(port)
        if "costly" in args.phases:
            from web_costly import costly_load  # noqa: PLC0415 - it imports this module

            costly = costly_load(port, pool, args.duration, progress)
    finally:
        stop_server(process)
    return phases, contended, probes, costly


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[union-attr]
    ruleset = firefight.ruleset("ept")
    fire = ruleset.procedure("fire")
    print(
        f"firefight web benchmark ({'quick' if args.quick else 'full'} run): POST {ENDPOINT}, "
        f"{args.clients} clients for {args.duration:g} s on {HOST}"
    )
    progress(f"building {POOL_SIZE} varied, valid EPT fire attacks")
    seen: set[str] = set()
    pool = attack_pool(fire, ruleset.id, POOL_SIZE, args.seed, seen)
    progress(f"baseline: the same odds in-process without HTTP, {BASELINE_S:g} s")
    base = baseline(fire, ruleset.id, pool, BASELINE_S)
    # The server cannot answer new attacks faster than the baseline computes them alone, so
    # this many will not run out before the time is up.
    fresh_size = int(base["per_second"] * args.duration * 1.2) if "new" in args.phases else 0
    progress(f"building {fresh_size:,} more attacks, each to be sent once")
    fresh = attack_pool(fire, ruleset.id, fresh_size, args.seed + 1, seen)

    phases, contended, probes, costly = serve_and_measure(args, pool, fresh)
    rows = table(phases, base)
    if contended:
        rows += contention_rows(contended["quiet"], contended["contended"])
    if probes:
        rows += probe_rows(probes["header"], probes["half_heads"])
    if costly:
        from web_costly import costly_rows  # noqa: PLC0415

        rows += costly_rows(costly)
    print()
    print_table(rows)
    print()
    server = "firefight serve" if args.app is None else args.app
    processes = f"{args.workers} worker process" + ("es" if args.workers > 1 else "")
    print(
        f"{args.clients} clients (asyncio streams, one keep-alive connection each, no think "
        f"time) against {server} ({processes}); client and server share {os.cpu_count()} CPUs."
    )
    described = {
        "repeated": "attacks drawn at random from the same {attacks} (answered from the "
        "server's cache after the first)",
        "new": "every request a different attack, none seen before (computed by the server)",
    }
    for name, http in phases.items():
        print(
            f"{name}: {http['requests']:,} requests in {http['seconds']:.1f} s, "
            + described[name].format(attacks=http["attacks"])
            + f"; CPU per request: server {ms(http['server_cpu_per_request_s'])}, "
            f"client {ms(http['client_cpu_per_request_s'])}."
        )
        for example in http["error_examples"]:
            print(f"{name}: error: {example}")
    missed = [r[0] for r in rows if r[5] == "MISSED"]
    for name in missed:
        print(f"MISSED target: {name}")
    if not missed:
        print("All targets met.")

    results = {
        "generated": datetime.now(UTC).isoformat(timespec="seconds"),
        "mode": "quick" if args.quick else "full",
        "endpoint": ENDPOINT,
        "server": server,
        "environment": environment(httpx=httpx.__version__),
        "targets": {"p99_s": P99_TARGET_S, "p99_phases": LATENCY_TARGETED, "errors": 0},
        "http": phases,
        "contention": contended,
        "probes": probes,
        "costly": costly,
        "baseline_in_process": base,
        "missed": missed,
    }
    write_results(args.output, results, default=None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
