"""Valor & Victory (seed 003 and the rulebook chapters in shared/research/valor-and-victory).

Each module holds the procedures of one chapter of the combat rules and lists them in its
``PROCEDURES``; the charts are the TOML files in ``data/``. The board rules (line of sight)
are in :mod:`firefight.rulesets.vv.board`. This package declares the rule set's metadata
(:data:`INFO`) and where its charts are (:data:`DATA`), and imports nothing else: the rule set
itself is in :mod:`.ruleset`, and ``RULESET`` is imported when first asked for.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from firefight.rulesets.info import RuleSetInfo, lazy_attribute
from firefight.rulesets.vv.procedures import PROCEDURES

if TYPE_CHECKING:
    from firefight.rulesets.vv.paths import DATA
    from firefight.rulesets.vv.ruleset import RULESET


INFO = RuleSetInfo.declare(
    PROCEDURES,
    id="vv",
    title="Valor & Victory",
    source="Valor & Victory combat rules; V&V Standard Game Rules",
    target="firefight.rulesets.vv.ruleset:RULESET",
    aliases=("valor-and-victory",),
    doc="docs/vv.md",
    actions=(
        (
            "move",
            "A V&V stack's move under opportunity fire: exact odds along the path, or one move.",
        ),
        (
            "threat",
            "Where the enemy can fire on a side's units as they move, and how likely a pin is.",
        ),
    ),
)

_LAZY = {"RULESET": "ruleset", "DATA": "paths"}


def __getattr__(name: str) -> object:
    return lazy_attribute(__name__, _LAZY, name)


__all__ = ["DATA", "INFO", "RULESET"]
