"""Settings for the whole suite."""

import pytest
from hypothesis import settings

# Hypothesis's default 200 ms deadline per example is a wall-clock assertion, and tests never
# assert on wall-clock time: on a loaded 2-core machine an example that takes 10 ms can take 300.
settings.register_profile("firefight", deadline=None)
settings.load_profile("firefight")


PLAYER_COLUMNS = "80"
"""The columns every test prints in unless it says otherwise: the player's terminal (and a
pipe's width when ``COLUMNS`` is unset). A test of a wider output sets ``COLUMNS`` itself."""


@pytest.fixture(autouse=True)
def _player_columns(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test prints in :data:`PLAYER_COLUMNS`, whatever runs it: pytest-xdist's workers
    inherit the terminal's ``COLUMNS``, which the CLI honours."""
    monkeypatch.setenv("COLUMNS", PLAYER_COLUMNS)


# The user's folder of added rule sets (firefight.rulesets.added): an empty folder of the run's
# own, for every test and every subprocess a test starts, never the folder of whoever runs them.
import os  # noqa: E402 - kept with what it is for
import tempfile  # noqa: E402

os.environ["FIREFIGHT_RULESETS"] = tempfile.mkdtemp(prefix="firefight-rulesets-")
