"""V&V 14 Anti-Personnel combat: the AP attack roll on the AP Combat Table (14.5, seed 003).

The fire group's APFP (14.2: combined; 16.3: +1 per valorous firing unit) picks the row; the
attack dice roll (2d6) plus the target hex's cover (13.4), its fortification's (20), the
hindrances along the LOS (9.3, cumulative), the best leader's Leadership Modifier (13.5) and,
for opportunity fire, -1 against a target with no cover or hindrance and -2 against an
adjacent one (13.8), picks the column, clamped to 2 ... 12+. The cell is the Casualty Points.
A natural 2 makes every infantry unit of the fire group check for valor (16.2).
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache, lru_cache
from pathlib import Path
from typing import Literal

from pydantic import Field, model_validator

from firefight.board.board import Board
from firefight.board.hexes import Hex
from firefight.board.los import line_of_sight
from firefight.chance import TWO_D6, Chance
from firefight.core.chart import Chart, load_chart
from firefight.core.inputs import RuleInput
from firefight.core.modifier import Modifier, ModifierKind
from firefight.errors import RuleError
from firefight.rulesets.procedure import Procedure
from firefight.rulesets.vv.board import VV_LOS
from firefight.rulesets.vv.support import doubles_casualty_points
from firefight.rulesets.vv.valor import triggers_valor, valor_check

DATA = Path(__file__).parent / "data"

AttackKind = Literal["fire", "fighter_bomber", "light_barrage", "heavy_barrage"]
TargetTerrain = Literal[
    "open",
    "road",
    "field",
    "building",
    "woods",
    "jungle",
    "stream",
    "gully",
    "wadi",
    "orchard",
    "crops",
]
Fortification = Literal[
    "none", "concrete_bunker", "wood_earth_bunker", "sandbags", "foxhole", "trench", "cave"
]
FirerKind = Literal["none", "squad", "half_squad", "leader"]

TERRAIN_ROWS: dict[str, str] = {
    "open": "Open Ground, Beach, River Bank and Desert",
    "road": "Roads and Bridges",
    "field": "Farmland (Open)",
    "building": "Buildings",
    "woods": "Woods and Jungle",
    "jungle": "Woods and Jungle",
    "stream": "Stream, Gully and Wadi",
    "gully": "Stream, Gully and Wadi",
    "wadi": "Stream, Gully and Wadi",
    "orchard": "Orchard, Hay Stack and Palm Grove",
    "crops": "Farmland (Crops)",
}
FORTIFICATION_ROWS: dict[str, str] = {
    "concrete_bunker": "Concrete bunker",
    "wood_earth_bunker": "Wood/earth bunker",
    "sandbags": "Sandbags",
    "foxhole": "Foxhole",
    "trench": "Trench",
    "cave": "Cave",
}
COLOUR_ROWS: dict[str, str] = {
    "fighter_bomber": "19-28",
    "light_barrage": "29-40",
    "heavy_barrage": "41+",
}
"""The AP Combat Table row of each air or artillery attack, read from the chart's colours."""


@cache
def ap_combat_table() -> Chart:
    """The AP Combat Table v2.0, loaded once from ``data/ap_combat.toml``."""
    return load_chart(DATA / "ap_combat.toml")


@cache
def terrain_effects() -> Chart:
    """The Terrain Effects Summary, from ``data/terrain_effects.toml``."""
    return load_chart(DATA / "terrain_effects.toml")


@cache
def fortifications() -> Chart:
    """Chapter 20's fortifications and entrenchments, from ``data/fortifications.toml``."""
    return load_chart(DATA / "fortifications.toml")


def _printed_modifier(text: str) -> int:
    """A cover cell as a number: "+3" is 3; "None", "-" and the hindrance "+1 Cum." are 0."""
    return int(text) if text.lstrip("+-").isdigit() else 0


def terrain_cover(terrain: str) -> int:
    """13.4: the target hex's cover modifier from the Terrain Effects Summary."""
    return _printed_modifier(
        terrain_effects().cell_at(TERRAIN_ROWS[terrain], "Cover Modifier").value
    )


def fortification_cover(position: str) -> int:
    """13.4, 20.5-20.11: the fortification's or entrenchment's cover modifier."""
    if position == "none":
        return 0
    return _printed_modifier(
        fortifications().cell_at(FORTIFICATION_ROWS[position], "Cover Modifier").value
    )


class VvApAttack(RuleInput):
    """An AP attack on one hex (V&V 14.5; seed 003 "Cover", "Leadership", "Opportunity Fire")."""

    apfp: int | None = Field(
        None,
        ge=1,
        le=99,
        description=(
            "The fire group's combined APFP as printed: its units and support weapons "
            "(14.2, 14.4). Required for attack=fire."
        ),
    )
    valorous_firers: int = Field(
        0, ge=0, le=6, description="Valorous infantry units firing: +1 APFP each (16.3)."
    )
    attack: AttackKind = Field(
        "fire",
        description=(
            "fire = units firing; fighter_bomber / light_barrage / heavy_barrage use the row "
            "the AP Combat Table's colours give them (19-28, 29-40, 41+; read from colours)."
        ),
    )
    target_terrain: TargetTerrain = Field(
        "open",
        description=(
            "Terrain of the target hex: its cover modifier (Terrain Effects Summary, 13.4). "
            "An orchard or crops hex gives no cover: its +1 is a hindrance, count it in "
            "'hindrance' (9.3). On a hill, give the hex's other terrain."
        ),
    )
    fortification: Fortification = Field(
        "none",
        description="The target's fortification or entrenchment: its cover modifier (20).",
    )
    target_infantry: bool = Field(
        True,
        description=(
            "The target is infantry: an artillery barrage's CPs on infantry in woods or jungle "
            "are doubled (21.6)."
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
        le=10,
        description=(
            "Hindrances along the LOS, the target hex's own included: +1 each (9.3, 10.8-10.10)."
        ),
    )
    leadership_modifier: int = Field(
        0,
        ge=-3,
        le=0,
        description="The best Leadership Modifier of a leader in the fire group (13.5).",
    )
    firing_from_barbed_wire: bool = Field(
        False, description="Infantry firing from a barbed wire hex: +1 (20.8)."
    )
    opportunity_fire: bool = Field(False, description="An opportunity fire attack (13.8).")
    adjacent: bool = Field(
        False, description="The target hex is adjacent (opportunity fire -2, 13.8)."
    )
    opportunity_no_cover: Literal["no_cover_or_hindrance", "no_positive_cover"] = Field(
        "no_cover_or_hindrance",
        description=(
            "When opportunity fire's -1 applies: no_cover_or_hindrance = no terrain, "
            "fortification or hindrance modifier applies (seed 003); no_positive_cover = the "
            "target's cover (terrain, fortification) is not positive (13.8's wording)."
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
        if self.attack == "fire" and self.apfp is None:
            msg = "'apfp' must be given when 'attack' is fire (got None)"
            raise ValueError(msg)
        if self.adjacent and not self.opportunity_fire:
            msg = "'adjacent' only modifies opportunity fire (13.8): set opportunity_fire"
            raise ValueError(msg)
        return self


def check_attack(inp: VvApAttack) -> None:
    """Combinations the rules exclude, as one-line errors."""
    if inp.attack != "fire" and (
        inp.opportunity_fire
        or inp.leadership_modifier
        or inp.valorous_firers
        or inp.firing_from_barbed_wire
    ):
        msg = (
            f"a {inp.attack.replace('_', ' ')} attack has no leader, valor, barbed wire or "
            "opportunity fire modifiers (13.5, 13.8, 21)"
        )
        raise RuleError(msg)
    if inp.fortification in ("concrete_bunker", "wood_earth_bunker", "sandbags") and (
        terrain_cover(inp.target_terrain) > 0
    ):
        msg = (
            f"a {inp.fortification.replace('_', ' ')} stands only in open terrain (20.2), "
            f"not {inp.target_terrain}"
        )
        raise RuleError(msg)


def _cover_total(inp: VvApAttack) -> int:
    return terrain_cover(inp.target_terrain) + fortification_cover(inp.fortification)


def modifiers(inp: VvApAttack) -> list[Modifier]:
    """The modifiers to the attack dice roll, each with its section."""
    found: list[Modifier] = []

    def add(value: int, label: str, rule: str) -> None:
        if value:
            found.append(Modifier(label, Fraction(value), ModifierKind.DICE, rule))

    add(terrain_cover(inp.target_terrain), f"target in {inp.target_terrain}", "13.4")
    add(fortification_cover(inp.fortification), inp.fortification.replace("_", " "), "13.4, 20")
    add(inp.hindrance, f"hindrances ({inp.hindrance})", "9.3, 13.4")
    add(inp.leadership_modifier, "leadership modifier", "13.5, 14.2")
    add(1 if inp.firing_from_barbed_wire else 0, "firing from barbed wire", "20.8")
    if inp.opportunity_fire:
        positive = _cover_total(inp) > 0
        if inp.opportunity_no_cover == "no_cover_or_hindrance":
            positive = positive or inp.hindrance > 0
        add(0 if positive else -1, "opportunity fire, no cover", "13.8")
        add(-2 if inp.adjacent else 0, "opportunity fire, adjacent hex", "13.8")
    return found


def fire_group_apfp(inp: VvApAttack) -> int:
    """14.2 and 16.3: the combined APFP, +1 per valorous firing unit."""
    return (inp.apfp or 0) + inp.valorous_firers


def row_label(inp: VvApAttack) -> str:
    """The AP Combat Table row: the APFP band, or the colour row of an air or artillery attack."""
    if inp.attack != "fire":
        return COLOUR_ROWS[inp.attack]
    table = ap_combat_table()
    return table.rows.labels[table.rows.index(fire_group_apfp(inp))]


def firers(inp: VvApAttack) -> list[tuple[str, FirerKind, int]]:
    """The firing infantry units that check for valor (16.2)."""
    found = [
        ("firer1", inp.firer1, inp.firer1_casualty_rating),
        ("firer2", inp.firer2, inp.firer2_casualty_rating),
        ("firer3", inp.firer3, inp.firer3_casualty_rating),
    ]
    return [f for f in found if f[1] != "none"]


@lru_cache(maxsize=1024)
def _prepared(inp: VvApAttack) -> tuple[str, int]:
    """The row and the sum of the dice modifiers, once per input (odds re-run the rule)."""
    check_attack(inp)
    return row_label(inp), int(sum(m.value for m in modifiers(inp)))


def attack_roll(inp: VvApAttack, chance: Chance) -> tuple[str, str]:
    """Roll the attack (14.5): the Casualty Points as printed, and the valor suffix if asked."""
    row, total = _prepared(inp)
    roll = chance.roll(TWO_D6, "attack dice roll (2d6)")
    modified = roll + total
    cell = ap_combat_table().lookup_label(row, modified)
    chance.note("14.5 AP Combat Table", f"modified roll {modified}: {cell}")
    cps = cell.value
    if cps != "-" and doubles_casualty_points(
        inp.attack,
        inp.target_terrain,
        infantry=inp.target_infantry,
        fighter_bombers=inp.fighter_bombers,
    ):
        cps = str(2 * int(cps))
        chance.note(
            "21.6 air burst", f"{cell.value} CPs doubled on infantry in {inp.target_terrain}: {cps}"
        )
    suffix = ""
    if inp.valor == "with_attacker_valor" and inp.attack == "fire" and triggers_valor(roll):
        valorous = [
            name
            for name, kind, rating in firers(inp)
            if kind != "none" and valor_check(kind, rating, chance, label=name)
        ]
        suffix = " valor:" + ("+".join(valorous) if valorous else "none")
    return cps, suffix


def ap_attack(inp: VvApAttack, chance: Chance) -> str:
    """The Casualty Points ("-" none), with the valor checks' result if asked (16.2)."""
    cps, suffix = attack_roll(inp, chance)
    return cps + suffix


def facts(inp: VvApAttack) -> list[tuple[str, str]]:
    """The row read and the combined APFP."""
    found = [("AP Combat Table row", row_label(inp))]
    if inp.attack == "fire":
        found.insert(0, ("fire group APFP", str(fire_group_apfp(inp))))
    else:
        found.append(("row read from", "the chart's colours"))
    return found


def with_board(inp: VvApAttack, board: Board, firer: Hex, target: Hex) -> VvApAttack:
    """The attack with its hindrances, target terrain and adjacency read from a board.

    The hindrance count is the V&V line of sight's modifier (``line_of_sight(...).modifier``);
    a blocked line is a :class:`RuleError`.
    """
    verdict = line_of_sight(board, firer, target, VV_LOS)
    if not verdict.visible:
        msg = f"no line of sight from {board.label(firer)} to {board.label(target)}: {verdict}"
        raise RuleError(msg)
    terrain = board.terrain_of(target)
    update: dict[str, object] = {"hindrance": verdict.modifier}
    if terrain in TERRAIN_ROWS:
        update["target_terrain"] = terrain
    if inp.opportunity_fire:
        update["adjacent"] = firer.distance(target) == 1
    return inp.model_validate({**inp.model_dump(), **update})


OUTCOMES = ("20", "18", "16", "14", "12", "10", "9", "8", "7", "6", "5", "4", "3", "2", "1", "-")
"""CPs from most to none; above 10 only when 21.6 doubles a barrage's result."""

AP_ATTACK: Procedure[VvApAttack] = Procedure(
    name="ap_attack",
    title="AP attack (14.5)",
    input_model=VvApAttack,
    rule=ap_attack,
    modifiers=modifiers,
    chart="ap_combat",
    outcome_order=OUTCOMES,
    facts=facts,
    meanings={"-": "no effect"},
)

PROCEDURES = (AP_ATTACK,)
