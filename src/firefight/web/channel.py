"""The cheap lane's process (README, "Serving: limits";
:class:`~firefight.web.compute.Calculator`): one process answering calls in turn over a pipe
that the event loop itself reads and writes, with no thread of the server's in between.

A pool of processes (:class:`concurrent.futures.ProcessPoolExecutor`) hands each call through
two threads of the server's (one that queues it, one that reads the answers back), each a wake
up and a switch of the interpreter's lock; for a cheap answer those cost the server more CPU
than the answer itself. Here the loop pickles the call and writes it to the pipe, and is woken
when an answer is there to read."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import pickle
from collections import deque
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from contextlib import suppress
from multiprocessing.connection import Connection
from typing import Any, TypeVar

from firefight.web.workers import _pool_process

__all__ = ["IN_PIPE", "ProcessLane"]

T = TypeVar("T")

IN_PIPE = 2
"""The calls written to the process at once (the one it computes and the next, so that it never
waits for the loop between two); the others wait in the server's queue. A call holds a request
body (64 KiB at most but on the routes taking uploads, whose uploads go to the pool), so the
pipe's buffer (some hundreds of KiB) holds both and a write does not wait for the process."""


class ProcessLane:
    """A process of its own answering ``await lane(function, *args)`` in the order sent, on the
    running event loop (one loop: the server's); if the process dies, every call waiting fails
    with :class:`BrokenProcessPool` and the lane is :attr:`broken` (the caller starts another).
    The process leaves Ctrl-C to the server and ends with it (``firefight.web.workers``)."""

    def __init__(self, warm: Callable[[], object] | None = None, niced: bool = False) -> None:
        """The process started; it calls ``warm()`` first (loading what the answers need)."""
        context = multiprocessing.get_context("spawn")  # no state of the server's copied
        self.pipe, child = context.Pipe(duplex=True)
        self.process = context.Process(
            target=_serve, args=(child, os.getpid(), niced, warm), daemon=True, name="cheap-lane"
        )
        self.process.start()
        child.close()
        self.sent: deque[asyncio.Future[Any]] = deque()
        """The calls written to the process, in order: its answers come in the same order."""
        self.queued: deque[tuple[asyncio.Future[Any], bytes]] = deque()
        """The calls waiting for room in the pipe (:data:`IN_PIPE`)."""
        self.loop: asyncio.AbstractEventLoop | None = None
        self.broken = False

    async def __call__(self, function: Callable[..., T], *args: object) -> T:
        """``function(*args)`` computed in the process (its exception raised here)."""
        if self.broken:
            raise BrokenProcessPool("the cheap lane's process has ended")
        loop = asyncio.get_running_loop()
        if self.loop is None:
            self.loop = loop
            loop.add_reader(self.pipe.fileno(), self._answered)
        future: asyncio.Future[T] = loop.create_future()
        self.queued.append((future, pickle.dumps((function, args), pickle.HIGHEST_PROTOCOL)))
        self._send()
        return await future

    def _send(self) -> None:
        while self.queued and len(self.sent) < IN_PIPE and not self.broken:
            future, call = self.queued.popleft()
            if future.done():  # its caller left before it was sent
                continue
            try:
                self.pipe.send_bytes(call)
            except OSError:
                self.queued.appendleft((future, call))
                self._ended()
                return
            self.sent.append(future)

    def _answered(self) -> None:
        """One answer read (the loop calls this while the pipe has one to read)."""
        try:
            ok, value = pickle.loads(self.pipe.recv_bytes())
        except (EOFError, OSError, pickle.UnpicklingError):
            self._ended()
            return
        future = self.sent.popleft()
        if not future.done():  # its caller may have left
            if ok:
                future.set_result(value)
            else:
                future.set_exception(value)
        self._send()

    def _ended(self) -> None:
        """The process is gone: every call waiting fails."""
        self.broken = True
        if self.loop is not None:
            with suppress(ValueError, OSError, RuntimeError):  # closed already
                self.loop.remove_reader(self.pipe.fileno())
        waiting = [*self.sent, *(future for future, _ in self.queued)]
        self.sent.clear()
        self.queued.clear()
        for future in waiting:
            if not future.done():
                future.set_exception(BrokenProcessPool("the cheap lane's process has ended"))

    def shutdown(self) -> None:
        """End the process at once (what it computes is no one's once the server stops)."""
        self._ended()
        with suppress(OSError, ValueError, AttributeError):
            self.process.terminate()
        with suppress(OSError):
            self.pipe.close()


def _serve(pipe: Connection, server: int, niced: bool, warm: Callable[[], object] | None) -> None:
    """The process: ``warm()``, then each call read, computed and its result (or exception)
    written back, until the server closes the pipe."""
    _pool_process(server, niced)
    if warm is not None:
        with suppress(Exception):  # a rule that fails to load fails its requests instead
            warm()
    while True:
        try:
            function, args = pickle.loads(pipe.recv_bytes())
        except (EOFError, OSError):
            return
        try:
            answer: tuple[bool, object] = (True, function(*args))
        except Exception as error:  # the caller's to raise
            answer = (False, error)
        try:
            data = pickle.dumps(answer, pickle.HIGHEST_PROTOCOL)
        except Exception as error:  # an answer that does not pickle: its error instead
            data = pickle.dumps((False, RuntimeError(f"unpicklable answer: {error}")))
        pipe.send_bytes(data)
