"""The AP attack as a player states it (V&V 14): the fire group (14.2, 16.3), the
target hex's terrain and fortification (13.4, 20), the LOS hindrances (9.3), the leader
(13.6), Grenades (12.52), Assault Movement (6.4) and opportunity fire (13.8), and the checks
that the statement is one the rules allow.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field, model_validator

from firefight.core.inputs import RuleInput
from firefight.errors import RuleError
from firefight.i18n import gettext
from firefight.rulesets.vv.ap_cover import (
    ENTRENCHMENTS,
    FORTIFICATIONS_OPEN_ONLY,
    INFANTRY_ATTACKS,
    NO_ENTRENCHMENT_TERRAINS,
    OPEN_TERRAINS,
    SUPPORT_MISSIONS,
    TARGET_HEX_ONLY,
    AttackKind,
    FirerKind,
    Fortification,
    TargetTerrain,
)
from firefight.rulesets.vv.board import MAX_LINE_HINDRANCE
from firefight.rulesets.vv.support import MORTAR


class VvApAttack(RuleInput):
    """An AP attack on one hex (V&V 14.5; seed 003 "Cover", "Leadership", "Opportunity Fire")."""

    readings: ClassVar[frozenset[str]] = frozenset({"fighter_bombers"})
    """The fields that read the rules where they are silent (folded apart on the web)."""

    apfp: int | None = Field(
        None,
        ge=1,
        le=99,
        description=(
            "The fire group's combined APFP as printed: its units and support weapons "
            "(14.2, 14.4). Required for attack=fire and mortar (the mortars' own APFP, 12.61)."
        ),
    )
    valorous_firers: int = Field(
        0, ge=0, le=6, description="Valorous infantry units firing: +1 APFP each (16.3)."
    )
    attack: AttackKind = Field(
        "fire",
        description=(
            "fire = units firing; mortar = on-board mortars firing indirectly (12.6); "
            "fighter_bomber / light_barrage / heavy_barrage use the row "
            "the AP Combat Table's colours give them (19-28, 29-40, 41+; read from colours)."
        ),
    )
    target_terrain: TargetTerrain = Field(
        "open",
        description=(
            "Terrain of the target hex: its cover modifier (Terrain Effects Summary, 13.4). "
            "An orchard or crops hex gives no cover: its +1 is a hindrance, count it in "
            "'hindrance' (9.3); a support mission or mortar counts it here, as the target "
            "hex's terrain (21.5, 12.63). On a hill, give the hex's other terrain."
        ),
    )
    fortification: Fortification = Field(
        "none",
        description=(
            "The target's fortification or entrenchment: its cover modifier (20). Bunkers and "
            "sandbags stand in open terrain only; entrenchments (foxhole, trench, cave) in any "
            "hex but building, stream, gully, wadi, canal, pond or marsh (20.2)."
        ),
    )
    target_infantry: bool = Field(
        True,
        description=(
            "The target is infantry: an artillery barrage's or a mortar's CPs on infantry in "
            "woods or jungle are doubled (21.6, 12.64)."
        ),
    )
    fighter_bombers: Literal["not_doubled", "doubled"] = Field(
        "not_doubled",
        description=(
            "Whether 21.6's doubling also applies to fighter-bombers (it says 'artillery "
            "strike'; not_doubled is the letter of it)."
        ),
    )
    hindrance: int = Field(
        0,
        ge=0,
        le=MAX_LINE_HINDRANCE,
        description=(
            "Hindrances along the LOS, the target hex's own included: +1 each, cumulative "
            "(9.3, 10.8-10.10, 13.4; a modified roll of 12 or more reads the 12+ column). "
            "0 for a support mission or a mortar: only the target hex's terrain modifies them, "
            "not the hexsides around it nor anything between (21.5, 12.63)."
        ),
    )
    leadership_modifier: int = Field(
        0,
        ge=-3,
        le=0,
        description=(
            "The best Leadership Modifier of a leader in the fire group (13.6; a leader in the "
            "mortar's hex, 12.61)."
        ),
    )
    firing_from_barbed_wire: bool = Field(
        False, description="Infantry firing from a barbed wire hex: +1 (20.8)."
    )
    opportunity_fire: bool = Field(
        False, description="An opportunity fire attack (13.8; never by mortars, 12.61)."
    )
    adjacent: bool = Field(
        False,
        description=(
            "The target hex is adjacent to the firers: opportunity fire -2 (13.8); grenades "
            "may be used (12.52); inside a mortar's minimum range of 2 hexes (12.65)."
        ),
    )
    grenades: int = Field(
        0,
        ge=0,
        le=6,
        description=(
            "Grenades counters used by the attacking units, at most one per unit: -1 each to "
            "the attack dice roll, against an adjacent hex only (12.52)."
        ),
    )
    target_assault_movement: bool = Field(
        False,
        description=(
            "The target infantry moves with Assault Movement (an Assault Move marker): +1 "
            "cover (6.4), which is positive cover for opportunity fire's -1 (13.8)."
        ),
    )
    opportunity_no_cover: Literal["no_cover_or_hindrance", "no_positive_cover"] = Field(
        "no_cover_or_hindrance",
        description=(
            "When opportunity fire's -1 applies: no_cover_or_hindrance = no terrain, "
            "fortification, Assault Movement or hindrance modifier applies (the combat rules "
            "sheet); "
            "no_positive_cover = the target's cover (terrain, fortification, Assault Movement) "
            "is not positive (13.8's wording)."
        ),
    )
    valor: Literal["cp_only", "with_attacker_valor"] = Field(
        "cp_only",
        description=(
            "cp_only = the outcome is the Casualty Points; with_attacker_valor = also the "
            "valor checks of the firing infantry after a natural 2 (16.2)."
        ),
    )
    firer1: FirerKind = Field("none", description="First firing infantry unit (16.2 check).")
    firer1_casualty_rating: int = Field(4, ge=1, le=6, description="Its Casualty Rating.")
    firer2: FirerKind = Field("none", description="Second firing infantry unit.")
    firer2_casualty_rating: int = Field(4, ge=1, le=6, description="Its Casualty Rating.")
    firer3: FirerKind = Field("none", description="Third firing infantry unit.")
    firer3_casualty_rating: int = Field(4, ge=1, le=6, description="Its Casualty Rating.")

    @model_validator(mode="after")
    def _consistent(self) -> VvApAttack:
        if self.attack in INFANTRY_ATTACKS and self.apfp is None:
            msg = gettext("'apfp' must be given when 'attack' is {attack} (got None)").format(
                attack=self.attack
            )
            raise ValueError(msg)
        if self.grenades and not self.adjacent:
            msg = gettext(
                "'grenades' may only be used against a target in an adjacent hex "
                "(12.52): set adjacent (got grenades {grenades})"
            ).format(grenades=self.grenades)
            raise ValueError(msg)
        if self.target_assault_movement and not self.opportunity_fire:
            msg = gettext(
                "'target_assault_movement': a unit is marked Assault Move only while it"
                " moves, when opportunity fire may target it (6.4, 13.8): set "
                "opportunity_fire"
            )
            raise ValueError(msg)
        return self


def check_position(fortification: str, terrain: str) -> None:
    """20.2: fortifications only in open terrain (open, road, field, beach), entrenchments not
    in building, stream, gully, wadi, canal, pond or marsh hexes; a one-line error otherwise."""
    name = fortification.replace("_", " ")
    if fortification in FORTIFICATIONS_OPEN_ONLY and terrain not in OPEN_TERRAINS:
        msg = gettext(
            "a {name} stands only in open terrain (20.2: open, road, beach or field"
            " hexes), not {terrain}"
        ).format(name=name, terrain=terrain)
        raise RuleError(msg)
    if fortification in ENTRENCHMENTS and terrain in NO_ENTRENCHMENT_TERRAINS:
        msg = gettext(
            "a {name} may not be placed in a {terrain} hex: entrenchments go in any"
            " hex except buildings, stream, gully or wadi, canal, pond or marsh "
            "hexes (20.2)"
        ).format(name=name, terrain=terrain)
        raise RuleError(msg)


def check_attack(inp: VvApAttack) -> None:
    """Combinations the rules exclude, as one-line errors."""
    if inp.attack in SUPPORT_MISSIONS and (
        inp.opportunity_fire
        or inp.leadership_modifier
        or inp.valorous_firers
        or inp.firing_from_barbed_wire
        or inp.adjacent
    ):
        msg = gettext(
            "a {attack} attack has no leader, valor, barbed wire, grenades, "
            "adjacency or opportunity fire modifiers (13.6, 13.8, 21)"
        ).format(attack=inp.attack.replace("_", " "))
        raise RuleError(msg)
    if inp.attack in TARGET_HEX_ONLY and inp.hindrance:
        who = "a mortar attack (12.63)" if inp.attack == MORTAR else "a support mission (21.5)"
        msg = gettext(
            "'hindrance' must be 0 for {who}: only the terrain in the target hex "
            "modifies it, not the hexside hindrances around it nor anything between"
            " (got {hindrance})"
        ).format(who=who, hindrance=inp.hindrance)
        raise RuleError(msg)
    if inp.attack == MORTAR:
        if inp.opportunity_fire:
            raise RuleError(gettext("mortars may not make opportunity fire attacks (12.61)"))
        if inp.adjacent:
            msg = gettext(
                "mortars may not fire at an adjacent hex: their minimum range is 2 hexes (12.65)"
            )
            raise RuleError(msg)
        if inp.valorous_firers:
            msg = gettext(
                "'valorous_firers' must be 0 for a mortar attack: an infantry unit "
                "firing a mortar never adds its inherent APFP (12.61, 16.3) (got "
                "{valorous_firers})"
            ).format(valorous_firers=inp.valorous_firers)
            raise RuleError(msg)
    check_position(inp.fortification, inp.target_terrain)
