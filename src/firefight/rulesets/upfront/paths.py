"""Where the Up Front rule set's data lives."""

from pathlib import Path

DATA = Path(__file__).parent / "data"
"""Charts as TOML (every ``*.toml`` directly here is a chart)."""
ILLUSTRATIVE = DATA / "illustrative"
"""The ILLUSTRATIVE deck and personalities: the formats filled in, not the published values."""
ILLUSTRATIVE_DECK = ILLUSTRATIVE / "deck.toml"
ILLUSTRATIVE_MEN = ILLUSTRATIVE / "men.toml"
