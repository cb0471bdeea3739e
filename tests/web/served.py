"""``firefight serve`` in its own process on a free port of 127.0.0.1, for the tests that probe
it with raw sockets (every probe bounded in count and time, every byte to loopback)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

HOST = "127.0.0.1"
STARTUP_TIMEOUT_S = 60.0
SRC = Path(__file__).resolve().parents[2] / "src"


@dataclass(frozen=True)
class Server:
    port: int
    process: subprocess.Popen[bytes]

    def connect(self, timeout: float = 10.0) -> socket.socket:
        return socket.create_connection((HOST, self.port), timeout=timeout)

    def request(self, raw: bytes, timeout: float = 10.0) -> bytes:
        """Send ``raw`` on a new connection; everything the server answers until it closes."""
        with self.connect(timeout) as sock:
            sock.sendall(raw)
            return read_all(sock)

    def get(self, path: str, timeout: float = 10.0) -> bytes:
        return self.request(
            f"GET {path} HTTP/1.1\r\nHost: {HOST}\r\nConnection: close\r\n\r\n".encode(), timeout
        )


def read_all(sock: socket.socket) -> bytes:
    """Read until the server closes (a reset counts as closed)."""
    data = bytearray()
    try:
        while chunk := sock.recv(65536):
            data += chunk
    except ConnectionResetError:
        pass
    return bytes(data)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


@contextmanager
def serving(*args: str, env: dict[str, str] | None = None) -> Iterator[Server]:
    """``firefight serve --port P ARGS`` until the block ends; ready once it answers."""
    port = free_port()
    environment = {**os.environ, "PYTHONPATH": str(SRC), **(env or {})}
    process = subprocess.Popen(
        [sys.executable, "-m", "firefight", "serve", "--port", str(port), *args],
        stdout=subprocess.DEVNULL,
        env=environment,
    )
    server = Server(port, process)
    try:
        deadline = time.monotonic() + STARTUP_TIMEOUT_S
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"firefight serve exited with code {process.returncode}")
            try:
                if server.get("/api/rulesets", timeout=5).startswith(b"HTTP/1.1 200"):
                    break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("firefight serve did not answer in time")
            time.sleep(0.1)
        yield server
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
