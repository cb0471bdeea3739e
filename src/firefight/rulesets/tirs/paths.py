"""Where the charts of "Les tirs" live, and the EXAMPLE user data set."""

from pathlib import Path

DATA = Path(__file__).parent / "data"
"""The TOML charts of seed 001 (every ``*.toml`` here is a chart)."""
EXAMPLES = DATA / "examples"
"""User-supplied data the seed refers to but does not print: an EXAMPLE set, not the rules."""
