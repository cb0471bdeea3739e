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

if TYPE_CHECKING:
    from firefight.rulesets.upfront.ruleset import RULESET

INFO = RuleSetInfo(
    id="upfront",
    title="Up Front (card game: flow charts over your deck, odds over the unseen cards)",
    source="Richard Irving, Up Front flow charts v1.0 (2017); Avalon Hill, 1983",
    target="firefight.rulesets.upfront.ruleset:RULESET",
    aliases=("up-front",),
    doc="docs/upfront.md",
    procedures=(
        "fire",
        "resolution",
        "range",
        "hand",
        "ordnance",
        "afv",
        "artillery",
        "demolition",
        "malfunction",
        "overrun",
        "infiltration",
        "close_combat",
        "close_combat_afv",
        "morale_check",
    ),
    procedure_titles=(
        "Firepower attack (page 1) and resolution on each man (page 3) or on an AFV (page 4)",
        "Fire/Ordnance Resolution on each man, at a given FFS (page 3)",
        "Relative Range from the range chits",
        "Hand size and discards by nationality",
        "Ordnance Attacks: To Hit, then resolution on each man or on the AFV (pages 2-4)",
        "AFV Unboxed / Boxed Resolution (page 4)",
        "Artillery (RADIO) attack (page 5) and resolution on each man (page 3)",
        "Demolition Charge attack (page 5) and resolution on each man (page 3)",
        "Firepower weapon malfunction (page 6)",
        "Overrun attack: OVR + RNC, resolution on each man, adverse effects (page 7)",
        "Infiltration attempt: infiltrate on a red RPN under the count's column (page 8)",
        "Close combat vs. infantry: CCV + RNC each, low total KIA, ties both KIA (page 8)",
        "Close combat vs. AFV: RNC + modifiers, <=0 / 1-5 / 6 / >=7 (page 8)",
        "Morale check: each man draws an RNC, RN <= morale passes (page 8)",
    ),
)

_LAZY = {"RULESET": "ruleset"}


def __getattr__(name: str) -> object:
    return lazy_attribute(__name__, _LAZY, name)


__all__ = ["INFO", "RULESET"]
