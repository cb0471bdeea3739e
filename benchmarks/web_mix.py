"""The **mix** phase of the web benchmark (``benchmarks/web.py --phases mix``): the server under
the load of every procedure, against a floor measured in the same run.

* **floor**: a trivial FastAPI endpoint (``web_floor.py``) served by uvicorn, under
  :data:`MIX_CLIENTS` clients (keep-alive, no think time): what HTTP, uvicorn and FastAPI cost.
* **mix**: the same clients, each request the odds of a procedure drawn at random among every
  rule set's, its input drawn from the procedure's input model (choices, flags, bounded
  integers) and never sent before (nothing from the server's cache). Inputs the rules refuse
  (checked in this process, within the cheap trial's steps) are drawn again; those past the
  trial are kept unchecked (costly: the server works them out in its pool).
* **cheap under costly**: :data:`MIX_CLIENTS` - :data:`COSTLY_CLIENTS` clients sending new
  cheap inputs of the mix (within the trial's steps) while :data:`COSTLY_CLIENTS` clients send
  the costliest odds the work budget admits (tirs fire, CdT 20, short range, ``fires`` 5).

Each client sends from a loopback address of its own (the server's costly queue is fair
between addresses). Targets: the mix's p99 at most :data:`P99_TARGET` times the floor's, its
throughput at least :data:`THROUGHPUT_TARGET` of the floor's; the cheap p99 under the costly
load at most :data:`CHEAP_TARGET` times the floor's p99. The same phases run against the
baseline revision's server (checked out by ``baseline.py``) with the same inputs, for the
before/after.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import time
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Literal, Union, get_args, get_origin

import annotated_types
import httpx

import firefight
from firefight.web.compute import quick_odds
from web_common import client, ms, percentiles, request_bytes, start_server, stop_server
from web_floor import ENDPOINT as FLOOR_ENDPOINT
from web_phases import COSTLY_ENDPOINT, COSTLY_TIMEOUT_S, costly_attacks

MIX_CLIENTS = 50
COSTLY_CLIENTS = 5
P99_TARGET = 3.0
"""The mix's p99 at most three times the floor's."""
THROUGHPUT_TARGET = 0.35
"""The mix's requests a second at least 35 % of the floor's."""
CHEAP_TARGET = 2.0
"""The cheap requests' p99 under the costly load at most twice the floor's p99."""
RATE_GUESS = 0.7
"""How many inputs to build a phase: this share of the floor's requests a second, times the
phase's seconds (a phase that runs out ends early: its rate is still requests over time)."""
SETTLE_S = 5.0
"""The mix sent untimed first, after one request of each procedure: the server's processes
start and load the rule sets meanwhile (seconds on a busy machine)."""
OMITTED = object()
MEASURED = ("src/firefight/web",)
"""What the baseline revision differs by (``--baseline``)."""

Mixed = tuple[str, dict[str, object], bool]
"""An odds request: its path, its input, whether it is cheap (within the trial's steps)."""


def drawn(info, rng: random.Random) -> object:
    """A value of one input field, or :data:`OMITTED` (its default)."""
    annotation = info.annotation
    if get_origin(annotation) in (Union, types.UnionType):
        if rng.random() < 0.3:
            return OMITTED
        annotation = next(a for a in get_args(annotation) if a is not type(None))
    if get_origin(annotation) is Literal:
        return rng.choice(get_args(annotation))
    if annotation is bool:
        return rng.random() < 0.5
    if annotation is int:
        low = next((m.ge for m in info.metadata if isinstance(m, annotated_types.Ge)), 0)
        high = next((m.le for m in info.metadata if isinstance(m, annotated_types.Le)), low + 15)
        return rng.randint(int(low), int(min(high, low + 30)))
    return OMITTED  # free text, file names, typed lists: their defaults


def mix_inputs(count: int, seed: int, seen: set[str], *, cheap_only: bool = False) -> list[Mixed]:
    """``count`` new odds requests (none in ``seen``, to which they are added), each for a
    procedure drawn at random; the rules' refusals drawn again."""
    procedures = [(r.id, p) for r in firefight.list_rulesets() for p in r.procedures]
    rng = random.Random(seed)
    found: list[Mixed] = []
    for _ in range(count * 30):
        if len(found) == count:
            break
        ruleset_id, procedure = rng.choice(procedures)
        fields = procedure.input_model.model_fields.items()
        data = {k: v for k, info in fields if (v := drawn(info, rng)) is not OMITTED}
        key = json.dumps([ruleset_id, procedure.name, data], sort_keys=True)
        if key in seen:
            continue
        seen.add(key)
        answer = quick_odds(ruleset_id, procedure.name, json.dumps(data).encode())
        if (answer is None and cheap_only) or (answer is not None and answer[0] != 200):
            continue
        path = f"/api/rulesets/{ruleset_id}/{procedure.name}/odds"
        found.append((path, data, answer is not None))
    return found


def warm_inputs(seed: int, seen: set[str]) -> list[Mixed]:
    """One cheap input of every procedure the draws reach, sent before the timing (a rule set's
    first walk loads what it needs once, as the baseline in-process is warmed)."""
    first: dict[str, Mixed] = {}
    for mixed in mix_inputs(2_000, seed, seen, cheap_only=True):
        first.setdefault(mixed[0], mixed)
    return list(first.values())


def sequence(port: int, inputs: list[Mixed]) -> Iterator[tuple[bytes, dict, None]]:
    for path, data, _cheap in inputs:
        yield request_bytes(port, data, path), {"path": path, "input": data}, None


async def load(
    port: int, streams: list[tuple[Iterator, float]], seconds: float
) -> tuple[list[dict], dict]:
    """One client per stream (its requests, its timeout), each from its own loopback address,
    for ``seconds``: per stream, its latencies, errors and what was sent; and the time."""
    started = time.perf_counter()
    stop_at = started + seconds
    results: list[tuple[list[float], list[str], list[tuple[float, dict]]]]
    results = [([], [], []) for _ in streams]
    await asyncio.gather(
        *(
            client(
                port,
                pick=lambda requests=requests: next(requests, None),
                stop_at=stop_at,
                latencies=latencies,
                errors=errors,
                timeout=timeout,
                local=f"127.0.4.{n + 1}",
                record=sent,
            )
            for n, ((requests, timeout), (latencies, errors, sent)) in enumerate(
                zip(streams, results, strict=True)
            )
        )
    )
    elapsed = time.perf_counter() - started
    parts = [{"latencies": lat, "errors": err, "sent": sent} for lat, err, sent in results]
    return parts, {"seconds": elapsed}


def merged(parts: list[dict], elapsed: float) -> dict:
    """The parts' requests together: their rate, errors, percentiles and the worst of them."""
    latencies = [t for part in parts for t in part["latencies"]]
    errors = [e for part in parts for e in part["errors"]]
    sent = [s for part in parts for s in part["sent"]]
    worst = max(sent, default=(0.0, {}), key=lambda s: s[0])
    return {
        "worst_s": worst[0],
        "worst": worst[1],
        "requests": len(latencies),
        "per_second": len(latencies) / elapsed,
        "errors": len(errors),
        "error_examples": sorted(set(errors))[:3],
        **percentiles(latencies),
    }


def floor_phase(seconds: float, clients: int) -> dict:
    """The trivial endpoint under ``clients`` clients for ``seconds``."""
    process, url = start_server("web_floor:app", 1, Path(__file__).resolve().parent)
    port = int(url.rsplit(":", 1)[1])
    try:
        request = (request_bytes(port, {"strength": 6}, FLOOR_ENDPOINT), {"path": "floor"}, None)
        streams = [(itertools.repeat(request), 10.0) for _ in range(clients)]
        parts, info = asyncio.run(load(port, streams, seconds))
    finally:
        stop_server(process)
    return merged(parts, info["seconds"]) | info


def server_phases(
    src: Path | None, inputs: dict[str, list[Mixed]], seconds: float, clients: int
) -> dict:
    """The mix and the cheap-under-costly load against ``firefight serve`` (``src``: the
    baseline revision's sources first on its path)."""
    process, url = start_server(None, 1, src)
    port = int(url.rsplit(":", 1)[1])
    results: dict[str, dict] = {}
    try:
        with httpx.Client(base_url=url, timeout=60) as http:
            for path, data, _ in inputs["warm"]:
                http.post(path, json=data)
        settle = iter(list(sequence(port, inputs["settle"])))
        asyncio.run(load(port, [(settle, 60.0)] * clients, SETTLE_S))  # untimed
        mix = iter(list(sequence(port, inputs["mix"])))
        parts, info = asyncio.run(load(port, [(mix, 30.0)] * clients, seconds))
        results["mix"] = merged(parts, info["seconds"]) | info
        cheap = iter(list(sequence(port, inputs["cheap"])))
        costly = [
            (request_bytes(port, d, COSTLY_ENDPOINT), {"path": COSTLY_ENDPOINT, "input": d}, None)
            for d in costly_attacks()
        ]
        shares = [iter(costly[n::COSTLY_CLIENTS]) for n in range(COSTLY_CLIENTS)]
        streams = [(cheap, 30.0)] * (clients - COSTLY_CLIENTS)
        streams += [(share, COSTLY_TIMEOUT_S) for share in shares]
        parts, info = asyncio.run(load(port, streams, seconds))
        cheap_parts = parts[: clients - COSTLY_CLIENTS]
        results["cheap"] = merged(cheap_parts, info["seconds"]) | info
        results["costly"] = merged(parts[clients - COSTLY_CLIENTS :], info["seconds"])
    finally:
        stop_server(process)
    return results


def mix_load(args, progress, baseline_tree: Path | None) -> dict:
    """The floor, then the server's phases now and (with ``baseline_tree``) at the baseline."""
    seconds, clients = args.duration, args.clients
    progress(f"mix: the floor (a trivial FastAPI endpoint), {clients} clients, {seconds:g} s")
    floor = floor_phase(seconds, clients)
    count = int(floor["per_second"] * RATE_GUESS * seconds) + 100
    progress(f"mix: drawing {count:,} new inputs over every procedure (mix, cheap; settle)")
    seen: set[str] = set()
    inputs = {
        "warm": warm_inputs(args.seed + 2, seen),
        "settle": mix_inputs(count // 2, args.seed + 5, seen),
        "mix": mix_inputs(count, args.seed + 3, seen),
        "cheap": mix_inputs(count, args.seed + 4, seen, cheap_only=True),
    }
    result = {"floor": floor, "inputs": {k: len(v) for k, v in inputs.items()}}
    result["costly_share"] = sum(not c for _, _, c in inputs["mix"]) / max(1, len(inputs["mix"]))
    progress(f"mix: firefight serve (this tree), {clients} clients, 2 x {seconds:g} s")
    result["now"] = server_phases(None, inputs, seconds, clients)
    if baseline_tree is not None:
        progress("mix: firefight serve at the baseline revision, the same inputs")
        result["before"] = server_phases(baseline_tree / "src", inputs, seconds, clients)
    return result


def _met(ok: bool) -> str:
    return "yes" if ok else "MISSED"


def mix_rows(result: dict) -> list[tuple[str, ...]]:
    """The floor, the mix and the cheap requests under the costly load, now and before."""
    floor, now, before = result["floor"], result["now"], result.get("before")

    def was(phase: str, field: str, shown) -> str:
        return "-" if before is None else f"before {shown(before[phase][field])}"

    rate = now["mix"]["per_second"] / floor["per_second"]
    p99 = now["mix"]["p99_s"] / floor["p99_s"]
    cheap = now["cheap"]["p99_s"] / floor["p99_s"]
    per_s = "{:,.0f} req/s".format
    costly = now["costly"]
    return [
        ("mix floor: trivial FastAPI endpoint, p99", ms(floor["p99_s"]), "-", "-", "-", "-"),
        ("mix floor: requests a second", per_s(floor["per_second"]), "-", "-", "-", "-"),
        (
            f"mix: every procedure, new inputs, p99 ({result['costly_share']:.0%} costly)",
            ms(now["mix"]["p99_s"]),
            was("mix", "p99_s", ms),
            f"{p99:.2f}x floor",
            f"<= {P99_TARGET:g}x",
            _met(p99 <= P99_TARGET),
        ),
        (
            "mix: requests a second",
            per_s(now["mix"]["per_second"]),
            was("mix", "per_second", per_s),
            f"{rate:.0%} of floor",
            f">= {THROUGHPUT_TARGET:.0%}",
            _met(rate >= THROUGHPUT_TARGET),
        ),
        ("mix: p50", ms(now["mix"]["p50_s"]), was("mix", "p50_s", ms), "-", "-", "-"),
        ("mix: max", ms(now["mix"]["max_s"]), was("mix", "max_s", ms), "-", "-", "-"),
        (
            f"mix: cheap p99, {COSTLY_CLIENTS} clients sending the costliest",
            ms(now["cheap"]["p99_s"]),
            was("cheap", "p99_s", ms),
            f"{cheap:.2f}x floor",
            f"<= {CHEAP_TARGET:g}x",
            _met(cheap <= CHEAP_TARGET),
        ),
        (
            "mix: the costliest requests, p50 / max",
            f"{costly['requests']} at {ms(costly['p50_s'])} / {ms(costly.get('max_s', 0.0))}",
            "-"
            if before is None
            else f"before {before['costly']['requests']} at {ms(before['costly']['p50_s'])}",
            "-",
            "-",
            "-",
        ),
        (
            "mix: errors (mix; cheap; costly)",
            f"{now['mix']['errors']}; {now['cheap']['errors']}; {costly['errors']}",
            "-",
            "-",
            "0",
            _met(now["mix"]["errors"] + now["cheap"]["errors"] == 0),
        ),
    ]


def worst_lines(result: dict) -> list[str]:
    """The slowest request of each phase, and what it was."""
    lines = []
    for side in ("now", "before"):
        for phase in ("mix", "cheap"):
            if side in result:
                found = result[side][phase]
                lines.append(
                    f"worst {phase} request ({side}): {ms(found['worst_s'])}, "
                    f"{json.dumps(found['worst'])[:300]}"
                )
    return lines
