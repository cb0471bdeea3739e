"""V&V 21.5 Support missions against AFVs (with 18.4, 18.6) and 21.6 Air bursts:
an artillery barrage or fighter-bomber against an AFV in the hex (to-hit 2d6 + cover at most
8, then the elimination roll against the rear armour with the mission's ATFP class), and
artillery CPs doubled on infantry in woods or jungle.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from typing import ClassVar, Literal

from pydantic import AliasChoices, Field

from firefight.chance import TWO_D6, Chance, exact
from firefight.chance.direct import by_total, then
from firefight.chance.distribution import Distribution
from firefight.core.inputs import RuleInput
from firefight.core.modifier import Modifier
from firefight.rulesets.procedure import Procedure
from firefight.rulesets.vv.at import (
    EqualRoll,
    abandonment_check,
    armor_elimination_table,
    elimination_number,
    strike_effect,
)
from firefight.rulesets.vv.support_charts import (
    MISSION_ROWS,
    ArmorClass,
    Mission,
    missions_chart,
    roll_modifier,
)

# --- Support missions against AFVs (21.5) --------------------------------------------------------


class VvArtilleryVsAfv(RuleInput):
    """An artillery barrage or fighter-bomber against an AFV in its hex (21.5, 18.4, 18.6)."""

    readings: ClassVar[frozenset[str]] = frozenset({"equal_roll"})
    """The fields that read the rules where they are silent (folded apart on the web)."""

    mission: Mission = Field(
        "light_barrage",
        description="The support mission: light_barrage, heavy_barrage or "
        "fighter_bomber (V&V 21.5).",
    )
    rear_armour: ArmorClass = Field(
        validation_alias=AliasChoices("rear_armour", "rear_armor"),
        description="The AFV's rear Armor Factor, A (thinnest) to F (V&V 21.5: always the rear).",
    )
    cover: int = Field(
        0,
        ge=0,
        le=6,
        description=(
            "Cover modifier of the target hex (terrain, plus a fortification's), added to the "
            "to-hit roll; hexside hindrances around the hex do not count (V&V 21.5)."
        ),
    )
    atfp_class: ArmorClass | None = Field(
        None,
        description=(
            "The mission's ATFP class; omitted = read from the colours of the Armor "
            "Elimination Table's rows: light barrage B, heavy barrage C, fighter-bomber D "
            "(no number is printed; docs/sources.md records it as an inference)."
        ),
    )
    equal_roll: EqualRoll = Field(
        "eliminates",
        description=(
            "An elimination roll equal to the number: eliminates = 21.5's own words for "
            "support missions ('equal to or less ... eliminates'); immobilizes = 18.4's AT rule "
            "(then the crew abandons on 1d6 <= 2, 18.6)."
        ),
    )
    already_immobilized: bool = Field(
        False,
        description=(
            "The AFV is already immobilized: if it survives the attack (missed included) its "
            "crew abandons it on 1d6 <= 2 (V&V 18.6)."
        ),
    )


@cache
def mission_cell(mission: str, column: str) -> str:
    """A mission's entry in ``support_missions``: ``APFP row``, ``ATFP class``, ``AFV to-hit``
    (read once per mission and column: exact odds re-run the rule)."""
    return missions_chart().cell_at(MISSION_ROWS[mission], column).value


def mission_atfp(inp: VvArtilleryVsAfv) -> str:
    """The ATFP class the mission attacks with."""
    return inp.atfp_class or mission_cell(inp.mission, "ATFP class")


def afv_modifiers(inp: VvArtilleryVsAfv) -> list[Modifier]:
    """The target hex's cover, on the to-hit roll only (21.5; 18.4: none on the elimination)."""
    if not inp.cover:
        return []
    return [roll_modifier(inp.cover, "target hex cover (to-hit)", "V&V 21.5")]


def _hits(roll: int, cover: int, to_hit: int) -> bool:
    """21.5: the to-hit roll plus the hex's cover at most the mission's AFV to-hit hits."""
    return roll + cover <= to_hit


def _strike(inp: VvArtilleryVsAfv, chance: Chance) -> str:
    """The to-hit roll and, on a hit, the elimination roll: ``missed``, ``no_effect`` or the
    attack's effect."""
    to_hit = int(mission_cell(inp.mission, "AFV to-hit"))
    roll = chance.roll(TWO_D6, "to-hit (2d6)")
    hit = _hits(roll, inp.cover, to_hit)
    chance.note(
        "21.5 to-hit",
        f"{roll} {inp.cover:+} = {roll + inp.cover} "
        f"{'<=' if hit else '>'} {to_hit}: {'hit' if hit else 'missed'}",
    )
    return _hit_effect(inp, chance) if hit else "missed"


def _hit_effect(inp: VvArtilleryVsAfv, chance: Chance) -> str:
    """What a hit does: the Armor Elimination Table's cell, then the elimination roll."""
    atfp = mission_atfp(inp)
    cell = elimination_number(atfp, inp.rear_armour)
    chance.note(
        armor_elimination_table().title, f"ATFP {atfp} vs rear armour {inp.rear_armour}: {cell}"
    )
    if cell == "E":
        return "eliminated"
    if cell == "-":
        return "no_effect"
    elimination = chance.roll(TWO_D6, "elimination dice roll (2d6)")
    effect = strike_effect(elimination, int(cell), chance, inp.equal_roll)
    return "abandoned" if effect == "immobilized_abandoned" else effect


def _strike_odds(inp: VvArtilleryVsAfv) -> Distribution[str]:
    """The exact odds of :func:`_strike`: the to-hit roll's totals read once each, then a
    hit's effect once (the replay runs the to-hit again under every elimination roll)."""
    to_hit = int(mission_cell(inp.mission, "AFV to-hit"))
    hits = by_total(TWO_D6, lambda roll: _hits(roll, inp.cover, to_hit))
    return then(
        hits,
        lambda hit: exact(lambda chance: _hit_effect(inp, chance)) if hit else _MISSED,
    )


_MISSED = Distribution({"missed": Fraction(1)})


def _survived(inp: VvArtilleryVsAfv, outcome: str, chance: Chance) -> str:
    """An AFV already immobilized that survives the attack: its crew's abandonment check."""
    if inp.already_immobilized and outcome in ("missed", "no_effect"):
        return "abandoned" if abandonment_check(chance) else outcome
    return outcome


def artillery_vs_afv(inp: VvArtilleryVsAfv, chance: Chance) -> str:
    """``eliminated``, ``abandoned``, ``immobilized``, ``no_effect`` or ``missed``."""
    return _survived(inp, _strike(inp, chance), chance)


def artillery_vs_afv_odds(inp: VvArtilleryVsAfv) -> Distribution[str]:
    """The exact odds of :func:`artillery_vs_afv` from its own steps: the strike's outcomes
    once (:func:`_strike_odds`), then the abandonment check once per outcome (the replay
    rolls the strike again under every die of the check)."""

    def after(struck: str) -> Distribution[str]:
        return exact(lambda chance: _survived(inp, struck, chance))

    return then(_strike_odds(inp), after)


def afv_facts(inp: VvArtilleryVsAfv) -> list[tuple[str, str]]:
    """The to-hit number and the ATFP class."""
    return [
        ("to-hit (2d6 + cover) <=", mission_cell(inp.mission, "AFV to-hit")),
        ("ATFP class", mission_atfp(inp) + ("" if inp.atfp_class else " (chart colours)")),
    ]


ARTILLERY_VS_AFV: Procedure[VvArtilleryVsAfv] = Procedure(
    name="artillery_vs_afv",
    title="Artillery barrage or fighter-bomber against an AFV (21.5)",
    input_model=VvArtilleryVsAfv,
    rule=artillery_vs_afv,
    modifiers=afv_modifiers,
    chart="armor_elimination",
    outcome_order=("eliminated", "abandoned", "immobilized", "no_effect", "missed"),
    facts=afv_facts,
    meanings={
        "eliminated": "the AFV is removed",
        "abandoned": "immobilized and abandoned by its crew (18.6): removed as eliminated",
        "immobilized": "marked Immobile (18.6); the crew stays",
        "no_effect": "hit without effect",
        "missed": "the to-hit roll failed",
    },
    exact_odds=artillery_vs_afv_odds,
)


# --- Air bursts (21.6) ---------------------------------------------------------------------------

AIR_BURST_TERRAINS = frozenset({"woods", "jungle"})
"""21.6, 12.64: the hex terrains where artillery and mortar CPs on infantry are doubled."""


ARTILLERY_MISSIONS = frozenset({"light_barrage", "heavy_barrage"})
"""The missions that are artillery strikes (21.6); a fighter-bomber is not (reading)."""


MORTAR = "mortar"
"""An on-board mortar's AP attack: its CPs on infantry in woods or jungle are doubled (12.64)."""


def doubles_casualty_points(
    mission: str,
    terrain: str,
    *,
    infantry: bool,
    fighter_bombers: Literal["not_doubled", "doubled"] = "not_doubled",
) -> bool:
    """Whether 21.6 or 12.64 doubles the CPs an AP attack inflicts on a unit: an artillery
    strike (21.6) or a mortar attack (12.64) on infantry in woods or jungle.
    ``fighter_bombers`` is the reading for air strikes (21.6 says 'artillery strike')."""
    artillery = (
        mission in ARTILLERY_MISSIONS
        or mission == MORTAR
        or (mission == "fighter_bomber" and fighter_bombers == "doubled")
    )
    return artillery and infantry and terrain in AIR_BURST_TERRAINS


def air_burst_casualty_points(
    casualty_points: int,
    mission: str,
    terrain: str,
    *,
    infantry: bool,
    fighter_bombers: Literal["not_doubled", "doubled"] = "not_doubled",
) -> int:
    """The CPs a support mission's AP Combat Table result inflicts on infantry (21.6)."""
    double = doubles_casualty_points(
        mission, terrain, infantry=infantry, fighter_bombers=fighter_bombers
    )
    return casualty_points * 2 if double else casualty_points
