"""EPT terrain: TABLE DES TERRAINS (seed 000) and the visual-hindrance line-of-sight rule.

The chart gives, for each terrain, the movement cost by mover (infantry, tracked, half-track,
4x4, wheeled), the protection, and (``*``) whether it is a visual hindrance; its note says
"LOS blocked if sum of hindrances > +3". :func:`hindrance_blocks_los` is that rule, written
once, for fire combat here and for the board's line of sight.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import ClassVar, Literal

from pydantic import Field

from firefight.chance import Chance
from firefight.core.chart import Chart, chart_file
from firefight.core.inputs import RuleInput
from firefight.core.modifier import Modifier, ModifierKind
from firefight.rulesets.ept.paths import DATA
from firefight.rulesets.procedure import Procedure

TERRAIN_TABLE = "TABLE DES TERRAINS"

Terrain = Literal[
    "clear",
    "forest",
    "orchard",
    "brush",
    "field",
    "marsh",
    "cemetery",
    "water_body",
    "waterway",
    "bridge",
    "road",
    "hedge",
    "bocage",
    "wall",
    "wood_building",
    "stone_building",
    "higher_level",
]
Mover = Literal["infantry", "tracked", "halftrack", "4x4", "wheeled"]
HindranceBlocking = Literal["above_3", "from_3"]
DashReading = Literal["prohibited", "no_cost"]

ROW_LABELS: dict[str, str] = {
    "clear": "Clear terrain",
    "forest": "Forest",
    "orchard": "Orchard*",
    "brush": "Brush*",
    "field": "Field*",
    "marsh": "Marsh*",
    "cemetery": "Cemetery*",
    "water_body": "Water body",
    "waterway": "Waterway",
    "bridge": "Bridge",
    "road": "Road",
    "hedge": "Hedge",
    "bocage": "Bocage",
    "wall": "Wall",
    "wood_building": "Wood Building",
    "stone_building": "Stone Building",
    "higher_level": "Higher Level",
}
COLUMN_LABELS: dict[str, str] = {
    "infantry": "Inf.",
    "tracked": "Tracked",
    "halftrack": "Halftrk",
    "4x4": "4x4",
    "wheeled": "Wheeled",
}
PROHIBITED = "Prohibited"

HINDRANCE_DICE_CAP = 3
"""'Visual hindrance: +1 per hex traversed (max.: 3)' (MODIFICATEURS DE TIR)."""


@cache
def terrain_table() -> Chart:
    """The TABLE DES TERRAINS, loaded once from ``data/terrain.toml``."""
    return chart_file(DATA / "terrain.toml")


def hindrance_blocks_los(total: int, rule: HindranceBlocking = "above_3") -> bool:
    """Whether visual hindrances summing to ``total`` block the line of sight.

    ``above_3``: "[LOS blocked if sum of hindrances > +3]" (the seed's Terrain Table note);
    ``from_3``: 3 points block (the later EPT rules, FACTS.md).
    """
    return total > HINDRANCE_DICE_CAP if rule == "above_3" else total >= HINDRANCE_DICE_CAP


def hindrance_dice_modifier(total: int) -> int:
    """The fire dice modifier for visual hindrance: +1 per hex traversed, at most +3."""
    return min(total, HINDRANCE_DICE_CAP)


@dataclass(frozen=True, slots=True)
class TerrainEffect:
    """What one terrain means for one mover, read off the TABLE DES TERRAINS.

    ``cost`` is ``None`` when the mover may not enter; ``added`` marks a cost printed with a
    sign (hedge "+0.5"), which adds to the cost of the hex entered. ``protection`` is ``None``
    where the chart prints none; ``conditional_protection`` marks the bracketed "(+1)" of a
    higher level, whose condition the seed does not give.
    """

    terrain: str
    mover: str
    cell: str
    cost: Fraction | None
    added: bool
    protection: int | None
    conditional_protection: bool
    visual_hindrance: bool


def _number(text: str) -> Fraction:
    return Fraction(text.strip("()"))


def terrain_effect(
    terrain: Terrain, mover: Mover, dash_reading: DashReading = "prohibited"
) -> TerrainEffect:
    """The movement cost, protection and visual hindrance of ``terrain`` for ``mover``."""
    table = terrain_table()
    row = ROW_LABELS[terrain]
    cell = table.cell_at(row, COLUMN_LABELS[mover]).value
    protection_cell = table.cell_at(row, "Protection").value
    if cell == PROHIBITED or (cell == "-" and dash_reading == "prohibited"):
        cost: Fraction | None = None
    elif cell == "-":
        cost = Fraction(0)
    else:
        cost = _number(cell)
    return TerrainEffect(
        terrain=terrain,
        mover=mover,
        cell=cell,
        cost=cost,
        added=cell.startswith("+"),
        protection=int(_number(protection_cell)) if protection_cell else None,
        conditional_protection=protection_cell.startswith("("),
        visual_hindrance=row.endswith("*"),
    )


class EptTerrain(RuleInput):
    """One terrain for one mover (TABLE DES TERRAINS)."""

    readings: ClassVar[frozenset[str]] = frozenset({"dash_reading"})
    """The fields that read the rules where they are silent (folded apart on the web)."""

    terrain: Terrain = Field(description="Terrain of the hex or hexside (TABLE DES TERRAINS rows).")
    mover: Mover = Field("infantry", description="Who moves: the chart's five mover columns.")
    dash_reading: DashReading = Field(
        "prohibited",
        description=(
            "Reading of a '-' movement cell (forest and cemetery for wheeled vehicles), which "
            "the chart sheet does not explain: prohibited (default) or no_cost."
        ),
    )


def terrain_facts(inp: EptTerrain) -> list[tuple[str, str]]:
    """Movement cost, protection, visual hindrance and the notes that apply."""
    effect = terrain_effect(inp.terrain, inp.mover, inp.dash_reading)
    protection = "none printed" if effect.protection is None else f"{effect.protection:+d}"
    if effect.conditional_protection:
        protection += " (bracketed on the chart: its condition is not in the seed)"
    cost = "prohibited" if effect.cost is None else f"{effect.cell} MP"
    notes = [note for note in terrain_table().notes if _note_applies(note, inp)]
    return [
        ("movement cost", cost + (" (added to the hex entered)" if effect.added else "")),
        ("protection", protection),
        ("visual hindrance", "yes (+1 per hex traversed)" if effect.visual_hindrance else "no"),
        *(("note", note) for note in notes),
    ]


def _note_applies(note: str, inp: EptTerrain) -> bool:
    if "building" in note:
        return inp.terrain in ("wood_building", "stone_building")
    if "bocage" in note:
        return inp.terrain == "bocage" and inp.mover != "infantry"
    if "road" in note:
        return inp.terrain == "road" and inp.mover == "infantry"
    return False


def terrain_modifiers(inp: EptTerrain) -> list[Modifier]:
    """The protection this terrain gives, as the fire dice modifier it becomes."""
    effect = terrain_effect(inp.terrain, inp.mover, inp.dash_reading)
    if not effect.protection:
        return []
    return [
        Modifier(
            f"{ROW_LABELS[inp.terrain].rstrip('*').lower()} protection",
            Fraction(effect.protection),
            ModifierKind.DICE,
            f"{TERRAIN_TABLE}: protection",
        )
    ]


def terrain(inp: EptTerrain, chance: Chance) -> str:
    """The movement cost as printed, or ``prohibited`` (no chance involved)."""
    effect = terrain_effect(inp.terrain, inp.mover, inp.dash_reading)
    chance.note(
        terrain_table().title,
        f"{ROW_LABELS[inp.terrain]} / {COLUMN_LABELS[inp.mover]}: {effect.cell}",
    )
    return "prohibited" if effect.cost is None else effect.cell


class EptLineOfSight(RuleInput):
    """The visual-hindrance rule of the TABLE DES TERRAINS."""

    readings: ClassVar[frozenset[str]] = frozenset({"hindrance_blocking"})
    """The fields that read the rules where they are silent (folded apart on the web)."""

    hindrance_hexes: int = Field(
        ge=0,
        le=99,
        description=(
            "Visual hindrance hexes (* on the Terrain Table) traversed: +1 each (at most 99, "
            "the cap on distances)."
        ),
    )
    hindrance_blocking: HindranceBlocking = Field(
        "above_3",
        description=(
            "above_3 = blocked when the sum is above +3 (the Terrain Table's note); "
            "from_3 = 3 points block (the later EPT rules)."
        ),
    )


def line_of_sight_modifiers(inp: EptLineOfSight) -> list[Modifier]:
    """The fire dice modifier the hindrance gives (at most +3), when the line is open."""
    if hindrance_blocks_los(inp.hindrance_hexes, inp.hindrance_blocking):
        return []
    value = hindrance_dice_modifier(inp.hindrance_hexes)
    if not value:
        return []
    return [
        Modifier(
            f"visual hindrance ({inp.hindrance_hexes} hex, max. +3)",
            Fraction(value),
            ModifierKind.DICE,
            "MODIFICATEURS DE TIR: terrain",
        )
    ]


def line_of_sight(inp: EptLineOfSight, chance: Chance) -> str:
    """``clear``, ``hindered`` or ``blocked`` (no chance involved)."""
    if hindrance_blocks_los(inp.hindrance_hexes, inp.hindrance_blocking):
        verdict = "blocked"
    else:
        verdict = "hindered" if inp.hindrance_hexes else "clear"
    chance.note(TERRAIN_TABLE, f"{inp.hindrance_hexes} hindrance: {verdict}")
    return verdict


TERRAIN: Procedure[EptTerrain] = Procedure(
    name="terrain",
    title="Terrain effects (TABLE DES TERRAINS)",
    input_model=EptTerrain,
    rule=terrain,
    modifiers=terrain_modifiers,
    chart="terrain",
    facts=terrain_facts,
    meanings={"prohibited": "the mover may not enter"},
)

LINE_OF_SIGHT: Procedure[EptLineOfSight] = Procedure(
    name="line_of_sight",
    title="Line of sight through visual hindrance (TABLE DES TERRAINS note)",
    input_model=EptLineOfSight,
    rule=line_of_sight,
    modifiers=line_of_sight_modifiers,
    outcome_order=("clear", "hindered", "blocked"),
    meanings={
        "clear": "no visual hindrance",
        "hindered": "open, with the hindrance modifier",
        "blocked": "no line of sight",
    },
)

PROCEDURES = (TERRAIN, LINE_OF_SIGHT)
