"""The **costly** phase of the web benchmark (``benchmarks/web.py --phases costly``): a cheap
request's latency while a few clients each send one kind of costly request.

The cheap request is the procedure page's: ``ept fire`` odds from the server's cache,
:data:`web_common.CHEAP_CLIENTS` paced clients (:data:`web_common.THINK_S` between requests).
They are timed alone (idle), then while :data:`COSTLY_CLIENTS` more clients send, one kind
after the other:

* **upload**: Up Front odds with the largest upload the route takes, a deck and a personality
  file each of :data:`UPLOAD_BYTES` of ``x = [1,1,1,…]`` (a 2 MB body);
* **table**: a shared table's answer to a declared tirs ``fire`` at CdT 20, veteran, short
  range, ``fires`` 5 (the costliest odds the rules allow), each client playing his own game
  from his own loopback address (a table's steps are limited per address), declaring and
  answering in turn (the answers are timed);
* **limiter**: table steps each from a new loopback address (``127.2.x.y``) once the limiter
  counts :data:`LIMITER_PREFILL` addresses, each refused after the limiter (no game is made).

Target: the cheap p99 under each load at most :data:`COSTLY_TARGET` times its idle p99, both
measured in the same run. Traffic goes only to loopback addresses (127.0.0.0/8) and stops by
itself (time and request counts are bounded).
"""

from __future__ import annotations

import asyncio
import ipaddress
import itertools
import json
import time
from collections.abc import Awaitable, Callable

from firefight.pbem.chain import anchor, element, new_seed
from firefight.rulesets.upfront.loader import MAX_FILE_BYTES
from web_common import (
    CHEAP_CLIENTS,
    HOST,
    cheap_clients,
    client,
    ms,
    read_response,
    request_bytes,
    summary,
)

COSTLY_CLIENTS = 3
COSTLY_TARGET = 3.0
"""The cheap p99 under a costly load, at most three times its idle p99."""
COSTLY_TIMEOUT_S = 60.0
UPLOAD_ENDPOINT = "/api/rulesets/upfront/artillery/odds"
UPLOAD_BYTES = MAX_FILE_BYTES - 64
"""Each uploaded file's text: just under the largest file the loader reads."""
TIRS_FIRE = {"cdt": 20, "experience": "veteran", "range": "short", "fires": 5}
TABLE_LENGTH = 25
"""Resolutions per game: 53 steps with its creation and commits, within the table's 60 steps a
minute per address."""
LIMITER_PREFILL = 12_000
"""Addresses the table's limiter counts before the limiter load (it rebuilt its table on each
call past 10,000)."""
PREFILL_TASKS = 8
SETTLE_S = 3.0
"""The cheap clients run untimed first, while the server's odds pool starts."""
KINDS = ("upload", "table", "limiter")


def http_bytes(method: str, path: str, body: object = None, token: str | None = None) -> bytes:
    """One HTTP/1.1 request (keep-alive), JSON body and bearer token if given."""
    data = b"" if body is None else json.dumps(body).encode()
    head = f"{method} {path} HTTP/1.1\r\nHost: {HOST}\r\nContent-Length: {len(data)}\r\n"
    if body is not None:
        head += "Content-Type: application/json\r\n"
    if token is not None:
        head += f"Authorization: Bearer {token}\r\n"
    return (head + "\r\n").encode() + data


def upload_request(port: int) -> bytes:
    text = "x = [" + "1," * ((UPLOAD_BYTES - 8) // 2) + "1]"
    data = {"deck": "uploaded", "deck_toml": text, "men": "uploaded", "men_toml": text}
    return request_bytes(port, data, UPLOAD_ENDPOINT)


async def table_player(
    port: int, address: str, stop_at: float, latencies: list[float], errors: list[str]
) -> None:
    """One game from ``address``: created, both sides committed, then A declares the costly
    fire and B answers, until the time or the game's resolutions are up. Answers are timed."""
    reader, writer = await asyncio.open_connection(HOST, port, local_addr=(address, 0))

    async def call(method: str, path: str, body: object = None, token: str | None = None):
        async with asyncio.timeout(COSTLY_TIMEOUT_S):
            writer.write(http_bytes(method, path, body, token))
            status, content = await read_response(reader)
        if status != 200:
            errors.append(f"{path.rsplit('/', 1)[-1]}: HTTP {status}: {content[:160]!r}")
        return status, content

    try:
        players = {"players": {"A": "al", "B": "bo"}, "length": TABLE_LENGTH}
        status, made = await call("POST", "/api/table", players)
        if status != 200:
            return
        game = json.loads(made)
        tokens = {side: link.split("#", 1)[1] for side, link in game["links"].items()}
        seeds = {side: new_seed() for side in tokens}
        for side in ("B", "A"):
            commit = {"anchor": anchor(seeds[side], TABLE_LENGTH).hex()}
            await call("POST", f"/api/table/{game['game']}/commit", commit, tokens[side])
        for index in range(1, TABLE_LENGTH + 1):
            if time.perf_counter() >= stop_at:
                break
            declare = {
                "ruleset": "tirs",
                "procedure": "fire",
                "input": TIRS_FIRE,
                "element": element(seeds["A"], TABLE_LENGTH, index).hex(),
            }
            await call("POST", f"/api/table/{game['game']}/declare", declare, tokens["A"])
            answer = {"element": element(seeds["B"], TABLE_LENGTH, index).hex()}
            start = time.perf_counter()
            await call("POST", f"/api/table/{game['game']}/answer", answer, tokens["B"])
            latencies.append(time.perf_counter() - start)
    except (OSError, asyncio.IncompleteReadError, TimeoutError, ValueError) as error:
        errors.append(f"{type(error).__name__}: {error}")
    finally:
        writer.close()


def fresh_addresses(first: int) -> Callable[[], str]:
    """Loopback addresses from ``127.2.0.1`` on, one after another, from the ``first``-th."""
    base = int(ipaddress.IPv4Address("127.2.0.1")) + first
    count = itertools.count()

    def following() -> str:
        return str(ipaddress.IPv4Address(base + next(count)))

    return following


async def limiter_client(
    port: int,
    address: Callable[[], str],
    stop_at: float,
    latencies: list[float],
    errors: list[str],
    *,
    most: int,
) -> None:
    """Table steps, each on a new connection from a new address (a refused creation: the
    limiter counts it, then no game is made), until the time or ``most`` is up."""
    request = http_bytes("POST", "/api/table", {}).replace(
        b"HTTP/1.1\r\n", b"HTTP/1.1\r\nConnection: close\r\n", 1
    )
    for _ in range(most):
        if time.perf_counter() >= stop_at:
            break
        start = time.perf_counter()
        try:
            async with asyncio.timeout(COSTLY_TIMEOUT_S):
                reader, writer = await asyncio.open_connection(
                    HOST, port, local_addr=(address(), 0)
                )
                writer.write(request)
                status, content = await read_response(reader)
                writer.close()
        except (OSError, asyncio.IncompleteReadError, TimeoutError, ValueError) as error:
            errors.append(f"{type(error).__name__}: {error}")
            continue
        latencies.append(time.perf_counter() - start)
        if status != 422:
            errors.append(f"HTTP {status}: {content[:160]!r}")


async def prefill(port: int, address: Callable[[], str]) -> dict:
    """:data:`LIMITER_PREFILL` table steps from as many addresses, before the timing."""
    latencies: list[float] = []
    errors: list[str] = []
    share = LIMITER_PREFILL // PREFILL_TASKS
    stop_at = time.perf_counter() + 600
    await asyncio.gather(
        *(
            limiter_client(port, address, stop_at, latencies, errors, most=share)
            for _ in range(PREFILL_TASKS)
        )
    )
    return {"addresses": len(latencies), "errors": len(errors)}


async def cheap_under(
    port: int,
    pool: list[tuple[dict, dict]],
    seconds: float,
    costly: Callable[[float, list[float], list[str]], list[Awaitable[None]]] | None,
) -> dict:
    """The cheap clients for ``seconds``, alone or with the ``costly`` clients meanwhile."""
    latencies: list[float] = []
    errors: list[str] = []
    heavy_latencies: list[float] = []
    heavy_errors: list[str] = []
    started = time.perf_counter()
    stop_at = started + seconds
    clients = cheap_clients(port, pool, 11, stop_at=stop_at, latencies=latencies, errors=errors)
    if costly is not None:
        clients += costly(stop_at, heavy_latencies, heavy_errors)
    await asyncio.gather(*clients)
    elapsed = time.perf_counter() - started
    result = summary(latencies, errors, elapsed)
    if costly is not None:
        result["costly"] = summary(heavy_latencies, heavy_errors, elapsed)
    return result


def costly_load(port: int, pool: list[tuple[dict, dict]], seconds: float, progress) -> dict:
    """The cheap clients idle, then under each kind of costly load in turn."""
    results: dict[str, dict] = {}
    progress(f"costly: {CHEAP_CLIENTS} paced cheap clients alone, {SETTLE_S:g} s untimed first")
    asyncio.run(cheap_under(port, pool, SETTLE_S, None))  # the pool's processes warm meanwhile
    progress(f"costly: {CHEAP_CLIENTS} paced cheap clients alone, {seconds:g} s")
    results["idle"] = asyncio.run(cheap_under(port, pool, seconds, None))
    upload = upload_request(port)
    remaining = [COSTLY_CLIENTS * 1_000]

    def uploads(stop_at: float, latencies: list[float], errors: list[str]):
        def pick():
            remaining[0] -= 1
            return (upload, {}, None) if remaining[0] >= 0 else None

        return [
            client(
                port,
                pick=pick,
                stop_at=stop_at,
                latencies=latencies,
                errors=errors,
                timeout=COSTLY_TIMEOUT_S,
            )
            for _ in range(COSTLY_CLIENTS)
        ]

    def tables(stop_at: float, latencies: list[float], errors: list[str]):
        return [
            table_player(port, f"127.0.1.{n + 1}", stop_at, latencies, errors)
            for n in range(COSTLY_CLIENTS)
        ]

    address = fresh_addresses(0)

    def limiters(stop_at: float, latencies: list[float], errors: list[str]):
        return [
            limiter_client(port, address, stop_at, latencies, errors, most=100_000)
            for _ in range(COSTLY_CLIENTS)
        ]

    for kind, costly in (("upload", uploads), ("table", tables), ("limiter", limiters)):
        if kind == "limiter":
            progress(f"costly: {LIMITER_PREFILL:,} table steps from as many addresses first")
            results["prefill"] = asyncio.run(prefill(port, address))
        progress(f"costly: the cheap clients and {COSTLY_CLIENTS} sending {kind}, {seconds:g} s")
        results[kind] = asyncio.run(cheap_under(port, pool, seconds, costly))
    progress(f"costly: the cheap clients alone again, {seconds:g} s")
    results["idle_after"] = asyncio.run(cheap_under(port, pool, seconds, None))
    return results


def costly_rows(results: dict) -> list[tuple[str, ...]]:
    """Each load's cheap p50 and p99 against idle (before or after the loads, whichever is
    quicker: the stricter ratio), and the costly requests' own latency."""
    idle = min(results["idle"], results["idle_after"], key=lambda idle: idle["p99_s"])
    described = {
        "upload": f"Up Front upload, 2 x {UPLOAD_BYTES / 1e6:.1f} MB",
        "table": "table answer, tirs fire 5",
        "limiter": f"table steps from new addresses ({LIMITER_PREFILL:,} counted)",
    }
    rows: list[tuple[str, ...]] = []
    for kind in KINDS:
        loaded = results[kind]
        ratio = loaded["p99_s"] / idle["p99_s"]
        costly = loaded["costly"]
        rows += [
            (
                f"costly {kind}: cheap p99, {COSTLY_CLIENTS} sending {described[kind]}",
                ms(loaded["p99_s"]),
                f"{ms(idle['p99_s'])} idle",
                f"{ratio:.2f}x",
                f"<= {COSTLY_TARGET:g}x",
                "yes" if ratio <= COSTLY_TARGET else "MISSED",
            ),
            (
                f"costly {kind}: cheap p50",
                ms(loaded["p50_s"]),
                f"{ms(idle['p50_s'])} idle",
                f"{loaded['p50_s'] / idle['p50_s']:.2f}x",
                "-",
                "-",
            ),
            (
                f"costly {kind}: the costly requests, p50 / max",
                f"{costly['requests']} at {ms(costly['p50_s'])} / {ms(costly['max_s'])}"
                if costly["requests"]
                else "none answered",
                "-",
                "-",
                "-",
                "-",
            ),
            (
                f"costly {kind}: errors (cheap; costly)",
                f"{loaded['errors']} of {loaded['requests']:,}; "
                f"{costly['errors']} of {costly['requests']:,}",
                "-",
                "-",
                "0; -",
                "yes" if loaded["errors"] == 0 else "MISSED",
            ),
        ]
    return rows
