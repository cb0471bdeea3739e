"""The web server's **CPU per request** under the mix (``web_mix.py``'s inputs), which a loaded
machine hardly changes where its wall-clock rate swings: ``firefight serve`` as players run it,
sent a fixed set of new odds requests of every procedure (the mix's seeded draw) at a moderate
concurrency, and the CPU time (user and system, from ``/proc``) of every process of its tree read
before and after: the event loop's process, the cheap lane's, the pool's. The same for the floor
(``web_floor.py``, the same count of requests) and for the load generator itself; then the
computation alone, in one warmed interpreter (:func:`firefight.web.compute.compute_odds` on each
input once, timed with ``time.process_time``): what no server can avoid.

On ``C`` cores shared by the client and the server, a rate is at most about
``C / (CPU per request, server and client)``; the mix's target is 35 % of the floor's rate, so
the server's CPU per request may be at most ``(floor + client) / 0.35 - client``.

    python benchmarks/web_cpu.py --requests 3000 [--baseline-src /work/main/src] [--profile F]

``--profile F`` runs this tree's server under cProfile (written to ``F`` when it stops): where
the event loop's thread spends its time (slower: its figures are not the unprofiled ones). With
``--spy PATH`` (py-spy, installed apart: no dependency of the project), py-spy records every
thread of the server's main process into ``F`` instead, as collapsed stacks.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx

from web_common import free_port, request_bytes, server_command, start_server, stop_server
from web_floor import ENDPOINT as FLOOR_ENDPOINT
from web_mix import Mixed, load, mix_inputs, warm_inputs

HERE = Path(__file__).resolve().parent
CLIENTS = 20
"""Concurrent clients: enough that the lanes overlap, few enough that no request times out on a
loaded machine."""
POOL_NICE = 10
"""The pool's processes lower their priority by this (``firefight.web.workers``): how they are
told apart from the cheap lane's."""


def tree_cpu(pid: int) -> dict[int, tuple[float, str]]:
    """Every live process of ``pid``'s tree: its CPU seconds and its part (main, cheap, pool,
    other)."""
    found: dict[int, tuple[float, str]] = {}
    tick = os.sysconf("SC_CLK_TCK")

    def walk(process: int, top: bool) -> None:
        try:
            fields = Path(f"/proc/{process}/stat").read_text().rsplit(")", 1)[1].split()
            line = Path(f"/proc/{process}/cmdline").read_bytes()
            children = [
                int(child)
                for task in Path(f"/proc/{process}/task").iterdir()
                for child in (task / "children").read_text().split()
            ]
        except OSError:
            return
        cpu = (int(fields[11]) + int(fields[12])) / tick
        if top:
            part = "main"
            loop = Path(f"/proc/{process}/task/{process}/stat").read_text()
            threads = loop.rsplit(")", 1)[1].split()
            found[-process] = ((int(threads[11]) + int(threads[12])) / tick, "loop")
        elif b"resource_tracker" in line:
            part = "other"
        elif int(fields[16]) >= POOL_NICE:
            part = "pool"
        else:
            part = "cheap"
        found[process] = (cpu, part)
        for child in children:
            walk(child, False)

    walk(pid, True)
    return found


def parts_spent(before: dict, after: dict) -> dict[str, float]:
    """CPU seconds spent per part between two readings (a process born since counts whole)."""
    spent = {"main": 0.0, "loop": 0.0, "cheap": 0.0, "pool": 0.0, "other": 0.0}
    for pid, (cpu, part) in after.items():
        spent[part] += cpu - before.get(pid, (0.0, part))[0]
    return spent


def sent(port: int, requests: list[bytes], clients: int) -> tuple[float, float]:
    """``requests`` sent by ``clients`` clients, each request once: the wall seconds and this
    process's CPU seconds (the load generator's)."""
    queue = iter([(r, {}, None) for r in requests])
    streams = [(queue, 60.0)] * clients
    cpu, wall = time.process_time(), time.perf_counter()
    parts, _ = asyncio.run(load(port, streams, 3600.0))
    errors = [e for part in parts for e in part["errors"]]
    if errors:
        print(f"  {len(errors)} errors, e.g. {errors[:2]}", file=sys.stderr)
    return time.perf_counter() - wall, time.process_time() - cpu


def measured(process: subprocess.Popen, port: int, requests: list[bytes], clients: int) -> dict:
    """The CPU per request of each part of the server's tree and of the client, in ms."""
    before = tree_cpu(process.pid)
    wall, client = sent(port, requests, clients)
    time.sleep(0.2)  # the last answers' bookkeeping
    spent = parts_spent(before, tree_cpu(process.pid))
    count = len(requests)
    per = {part: seconds * 1e3 / count for part, seconds in spent.items()}
    per["server"] = sum(per.values()) - per["loop"]
    per["client"] = client * 1e3 / count
    per["wall_per_s"] = count / wall
    return per


def served(src: Path | None, profile: str | None) -> tuple[subprocess.Popen, int]:
    """``firefight serve`` (with ``src`` first on its path); under cProfile with ``profile``."""
    if profile is None:
        process, url = start_server(None, 1, src)
        return process, int(url.rsplit(":", 1)[1])
    port = free_port()
    command = server_command(None, port, 1)
    command[1:3] = ["-m", "cProfile", "-o", profile, "-m", "firefight"]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/rulesets", timeout=2).status_code == 200:
                return process, port
        except httpx.TransportError:
            time.sleep(0.2)
    raise RuntimeError("the profiled server did not start")


def warmed(port: int, warm: list[Mixed], settle: list[Mixed]) -> None:
    """One request of each procedure, then the settle inputs, untimed (processes started, rule
    sets loaded, paces measured)."""
    with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=120) as http:
        for path, data, _ in warm:
            http.post(path, json=data)
    sent(port, [request_bytes(port, d, p) for p, d, _ in settle], CLIENTS)


def computation(inputs: list[Mixed], warm: list[Mixed], src: Path | None) -> dict:
    """The computation alone, in a fresh interpreter (``src`` first on its path): warmed on
    ``warm``, then ``compute_odds`` of each input once (each new to it, as to the server)."""
    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(src), env.get("PYTHONPATH", "")])
    given = json.dumps({"inputs": inputs, "warm": warm})
    out = subprocess.run(
        [sys.executable, str(HERE / "web_cpu.py"), "--computation"],
        input=given,
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    return json.loads(out.stdout)


def computation_here() -> None:
    """``--computation``: read the inputs on stdin, print the CPU ms of their computation."""
    from firefight.web.compute import _warm, compute_odds  # noqa: PLC0415

    given = json.loads(sys.stdin.read())
    _warm()
    for path, data, _ in given["warm"]:
        parts = path.split("/")
        compute_odds(parts[3], parts[4], json.dumps(data).encode())
    timed: dict[str, list[float]] = {"cheap": [], "costly": []}
    procedures: dict[str, float] = {}
    for path, data, cheap in given["inputs"]:
        parts = path.split("/")
        raw = json.dumps(data).encode()
        started = time.process_time()
        compute_odds(parts[3], parts[4], raw)
        timed["cheap" if cheap else "costly"].append(time.process_time() - started)
        name = f"{parts[3]}.{parts[4]}"
        procedures[name] = procedures.get(name, 0.0) + timed["cheap" if cheap else "costly"][-1]
    count = len(given["inputs"])
    every = timed["cheap"] + timed["costly"]
    ordered = sorted(every)
    shares = {f"under_{t}ms": sum(x * 1e3 <= t for x in every) / count for t in (0.5, 1, 2)}
    shares["cpu_share_under_1ms"] = sum(x for x in every if x <= 1e-3) / sum(every)
    shares["p50_ms"] = ordered[count // 2] * 1e3
    shares["p90_ms"] = ordered[count * 9 // 10] * 1e3
    costliest = sorted(procedures.items(), key=lambda item: -item[1])[:8]
    shares["top_ms_per_request"] = {k: v * 1e3 / count for k, v in costliest}
    print(
        json.dumps(
            {
                "per_request_ms": sum(every) * 1e3 / count,
                "cheap_ms": sum(timed["cheap"]) * 1e3 / max(1, len(timed["cheap"])),
                "costly_ms": sum(timed["costly"]) * 1e3 / max(1, len(timed["costly"])),
                "costly_share": len(timed["costly"]) / count,
                **shares,
            }
        )
    )


def spied(spy: str | None, pid: int, into: str | None) -> subprocess.Popen | None:
    """py-spy (its path, ``spy``) recording every thread of process ``pid`` into ``into`` as
    collapsed stacks, without pausing it, until it is sent SIGINT; ``None`` without ``spy``."""
    if spy is None or into is None:
        return None
    command = [spy, "record", "-p", str(pid), "-r", "200", "-f", "raw", "--threads"]
    spying = subprocess.Popen(
        [*command, "--nonblocking", "-o", into],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    time.sleep(1.0)  # attached before the first request
    return spying


def report(name: str, per: dict) -> None:
    print(
        f"{name:>10}: server {per['server']:.3f} ms/req (main {per['main']:.3f}, of which "
        f"its loop's thread {per['loop']:.3f}; cheap "
        f"{per['cheap']:.3f}, pool {per['pool']:.3f}, other {per['other']:.3f}); client "
        f"{per['client']:.3f}; wall {per['wall_per_s']:.0f} req/s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=3000)
    parser.add_argument("--clients", type=int, default=CLIENTS)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--baseline-src", type=Path, help="another tree's src (main's)")
    parser.add_argument("--profile", help="cProfile this tree's server into this file")
    parser.add_argument("--spy", help="py-spy's path: --profile records the main process")
    parser.add_argument("--computation", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.computation:
        computation_here()
        return
    seen: set[str] = set()
    warm = warm_inputs(args.seed + 2, seen)
    settle = mix_inputs(args.requests // 3, args.seed + 5, seen)
    inputs = mix_inputs(args.requests, args.seed + 3, seen)
    print(
        f"{len(inputs)} mix inputs, {sum(not c for *_, c in inputs) / len(inputs):.1%} past "
        f"the cheap trial; {args.clients} clients; load {os.getloadavg()[0]:.1f}"
    )
    floor, url = start_server("web_floor:app", 1, HERE)
    port = int(url.rsplit(":", 1)[1])
    try:
        request = request_bytes(port, {"strength": 6}, FLOOR_ENDPOINT)
        sent(port, [request] * 500, args.clients)
        report("floor", measured(floor, port, [request] * len(inputs), args.clients))
    finally:
        stop_server(floor)
    trees = [("now", None)] + ([("baseline", args.baseline_src)] if args.baseline_src else [])
    for name, src in trees:
        process, port = served(src, None if args.spy else args.profile if name == "now" else None)
        try:
            warmed(port, warm, settle)
            requests = [request_bytes(port, d, p) for p, d, _ in inputs]
            spying = spied(args.spy, process.pid, args.profile) if name == "now" else None
            report(name, measured(process, port, requests, args.clients))
            if spying is not None:
                spying.send_signal(signal.SIGINT)  # py-spy writes its stacks and ends
                spying.wait(timeout=30)
        finally:
            stop_server(process)
        alone = computation(inputs, warm, src)
        print(
            f"{name:>10}: computation alone {alone['per_request_ms']:.3f} ms/req (cheap "
            f"{alone['cheap_ms']:.3f}, costly {alone['costly_ms']:.3f}, "
            f"{alone['costly_share']:.1%} costly)"
        )
        print(f"{'':>10}  {json.dumps(alone)}")
    print(f"load {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
