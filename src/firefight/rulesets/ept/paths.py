"""Where the EPT charts live."""

from pathlib import Path

DATA = Path(__file__).parent / "data"
"""The TOML charts of seed 000."""
