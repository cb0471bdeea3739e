"""EPT antitank fire, to hit: 2d6 + the to-hit modifiers (TABLE DE TOUCHER
ANTICHAR, with the terrain's as EPT fire reads them) at most the to-hit number (8 / 7 / 6 by
distance) hits.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from firefight.chance import TWO_D6, Chance
from firefight.core.modifier import Modifier
from firefight.rulesets.ept import fire as fire_combat
from firefight.rulesets.ept.antitank_charts import (
    ARMOR_ROW,
    HIT,
    MISS,
    MOVEMENT,
    TARGET_SIZE,
    TO_HIT,
    gun_fact,
    gun_modifier,
    modifier_total,
    quality_modifier,
    roll_modifier,
    size_label,
    to_hit_gun_table,
    to_hit_table,
)
from firefight.rulesets.ept.antitank_inputs import (
    EptAntitankToHit,
)
from firefight.rulesets.ept.fire import EptFire

# --- to hit ---------------------------------------------------------------------------------


def _terrain_attack(shot: EptAntitankToHit) -> EptFire:
    """The fire attack whose terrain lines the to-hit chart's 'see table' points to.

    The strength plays no part in those lines; only the terrain fields are carried over.
    """
    return EptFire(
        strength=1,
        protection=shot.protection,
        target_in_smoke=shot.target_in_smoke,
        hindrance_hexes=shot.hindrance_hexes,
        hindrance_blocking=shot.hindrance_blocking,
    )


def to_hit_modifiers(shot: EptAntitankToHit) -> list[Modifier]:
    """The to-hit dice modifiers, in the chart's order."""
    rule = f"{TO_HIT}: dice modifiers"
    found: list[Modifier] = []

    def add(value: int, label: str, rule: str = rule) -> None:
        if value:
            found.append(roll_modifier(label, value, rule))

    add(MOVEMENT if shot.target_moving else 0, "moving target")
    add(MOVEMENT if shot.firer_moving else 0, "moving firer")
    label, value = quality_modifier(shot.firer_quality, shot.shock_quality)
    add(value, label)
    add(TARGET_SIZE[shot.target_size], size_label(shot.target_size))
    add(
        shot.turret_penalty,
        "fire to the flank or rear (turret speed)",
        f"{TO_HIT}: fire to the flank or rear, according to the turret speed",
    )
    terrain_rule = f"{TO_HIT}: protection of terrain and visual hindrances (see table"
    found.extend(
        Modifier(m.label, m.value, m.kind, f"{terrain_rule}: {m.rule})")
        for m in fire_combat.dice_modifiers(_terrain_attack(shot))
    )
    found.extend(
        gun_modifier(
            to_hit_gun_table(),
            shot.gun_length,
            shot.distance,
            f"{TO_HIT}: modification to function of gun",
        )
    )
    return found


@dataclass(frozen=True, slots=True)
class ToHitSheet:
    """What a shot brings to the to-hit chart before the dice are rolled."""

    number: int
    column: str
    dice_modifier: int


@lru_cache(maxsize=4096)
def to_hit_sheet(shot: EptAntitankToHit) -> ToHitSheet:
    """Check the line of sight, then read the to-hit number and sum the modifiers (once per
    shot: exact odds re-run the rule for every branch of the dice)."""
    fire_combat.check_line_of_sight(_terrain_attack(shot))
    cell = to_hit_table().lookup_label(ARMOR_ROW, shot.distance)
    return ToHitSheet(int(cell.value), cell.column, modifier_total(to_hit_modifiers(shot)))


def to_hit_facts(shot: EptAntitankToHit) -> list[tuple[str, str]]:
    """The to-hit number, its column and the dice modifier."""
    sheet = to_hit_sheet(shot)
    return [
        ("to-hit number", f"{sheet.number} (distance {shot.distance}: column {sheet.column})"),
        (
            "gun function (to hit)",
            gun_fact(to_hit_gun_table(), shot.gun_length, shot.distance),
        ),
        ("dice modifier", f"{sheet.dice_modifier:+}"),
        ("hit on", f"2d6 {sheet.dice_modifier:+} <= {sheet.number}"),
    ]


def to_hit(shot: EptAntitankToHit, chance: Chance) -> str:
    """Roll to hit on the TABLE DE TOUCHER ANTICHAR: 2d6 + modifiers <= the number hits."""
    sheet = to_hit_sheet(shot)
    roll = chance.roll(TWO_D6, "to-hit roll (2d6)")
    total = roll + sheet.dice_modifier
    hit = total <= sheet.number
    chance.note(
        to_hit_table().title,
        f"{roll} {sheet.dice_modifier:+} = {total} {'<=' if hit else '>'} {sheet.number} "
        f"(distance {shot.distance}: column {sheet.column}) -> {HIT if hit else MISS}",
    )
    return HIT if hit else MISS
