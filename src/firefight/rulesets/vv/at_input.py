"""An AT attack as a player states it (V&V 18): the weapon and its AT FP Rating,
the target and its armour and facing (18.4, 18.5), its cover (13.4, 13.5, 13.6, 16.3), and the
checks that the statement is one the rules allow (20.5: no ATFP against a bunker; 12.65: a
mortar's minimum range).
"""

from __future__ import annotations

from pydantic import AliasChoices, Field, model_validator

from firefight.core.inputs import RuleInput
from firefight.rulesets.vv.at_charts import (
    INFANTRY_WEAPONS,
    MORTAR_MINIMUM_RANGE,
    STRIKES,
    Facing,
    Rating,
    Target,
    Weapon,
)
from firefight.rulesets.vv.board import MAX_LINE_HINDRANCE
from firefight.rulesets.vv.valor import ValorUnit


class VvAtAttack(RuleInput):
    """One AT attack on one target unit (V&V 18.3-18.6), to-hit and elimination chained."""

    weapon: Weapon = Field(
        "at_weapon",
        description=(
            "What fires (Anti-Tank To-Hit Numbers, V&V 18.3): at_weapon = an infantry AT "
            "support weapon (8); gun = a Gun or an AFV's gun (by range: 10 / 8 / 6); "
            "artillery_strike and air_strike = support missions against an AFV (8, 21.5); "
            "on_board_mortar = a mortar strike against a vehicle (6, 12.67)."
        ),
    )
    range_hexes: int = Field(
        1,
        ge=1,
        le=99,
        description=(
            "Range in hexes, target hex counted, firer's not (V&V 13.3); a gun's to-hit number "
            "reads it: <= 10 hexes 10, 11-19 hexes 8, >= 20 hexes 6; an AT weapon's "
            "weapon_range bounds it."
        ),
    )
    weapon_range: int | None = Field(
        None,
        ge=1,
        le=99,
        description=(
            "The range printed on the AT support weapon's counter (V&V 18.2: it fires at a "
            "target within that range); when given, a longer range_hexes is refused. Guns "
            "fire at unlimited range (18.2); strikes and mortars have none here."
        ),
    )
    atfp: Rating = Field(
        description=(
            "The attacker's AT FP Rating A-F, the row of the Armor Elimination Table (V&V 18.4). "
            "Support missions: the chart's colours read Light Barrage = B, Heavy Barrage = C, "
            "Fighter Bomber = D."
        )
    )
    target: Target = Field(
        "afv",
        description=(
            "afv = an armoured fighting vehicle; unarmoured_vehicle or gun: eliminated when "
            "hit (V&V 18.4)."
        ),
    )
    front_armour: Rating | None = Field(
        None,
        validation_alias=AliasChoices("front_armour", "front_armor"),
        description="The AFV's front Armor Rating (or its only one), A-F (V&V 18.5).",
    )
    rear_armour: Rating | None = Field(
        None,
        validation_alias=AliasChoices("rear_armour", "rear_armor"),
        description=(
            "The AFV's rear Armor Rating, A-F; omitted when the counter prints one Armor "
            "Rating, which serves every facing (V&V 18.5)."
        ),
    )
    facing: Facing = Field(
        "front",
        description=(
            "The armour the attack meets, from the Armor Facing Diagram (V&V 18.5): front or "
            "rear; along_front_rear_hexside = the LOS runs along the hexside between them and "
            "a die decides (1-3 front, 4-6 rear). Strikes (21.5, 12.67) always read the rear."
        ),
    )
    cover: int = Field(
        0,
        ge=0,
        le=7,
        description=(
            "Cover modifier of the target hex and its fortification, added to the to-hit roll "
            "(V&V 13.4; 'Cover modifiers apply to ALL to-hit rolls'); never to the "
            "elimination roll (18.4). For a strike, the target hex's terrain modifiers, an "
            "orchard's or crops' +1 included (21.5, 12.63)."
        ),
    )
    hindrance: int = Field(
        0,
        ge=0,
        le=MAX_LINE_HINDRANCE,
        description=(
            "Cumulative hindrances along the LOS, added to the to-hit roll (V&V 13.4), as many "
            "as the line adds up. Strikes "
            "read only the target hex's terrain, not the hexside hindrances around it "
            "(12.63, 21.5): 0 there."
        ),
    )
    gun_shield: bool = Field(
        False,
        description=(
            "The target Gun has a Gun Shield, is attacked from inside its FFA and is not "
            "moving: +1 to the to-hit roll, on top of cover (V&V 13.5)."
        ),
    )
    leader_modifier: int = Field(
        0,
        ge=-3,
        le=0,
        description=(
            "Leadership Modifier of a leader in the firing infantry unit's hex (V&V 13.6; "
            "mortars 12.61), added to the to-hit roll."
        ),
    )
    firer_valorous: bool = Field(
        False,
        description="The firing infantry unit is valorous: -1 to the ATFP attack roll (V&V 16.3).",
    )
    target_in_bunker: bool = Field(
        False,
        description=(
            "The target (a Gun) occupies a bunker: it cannot be targeted with ATFP; attack it "
            "with APFP (ap_attack, fortification concrete_bunker or wood_earth_bunker; V&V 20.5)."
        ),
    )
    target_immobilized: bool = Field(
        False,
        description=(
            "The AFV is already immobilized: if it survives the attack its crew checks for "
            "abandonment, 1d6 <= 2 (V&V 18.6)."
        ),
    )
    check_valor: bool = Field(
        False,
        description=(
            "Follow a natural two on an infantry unit's to-hit roll with its valor check "
            "(V&V 16.2), in the odds and the outcome (';valorous' / ';not_valorous')."
        ),
    )
    firer_unit: ValorUnit = Field(
        "squad",
        description="The firing infantry unit, for the valor check: squad, half_squad or leader.",
    )
    firer_casualty_rating: int | None = Field(
        None,
        ge=1,
        le=12,
        description="Its Casualty Rating (squads and half squads; V&V 16.2).",
    )

    @model_validator(mode="after")
    def _consistent(self) -> VvAtAttack:  # noqa: PLR0912 - one check per clause of the rules
        infantry = self.weapon in INFANTRY_WEAPONS
        problems = []
        if self.weapon_range is not None and self.weapon != "at_weapon":
            problems.append(
                "'weapon_range' is the range printed on an AT support weapon: weapon at_weapon "
                f"only (V&V 18.2) (got weapon {self.weapon!r})"
            )
        elif self.weapon_range is not None and self.range_hexes > self.weapon_range:
            problems.append(
                f"'range_hexes' must be at most the weapon's printed range, {self.weapon_range} "
                f"(V&V 18.2) (got {self.range_hexes})"
            )
        if self.target == "afv" and self.front_armour is None:
            problems.append("'front_armour' must be given for an afv target (V&V 18.5)")
        if self.target != "afv" and (self.front_armour or self.rear_armour):
            problems.append("armour ratings apply to an afv target only (V&V 18.4)")
        if self.weapon in {"artillery_strike", "air_strike"} and self.target != "afv":
            problems.append(
                "a support mission rolls to hit an afv only; other units take AP fire (V&V 21.5)"
            )
        if self.weapon == "on_board_mortar" and self.target == "gun":
            problems.append("a mortar rolls to hit vehicles only (V&V 12.67)")
        if self.gun_shield and self.target != "gun":
            problems.append("'gun_shield' applies to a gun target only (V&V 13.5)")
        if self.weapon in STRIKES and self.hindrance:
            problems.append(
                "'hindrance' must be 0 for a strike: only the terrain in the target hex "
                "modifies it ('cover'), not the hexside hindrances around it nor anything "
                f"between (V&V 21.5, 12.63) (got {self.hindrance})"
            )
        if self.target_in_bunker:
            problems.append(
                "a unit in a bunker cannot be targeted with ATFP: attack it with APFP "
                "(ap_attack, fortification concrete_bunker or wood_earth_bunker; V&V 20.5)"
            )
        if self.weapon == "on_board_mortar" and self.range_hexes < MORTAR_MINIMUM_RANGE:
            problems.append(
                f"'range_hexes' must be at least {MORTAR_MINIMUM_RANGE} for an on-board mortar, "
                f"its minimum range (V&V 12.65) (got {self.range_hexes})"
            )
        if not infantry and (self.leader_modifier or self.firer_valorous):
            problems.append(
                "leaders and valor modify infantry attacks only (V&V 13.6, 16.3): "
                "weapon at_weapon or on_board_mortar"
            )
        if self.target_immobilized and self.target != "afv":
            problems.append("only an afv is immobilized (V&V 18.6)")
        needs_rating = self.check_valor and infantry and self.firer_unit != "leader"
        if needs_rating and self.firer_casualty_rating is None:
            problems.append("'firer_casualty_rating' must be given to check valor (V&V 16.2)")
        if problems:
            raise ValueError(problems[0])
        return self
