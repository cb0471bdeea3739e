"""Fixtures of the browser tests: the web app on loopback, Debian's Chromium, screenshots.

The app runs under uvicorn in a background thread on 127.0.0.1 (a free port, bound here);
Playwright for Python drives ``/usr/bin/chromium`` (``make test`` installs it with apt-get
when it is missing; no browser is ever downloaded). A missing browser or app is a failure,
not a skip. Every step saves a screenshot under ``$FIREFIGHT_ARTIFACTS`` or, when that is
unset, ``/tmp/firefight-e2e-artifacts`` (outside the repository).

``start_server`` and ``launch_browser`` are plain context managers so that
``tests/e2e/screenshot.py`` (the README picture) uses the same set-up.
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path

import pytest
import uvicorn
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
DEFAULT_ARTIFACTS = Path("/tmp/firefight-e2e-artifacts")
STARTUP_TIMEOUT_S = 20.0
VIEWPORT = {"width": 1280, "height": 900}


def artifacts_root() -> Path:
    folder = Path(os.environ.get("FIREFIGHT_ARTIFACTS") or DEFAULT_ARTIFACTS)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@contextmanager
def start_server() -> Iterator[str]:
    """The app (``create_app()``) under uvicorn on 127.0.0.1 and a free port; yields its URL."""
    from firefight.web.app import create_app  # noqa: PLC0415  (a missing app fails the test)

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(create_app(), host="127.0.0.1", port=port, log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + STARTUP_TIMEOUT_S
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            sock.close()
            raise RuntimeError("the web app did not start under uvicorn")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


@contextmanager
def launch_browser() -> Iterator[Browser]:
    """Headless Debian Chromium through Playwright; fails (never skips) when it is missing."""
    if not Path(CHROMIUM).exists():
        raise RuntimeError(
            f"{CHROMIUM} is missing: `make test` installs it (apt-get install chromium)"
        )
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def cli_json(*args: str) -> object:
    """``firefight ARGS --json``, parsed: the reference the pages are checked against (a new
    object each call, to change freely)."""
    return json.loads(_cli_output(args, tuple(sorted(os.environ.items()))))


@cache
def _cli_output(args: tuple[str, ...], environment: tuple[tuple[str, str], ...]) -> str:
    """What ``firefight ARGS --json`` prints, run once a test process for the same command in
    the same environment (the tests asked the CLI the same odds and rolls again and again, a
    process started, 0.3-0.8 s, each time)."""
    done = subprocess.run(
        [sys.executable, "-m", "firefight", *args, "--json"],
        capture_output=True,
        text=True,
        check=True,
        env=dict(environment),
    )
    return done.stdout


def cli_error(*args: str) -> str:
    """The one-line message the CLI prints for bad input, without ``error: ``."""
    done = subprocess.run(
        [sys.executable, "-m", "firefight", *args], capture_output=True, text=True, check=False
    )
    assert done.returncode != 0, f"firefight {' '.join(args)} did not fail"
    line = done.stderr.strip().splitlines()[-1]
    return line.removeprefix("error: ")


@pytest.fixture(scope="session")
def artifacts() -> Path:
    return artifacts_root()


@pytest.fixture(scope="session")
def base_url() -> Iterator[str]:
    with start_server() as url:
        yield url


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    with launch_browser() as found:
        yield found


@pytest.fixture
def page(browser: Browser, base_url: str) -> Iterator[Page]:
    """A fresh page; a script error on it fails the test that opened it."""
    context = browser.new_context(base_url=base_url, viewport=VIEWPORT)
    context.set_default_timeout(10_000)
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    try:
        yield opened
    finally:
        context.close()
    assert not errors, f"script errors on the page: {errors}"


@pytest.fixture
def context(browser: Browser, base_url: str) -> Iterator[BrowserContext]:
    """A fresh context at 1280 px that accepts downloads (the page-feature tests open their
    pages in it)."""
    made = browser.new_context(base_url=base_url, viewport=VIEWPORT, accept_downloads=True)
    made.set_default_timeout(10_000)
    yield made
    made.close()


@pytest.fixture
def shot(page: Page, artifacts: Path, request: pytest.FixtureRequest) -> Callable[[str], Path]:
    """``shot("step")`` saves a full-page screenshot named after the test and the step."""
    test = re.sub(r"[^A-Za-z0-9_.-]+", "_", request.node.name)
    steps = iter(range(1, 1000))

    def take(step: str) -> Path:
        path = artifacts / f"{test}-{next(steps):02d}-{step}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    folder = Path(os.environ.get("FIREFIGHT_ARTIFACTS") or DEFAULT_ARTIFACTS)
    if folder.exists() and any(folder.glob("*.png")):
        terminalreporter.write_line(f"browser test screenshots: {folder}")
