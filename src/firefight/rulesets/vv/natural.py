"""V&V 16.2 and 17.2: what a natural 2 or 12 on an infantry unit's attack dice roll calls for.

16.2: a natural, unmodified 2 on an infantry unit's AP or AT attack dice roll makes the
attacking unit (every unit of an AP fire group) check for valor. 17.2: a natural 12 on an
infantry unit's AP or AT attack roll activates the opposing player's sniper, which attacks the
units that activated it at once (17.5).

Every V&V procedure that rolls an infantry unit's AP or AT attack dice rolls them with
:func:`attack_dice_roll`, which notes either event in the trace; :func:`natural_chances` gives
the chance of each by evaluating the same roll and the same reading exactly.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

from firefight.chance import TWO_D6, Chance, exact
from firefight.rulesets.vv.valor import triggers_valor

ATTACK_DICE = TWO_D6
"""The AP attack dice roll (14.5) and the AT to-hit dice roll (18.3): 2d6."""
SNIPER_NATURAL_ROLL = 12
"""17.2: a natural 12 on an opposing infantry unit's AP or AT attack roll activates a sniper."""

VALOR_CHECKS = "valor checks"
SNIPER_ACTIVATED = "sniper activated"


def activates_sniper(natural_roll: int, *, infantry_attacker: bool = True) -> bool:
    """Whether an AP or AT attack roll activates the opposing sniper (17.2): a natural 12 by an
    infantry attacker (a sniper must also be available and a cover hex within LOS and 6 hexes)."""
    return infantry_attacker and natural_roll == SNIPER_NATURAL_ROLL


def natural_event(natural_roll: int) -> str:
    """What a natural roll of an infantry unit's attack calls for: ``valor checks`` (16.2),
    ``sniper activated`` (17.2) or nothing (``""``)."""
    if triggers_valor(natural_roll):
        return VALOR_CHECKS
    if activates_sniper(natural_roll):
        return SNIPER_ACTIVATED
    return ""


def attack_dice_roll(chance: Chance, label: str, *, infantry: bool, valor_rolled: bool) -> int:
    """Roll an attack's 2d6 and, for an infantry attacker, note a natural 2 (16.2) or 12 (17.2).

    ``valor_rolled``: whether the procedure itself goes on to roll the valor checks (its valor
    option is on); the note says where to make them otherwise.
    """
    roll = chance.roll(ATTACK_DICE, label)
    event = natural_event(roll) if infantry else ""
    if event == VALOR_CHECKS:
        where = (
            "rolled below"
            if valor_rolled
            else "not part of this outcome: the procedure's valor option, or `valor` per unit"
        )
        chance.note(
            "16.2 natural 2",
            f"every infantry unit that made the attack, unless already valorous, checks for valor "
            f"({where})",
        )
    elif event == SNIPER_ACTIVATED:
        chance.note(
            "17.2 natural 12",
            "the opposing sniper, if any, is activated and attacks the units that made the "
            "attack at once (17.5, `sniper_attack_hex`)",
        )
    return roll


@cache
def natural_chances() -> tuple[Fraction, Fraction]:
    """The exact chances of a natural 2 (valor checks) and a natural 12 (a sniper activated):
    the attack dice of :func:`attack_dice_roll` read by :func:`natural_event`, evaluated over
    every roll."""
    odds = exact(lambda chance: natural_event(chance.roll(ATTACK_DICE, "attack dice roll")))
    return odds[VALOR_CHECKS], odds[SNIPER_ACTIVATED]


def natural_facts() -> list[tuple[str, str]]:
    """The chance of each event, as facts of a procedure with an infantry attack roll."""
    valor, sniper = natural_chances()
    return [
        ("natural 2: valor checks (16.2)", str(valor)),
        ("natural 12: sniper activated (17.2)", str(sniper)),
    ]
