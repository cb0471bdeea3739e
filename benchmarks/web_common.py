"""What every phase of the web benchmark (``benchmarks/web.py``) shares: the server under
test (``firefight serve`` in its own process), one client's keep-alive requests on asyncio
streams, and the summaries of their latencies."""

from __future__ import annotations

import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Coroutine
from pathlib import Path

import httpx

HOST = "127.0.0.1"
ENDPOINT = "/api/rulesets/ept/fire/odds"
MAX_REQUESTS_PER_CLIENT = 50_000  # a bound on the count as well as on the time
REQUEST_TIMEOUT_S = 10.0
STARTUP_TIMEOUT_S = 30.0
CHECK_EVERY = 25  # one answer in 25 is compared with the in-process distribution
CHEAP_CLIENTS = 10
THINK_S = 0.02
"""The contention phases' cheap clients: each asks for a cached answer, waits 20 ms, asks
again (a paced load, so that latency measures waiting, not a saturated server)."""

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


def start_server(
    app: str | None, workers: int, pythonpath: Path | None = None
) -> tuple[subprocess.Popen, str]:
    """The server in its own process on a free loopback port, once it answers; with
    ``pythonpath`` first on its ``PYTHONPATH`` (a baseline revision's ``src``, the floor's
    app)."""
    port = free_port()
    env = None
    if pythonpath is not None:
        env = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join([str(pythonpath), os.environ.get("PYTHONPATH", "")]),
        }
    process = subprocess.Popen(
        server_command(app, port, workers), stdout=subprocess.DEVNULL, env=env
    )
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


# --- one client ----------------------------------------------------------------------------


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
    local: str | None = None,
    record: list[tuple[float, dict]] | None = None,
) -> None:
    """One client: one keep-alive connection, a request as soon as the last one is answered
    (or ``think`` seconds after), until the time is up or ``pick`` has no more requests;
    from the loopback address ``local`` if given (the server's costly queue is fair between
    addresses); each latency with its request's data in ``record`` if given.

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
                    where = None if local is None else (local, 0)
                    connection = await asyncio.open_connection(HOST, port, local_addr=where)
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
        if record is not None:
            record.append((latencies[-1], data))
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


def cheap_clients(
    port: int,
    pool: list[tuple[dict, dict]],
    seed: int,
    *,
    stop_at: float,
    latencies: list[float],
    errors: list[str],
) -> list[Coroutine[None, None, None]]:
    """:data:`CHEAP_CLIENTS` paced clients (:data:`THINK_S` between requests) asking until
    ``stop_at`` for attacks drawn at random from ``pool`` (cached answers once warmed)."""
    cheap = [(request_bytes(port, data), data, distribution) for data, distribution in pool]
    rng = random.Random(seed)
    return [
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


def summary(latencies: list[float], errors: list[str], seconds: float) -> dict:
    return {
        "seconds": seconds,
        "requests": len(latencies),
        "per_second": len(latencies) / seconds,
        "errors": len(errors),
        "error_examples": sorted(set(errors))[:5],
        **percentiles(latencies),
    }


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
