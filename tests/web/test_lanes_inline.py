"""The event loop's own lane (Calculator(inline=True), Estimates.inline): only a procedure whose
answers are measured as trivially cheap is tried on the loop, within the steps its pace allows
(decided before the work); past them the request goes on to the cheap lane, then the pool,
with the same answer as computed in place. Ordered by events only: no assertion reads a clock
(the paces are recorded by hand)."""

from __future__ import annotations

import asyncio
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from types import SimpleNamespace

import httpx

from firefight.web import compute, procedures
from firefight.web.app import create_app
from firefight.web.compute import Calculator
from firefight.web.lanes import INLINE_STEPS, Estimates

CHEAP = [{"strength": s, "range": r} for s in (4, 6, 8) for r in ("adjacent", "long")]
COSTLY = {"cdt": 20, "experience": "trained", "range": "short", "fires": 2}  # past 50 steps


def threads(processes: int, _niced: bool = True) -> ThreadPoolExecutor:
    return ThreadPoolExecutor(processes, thread_name_prefix="test-pool")


def stopped_clock(monkeypatch) -> None:
    """Every answer measured as taking no time: the estimates follow the steps alone, however
    loaded the machine."""
    monkeypatch.setattr(
        compute, "time", SimpleNamespace(perf_counter=lambda: 0.0, sleep=time.sleep)
    )


def run(coroutine):
    with ThreadPoolExecutor(1) as thread:  # a loop of its own (see test_language)
        return thread.submit(asyncio.run, coroutine).result()


def test_the_loop_takes_only_procedures_measured_cheap():
    estimates = Estimates(weight=0.5, inline_limit=0.001, inline_most=300)
    assert estimates.inline("k") == 0  # no pace measured yet: never on the loop
    estimates.record("k", 0.0001, 100)  # 1 microsecond a step; 100 steps fit
    assert estimates.inline("k") == 300  # 1,000 would fit in the limit: the most
    estimates.record("slow", 0.01, 100)  # 100 microseconds a step: 10 fit, 100 taken
    assert estimates.inline("slow") == 0
    estimates.record("mixed", 0.0001, 100)  # fits: share 1
    estimates.record("mixed", 0.01, 10_000)  # 10,000 steps do not: share 0.5
    assert estimates.inline("mixed") > 0
    estimates.record("mixed", 0.01, 10_000)  # share 0.25: the lane at once
    assert estimates.inline("mixed") == 0


def test_the_loops_steps_follow_the_pace_up_to_the_cap():
    """The most steps whose time at the measured pace is within the limit, at most the cap;
    none where even one step would pass the limit."""
    for per_step, steps in ((1e-7, 300), (1e-6, 300), (2e-5, 50), (2.5e-4, 4), (2e-3, 0)):
        estimates = Estimates(weight=1.0, inline_limit=0.001, inline_most=INLINE_STEPS)
        estimates.record("k", per_step, 1)
        assert estimates.inline("k") == steps, per_step


def test_a_measured_cheap_answer_is_computed_on_the_loop_without_a_hop():
    seen: list[tuple[str, int, int]] = []

    def quick(text: str, steps: int) -> str:
        seen.append(("quick", threading.get_ident(), steps))
        return text.upper()

    def full(text: str) -> str:
        seen.append(("full", threading.get_ident(), 0))
        return text

    calculator = Calculator(1, executor=threads, inline=True)
    calculator.estimates.record(("k",), 1e-6, 10)  # measured: trivially cheap
    steps = calculator.estimates.inline(("k",))

    async def scenario() -> tuple[str, int]:
        return await calculator.answer(("k",), quick, full, "cheap"), threading.get_ident()

    try:
        answered, loop_thread = run(scenario())
    finally:
        calculator.close()
    assert answered == "CHEAP"
    assert 0 < steps <= INLINE_STEPS
    assert seen == [("quick", loop_thread, steps)]  # neither the cheap lane nor the pool


def test_past_the_loops_steps_the_cheap_lane_then_the_pool(monkeypatch):
    stopped_clock(monkeypatch)
    seen: list[tuple[str, bool, int]] = []
    lane_steps = []

    def quick(text: str, steps: int) -> str | None:
        seen.append(("quick", threading.get_ident() == loop[0], steps))
        compute.SPENT[0] = steps  # every trial uses all its steps and gives up
        return None

    def full(text: str) -> str:
        seen.append(("full", threading.get_ident() == loop[0], 0))
        compute.SPENT[0] = 5_000  # what the pool's answer spent
        return text

    loop: list[int] = []
    calculator = Calculator(1, executor=threads, inline=True)
    calculator.estimates.record(("k",), 1e-6, 10)
    inline = calculator.estimates.inline(("k",))
    lane_steps.append(calculator.estimates.steps(("k",)))

    async def scenario() -> str:
        loop.append(threading.get_ident())
        return await calculator.answer(("k",), quick, full, "costly")

    try:
        assert run(scenario()) == "costly"
    finally:
        calculator.close()
    assert inline > 0
    assert [(where, on_loop) for where, on_loop, _ in seen] == [
        ("quick", True),  # tried on the loop within its steps
        ("quick", False),  # then in the cheap lane
        ("full", False),  # then in the pool
    ]
    assert seen[0][2] == inline
    assert seen[1][2] == lane_steps[0]
    # measured as not fitting: the next request of the key goes to the lane at once
    assert calculator.estimates.inline(("k",)) == 0


def test_without_inline_a_measured_cheap_answer_never_runs_on_the_loop():
    seen: list[bool] = []
    loop: list[int] = []

    def quick(text: str, steps: int) -> str:
        seen.append(threading.get_ident() == loop[0])
        return text

    calculator = Calculator(1, executor=threads)
    calculator.estimates.record(("k",), 1e-6, 10)

    async def scenario() -> str:
        loop.append(threading.get_ident())
        return await calculator.answer(("k",), quick, quick, "x")

    try:
        assert run(scenario()) == "x"
    finally:
        calculator.close()
    assert seen == [False]


def test_answers_on_the_loop_are_the_answers_computed_in_place(monkeypatch):
    """The same status and bytes as the app computing in place, for cheap inputs (on the loop:
    their procedure's pace is measured) and a costly one (past the loop's steps: on to the
    lane, then the pool); where each trial ran is seen by its thread."""
    trials: list[tuple[str, bool]] = []
    loop: list[int] = []
    quick, parsed = compute.quick_odds, compute.parsed_odds

    def watched(*args):
        trials.append((args[0], threading.get_ident() == loop[-1]))
        return quick(*args)

    def watched_parsed(found, *args):
        trials.append((found.id, threading.get_ident() == loop[-1]))
        return parsed(found, *args)

    stopped_clock(monkeypatch)
    in_place = create_app()
    monkeypatch.setattr(procedures, "quick_odds", watched)
    monkeypatch.setattr(procedures, "parsed_odds", watched_parsed)
    calculator = Calculator(1, executor=threads, inline=True)
    calculator.estimates = Estimates(inline_most=40)  # the costly one's steps do not fit
    for key in (("odds", "ept", "fire"), ("odds", "tirs", "fire")):
        calculator.estimates.record(key, 1e-6, 10)  # measured as trivially cheap
    served = create_app(calculator=calculator)
    asked = [("ept", body) for body in CHEAP] + [("tirs", COSTLY)]

    async def answers(app) -> list[tuple[int, bytes]]:
        loop.append(threading.get_ident())
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
            out = []
            for ruleset, body in asked:
                reply = await http.post(f"/api/rulesets/{ruleset}/fire/odds", json=body)
                out.append((reply.status_code, reply.content))
            return out

    try:
        there = run(answers(served))
        here = run(answers(in_place))
    finally:
        calculator.close()
    assert here == there
    assert all(status == 200 for status, _ in there)
    served_trials = trials[: len(CHEAP) + 2]  # the in-place app's trials follow
    assert [on_loop for _, on_loop in served_trials] == [True] * len(CHEAP) + [True, False]
    assert [ruleset for ruleset, _ in served_trials[-2:]] == ["tirs", "tirs"]
