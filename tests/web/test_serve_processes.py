"""``firefight serve`` and its processes: ``kill -TERM`` stops it as Ctrl-C does, its pools
with it; a ``kill -9`` leaves no pool process behind either; a port already in use is one
line and exit code 2, with no line saying it serves."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request

import psutil
import pytest

from tests.web.served import HOST, SRC, free_port

STARTUP_TIMEOUT_S = 90.0
EXIT_TIMEOUT_S = 60.0
"""Generous bounds that guard a hang; nothing is timed."""
COSTLY = {"cdt": 20, "experience": "novice", "range": "short", "fires": 5, "protection": 0}
"""tirs fire odds computed in the pool (about 1 s of CPU)."""

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="the pools' end is Linux's")


def _environment() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(SRC), "FIREFIGHT_COMPUTE_PROCESSES": "1"}


def _post(port: int, path: str, body: dict[str, object]) -> int:
    request = urllib.request.Request(
        f"http://{HOST}:{port}{path}",
        data=json.dumps(body).encode(),
        headers={"content-type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=EXIT_TIMEOUT_S) as answer:
        return int(answer.status)


def _serving_with_a_pool() -> tuple[subprocess.Popen[bytes], list[psutil.Process]]:
    """A server on a free port that has computed costly odds in its pool; its children."""
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "firefight", "serve", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        env=_environment(),
    )
    deadline = time.monotonic() + STARTUP_TIMEOUT_S
    while True:
        assert server.poll() is None, "firefight serve exited"
        try:
            if _post(port, "/api/rulesets/tirs/fire/odds", COSTLY) == 200:
                break
        except OSError:
            pass
        assert time.monotonic() < deadline, "firefight serve did not answer in time"
        time.sleep(0.2)
    children = psutil.Process(server.pid).children(recursive=True)
    assert children, "the pool's processes"
    return server, children


def _survivors(children: list[psutil.Process]) -> list[psutil.Process]:
    _, alive = psutil.wait_procs(children, timeout=EXIT_TIMEOUT_S)
    return [c for c in alive if c.status() != psutil.STATUS_ZOMBIE]


def _end(server: subprocess.Popen[bytes], children: list[psutil.Process]) -> None:
    """Leave nothing this test started running, whatever it found."""
    for process in children:
        if process.is_running():
            process.kill()
    if server.poll() is None:
        server.kill()
        server.wait(EXIT_TIMEOUT_S)


def test_sigterm_stops_the_server_as_ctrl_c_and_its_pools_with_it():
    server, children = _serving_with_a_pool()
    try:
        server.send_signal(signal.SIGTERM)
        assert server.wait(EXIT_TIMEOUT_S) == 0  # the graceful end, not death by the signal
        assert _survivors(children) == []
    finally:
        _end(server, children)


def test_the_pool_processes_end_when_the_server_is_killed():
    server, children = _serving_with_a_pool()
    try:
        server.send_signal(signal.SIGKILL)
        server.wait(EXIT_TIMEOUT_S)
        assert _survivors(children) == []
    finally:
        _end(server, children)


def test_a_port_in_use_is_one_line_and_exit_2_with_no_line_saying_it_serves():
    with socket.socket() as taken:
        taken.bind((HOST, 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "firefight", "serve", "--port", str(port)],
            capture_output=True,
            text=True,
            env=_environment(),
            timeout=EXIT_TIMEOUT_S,
            check=False,
        )
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1
    assert f"port {port} on {HOST} is already in use" in lines[0]
