"""The cheap lane's process (firefight.web.channel.ProcessLane), read and written by the event
loop itself: answers in the order sent, however many wait beyond the pipe's share; an error
raised in the caller; a process that dies fails every call waiting and is replaced by the
calculator at the next request."""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool

import pytest

from firefight.web.channel import IN_PIPE, ProcessLane
from firefight.web.compute import Calculator, compute_odds

CALLS = 3 * IN_PIPE + 1
"""More calls than the pipe holds at once: the rest wait in the server's queue."""
WAIT_S = 60.0
"""A guard on a hang (a spawned process loads the package: seconds on a loaded machine)."""


def run(coroutine):
    """The coroutine on a loop of its own thread (a test before may leave this thread's loop
    running: a browser's, in the same worker)."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, asyncio.wait_for(coroutine, WAIT_S)).result()


def test_the_answers_come_in_the_order_sent_and_errors_are_raised_here():
    lane = ProcessLane()

    async def asked():
        answers = await asyncio.gather(*(lane(divmod, n, 3) for n in range(CALLS)))
        with pytest.raises(ValueError, match="invalid literal"):
            await lane(int, "not a number")
        return answers, await lane(pow, 2, 10)  # the lane goes on after an error

    try:
        answers, after = run(asked())
    finally:
        lane.shutdown()
    assert answers == [divmod(n, 3) for n in range(CALLS)]
    assert after == 1024


def test_a_process_that_dies_fails_every_call_waiting():
    lane = ProcessLane()

    async def asked():
        assert await lane(pow, 3, 2) == 9  # started and answering
        waiting = [asyncio.ensure_future(lane(time.sleep, 30)) for _ in range(CALLS)]
        await asyncio.sleep(0.2)
        lane.process.kill()
        return await asyncio.gather(*waiting, return_exceptions=True)

    try:
        failed = run(asked())
    finally:
        lane.shutdown()
    assert all(isinstance(error, BrokenProcessPool) for error in failed), failed
    assert lane.broken
    with pytest.raises(BrokenProcessPool):
        run(lane(pow, 2, 2))


def test_the_calculator_starts_its_cheap_lane_anew_when_its_process_dies():
    calculator = Calculator(1)
    body = b'{"strength": 6, "range": "adjacent"}'

    async def asked():
        calculator.start()
        lane = calculator.cheap
        assert isinstance(lane, ProcessLane)
        first = await calculator.quickly(compute_odds, "ept", "fire", body)
        lane.process.kill()
        lane.process.join(WAIT_S)
        with pytest.raises(BrokenProcessPool):
            await calculator.quickly(compute_odds, "ept", "fire", body)
        assert calculator.cheap is not lane  # replaced
        return first, await calculator.quickly(compute_odds, "ept", "fire", body)

    try:
        first, again = run(asked())
    finally:
        calculator.close()
    assert first[0] == 200
    assert again == first
