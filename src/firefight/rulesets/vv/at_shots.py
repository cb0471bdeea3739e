"""V&V 18 AT fire on the board, what a fire policy weighs: the exact result of an AT attack
and its chance of stopping its target (18.4, 18.6), shared by the AT fire of a move
(:mod:`~firefight.rulesets.vv.at_move`) and of an overrun
(:mod:`~firefight.rulesets.vv.overrun_move`).
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from firefight.chance import exact
from firefight.chance.distribution import Distribution
from firefight.rulesets.vv.at import VvAtAttack, at_attack

DEFAULT_AT_THRESHOLD = Fraction(1, 3)
"""The ``threshold`` policy's default for AT fire: fire once the attack's chance of stopping
its target (eliminated or immobilized, 18.4) reaches one in three."""
STOPS = frozenset({"eliminated", "immobilized", "immobilized_abandoned", "abandoned"})
"""AT results that stop a moving vehicle (18.4, 18.6)."""


@lru_cache(maxsize=4096)
def at_odds(attack: VvAtAttack) -> Distribution[str]:
    """The exact distribution of the AT attack's result (the rule :func:`at_attack` rolls),
    without the valor suffix."""
    return exact(lambda chance: at_attack(attack, chance).split(";")[0])


def stop_chance(attack: VvAtAttack) -> Fraction:
    """The chance the attack stops its target: eliminated, immobilized or abandoned."""
    return sum((p for result, p in at_odds(attack).items() if result in STOPS), Fraction(0))
