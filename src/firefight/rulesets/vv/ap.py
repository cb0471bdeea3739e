"""V&V 14 Anti-Personnel combat: the AP attack roll on the AP Combat Table (14.5, seed 003).

The fire group's APFP (14.2: combined; 16.3: +1 per valorous firing unit) picks the row; the
attack dice roll (2d6) plus the target hex's cover (13.4), its fortification's (20), the
hindrances along the LOS (9.3, cumulative), the best leader's Leadership Modifier (13.6),
-1 per Grenades counter against an adjacent hex (12.52), +1 for a target using Assault
Movement (6.4) and, for opportunity fire, -1 against a target with no positive cover and -2
against an adjacent one (13.8), picks the column, clamped to 2 ... 12+. The cell is the
Casualty Points. Support missions read only the target hex's terrain (21.5), as do mortars
(12.63), whose CPs on infantry in woods or jungle are doubled (12.64).
A natural 2 makes every infantry unit of the fire group check for valor (16.2); a natural 12
activates the opposing sniper (17.2).
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache, lru_cache
from pathlib import Path
from typing import ClassVar, Literal

from pydantic import Field, model_validator

from firefight.board.board import Board
from firefight.board.hexes import Hex
from firefight.board.los import line_of_sight
from firefight.chance import Chance
from firefight.core.chart import Chart, load_chart
from firefight.core.inputs import RuleInput
from firefight.core.modifier import Modifier, ModifierKind
from firefight.errors import RuleError
from firefight.i18n import gettext
from firefight.rulesets.procedure import Procedure
from firefight.rulesets.vv.at import MORTAR_MINIMUM_RANGE
from firefight.rulesets.vv.board import MAX_LINE_HINDRANCE, VV_LOS
from firefight.rulesets.vv.natural import attack_dice_roll, natural_facts
from firefight.rulesets.vv.support import MORTAR, doubles_casualty_points
from firefight.rulesets.vv.valor import triggers_valor, valor_check

DATA = Path(__file__).parent / "data"

AttackKind = Literal["fire", "mortar", "fighter_bomber", "light_barrage", "heavy_barrage"]
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

INFANTRY_ATTACKS = frozenset({"fire", MORTAR})
"""Attacks made by on-board units: the row is their APFP, leaders modify them (13.6, 12.61),
and a natural 2 or 12 calls for valor checks or a sniper (16.2, 17.2)."""
SUPPORT_MISSIONS = frozenset({"fighter_bomber", "light_barrage", "heavy_barrage"})
"""Off-board artillery and air support missions (21)."""
TARGET_HEX_ONLY = SUPPORT_MISSIONS | {MORTAR}
"""Attacks that only the target hex's terrain modifies: no hindrance along a line or at the
target's hexsides (21.5 support missions; 12.63 mortars)."""
ENTRENCHMENTS = frozenset({"foxhole", "trench", "cave"})
"""20.9-20.11: the entrenchments."""
FORTIFICATIONS_OPEN_ONLY = frozenset({"concrete_bunker", "wood_earth_bunker", "sandbags"})
"""20.5, 20.6: fortifications that hold units; 20.2 places fortifications in open terrain only."""
OPEN_TERRAINS = frozenset({"open", "road", "field", "beach"})
"""20.2: "Fortifications may only be placed in open terrain hexes, including open hill, road,
beach and field hexes" (a hill is its level: give the hex's other terrain). Not an orchard,
crops, haystack or palm grove hex, whose +1 is a hindrance rather than cover, nor a bridge."""
NO_ENTRENCHMENT_TERRAINS = frozenset(
    {"building", "stream", "gully", "wadi", "canal", "pond", "marsh"}
)
"""20.2: "Entrenchments may be placed in any hex except buildings, stream, gully or wadi,
canal, pond or marsh hexes"."""

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
BOARD_TERRAINS: dict[str, str] = {
    "haystack": "orchard",
    "palm_grove": "orchard",
    "bridge": "road",
    "beach": "open",
    "canal": "open",
    "pond": "open",
    "marsh": "open",
    "ocean": "open",
    "river": "open",
}
"""A V&V board's terrains that share a row of the Terrain Effects Summary with a
``target_terrain``: "Orchard, Hay Stack and Palm Grove" (+1, a hindrance), "Roads and Bridges",
"Open Ground, Beach, River Bank and Desert" and "Canal, Pond, Marsh, Ocean or River" (no cover)."""
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


def _own_hindrance(inp: VvApAttack) -> int:
    """21.5, 12.63: an orchard's or crops' +1 counts as the target hex's terrain for an attack
    that only the target hex modifies (support missions, mortars)."""
    if inp.attack in TARGET_HEX_ONLY and inp.target_terrain in ("orchard", "crops"):
        return 1
    return 0


def _cover_total(inp: VvApAttack) -> int:
    """The target's cover: terrain, fortification and Assault Movement (13.4, 20, 6.4)."""
    return (
        terrain_cover(inp.target_terrain)
        + fortification_cover(inp.fortification)
        + (1 if inp.target_assault_movement else 0)
    )


def modifiers(inp: VvApAttack) -> list[Modifier]:
    """The modifiers to the attack dice roll, each with its section."""
    found: list[Modifier] = []

    def add(value: int, label: str, rule: str) -> None:
        if value:
            found.append(Modifier(label, Fraction(value), ModifierKind.DICE, rule))

    add(terrain_cover(inp.target_terrain), f"target in {inp.target_terrain}", "13.4")
    add(
        _own_hindrance(inp),
        f"target in {inp.target_terrain} (the target hex's terrain)",
        "12.63" if inp.attack == MORTAR else "21.5",
    )
    add(fortification_cover(inp.fortification), inp.fortification.replace("_", " "), "13.4, 20")
    add(1 if inp.target_assault_movement else 0, "target using Assault Movement", "6.4")
    add(inp.hindrance, f"hindrances ({inp.hindrance})", "9.3, 13.4")
    add(inp.leadership_modifier, "leadership modifier", "13.6, 14.2")
    add(-inp.grenades, f"grenades ({inp.grenades})", "12.52")
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
    if inp.attack in SUPPORT_MISSIONS:
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
    valor_rolled = inp.valor == "with_attacker_valor" and inp.attack in INFANTRY_ATTACKS
    roll = attack_dice_roll(
        chance,
        "attack dice roll (2d6)",
        infantry=inp.attack in INFANTRY_ATTACKS,
        valor_rolled=valor_rolled,
    )
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
            "12.64 air burst" if inp.attack == MORTAR else "21.6 air burst",
            f"{cell.value} CPs doubled on infantry in {inp.target_terrain}: {cps}",
        )
    suffix = ""
    if valor_rolled and triggers_valor(roll):
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
    """The row read and the combined APFP; for an infantry attack, the chance of a natural 2
    (valor checks, 16.2) and of a natural 12 (a sniper activated, 17.2)."""
    found = [("AP Combat Table row", row_label(inp))]
    if inp.attack in INFANTRY_ATTACKS:
        label = "mortar APFP" if inp.attack == MORTAR else "fire group APFP"
        found.insert(0, (label, str(fire_group_apfp(inp))))
        found.extend(natural_facts())
    else:
        found.append(("row read from", "the chart's colours"))
    return found


def with_board(
    inp: VvApAttack,
    board: Board,
    firer: Hex,
    target: Hex,
    *,
    spotter: Hex | None = None,
    hindrance: int | None = None,
) -> VvApAttack:
    """The attack with its hindrances, target terrain and adjacency read from a board.

    The hindrance count is the V&V line of sight's modifier (``line_of_sight(...).modifier``);
    a blocked line is a :class:`RuleError`. A support mission or a mortar reads only the
    target hex's terrain (21.5, 12.63): no hindrance; the line checked is the spotter's when
    one is given (12.62, 21.3), none for a fighter-bomber (21.3). A fortification the target
    hex's terrain does not allow is refused (20.2), as is a mortar inside its minimum range
    (12.65) or in a building hex (12.61). The target hex's terrain always replaces
    ``target_terrain``: a hay stack or palm grove hex reads as an orchard, a bridge as a road,
    beach, canal, pond, marsh, ocean and river as open ground (their Terrain Effects rows).
    ``hindrance``: the line's modifier when the caller has it already from a visible set under
    the same V&V LOS policy (a threat map reads thousands of lines at once); the line is then
    not traced again.
    """
    terrain = board.terrain_of(target)
    check_position(inp.fortification, terrain)
    if inp.attack == MORTAR:
        if firer.distance(target) < MORTAR_MINIMUM_RANGE:
            msg = gettext(
                "mortars may not fire at {hex} from {hex2}: their minimum range is 2 hexes (12.65)"
            ).format(hex=board.label(target), hex2=board.label(firer))
            raise RuleError(msg)
        if board.terrain_of(firer) == "building":
            msg = gettext("mortars may not fire from building hexes (12.61): {hex}").format(
                hex=board.label(firer)
            )
            raise RuleError(msg)
    seer = spotter if spotter is not None else firer
    if inp.attack == "fighter_bomber":
        hindrance = 0
    elif hindrance is None or spotter is not None:
        verdict = line_of_sight(board, seer, target, VV_LOS)
        if not verdict.visible:
            msg = gettext("no line of sight from {hex} to {hex2}: {verdict}").format(
                hex=board.label(seer), hex2=board.label(target), verdict=verdict
            )
            raise RuleError(msg)
        hindrance = verdict.modifier
    update: dict[str, object] = {"hindrance": 0 if inp.attack in TARGET_HEX_ONLY else hindrance}
    row = terrain if terrain in TERRAIN_ROWS else BOARD_TERRAINS.get(terrain)
    if row is None:
        msg = gettext("{hex}: terrain {terrain} is not a V&V terrain").format(
            hex=board.label(target), terrain=repr(terrain)
        )
        raise RuleError(msg)
    update["target_terrain"] = row
    if inp.attack in INFANTRY_ATTACKS:
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
