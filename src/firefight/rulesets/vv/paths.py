"""Where the Valor & Victory charts are."""

from __future__ import annotations

from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"
"""The V&V charts' folder (``*.toml``), its sample boards and scenarios."""
