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

from firefight.rulesets.declared import ProcedureInfo
from firefight.rulesets.info import RuleSetInfo, lazy_attribute

if TYPE_CHECKING:
    from firefight.rulesets.procedure import RuleSet

    RULESET: RuleSet  # imported from .ruleset when first asked for

PROCEDURES = (
    ProcedureInfo(
        "fire",
        "Firepower attack (page 1) and resolution on each man (page 3) or on an AFV (page 4)",
        "firefight.rulesets.upfront.fire:FIRE",
    ),
    ProcedureInfo(
        "resolution",
        "Fire/Ordnance Resolution on each man, at a given FFS (page 3)",
        "firefight.rulesets.upfront.fire:RESOLUTION",
    ),
    ProcedureInfo(
        "range",
        "Relative Range from the range chits",
        "firefight.rulesets.upfront.ranges:RANGE",
    ),
    ProcedureInfo(
        "hand",
        "Hand size and discards by nationality",
        "firefight.rulesets.upfront.ranges:HAND",
    ),
    ProcedureInfo(
        "ordnance",
        "Ordnance Attacks: To Hit, then resolution on each man or on the AFV (pages 2-4)",
        "firefight.rulesets.upfront.ordnance:ORDNANCE",
    ),
    ProcedureInfo(
        "afv",
        "AFV Unboxed / Boxed Resolution (page 4)",
        "firefight.rulesets.upfront.afv:AFV",
    ),
    ProcedureInfo(
        "artillery",
        "Artillery (RADIO) attack (page 5) and resolution on each man (page 3)",
        "firefight.rulesets.upfront.artillery:ARTILLERY",
    ),
    ProcedureInfo(
        "demolition",
        "Demolition Charge attack (page 5) and resolution on each man (page 3)",
        "firefight.rulesets.upfront.artillery:DEMOLITION",
    ),
    ProcedureInfo(
        "malfunction",
        "Firepower weapon malfunction (page 6)",
        "firefight.rulesets.upfront.malfunction:MALFUNCTION",
    ),
    ProcedureInfo(
        "overrun",
        "Overrun attack: OVR + RNC, resolution on each man, adverse effects (page 7)",
        "firefight.rulesets.upfront.overrun:OVERRUN",
    ),
    ProcedureInfo(
        "infiltration",
        "Infiltration attempt: infiltrate on a red RPN under the count's column (page 8)",
        "firefight.rulesets.upfront.closecombat:INFILTRATION",
    ),
    ProcedureInfo(
        "close_combat",
        "Close combat vs. infantry: CCV + RNC each, low total KIA, ties both KIA (page 8)",
        "firefight.rulesets.upfront.closecombat:CLOSE_COMBAT",
    ),
    ProcedureInfo(
        "close_combat_afv",
        "Close combat vs. AFV: RNC + modifiers, <=0 / 1-5 / 6 / >=7 (page 8)",
        "firefight.rulesets.upfront.closecombat:CLOSE_COMBAT_AFV",
    ),
    ProcedureInfo(
        "morale_check",
        "Morale check: each man draws an RNC, RN <= morale passes (page 8)",
        "firefight.rulesets.upfront.closecombat:MORALE_CHECK",
    ),
)
"""Each procedure's name, title and where it is: the rule set imports one when it is asked
for."""

INFO = RuleSetInfo.declare(
    PROCEDURES,
    id="upfront",
    title="Up Front (card game: flow charts over your deck, odds over the unseen cards)",
    source="Richard Irving, Up Front flow charts v1.0 (2017); Avalon Hill, 1983",
    target="firefight.rulesets.upfront.ruleset:RULESET",
    aliases=("up-front",),
    doc="docs/upfront.md",
    actions=(
        (
            "advise",
            "Up Front: the best play from the hand, ranked by exact odds.",
        ),
    ),
)

_LAZY = {"RULESET": "ruleset"}


def __getattr__(name: str) -> object:
    return lazy_attribute(__name__, _LAZY, name)


__all__ = ["INFO", "PROCEDURES", "RULESET"]
