"""The chance engine: every random event of a rule goes through a :class:`Chance`.

``exact`` enumerates every branch with exact probabilities, ``sample`` draws from a seeded
generator and records a trace, ``scripted`` uses dice the player rolled at the table.
"""

from firefight.chance.evaluate import (
    WorkBudgetError,
    exact,
    generator,
    sample,
    sample_many,
    scripted,
    work_budget,
)
from firefight.chance.events import Deck, Dice, binomial
from firefight.chance.protocol import Chance, Resolution, TraceEvent

D6 = Dice.d(6)
TWO_D6 = Dice.d(6, 2)
D10 = Dice.d(10)

__all__ = [
    "D6",
    "D10",
    "TWO_D6",
    "Chance",
    "Deck",
    "Dice",
    "Resolution",
    "TraceEvent",
    "WorkBudgetError",
    "binomial",
    "exact",
    "generator",
    "sample",
    "sample_many",
    "scripted",
    "work_budget",
]
