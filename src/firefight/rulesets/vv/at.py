"""V&V 18 Anti-Tank (AT) Combat: the to-hit roll, then the elimination roll, as one chain.

18.3: 2d6 plus the target's cover (13.4, 13.5 gun shield +1, 13.6 leader, 16.3 valor -1) at
most the to-hit number of the Anti-Tank To-Hit Numbers chart hits. 18.4: a hit unarmoured
vehicle or Gun is eliminated; against an AFV the attacker's AT FP Rating and the armour of the
facing hit (18.5, the Armor Facing Diagram) give the Elimination Number on the Armor
Elimination Table, and a second 2d6 (no cover) below it eliminates, equal immobilizes, above
has no effect. 18.6: an immobilized AFV is abandoned on 1d6 <= 2. Strikes from off-board
artillery and aircraft (21.5) and on-board mortars (12.67) read the rear armour and eliminate on
a roll at most the Elimination Number. 16.2: a natural two on an infantry unit's to-hit roll
triggers a valor check (by option, part of the odds), and a natural twelve activates the
opposing sniper (17.2; noted in the trace). 20.5: a unit in a bunker cannot be targeted with
ATFP. 12.65: a mortar's minimum range is two hexes.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from pathlib import Path
from typing import Literal

from pydantic import Field, model_validator

from firefight.board.hexes import DIRECTIONS, Hex
from firefight.chance import D6, TWO_D6, Chance
from firefight.core.chart import Chart, load_chart
from firefight.core.inputs import RuleInput
from firefight.core.modifier import Modifier, ModifierKind
from firefight.errors import InputError
from firefight.rulesets.procedure import Procedure
from firefight.rulesets.vv.board import MAX_LINE_HINDRANCE
from firefight.rulesets.vv.natural import attack_dice_roll, natural_facts
from firefight.rulesets.vv.valor import ValorUnit, triggers_valor, valor_check, valor_number

__all__ = [
    "AT_ATTACK",
    "OUTCOMES",
    "PROCEDURES",
    "VvAtAttack",
    "armor_elimination_table",
    "armor_facing",
    "at_attack",
    "at_modifiers",
    "at_to_hit_table",
    "elimination_number",
    "to_hit_number",
]

_DATA = Path(__file__).parent / "data"

Weapon = Literal["at_weapon", "gun", "artillery_strike", "air_strike", "on_board_mortar"]
Rating = Literal["A", "B", "C", "D", "E", "F"]
Target = Literal["afv", "unarmoured_vehicle", "gun"]
Facing = Literal["front", "rear", "along_front_rear_hexside"]

INFANTRY_WEAPONS = frozenset({"at_weapon", "on_board_mortar"})
"""Weapons an infantry unit fires: its leader (13.6, 12.61) and its valor (16.2, 16.3) count."""
STRIKES = frozenset({"artillery_strike", "air_strike", "on_board_mortar"})
"""Attacks on a hex that read the rear armour and eliminate on <= EN (21.5, 12.67)."""
MORTAR_MINIMUM_RANGE = 2
"""12.65: mortars may not fire at targets inside their minimum range of two hexes."""
ABANDON_ON = 2
"""18.6: the crew abandons an immobilized AFV on a die roll of 2 or less."""
REAR_FROM = 4
"""18.5: along the hexside between front and rear armour, 1-3 hits the front, 4-6 the rear."""

BASE_OUTCOMES = (
    "miss",
    "no_effect",
    "abandoned",
    "immobilized",
    "immobilized_abandoned",
    "eliminated",
)
OUTCOMES = BASE_OUTCOMES + tuple(
    f"{base};{valor}" for valor in ("valorous", "not_valorous") for base in BASE_OUTCOMES
)
"""Every outcome; ``;valorous`` / ``;not_valorous`` follow a natural two when
``check_valor`` is on."""


@cache
def at_to_hit_table() -> Chart:
    """The Anti-Tank To-Hit Numbers chart, from ``data/at_to_hit.toml``."""
    return load_chart(_DATA / "at_to_hit.toml")


@cache
def armor_elimination_table() -> Chart:
    """The Armor Elimination Table, from ``data/armor_elimination.toml``."""
    return load_chart(_DATA / "armor_elimination.toml")


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
    front_armor: Rating | None = Field(
        None,
        description="The AFV's front Armor Rating (or its only one), A-F (V&V 18.5).",
    )
    rear_armor: Rating | None = Field(
        None,
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
        if self.target == "afv" and self.front_armor is None:
            problems.append("'front_armor' must be given for an afv target (V&V 18.5)")
        if self.target != "afv" and (self.front_armor or self.rear_armor):
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


def to_hit_number(weapon: Weapon, range_hexes: int) -> tuple[str, int]:
    """The chart row and the to-hit number (Anti-Tank To-Hit Numbers, V&V 18.3)."""
    if weapon == "gun":
        if range_hexes <= 10:
            row = "Guns at 10 hexes or less"
        elif range_hexes <= 19:
            row = "Guns at 11-19 hexes"
        else:
            row = "Guns at 20 hexes or more"
    else:
        row = {
            "at_weapon": "AT Weapons",
            "artillery_strike": "Arty & Air Strikes",
            "air_strike": "Arty & Air Strikes",
            "on_board_mortar": "On-board mortars",
        }[weapon]
    cell = at_to_hit_table().cell_at(row, "To-hit number").value
    return row, int(cell.removesuffix(" or less"))


def elimination_number(atfp: str, armor: str) -> str:
    """The Armor Elimination Table cell as printed: "3" ... "11", "E" or "-" (V&V 18.4)."""
    return armor_elimination_table().cell_at(atfp, armor).value


def armor_facing(attacker: Hex, target: Hex, target_facing: int) -> Facing:
    """Which armour an attack from ``attacker`` meets (the Armor Facing Diagram, V&V 18.5).

    ``target_facing`` is the hexside the target faces, 1-6 clockwise from the top. The diagram
    splits the hexes around the target by the line through its two vertices that lie at right
    angles to its facing: the three hexes on the faced side see the front armour, the three
    behind the rear; a line of fire running exactly along that line (along the hexside between
    a front and a rear hex) is ``along_front_rear_hexside``.
    """
    if target_facing not in DIRECTIONS:
        raise InputError("target_facing", "an integer from 1 to 6", target_facing)
    if attacker == target:
        raise InputError("attacker", "a hex other than the target's", str(attacker))
    dq, dr = DIRECTIONS[target_facing]
    q, r = attacker.q - target.q, attacker.r - target.r
    # Dot product of the two flat-topped pixel vectors, times 4 so it stays an integer.
    dot = 9 * q * dq + 3 * (2 * r + q) * (2 * dr + dq)
    if dot > 0:
        return "front"
    if dot < 0:
        return "rear"
    return "along_front_rear_hexside"


def at_modifiers(inp: VvAtAttack) -> list[Modifier]:
    """The to-hit roll's modifiers, each with its rule (none apply to the elimination roll)."""
    cases = [
        (inp.cover, "cover of the target hex", "V&V 13.4, 18.3"),
        (inp.hindrance, "hindrances along the LOS", "V&V 13.4"),
        (1 if inp.gun_shield else 0, "gun shield", "V&V 13.5"),
        (inp.leader_modifier, "leadership modifier", "V&V 13.6"),
        (-1 if inp.firer_valorous else 0, "valorous firer", "V&V 16.3"),
    ]
    return [
        Modifier(label, Fraction(value), ModifierKind.DICE, rule)
        for value, label, rule in cases
        if value
    ]


@dataclass(frozen=True, slots=True)
class AtSheet:
    """What an attack brings before the dice: to-hit number and modifier, armour per facing."""

    row: str
    to_hit: int
    modifier: int
    front: str
    rear: str


@lru_cache(maxsize=4096)
def at_sheet(inp: VvAtAttack) -> AtSheet:
    """The chart readings of an attack (once per input: exact odds re-run the rule per branch)."""
    row, number = to_hit_number(inp.weapon, inp.range_hexes)
    modifier = sum(int(m.value) for m in at_modifiers(inp))
    front = rear = ""
    if inp.target == "afv" and inp.front_armor is not None:
        front = inp.front_armor
        rear = inp.rear_armor or inp.front_armor
    return AtSheet(row, number, modifier, front, rear)


def abandonment_check(chance: Chance) -> bool:
    """18.6: 1d6 <= 2 and the crew abandons the immobilized AFV."""
    abandoned = chance.check(D6, _abandons, "abandonment die roll (1d6)")
    chance.note(
        "18.6 abandonment",
        f"1d6 {'<=' if abandoned else '>'} 2: " + ("abandoned" if abandoned else "the crew stays"),
    )
    return abandoned


def _abandons(die: int) -> bool:
    return die <= ABANDON_ON


def _rear(die: int) -> bool:
    return die >= REAR_FROM


def _armor(inp: VvAtAttack, sheet: AtSheet, chance: Chance) -> str:
    """The armour rating the attack meets (18.5; strikes: rear, 21.5 and 12.67)."""
    if inp.weapon in STRIKES or sheet.front == sheet.rear:
        return sheet.rear
    if inp.facing == "along_front_rear_hexside":
        facing = "rear" if chance.check(D6, _rear, "armor facing die roll (1d6)") else "front"
        chance.note("18.5 armor facing", f"1d6 {'4-6' if facing == 'rear' else '1-3'}: {facing}")
        return sheet.front if facing == "front" else sheet.rear
    return sheet.front if inp.facing == "front" else sheet.rear


_NO_ROLL = {"E": "eliminated", "-": "no_effect"}
"""Armor Elimination Table cells that need no elimination roll (readings, see docs)."""


EqualRoll = Literal["eliminates", "immobilizes"]


def strike_effect(
    roll: int, number: int, chance: Chance, equal_roll: EqualRoll = "eliminates"
) -> str:
    """21.5, 12.67: a strike's elimination roll at most the Elimination Number destroys.

    ``equal_roll = immobilizes`` reads a roll equal to the number as 18.4 does for direct AT
    fire instead: immobilized, then the 18.6 abandonment check.
    """
    sign = "<" if roll < number else "=" if roll == number else ">"
    chance.note("21.5 / 12.67", f"{roll} {sign} {number}")
    if roll < number or (roll == number and equal_roll == "eliminates"):
        return "eliminated"
    if roll > number:
        return "no_effect"
    return "immobilized_abandoned" if abandonment_check(chance) else "immobilized"


def _effect(inp: VvAtAttack, sheet: AtSheet, chance: Chance) -> str:
    """What a hit does (18.4, 18.6; strikes 21.5, 12.67)."""
    if inp.target != "afv":
        chance.note("18.4", f"a hit {inp.target.replace('_', ' ')} is eliminated")
        return "eliminated"
    armor = _armor(inp, sheet, chance)
    cell = elimination_number(inp.atfp, armor)
    table = armor_elimination_table()
    chance.note(table.title, f"AT FP {inp.atfp}, armor {armor} -> {cell}")
    if cell in _NO_ROLL:
        return _NO_ROLL[cell]
    number = int(cell)
    roll = chance.roll(TWO_D6, "elimination dice roll (2d6)")
    if inp.weapon in STRIKES:
        return strike_effect(roll, number, chance)
    sign = "<" if roll < number else "=" if roll == number else ">"
    chance.note("18.4 elimination", f"{roll} {sign} {number}")
    if roll < number:
        return "eliminated"
    if roll > number:
        return "no_effect"
    return "immobilized_abandoned" if abandonment_check(chance) else "immobilized"


def at_attack(inp: VvAtAttack, chance: Chance) -> str:
    """Resolve one AT attack: to-hit, [valor check], [facing die], elimination, abandonment."""
    sheet = at_sheet(inp)
    infantry = inp.weapon in INFANTRY_WEAPONS
    roll = attack_dice_roll(
        chance,
        "to-hit dice roll (2d6)",
        infantry=infantry,
        valor_rolled=inp.check_valor and not inp.firer_valorous,
    )
    total = roll + sheet.modifier
    hit = total <= sheet.to_hit
    chance.note(
        at_to_hit_table().title,
        f"{sheet.row}: {roll} {sheet.modifier:+} = {total} "
        f"{'<=' if hit else '>'} {sheet.to_hit}: {'hit' if hit else 'miss'}",
    )
    suffix = ""
    if (
        inp.check_valor
        and inp.weapon in INFANTRY_WEAPONS
        and not inp.firer_valorous
        and triggers_valor(roll)
    ):
        valorous = valor_check(inp.firer_unit, inp.firer_casualty_rating, chance, "firer")
        suffix = ";valorous" if valorous else ";not_valorous"
    result = _effect(inp, sheet, chance) if hit else "miss"
    if inp.target_immobilized and result in {"miss", "no_effect"} and abandonment_check(chance):
        result = "abandoned"
    return result + suffix


def at_facts(inp: VvAtAttack) -> list[tuple[str, str]]:
    """The readings a player checks: to-hit number and modifier, Elimination Numbers."""
    sheet = at_sheet(inp)
    found = [
        ("to-hit number", f"{sheet.to_hit} ({sheet.row})"),
        ("to-hit modifier", f"{sheet.modifier:+}"),
    ]
    if sheet.front:
        if inp.weapon in STRIKES:
            found.append(("rear armor EN", elimination_number(inp.atfp, sheet.rear)))
        else:
            found.append(("front armor EN", elimination_number(inp.atfp, sheet.front)))
            found.append(("rear armor EN", elimination_number(inp.atfp, sheet.rear)))
    if inp.check_valor and inp.weapon in INFANTRY_WEAPONS and not inp.firer_valorous:
        number = valor_number(inp.firer_unit, inp.firer_casualty_rating)
        found.append(("valor check on a natural 2", f"2d6 <= {number}"))
    if inp.weapon in INFANTRY_WEAPONS:
        found.extend(natural_facts())
    return found


AT_ATTACK: Procedure[VvAtAttack] = Procedure(
    name="at_attack",
    title="AT attack: to-hit, elimination, abandonment (V&V 18.3-18.6)",
    input_model=VvAtAttack,
    rule=at_attack,
    modifiers=at_modifiers,
    chart="armor_elimination",
    outcome_order=OUTCOMES,
    facts=at_facts,
    meanings={
        "miss": "the to-hit roll failed (18.3)",
        "no_effect": "hit, elimination roll above the Elimination Number or '-' (18.4)",
        "abandoned": "already immobilized, survived, and the crew abandons it (18.6)",
        "immobilized": "elimination roll equal to the Elimination Number (18.4)",
        "immobilized_abandoned": "immobilized, then abandoned on 1d6 <= 2: removed (18.6)",
        "eliminated": "removed (18.4; 'E' on the chart, or an unarmoured target hit)",
    },
)

PROCEDURES = (AT_ATTACK,)
