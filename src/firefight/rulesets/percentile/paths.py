"""Where the percentile rule set's charts and example data live."""

from pathlib import Path

DATA = Path(__file__).parent / "data"
"""The TOML charts of seed 004."""

EXAMPLES = DATA / "examples"
"""Example data files (not charts of the seed): clearly labelled EXAMPLE."""
