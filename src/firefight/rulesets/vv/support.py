"""V&V rally, support missions, minefields, snipers and smoke (chapters 11, 14.8, 17, 20, 21).

* ``rally`` (14.8, After-Action Phase 5.36): a pinned unit rallies on 2d6 at most 7 (leader,
  elite infantry, vehicle, Gun) or 6 (regular infantry); an unpinned leader in the hex adds his
  Leadership Modifier, a negative number, to the roll.
* ``artillery_placement`` (21.4): 1d6 at most 4 hits the target hex, 5 scatters one hex, 6 two
  hexes, in the direction of a second die on the Artillery Scatter Diagram (1 up, clockwise,
  as :mod:`firefight.board.hexes` numbers directions). :func:`impact` and :func:`impact_odds`
  place the mission on a board.
* ``artillery_vs_afv`` (21.5, 18.4, 18.6): an artillery barrage or fighter-bomber against an
  AFV in the hex: to-hit 2d6 + cover at most 8, then the elimination roll against the rear
  armour on the Armor Elimination Table with the mission's ATFP class.
* :func:`air_burst_casualty_points` (21.6): artillery CPs on infantry in woods or jungle are
  doubled (for the AP attack, which rolls the AP Combat Table itself).
* ``minefield`` (20.7): 1d6 at most 3 eliminates each unit entering.
* ``sniper_attack`` (17.5) and ``sniper_elimination`` (17.6): a die above the cover gives
  that many CPs less the cover; a die above the sniper's cover eliminates the sniper.
* Smoke (11.5) has no roll: :func:`smoke_hindrance` gives its hindrance for the board.
"""

from __future__ import annotations

import re
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any, ClassVar, Literal

from pydantic import Field

from firefight.board.board import Board
from firefight.board.hexes import Hex
from firefight.board.scatter import impact_distribution, impact_hex
from firefight.chance import D6, TWO_D6, Chance, Dice, Resolution, sample
from firefight.chance.distribution import Distribution
from firefight.core.chart import Chart, load_chart
from firefight.core.inputs import RuleInput
from firefight.core.modifier import Modifier, ModifierKind
from firefight.errors import ChartError, RuleError
from firefight.i18n import gettext
from firefight.rulesets.procedure import Procedure
from firefight.rulesets.vv.at import (
    EqualRoll,
    abandonment_check,
    armor_elimination_table,
    elimination_number,
    strike_effect,
)
from firefight.rulesets.vv.natural import activates_sniper

DATA = Path(__file__).parent / "data"
"""The V&V charts' folder (the package's ``DATA``, named here to avoid a circular import)."""

__all__ = [
    "AIR_BURST_TERRAINS",
    "ARTILLERY_PLACEMENT",
    "ARTILLERY_VS_AFV",
    "MINEFIELD",
    "PROCEDURES",
    "RALLY",
    "SMOKE_HINDRANCE",
    "SNIPER_ATTACK",
    "SNIPER_ELIMINATION",
    "VvArtilleryPlacement",
    "VvArtilleryVsAfv",
    "VvMinefield",
    "VvRally",
    "VvSniperAttack",
    "VvSniperElimination",
    "activates_sniper",
    "air_burst_casualty_points",
    "doubles_casualty_points",
    "impact",
    "impact_odds",
    "missions_chart",
    "placement_chart",
    "rally_chart",
    "resolve_impact",
    "smoke_after_action",
    "smoke_hindrance",
]

Mission = Literal["light_barrage", "heavy_barrage", "fighter_bomber"]
ArmorClass = Literal["A", "B", "C", "D", "E", "F"]

_AT_MOST = re.compile(r"^≤ (\d+)$")
_MISSION_ROWS: dict[str, str] = {
    "light_barrage": "Light Barrage",
    "heavy_barrage": "Heavy Barrage",
    "fighter_bomber": "Fighter-Bomber",
    "smoke_barrage": "Light Barrage",  # 21.7: a smoke barrage needs an artillery marker
}
DIRECTION_NAMES = {
    1: "up",
    2: "upper right",
    3: "lower right",
    4: "down",
    5: "lower left",
    6: "upper left",
}
"""The Artillery Scatter Diagram's six directions (21.4), as :mod:`firefight.board` numbers them."""


def _at_most(label: str, chart: Chart) -> int:
    """The number of a printed ``≤ n`` cell or row label."""
    match = _AT_MOST.match(label)
    if match is None:
        msg = gettext("chart {id}: {label} is not a printed '≤ n'").format(
            id=repr(chart.id), label=repr(label)
        )
        raise ChartError(msg)
    return int(match[1])


@cache
def rally_chart() -> Chart:
    """The 14.8 rally numbers, loaded once from ``data/support_rally.toml``."""
    return load_chart(DATA / "support_rally.toml")


@cache
def placement_chart() -> Chart:
    """The 21.4 support mission die roll, loaded once from ``data/support_artillery.toml``."""
    return load_chart(DATA / "support_artillery.toml")


@cache
def missions_chart() -> Chart:
    """Each mission's AP row, ATFP class and AFV to-hit, from ``data/support_missions.toml``."""
    return load_chart(DATA / "support_missions.toml")


def _dice(value: int, label: str, rule: str) -> Modifier:
    return Modifier(label, Fraction(value), ModifierKind.DICE, rule)


# --- Rally (14.8) ------------------------------------------------------------------------------

RallyUnit = Literal["leader", "elite_infantry", "infantry", "vehicle", "gun"]
_RALLY_ROWS: dict[str, str] = {
    "leader": "Leader",
    "elite_infantry": "Infantry (elite)",
    "infantry": "Infantry",
    "vehicle": "Vehicle",
    "gun": "Gun",
}


class VvRally(RuleInput):
    """A rally attempt by one pinned unit in the After-Action Phase (14.8, 5.36)."""

    unit: RallyUnit = Field(
        description=(
            "The pinned unit: leader, elite_infantry, vehicle or gun rally on 7 or less, "
            "(regular) infantry on 6 or less (V&V 14.8). A vehicle's passengers rally with it."
        )
    )
    leadership_modifier: int = Field(
        0,
        ge=-3,
        le=0,
        description=(
            "Leadership Modifier of an unpinned leader in the same hex, as printed: a negative "
            "number, added to the dice roll, so it helps (V&V 14.8); 0 = no such leader."
        ),
    )


def rally_number(inp: VvRally) -> int:
    """The number the modified rally roll must not exceed (14.8)."""
    chart = rally_chart()
    return _at_most(chart.cell_at(_RALLY_ROWS[inp.unit], "Dice roll").value, chart)


def rally_modifiers(inp: VvRally) -> list[Modifier]:
    """The unpinned leader's Leadership Modifier (14.8)."""
    if not inp.leadership_modifier:
        return []
    return [_dice(inp.leadership_modifier, "unpinned leader in the hex (LM)", "V&V 14.8")]


def rally(inp: VvRally, chance: Chance) -> str:
    """``rallied`` or ``still_pinned`` (14.8)."""
    number = rally_number(inp)
    roll = chance.roll(TWO_D6, "rally (2d6)")
    modified = roll + inp.leadership_modifier
    rallied = modified <= number
    chance.note(
        rally_chart().title,
        f"{roll} {inp.leadership_modifier:+} = {modified} {'<=' if rallied else '>'} {number}",
    )
    return "rallied" if rallied else "still_pinned"


def rally_facts(inp: VvRally) -> list[tuple[str, str]]:
    """The rally number."""
    return [("rallies on 2d6 + LM <=", str(rally_number(inp)))]


RALLY: Procedure[VvRally] = Procedure(
    name="rally",
    title="After-Action Phase rally attempt (14.8)",
    input_model=VvRally,
    rule=rally,
    modifiers=rally_modifiers,
    chart="support_rally",
    outcome_order=("rallied", "still_pinned"),
    facts=rally_facts,
    meanings={
        "rallied": "flipped to its unpinned side (a vehicle's passengers rally with it)",
        "still_pinned": "stays pinned until its owner's next Command Phase (5.31)",
    },
)


# --- Support mission placement (21.4) -----------------------------------------------------------

PlacementMission = Literal["light_barrage", "heavy_barrage", "fighter_bomber", "smoke_barrage"]


class VvArtilleryPlacement(RuleInput):
    """Where a support mission placed in the Command Phase lands (21.4; smoke barrage 21.7)."""

    readings: ClassVar[frozenset[str]] = frozenset({"fighter_bomber_placement"})
    """The fields that read the rules where they are silent (folded apart on the web)."""

    mission: PlacementMission = Field(
        "light_barrage",
        description=(
            "The support mission: light_barrage, heavy_barrage, fighter_bomber, or "
            "smoke_barrage (V&V 21.7: placed by the same roll)."
        ),
    )
    fighter_bomber_placement: Literal["rolls", "always_hits"] = Field(
        "rolls",
        description=(
            "Reading for fighter-bombers (21.4 says 'each artillery support mission' rolls, "
            "under a heading for all support missions): rolls = like artillery (the Die Roll "
            "Summary's 'Support Mission Die Roll'); always_hits = no placement roll."
        ),
    )


def _placement_reading(die: int) -> tuple[int, str]:
    """The scatter distance and the printed effect for a placement die (21.4)."""
    chart = placement_chart()
    for label in chart.rows.labels:
        fits = die <= _at_most(label, chart) if label.startswith("≤") else die == int(label)
        if fits:
            effect = chart.cell_at(label, "Effect").value
            return (0 if effect == "Hit" else int(effect.split()[0])), f"row {label}: {effect}"
    msg = gettext("chart {id}: no row holds the die roll {die}").format(id=repr(chart.id), die=die)
    raise ChartError(msg)


def roll_placement(inp: VvArtilleryPlacement, chance: Chance) -> tuple[int, int | None]:
    """Roll the placement die and, on a scatter, the direction: ``(distance, direction)``."""
    if inp.mission == "fighter_bomber" and inp.fighter_bomber_placement == "always_hits":
        chance.note("21.4", "fighter-bomber: no placement roll (always_hits), on target")
        return 0, None
    die = chance.roll(D6, "placement (1d6)")
    distance, text = _placement_reading(die)
    chance.note(placement_chart().title, f"{die}: {text}")
    if distance == 0:
        return 0, None
    direction = chance.roll(D6, "scatter direction (1d6)")
    chance.note("Artillery Scatter Diagram", f"{direction}: {DIRECTION_NAMES[direction]}")
    return distance, direction


def artillery_placement(inp: VvArtilleryPlacement, chance: Chance) -> str:
    """The scatter distance in hexes from the target hex: ``0`` (on target), ``1`` or ``2``."""
    return str(roll_placement(inp, chance)[0])


def no_modifiers(_inp: RuleInput) -> list[Modifier]:
    """The roll has no modifiers."""
    return []


ARTILLERY_PLACEMENT: Procedure[VvArtilleryPlacement] = Procedure(
    name="artillery_placement",
    title="Support mission placement and scatter (21.4)",
    input_model=VvArtilleryPlacement,
    rule=artillery_placement,
    modifiers=no_modifiers,
    chart="support_artillery",
    outcome_order=("0", "1", "2"),
    meanings={
        "0": "hits the target hex",
        "1": "scatters one hex (direction die on the Artillery Scatter Diagram)",
        "2": "scatters two hexes (direction die on the Artillery Scatter Diagram)",
    },
)


def impact(
    inp: VvArtilleryPlacement, aim: Hex, chance: Chance, board: Board | None = None
) -> Hex | None:
    """The hex the mission lands in; ``None`` when it scatters off ``board`` (21.4: no effect)."""
    distance, direction = roll_placement(inp, chance)
    landed = aim if direction is None else impact_hex(aim, direction, distance)
    if board is not None and landed not in board:
        chance.note("21.4", "scattered off the board: no effect, the mission is used")
        return None
    return landed


def impact_odds(
    inp: VvArtilleryPlacement, aim: Hex, board: Board | None = None
) -> Distribution[Hex | None]:
    """The exact distribution of impact hexes (``None`` = off ``board``)."""
    distances = {int(k): p for k, p in ARTILLERY_PLACEMENT.odds(inp).items()}
    hexes = impact_distribution(aim, distances)
    on_board: dict[Hex | None, Fraction] = {}
    for hex_, p in hexes.items():
        key = hex_ if board is None or hex_ in board else None
        on_board[key] = on_board.get(key, Fraction(0)) + p
    return Distribution(on_board)


def resolve_impact(
    inp: VvArtilleryPlacement, aim: Hex, seed: int, board: Board | None = None
) -> Resolution[Hex | None]:
    """One seeded placement on the board, with its trace."""
    return sample(lambda chance: impact(inp, aim, chance, board), seed)


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
    rear_armor: ArmorClass = Field(
        description="The AFV's rear Armor Factor, A (thinnest) to F (V&V 21.5: always the rear)."
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


def mission_cell(mission: str, column: str) -> str:
    """A mission's entry in ``support_missions``: ``APFP row``, ``ATFP class``, ``AFV to-hit``."""
    return missions_chart().cell_at(_MISSION_ROWS[mission], column).value


def mission_atfp(inp: VvArtilleryVsAfv) -> str:
    """The ATFP class the mission attacks with."""
    return inp.atfp_class or mission_cell(inp.mission, "ATFP class")


def afv_modifiers(inp: VvArtilleryVsAfv) -> list[Modifier]:
    """The target hex's cover, on the to-hit roll only (21.5; 18.4: none on the elimination)."""
    if not inp.cover:
        return []
    return [_dice(inp.cover, "target hex cover (to-hit)", "V&V 21.5")]


def artillery_vs_afv(inp: VvArtilleryVsAfv, chance: Chance) -> str:
    """``eliminated``, ``abandoned``, ``immobilized``, ``no_effect`` or ``missed``."""
    to_hit = int(mission_cell(inp.mission, "AFV to-hit"))
    roll = chance.roll(TWO_D6, "to-hit (2d6)")
    hit = roll + inp.cover <= to_hit
    chance.note(
        "21.5 to-hit",
        f"{roll} {inp.cover:+} = {roll + inp.cover} "
        f"{'<=' if hit else '>'} {to_hit}: {'hit' if hit else 'missed'}",
    )
    outcome = "missed"
    if hit:
        atfp = mission_atfp(inp)
        cell = elimination_number(atfp, inp.rear_armor)
        chance.note(
            armor_elimination_table().title, f"ATFP {atfp} vs rear armour {inp.rear_armor}: {cell}"
        )
        if cell == "E":
            return "eliminated"
        outcome = "no_effect"
        if cell != "-":
            elimination = chance.roll(TWO_D6, "elimination dice roll (2d6)")
            effect = strike_effect(elimination, int(cell), chance, inp.equal_roll)
            if effect != "no_effect":
                return "abandoned" if effect == "immobilized_abandoned" else effect
    if inp.already_immobilized:
        return "abandoned" if abandonment_check(chance) else outcome
    return outcome


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


# --- Minefields (20.7) ---------------------------------------------------------------------------

MINE_ELIMINATES_AT_MOST = 3
"""20.7: a unit entering a minefield hex is eliminated on a die roll of 3 or less."""


def _mine_eliminates(die: int) -> bool:
    return die <= MINE_ELIMINATES_AT_MOST


class VvMinefield(RuleInput):
    """The minefield attack on the units entering its hex (20.7, 20.71)."""

    units: int = Field(
        1,
        ge=1,
        le=12,
        description=(
            "Units entering the minefield hex together: one die each, 3 or less eliminates "
            "(V&V 20.7; the same for every kind of unit, no modifiers)."
        ),
    )


def minefield(inp: VvMinefield, chance: Chance) -> str:
    """The number of units eliminated, ``0`` ... ``units``."""
    eliminated = chance.count(
        Dice.d(6, inp.units), _mine_eliminates, f"minefield ({inp.units}d6, one per unit)"
    )
    chance.note("20.7", f"{eliminated} of {inp.units} rolled 3 or less: eliminated")
    return str(eliminated)


MINEFIELD: Procedure[VvMinefield] = Procedure(
    name="minefield",
    title="Minefield attack (20.7)",
    input_model=VvMinefield,
    rule=minefield,
    modifiers=no_modifiers,
    outcome_order=tuple(str(n) for n in range(13)),
    meanings={str(n): f"{n} unit{'s' if n != 1 else ''} eliminated" for n in range(13)},
)


# --- Snipers (17) --------------------------------------------------------------------------------


def target_cover_field() -> Any:  # noqa: ANN401 - pydantic types Field as Any: any default
    """The ``target_cover`` input of a sniper's attack (17.5), for every model that has one."""
    return Field(
        0,
        ge=0,
        le=8,
        description=(
            "Cover modifier of the target hex plus the hindrances between the sniper and it "
            "(V&V 17.5); the die must exceed it."
        ),
    )


def sniper_cover_field() -> Any:  # noqa: ANN401 - pydantic types Field as Any: any default
    """The ``sniper_cover`` input of the Sniper Elimination Check (17.6)."""
    return Field(
        1,
        ge=1,
        le=8,
        description=(
            "Cover modifier of the sniper's hex plus the hindrances between it and the "
            "targeted units (V&V 17.6); at least 1, since a sniper is placed only where it has "
            "cover (17.2)."
        ),
    )


class VvSniperAttack(RuleInput):
    """A sniper's attack: on activation (17.2) or as opportunity fire (17.4); resolved by 17.5."""

    target_cover: int = target_cover_field()


def sniper_attack(inp: VvSniperAttack, chance: Chance) -> str:
    """The Casualty Points, ``-`` (none) or ``1`` ... ``6``, applied as in 14.61 (17.5)."""
    die = chance.roll(D6, "sniper attack (1d6)")
    points = die - inp.target_cover
    chance.note(
        "17.5",
        f"{die} - cover {inp.target_cover} = {points} CP"
        if points > 0
        else f"{die} <= cover {inp.target_cover}: no effect",
    )
    return str(points) if points > 0 else "-"


def sniper_attack_modifiers(inp: VvSniperAttack) -> list[Modifier]:
    """The target's cover, which the die must exceed and which is taken off the CPs (17.5)."""
    if not inp.target_cover:
        return []
    return [_dice(-inp.target_cover, "target cover and hindrances", "V&V 17.5")]


SNIPER_ATTACK: Procedure[VvSniperAttack] = Procedure(
    name="sniper_attack",
    title="Sniper attack (17.5)",
    input_model=VvSniperAttack,
    rule=sniper_attack,
    modifiers=sniper_attack_modifiers,
    outcome_order=("-", "1", "2", "3", "4", "5", "6"),
    meanings={
        "-": "no effect",
        **{
            str(n): f"{n} Casualty Point{'s' if n > 1 else ''}, applied as in 14.61"
            for n in range(1, 7)
        },
    },
)


class VvSniperElimination(RuleInput):
    """The Sniper Elimination Check the targeted units make after every sniper attack (17.6)."""

    sniper_cover: int = sniper_cover_field()
    unpinned_target: bool = Field(
        True,
        description=(
            "At least one targeted unit in the target hex is unpinned after the attack; "
            "without one no check can be made (V&V 17.6)."
        ),
    )


def sniper_elimination(inp: VvSniperElimination, chance: Chance) -> str:
    """``sniper_eliminated`` or ``sniper_survives`` (17.6)."""
    if not inp.unpinned_target:
        msg = gettext(
            "no Sniper Elimination Check: no unpinned unit is left in the target hex (V&V 17.6)"
        )
        raise RuleError(msg)
    cover = inp.sniper_cover
    eliminated = chance.check(D6, lambda die: die > cover, "sniper elimination check (1d6)")
    chance.note("17.6", f"1d6 {'>' if eliminated else '<='} cover {cover}")
    return "sniper_eliminated" if eliminated else "sniper_survives"


SNIPER_ELIMINATION: Procedure[VvSniperElimination] = Procedure(
    name="sniper_elimination",
    title="Sniper Elimination Check (17.6)",
    input_model=VvSniperElimination,
    rule=sniper_elimination,
    modifiers=no_modifiers,
    outcome_order=("sniper_eliminated", "sniper_survives"),
    facts=lambda inp: [("eliminated on 1d6 >", str(inp.sniper_cover))],
    meanings={
        "sniper_eliminated": "removed; it can no longer be activated (17.6)",
        "sniper_survives": "stays in its hex",
    },
)


# --- Smoke (11) ----------------------------------------------------------------------------------

SmokeMarker = Literal["smoke_1", "smoke_2"]
SMOKE_HINDRANCE: dict[str, int] = {"smoke_1": 1, "smoke_2": 2}
"""11.5: a Smoke 1 marker is a +1 hindrance, Smoke 2 +2, into or through its hex, on top of the
hex's terrain cover; no effect on movement. Smoke has no roll of its own."""


def smoke_hindrance(marker: SmokeMarker) -> int:
    """The hindrance modifier of a Smoke marker (11.5)."""
    return SMOKE_HINDRANCE[marker]


def smoke_after_action(marker: SmokeMarker) -> SmokeMarker | None:
    """The marker left after the After-Action Phase (5.36): Smoke 2 becomes Smoke 1, Smoke 1
    goes."""
    return "smoke_1" if marker == "smoke_2" else None


PROCEDURES = (
    RALLY,
    ARTILLERY_PLACEMENT,
    ARTILLERY_VS_AFV,
    MINEFIELD,
    SNIPER_ATTACK,
    SNIPER_ELIMINATION,
)
