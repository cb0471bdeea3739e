"""En Pointe Toujours ! (EPT II, Vae Victis 31-32), seed 000: charts and tables.

Each module holds the procedures of one part of the chart sheet and lists them in its
``PROCEDURES``; the charts are the TOML files in ``data/``. This package declares the rule
set's metadata (:data:`INFO`) and imports nothing else: the rule set itself is in
:mod:`.ruleset`, and ``RULESET``, ``FIRE`` and ``EptFire`` are imported when first asked for.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from firefight.rulesets.ept.procedures import PROCEDURES
from firefight.rulesets.info import RuleSetInfo, lazy_attribute

if TYPE_CHECKING:
    from firefight.rulesets.ept.fire import FIRE, EptFire
    from firefight.rulesets.ept.ruleset import RULESET

INFO = RuleSetInfo.declare(
    PROCEDURES,
    id="ept",
    title="En Pointe Toujours ! (EPT II)",
    source="En Pointe Toujours II charts and tables, Vae Victis 31 & 32",
    target="firefight.rulesets.ept.ruleset:RULESET",
    aliases=("en-pointe-toujours", "eptii"),
    doc="docs/ept.md",
)

_LAZY = {"RULESET": "ruleset", "FIRE": "fire", "EptFire": "fire"}


def __getattr__(name: str) -> object:
    return lazy_attribute(__name__, _LAZY, name)


__all__ = ["FIRE", "INFO", "PROCEDURES", "RULESET", "EptFire"]
