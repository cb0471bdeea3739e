"""Settings for the whole suite."""

import pytest
from hypothesis import settings

# Hypothesis's default 200 ms deadline per example is a wall-clock assertion, and tests never
# assert on wall-clock time: on a loaded 2-core machine an example that takes 10 ms can take 300.
settings.register_profile("firefight", deadline=None)
settings.load_profile("firefight")


WIDE = "120"
"""The columns every test prints in unless it says otherwise: wide enough that an assertion
reads a row of a table, or a sentence, on one line. A test of the output a player sees in a
terminal or a pipe sets ``COLUMNS`` itself, or deletes it (a pipe: 80 columns)."""


@pytest.fixture(autouse=True)
def _wide_columns(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test prints in :data:`WIDE` columns, whatever runs it: pytest-xdist's workers
    inherit the terminal's ``COLUMNS``, which the CLI honours."""
    monkeypatch.setenv("COLUMNS", WIDE)
