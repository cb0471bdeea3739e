"""Page 4's numbers, readings and AFV state: the constants it prints, what it reads of a card
(:data:`READS`), its outcomes (:data:`AFV_RESULTS`), the input fields every page reaching it
shares (:class:`AfvReadings`), the AFV's condition (:class:`AfvCondition`) and its defence
values. The resolution itself and the ``afv`` procedure: :mod:`.afv`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pydantic import Field

from firefight.errors import InputError
from firefight.rulesets.upfront.men import Armour, Man, MenData
from firefight.rulesets.upfront.pool import CardInput, Reads
from firefight.translation import gettext as _

__all__ = [
    "AFV_KIA_VP",
    "AFV_RESULTS",
    "CRITICAL_IMMOBILIZED_RN",
    "CRITICAL_KIA_RN",
    "MEANINGS",
    "PAGE4",
    "READS",
    "STUNNED_PRINTED",
    "AfterCritical",
    "AfvCondition",
    "AfvReadings",
    "AttackKind",
    "Comparison",
    "CriticalCard",
    "FrReading",
    "OpenTopped",
    "StunnedReading",
    "TieReading",
    "afv_man",
    "defence_values",
]

PAGE4 = "Up Front flow charts, page 4"

# The numbers page 4 prints.
CRITICAL_IMMOBILIZED_RN = 6
"""Page 4: "This RNC Black 6?": AFV immobilized, stunned if hull down or immobilized."""
CRITICAL_KIA_RN = 5
"""Page 4: "This RNC Black 5 & OT AFV?": AFV KIA."""
AFV_KIA_VP = 10
"""Page 4: "AFV KIA 10 + # VP" (the # is printed on the AFV card: men.toml's optional
``afv.vp``, :func:`afv_kia_vp`)."""
STUNNED_PRINTED = 6
"""Page 4: "AFV Stunned. If Stunned > 6, KIA" as the seed prints it (reading ``stunned``)."""

READS = Reads(rn=True, rn_colour=True)
"""What pages 2 and 4 read of a card: its RN and the RN's colour."""

AttackKind = Literal["firepower", "unboxed", "mortar", "artillery", "boxed"]
FrReading = Literal["ffs_plus_rn", "ffs_only"]
CriticalCard = Literal["to_hit", "resolution"]
AfterCritical = Literal["continue", "stop"]
OpenTopped = Literal["open_topped", "not_open_topped"]
TieReading = Literal["black_stuns", "red_stuns"]
StunnedReading = Literal["twice_kia", "fr_over_6"]
Comparison = Literal["greater", "at_least"]

AFV_RESULTS = (
    "AFV KIA (critical hit)",
    "AFV KIA",
    "AFV KIA (stunned twice)",
    "commander KIA",
    "immobilized",
    "stunned",
    "buttoned up",
    "no effect",
)
"""Every effect page 4 can have on an AFV, worst first; an outcome joins its effects."""
MEANINGS = {
    "AFV KIA (critical hit)": "critical hit: this RNC Black 5 and an open-topped AFV (10 + # VP)",
    "AFV KIA": "boxed: FR > k, the AFV is destroyed (10 + # VP)",
    "AFV KIA (stunned twice)": "an AFV already stunned is stunned again: KIA (10 + # VP)",
    "commander KIA": "unboxed: FR > CE, the commander is killed; the AFV buttons up",
    "immobilized": "critical hit Black 6 or boxed FR = i: the AFV is immobilized",
    "stunned": "boxed FR = s, or an immobilizing hit on a hull-down or immobilized AFV",
    "buttoned up": "unboxed: FR > MORALE (or CE): buttoned up / pinned, flip to the back side",
    "no effect": "no effect on the AFV",
}


class AfvReadings(CardInput):
    """The readings of page 4 where the garbled seed text is ambiguous (docs/upfront.md,
    "Page 4"), and the AFV's state."""

    fr: FrReading = Field(
        "ffs_plus_rn",
        description=(
            "The Fire Result: ffs_plus_rn (FR = FFS + the resolution card's RN; docs/sources.md's "
            "inference, as page 3) or ffs_only (FR = FFS)."
        ),
    )
    critical_card: CriticalCard = Field(
        "to_hit",
        description=(
            "Which card 'This RNC Black 6 / Black 5' reads (page 4): to_hit (the To Hit RNC "
            "that made the critical hit possible) or resolution (the card drawn for FR)."
        ),
    )
    after_critical: AfterCritical = Field(
        "continue",
        description=(
            "After a Black 6 critical hit (page 4): continue (FR is still compared with CE "
            "and MORALE) or stop (the critical hit is the whole result)."
        ),
    )
    ot: OpenTopped = Field(
        "open_topped",
        description=(
            "The 'OT AFV' of 'Black 5 & OT AFV' (page 4): open_topped (OT = open-topped) or "
            "not_open_topped."
        ),
    )
    tie: TieReading = Field(
        "black_stuns",
        description=(
            "FR = s and i of the same value, 'Draw RNC' (page 4): black_stuns (black RN "
            "stunned, red immobilized) or red_stuns (red stunned, black immobilized)."
        ),
    )
    stunned: StunnedReading = Field(
        "twice_kia",
        description=(
            "'If Stunned > 6, KIA' (page 4): twice_kia (an AFV already stunned that is "
            "stunned again is KIA) or fr_over_6 (already stunned and FR > 6: KIA)."
        ),
    )
    comparison: Comparison = Field(
        "greater",
        description=(
            "The '>' of FR > k, FR > CE and FR > MORALE (page 4; the transcription lost its ≥ "
            "signs): "
            "greater (as printed) or at_least (≥)."
        ),
    )
    afv: str = Field(
        "ger-pz4",
        max_length=40,
        description="The AFV attacked: an id of the men file with an afv table.",
    )
    bogged: bool = Field(False, description="The AFV is bogged (page 4: flank values).")
    immobilized: bool = Field(False, description="The AFV is immobilized (page 4: flank values).")
    flanked: bool = Field(False, description="The AFV is flanked (page 4: flank values).")
    moving_sideways: bool = Field(
        False, description="The AFV is moving sideways (page 4: flank values)."
    )
    hull_down: bool = Field(
        False,
        description=(
            "The AFV is hull down: non moving in Wall or Hill (page 2's note): an immobilizing "
            "hit stuns it too (page 4)."
        ),
    )
    stunned_now: bool = Field(
        False, description="The AFV is already stunned (page 4: stunned twice)."
    )
    buttoned_up: bool = Field(
        False,
        description=(
            "The AFV is already buttoned up (its back side): no commander to kill (FR > CE) "
            "and FR > MORALE changes nothing."
        ),
    )


@dataclass(frozen=True)
class AfvCondition:
    """An AFV's state before the attack (page 4's decision boxes)."""

    bogged: bool
    immobilized: bool
    flanked: bool
    moving_sideways: bool
    hull_down: bool
    stunned: bool
    buttoned_up: bool

    @staticmethod
    def of(inp: AfvReadings) -> AfvCondition:
        """The state an input gives."""
        return AfvCondition(
            inp.bogged,
            inp.immobilized,
            inp.flanked,
            inp.moving_sideways,
            inp.hull_down,
            inp.stunned_now,
            inp.buttoned_up,
        )

    @property
    def uses_flank(self) -> bool:
        """Page 4: "Is AFV Bogged, Immobilized, Flanked, Moving sideways?" -> FLANK values."""
        return self.bogged or self.immobilized or self.flanked or self.moving_sideways


def afv_man(men: MenData, field_name: str, man_id: str) -> Man:
    """The AFV of that id; one-line errors listing the AFVs of the file."""
    afvs = [m.id for m in men.men if m.afv is not None]
    allowed = _("an AFV of {source}: {ids}").format(
        source=men.source, ids=", ".join(afvs) or _("none")
    )
    if man_id not in men.ids or men.man(man_id).afv is None:
        raise InputError(field_name, allowed, man_id)
    return men.man(man_id)


def defence_values(man: Man, condition: AfvCondition) -> tuple[str, Armour]:
    """Page 4 (boxed): the FLANK values if the AFV is bogged, immobilized, flanked or moving
    sideways, the ARMOR values otherwise."""
    assert man.afv is not None
    if condition.uses_flank:
        return "FLANK", man.afv.flank
    return "ARMOR", man.afv.armour
