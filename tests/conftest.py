"""Settings for the whole suite."""

import pytest
from hypothesis import settings

# Hypothesis's default 200 ms deadline per example is a wall-clock assertion, and tests never
# assert on wall-clock time: on a loaded 2-core machine an example that takes 10 ms can take 300.
settings.register_profile("firefight", deadline=None)
settings.load_profile("firefight")


@pytest.fixture(autouse=True)
def _no_terminal_width(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test prints as to a pipe, whatever runs it: pytest-xdist's workers inherit
    ``COLUMNS=80``, which the CLI honours (a test of a width sets ``COLUMNS`` itself)."""
    monkeypatch.delenv("COLUMNS", raising=False)
