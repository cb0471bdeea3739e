"""Valor & Victory (seed 003 and the rulebook chapters in shared/research/valor-and-victory).

Each module holds the procedures of one chapter of the combat rules and lists them in its
``PROCEDURES``; the charts are the TOML files in ``data/``. The board rules (line of sight)
are in :mod:`firefight.rulesets.vv.board`.
"""

from __future__ import annotations

from pathlib import Path

from firefight.rulesets.procedure import RuleSet
from firefight.rulesets.vv import (
    actions,
    ap,
    assault,
    at,
    casualties,
    lanes,
    overrun,
    support,
    valor,
)

DATA = Path(__file__).parent / "data"

RULESET = RuleSet(
    id="vv",
    title="Valor & Victory",
    source="Valor & Victory combat rules; V&V Standard Game Rules",
    procedures=(
        *ap.PROCEDURES,
        *casualties.PROCEDURES,
        *at.PROCEDURES,
        *assault.PROCEDURES,
        *valor.PROCEDURES,
        *support.PROCEDURES,
        *lanes.PROCEDURES,
        *overrun.PROCEDURES,
    ),
    aliases=("valor-and-victory",),
    data=DATA,
    doc="docs/vv.md",
    actions=actions.ACTIONS,
)

__all__ = ["DATA", "RULESET"]
