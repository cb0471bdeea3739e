"""Up Front (Avalon Hill, 1983), seed 002: Richard Irving's flow charts (2017) as procedures,
over a deck and personalities the player supplies, with exact odds over the cards unseen.

Foundation: the data formats (:mod:`.cards`, :mod:`.men`), the pool a card is drawn from and
drawing through the chance engine (:mod:`.pool`), Relative Range and hand sizes
(:mod:`.ranges`). docs/upfront.md restores the eight pages and says how a page's procedure
reads cards ("For implementers").
"""

from __future__ import annotations

from firefight.rulesets.procedure import RuleSet
from firefight.rulesets.upfront import afv, closecombat, fire, ordnance, overrun, ranges
from firefight.rulesets.upfront import artillery as page5
from firefight.rulesets.upfront import malfunction as page6
from firefight.rulesets.upfront.files import FILES
from firefight.rulesets.upfront.paths import DATA

RULESET = RuleSet(
    id="upfront",
    title="Up Front (card game: flow charts over your deck, odds over the unseen cards)",
    source="Richard Irving, Up Front flow charts v1.0 (2017); Avalon Hill, 1983",
    procedures=(
        *fire.PROCEDURES,
        *ranges.PROCEDURES,
        *ordnance.PROCEDURES,
        *afv.PROCEDURES,
        *page5.PROCEDURES,
        *page6.PROCEDURES,
        *overrun.PROCEDURES,
        *closecombat.PROCEDURES,
    ),
    aliases=("up-front",),
    data=DATA,
    doc="docs/upfront.md",
    files=FILES,
)

__all__ = ["RULESET"]
