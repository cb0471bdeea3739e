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
  the costliest odds the work budget admits (:data:`COSTLIEST`, Up Front's ordnance).

The floor and the servers (this tree's and the baseline's, all started before the timing) are
loaded in turn, :data:`ROUNDS` times, each phase's rounds added up: on a shared machine whose
load shifts, timing the floor first and the server after compared a quiet minute with a busy
one. Each client sends from a loopback address of its own (the server's costly queue is fair
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
from contextlib import suppress
from pathlib import Path
from typing import Literal, Union, get_args, get_origin

import annotated_types
import httpx

import firefight
from firefight.web.compute import quick_odds
from web_common import client, ms, percentiles, request_bytes, start_server, stop_server
from web_floor import ENDPOINT as FLOOR_ENDPOINT
from web_phases import COSTLY_TIMEOUT_S

MIX_CLIENTS = 50
COSTLY_CLIENTS = 5
P99_TARGET = 3.0
"""The mix's p99 at most three times the floor's."""
THROUGHPUT_TARGET = 0.35
"""The mix's requests a second at least 35 % of the floor's."""
CHEAP_TARGET = 2.0
"""The cheap requests' p99 under the costly load at most twice the floor's p99."""
RATE_GUESS = 0.4
"""How many inputs to build a phase: this share of the floor's requests a second, times the
phase's seconds (a phase that runs out ends early: its rate is still requests over time)."""
SETTLE_S = 5.0
"""The mix sent untimed first, after one request of each procedure: the server's processes
start and load the rule sets meanwhile (seconds on a busy machine)."""
ROUNDS = 3
"""The floor and the servers' phases alternate this many times (:func:`alternated`)."""
PROBE_S = 3.0
"""The floor's untimed first seconds, which size the draw of inputs."""
WARM_TIMEOUT_S = 120.0
"""How long a warm-up request may take (a rule set's first load, on a loaded machine)."""
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


COSTLIEST_ENDPOINT = "/api/rulesets/upfront/ordnance/odds"
COSTLIEST = {
    "pool": "observer",
    "reshuffle": "discards",
    "select": "lowest_malf",
    "ft_reduction": "full",
    "breaks_on": "repair",
    "fr": "ffs_plus_rn",
    "kia_on": "man",
    "equality": "wounded",
    "panic": "panic_column",
    "malfunction_check": "any_at_least",
    "malfunction": "end_attack",
    "attack": "ordnance",
    "smoke": 0,
    "banzai": True,
    "critical_card": "resolution",
    "after_critical": "continue",
    "ot": "not_open_topped",
    "tie": "black_stuns",
    "stunned": "fr_over_6",
    "comparison": "greater",
    "bogged": False,
    "immobilized": True,
    "flanked": True,
    "moving_sideways": False,
    "hull_down": True,
    "stunned_now": True,
    "buttoned_up": False,
    "rr": 1,
    "target": "men",
    "boxed": "boxed",
    "firer_moving": False,
    "firer_immobilized": False,
    "firer_bogged": False,
    "smoke_cards": 4,
    "wire": 3,
    "acquired": False,
    "target_moving": True,
    "defender_wire": 0,
    "hit_on": "below",
    "miss_colour": "black",
    "hull_down_to_hit": "as_moving",
    "moving_target_to_hit": "turretless",
    "moving_fire": "turretless_cannot",
}
"""The slowest valid odds input found (about 6 ms of CPU warm here; a search of every
procedure's input model, 200 random inputs each, then a hill climb on the slowest): Up
Front's ordnance at men. Since tirs ``fire`` at CdT 20 moved onto states (1.5 ms), it is the
costliest request the work budget admits."""


def costliest_attacks() -> list[dict[str, object]]:
    """:data:`COSTLIEST` varied where its cost does not change (concealment, the attacker's
    TEM, the commander's KIA: 280 inputs), so that none is in the server's cache."""
    return [
        {**COSTLIEST, "concealment": c, "attacker_tem": t, "commander_kia": k}
        for c in range(7)
        for t in range(-6, 4)
        for k in range(4)
    ]


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


class Served:
    """A server up for the whole mix: its port and process, and the load phases it is sent in
    turn (:func:`alternated`)."""

    def __init__(self, app: str | None, src: Path | None) -> None:
        self.process, url = start_server(app, 1, src)
        self.url, self.port = url, int(url.rsplit(":", 1)[1])
        self.parts: dict[str, list[dict]] = {}
        self.seconds: dict[str, float] = {}

    def run(self, phase: str, streams: list[tuple[Iterator, float]], seconds: float) -> None:
        """``streams`` for ``seconds``, added to ``phase``'s parts and time."""
        parts, info = asyncio.run(load(self.port, streams, seconds))
        self.parts.setdefault(phase, []).extend(parts)
        self.seconds[phase] = self.seconds.get(phase, 0.0) + info["seconds"]

    def result(self, phase: str, first: int = 0, last: int | None = None) -> dict:
        """``phase``'s requests of every round together (of each round's streams ``first`` to
        ``last``: the cheap clients apart from the costly ones)."""
        parts = self.parts[phase]
        width = len(parts) // self.rounds
        chosen = [
            part
            for r in range(self.rounds)
            for part in parts[r * width : (r + 1) * width][first:last]
        ]
        return merged(chosen, self.seconds[phase]) | {"seconds": self.seconds[phase]}

    rounds = 1


def floor_streams(port: int, clients: int) -> list[tuple[Iterator, float]]:
    request = (request_bytes(port, {"strength": 6}, FLOOR_ENDPOINT), {"path": "floor"}, None)
    return [(itertools.repeat(request), 10.0) for _ in range(clients)]


def warmed(src: Path | None, inputs: dict[str, list[Mixed]], clients: int) -> Served:
    """``firefight serve`` (``src``: the baseline revision's sources first on its path), one
    request of each procedure sent, then the settle inputs, untimed."""
    served = Served(None, src)
    with httpx.Client(base_url=served.url, timeout=WARM_TIMEOUT_S) as http:
        for path, data, _ in inputs["warm"]:
            with suppress(httpx.TimeoutException):  # a loaded machine: the settle goes on
                http.post(path, json=data)
    settle = iter(list(sequence(served.port, inputs["settle"])))
    asyncio.run(load(served.port, [(settle, 60.0)] * clients, SETTLE_S))
    return served


def server_streams(
    served: Served, inputs: dict[str, list[Mixed]], clients: int
) -> dict[str, list[tuple[Iterator, float]]]:
    """The mix's streams and the cheap-under-costly ones (the costly clients last), each an
    iterator that goes on from round to round."""
    port = served.port
    mix = iter(list(sequence(port, inputs["mix"])))
    cheap = iter(list(sequence(port, inputs["cheap"])))
    costly = [
        (request_bytes(port, d, COSTLIEST_ENDPOINT), {"path": COSTLIEST_ENDPOINT, "input": d}, None)
        for d in costliest_attacks()
    ]
    shares = [iter(costly[n::COSTLY_CLIENTS]) for n in range(COSTLY_CLIENTS)]
    return {
        "mix": [(mix, 30.0)] * clients,
        "cheap": [(cheap, 30.0)] * (clients - COSTLY_CLIENTS)
        + [(share, COSTLY_TIMEOUT_S) for share in shares],
    }


def alternated(
    floor: Served,
    servers: list[Served],
    streams: list[dict[str, list[tuple[Iterator, float]]]],
    *,
    seconds: float,
    clients: int,
    rounds: int,
) -> None:
    """The floor and each server's phases in turn, ``rounds`` times, ``seconds / rounds``
    each: a load on the machine that shifts during the run weighs on every side alike (timed
    one after the other, a quiet minute for the floor and a busy one for the server read as
    the server's cost)."""
    piece = seconds / rounds
    for served in (floor, *servers):
        served.rounds = rounds
    for _ in range(rounds):
        floor.run("floor", floor_streams(floor.port, clients), piece)
        for phase in ("mix", "cheap"):
            for served, own in zip(servers, streams, strict=True):
                served.run(phase, own[phase], piece)


def mix_load(args, progress, baseline_tree: Path | None) -> dict:
    """The floor, the server now and (with ``baseline_tree``) at the baseline, alternated in
    :data:`ROUNDS` rounds over the same inputs."""
    seconds, clients = args.duration, args.clients
    here = Path(__file__).resolve().parent
    floor = Served("web_floor:app", here)
    servers: list[Served] = []
    try:
        progress(f"mix: sizing the draw on the floor (a trivial FastAPI endpoint), {PROBE_S:g} s")
        probe = merged(*_probed(floor, clients))
        count = int(probe["per_second"] * RATE_GUESS * seconds) + 100
        progress(f"mix: drawing {count:,} new inputs over every procedure (mix, cheap; settle)")
        seen: set[str] = set()
        inputs = {
            "warm": warm_inputs(args.seed + 2, seen),
            "settle": mix_inputs(count // 2, args.seed + 5, seen),
            "mix": mix_inputs(count, args.seed + 3, seen),
            "cheap": mix_inputs(count, args.seed + 4, seen, cheap_only=True),
        }
        trees = [("now", None)]
        if baseline_tree is not None:
            trees.append(("before", baseline_tree / "src"))
        progress(f"mix: firefight serve ({', '.join(t for t, _ in trees)}), warmed and settled")
        for _, src in trees:
            servers.append(warmed(src, inputs, clients))
        streams = [server_streams(s, inputs, clients) for s in servers]
        progress(
            f"mix: the floor, then mix and cheap-under-costly of each server, in turn, "
            f"{ROUNDS} rounds of {seconds / ROUNDS:g} s each ({clients} clients)"
        )
        alternated(floor, servers, streams, seconds=seconds, clients=clients, rounds=ROUNDS)
    finally:
        for served in (floor, *servers):
            stop_server(served.process)
    result = {"floor": floor.result("floor"), "rounds": ROUNDS}
    result["inputs"] = {k: len(v) for k, v in inputs.items()}
    result["costly_share"] = sum(not c for _, _, c in inputs["mix"]) / max(1, len(inputs["mix"]))
    cheap_clients = clients - COSTLY_CLIENTS
    for (side, _), served in zip(trees, servers, strict=True):
        result[side] = {
            "mix": served.result("mix"),
            "cheap": served.result("cheap", 0, cheap_clients),
            "costly": served.result("cheap", cheap_clients, None),
        }
    return result


def _probed(floor: Served, clients: int) -> tuple[list[dict], float]:
    parts, info = asyncio.run(load(floor.port, floor_streams(floor.port, clients), PROBE_S))
    return parts, info["seconds"]


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
