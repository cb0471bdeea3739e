"""Up Front (Avalon Hill, 1983), seed 002: Richard Irving's flow charts (2017) as procedures,
over a deck and personalities the player supplies, with exact odds over the cards unseen.

Foundation: the data formats (:mod:`.cards`, :mod:`.men`), the pool a card is drawn from and
drawing through the chance engine (:mod:`.pool`), Relative Range and hand sizes
(:mod:`.ranges`). docs/upfront.md restores the eight pages and says how a page's procedure
reads cards ("For implementers"). This package declares the rule set's metadata
(:data:`INFO`) and imports nothing else: the rule set itself is in :mod:`.ruleset`, and
``RULESET`` is imported when first asked for.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from firefight.rulesets.info import RuleSetInfo, lazy_attribute
from firefight.rulesets.upfront.procedures import PROCEDURES

if TYPE_CHECKING:
    from firefight.rulesets.upfront.ruleset import RULESET

INFO = RuleSetInfo.declare(
    PROCEDURES,
    id="upfront",
    title="Up Front (card game: flow charts over your deck, odds over the unseen cards)",
    source="Richard Irving, Up Front flow charts v1.0 (2017); Avalon Hill, 1983",
    target="firefight.rulesets.upfront.ruleset:RULESET",
    aliases=("up-front",),
    doc="docs/upfront.md",
)

_LAZY = {"RULESET": "ruleset"}


def __getattr__(name: str) -> object:
    return lazy_attribute(__name__, _LAZY, name)


__all__ = ["INFO", "RULESET"]
