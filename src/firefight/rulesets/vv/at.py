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

Parts, their public names re-exported here: the charts, numbers and facing
(:mod:`~firefight.rulesets.vv.at_charts`) and the attack as stated
(:mod:`~firefight.rulesets.vv.at_input`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Literal

from firefight.chance import D6, TWO_D6, Chance, exact
from firefight.chance.direct import by_total, then
from firefight.chance.distribution import Distribution
from firefight.core.modifier import Modifier, ModifierKind
from firefight.rulesets.procedure import Procedure
from firefight.rulesets.vv.at_charts import (
    ABANDON_ON,
    BASE_OUTCOMES,
    INFANTRY_WEAPONS,
    MORTAR_MINIMUM_RANGE,
    OUTCOMES,
    REAR_FROM,
    STRIKES,
    Facing,
    Rating,
    Target,
    Weapon,
    armor_elimination_table,
    armor_facing,
    at_to_hit_table,
    elimination_number,
    to_hit_number,
)
from firefight.rulesets.vv.at_input import VvAtAttack
from firefight.rulesets.vv.natural import ATTACK_DICE, attack_dice_roll, natural_facts
from firefight.rulesets.vv.valor import triggers_valor, valor_check, valor_number

__all__ = [
    "ABANDON_ON",
    "AT_ATTACK",
    "BASE_OUTCOMES",
    "INFANTRY_WEAPONS",
    "MORTAR_MINIMUM_RANGE",
    "OUTCOMES",
    "PROCEDURES",
    "REAR_FROM",
    "STRIKES",
    "AtSheet",
    "EqualRoll",
    "Facing",
    "Rating",
    "Target",
    "VvAtAttack",
    "Weapon",
    "abandonment_check",
    "armor_elimination_table",
    "armor_facing",
    "at_attack",
    "at_facts",
    "at_modifiers",
    "at_sheet",
    "at_to_hit_table",
    "elimination_number",
    "strike_effect",
    "to_hit_number",
]


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
    if inp.target == "afv" and inp.front_armour is not None:
        front = inp.front_armour
        rear = inp.rear_armour or inp.front_armour
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


def elimination_verdict(roll: int, number: int, equal_roll: EqualRoll) -> str:
    """18.4 (strikes 21.5, 12.67): an elimination roll below the Elimination Number
    eliminates, above it has no effect; equal, ``equal_roll`` says (``immobilized``: the
    18.6 abandonment check follows, :func:`immobilized_fate`)."""
    if roll < number or (roll == number and equal_roll == "eliminates"):
        return "eliminated"
    if roll > number:
        return "no_effect"
    return "immobilized"


def immobilized_fate(verdict: str, chance: Chance) -> str:
    """18.6: an AFV the elimination roll immobilized is abandoned on 1d6 <= 2."""
    if verdict != "immobilized":
        return verdict
    return "immobilized_abandoned" if abandonment_check(chance) else "immobilized"


def _sign(roll: int, number: int) -> str:
    return "<" if roll < number else "=" if roll == number else ">"


def strike_effect(
    roll: int, number: int, chance: Chance, equal_roll: EqualRoll = "eliminates"
) -> str:
    """21.5, 12.67: a strike's elimination roll at most the Elimination Number destroys.

    ``equal_roll = immobilizes`` reads a roll equal to the number as 18.4 does for direct AT
    fire instead: immobilized, then the 18.6 abandonment check.
    """
    chance.note("21.5 / 12.67", f"{roll} {_sign(roll, number)} {number}")
    return immobilized_fate(elimination_verdict(roll, number, equal_roll), chance)


def _equal_roll(inp: VvAtAttack) -> EqualRoll:
    """A strike's roll equal to the number eliminates (21.5); direct AT fire's immobilizes."""
    return "eliminates" if inp.weapon in STRIKES else "immobilizes"


def _elimination_number(inp: VvAtAttack, sheet: AtSheet, chance: Chance) -> str | int:
    """What a hit does before the elimination roll (18.4, 18.5): its result where none is
    rolled, else the Elimination Number the roll is read against."""
    if inp.target != "afv":
        chance.note("18.4", f"a hit {inp.target.replace('_', ' ')} is eliminated")
        return "eliminated"
    armor = _armor(inp, sheet, chance)
    cell = elimination_number(inp.atfp, armor)
    table = armor_elimination_table()
    chance.note(table.title, f"AT FP {inp.atfp}, armor {armor} -> {cell}")
    return _NO_ROLL[cell] if cell in _NO_ROLL else int(cell)


def _effect(inp: VvAtAttack, sheet: AtSheet, chance: Chance) -> str:
    """What a hit does (18.4, 18.6; strikes 21.5, 12.67)."""
    number = _elimination_number(inp, sheet, chance)
    if isinstance(number, str):
        return number
    roll = chance.roll(TWO_D6, "elimination dice roll (2d6)")
    if inp.weapon in STRIKES:
        return strike_effect(roll, number, chance, _equal_roll(inp))
    chance.note("18.4 elimination", f"{roll} {_sign(roll, number)} {number}")
    return immobilized_fate(elimination_verdict(roll, number, "immobilizes"), chance)


def _effect_odds(inp: VvAtAttack, sheet: AtSheet) -> Distribution[str]:
    """The exact odds of :func:`_effect`: the steps before the roll replayed, then each
    Elimination Number's roll read once per total (:func:`elimination_verdict`) and the
    abandonment check once per verdict."""

    def rolled(number: str | int) -> Mapping[str, Fraction]:
        if isinstance(number, str):
            return {number: Fraction(1)}
        verdicts = by_total(
            TWO_D6, lambda roll: elimination_verdict(roll, number, _equal_roll(inp))
        )
        return then(verdicts, lambda verdict: exact(lambda c: immobilized_fate(verdict, c)))

    return then(exact(lambda chance: _elimination_number(inp, sheet, chance)), rolled)


@dataclass(frozen=True, slots=True)
class AtRolled:
    """An AT attack between its phases: hit or not, whether the firer's valor check is due (a
    natural 2, 16.2), its result so far and the valor suffix (``";valorous"``)."""

    hit: bool
    valor_due: bool = False
    result: str = ""
    suffix: str = ""


def _rolled(inp: VvAtAttack, sheet: AtSheet, roll: int) -> AtRolled:
    """18.3, 16.2: what a to-hit roll of ``roll`` leaves: hit or not, a valor check due."""
    due = (
        inp.check_valor
        and inp.weapon in INFANTRY_WEAPONS
        and not inp.firer_valorous
        and triggers_valor(roll)
    )
    return AtRolled(roll + sheet.modifier <= sheet.to_hit, due)


def _to_hit(inp: VvAtAttack, sheet: AtSheet, chance: Chance) -> AtRolled:
    """18.3: the to-hit roll (a natural 2 noted, 16.2)."""
    roll = attack_dice_roll(
        chance,
        "to-hit dice roll (2d6)",
        infantry=inp.weapon in INFANTRY_WEAPONS,
        valor_rolled=inp.check_valor and not inp.firer_valorous,
    )
    state = _rolled(inp, sheet, roll)
    hit = state.hit
    chance.note(
        at_to_hit_table().title,
        f"{sheet.row}: {roll} {sheet.modifier:+} = {roll + sheet.modifier} "
        f"{'<=' if hit else '>'} {sheet.to_hit}: {'hit' if hit else 'miss'}",
    )
    return state


def _valor(inp: VvAtAttack, state: AtRolled, chance: Chance) -> AtRolled:
    """16.2: the firer's valor check after a natural 2."""
    if not state.valor_due:
        return state
    valorous = valor_check(inp.firer_unit, inp.firer_casualty_rating, chance, "firer")
    return AtRolled(state.hit, False, "", ";valorous" if valorous else ";not_valorous")


def _survived(inp: VvAtAttack, result: str, chance: Chance) -> str:
    """18.6: a target already immobilized that survives the attack: its abandonment check."""
    if inp.target_immobilized and result in {"miss", "no_effect"} and abandonment_check(chance):
        return "abandoned"
    return result


def _hit_effect(inp: VvAtAttack, sheet: AtSheet, state: AtRolled, chance: Chance) -> AtRolled:
    """18.4-18.6: the hit's effect, then an immobilized target's abandonment check."""
    result = _survived(inp, _effect(inp, sheet, chance) if state.hit else "miss", chance)
    return AtRolled(state.hit, False, result, state.suffix)


def at_attack(inp: VvAtAttack, chance: Chance) -> str:
    """Resolve one AT attack: to-hit, [valor check], [facing die], elimination, abandonment."""
    sheet = at_sheet(inp)
    state = _to_hit(inp, sheet, chance)
    rolled = _hit_effect(inp, sheet, _valor(inp, state, chance), chance)
    return rolled.result + rolled.suffix


def at_odds(inp: VvAtAttack) -> Distribution[str]:
    """The exact odds of :func:`at_attack` from its own steps: the to-hit roll's totals read
    once each (:func:`_rolled`), the valor check once per state it leaves, and the effect
    once per hit or miss (it reads no valor suffix, which it carries on), not replayed once
    per branch of the to-hit roll."""
    sheet = at_sheet(inp)
    rolled = by_total(ATTACK_DICE, lambda roll: _rolled(inp, sheet, roll))
    checked = then(rolled, lambda state: exact(lambda chance: _valor(inp, state, chance)))

    def effect(hit: bool) -> Distribution[str]:
        results = _effect_odds(inp, sheet) if hit else {"miss": Fraction(1)}
        return then(results, lambda result: exact(lambda chance: _survived(inp, result, chance)))

    effects = {hit: effect(hit) for hit in {state.hit for state in checked}}
    return then(
        checked,
        lambda state: {result + state.suffix: p for result, p in effects[state.hit].items()},
    )


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
    exact_odds=at_odds,
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
