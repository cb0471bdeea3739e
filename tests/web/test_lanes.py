"""The server's lanes (firefight.web.lanes, Calculator): a cheap request is answered while the
costly pool is held, clients' costly requests are taken in turn, nothing is computed on the
event loop, and the refusal past the work budget is unchanged. The pool here is one of threads
blocked by an event (deterministic: no assertion waits on a clock)."""

from __future__ import annotations

import asyncio
import json
import threading
from concurrent.futures import ThreadPoolExecutor

import httpx

from firefight.web import compute, procedures
from firefight.web.app import create_app
from firefight.web.compute import Calculator
from firefight.web.lanes import Estimates, FairQueue
from firefight.web.uploads import CLIENT

CHEAP = {"strength": 6, "range": "adjacent"}
HELD = {"strength": 7, "range": "adjacent"}
COSTLY = {"cdt": 20, "experience": "trained", "range": "short", "fires": 2}  # past 50 steps
WAIT_S = 30.0  # only a bound on a hang: every wait below ends on an event


def threads(processes: int, _niced: bool = True) -> ThreadPoolExecutor:
    return ThreadPoolExecutor(processes, thread_name_prefix="test-pool")


def run(coroutine):
    with ThreadPoolExecutor(1) as thread:  # a loop of its own (see test_language)
        return thread.submit(asyncio.run, coroutine).result()


def test_a_fair_queue_takes_the_clients_in_turn():
    queue: FairQueue[str] = FairQueue()
    for item in ("a1", "a2", "a3"):
        queue.put("a", item)
    queue.put("b", "b1")
    queue.put("b", "b2")
    queue.put("c", "c1")
    taken = [queue.take() for _ in range(len(queue))]
    assert taken == ["a1", "b1", "c1", "a2", "b2", "a3"]
    assert queue.take() is None


def test_a_fair_queue_against_its_brute_force_twin():
    """Round robin as the definition says it: in rounds, each client who still waits gives
    his next item, clients in the order they first queued."""
    import random  # noqa: PLC0415

    rng = random.Random(3)
    for _ in range(50):
        puts = [(rng.choice("abcd"), n) for n in range(rng.randint(0, 12))]
        queue: FairQueue[int] = FairQueue()
        for client, item in puts:
            queue.put(client, item)
        taken = [queue.take() for _ in range(len(puts))]
        per: dict[str, list[int]] = {}
        for client, item in puts:
            per.setdefault(client, []).append(item)
        rounds = [
            per[c][r]
            for r in range(max(map(len, per.values()), default=0))
            for c in per
            if r < len(per[c])
        ]
        assert taken == rounds


def test_estimates_bound_the_cheap_lanes_steps_by_the_measured_pace():
    estimates = Estimates(limit=0.01, weight=0.5, first=300, most=5_000, least=25)
    assert estimates.steps("k") == 300  # unknown: the first trial's steps
    estimates.record("k", 0.001, 1_000)  # 1 microsecond a step
    assert estimates.steps("k") == 5_000  # 10,000 would fit: the most
    estimates.record("slow", 0.02, 1_000)  # 20 microseconds a step
    assert estimates.steps("slow") in (499, 500)  # 0.01 / 2e-5, rounded down
    estimates.record("few", 0.02, 1)  # a rule that counts its work in few steps
    assert estimates.steps("few") == 25  # the fewest: still in the lane


def test_two_clients_costly_requests_are_taken_in_turn():
    release = threading.Event()
    started = threading.Event()
    order: list[str] = []

    def hold() -> str:
        started.set()
        release.wait(WAIT_S)
        return "held"

    def job(name: str) -> str:
        order.append(name)
        return name

    calculator = Calculator(1, executor=threads)

    async def scenario() -> list[str]:
        CLIENT.set("10.0.0.1")
        first = asyncio.ensure_future(calculator(hold))
        await asyncio.get_running_loop().run_in_executor(None, started.wait, WAIT_S)

        async def sent(client: str, name: str) -> str:
            CLIENT.set(client)
            return await calculator(job, name)

        tasks = [asyncio.ensure_future(sent("10.0.0.1", f"a{n}")) for n in range(3)]
        tasks += [asyncio.ensure_future(sent("10.0.0.2", f"b{n}")) for n in range(3)]
        await asyncio.sleep(0)  # every task queued behind the held process
        release.set()
        await first
        return list(await asyncio.gather(*tasks))

    try:
        assert run(scenario()) == ["a0", "a1", "a2", "b0", "b1", "b2"]
    finally:
        release.set()
        calculator.close()
    assert order == ["a0", "b0", "a1", "b1", "a2", "b2"]


def test_a_cheap_request_is_answered_while_the_costly_pool_is_held(monkeypatch):
    release = threading.Event()
    started = threading.Event()
    full = compute.compute_odds

    def held(*args):
        started.set()
        release.wait(WAIT_S)
        return full(*args)

    monkeypatch.setattr(procedures, "compute_odds", held)
    app = create_app(calculator=Calculator(1, executor=threads))

    async def scenario() -> tuple[int, int, bool]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
            costly = asyncio.ensure_future(http.post("/api/rulesets/tirs/fire/odds", json=COSTLY))
            await asyncio.get_running_loop().run_in_executor(None, started.wait, WAIT_S)
            cheap = await http.post("/api/rulesets/ept/fire/odds", json=CHEAP)
            modifiers = await http.post("/api/rulesets/ept/fire/modifiers", json=CHEAP)
            still_held = not costly.done()
            release.set()
            return (
                cheap.status_code,
                modifiers.status_code,
                still_held and (await costly).is_success,
            )

    try:
        assert run(scenario()) == (200, 200, True)
    finally:
        release.set()


def test_nothing_is_computed_on_the_event_loop(monkeypatch):
    """Each route's work runs on the cheap lane's thread or in the pool, never in the thread
    of the event loop; while a cheap answer is held in its thread, the loop answers others
    (the cheap lane's one thread is held: what needs no computation is answered meanwhile)."""
    seen: list[tuple[str, bool]] = []
    release = threading.Event()
    started = threading.Event()
    quick, answer = compute.quick_odds, compute.quick_answer

    def watched_quick(*args):
        seen.append(("odds", threading.current_thread() is threading.main_thread()))
        if json.loads(args[2]).get("strength") == HELD["strength"]:
            started.set()
            release.wait(WAIT_S)
        return quick(*args)

    def watched_answer(*args):
        seen.append((args[0], threading.current_thread() is threading.main_thread()))
        return answer(*args)

    monkeypatch.setattr(procedures, "quick_odds", watched_quick)
    monkeypatch.setattr(procedures, "quick_answer", watched_answer)
    app = create_app(calculator=Calculator(1, executor=threads))

    async def scenario() -> list[int]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
            held = asyncio.ensure_future(http.post("/api/rulesets/ept/fire/odds", json=HELD))
            await asyncio.get_running_loop().run_in_executor(None, started.wait, WAIT_S)
            statuses = [(await http.get("/api/rulesets")).status_code]  # the loop answers
            release.set()
            statuses.append((await held).status_code)
            for route in ("odds", "modifiers"):
                answer = await http.post(f"/api/rulesets/ept/fire/{route}", json=CHEAP)
                statuses.append(answer.status_code)
            resolve = {"input": CHEAP, "seed": 3}
            answer = await http.post("/api/rulesets/ept/fire/resolve", json=resolve)
            statuses.append(answer.status_code)
            return statuses

    try:
        assert run(scenario()) == [200, 200, 200, 200, 200]
    finally:
        release.set()
    assert {route for route, _ in seen} == {"odds", "modifiers", "resolve"}
    assert not any(on_loop for _, on_loop in seen), seen


def test_the_refusal_past_the_work_budget_is_unchanged(monkeypatch):
    """Past the budget, the same one-line 422 from the pool as computed in place."""
    monkeypatch.setattr(compute, "WORK_BUDGET", 50)
    in_place = create_app()
    pooled = create_app(calculator=Calculator(1, executor=threads))

    async def asked(app) -> list[httpx.Response]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
            return [
                await http.post(f"/api/rulesets/tirs/fire/{route}", json=body)
                for route, body in (("odds", COSTLY), ("resolve", {"input": COSTLY, "seed": 1}))
            ]

    here, there = run(asked(in_place)), run(asked(pooled))
    odds = here[0]
    assert odds.status_code == 422
    assert "50" in odds.json()["detail"]
    assert "\n" not in odds.json()["detail"]
    assert [(a.status_code, a.content) for a in here] == [(a.status_code, a.content) for a in there]


def test_a_cheap_answer_comes_while_every_pool_process_is_held_and_more_wait():
    """Two clients saturate a pool of two (both processes held, more of theirs queued): a
    cheap request of a third is answered in the cheap lane meanwhile, the costly ones wait
    (ordered by events only), then all are answered, the queue taken in the clients' turns."""
    release = threading.Event()
    held = [threading.Event(), threading.Event()]
    order: list[str] = []

    def hold(n: int) -> str:
        held[n].set()
        release.wait(WAIT_S)
        return f"held{n}"

    def job(name: str) -> str:
        order.append(name)
        return name

    def cheap(text: str, _steps: int) -> str:
        return text.upper()

    calculator = Calculator(2, executor=threads)

    async def scenario() -> tuple[str, bool, list[str]]:
        loop = asyncio.get_running_loop()

        async def sent(client: str, function, *args):
            CLIENT.set(client)
            return await calculator(function, *args)

        holders = [asyncio.ensure_future(sent(f"10.0.1.{n}", hold, n)) for n in (1, 0)]
        for event in held:
            await loop.run_in_executor(None, event.wait, WAIT_S)
        queued = [asyncio.ensure_future(sent("10.0.1.1", job, f"a{n}")) for n in range(2)]
        queued += [asyncio.ensure_future(sent("10.0.1.0", job, f"b{n}")) for n in range(2)]
        await asyncio.sleep(0)
        CLIENT.set("10.0.1.9")
        answered = await calculator.answer(("k",), cheap, job, "cheap")
        waiting = not any(task.done() for task in queued)
        release.set()
        await asyncio.gather(*holders)
        return answered, waiting, list(await asyncio.gather(*queued))

    try:
        answered, waiting, done = run(scenario())
    finally:
        release.set()
        calculator.close()
    assert (answered, waiting) == ("CHEAP", True)
    assert done == ["a0", "a1", "b0", "b1"]
    assert order == ["a0", "b0", "a1", "b1"]
    assert "cheap" not in order  # the cheap one never reached the pool


def test_the_pool_is_sized_to_the_cores(monkeypatch):
    """One costly process a core, the cores shared among the server's worker processes, at
    least one; ``FIREFIGHT_COMPUTE_PROCESSES`` overrides it, a bad value is one line."""
    import pytest  # noqa: PLC0415

    from firefight.errors import InputError  # noqa: PLC0415
    from firefight.web import serve  # noqa: PLC0415
    from firefight.web.app import COMPUTE_PROCESSES, compute_processes  # noqa: PLC0415

    monkeypatch.setattr(serve, "cores", lambda: 8)
    assert [serve.pool_size(w) for w in (1, 2, 3, 8, 16)] == [8, 4, 2, 1, 1]
    monkeypatch.delenv(COMPUTE_PROCESSES, raising=False)
    assert compute_processes(serve.pool_size(1)) == 8
    monkeypatch.setenv(COMPUTE_PROCESSES, "3")
    assert compute_processes(8) == 3
    monkeypatch.setenv(COMPUTE_PROCESSES, "0")
    with pytest.raises(InputError, match="1 to 256") as refused:
        compute_processes(8)
    assert "\n" not in str(refused.value)
