"""Fixtures of the sweep tests: small specs written to files, and a real Dask cluster."""

from __future__ import annotations

import csv
import textwrap
from pathlib import Path

import pytest

from firefight.sim.cluster import local_cluster

SMALL_EXACT = """
ruleset = "ept"
procedure = "fire"
mode = "exact"

[axes]
strength = { from = 1, to = 6 }
protection = ["none", "important"]
range = ["adjacent", "long"]

[statistics]
no_effect = ["-"]
step_lost = ["1", "E"]
"""

SMALL_SAMPLED = """
ruleset = "ept"
procedure = "fire"
mode = "sampled"
samples = 400
seed = 7

[axes]
strength = { from = 2, to = 8, step = 3 }
protection = ["none", "light", "medium"]

[statistics]
no_effect = ["-"]
neutralized_or_worse = ["N", "N1", "N2", "N3", "1", "E"]
"""


def rows_of(path: Path) -> list[dict[str, str]]:
    """The rows of a results CSV, by column name."""
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def write_spec(folder: Path, text: str, name: str = "spec.toml") -> Path:
    """A spec file in ``folder``."""
    path = folder / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


@pytest.fixture
def exact_spec(tmp_path: Path) -> Path:
    return write_spec(tmp_path, SMALL_EXACT, "exact.toml")


@pytest.fixture
def sampled_spec(tmp_path: Path) -> Path:
    return write_spec(tmp_path, SMALL_SAMPLED, "sampled.toml")


@pytest.fixture(scope="module")
def dask_scheduler(tmp_path_factory: pytest.TempPathFactory):
    """A real Dask scheduler and two one-thread workers on 127.0.0.1 (subprocesses, stopped at
    the end of the module); its address."""
    with local_cluster(tmp_path_factory.mktemp("dask"), workers=2) as address:
        yield address
