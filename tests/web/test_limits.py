"""``firefight serve`` bounds what one client can make it read or hold: a request head is capped in
size and in header lines (431), a request that does not arrive in time and a connection left idle
are closed, and none of it stalls other clients.

Each test starts ``firefight serve --timeout 1`` on a free loopback port and probes it with raw
sockets, bounded in count and time."""

from __future__ import annotations

import resource
import selectors
import socket
import threading
import time
from collections.abc import Iterator

import pytest

from firefight.web.protocol import MAX_HEAD, MAX_HEADERS
from tests.web.served import HOST, Server, read_all, serving

TIMEOUT_S = 1
HALF_HEADS = 2000


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    with serving("--timeout", str(TIMEOUT_S)) as running:
        yield running


def head(*headers: str, path: str = "/api/rulesets") -> bytes:
    lines = [f"GET {path} HTTP/1.1", f"Host: {HOST}", "Connection: close", *headers]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def status(answer: bytes) -> int:
    return int(answer.split(b" ", 2)[1]) if answer.startswith(b"HTTP/1.1 ") else 0


class Others:
    """Clients that keep asking for ``/api/rulesets`` while a probe runs, timing each."""

    def __init__(self, server: Server, clients: int = 3) -> None:
        self.server = server
        self.latencies: list[float] = []
        self.statuses: list[int] = []
        self.stop = threading.Event()
        self.threads = [threading.Thread(target=self._run) for _ in range(clients)]

    def _run(self) -> None:
        for _ in range(2000):
            if self.stop.is_set():
                return
            start = time.perf_counter()
            answer = self.server.get("/api/rulesets", timeout=60)
            self.latencies.append(time.perf_counter() - start)
            self.statuses.append(status(answer))
            time.sleep(0.02)

    def __enter__(self) -> Others:
        for thread in self.threads:
            thread.start()
        time.sleep(0.3)
        return self

    def __exit__(self, *exc: object) -> None:
        time.sleep(0.3)
        self.stop.set()
        for thread in self.threads:
            thread.join()


def test_a_100_mb_header_line_is_refused_fast_without_stalling_other_clients(server):
    chunk = b"a" * (1 << 20)
    sent = 0
    with Others(server) as others, server.connect(timeout=30) as sock:
        started = time.perf_counter()
        sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ")
        try:
            for _ in range(100):  # 100 MiB at most
                sock.sendall(chunk)
                sent += len(chunk)
            sock.sendall(b"\r\n\r\n")
        except OSError:
            pass  # the server closed the connection: refused
        answer = read_all(sock)
        elapsed = time.perf_counter() - started
    assert sent < 16 * len(chunk), "the server read on past its cap"
    assert answer == b"" or status(answer) == 431
    assert elapsed < 5
    assert others.statuses
    assert set(others.statuses) == {200}
    assert max(others.latencies) < 1.0


def test_a_head_over_the_cap_is_refused_with_431_and_one_under_it_is_served(server):
    padding = MAX_HEAD - len(head("X-Pad: "))
    assert status(server.request(head(f"X-Pad: {'a' * padding}"))) == 200
    answer = server.request(head(f"X-Pad: {'a' * (padding + 1)}"))
    assert status(answer) == 431
    assert b"over 16384 bytes" in answer


def test_too_many_header_lines_are_refused_with_431(server):
    allowed = [f"X-{i}: {i}" for i in range(MAX_HEADERS - 2)]  # Host and Connection count
    assert status(server.request(head(*allowed))) == 200
    answer = server.request(head(*allowed, "X-One-More: 1"))
    assert status(answer) == 431
    assert b"over 100 header lines" in answer


def read_response(sock: socket.socket) -> bytes:
    """One response (with a Content-Length) from a keep-alive connection."""
    data = b""
    while b"\r\n\r\n" not in data:
        data += sock.recv(65536)
    top, _, body = data.partition(b"\r\n\r\n")
    length = int(top.lower().split(b"content-length: ", 1)[1].split(b"\r\n", 1)[0])
    while len(body) < length:
        body += sock.recv(65536)
    return data


def raise_open_files(needed: int) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < needed:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(needed, hard), hard))


def open_half_heads(server: Server, count: int) -> list[socket.socket]:
    """``count`` connections, each having sent half a request head."""
    sockets = []
    for _ in range(count):
        sock = server.connect()
        sock.sendall(b"GET /api/rulesets HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Half: ")
        sockets.append(sock)
    return sockets


def closed_within(sockets: list[socket.socket], seconds: float) -> int:
    """How many of ``sockets`` the server closes within ``seconds``."""
    selector = selectors.DefaultSelector()
    for sock in sockets:
        sock.setblocking(False)
        selector.register(sock, selectors.EVENT_READ)
    closed = 0
    deadline = time.monotonic() + seconds
    while closed < len(sockets) and (left := deadline - time.monotonic()) > 0:
        for key, _ in selector.select(timeout=left):
            sock = key.fileobj
            assert isinstance(sock, socket.socket)
            try:
                data = sock.recv(65536)
            except ConnectionResetError:
                data = b""
            if not data:
                selector.unregister(sock)
                closed += 1
    selector.close()
    return closed


def test_2000_connections_that_send_half_their_heads_are_closed_after_the_timeout(server):
    raise_open_files(HALF_HEADS + 500)
    sockets = open_half_heads(server, HALF_HEADS)
    try:
        with Others(server, clients=2) as others:
            opened = time.monotonic()
            closed = closed_within(sockets, TIMEOUT_S + 10)
            took = time.monotonic() - opened
    finally:
        for sock in sockets:
            sock.close()
    assert closed == HALF_HEADS
    assert took < TIMEOUT_S + 10
    assert set(others.statuses) == {200}


def test_an_idle_connection_and_an_unfinished_body_are_closed_after_the_timeout(server):
    with server.connect() as idle, server.connect() as unfinished:
        unfinished.sendall(
            b"POST /api/rulesets/ept/fire/odds HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"strength"'
        )
        started = time.monotonic()
        assert closed_within([idle, unfinished], TIMEOUT_S + 10) == 2
        assert time.monotonic() - started >= TIMEOUT_S * 0.5


def test_a_keep_alive_client_that_keeps_asking_is_not_cut_off(server):
    with server.connect() as sock:
        for _ in range(3):
            sock.sendall(f"GET /api/rulesets HTTP/1.1\r\nHost: {HOST}\r\n\r\n".encode())
            assert status(read_response(sock)) == 200
            time.sleep(TIMEOUT_S * 0.6)
