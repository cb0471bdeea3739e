"""Integers as a player types them: ASCII digits only (README, "The command line").

Python's ``int`` and ``str.isdigit`` also take other scripts' digits (``int("٣") == 3``),
full-width digits, underscores (``int("1_000")``) and surrounding blanks; firefight reads none
of them as a number, in dice (``--roll 3,4``), option values or anything else a player gives.
"""

from __future__ import annotations

import re

INTEGER = re.compile(r"[+-]?[0-9]{1,30}")
"""An optional sign and 1 to 30 ASCII digits: 30 digits are far past every bound firefight
has, and keep ``int`` cheap (it refuses more than 4,300 digits with an exception)."""


SEED_MAX = 2**63 - 1
"""The largest seed firefight takes, in the CLI (``--seed``, ``--sample-seed``) and the web API
(``seed``, ``sample_seed``): a signed 64-bit integer's, as every number a player gives has a
maximum; a seed past it is one line, not a 400-digit number echoed back."""
SEEDS = f"an integer from 0 to {SEED_MAX}"
"""What a seed must be, as an error line says it."""


def read_integer(text: str) -> int | None:
    """``"6"`` -> 6, ``"-3"`` -> -3; ``None`` for anything else (``"٣"``, ``"1_000"``, ``"6.0"``,
    ``" 6"``)."""
    return int(text) if INTEGER.fullmatch(text) else None
